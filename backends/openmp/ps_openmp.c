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
 */
#include "config.h"
#include "ps_builtin.h"
#include "ps_region.h"
#include "ps_status.h"

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
    const char *isa;
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
 * Write @p src (whole box, or NULL for zeros) into both buffers, in parallel
 * with the step's schedule (first touch: the thread that will update a row
 * owns its pages), then the outermost layer.
 */
static void fill_both(omp_ctx *c, const void *src)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    const size_t rows = interior_rows(c), rowb = nx * es;
    char *a = c->cur, *b = c->next;
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

static int omp_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    omp_ctx *c = NULL;
    size_t bytes = 0;
    int st;
    *out = NULL;
    if (cfg->stencil && cfg->stencil->id != PS_STENCIL_DIFFUSION7) {
        snprintf(why, whylen, "stencil '%s' is not implemented", cfg->stencil->name);
        return PS_EUNSUPPORTED;
    }
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
    if (cfg->mode == PS_MODE_FAST) {
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
#ifdef PS_OMP_X86
        if (use_avx2()) {
            c->row32 = c->stream ? row_exact_nt_f32_avx2 : row_exact_f32_avx2;
            c->row64 = c->stream ? row_exact_nt_f64_avx2 : row_exact_f64_avx2;
            c->isa = "avx2";
        } else
#endif
        {
            c->row32 = c->stream ? row_exact_nt_f32_base : row_exact_f32_base;
            c->row64 = c->stream ? row_exact_nt_f64_base : row_exact_f64_base;
            c->isa = "baseline";
        }
    }
    fill_both(c, NULL); /* first touch with the step's schedule */
    *out = c;
    return PS_OK;
nomem:
    if (c) {
        free(c->cur);
        free(c->next);
        free(c);
    }
    snprintf(why, whylen, "cannot allocate 2 x %zu bytes", bytes);
    return PS_ENOMEM;
}

static int is_whole(const ps_grid *g, const ps_region *r)
{
    return !r || (r->start[0] == 0 && r->start[1] == 0 && r->start[2] == 0 &&
                  r->count.nz == g->nz && r->count.ny == g->ny && r->count.nx == g->nx);
}

static int omp_upload(void *vc, const void *host, const ps_region *r)
{
    omp_ctx *c = vc;
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "upload: %s", ps_error_detail());
        return PS_ERANGE;
    }
    if (is_whole(&c->g, r)) {
        fill_both(c, host);
        return PS_OK;
    }
    /* a halo or sub-block: into both buffers, so the outermost layer agrees */
    ps_region_scatter(c->cur, &c->g, host, r, c->es);
    ps_region_scatter(c->next, &c->g, host, r, c->es);
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
    return PS_OK;
}

static int omp_step(void *vc, long nsteps)
{
    omp_ctx *c = vc;
    const size_t rows = interior_rows(c);
    const size_t ny = c->g.ny, nx = c->g.nx, plane = ny * nx;
    if (nsteps <= 0 || rows == 0)
        return PS_OK;
#pragma omp parallel num_threads(c->threads)
    {
        char *src = c->cur, *dst = c->next, *tmp;
        long t, r;
        for (t = 0; t < nsteps; t++) {
            if (c->es == sizeof(float)) {
                const float d = (float)c->cfg.coeff;
#pragma omp for schedule(static) nowait
                for (r = 0; r < (long)rows; r++) {
                    size_t k, j, off;
                    row_of(c, (size_t)r, &k, &j);
                    off = k * plane + j * nx;
                    c->row32((float *)dst + off, (const float *)src + off, plane, nx, d);
                }
            } else {
                const double d = c->cfg.coeff;
#pragma omp for schedule(static) nowait
                for (r = 0; r < (long)rows; r++) {
                    size_t k, j, off;
                    row_of(c, (size_t)r, &k, &j);
                    off = k * plane + j * nx;
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
    free(c->cur);
    free(c->next);
    free(c);
}

static const char *omp_last_error(void *vc)
{
    omp_ctx *c = vc;
    return c ? c->err : "";
}

static const ps_backend_ops table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "openmp",
    .description = "OpenMP CPU backend: vectorised shared kernel, threads over (k,j) rows",
    .is_gpu = 0,
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
