/*
 * The benchmark's machine description (bench/ps_topo.c): the hwloc reader
 * and the /sys reader (the same file compiled again without hwloc, below)
 * agree on packages, cores, logical CPUs and every cache level (size, count,
 * sharing); both are consistent with sysconf; thread placement records one
 * logical CPU per thread of the region asked for, each a CPU that exists,
 * and the OMP_PROC_BIND / OMP_PLACES it ran under.
 */
#define _GNU_SOURCE 1 /* sched_getcpu in the included reader */
#include "config.h"
#include "ps_bench.h"
#include "../ps_test.h"

#include <stdlib.h>
#include <unistd.h>

/* the /sys reader under other names */
#define PS_TOPO_NO_HWLOC 1
#define ps_bench_topology_describe sysfs_topology_describe
#define ps_bench_thread_placement sysfs_thread_placement
#define ps_bench_topology_line sysfs_topology_line
#define ps_bench_json_topology sysfs_json_topology
#define ps_bench_json_placement sysfs_json_placement
#include "../bench/ps_topo.c"
#undef ps_bench_topology_describe
#undef ps_bench_thread_placement
#undef ps_bench_topology_line
#undef ps_bench_json_topology
#undef ps_bench_json_placement

static void check_sane(const char *who, const ps_bench_topology *t)
{
    int i;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(t->pus == online, "%s: %d CPUs, sysconf says %ld", who, t->pus, online);
    CHECK(t->cores >= 1 && t->cores <= t->pus, "%s: %d cores for %d CPUs", who, t->cores, t->pus);
    CHECK(t->packages >= 1 && t->packages <= t->cores, "%s: %d packages", who, t->packages);
    for (i = 0; i < t->ncaches; i++) {
        const ps_bench_cache *c = &t->caches[i];
        CHECK(c->bytes > 0 && c->bytes_min <= c->bytes && c->count >= 1 && c->pus_sharing >= 1,
              "%s: cache L%d %s: %llu bytes x%d shared by %d", who, c->level, c->type,
              (unsigned long long)c->bytes, c->count, c->pus_sharing);
        CHECK(i == 0 || c->level >= t->caches[i - 1].level, "%s: caches out of order", who);
    }
}

int main(void)
{
    ps_bench_topology h, s;
    ps_bench_placement p;
    char line[1024];
    int i, k;

    ps_bench_topology_describe(&h);
    sysfs_topology_describe(&s);
    printf("library: %s\n", h.source);
    ps_bench_topology_line(&h, line, sizeof line);
    printf("  %s\n", line);
    sysfs_topology_line(&s, line, sizeof line);
    printf("/sys:    %s\n", line);
    check_sane(h.source, &h);
    check_sane("sysfs", &s);
    if (access("/sys/devices/system/cpu/cpu0/cache/index0/size", R_OK) == 0)
        CHECK(s.ncaches > 0, "/sys has caches, the reader found none");
    /* the two readers describe the same machine */
    CHECK(h.packages == s.packages && h.cores == s.cores && h.pus == s.pus,
          "library %d/%d/%d vs /sys %d/%d/%d packages/cores/CPUs", h.packages, h.cores, h.pus,
          s.packages, s.cores, s.pus);
    if (s.numa_nodes > 0)
        CHECK(h.numa_nodes == s.numa_nodes, "NUMA nodes: library %d, /sys %d", h.numa_nodes,
              s.numa_nodes);
    if (s.ncaches > 0) {
        CHECK(h.ncaches == s.ncaches, "cache kinds: library %d, /sys %d", h.ncaches, s.ncaches);
        for (i = 0; i < h.ncaches && i < s.ncaches; i++)
            CHECK(h.caches[i].level == s.caches[i].level &&
                      !strcmp(h.caches[i].type, s.caches[i].type) &&
                      h.caches[i].bytes == s.caches[i].bytes &&
                      h.caches[i].count == s.caches[i].count &&
                      h.caches[i].pus_sharing == s.caches[i].pus_sharing,
                  "cache %d: library L%d %s %llu x%d/%d, /sys L%d %s %llu x%d/%d", i,
                  h.caches[i].level, h.caches[i].type, (unsigned long long)h.caches[i].bytes,
                  h.caches[i].count, h.caches[i].pus_sharing, s.caches[i].level,
                  s.caches[i].type, (unsigned long long)s.caches[i].bytes, s.caches[i].count,
                  s.caches[i].pus_sharing);
    }

    /* placement: one CPU per thread of the region asked for, with its core */
    for (k = 1; k <= 3; k++) {
        ps_bench_thread_placement(k, &p);
        printf("placement(%d): %s\n", k, p.summary);
#ifdef _OPENMP
        CHECK(p.threads == k, "asked for %d threads, the region had %d", k, p.threads);
#endif
        CHECK(p.nplaced == p.threads, "%d of %d threads recorded", p.nplaced, p.threads);
        for (i = 0; i < p.nplaced; i++) {
            CHECK(p.pu[i] >= 0 && p.pu[i] < 4096, "thread %d on CPU %d", i, p.pu[i]);
            CHECK(p.core[i] >= 0, "thread %d (CPU %d): no core", i, p.pu[i]);
        }
        CHECK(p.distinct_pus >= 1 && p.distinct_pus <= p.threads && p.distinct_pus <= h.pus,
              "%d distinct CPUs for %d threads", p.distinct_pus, p.threads);
        CHECK(strstr(p.summary, "OMP_PROC_BIND=") != NULL, "summary: %s", p.summary);
    }
    {
        const char *pb = getenv("OMP_PROC_BIND");
        CHECK(!strcmp(p.proc_bind, pb ? pb : ""), "OMP_PROC_BIND recorded as '%s'", p.proc_bind);
    }
    return ps_test_finish("test_bench_topo");
}
