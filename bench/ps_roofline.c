/*
 * The benchmark's compute ceilings (`pstencil bench --roofline`): a
 * cache-resident Jacobi sweep of the default stencil's exact update.
 *
 * Each thread owns a block of nz x ny x nx cells (two arrays, ping-pong) and
 * sweeps it over and over inside one parallel region (no barrier between
 * sweeps: every thread only ever touches its own block), one step per sweep
 * (no temporal blocking). The stencil is the registry's default and its
 * parameters come from its default options (ps_stencil_prepare_default), so
 * the sweep follows the stencil list rather than naming a stencil. The block
 * is sized so its arrays stay in the level asked for (L1 or L2), so the
 * figure is what the exact arithmetic plus the loads cost when memory is not
 * in the way: the yardstick an optimised kernel is measured against.
 *
 * The ceiling is the cheapest exact form of the update the description
 * allows, since that is what an optimised kernel runs: for a land-sum
 * stencil (PS_NAME_LAND_SUM, kernels/ps_skeleton.h) land held as +0.0 with
 * the ocean-neighbour counts precomputed (the neighbours and the count
 * loaded, no NaN test: ps_NAME_apply_landsum); otherwise the NaN-masked
 * point update (ps_NAME_apply). The masked form of a land-sum stencil is
 * also measured and printed: its NaN tests and selects cost 2-2.5x the
 * land-sum form on AVX2 (about 1.5x with AVX-512's mask registers), which
 * is why a kernel holding land as zero exceeds a masked ceiling. The
 * sweeps are compiled for the baseline target, AVX2 and AVX-512 (target
 * attributes, picked at run time like the openmp rows), and the best
 * instruction set the CPU has is used.
 */
#include "config.h"
#include "ps_bench.h"
#include "ps_status.h"
#include "ps_stencil.h"
#include "ps_timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ps_skeleton_all.h"

/* Widest vector of the sweeps (AVX-512, float32): a block's row must hold it. */
#define PS_RL_MAXW 16

/*
 * One sweep of the block's interior (cells at least the stencil's radius R
 * from every face): rows covered by whole vectors of W cells, the last one
 * moved back to end at nx-R (as the openmp rows do). The packed parameters
 * are over the block (its own global grid). cnt: the ocean-neighbour counts
 * of the land-sum form (unread by the masked form).
 */
#define PS_RL_POINT_MASKED(STENCIL)                                                        \
    ps_##STENCIL##_apply_f32(src, (long)(row + q), (long)plane, (long)nx, params, (long)k, \
                             (long)j, (long)q, (long)nz, (long)ny, (long)nx)
#define PS_RL_POINT_LANDSUM(STENCIL)                                                       \
    ps_##STENCIL##_apply_landsum_f32(src, cnt, (long)(row + q), (long)plane, (long)nx,     \
                                     params, (long)k, (long)j, (long)q, (long)nz, (long)ny, \
                                     (long)nx)
#define PS_RL_SWEEP_FORM(FN, STENCIL, ATTR, W, POINT)                                      \
    ATTR static void FN(float *restrict dst, const float *restrict src,                    \
                        const float *restrict cnt, const float *restrict params, size_t nz, \
                        size_t ny, size_t nx)                                              \
    {                                                                                      \
        const size_t plane = ny * nx, r = PS_##STENCIL##_RADIUS;                           \
        size_t k, j;                                                                       \
        for (k = r; k + r < nz; k++)                                                       \
            for (j = r; j + r < ny; j++) {                                                 \
                const size_t row = k * plane + j * nx;                                     \
                size_t i = r, q;                                                           \
                for (;;) {                                                                 \
                    for (q = i; q < i + (W); q++)                                          \
                        dst[row + q] = POINT(STENCIL);                                     \
                    if (i + (W) == nx - r)                                                 \
                        break;                                                             \
                    i += (W);                                                              \
                    if (i + (W) > nx - r)                                                  \
                        i = nx - r - (W);                                                  \
                }                                                                          \
            }                                                                              \
        (void)cnt;                                                                         \
    }
/* both forms of a sweep: FN (masked) and FN##_ls (land-sum, where declared) */
#define PS_RL_SWEEP(FN, STENCIL, ATTR, W)                                                  \
    PS_RL_SWEEP_FORM(FN, STENCIL, ATTR, W, PS_RL_POINT_MASKED)
#define PS_RL_SWEEP_LS(FN, STENCIL, ATTR, W)                                               \
    PS_RL_SWEEP_FORM(FN##_ls, STENCIL, ATTR, W, PS_RL_POINT_LANDSUM)

typedef void (*rl_sweep_fn)(float *restrict, const float *restrict, const float *restrict,
                            const float *restrict, size_t, size_t, size_t);

/* Every listed stencil's sweeps, by instruction set; the run picks by name. */
#define PS_RL_BASE(NAME) PS_RL_SWEEP(rl_base_##NAME, NAME, , 4)
#define PS_RL_BASE_LS(NAME) PS_RL_SWEEP_LS(rl_base_##NAME, NAME, , 4)
#define PS_RL_LS_OF(NAME) PS_##NAME##_LAND_SUM(PS_RL_BASE_LS)
PS_STENCIL_LIST(PS_RL_BASE)
PS_STENCIL_LIST(PS_RL_LS_OF)
#if defined(__GNUC__) && defined(__x86_64__)
#define PS_RL_AVX2(NAME) PS_RL_SWEEP(rl_avx2_##NAME, NAME, __attribute__((target("avx2"))), 8)
#if defined(__clang__) /* clang's target attribute has no prefer-vector-width */
#define PS_RL_AVX512(NAME) \
    PS_RL_SWEEP(rl_avx512_##NAME, NAME, __attribute__((target("avx512f"))), 16)
#else
#define PS_RL_AVX512(NAME) \
    PS_RL_SWEEP(rl_avx512_##NAME, NAME, \
                __attribute__((target("avx512f,prefer-vector-width=512"))), 16)
#endif
#define PS_RL_AVX2_LS(NAME) \
    PS_RL_SWEEP_LS(rl_avx2_##NAME, NAME, __attribute__((target("avx2"))), 8)
#if defined(__clang__)
#define PS_RL_AVX512_LS(NAME) \
    PS_RL_SWEEP_LS(rl_avx512_##NAME, NAME, __attribute__((target("avx512f"))), 16)
#else
#define PS_RL_AVX512_LS(NAME) \
    PS_RL_SWEEP_LS(rl_avx512_##NAME, NAME, \
                   __attribute__((target("avx512f,prefer-vector-width=512"))), 16)
#endif
#define PS_RL_AVX2_LS_OF(NAME) PS_##NAME##_LAND_SUM(PS_RL_AVX2_LS)
#define PS_RL_AVX512_LS_OF(NAME) PS_##NAME##_LAND_SUM(PS_RL_AVX512_LS)
PS_STENCIL_LIST(PS_RL_AVX2)
PS_STENCIL_LIST(PS_RL_AVX512)
PS_STENCIL_LIST(PS_RL_AVX2_LS_OF)
PS_STENCIL_LIST(PS_RL_AVX512_LS_OF)
#define PS_RL_X86 1
#define PS_RL_ENTRY(NAME) {#NAME, rl_base_##NAME, rl_avx2_##NAME, rl_avx512_##NAME},
#define PS_RL_ENTRY_LS(NAME) \
    {#NAME, rl_base_##NAME##_ls, rl_avx2_##NAME##_ls, rl_avx512_##NAME##_ls},
#else
#define PS_RL_ENTRY(NAME) {#NAME, rl_base_##NAME, NULL, NULL},
#define PS_RL_ENTRY_LS(NAME) {#NAME, rl_base_##NAME##_ls, NULL, NULL},
#endif
#define PS_RL_ENTRY_LS_OF(NAME) PS_##NAME##_LAND_SUM(PS_RL_ENTRY_LS)

/* The sweeps of one stencil. */
typedef struct rl_sweeps {
    const char *name;
    rl_sweep_fn base, avx2, avx512;
} rl_sweeps;

/* every stencil's masked sweeps; the land-sum sweeps of those that declare the form */
static const rl_sweeps rl_table[] = {PS_STENCIL_LIST(PS_RL_ENTRY)};
static const rl_sweeps rl_table_ls[] = {PS_STENCIL_LIST(PS_RL_ENTRY_LS_OF){NULL, NULL, NULL,
                                                                           NULL}};

static rl_sweep_fn rl_pick(const rl_sweeps *s, const char **isa)
{
#ifdef PS_RL_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *isa = "avx512";
        return s->avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        *isa = "avx2";
        return s->avx2;
    }
#endif
    *isa = "baseline";
    return s->base;
}

/*
 * A block's field: ocean values with about one cell in four land (NaN). For
 * the land-sum form (@p cnt not NULL): land becomes +0.0 and cnt[] the ocean
 * cells' counts of ocean neighbours (0 for land and the outer layers).
 */
static void rl_fill(float *a, float *b, float *cnt, const ps_stencil *st, size_t nz, size_t ny,
                    size_t nx, unsigned seed)
{
    const size_t n = nz * ny * nx, plane = ny * nx, r = (size_t)st->radius;
    size_t i, k, j, q;
    int m;
    unsigned x = seed * 2654435761u + 1u;
    for (i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        a[i] = b[i] = ((x >> 8) & 3u) == 0 ? NAN : (float)((x >> 12) & 1023u) * 0.03125f;
    }
    if (!cnt)
        return;
    for (i = 0; i < n; i++) {
        k = i / plane;
        j = i / nx % ny;
        q = i % nx;
        cnt[i] = 0.0f;
        if (a[i] != a[i] || k < r || j < r || q < r || k + r >= nz || j + r >= ny ||
            q + r >= nx)
            continue;
        for (m = 0; m < st->nneighbours; m++) {
            const float v = a[(size_t)((long)i + (long)st->offsets[m][0] * (long)plane +
                                       (long)st->offsets[m][1] * (long)nx + (long)st->offsets[m][2])];
            cnt[i] += v == v ? 1.0f : 0.0f;
        }
    }
    for (i = 0; i < n; i++)
        if (a[i] != a[i])
            a[i] = b[i] = 0.0f;
}

/* Run @p inner sweeps per thread; returns seconds (wall, all threads). */
static double rl_run(rl_sweep_fn fn, const float *params, float **A, float **B, float **C,
                     size_t nz, size_t ny, size_t nx, long inner, int threads)
{
    double t0 = ps_now();
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        int t = 0;
        long it;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        for (it = 0; it < inner; it++) {
            if (it & 1)
                fn(A[t], B[t], C[t], params, nz, ny, nx);
            else
                fn(B[t], A[t], C[t], params, nz, ny, nx);
        }
    }
    (void)threads;
    return ps_now() - t0;
}

int ps_roofline_sweep(size_t nz, size_t ny, size_t nx, int threads, int samples, int masked,
                      ps_roofline_result *r)
{
    float **A = NULL, **B = NULL, **C = NULL, *params = NULL;
    const ps_stencil *st = ps_stencil_default();
    const rl_sweeps *sw = NULL;
    ps_params p;
    size_t n = nz * ny * nx, cells, np, q, rad;
    rl_sweep_fn fn;
    long inner = 1, it;
    int rc = PS_OK, t, s, landsum = 0;
    double sum = 0.0;

    memset(r, 0, sizeof *r);
    memset(&p, 0, sizeof p);
    for (q = 0; !masked && rl_table_ls[q].name; q++) /* the land-sum form where declared */
        if (!strcmp(rl_table_ls[q].name, st->name)) {
            sw = &rl_table_ls[q];
            landsum = 1;
        }
    for (q = 0; !sw && q < sizeof rl_table / sizeof rl_table[0]; q++)
        if (!strcmp(rl_table[q].name, st->name))
            sw = &rl_table[q];
    if (!sw)
        return ps_error(PS_EUNSUPPORTED, "roofline: stencil '%s' is not in this build's list",
                        st->name);
    rad = (size_t)st->radius;
    if (nz < 2 * rad + 1 || ny < 2 * rad + 1 || nx < 2 * rad + PS_RL_MAXW)
        return ps_error(PS_EINVAL,
                        "roofline: block %zux%zux%zu is too small for %s (radius %zu: at "
                        "least %zux%zux%zu)",
                        nz, ny, nx, st->name, rad, 2 * rad + 1, 2 * rad + 1,
                        2 * rad + PS_RL_MAXW);
    if (samples < 1)
        samples = 1;
#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_max_threads();
#else
    threads = 1;
#endif
    {
        ps_grid g;
        g.nz = nz;
        g.ny = ny;
        g.nx = nx;
        char why[256];
        rc = ps_stencil_prepare_default(st, g, &p);
        if (rc) {
            snprintf(why, sizeof why, "%s", ps_error_detail());
            return ps_error(rc, "roofline: %s with its default options: %s", st->name, why);
        }
    }
    np = (size_t)st->nscalars + p.array_values;
    params = calloc(np + 1, sizeof *params);
    if (!params) {
        rc = ps_error(PS_ENOMEM, "roofline: out of memory");
        goto done;
    }
    for (q = 0; q < np; q++) /* the skeleton's layout: scalars, then arrays */
        params[q] = (float)(q < (size_t)st->nscalars ? p.scalars[q]
                                                      : p.arrays[q - (size_t)st->nscalars]);
    r->stencil = st->name;
    r->landsum = landsum;
    r->loads = 1 + st->nneighbours + landsum; /* the cell, its neighbours, its count */
    fn = rl_pick(sw, &r->isa);
    A = calloc((size_t)threads, sizeof *A);
    B = calloc((size_t)threads, sizeof *B);
    C = calloc((size_t)threads, sizeof *C);
    if (!A || !B || !C) {
        rc = ps_error(PS_ENOMEM, "roofline: out of memory");
        goto done;
    }
    /* each thread allocates and first-touches its own block */
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        int me = 0;
#ifdef _OPENMP
        me = omp_get_thread_num();
#endif
        A[me] = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
        B[me] = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
        C[me] = landsum ? aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63) : B[me];
        if (A[me] && B[me] && C[me])
            rl_fill(A[me], B[me], landsum ? C[me] : NULL, st, nz, ny, nx, (unsigned)me + 1u);
    }
    for (t = 0; t < threads; t++)
        if (!A[t] || !B[t] || !C[t]) {
            rc = ps_error(PS_ENOMEM, "roofline: out of memory");
            goto done;
        }
    /* calibrate: a sample lasts about 2 ms (many short samples: on a shared
     * machine the best one is where every thread had its core), and updates
     * at least 2 M cells per thread, so that the parallel region's start
     * (slow when a thread has to be woken on a busy machine) is amortised
     * even when the calibration itself was disturbed */
    cells = (nz - 2 * rad) * (ny - 2 * rad) * (nx - 2 * rad);
    for (it = 1; it < (1L << 30); it *= 2) {
        double dt = rl_run(fn, params, A, B, C, nz, ny, nx, it, threads);
        if (dt >= 0.5e-3) {
            inner = (long)((double)it * 2e-3 / dt) + 1;
            break;
        }
    }
    if ((double)inner * (double)cells < 2e6)
        inner = (long)(2e6 / (double)cells) + 1;
    cells *= (size_t)threads;
    for (s = 0; s < samples; s++) {
        double dt = rl_run(fn, params, A, B, C, nz, ny, nx, inner, threads);
        double g = (double)cells * (double)inner / dt / 1e9;
        sum += g;
        if (g > r->best_gcells)
            r->best_gcells = g;
    }
    r->mean_gcells = sum / samples;
    r->nz = nz;
    r->ny = ny;
    r->nx = nx;
    r->threads = threads;
    r->samples = samples;
done:
    if (A && B && C)
        for (t = 0; t < threads; t++) {
            if (C[t] != B[t])
                free(C[t]);
            free(A[t]);
            free(B[t]);
        }
    free(A);
    free(B);
    free(C);
    free(params);
    ps_params_free(&p);
    return rc;
}

/* Block of @p bytes for @p arrays arrays together: nx x ny fixed, nz from the size. */
static size_t rl_nz(size_t bytes, int arrays, size_t ny, size_t nx)
{
    size_t nz = bytes / ((size_t)arrays * ny * nx * sizeof(float));
    return nz < 3 ? 3 : nz > 64 ? 64 : nz;
}

static size_t rl_cache(int name, size_t dflt)
{
    long v = -1;
    (void)name;
#ifdef _SC_LEVEL1_DCACHE_SIZE
    v = sysconf(name);
#endif
    return v > 0 ? (size_t)v : dflt;
}

int ps_roofline_print(FILE *f, const ps_bench_row *rows, int n, int threads)
{
    ps_roofline_result c[4];
    const char *what[4] = {"L1 block", "L2 block", "8x16x512 block", "L2 block"};
    const ps_stencil *st = ps_stencil_default();
    const int ls = (st->flags & PS_STENCIL_LAND_SUM) != 0, arrays = ls ? 3 : 2;
    size_t l1 = 32u << 10, l2 = 512u << 10, l1x;
    int i, k, rc;
#ifdef _SC_LEVEL1_DCACHE_SIZE
    l1 = rl_cache(_SC_LEVEL1_DCACHE_SIZE, l1);
    l2 = rl_cache(_SC_LEVEL2_CACHE_SIZE, l2);
#endif
    /* the arrays in half the level: L1 4 x 6 x nx, L2 nz x 16 x 512; then the
     * masked form in the L2 block, for comparison (a land-sum stencil only) */
    l1x = l1 / 2 / ((size_t)arrays * 4 * 6 * sizeof(float));
    if ((rc = ps_roofline_sweep(4, 6, l1x > 32 ? l1x : 32, threads, 100, 0, &c[0])) ||
        (rc = ps_roofline_sweep(rl_nz(l2 / 2, arrays, 16, 512), 16, 512, threads, 100, 0,
                                &c[1])) ||
        (rc = ps_roofline_sweep(8, 16, 512, threads, 100, 0, &c[2])) ||
        (ls && (rc = ps_roofline_sweep(rl_nz(l2 / 2, 2, 16, 512), 16, 512, threads, 100, 1,
                                       &c[3]))))
        return rc;
    fprintf(f, "\nroofline: cache-resident sweeps of the exact %s update (%s form, float32, %d loads\n"
               "and 1 store per cell, one step per sweep, %d threads, each its own block of\n"
               "%d arrays; %s; best of %d samples of >= 2 ms; L1d %zu KiB, L2 %zu KiB):\n",
            c[0].stencil, c[0].landsum ? "land-sum" : "NaN-masked", c[0].loads, c[0].threads,
            arrays, c[0].isa, c[0].samples, l1 >> 10, l2 >> 10);
    for (k = 0; k < (ls ? 4 : 3); k++) {
        if (k == 3)
            fprintf(f, "the NaN-masked form (%d loads, no counts; the generic skeleton's):\n",
                    c[3].loads);
        fprintf(f, "  %-15s %3zux%3zux%4zu (%d x %7.1f KiB): %6.2f Gcell/s (mean %.2f)\n",
                what[k], c[k].nz, c[k].ny, c[k].nx, k == 3 ? 2 : arrays,
                (double)(c[k].nz * c[k].ny * c[k].nx * sizeof(float)) / 1024.0, c[k].best_gcells,
                c[k].mean_gcells);
    }
    fprintf(f, "\n%-34s %-14s %8s %8s %8s %8s %8s %8s\n", "method (CPU rows)", "grid", "Gcell/s",
            "%L1", "%L2", "%8x16", "%copy", "%DRAM");
    for (i = 0; i < n; i++) {
        const ps_bench_row *r = &rows[i];
        char grid[48], p[3][16];
        double g = r->cells_per_s / 1e9;
        if (strcmp(r->device_type, "cpu"))
            continue;
        snprintf(grid, sizeof grid, "%ldx%ldx%ld", r->nz, r->ny, r->nx);
        for (k = 0; k < 3; k++) {
            if (strcmp(r->precision, "float32"))
                snprintf(p[k], sizeof p[k], "n/a");
            else
                snprintf(p[k], sizeof p[k], "%.0f%%", 100.0 * g / c[k].best_gcells);
        }
        fprintf(f, "%-34s %-14s %8.3f %8s %8s %8s %7.0f%% %7.0f%%\n", r->method, grid, g, p[0],
                p[1], p[2], 100.0 * r->bound_fraction, 100.0 * r->dram_fraction);
    }
    fprintf(f, "(%%copy, %%DRAM: compulsory traffic, 2 arrays per step, against the copy bounds "
               "above; a kernel that fuses steps can exceed 100%%)\n");
    return PS_OK;
}
