/*
 * The openmp backend: the shared kernel (kernels/diffusion7.h) in a
 * branch-free, vectorised row loop, threads over (k, j) rows with a static
 * schedule, one parallel region per step() call however many steps it takes,
 * double buffering with a pointer swap, first-touch allocation.
 *
 * Boundary cells (the outermost layer of the box) are never written by a
 * step: upload writes every uploaded cell into BOTH buffers, so the two
 * buffers always agree on the outermost layer and swapping them is a copy of
 * it for free. Interior land cells are rewritten with their own value by the
 * kernel (branch-free), so they stay bit-for-bit unchanged.
 *
 * Instruction sets: each row kernel is compiled twice, for the baseline
 * target and with target("avx2") (plus "fma" for the fast-mode kernel only),
 * and the variant is picked once per context with __builtin_cpu_supports, so
 * one build uses AVX2 where the CPU has it without -march=native. Exact mode
 * never fuses (the library is compiled with -ffp-contract=off, and the exact
 * kernel's target has no "fma"), so both variants are bitwise identical to
 * the reference. PSTENCIL_OPENMP_ISA=baseline forces the baseline variant
 * (tests validate both).
 *
 * Rows are visited in tiles of jb rows over j (outer), then k, then j inside
 * the tile: with jb chosen so that three tile-planes fit in half of L2, the
 * k-1, k and k+1 slabs a thread reads stay cached on large grids. On grids
 * whose three planes already fit, jb = ny - 2 (no tiling).
 * PSTENCIL_OPENMP_JBLOCK=N overrides (0 = no tiling); cfg->block[1] too.
 *
 * PSTENCIL_OPENMP_STREAM=1 writes rows with non-temporal stores (off by
 * default: see auto_stream for the measurement).
 *
 * Exact mode fuses up to 4 steps of one step() call into one sweep over the
 * field by default (temporal blocking, omp_step_tblock; the tiling above is
 * then unused); PSTENCIL_OPENMP_TBLOCK=0 selects the single-step path,
 * =1..8 another fusion depth, PSTENCIL_OPENMP_TJ the tile height. Fast mode
 * and the streaming-store rows always take the single-step path.
 *
 * Exact mode keeps land as +0.0 with a per-cell neighbour count by default
 * ("Zero-land" below; PSTENCIL_OPENMP_ZERO_LAND=0 keeps NaN land); fast mode
 * and the streaming-store rows use NaN land.
 */
#include "config.h"
#include "ps_builtin.h"
#include "ps_openmp_generic.h"
#include "ps_plugin.h"
#include "ps_region.h"
#include "ps_status.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Kernels: one instantiation of the shared cell update per precision. */
/* ------------------------------------------------------------------ */

#define PS_REAL float
#define PS_SUFFIX _f32
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX

#define PS_REAL double
#define PS_SUFFIX _f64
#include "diffusion7.h"
#undef PS_REAL
#undef PS_SUFFIX

#define PS_UNFUSED(a, b, c) ((a) * (b) + (c))

/* Non-temporal copies of a computed row chunk to its destination. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PS_OMP_STREAM_BASE(NAME, REAL, VEC, LOADU, STREAM, W)                          \
    static inline void NAME(REAL *d, const REAL *s, size_t n)                          \
    {                                                                                  \
        size_t q = 0;                                                                  \
        while (q < n && ((uintptr_t)(d + q) & (sizeof(VEC) - 1)))                      \
            d[q] = s[q], q++;                                                          \
        for (; q + (W) <= n; q += (W))                                                 \
            STREAM(d + q, LOADU(s + q));                                               \
        for (; q < n; q++)                                                             \
            d[q] = s[q];                                                               \
    }
PS_OMP_STREAM_BASE(stream_f32_base, float, __m128, _mm_loadu_ps, _mm_stream_ps, 4)
PS_OMP_STREAM_BASE(stream_f64_base, double, __m128d, _mm_loadu_pd, _mm_stream_pd, 2)
#define PS_OMP_SFENCE() _mm_sfence()
#else
static inline void stream_f32_base(float *d, const float *s, size_t n)
{
    memcpy(d, s, n * sizeof *d);
}
static inline void stream_f64_base(double *d, const double *s, size_t n)
{
    memcpy(d, s, n * sizeof *d);
}
#define PS_OMP_SFENCE() ((void)0)
#endif

/* float32, baseline target */
#define PS_REAL float
#define PS_SUFFIX _f32
#define ROW_NAME(x) x##_f32_base
#define ROW_VBYTES 16
#define ROW_ATTR
#define ROW_FMA PS_UNFUSED
#define ROW_STREAM stream_f32_base
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX

/* float64, baseline target */
#define PS_REAL double
#define PS_SUFFIX _f64
#define ROW_NAME(x) x##_f64_base
#define ROW_VBYTES 16
#define ROW_ATTR
#define ROW_FMA PS_UNFUSED
#define ROW_STREAM stream_f64_base
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PS_OMP_X86 1
__attribute__((target("avx2"))) static inline void stream_f32_avx2(float *d, const float *s,
                                                                   size_t n)
{
    size_t q = 0;
    while (q < n && ((uintptr_t)(d + q) & 31))
        d[q] = s[q], q++;
    for (; q + 8 <= n; q += 8)
        _mm256_stream_ps(d + q, _mm256_loadu_ps(s + q));
    for (; q < n; q++)
        d[q] = s[q];
}
__attribute__((target("avx2"))) static inline void stream_f64_avx2(double *d, const double *s,
                                                                   size_t n)
{
    size_t q = 0;
    while (q < n && ((uintptr_t)(d + q) & 31))
        d[q] = s[q], q++;
    for (; q + 4 <= n; q += 4)
        _mm256_stream_pd(d + q, _mm256_loadu_pd(s + q));
    for (; q < n; q++)
        d[q] = s[q];
}
/* AVX2 variants. The exact kernel's target does not include "fma". */
#define PS_REAL float
#define PS_SUFFIX _f32
#define ROW_NAME(x) x##_f32_avx2
#define ROW_VBYTES 32
#define ROW_STREAM stream_f32_avx2
#define ROW_ATTR __attribute__((target("avx2")))
#define ROW_FMA PS_UNFUSED
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX

#define PS_REAL double
#define PS_SUFFIX _f64
#define ROW_NAME(x) x##_f64_avx2
#define ROW_VBYTES 32
#define ROW_STREAM stream_f64_avx2
#define ROW_ATTR __attribute__((target("avx2")))
#define ROW_FMA PS_UNFUSED
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX

/* fast mode with FMA: only the row_fast functions of these are used */
#define PS_REAL float
#define PS_SUFFIX _f32
#define ROW_NAME(x) x##_f32_fma
#define ROW_VBYTES 32
#define ROW_STREAM stream_f32_avx2
#define ROW_ATTR __attribute__((target("avx2,fma"), unused))
#define ROW_FMA __builtin_fmaf
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX

#define PS_REAL double
#define PS_SUFFIX _f64
#define ROW_NAME(x) x##_f64_fma
#define ROW_VBYTES 32
#define ROW_STREAM stream_f64_avx2
#define ROW_ATTR __attribute__((target("avx2,fma"), unused))
#define ROW_FMA __builtin_fma
#include "ps_openmp_rows.h"
#undef ROW_NAME
#undef ROW_ATTR
#undef ROW_FMA
#undef ROW_STREAM
#undef ROW_VBYTES
#undef ROW_CHUNK
#undef PS_REAL
#undef PS_SUFFIX
#endif

typedef void (*row_f32_fn)(float *restrict, const float *restrict, size_t, size_t, float);
typedef void (*row_f64_fn)(double *restrict, const double *restrict, size_t, size_t, double);
typedef void (*rowp_f32_fn)(float *restrict, const float *restrict, const float *restrict,
                            const float *restrict, size_t, float);
typedef void (*rowp_f64_fn)(double *restrict, const double *restrict, const double *restrict,
                            const double *restrict, size_t, double);
typedef void (*rowz_f32_fn)(float *restrict, const float *restrict, const float *restrict,
                            const float *restrict, const float *restrict, size_t, float);
typedef void (*rowz_f64_fn)(double *restrict, const double *restrict, const double *restrict,
                            const double *restrict, const double *restrict, size_t, double);

#define PS_TB_MAX 8     /* most steps fused into one sweep */
#define PS_TB_DEFAULT 4 /* steps fused by default (see auto_tblock) */

/* ------------------------------------------------------------------ */

typedef struct omp_ctx {
    ps_config cfg;
    ps_grid g;
    size_t es;     /* element size */
    void *cur;     /* field at the current step */
    void *next;    /* the other buffer */
    int threads;   /* team size */
    size_t jb;     /* j rows per tile */
    row_f32_fn row32;
    row_f64_fn row64;
    int stream;    /* nonzero: rows written with non-temporal stores */
    int tblock;    /* steps fused per sweep (0: the single-step path) */
    size_t tj;     /* target j rows per temporal-blocking tile */
    rowp_f32_fn rowp32;
    rowp_f64_fn rowp64;
    char **scratch;      /* per thread: rolling plane slots of the fused sweep */
    size_t scratch_size; /* bytes of each */
    int zl;              /* nonzero: zero-land fields, see "Zero-land" below */
    void *cnt;           /* zero-land: per cell neighbour count, or land's NaN */
    rowz_f32_fn rowz32;
    rowz_f64_fn rowz64;
    const char *isa;
    const ps_omp_generic *gen; /* non-NULL: the generic skeleton (no fast path) */
    void *params;              /* its packed parameters */
    char err[512];
} omp_ctx;

static int use_avx2(void)
{
#ifdef PS_OMP_X86
    const char *e = getenv("PSTENCIL_OPENMP_ISA");
    if (e && (!strcmp(e, "baseline") || !strcmp(e, "generic") || !strcmp(e, "default")))
        return 0;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static int use_fma(void)
{
#ifdef PS_OMP_X86
    return use_avx2() && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

static void cpu_model(char *buf, size_t len)
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

static int omp_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    (void)why;
    (void)whylen;
    *ndevs = 0;
    if (max < 1)
        return PS_OK;
    memset(&devs[0], 0, sizeof devs[0]);
    cpu_model(devs[0].name, sizeof devs[0].name);
    snprintf(devs[0].type, sizeof devs[0].type, "cpu");
    snprintf(devs[0].detail, sizeof devs[0].detail,
             "OpenMP %d, %d threads (OMP_NUM_THREADS or --threads), row kernels: %s%s",
             _OPENMP, omp_get_max_threads(), use_avx2() ? "avx2" : "baseline",
             use_fma() ? " (fast mode: avx2+fma)" : "");
    devs[0].memory_bytes = (pages > 0 && psize > 0) ? (uint64_t)pages * (uint64_t)psize : 0;
    devs[0].compute_units = omp_get_max_threads();
    devs[0].caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64 | PS_CAP_FAST;
    *ndevs = 1;
    return PS_OK;
}

/* Interior rows in tile order: tile over j (outer), k, j within the tile. */
static inline void row_of(const omp_ctx *c, size_t r, size_t *k, size_t *j)
{
    size_t nk = c->g.nz - 2, nj = c->g.ny - 2;
    size_t tile_rows = c->jb * nk; /* rows in a full tile */
    size_t t = r / tile_rows, rem = r % tile_rows;
    size_t j0 = t * c->jb;
    size_t h = (nj - j0 < c->jb) ? nj - j0 : c->jb; /* this tile's height */
    *k = 1 + rem / h;
    *j = 1 + j0 + rem % h;
}

static size_t interior_rows(const omp_ctx *c)
{
    if (c->g.nz < 3 || c->g.ny < 3 || c->g.nx < 3)
        return 0;
    return (c->g.nz - 2) * (c->g.ny - 2);
}

/*
 * Zero-land (exact mode, default; PSTENCIL_OPENMP_ZERO_LAND=0 turns it off).
 * The NaN mask never changes during a run, so inside the backend the working
 * fields hold land as +0.0 and a count array holds, per cell, the number of
 * ocean neighbours (ocean cells) or the cell's original NaN, payload and all
 * (land cells). The row kernel (row_zl_p) then sums the six neighbours
 * without masking: a land neighbour adds +0.0, the identity on a sum that
 * starts at +0.0 and so can never be -0.0, and an ocean -0.0 adds the same
 * as in the masked sum; the count is the masked count; the update is the
 * shared ps_diffusion7_update; cells with !(n > 0) keep their value. Land
 * is told from the count array, never from a value (ocean -0.0 survives).
 * Uploads convert NaN to +0.0 and recount the cells whose neighbourhood they
 * touch; downloads put the original NaN back.
 *
 * The argument needs the mask to stay fixed, i.e. no ocean cell may turn NaN
 * (the reference would then mask it). That can only happen through overflow,
 * so zero-land is used only for 0 <= D <= 1 (each update is then a convex
 * combination of values, up to rounding) and while every uploaded ocean
 * value is finite with |v| <= PS_REAL_MAX / 64 (intermediates stay below
 * 13 |v|max); an upload breaking that switches the context back to NaN land.
 *
 * Measured on the 2-core build machine (load average 2.3-2.7), 2 threads,
 * tests/test_openmp_bench --steps 48 --reps 5, interleaved, ms/step median,
 * NaN land vs zero-land: 50x222x241 f32 2.17 / 1.06, 2.12 / 1.30; f64
 * 3.77 / 2.71, 3.51 / 2.36; 50x888x964 f32 33.8 / 18.1, 28.7 / 19.4. The
 * kernel loses the six NaN compares and twelve blends per vector; the count
 * array is one more read stream (PS_REAL: kept simple, a uint8 count would
 * need the NaN payloads stored elsewhere).
 */
#define ZL_FUNCS(T, SFX, TMAX)                                                           \
    /* NaN -> +0.0 in a and b, cnt = the NaN (land) or 0 (ocean, counted later) */ \
    static void zl_convert##SFX(T *a, T *b, T *cnt, size_t len)                          \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < len; i++) {                                                      \
            T v = a[i];                                                                  \
            if (v != v) {                                                                \
                cnt[i] = v;                                                              \
                a[i] = b[i] = (T)0;                                                      \
            } else                                                                       \
                cnt[i] = (T)0;                                                           \
        }                                                                                \
    }                                                                                    \
    /* ocean cells i0..i1-1 of row off: count the neighbours land[] marks ocean */     \
    static void zl_count##SFX(T *cnt, const T *land, size_t off, size_t plane, size_t nx, \
                              size_t i0, size_t i1)                                      \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = off + i0; i < off + i1; i++) {                                          \
            T n = (T)0;                                                                  \
            if (land[i] != land[i])                                                      \
                continue;                                                                \
            n += land[i - plane] == land[i - plane] ? (T)1 : (T)0;                       \
            n += land[i + plane] == land[i + plane] ? (T)1 : (T)0;                       \
            n += land[i - nx] == land[i - nx] ? (T)1 : (T)0;                             \
            n += land[i + nx] == land[i + nx] ? (T)1 : (T)0;                             \
            n += land[i - 1] == land[i - 1] ? (T)1 : (T)0;                               \
            n += land[i + 1] == land[i + 1] ? (T)1 : (T)0;                               \
            cnt[i] = n;                                                                  \
        }                                                                                \
    }                                                                                    \
    /* nonzero if a value rules zero-land out (see above) */                            \
    static int zl_bad##SFX(const T *h, size_t len)                                       \
    {                                                                                    \
        size_t i;                                                                        \
        int bad = 0;                                                                     \
        for (i = 0; i < len; i++)                                                        \
            bad |= h[i] == h[i] && !(h[i] <= (T)((TMAX) / 64) && h[i] >= (T)(-(TMAX) / 64)); \
        return bad;                                                                      \
    }                                                                                    \
    /* land cells of a downloaded row get their NaN back */                             \
    static void zl_restore##SFX(T *h, const T *cnt, size_t len)                          \
    {                                                                                    \
        size_t i;                                                                        \
        for (i = 0; i < len; i++)                                                        \
            if (cnt[i] != cnt[i])                                                        \
                h[i] = cnt[i];                                                           \
    }
ZL_FUNCS(float, _f32, FLT_MAX)
ZL_FUNCS(double, _f64, DBL_MAX)
#undef ZL_FUNCS

static void zl_convert(const omp_ctx *c, void *a, void *b, void *cnt, size_t len)
{
    if (c->es == sizeof(float))
        zl_convert_f32(a, b, cnt, len);
    else
        zl_convert_f64(a, b, cnt, len);
}

static void zl_count(const omp_ctx *c, void *cnt, const void *land, size_t off, size_t i0,
                     size_t i1)
{
    const size_t plane = c->g.ny * c->g.nx;
    if (c->es == sizeof(float))
        zl_count_f32(cnt, land, off, plane, c->g.nx, i0, i1);
    else
        zl_count_f64(cnt, land, off, plane, c->g.nx, i0, i1);
}

static int zl_bad(const omp_ctx *c, const void *h, size_t len)
{
    return c->es == sizeof(float) ? zl_bad_f32(h, len) : zl_bad_f64(h, len);
}

/* Back to NaN land for good (an upload ruled zero-land out). */
static void zl_leave(omp_ctx *c)
{
    const size_t n = c->g.nz * c->g.ny * c->g.nx;
    size_t i;
    if (!c->zl)
        return;
    for (i = 0; i < n; i++) {
        if (c->es == sizeof(float)) {
            float v = ((float *)c->cnt)[i];
            if (v != v)
                ((float *)c->cur)[i] = ((float *)c->next)[i] = v;
        } else {
            double v = ((double *)c->cnt)[i];
            if (v != v)
                ((double *)c->cur)[i] = ((double *)c->next)[i] = v;
        }
    }
    c->zl = 0;
    free(c->cnt);
    c->cnt = NULL;
}

/*
 * Write @p src (whole box, or NULL for zeros) into both buffers, in parallel
 * with the step's schedule (first touch: the thread that will update a row
 * owns its pages), then the outermost layer.
 */
static void fill_both(omp_ctx *c, const void *src)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    const size_t rows = interior_rows(c), rowb = nx * es;
    char *a = c->cur, *b = c->next, *cnt = c->cnt;
    const char *s = src;
    long r, q;
#pragma omp parallel num_threads(c->threads)
    {
#pragma omp for schedule(static)
        for (r = 0; r < (long)rows; r++) {
            size_t k, j, off;
            row_of(c, (size_t)r, &k, &j);
            off = (k * ny + j) * rowb;
            if (s) {
                memcpy(a + off, s + off, rowb);
                memcpy(b + off, s + off, rowb);
            } else {
                memset(a + off, 0, rowb);
                memset(b + off, 0, rowb);
            }
            if (c->zl) {
                /* the count reads the mask from src (read only): no race */
                zl_convert(c, a + off, b + off, cnt + off, nx);
                if (s)
                    zl_count(c, cnt, s, off / es, 1, nx - 1);
                else /* all ocean: six neighbours each */
                    for (size_t i = 1; i < nx - 1; i++) {
                        if (es == sizeof(float))
                            ((float *)(cnt + off))[i] = 6.0f;
                        else
                            ((double *)(cnt + off))[i] = 6.0;
                    }
            }
        }
        /* the rest: planes k = 0, nz-1 and rows j = 0, ny-1 (all rows if no interior) */
#pragma omp for schedule(static)
        for (q = 0; q < (long)(nz * ny); q++) {
            size_t k = (size_t)q / ny, j = (size_t)q % ny, off = (size_t)q * rowb;
            if (rows && k > 0 && k < nz - 1 && j > 0 && j < ny - 1)
                continue;
            if (s) {
                memcpy(a + off, s + off, rowb);
                memcpy(b + off, s + off, rowb);
            } else {
                memset(a + off, 0, rowb);
                memset(b + off, 0, rowb);
            }
            if (c->zl)
                zl_convert(c, a + off, b + off, cnt + off, nx);
        }
    }
}

static size_t auto_jblock(const ps_grid *g, size_t es)
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
 * last-level cache, where a step is DRAM-bound and a normal store first reads
 * its line for ownership. Measured on the 2-core build machine (50x888x964
 * float32, 2 threads) they were slower (52.8 vs 38.3 ms/step): that grid
 * runs at about 9 GB/s of compulsory traffic, well under the DRAM bound, so
 * the step is compute-bound and the extra pass through the row buffer costs
 * more than the saved reads. So they are off unless PSTENCIL_OPENMP_STREAM=1
 * (kept, and validated, for machines with more cores per memory channel).
 */
static int auto_stream(size_t bytes)
{
    const char *e = getenv("PSTENCIL_OPENMP_STREAM");
    (void)bytes;
    if (e && *e)
        return strcmp(e, "0") != 0;
    return 0;
}

/*
 * Steps fused per sweep in exact mode (see omp_step_tblock) and the tile
 * height: PSTENCIL_OPENMP_TBLOCK=T (0 = the single-step path) and
 * PSTENCIL_OPENMP_TJ=rows override. Defaults: T = 4, and tiles as tall as
 * possible, up to one per thread, while a tile's working set (3 field planes
 * plus 3 slots per intermediate level, halo rows included) stays within
 * 32 MiB / (4 * threads) (a Zen 3 CCX's L3), at least 8 rows. Measured on
 * the 2-core build machine (AMD EPYC, 512 KiB L2 per core, 32 MiB L3),
 * 2 threads, medians of interleaved runs of tests/test_openmp_bench
 * (ms/step, single-step path in brackets), quiet machine, T = 3:
 * 50x222x241 f32 1.71 (1.87), f64 3.47 (4.14); 50x888x964 f32 27.7 (35.4),
 * f64 56.9 (68.6). With these tall tiles T = 4 beat T = 3 in 6 of 7
 * interleaved comparisons on the (busy, shared) machine (e.g. 50x222x241
 * f32 at load average 3-5: 4.69 vs 5.38, single-step 5.91; 4.10 vs 5.17,
 * single-step 5.01; f64 7.93 vs 8.17, single-step 10.17), T = 5 did not
 * gain more. Tiles sized to fit L2 (16-38 rows) were slower (more halo
 * recomputation, shorter runs), 8 rows slower still, and tiles of 8 MiB per
 * thread slower too.
 */
static int auto_tblock(const ps_grid *g, size_t es, int threads, size_t *tj)
{
    const char *e = getenv("PSTENCIL_OPENMP_TBLOCK"), *f = getenv("PSTENCIL_OPENMP_TJ");
    size_t l3 = 32u << 20, rowb = g->nx * es, nj = g->ny > 2 ? g->ny - 2 : 1, planes, h, cap;
    long v = PS_TB_DEFAULT;
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
    /* l3 is not taken from sysconf: on the build machine's VM it reports
     * 256 MiB (the host's), and tiles sized for that were slower */
    planes = 3 + 3 * (size_t)(v > 1 ? v - 1 : 0);
    h = l3 / (4 * (size_t)(threads > 0 ? threads : 1)) / (planes * (rowb ? rowb : 1));
    h = h > 2 * (size_t)v + 8 ? h - 2 * (size_t)v : 8;
    cap = (nj + (size_t)threads - 1) / (size_t)(threads > 0 ? threads : 1);
    *tj = h < cap ? h : cap;
    return (int)v;
}

/* Zero-land on (see "Zero-land"): default; PSTENCIL_OPENMP_ZERO_LAND=0 off. */
static int auto_zero_land(double coeff)
{
    const char *e = getenv("PSTENCIL_OPENMP_ZERO_LAND");
    if (e && *e && !strcmp(e, "0"))
        return 0;
    return coeff >= 0.0 && coeff <= 1.0;
}

static void omp_destroy(void *vc);

static int omp_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    omp_ctx *c = NULL;
    size_t bytes = 0;
    int st;
    *out = NULL;
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
    if (cfg->device > 0) {
        snprintf(why, whylen, "device %d does not exist (the openmp backend has device 0)",
                 cfg->device);
        return PS_ENODEVICE;
    }
    if (cfg->threads < 0) {
        snprintf(why, whylen, "invalid thread count %d", cfg->threads);
        return PS_EINVAL;
    }
    if (cfg->precision != PS_FLOAT32 && cfg->precision != PS_FLOAT64) {
        snprintf(why, whylen, "unknown precision %d", (int)cfg->precision);
        return PS_EINVAL;
    }
    st = ps_grid_size(&cfg->box.extent, cfg->precision, NULL, &bytes);
    if (st) {
        snprintf(why, whylen, "%s", ps_error_detail());
        return st;
    }
    c = calloc(1, sizeof *c);
    if (!c)
        goto nomem;
    c->cfg = *cfg;
    c->g = cfg->box.extent;
    c->es = ps_precision_size(cfg->precision);
    c->threads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
    c->jb = cfg->block[1] > 0 ? (size_t)cfg->block[1] : auto_jblock(&c->g, c->es);
    if (c->g.ny > 2 && c->jb > c->g.ny - 2)
        c->jb = c->g.ny - 2;
    if (c->jb == 0)
        c->jb = 1;
    {
        size_t al = (bytes + 63) & ~(size_t)63;
        if (al < 64)
            al = 64;
        c->cur = aligned_alloc(64, al);
        c->next = aligned_alloc(64, al);
    }
    if (!c->cur || !c->next)
        goto nomem;
    if (cfg->generic || strcmp(cfg->stencil->name, "diffusion7")) {
        /* no fast path: the generic skeleton (exact in both modes) */
#if defined(PS_OMP_X86) && defined(PS_HAVE_OMP_AVX2)
        c->gen = use_avx2() ? ps_omp_generic_find_avx2(cfg->stencil->name) : NULL;
        c->isa = c->gen ? "avx2" : "baseline";
#endif
        if (!c->gen) {
            c->gen = ps_omp_generic_find_base(cfg->stencil->name);
            c->isa = "baseline";
        }
        c->params = calloc(ps_params_packed_len(cfg) + 1, c->es);
        if (!c->params)
            goto nomem;
        ps_params_pack(cfg, c->params);
        if (!c->gen) {
            snprintf(why, whylen, "stencil '%s' is not in this build's list",
                     cfg->stencil->name);
            omp_destroy(c);
            return PS_EUNSUPPORTED;
        }
    } else if (cfg->mode == PS_MODE_FAST) {
#ifdef PS_OMP_X86
        if (use_fma()) {
            c->row32 = row_fast_f32_fma;
            c->row64 = row_fast_f64_fma;
            c->isa = "avx2+fma";
        } else if (use_avx2()) {
            c->row32 = row_fast_f32_avx2;
            c->row64 = row_fast_f64_avx2;
            c->isa = "avx2";
        } else
#endif
        {
            c->row32 = row_fast_f32_base;
            c->row64 = row_fast_f64_base;
            c->isa = "baseline";
        }
    } else {
        c->stream = auto_stream(bytes);
        c->tblock = c->stream ? 0 : auto_tblock(&c->g, c->es, c->threads, &c->tj);
        c->zl = !c->stream && auto_zero_land(cfg->params.scalars[0]);
        if (c->zl) {
            size_t al = (bytes + 63) & ~(size_t)63;
            c->cnt = aligned_alloc(64, al < 64 ? 64 : al);
            if (!c->cnt)
                goto nomem;
        }
#ifdef PS_OMP_X86
        if (use_avx2()) {
            c->rowp32 = row_exact_p_f32_avx2;
            c->rowp64 = row_exact_p_f64_avx2;
            c->rowz32 = row_zl_p_f32_avx2;
            c->rowz64 = row_zl_p_f64_avx2;
            c->row32 = c->stream ? row_exact_nt_f32_avx2 : row_exact_f32_avx2;
            c->row64 = c->stream ? row_exact_nt_f64_avx2 : row_exact_f64_avx2;
            c->isa = "avx2";
        } else
#endif
        {
            c->rowp32 = row_exact_p_f32_base;
            c->rowp64 = row_exact_p_f64_base;
            c->rowz32 = row_zl_p_f32_base;
            c->rowz64 = row_zl_p_f64_base;
            c->row32 = c->stream ? row_exact_nt_f32_base : row_exact_f32_base;
            c->row64 = c->stream ? row_exact_nt_f64_base : row_exact_f64_base;
            c->isa = "baseline";
        }
    }
    fill_both(c, NULL); /* first touch with the step's schedule */
    *out = c;
    return PS_OK;
nomem:
    omp_destroy(c);
    snprintf(why, whylen, "cannot allocate 2 x %zu bytes", bytes);
    return PS_ENOMEM;
}

static int is_whole(const ps_grid *g, const ps_region *r)
{
    return !r || (r->start[0] == 0 && r->start[1] == 0 && r->start[2] == 0 &&
                  r->count.nz == g->nz && r->count.ny == g->ny && r->count.nx == g->nx);
}

/*
 * Zero-land after a region was scattered into both buffers: convert its
 * cells, then recount the interior cells within one cell of it (the only
 * ones whose neighbourhood it can change). Serial; the mask is read from the
 * count array, whose NaN-ness the recount does not change.
 */
static void zl_region(omp_ctx *c, const ps_region *r)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    size_t k, j, lo[3], hi[3], ext[3] = {nz, ny, nx};
    int a;
    char *A = c->cur, *B = c->next, *N = c->cnt;
    for (k = r->start[0]; k < r->start[0] + r->count.nz; k++)
        for (j = r->start[1]; j < r->start[1] + r->count.ny; j++) {
            size_t off = ((k * ny + j) * nx + r->start[2]) * es;
            zl_convert(c, A + off, B + off, N + off, r->count.nx);
        }
    if (nz < 3 || ny < 3 || nx < 3)
        return;
    {
        size_t cnt3[3] = {r->count.nz, r->count.ny, r->count.nx};
        for (a = 0; a < 3; a++) {
            lo[a] = r->start[a] > 1 ? r->start[a] - 1 : 1;
            hi[a] = r->start[a] + cnt3[a] + 1;
            if (hi[a] > ext[a] - 1)
                hi[a] = ext[a] - 1;
        }
    }
    for (k = lo[0]; k < hi[0]; k++)
        for (j = lo[1]; j < hi[1]; j++)
            if (lo[2] < hi[2])
                zl_count(c, N, N, (k * ny + j) * nx, lo[2], hi[2]);
}

static int omp_upload(void *vc, const void *host, const ps_region *r)
{
    omp_ctx *c = vc;
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "upload: %s", ps_error_detail());
        return PS_ERANGE;
    }
    if (c->zl && zl_bad(c, host, r ? r->count.nz * r->count.ny * r->count.nx
                                   : c->g.nz * c->g.ny * c->g.nx))
        zl_leave(c);
    if (is_whole(&c->g, r)) {
        fill_both(c, host);
        return PS_OK;
    }
    /* a halo or sub-block: into both buffers, so the outermost layer agrees */
    ps_region_scatter(c->cur, &c->g, host, r, c->es);
    ps_region_scatter(c->next, &c->g, host, r, c->es);
    if (c->zl)
        zl_region(c, r);
    return PS_OK;
}

static int omp_download(void *vc, void *host, const ps_region *r)
{
    omp_ctx *c = vc;
    ps_region whole = ps_region_whole(c->g);
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "download: %s", ps_error_detail());
        return PS_ERANGE;
    }
    ps_region_gather(host, c->cur, &c->g, r ? r : &whole, c->es);
    if (c->zl) {
        /* land cells get their NaN back */
        const ps_region *q = r ? r : &whole;
        const size_t ny = c->g.ny, nx = c->g.nx, cx = q->count.nx;
        size_t k, j;
        for (k = 0; k < q->count.nz; k++)
            for (j = 0; j < q->count.ny; j++) {
                size_t h = (k * q->count.ny + j) * cx;
                size_t b = ((q->start[0] + k) * ny + q->start[1] + j) * nx + q->start[2];
                if (c->es == sizeof(float))
                    zl_restore_f32((float *)host + h, (const float *)c->cnt + b, cx);
                else
                    zl_restore_f64((double *)host + h, (const double *)c->cnt + b, cx);
            }
    }
    return PS_OK;
}

/*
 * Temporal blocking (PSTENCIL_OPENMP_TBLOCK=T, T = 1..PS_TB_MAX; 0 = the
 * single-step path above). T steps of one step() call are fused into one
 * sweep over the field: the interior rows j are cut into tiles, and each
 * thread walks its tiles plane by plane along k as a wavefront,
 *     for kk: for level l = 1..T: compute plane k = kk - (l-1) of step t+l,
 * as soon as planes k-1..k+1 of step t+l-1 exist. Step t is the field A
 * (read only during the sweep), step t+T goes straight into the other field
 * B, and the intermediate steps live in a thread's scratch: three rolling
 * plane slots per level (plane k overwrites plane k-3, which no level still
 * needs). Level l of a tile also covers T-l halo rows each side (recomputed
 * by the neighbouring tile too), so tiles never wait on each other; only
 * the end of the sweep is a barrier. A tile's working set stays in L2, so
 * the field goes through L3/memory once per T steps instead of once per step.
 *
 * Bitwise: every cell of every intermediate step gets row_exact_p, the same
 * cell loop as the single-step path, with the same step-t neighbours (Jacobi:
 * level l reads only level l-1). Boundary cells never change, so the slots'
 * boundary rows (j = 0, ny-1), columns (i = 0, nx-1) and planes (k = 0,
 * nz-1, taken from A directly) are copies from A. Uploads between step()
 * calls are honoured: only the steps of one call are fused.
 */

/* j range [lo, hi) of level l's stored rows for output rows [j0, j1) */
static void tb_rows(const omp_ctx *c, int T, int l, size_t j0, size_t j1, size_t *lo, size_t *hi)
{
    size_t halo = (size_t)(T - l);
    *lo = j0 >= halo ? j0 - halo : 0;
    *hi = j1 + halo < c->g.ny ? j1 + halo : c->g.ny;
}

/* One tile: output rows [j0, j1) of every interior plane, T steps A -> B. */
static void tb_tile(const omp_ctx *c, const char *A, char *B, size_t j0, size_t j1, int T,
                    char *scratch, size_t slot_rows)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    const size_t rowb = nx * es, planeb = ny * rowb, slotb = slot_rows * rowb;
    size_t lo[PS_TB_MAX + 1], hi[PS_TB_MAX + 1];
    long kk;
    int l;
    for (l = 1; l <= T; l++) {
        if (l == T)
            lo[l] = j0, hi[l] = j1;
        else
            tb_rows(c, T, l, j0, j1, &lo[l], &hi[l]);
    }
    lo[0] = 0;
    for (kk = 1; kk < (long)(nz - 2 + (size_t)T); kk++) {
        for (l = 1; l <= T; l++) {
            long kl = kk - (l - 1);
            size_t k, r0, r1, j, dlo, mlo, clo, plo;
            char *dp;
            const char *sm, *sc, *sp;
            if (kl < 1 || kl > (long)nz - 2)
                continue;
            k = (size_t)kl;
            r0 = lo[l] > 0 ? lo[l] : 1;
            r1 = hi[l] < ny - 1 ? hi[l] : ny - 1;
            /* row j of level L, plane K is P + (j - PLO)*rowb: the field's
             * planes hold every row (PLO = 0), a slot rows lo[L].. */
#define TB_PLANE(L, K, P, PLO)                                                          \
    do {                                                                                \
        if ((L) == 0 || (K) == 0 || (K) == nz - 1)                                      \
            (P) = A + (K) * planeb, (PLO) = 0;                                          \
        else if ((L) == T)                                                              \
            (P) = B + (K) * planeb, (PLO) = 0;                                          \
        else                                                                            \
            (P) = scratch + ((size_t)((L) - 1) * 3 + (K) % 3) * slotb, (PLO) = lo[L];   \
    } while (0)
            if (l == T)
                dp = B + k * planeb, dlo = 0;
            else
                dp = scratch + ((size_t)(l - 1) * 3 + k % 3) * slotb, dlo = lo[l];
            TB_PLANE(l - 1, k - 1, sm, mlo);
            TB_PLANE(l - 1, k, sc, clo);
            TB_PLANE(l - 1, k + 1, sp, plo);
#undef TB_PLANE
            if (l < T) {
                /* boundary rows of the slot, from A */
                const char *a = A + k * planeb;
                if (lo[l] == 0)
                    memcpy(dp, a, rowb);
                if (hi[l] == ny)
                    memcpy(dp + (ny - 1 - dlo) * rowb, a + (ny - 1) * rowb, rowb);
            }
            for (j = r0; j < r1; j++) {
                float *d32 = (float *)(dp + (j - dlo) * rowb);
                double *d64 = (double *)(dp + (j - dlo) * rowb);
                const char *rm = sm + (j - mlo) * rowb, *rc = sc + (j - clo) * rowb,
                           *rp = sp + (j - plo) * rowb;
                if (c->zl) {
                    const char *rn = (const char *)c->cnt + k * planeb + j * rowb;
                    if (es == sizeof(float))
                        c->rowz32(d32, (const float *)rm, (const float *)rc, (const float *)rp,
                                  (const float *)rn, nx, (float)c->cfg.params.scalars[0]);
                    else
                        c->rowz64(d64, (const double *)rm, (const double *)rc,
                                  (const double *)rp, (const double *)rn, nx, c->cfg.params.scalars[0]);
                } else if (es == sizeof(float))
                    c->rowp32(d32, (const float *)rm, (const float *)rc, (const float *)rp, nx,
                              (float)c->cfg.params.scalars[0]);
                else
                    c->rowp64(d64, (const double *)rm, (const double *)rc, (const double *)rp,
                              nx, c->cfg.params.scalars[0]);
                if (l < T) {
                    /* boundary columns i = 0, nx-1 from A */
                    const char *a = A + k * planeb + j * rowb;
                    if (es == sizeof(float)) {
                        d32[0] = ((const float *)a)[0];
                        d32[nx - 1] = ((const float *)a)[nx - 1];
                    } else {
                        d64[0] = ((const double *)a)[0];
                        d64[nx - 1] = ((const double *)a)[nx - 1];
                    }
                }
            }
        }
    }
}

/* Tiles: count (a multiple of the team size) and the largest tile height. */
static size_t tb_tiles(const omp_ctx *c, size_t *hmax)
{
    size_t nj = c->g.ny - 2, th = (size_t)c->threads, n;
    size_t tj = c->tj ? c->tj : nj;
    n = (nj + tj - 1) / tj;
    n = (n + th - 1) / th * th;
    if (n > nj)
        n = nj;
    if (n < 1)
        n = 1;
    *hmax = (nj + n - 1) / n;
    return n;
}

static int tb_scratch(omp_ctx *c, size_t need)
{
    int t;
    if (c->scratch && c->scratch_size >= need)
        return 0;
    if (!c->scratch) {
        c->scratch = calloc((size_t)c->threads, sizeof *c->scratch);
        if (!c->scratch)
            return -1;
    }
    for (t = 0; t < c->threads; t++) {
        free(c->scratch[t]);
        c->scratch[t] = aligned_alloc(64, (need + 63) & ~(size_t)63);
        if (!c->scratch[t])
            return -1;
    }
    c->scratch_size = need;
    return 0;
}

static int omp_step_tblock(omp_ctx *c, long nsteps)
{
    const int T = c->tblock;
    size_t hmax, ntiles = tb_tiles(c, &hmax);
    size_t slot_rows = hmax + 2 * (size_t)(T - 1);
    size_t need = (size_t)(T > 1 ? T - 1 : 1) * 3 * slot_rows * c->g.nx * c->es;
    long done;
    if (tb_scratch(c, need)) {
        snprintf(c->err, sizeof c->err, "step: cannot allocate %d x %zu bytes of scratch",
                 c->threads, need);
        return PS_ENOMEM;
    }
    for (done = 0; done < nsteps;) {
        int t = nsteps - done < T ? (int)(nsteps - done) : T;
        const char *A = c->cur;
        char *B = c->next;
        void *tmp;
        long q;
        const size_t nj = c->g.ny - 2;
#pragma omp parallel for schedule(static) num_threads(c->threads)
        for (q = 0; q < (long)ntiles; q++) {
            size_t j0 = 1 + (size_t)q * nj / ntiles, j1 = 1 + (size_t)(q + 1) * nj / ntiles;
            tb_tile(c, A, B, j0, j1, t, c->scratch[omp_get_thread_num()], slot_rows);
        }
        tmp = c->cur;
        c->cur = c->next;
        c->next = tmp;
        done += t;
    }
    return PS_OK;
}

static int omp_step(void *vc, long nsteps)
{
    omp_ctx *c = vc;
    const size_t rows = interior_rows(c);
    const size_t ny = c->g.ny, nx = c->g.nx, plane = ny * nx;
    if (nsteps <= 0)
        return PS_OK;
    if (c->gen) {
        (c->es == sizeof(float) ? c->gen->f32 : c->gen->f64)(&c->cfg, c->threads, c->params,
                                                               &c->cur, &c->next, nsteps);
        return PS_OK;
    }
    if (rows == 0)
        return PS_OK;
    if (c->tblock > 0)
        return omp_step_tblock(c, nsteps);
#pragma omp parallel num_threads(c->threads)
    {
        char *src = c->cur, *dst = c->next, *tmp;
        long t, r;
        for (t = 0; t < nsteps; t++) {
            if (c->es == sizeof(float)) {
                const float d = (float)c->cfg.params.scalars[0];
#pragma omp for schedule(static) nowait
                for (r = 0; r < (long)rows; r++) {
                    size_t k, j, off;
                    row_of(c, (size_t)r, &k, &j);
                    off = k * plane + j * nx;
                    if (c->zl)
                        c->rowz32((float *)dst + off, (const float *)src + off - plane,
                                  (const float *)src + off, (const float *)src + off + plane,
                                  (const float *)c->cnt + off, nx, d);
                    else
                        c->row32((float *)dst + off, (const float *)src + off, plane, nx, d);
                }
            } else {
                const double d = c->cfg.params.scalars[0];
#pragma omp for schedule(static) nowait
                for (r = 0; r < (long)rows; r++) {
                    size_t k, j, off;
                    row_of(c, (size_t)r, &k, &j);
                    off = k * plane + j * nx;
                    if (c->zl)
                        c->rowz64((double *)dst + off, (const double *)src + off - plane,
                                  (const double *)src + off, (const double *)src + off + plane,
                                  (const double *)c->cnt + off, nx, d);
                    else
                        c->row64((double *)dst + off, (const double *)src + off, plane, nx, d);
                }
            }
            /* non-temporal stores are weakly ordered: fence them before the
             * barrier, after which every row of dst is written and visible */
            if (c->stream)
                PS_OMP_SFENCE();
#pragma omp barrier
            tmp = src;
            src = dst;
            dst = tmp;
        }
    }
    if (nsteps & 1) {
        void *tmp = c->cur;
        c->cur = c->next;
        c->next = tmp;
    }
    return PS_OK;
}

static int omp_finish(void *vc)
{
    (void)vc;
    return PS_OK;
}

static void omp_destroy(void *vc)
{
    omp_ctx *c = vc;
    if (!c)
        return;
    if (c->scratch) {
        int t;
        for (t = 0; t < c->threads; t++)
            free(c->scratch[t]);
        free(c->scratch);
    }
    free(c->cur);
    free(c->next);
    free(c->cnt);
    free(c->params);
    free(c);
}

static const char *omp_last_error(void *vc)
{
    omp_ctx *c = vc;
    return c ? c->err : "";
}

static const char *const omp_fast_paths[] = {"diffusion7", NULL};

static const ps_backend_ops table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "openmp",
    .description = "OpenMP CPU backend: every stencil on (k,j) rows; diffusion7 vectorised "
                   "with fused steps",
    .priority = 100,
    .flags = PS_BACKEND_THREADS | PS_BACKEND_BLOCK,
    .fast_paths = omp_fast_paths,
    .probe = omp_probe,
    .create = omp_create,
    .upload = omp_upload,
    .step = omp_step,
    .finish = omp_finish,
    .download = omp_download,
    .timing = NULL,
    .destroy = omp_destroy,
    .last_error = omp_last_error,
};

const ps_backend_ops *ps_openmp_ops(void)
{
    return &table;
}
