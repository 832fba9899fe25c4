/* Internal to io/: how much memory this process can really use
 * (io/ps_mem.c). Not installed. */
#ifndef PS_MEM_H
#define PS_MEM_H

#include <stddef.h>

/**
 * The memory this process can still allocate: the smallest of MemAvailable
 * (/proc/meminfo), the cgroup's limit less its usage (v2 memory.max, v1
 * memory.limit_in_bytes), and RLIMIT_AS less the address space in use; the
 * physical memory when none of them is known.
 * @param why set to a short text naming the limit that decided (static).
 * @return the bytes, or 0 when nothing is known.
 */
unsigned long long ps_mem_available(const char **why);

/**
 * The peak resident set of this process so far: VmHWM of /proc/self/status,
 * else getrusage()'s ru_maxrss.
 * @return the bytes, or 0 when neither is known.
 */
unsigned long long ps_mem_peak_rss(void);

#endif
