/*
 * The memory a process can really use, for the checks made before a large
 * allocation (io/ps_mem.h): physical memory overstates it on a busy machine,
 * in a container (cgroup limit) or under `ulimit -v` (RLIMIT_AS).
 */
#include "config.h"
#include "ps_mem.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The first "KEY <n> kB" value of a /proc file, in bytes; 0 if absent. */
static unsigned long long proc_kb(const char *file, const char *key)
{
    FILE *f = fopen(file, "r");
    char line[256];
    unsigned long long v = 0;
    size_t kl = strlen(key);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, kl) && sscanf(line + kl, " %llu", &v) == 1) {
            v *= 1024;
            break;
        }
    fclose(f);
    return v;
}

/* One number from a file ("max" or unreadable: 0). */
static unsigned long long file_num(const char *file)
{
    FILE *f = fopen(file, "r");
    unsigned long long v = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

/* The cgroup limit less usage, from /proc/self/cgroup (v2 "0::PATH", v1
 * "N:...memory...:PATH"); 0 when unlimited or unknown. */
static unsigned long long cgroup_left(const char **why)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[1024], file[1400];
    unsigned long long best = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *path;
        unsigned long long lim, used;
        int v2;
        if (!c2)
            continue;
        path = c2 + 1;
        path[strcspn(path, "\n")] = '\0';
        v2 = c1[1] == ':';
        if (!v2 && !strstr(c1, "memory"))
            continue;
        if (!strcmp(path, "/"))
            path = "";
        if (v2) {
            snprintf(file, sizeof file, "/sys/fs/cgroup%s/memory.max", path);
            lim = file_num(file);
            if (!lim) { /* namespaced: our cgroup is the root of the mount */
                lim = file_num("/sys/fs/cgroup/memory.max");
                used = file_num("/sys/fs/cgroup/memory.current");
            } else {
                snprintf(file, sizeof file, "/sys/fs/cgroup%s/memory.current", path);
                used = file_num(file);
            }
        } else {
            snprintf(file, sizeof file, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", path);
            lim = file_num(file);
            snprintf(file, sizeof file, "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", path);
            used = file_num(file);
            if (!lim) {
                lim = file_num("/sys/fs/cgroup/memory/memory.limit_in_bytes");
                used = file_num("/sys/fs/cgroup/memory/memory.usage_in_bytes");
            }
        }
        /* v1 reports "no limit" as a huge page-rounded number */
        if (!lim || lim >= (1ULL << 62))
            continue;
        lim = lim > used ? lim - used : 0;
        if (!best || lim < best) {
            best = lim;
            *why = v2 ? "the cgroup's memory.max" : "the cgroup's memory.limit_in_bytes";
        }
    }
    fclose(f);
    return best;
}

unsigned long long ps_mem_available(const char **why)
{
    unsigned long long best = 0, v;
    struct rlimit rl;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    const char *w = "physical memory";

    if (pages > 0 && psz > 0)
        best = (unsigned long long)pages * (unsigned long long)psz;
    if ((v = proc_kb("/proc/meminfo", "MemAvailable:")) && (!best || v < best)) {
        best = v;
        w = "MemAvailable in /proc/meminfo";
    }
    {
        const char *cw = NULL;
        if ((v = cgroup_left(&cw)) && (!best || v < best)) {
            best = v;
            w = cw;
        }
    }
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        unsigned long long used = proc_kb("/proc/self/status", "VmSize:");
        unsigned long long lim = (unsigned long long)rl.rlim_cur;
        /* a limit already used up leaves nothing: 1 byte, since 0 means
         * "unknown" (the check would be skipped: found under ASan, whose
         * shadow reservation puts VmSize far above any ulimit -v) */
        v = lim > used ? lim - used : 1;
        if (!best || v < best) {
            best = v;
            w = "RLIMIT_AS (ulimit -v) less the address space in use";
        }
    }
    if (why)
        *why = w;
    return best;
}

unsigned long long ps_mem_peak_rss(void)
{
    unsigned long long v = proc_kb("/proc/self/status", "VmHWM:");
    struct rusage ru;
    if (!v && getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0)
        v = (unsigned long long)ru.ru_maxrss * 1024; /* kB on Linux */
    return v;
}
