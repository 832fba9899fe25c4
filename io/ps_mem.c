/*
 * The memory a process can really use, for the checks made before a large
 * allocation (io/ps_mem.h): physical memory overstates it on a busy machine,
 * in a container (cgroup limit) or under `ulimit -v` (RLIMIT_AS).
 */
#include "config.h"
#include "ps_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/*
 * A small file's text into @p buf (at most @p size - 1 bytes, then a NUL),
 * through open/read: no allocation, so the check works where the memory it
 * checks is already used up (stdio's fopen allocates its buffer). 0 if the
 * file cannot be read or is empty.
 */
static size_t read_small(const char *file, char *buf, size_t size)
{
    size_t n = 0;
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    while (n + 1 < size) {
        ssize_t r = read(fd, buf + n, size - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    return n;
}

/* The first "KEY <n> kB" value of a /proc file, in bytes; 0 if absent.
 * /proc/meminfo and /proc/self/status hold under 4 KiB. */
static unsigned long long proc_kb(const char *file, const char *key)
{
    char text[8192], *line;
    size_t kl = strlen(key);
    if (!read_small(file, text, sizeof text))
        return 0;
    for (line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, key, kl)) {
            char *end;
            unsigned long long v = strtoull(line + kl, &end, 10);
            return end != line + kl ? v * 1024 : 0;
        }
    return 0;
}

/* One number from a file ("max" or unreadable: 0). */
static unsigned long long file_num(const char *file)
{
    char text[64], *end;
    unsigned long long v;
    if (!read_small(file, text, sizeof text))
        return 0;
    v = strtoull(text, &end, 10);
    return end != text ? v : 0;
}

/* The cgroup limit less usage, from /proc/self/cgroup (v2 "0::PATH", v1
 * "N:...memory...:PATH"); 0 when unlimited or unknown. */
static unsigned long long cgroup_left(const char **why)
{
    char text[4096], file[1400], *line, *next;
    unsigned long long best = 0;
    if (!read_small("/proc/self/cgroup", text, sizeof text))
        return 0;
    for (line = text; *line; line = next) {
        char *c1, *c2, *path;
        unsigned long long lim, used;
        int v2;
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        c1 = strchr(line, ':');
        c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        path = c2 + 1;
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
