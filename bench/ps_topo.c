/*
 * The machine's layout for the benchmark (packages, NUMA nodes, cores,
 * logical CPUs, every cache level) and where OpenMP threads run: hwloc
 * where configure found it (PS_HAVE_HWLOC), else /sys.
 */
#define _GNU_SOURCE 1 /* sched_getcpu */
#include "config.h"
#include "ps_bench.h"
#include "ps_timer.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
/* PS_TOPO_NO_HWLOC: the /sys reader even where hwloc is built (the test
 * compares the two) */
#if defined(PS_HAVE_HWLOC) && !defined(PS_TOPO_NO_HWLOC)
#define PS_TOPO_HWLOC 1
#include <hwloc.h>
#endif

/* Cache kinds in report order: by level, data and unified before instruction. */
static int cache_cmp(const void *a, const void *b)
{
    const ps_bench_cache *x = a, *y = b;
    if (x->level != y->level)
        return x->level - y->level;
    return (strcmp(x->type, "instruction") == 0) - (strcmp(y->type, "instruction") == 0);
}

static ps_bench_cache *cache_kind(ps_bench_topology *t, int level, const char *type)
{
    int i;
    for (i = 0; i < t->ncaches; i++)
        if (t->caches[i].level == level && !strcmp(t->caches[i].type, type))
            return &t->caches[i];
    if (t->ncaches >= PS_BENCH_MAX_CACHES)
        return NULL;
    memset(&t->caches[t->ncaches], 0, sizeof t->caches[0]);
    t->caches[t->ncaches].level = level;
    snprintf(t->caches[t->ncaches].type, sizeof t->caches[0].type, "%s", type);
    return &t->caches[t->ncaches++];
}

static void cache_add(ps_bench_topology *t, int level, const char *type, uint64_t bytes,
                      int sharing)
{
    ps_bench_cache *c = cache_kind(t, level, type);
    if (!c)
        return;
    if (c->count == 0) {
        c->bytes = c->bytes_min = bytes;
        c->pus_sharing = sharing;
    }
    if (bytes > c->bytes)
        c->bytes = bytes;
    if (bytes < c->bytes_min)
        c->bytes_min = bytes;
    c->count++;
}

#ifdef PS_TOPO_HWLOC

static hwloc_topology_t topo_load(void)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0)
        return NULL;
    /* hwloc leaves instruction caches out unless asked; the whole machine,
     * not only the CPUs this process may use (a cgroup or taskset), as /sys */
    hwloc_topology_set_icache_types_filter(t, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return NULL;
    }
    return t;
}

void ps_bench_topology_describe(ps_bench_topology *t)
{
    static const hwloc_obj_type_t kinds[] = {HWLOC_OBJ_L1CACHE,  HWLOC_OBJ_L2CACHE,
                                             HWLOC_OBJ_L3CACHE,  HWLOC_OBJ_L4CACHE,
                                             HWLOC_OBJ_L5CACHE,  HWLOC_OBJ_L1ICACHE,
                                             HWLOC_OBJ_L2ICACHE, HWLOC_OBJ_L3ICACHE};
    hwloc_topology_t h = topo_load();
    unsigned k, i, n;
    unsigned v = hwloc_get_api_version();
    memset(t, 0, sizeof *t);
    if (!h) {
        snprintf(t->source, sizeof t->source, "hwloc (failed to load)");
        t->pus = (int)sysconf(_SC_NPROCESSORS_ONLN);
        return;
    }
    snprintf(t->source, sizeof t->source, "hwloc %u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
    t->packages = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
    t->numa_nodes = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
    t->cores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
    t->pus = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
    for (i = 0; i < (unsigned)t->numa_nodes && i < PS_BENCH_MAX_NUMA; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, i);
        t->numa_bytes[i] = o ? o->attr->numanode.local_memory : 0;
    }
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        n = (unsigned)hwloc_get_nbobjs_by_type(h, kinds[k]);
        for (i = 0; i < n; i++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(h, kinds[k], i);
            const char *type;
            if (!o || !o->attr)
                continue;
            type = o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "instruction"
                   : o->attr->cache.type == HWLOC_OBJ_CACHE_DATA      ? "data"
                                                                      : "unified";
            cache_add(t, (int)o->attr->cache.depth, type, o->attr->cache.size,
                      o->cpuset ? hwloc_bitmap_weight(o->cpuset) : 0);
        }
    }
    hwloc_topology_destroy(h);
    qsort(t->caches, (size_t)t->ncaches, sizeof t->caches[0], cache_cmp);
}

/* Core, package and NUMA node of the logical CPU with OS index @p pu. */
static void locate(void *ctx, int pu, int *core, int *package, int *numa)
{
    hwloc_topology_t h = ctx;
    hwloc_obj_t o, a;
    unsigned i, n;
    *core = *package = *numa = -1;
    if (!h || pu < 0 || !(o = hwloc_get_pu_obj_by_os_index(h, (unsigned)pu)))
        return;
    if ((a = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, o)))
        *core = (int)a->logical_index;
    if ((a = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, o)))
        *package = (int)a->logical_index;
    n = (unsigned)hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
    for (i = 0; i < n; i++) {
        hwloc_obj_t m = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, i);
        if (m && m->cpuset && hwloc_bitmap_isset(m->cpuset, (unsigned)pu)) {
            *numa = (int)m->logical_index;
            break;
        }
    }
}

static void *locate_open(void) { return topo_load(); }
static void locate_close(void *ctx)
{
    if (ctx)
        hwloc_topology_destroy((hwloc_topology_t)ctx);
}

#else /* !PS_HAVE_HWLOC: /sys */

static int read_int(const char *path, int *v)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (!f)
        return -1;
    ok = fscanf(f, "%d", v) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

static int read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    if (!fgets(buf, (int)n, f))
        buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* Logical CPUs in a /sys list such as "0-3,8-11". */
static int list_count(const char *s)
{
    int n = 0, a, b, used;
    while (*s) {
        if (sscanf(s, "%d%n", &a, &used) != 1)
            break;
        s += used;
        b = a;
        if (*s == '-' && sscanf(s + 1, "%d%n", &b, &used) == 1)
            s += 1 + used;
        n += b - a + 1;
        if (*s == ',')
            s++;
        else
            break;
    }
    return n;
}

void ps_bench_topology_describe(ps_bench_topology *t)
{
    int cpu, ncpu = (int)sysconf(_SC_NPROCESSORS_CONF), pkgs[256], npkg = 0;
    char path[160], buf[256], seen[64][208];
    int nseen = 0;
    memset(t, 0, sizeof *t);
    snprintf(t->source, sizeof t->source, "sysfs");
    t->pus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (cpu = 0; cpu < ncpu && cpu < 4096; cpu++) {
        int pkg = -1, core = -1, idx, i, dup;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
                 cpu);
        if (read_int(path, &pkg))
            continue;
        for (i = 0, dup = 0; i < npkg; i++)
            dup |= pkgs[i] == pkg;
        if (!dup && npkg < 256)
            pkgs[npkg++] = pkg;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
                 cpu);
        /* a core counted once: by its first logical CPU */
        if (!read_line(path, buf, sizeof buf) && atoi(buf) == cpu)
            t->cores++;
        (void)core;
        for (idx = 0; idx < 16; idx++) {
            char type[32], size[32], shared[160], key[208];
            int level;
            uint64_t bytes;
            char unit = 0;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu,
                     idx);
            if (read_int(path, &level))
                break;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
            read_line(path, type, sizeof type);
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
            read_line(path, size, sizeof size);
            snprintf(path, sizeof path,
                     "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
            read_line(path, shared, sizeof shared);
            /* one instance per (level, type, sharing set) */
            snprintf(key, sizeof key, "%d %s %s", level, type, shared);
            for (i = 0, dup = 0; i < nseen; i++)
                dup |= !strcmp(seen[i], key);
            if (dup || nseen >= 64)
                continue;
            snprintf(seen[nseen++], sizeof seen[0], "%s", key);
            if (sscanf(size, "%lu%c", &bytes, &unit) < 1)
                continue;
            bytes <<= unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
            cache_add(t, level,
                      !strcmp(type, "Instruction") ? "instruction"
                      : !strcmp(type, "Data")      ? "data"
                                                   : "unified",
                      bytes, list_count(shared));
        }
    }
    t->packages = npkg;
    for (cpu = 0; cpu < PS_BENCH_MAX_NUMA; cpu++) {
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/meminfo", cpu);
        if (!(f = fopen(path, "r")))
            break;
        while (fgets(buf, sizeof buf, f)) {
            unsigned long long kb;
            const char *p = strstr(buf, "MemTotal:");
            if (p && sscanf(p + 9, "%llu", &kb) == 1)
                t->numa_bytes[cpu] = (uint64_t)kb << 10;
        }
        fclose(f);
        t->numa_nodes++;
    }
    qsort(t->caches, (size_t)t->ncaches, sizeof t->caches[0], cache_cmp);
}

static void locate(void *ctx, int pu, int *core, int *package, int *numa)
{
    char path[160];
    int node;
    (void)ctx;
    *core = *package = *numa = -1;
    if (pu < 0)
        return;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", pu);
    read_int(path, core);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", pu);
    read_int(path, package);
    for (node = 0; node < PS_BENCH_MAX_NUMA; node++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/node%d", pu, node);
        if (access(path, F_OK) == 0) {
            *numa = node;
            break;
        }
    }
}

static void *locate_open(void) { return NULL; }
static void locate_close(void *ctx) { (void)ctx; }

#endif /* PS_TOPO_HWLOC */

/* "0-3,6" from a sorted list of distinct values; "?" for none. */
static void ranges(const int *v, int n, char *buf, size_t len)
{
    int i = 0;
    size_t used = 0;
    buf[0] = '\0';
    while (i < n && used < len) {
        int j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        if (j > i)
            used += (size_t)snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", v[i], v[j]);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", v[i]);
        i = j + 1;
    }
    if (!buf[0])
        snprintf(buf, len, "?");
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorted distinct non-negative values of @p v into @p out; returns how many. */
static int distinct(const int *v, int n, int *out)
{
    int i, m = 0;
    for (i = 0; i < n; i++)
        if (v[i] >= 0)
            out[m++] = v[i];
    qsort(out, (size_t)m, sizeof *out, int_cmp);
    for (i = 0, n = 0; i < m; i++)
        if (i == 0 || out[i] != out[i - 1])
            out[n++] = out[i];
    return n;
}

void ps_bench_thread_placement(int threads, ps_bench_placement *p)
{
    const char *e;
    void *ctx;
    int i, tmp[PS_BENCH_MAX_PLACED], n;
    char pus[96], cores[96], pkgs[32], nodes[32];
    memset(p, 0, sizeof *p);
    for (i = 0; i < PS_BENCH_MAX_PLACED; i++)
        p->pu[i] = p->core[i] = p->package[i] = p->numa[i] = -1;
    if ((e = getenv("OMP_PROC_BIND")))
        snprintf(p->proc_bind, sizeof p->proc_bind, "%s", e);
    if ((e = getenv("OMP_PLACES")))
        snprintf(p->places, sizeof p->places, "%s", e);
#ifdef _OPENMP
    {
        static const char *const names[] = {"false", "true", "primary", "close", "spread"};
        int b = (int)omp_get_proc_bind();
        snprintf(p->policy, sizeof p->policy, "%s", b >= 0 && b < 5 ? names[b] : "?");
    }
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        int t = omp_get_thread_num();
        double t0 = ps_now();
        volatile double x = 0;
        /* every thread busy at once, so none runs on a CPU another just left */
        while (ps_now() - t0 < 1e-3)
            x += 1.0;
#pragma omp single nowait
        p->threads = omp_get_num_threads();
        if (t < PS_BENCH_MAX_PLACED)
            p->pu[t] = sched_getcpu();
    }
#else
    (void)threads;
    snprintf(p->policy, sizeof p->policy, "false");
    p->threads = 1;
    p->pu[0] = sched_getcpu();
#endif
    p->nplaced = p->threads < PS_BENCH_MAX_PLACED ? p->threads : PS_BENCH_MAX_PLACED;
    ctx = locate_open();
    for (i = 0; i < p->nplaced; i++)
        locate(ctx, p->pu[i], &p->core[i], &p->package[i], &p->numa[i]);
    locate_close(ctx);
    /* cores: (package, core) pairs; core_id repeats across packages without hwloc */
    for (i = 0; i < p->nplaced; i++)
        tmp[i] = p->core[i] < 0 ? -1 : (p->package[i] < 0 ? 0 : p->package[i]) * 65536 + p->core[i];
    p->distinct_cores = distinct(tmp, p->nplaced, tmp);
    n = distinct(p->pu, p->nplaced, tmp);
    p->distinct_pus = n;
    ranges(tmp, n, pus, sizeof pus);
    n = distinct(p->core, p->nplaced, tmp);
    ranges(tmp, n, cores, sizeof cores);
    n = distinct(p->package, p->nplaced, tmp);
    ranges(tmp, n, pkgs, sizeof pkgs);
    n = distinct(p->numa, p->nplaced, tmp);
    ranges(tmp, n, nodes, sizeof nodes);
    snprintf(p->summary, sizeof p->summary,
             "%d thread%s on CPU%s %s (core%s %s, package %s, NUMA node %s); OMP_PROC_BIND=%s "
             "OMP_PLACES=%s (binding %s)%s",
             p->threads, p->threads == 1 ? "" : "s", p->distinct_pus == 1 ? "" : "s", pus,
             p->distinct_cores == 1 ? "" : "s", cores, pkgs, nodes,
             p->proc_bind[0] ? p->proc_bind : "unset", p->places[0] ? p->places : "unset",
             p->policy,
             p->distinct_cores && p->distinct_cores < p->threads ? "; threads share cores" : "");
}

static void human_bytes(uint64_t b, char *buf, size_t n)
{
    if (b >= (1ull << 30))
        snprintf(buf, n, "%.1f GiB", (double)b / (double)(1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(buf, n, "%.4g MiB", (double)b / (double)(1ull << 20));
    else
        snprintf(buf, n, "%.4g KiB", (double)b / 1024.0);
}

void ps_bench_topology_line(const ps_bench_topology *t, char *buf, size_t len)
{
    size_t used;
    uint64_t mem = 0;
    char m[32];
    int i;
    for (i = 0; i < t->numa_nodes && i < PS_BENCH_MAX_NUMA; i++)
        mem += t->numa_bytes[i];
    human_bytes(mem, m, sizeof m);
    used = (size_t)snprintf(buf, len, "%d package%s, %d NUMA node%s (%s), %d cores, %d CPUs",
                            t->packages, t->packages == 1 ? "" : "s", t->numa_nodes,
                            t->numa_nodes == 1 ? "" : "s", m, t->cores, t->pus);
    for (i = 0; i < t->ncaches && used < len; i++) {
        const ps_bench_cache *c = &t->caches[i];
        char sz[32];
        human_bytes(c->bytes, sz, sizeof sz);
        used += (size_t)snprintf(buf + used, len - used, "; L%d%s %s x%d (%d CPU%s each)",
                                 c->level, !strcmp(c->type, "data") ? "d"
                                           : !strcmp(c->type, "instruction") ? "i" : "",
                                 sz, c->count, c->pus_sharing, c->pus_sharing == 1 ? "" : "s");
    }
    if (used < len)
        snprintf(buf + used, len - used, " [%s]", t->source);
}

void ps_bench_json_topology(ps_json *j, const ps_bench_topology *t)
{
    int i;
    ps_json_object_begin(j);
    ps_json_kstring(j, "source", t->source);
    ps_json_kint(j, "packages", t->packages);
    ps_json_kint(j, "numa_nodes", t->numa_nodes);
    ps_json_kint(j, "cores", t->cores);
    ps_json_kint(j, "pus", t->pus);
    ps_json_key(j, "numa_bytes");
    ps_json_array_begin(j);
    ps_json_compact(j);
    for (i = 0; i < t->numa_nodes && i < PS_BENCH_MAX_NUMA; i++)
        ps_json_uint(j, t->numa_bytes[i]);
    ps_json_array_end(j);
    ps_json_key(j, "caches");
    ps_json_array_begin(j);
    for (i = 0; i < t->ncaches; i++) {
        const ps_bench_cache *c = &t->caches[i];
        ps_json_object_begin(j);
        ps_json_compact(j);
        ps_json_kint(j, "level", c->level);
        ps_json_kstring(j, "type", c->type);
        ps_json_key(j, "bytes");
        ps_json_uint(j, c->bytes);
        ps_json_key(j, "bytes_min");
        ps_json_uint(j, c->bytes_min);
        ps_json_kint(j, "count", c->count);
        ps_json_kint(j, "pus_sharing", c->pus_sharing);
        ps_json_object_end(j);
    }
    ps_json_array_end(j);
    ps_json_object_end(j);
}

void ps_bench_json_placement(ps_json *j, const ps_bench_placement *p)
{
    int i;
    ps_json_object_begin(j);
    ps_json_kstring(j, "OMP_PROC_BIND", p->proc_bind[0] ? p->proc_bind : NULL);
    ps_json_kstring(j, "OMP_PLACES", p->places[0] ? p->places : NULL);
    ps_json_kstring(j, "policy", p->policy);
    ps_json_kint(j, "threads", p->threads);
    ps_json_kint(j, "distinct_cpus", p->distinct_pus);
    ps_json_kint(j, "distinct_cores", p->distinct_cores);
    ps_json_key(j, "cpu");
    ps_json_array_begin(j);
    ps_json_compact(j);
    for (i = 0; i < p->nplaced; i++)
        ps_json_int(j, p->pu[i]);
    ps_json_array_end(j);
    ps_json_key(j, "core");
    ps_json_array_begin(j);
    ps_json_compact(j);
    for (i = 0; i < p->nplaced; i++)
        ps_json_int(j, p->core[i]);
    ps_json_array_end(j);
    ps_json_key(j, "package");
    ps_json_array_begin(j);
    ps_json_compact(j);
    for (i = 0; i < p->nplaced; i++)
        ps_json_int(j, p->package[i]);
    ps_json_array_end(j);
    ps_json_key(j, "numa");
    ps_json_array_begin(j);
    ps_json_compact(j);
    for (i = 0; i < p->nplaced; i++)
        ps_json_int(j, p->numa[i]);
    ps_json_array_end(j);
    ps_json_kstring(j, "summary", p->summary);
    ps_json_object_end(j);
}
