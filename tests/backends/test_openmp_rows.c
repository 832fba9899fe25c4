/*
 * The openmp backend's diffusion7 row kernels, one row at a time, bitwise
 * against the scalar cell update of kernels/diffusion7.h, for every
 * instruction-set table this build has and this CPU runs (base, avx2,
 * avx512 on 512-bit and on 256-bit vectors), float32 and float64:
 *  - the zero-land rows (zl_p) and the NaN-masked rows (exact_p);
 *  - every row length from 3 to 140 cells and some longer ones, every
 *    alignment of the row within a 64-byte line, several row pitches;
 *  - values with +0.0 and -0.0, subnormals, huge values, NaN land, and count
 *    bytes of land (PS_OMP_ZL_LAND), isolated cells (0) and 1..6 neighbours;
 *  - cells 0 and nx-1 and the memory around the row are never written;
 *  - no kernel reads outside its rows: each input row block sits against an
 *    inaccessible page (PROT_NONE), once ending at it and once starting at it;
 *  - the block functions (zl_rows: a plane's rows in one call, each array
 *    with its own pitch, with and without the boundary-column copy, stores
 *    plain or streamed) equal the same table's row function called row by
 *    row.
 * The field-level validation (pstencil validate) covers the same kernels
 * through the backend; this test reaches every row length and alignment,
 * which the vector kernels' head and tail code depend on.
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static long failures, checks;

/* A block of whole pages with an inaccessible page on each side. */
typedef struct guarded {
    unsigned char *base; /* the first guard page */
    unsigned char *data; /* first usable byte */
    size_t len, mapped;
} guarded;

static int guarded_alloc(guarded *g, size_t len)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    g->len = (len + pg - 1) / pg * pg;
    g->mapped = g->len + 2 * pg;
    g->base = mmap(NULL, g->mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->base == MAP_FAILED)
        return -1;
    g->data = g->base + pg;
    return mprotect(g->data, g->len, PROT_READ | PROT_WRITE);
}

static void guarded_free(guarded *g)
{
    munmap(g->base, g->mapped);
}

static unsigned rng = 12345u;
static unsigned next(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* a value: mostly ordinary, sometimes signed zero, subnormal or huge */
static double value(int zero_land)
{
    unsigned r = next() % 64;
    if (r == 0)
        return -0.0;
    if (r == 1)
        return 0.0;
    if (r == 2)
        return (next() & 1 ? 1 : -1) * 1.0e-40; /* subnormal in float32 */
    if (r == 3)
        return (next() & 1 ? 1 : -1) * 1.0e30;
    if (r < 12 && !zero_land)
        return NAN; /* land, in the NaN-masked rows */
    return ((double)(next() % 20000) - 5000.0) * 0.00173;
}

/* a count byte: land, an isolated cell (0) or 1..6 neighbours */
static unsigned char count(void)
{
    unsigned r = next() % 10;
    return (unsigned char)(r == 0 ? PS_OMP_ZL_LAND : r == 1 ? 0 : r % 6 + 1);
}

/*
 * One row of nx cells of each precision: rows j-1, j, j+1 of the centre
 * plane pitch cells apart, the planes k-1 and k+1 and the counts in their
 * own guarded blocks, placed at the end (at_end) or the start of the block.
 */
#define PS_ROWS_CASE(NAME, REAL, UPDATE, CELL)                                              \
    static void NAME(const char *isa, const char *what, void *fn, int zl, size_t nx,        \
                     size_t pitch, int at_end)                                             \
    {                                                                                       \
        const size_t es = sizeof(REAL), rows = 2 * pitch + nx;                              \
        guarded gs, gm, gp, gc, gd;                                                         \
        REAL *src, *km, *kp, *dst, *want;                                                   \
        unsigned char *cnt;                                                                 \
        const REAL d = (REAL)0.137;                                                         \
        size_t q, guard = 16;                                                               \
        if (guarded_alloc(&gs, rows * es) || guarded_alloc(&gm, nx * es) ||                 \
            guarded_alloc(&gp, nx * es) || guarded_alloc(&gc, nx) ||                        \
            guarded_alloc(&gd, (nx + 2 * guard) * es)) {                                    \
            printf("FAIL: cannot map guarded memory\n");                                   \
            exit(1);                                                                        \
        }                                                                                   \
        /* row j-1 starts the block, or row j+1 ends it */                                  \
        src = (REAL *)(at_end ? gs.data + gs.len - rows * es : gs.data) + pitch;            \
        km = (REAL *)(at_end ? gm.data + gm.len - nx * es : gm.data);                       \
        kp = (REAL *)(at_end ? gp.data + gp.len - nx * es : gp.data);                       \
        cnt = (unsigned char *)(at_end ? gc.data + gc.len - nx : gc.data);                  \
        dst = (REAL *)gd.data + guard;                                                      \
        want = malloc((nx + 2 * guard) * es);                                               \
        for (q = 0; q < rows; q++)                                                          \
            src[(long)q - (long)pitch] = (REAL)value(zl);                                   \
        for (q = 0; q < nx; q++) {                                                          \
            km[q] = (REAL)value(zl);                                                        \
            kp[q] = (REAL)value(zl);                                                        \
            cnt[q] = count();                                                               \
        }                                                                                   \
        for (q = 0; q < nx + 2 * guard; q++)                                                \
            want[q] = dst[(long)q - (long)guard] = (REAL)(-777.0 - (double)q);              \
        for (q = 1; q + 1 < nx; q++) {                                                      \
            REAL *w = want + guard;                                                         \
            if (zl) {                                                                       \
                REAL s = (REAL)0 + km[q], n;                                                \
                s = s + kp[q];                                                              \
                s = s + src[q - pitch];                                                     \
                s = s + src[q + pitch];                                                     \
                s = s + src[q - 1];                                                         \
                s = s + src[q + 1];                                                         \
                n = (REAL)(cnt[q] & PS_OMP_ZL_COUNT);                                       \
                w[q] = n > (REAL)0 ? UPDATE(src[q], s, n, d) : src[q];                      \
            } else                                                                          \
                w[q] = CELL(src[q], km[q], kp[q], src[q - pitch], src[q + pitch],           \
                            src[q - 1], src[q + 1], d);                                     \
        }                                                                                   \
        if (zl)                                                                             \
            ((void (*)(REAL *restrict, const REAL *restrict, const REAL *restrict,          \
                       const REAL *restrict, const unsigned char *restrict, size_t, size_t, \
                       REAL))fn)(dst, km, src, kp, cnt, nx, pitch, d);                      \
        else                                                                                \
            ((void (*)(REAL *restrict, const REAL *restrict, const REAL *restrict,          \
                       const REAL *restrict, size_t, size_t, REAL))fn)(dst, km, src, kp,    \
                                                                       nx, pitch, d);       \
        checks++;                                                                           \
        if (memcmp(want, dst - guard, (nx + 2 * guard) * es)) {                             \
            for (q = 0; q < nx + 2 * guard; q++)                                            \
                if (memcmp(&want[q], &dst[(long)q - (long)guard], es))                      \
                    break;                                                                  \
            if (++failures <= 20)                                                           \
                printf("FAIL: %s %s %s nx=%zu pitch=%zu %s: cell %ld is %.9g, want %.9g\n", \
                       isa, what, #REAL, nx, pitch, at_end ? "(block end)" : "(block start)", \
                       (long)q - (long)guard, (double)dst[(long)q - (long)guard],           \
                       (double)want[q]);                                                    \
        }                                                                                   \
        free(want);                                                                         \
        guarded_free(&gs);                                                                  \
        guarded_free(&gm);                                                                  \
        guarded_free(&gp);                                                                  \
        guarded_free(&gc);                                                                  \
        guarded_free(&gd);                                                                  \
    }

PS_ROWS_CASE(case_f32, float, ps_diffusion7_update_f32, ps_diffusion7_cell_f32)
PS_ROWS_CASE(case_f64, double, ps_diffusion7_update_f64, ps_diffusion7_cell_f64)

/*
 * A block of rows (zl_rows, ps_omp_zl_rows) against the same table's row
 * function called row by row: nrows rows of nx cells, each array with its own
 * pitch, with and without the boundary-column copy.
 */
#define PS_BLOCK_CASE(NAME, REAL, ROWFN, ROWSFN)                                            \
    static void NAME(const char *isa, ROWFN row, ROWSFN rows, size_t nx, size_t nrows,      \
                     int bcols, int nt)                                                     \
    {                                                                                       \
        const size_t dp = nx + 3, mp = nx + 5, cp = nx + 16, pp = nx, np = nx + 1;          \
        const size_t nsrc = (nrows + 2) * cp + 1, nd = nrows * dp;                          \
        REAL *km = malloc(nrows * mp * sizeof(REAL)), *kp = malloc(nrows * pp * sizeof(REAL)); \
        REAL *src = malloc(nsrc * sizeof(REAL));                                            \
        REAL *want = malloc(nd * sizeof(REAL)), *got = malloc(nd * sizeof(REAL));           \
        unsigned char *cnt = malloc(nrows * np);                                            \
        const REAL d = (REAL)0.21;                                                          \
        ps_omp_zl_rows rb;                                                                  \
        size_t q;                                                                           \
        for (q = 0; q < nrows * mp; q++)                                                    \
            km[q] = (REAL)value(1);                                                         \
        for (q = 0; q < nrows * pp; q++)                                                    \
            kp[q] = (REAL)value(1);                                                         \
        for (q = 0; q < nsrc; q++)                                                          \
            src[q] = (REAL)value(1);                                                        \
        for (q = 0; q < nrows * np; q++)                                                    \
            cnt[q] = count();                                                               \
        for (q = 0; q < nd; q++)                                                            \
            want[q] = got[q] = (REAL)(-555.0 - (double)q);                                  \
        for (q = 0; q < nrows; q++) {                                                       \
            REAL *w = want + q * dp, *s = src + (q + 1) * cp + 1;                           \
            row(w, km + q * mp, s, kp + q * pp, cnt + q * np, nx, cp, d);                   \
            if (bcols) {                                                                    \
                w[0] = s[0];                                                                \
                w[nx - 1] = s[nx - 1];                                                      \
            }                                                                               \
        }                                                                                   \
        rb.dst = got;                                                                       \
        rb.km = km;                                                                         \
        rb.src = src + cp + 1;                                                              \
        rb.kp = kp;                                                                         \
        rb.cnt = cnt;                                                                       \
        rb.nt = nt;                                                                         \
        rb.dpitch = dp;                                                                     \
        rb.mpitch = mp;                                                                     \
        rb.cpitch = cp;                                                                     \
        rb.ppitch = pp;                                                                     \
        rb.npitch = np;                                                                     \
        rb.nx = nx;                                                                         \
        rb.nrows = nrows;                                                                   \
        rb.bcols = bcols;                                                                   \
        rows(&rb, d);                                                                       \
        checks++;                                                                           \
        if (memcmp(want, got, nd * sizeof(REAL)) && ++failures <= 20)                       \
            printf("FAIL: %s zl_rows %s nx=%zu nrows=%zu bcols=%d stores %s differs from "     \
                   "row by row\n", isa, #REAL, nx, nrows, bcols, nt ? "streamed" : "plain"); \
        free(km);                                                                           \
        free(kp);                                                                           \
        free(src);                                                                          \
        free(cnt);                                                                          \
        free(want);                                                                         \
        free(got);                                                                          \
    }

PS_BLOCK_CASE(block_f32, float, rowz_f32_fn, rowsz_f32_fn)
PS_BLOCK_CASE(block_f64, double, rowz_f64_fn, rowsz_f64_fn)

static void table(const ps_omp_rows *t)
{
    static const size_t longer[] = {241, 257, 512, 964, 1031};
    size_t i, nx, extra;
    int at_end;
    for (i = 0; i < 140 - 3 + sizeof longer / sizeof longer[0]; i++) {
        nx = i < 137 ? i + 3 : longer[i - 137];
        /* pitches: the row itself, then odd and line-rounded gaps */
        for (extra = 0; extra < 18; extra += (nx > 140 ? 5 : 1))
            for (at_end = 0; at_end < 2; at_end++) {
                size_t pitch = nx + extra;
                if (t->zl_p32)
                    case_f32(t->isa, "zl_p", (void *)t->zl_p32, 1, nx, pitch, at_end);
                if (t->zl_p64)
                    case_f64(t->isa, "zl_p", (void *)t->zl_p64, 1, nx, pitch, at_end);
                if (t->exact_p32)
                    case_f32(t->isa, "exact_p", (void *)t->exact_p32, 0, nx, pitch, at_end);
                if (t->exact_p64)
                    case_f64(t->isa, "exact_p", (void *)t->exact_p64, 0, nx, pitch, at_end);
            }
        for (at_end = 0; at_end < 4; at_end++) { /* bcols x plain or streamed stores */
            if (t->zl_rows32)
                block_f32(t->isa, t->zl_p32, t->zl_rows32, nx, 1 + nx % 5, at_end & 1,
                          at_end >> 1);
            if (t->zl_rows64)
                block_f64(t->isa, t->zl_p64, t->zl_rows64, nx, 1 + nx % 5, at_end & 1,
                          at_end >> 1);
        }
    }
}

int main(void)
{
    /* the exact-mode tables (the fma table has only fast-mode rows in use) */
    table(&ps_omp_rows_base);
#if defined(PS_HAVE_OMP_AVX2) && defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        table(&ps_omp_rows_avx2);
    else
        printf("skipped avx2 rows: the CPU has no AVX2\n");
#endif
#if defined(PS_HAVE_OMP_AVX512) && defined(__GNUC__) && defined(__x86_64__)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) {
        table(&ps_omp_rows_avx512);
        table(&ps_omp_rows_avx512vl);
    } else
        printf("skipped avx512 rows: the CPU has no AVX-512F/VL\n");
#endif
    printf("%ld rows checked, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
