/*
 * The openmp backend's choices made at run time: which instruction set the
 * row kernels use, the CPU's name, and the tiling, fusion, streaming-store and
 * zero-land defaults (each overridable by a PSTENCIL_OPENMP_* variable; each
 * rule's evidence: docs/performance.md, "openmp tuning").
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ps_omp_use_avx2(void)
{
#ifdef PS_HAVE_OMP_AVX2
    const char *e = getenv("PSTENCIL_OPENMP_ISA");
    if (e && (!strcmp(e, "baseline") || !strcmp(e, "generic") || !strcmp(e, "default")))
        return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

int ps_omp_use_fma(void)
{
#ifdef PS_HAVE_OMP_AVX2
    return ps_omp_use_avx2() && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

/*
 * AVX-512 zero-land rows (ps_openmp_rows_avx512.c): the default where the CPU
 * has AVX-512F and AVX-512VL (1: 512-bit vectors); PSTENCIL_OPENMP_ISA=avx512vl
 * asks for the same rows on 256-bit vectors (2), and avx2 / baseline for the
 * auto-vectorised rows (0). Rule: they beat the AVX2 rows inside the fused
 * sweep only with the slots' rows on whole 64-byte lines (without, 1.09-1.15x
 * slower; docs/performance.md, "openmp tuning").
 */
int ps_omp_use_avx512(void)
{
#ifdef PS_HAVE_OMP_AVX512
    const char *e = getenv("PSTENCIL_OPENMP_ISA");
    if (e && *e && strcmp(e, "avx512") && strcmp(e, "avx512vl"))
        return 0;
    if (!ps_omp_use_avx2() || !__builtin_cpu_supports("avx512f") ||
        !__builtin_cpu_supports("avx512vl"))
        return 0;
    return e && !strcmp(e, "avx512vl") ? 2 : 1;
#else
    return 0;
#endif
}

void ps_omp_cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(buf, len, "host CPU");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':'), *e;
            if (!p)
                break;
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            e = p + strlen(p);
            while (e > p && (e[-1] == '\n' || e[-1] == ' '))
                *--e = '\0';
            if (*p)
                snprintf(buf, len, "host CPU: %s", p);
            break;
        }
    }
    fclose(f);
}

size_t ps_omp_auto_jblock(const ps_grid *g, size_t es)
{
    const char *e = getenv("PSTENCIL_OPENMP_JBLOCK");
    size_t nj = g->ny > 2 ? g->ny - 2 : 1;
    size_t l2 = 512 * 1024, budget, jb;
    long v;
    if (e && *e) {
        v = strtol(e, NULL, 10);
        if (v <= 0 || (size_t)v > nj)
            return nj;
        return (size_t)v;
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    {
        long s = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (s > 0)
            l2 = (size_t)s;
    }
#endif
    budget = l2 / 2;
    /* three planes (k-1, k, k+1) of the tile plus the output rows */
    if (4 * g->ny * g->nx * es <= budget)
        return nj;
    jb = budget / (4 * g->nx * es);
    if (jb < 8)
        jb = 8;
    return jb > nj ? nj : jb;
}

/*
 * Non-temporal stores could only pay off on grids far larger than the
 * last-level cache, where a normal store first reads its line for ownership.
 * Rule: off, since the single-step path is compute-bound (1.4x slower with
 * them on a 42.8 M-cell grid; docs/performance.md, "openmp tuning"), unless
 * PSTENCIL_OPENMP_STREAM=1 (kept, and validated, for machines with more cores
 * per memory channel).
 */
int ps_omp_auto_stream(size_t bytes)
{
    const char *e = getenv("PSTENCIL_OPENMP_STREAM");
    (void)bytes;
    if (e && *e)
        return strcmp(e, "0") != 0;
    return 0;
}

/*
 * The fused sweep's output rows (its last step, written to the other field)
 * streamed with non-temporal stores by the AVX-512 block rows: on a grid
 * whose field is PS_OMP_NT_OUT_MIN bytes or more, where the fields cannot
 * stay in any cache between sweeps, a normal store first reads its line for
 * ownership, a quarter of the sweep's memory traffic. Rule: stream where the
 * field is at least PS_OMP_NT_OUT_MIN, 128 MiB (1.14x faster at 171 MB, even
 * at 86 MB, 1.13x slower at 43 MB, where the next sweep reads from memory what
 * a cache still held; docs/performance.md, "openmp tuning").
 * PSTENCIL_OPENMP_NTOUT=0 or 1 overrides.
 */
int ps_omp_auto_nt_out(size_t bytes)
{
    const char *e = getenv("PSTENCIL_OPENMP_NTOUT");
    if (e && *e)
        return strcmp(e, "0") != 0;
    return bytes >= PS_OMP_NT_OUT_MIN;
}

/*
 * Steps fused per sweep in exact mode (see ps_openmp_tblock.c) and the tile
 * height: PSTENCIL_OPENMP_TBLOCK=T (0 = the single-step path) and
 * PSTENCIL_OPENMP_TJ=rows override. Defaults: tiles as tall as possible, up
 * to one per thread, at least 8 rows, while a tile's working set fits in a
 * cache, and T by CPU vendor:
 *  - AMD CPUs (Zen 3, 4 and 5; 512 KiB or 1 MiB of L2): tiles of the rows
 *    whose 3 field planes and 3 slots per intermediate level fill a share of
 *    L3, 32 MiB / (4 x threads) (a CCX's L3), and T = 12 where those tiles
 *    are at least 64 rows tall (or hold all of a thread's rows), else T = 8:
 *    their L3 is fast, so L2-sized tiles only add halo recomputation, and 12
 *    steps pay only on tall tiles. The L3 size is not taken from sysconf: in
 *    VMs it reports the host's, and tiles sized for that are slower;
 *  - other CPUs with an L2 of 1 MiB or more (Intel server cores): T = 4 and
 *    3/5 of that L2, counting the field's 3 planes (k-1, k, k+1), 3 slots per
 *    intermediate level, T planes of counts and the output plane, each with
 *    the tile's halo rows, at the slots' row pitch (nx rounded up to whole
 *    64-byte lines): tiles spilling out of L2 run 1.2-1.7x slower;
 *  - anything else (a smaller or unknown L2): T = 4 and the L3 share above.
 * Evidence: docs/performance.md, "openmp tuning".
 */
/* rows of a tile whose 3 field planes and 3 slots per intermediate level of
 * a T-step sweep fill the L3 share l3 / (4 x th), rows of rowb bytes */
static size_t l3_rows(size_t l3, size_t th, long T, size_t rowb)
{
    const size_t planes = 3 + 3 * (size_t)(T > 1 ? T - 1 : 0);
    return l3 / (4 * th) / (planes * (rowb ? rowb : 1));
}

static int cpu_is_amd(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_is("amd");
#else
    return 0;
#endif
}

int ps_omp_auto_tblock(const ps_grid *g, size_t es, int threads, size_t *tj)
{
    const char *e = getenv("PSTENCIL_OPENMP_TBLOCK"), *f = getenv("PSTENCIL_OPENMP_TJ");
    size_t l2 = 0, l3 = 32u << 20, nj = g->ny > 2 ? g->ny - 2 : 1, lev, planes, rowb, h;
    size_t th = (size_t)(threads > 0 ? threads : 1), cap;
    const int amd = cpu_is_amd();
    long v = amd ? PS_TB_DEFAULT_AMD : PS_TB_DEFAULT;
    if (e && *e)
        v = strtol(e, NULL, 10);
    if (v < 0)
        v = 0;
    if (v > PS_TB_MAX)
        v = PS_TB_MAX;
    if (f && *f && strtol(f, NULL, 10) > 0) {
        *tj = (size_t)strtol(f, NULL, 10);
        return (int)v;
    }
#ifdef _SC_LEVEL2_CACHE_SIZE
    {
        long s = sysconf(_SC_LEVEL2_CACHE_SIZE);
        if (s > 0)
            l2 = (size_t)s;
    }
#endif
    cap = (nj + th - 1) / th;
    lev = (size_t)(v > 1 ? v - 1 : 0); /* intermediate levels */
    if (amd) {
        rowb = g->nx * es;
        if (!(e && *e) && l3_rows(l3, th, PS_TB_TALL_AMD, rowb) >= (cap < 64 ? cap : 64))
            v = PS_TB_TALL_AMD; /* tall tiles: fuse more steps */
        h = l3_rows(l3, th, v, rowb);
        if (h < 8)
            h = 8;
    } else if (l2 >= (1u << 20)) {
        rowb = (g->nx * es + 63) / 64 * 64;
        planes = 3 + 3 * lev + (size_t)(v > 1 ? v : 1) + 1;
        h = l2 / 5 * 3 / (planes * rowb);
        h = h >= 2 * lev + 8 ? h - 2 * lev : 8; /* less the halo rows */
    } else {
        h = l3_rows(l3, th, v, g->nx * es);
        h = h > 2 * (size_t)v + 8 ? h - 2 * (size_t)v : 8;
    }
    *tj = h < cap ? h : cap;
    return (int)v;
}

/* Zero-land on (see "Zero-land"): default; PSTENCIL_OPENMP_ZERO_LAND=0 off. */
int ps_omp_auto_zero_land(double coeff)
{
    const char *e = getenv("PSTENCIL_OPENMP_ZERO_LAND");
    if (e && *e && !strcmp(e, "0"))
        return 0;
    return coeff >= 0.0 && coeff <= 1.0;
}
