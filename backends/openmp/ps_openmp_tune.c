/*
 * The openmp backend's tuning knobs (core/ps_knobs.h), all decided here
 * when a context is created, highest first: the caller's value, the tuning
 * cache (fused steps and tile rows, ps_openmp_tunecache.c), the knob's
 * PSTENCIL_OPENMP_* variable (read through core/ps_knobs_env.h), the rule
 * below. Also the CPU's name. Each rule's evidence: docs/performance.md,
 * "openmp tuning".
 */
#include "config.h"
#include "ps_knobs_env.h"
#include "ps_openmp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the instruction sets of the openmp_isa knob, in its order */
enum { ISA_BASELINE = 0, ISA_AVX2 = 1, ISA_AVX512 = 2 };

/* the best level the CPU and the build have */
static long isa_max(void)
{
#ifdef PS_HAVE_OMP_AVX2
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2"))
        return ISA_BASELINE;
#ifdef PS_HAVE_OMP_AVX512
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
        return ISA_AVX512;
#endif
    return ISA_AVX2;
#else
    return ISA_BASELINE;
#endif
}

/*
 * Instruction set: the caller's or PSTENCIL_OPENMP_ISA's level, capped at
 * what the CPU and the build have (avx512 needs AVX-512F and VL, else avx2
 * where the CPU has it). Rule: the best there is; the generic rows on
 * 512-bit vectors beat the AVX2 ones inside the fused sweep only with the
 * slots' rows on whole 64-byte lines (without, 1.09-1.15x slower;
 * docs/performance.md, "openmp tuning").
 */
static void isa_decide(ps_knob *k)
{
    const long top = isa_max();
    ps_knob_rule(k, top);
    if (k->value > top)
        k->value = top;
}

int ps_omp_knobs_take(const ps_knobs *asked, ps_knobs *k, char *why, size_t whylen)
{
    static const int ids[] = {PS_KNOB_ID_openmp_isa, PS_KNOB_ID_openmp_nt_out,
                              PS_KNOB_ID_openmp_tblock, PS_KNOB_ID_openmp_tj,
                              PS_KNOB_ID_openmp_zero_land};
    if (ps_knobs_take(ids, sizeof ids / sizeof ids[0], asked, k, why, whylen))
        return PS_EINVAL;
    isa_decide(&k->openmp_isa);
    return PS_OK;
}

int ps_omp_use_avx2(const ps_knobs *k)
{
    return k->openmp_isa.value >= ISA_AVX2;
}

int ps_omp_use_fma(const ps_knobs *k)
{
#ifdef PS_HAVE_OMP_AVX2
    return ps_omp_use_avx2(k) && __builtin_cpu_supports("fma");
#else
    (void)k;
    return 0;
#endif
}

/* nonzero: the generic rows on 512-bit vectors */
int ps_omp_use_avx512(const ps_knobs *k)
{
    return k->openmp_isa.value == ISA_AVX512;
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



/*
 * The fused sweep's output rows (its last step, written to the other field)
 * streamed with non-temporal stores by the 512-bit generic rows: on a grid
 * whose field is PS_OMP_NT_OUT_MIN bytes or more, where the fields cannot
 * stay in any cache between sweeps, a normal store first reads its line for
 * ownership, a quarter of the sweep's memory traffic. Rule: stream where the
 * field is at least PS_OMP_NT_OUT_MIN, 128 MiB (1.14x faster at 171 MB, even
 * at 86 MB, 1.13x slower at 43 MB, where the next sweep reads from memory what
 * a cache still held; docs/performance.md, "openmp tuning").
 */
int ps_omp_auto_nt_out(ps_knobs *k, size_t bytes)
{
    ps_knob_rule(&k->openmp_nt_out, bytes >= PS_OMP_NT_OUT_MIN);
    return k->openmp_nt_out.value != 0;
}

/*
 * Steps fused per sweep (see ps_openmp_generic.c) and the tile height,
 * where neither the caller, the tuning cache nor the environment decided
 * them (a given T keeps its value, given rows theirs). Rules: tiles as tall
 * as possible, up to one per thread, at least 8 rows, while a tile's working set fits in a
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

int ps_omp_auto_tblock(ps_knobs *k, const ps_grid *g, size_t es, int threads)
{
    size_t l2 = 0, l3 = 32u << 20, nj = g->ny > 2 ? g->ny - 2 : 1, lev, planes, rowb, h;
    size_t th = (size_t)(threads > 0 ? threads : 1), cap;
    const int amd = cpu_is_amd(), given_t = k->openmp_tblock.source != PS_KNOB_UNSET;
    long v = given_t ? k->openmp_tblock.value : amd ? PS_TB_DEFAULT_AMD : PS_TB_DEFAULT;
    if (k->openmp_tj.source != PS_KNOB_UNSET) {
        ps_knob_rule(&k->openmp_tblock, v);
        return (int)k->openmp_tblock.value;
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
        if (!given_t && l3_rows(l3, th, PS_TB_TALL_AMD, rowb) >= (cap < 64 ? cap : 64))
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
    ps_knob_rule(&k->openmp_tblock, v);
    ps_knob_rule(&k->openmp_tj, (long)(h < cap ? h : cap));
    return (int)k->openmp_tblock.value;
}

/* The land-sum form (ps_openmp_zeroland.c) where the stencil declares it. Rule: on. */
int ps_omp_auto_gen_land_sum(ps_knobs *k)
{
    ps_knob_rule(&k->openmp_zero_land, 1);
    return k->openmp_zero_land.value != 0;
}
