/*
 * The openmp backend: every stencil of kernels/ps_stencils.h through the
 * generic path (ps_openmp_generic.c: sweeps built from the stencil's
 * description, several steps fused per sweep), threads over tiles of j rows
 * with a static schedule, double buffering with a pointer swap, first-touch
 * allocation. It has no hand-written path of its own (ops.fast_paths is
 * empty): a stencil is fast here by its description alone.
 *
 * Files: ps_openmp.c (this: the ops table, contexts, upload/download),
 * ps_openmp_generic.c (the sweeps, compiled once per instruction set by
 * build rule), ps_openmp_zeroland.c (land as +0.0 with count bytes: the
 * land-sum form of the stencils that declare it), ps_openmp_tune.c
 * (instruction set and rules chosen at run time), ps_openmp_tunecache.c
 * (fused steps and tiles measured by `pstencil tune`), ps_openmp_inplace.c
 * (land's NaN in and out of an adopted host field).
 *
 * A context may adopt the caller's field (ps_backend_ops.adopt) as one of
 * its two buffers, so the run holds the field once: create touches neither
 * buffer (the first whole upload or adopt is their first touch, or the first
 * step where a land-sum upload leaves next's interior to it), adopt unmaps
 * cur and takes the caller's in its place.
 *
 * Boundary cells (the outer radius layers of the box) are never written by a
 * step: upload writes every uploaded cell into BOTH buffers (a land-sum
 * whole upload: the boundary cells only, see ps_omp_zl_fill_ls), so the two
 * buffers always agree on them and swapping the buffers is a copy of them
 * for free.
 *
 * Instruction sets: the generic path is compiled for the baseline target,
 * with -mavx2 and with AVX-512F/VL on 512-bit vectors (and, for fast mode
 * only, with -mfma and contraction on AVX2 and AVX-512), and the variant is
 * picked once per context with __builtin_cpu_supports, so one build uses
 * the CPU's best without -march=native; the knob openmp_isa caps it (tests
 * validate each).
 *
 * Steps of one step() call are fused into sweeps of up to 16 (openmp_tblock,
 * tiles of openmp_tj rows); the land-sum stencils keep land as +0.0 with a
 * per-cell count byte (openmp_zero_land). Every knob (core/ps_knobs.h) is
 * decided in ps_openmp_tune.c.
 */
#include "config.h"
#include "ps_builtin.h"
#include "ps_knobs_env.h"
#include "ps_openmp_internal.h"
#include "ps_plugin.h"
#include "ps_region.h"
#include "ps_status.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The two fields, the count bytes and the threads' scratch are pages of
 * their own (mmap), given back at destroy: the allocator's heap never holds
 * anything of a field's size, so a process that runs one job after another
 * (the Python package) has the same resident set after each, and the pages
 * of a buffer never touched (the one adopt replaces) are never resident.
 * NULL when the system has no room.
 */
void *ps_omp_pages(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void ps_omp_pages_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}


static int omp_probe(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    ps_knobs k; /* the environment's instruction set (a bad value: the rule's) */
    char bad[256];
    (void)why;
    (void)whylen;
    if (ps_omp_knobs_take(NULL, &k, bad, sizeof bad)) {
        ps_knobs none;
        memset(&none, 0, sizeof none);
        none.skip = PS_KNOBS_SKIP_ENV;
        ps_omp_knobs_take(&none, &k, bad, sizeof bad);
    }
    *ndevs = 0;
    if (max < 1)
        return PS_OK;
    memset(&devs[0], 0, sizeof devs[0]);
    ps_omp_cpu_model(devs[0].name, sizeof devs[0].name);
    snprintf(devs[0].type, sizeof devs[0].type, "cpu");
    snprintf(devs[0].detail, sizeof devs[0].detail,
             "OpenMP %d, %d threads (OMP_NUM_THREADS or --threads), row kernels: %s%s",
             _OPENMP, omp_get_max_threads(),
             ps_omp_use_avx512(&k) ? "avx512"
             : ps_omp_use_avx2(&k)  ? "avx2"
                                    : "baseline",
             ps_omp_use_avx512(&k) ? " (fast mode: avx512+fma)"
             : ps_omp_use_fma(&k)   ? " (fast mode: avx2+fma)"
                                    : "");
    devs[0].memory_bytes = (pages > 0 && psize > 0) ? (uint64_t)pages * (uint64_t)psize : 0;
    devs[0].compute_units = omp_get_max_threads();
    devs[0].caps = PS_CAP_FP64 | PS_CAP_EXACT_F32 | PS_CAP_EXACT_F64 | PS_CAP_FAST;
    *ndevs = 1;
    return PS_OK;
}

/*
 * Write @p src (whole box, or NULL for zeros) into both buffers, in parallel
 * with the step's schedule (first touch: the thread that will update a row
 * owns its pages), then the outermost layer. Row (k,j) of the box is read
 * from src + (k * spl + j * srp) elements (the dense box: spl = ny * nx,
 * srp = nx; a box of a larger host array: that array's pitches). Zero-land:
 * land with too many odd NaNs (ps_omp_zl_odd_end) is seen as the rows are
 * copied, and the context then takes NaN land and copies src again.
 * In place (src is cur, the adopted buffer): every thread reads src's rows
 * while the rows are written, so they go to next alone (zero-land: in full,
 * cur's land taken to +0.0 once the count bytes are complete).
 */
static void fill_both(omp_ctx *c, const void *src, size_t spl, size_t srp)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    const size_t rows = ps_omp_interior_rows(c), rowb = nx * es;
    const size_t rad = (size_t)c->cfg.stencil->radius;
    char *a = c->cur, *b = c->next;
    const char *s = src;
    const int inplace = s && s == a;
    ps_omp_zl_odd *odd = c->zl ? ps_omp_zl_odd_begin(c) : NULL;
    long r, q;
#pragma omp parallel num_threads(c->threads)
    {
        ps_omp_zl_odd *mine = ps_omp_zl_odd_of(odd, omp_get_thread_num());
        /* the two loops write disjoint rows and read only src: no barrier between */
#pragma omp for schedule(static) nowait
        for (r = 0; r < (long)rows; r++) {
            size_t k, j, off;
            const char *sr;
            ps_omp_row_of(c, (size_t)r, &k, &j);
            off = (k * ny + j) * rowb;
            sr = s ? s + (k * spl + j * srp) * es : NULL;
            if (s && c->zl && !inplace && k >= rad && k + rad < nz && j >= rad &&
                j + rad < ny) {
                /* a row the land-sum sweeps write (at least the radius from every
                 * face): a, the land flags and b's boundary cells in one pass,
                 * then the counts from the source's mask (read only: no race) */
                ps_omp_zl_fill_ls(c, a, b, sr, off / es, mine);
                ps_omp_zl_count_src(c, k, j, sr, spl, srp);
                continue;
            }
            if (s) {
                if (!inplace)
                    memcpy(a + off, sr, rowb);
                memcpy(b + off, sr, rowb);
            } else {
                memset(a + off, 0, rowb);
                memset(b + off, 0, rowb);
            }
            if (c->zl) { /* in place: the source is a, which other rows' counts read */
                ps_omp_zl_convert(c, inplace ? b : a, b, off / es, nx, mine);
                /* the counts from the source's mask (read only: no race; no
                 * source: all ocean) */
                ps_omp_zl_count_src(c, k, j, sr, spl, srp);
            }
        }
        /* the rest: planes k = 0, nz-1 and rows j = 0, ny-1 (all rows if no interior) */
#pragma omp for schedule(static)
        for (q = 0; q < (long)(nz * ny); q++) {
            size_t k = (size_t)q / ny, j = (size_t)q % ny, off = (size_t)q * rowb;
            if (rows && k > 0 && k < nz - 1 && j > 0 && j < ny - 1)
                continue;
            if (s) {
                const char *sr = s + (k * spl + j * srp) * es;
                if (!inplace)
                    memcpy(a + off, sr, rowb);
                memcpy(b + off, sr, rowb);
            } else {
                memset(a + off, 0, rowb);
                memset(b + off, 0, rowb);
            }
            if (c->zl)
                ps_omp_zl_convert(c, inplace ? b : a, b, off / es, nx, mine);
        }
    }
    if (c->zl && ps_omp_zl_odd_end(c, odd)) {
        ps_omp_zl_off(c);
        fill_both(c, src, spl, srp);
        return;
    }
    c->filled = 1;
    c->host_form = 0;
    if (inplace && c->zl) /* cur's land to +0.0, now that no row reads it */
        ps_omp_inplace_zero(c);
}

/*
 * Before the fields are stepped or take a region: the zeros of the first use
 * (create leaves them untouched, so a whole upload or adopt and the steps
 * are their first touch, with the step's schedule, and a context given a
 * host field never holds pages for a second copy), and the adopted buffer's
 * land back to +0.0 after a download into it.
 */
static void omp_ready(omp_ctx *c)
{
    if (!c->filled)
        fill_both(c, NULL, 0, 0);
    if (c->host_form)
        ps_omp_inplace_zero(c);
    c->host_form = 0;
}

static void omp_destroy(void *vc);

/*
 * The generic path of a context: the variant (openmp_isa avx512: 512-bit
 * vectors, avx512 in exact mode, fma512 in fast mode; else fast mode: the
 * fma one where the CPU has FMA, contraction allowed; exact mode: avx2 or
 * baseline, never contracted), the packed parameters, and the fused sweep's
 * steps and tiles: the openmp_tblock / openmp_tj rule from the cache sizes
 * (ps_omp_auto_tblock) unless the caller, the tuning cache (its key names the
 * stencil) or the variables chose them (@p tiling_src says which), with T cut
 * so that the halo rows a tile recomputes (2 (T-1) rj, rj the neighbours'
 * reach along j) stay at most its height; the last step's rows streamed
 * (openmp_nt_out, a field of PS_OMP_NT_OUT_MIN bytes or more) where the
 * variant can.
 */
static int omp_generic_create(omp_ctx *c, char *tiling_src, size_t srclen, char *why,
                              size_t whylen)
{
    const ps_config *cfg = &c->cfg;
    const char *name = cfg->stencil->name;
    size_t need, tj;
    int T, t;
#ifdef PS_HAVE_OMP_AVX512
    if (ps_omp_use_avx512(&c->knobs)) {
        c->gen = cfg->mode == PS_MODE_FAST ? ps_omp_generic_find_fma512(name)
                                           : ps_omp_generic_find_avx512(name);
        c->isa = cfg->mode == PS_MODE_FAST ? "avx512+fma" : "avx512";
    }
#endif
#ifdef PS_HAVE_OMP_AVX2
    if (!c->gen && cfg->mode == PS_MODE_FAST && ps_omp_use_fma(&c->knobs)) {
        c->gen = ps_omp_generic_find_fma(name);
        c->isa = "avx2+fma";
    }
    if (!c->gen && ps_omp_use_avx2(&c->knobs)) {
        c->gen = ps_omp_generic_find_avx2(name);
        c->isa = "avx2";
    }
#endif
    if (!c->gen) {
        c->gen = ps_omp_generic_find_base(name);
        c->isa = "baseline";
    }
    if (!c->gen) {
        snprintf(why, whylen, "stencil '%s' is not in this build's list", name);
        return PS_EUNSUPPORTED;
    }
    c->params = calloc(ps_params_packed_len(cfg) + 1, c->es);
    if (!c->params)
        goto nomem;
    ps_params_pack(cfg, c->params);
    /* zero-land fields (a count byte a cell) where the stencil declares the
     * land-sum form */
    if (c->gen->landsum && (cfg->stencil->flags & PS_STENCIL_LAND_SUM) &&
        ps_omp_auto_gen_land_sum(&c->knobs)) {
        c->cnt_bytes = c->g.nz * c->g.ny * c->g.nx;
        if (!(c->cnt = ps_omp_pages(c->cnt_bytes)))
            goto nomem;
        c->zl = 1;
    }
    ps_omp_tune_tiling(c, tiling_src, srclen);
    T = ps_omp_auto_tblock(&c->knobs, &c->g, c->es, c->threads);
    tj = c->knobs.openmp_tj.source != PS_KNOB_UNSET ? (size_t)c->knobs.openmp_tj.value : 0;
    if (T < 1)
        T = 1;
    c->gen_rk = ps_omp_gen_reach(cfg->stencil, 0);
    c->gen_rj = ps_omp_gen_reach(cfg->stencil, 1);
    if (tj) {
        /* at most a tile's worth of halo rows: the tile's height as the tiling
         * gives it (the rows shared out evenly, which a tuning stores), not the
         * height asked for, so a stored entry gives the same T again */
        size_t ntiles, rows, pitch;
        ps_omp_gen_tiling(&c->g, c->es, c->gen->radius, c->gen_rk, c->gen_rj, 1, tj,
                          c->threads, &ntiles, &rows, &pitch);
        while (T > 1 && 2 * (size_t)(T - 1) * (size_t)c->gen_rj > rows)
            T--;
    }
    c->tblock = T;
    c->tj = tj;
    /* streamed output rows where the variant has them (512-bit vectors) */
    c->nt_out = c->gen->nt &&
                ps_omp_auto_nt_out(&c->knobs, c->g.nz * c->g.ny * c->g.nx * c->es);
    need = ps_omp_gen_tiling(&c->g, c->es, c->gen->radius, c->gen_rk, c->gen_rj, T, tj,
                             c->threads, &c->gen_tiles, &c->gen_slot_rows, &c->gen_spitch);
    c->gen_tile_rows = c->gen_slot_rows - 2 * (size_t)(T - 1) * (size_t)c->gen_rj;
    c->scratch = calloc((size_t)c->threads, sizeof *c->scratch);
    if (!c->scratch)
        goto nomem;
    c->scratch_size = need;
    for (t = 0; t < c->threads; t++)
        if (!(c->scratch[t] = ps_omp_pages(need)))
            goto nomem;
    return PS_OK;
nomem:
    snprintf(why, whylen, "cannot allocate the generic sweep's parameters and scratch");
    return PS_ENOMEM;
}


static int omp_create(const ps_config *cfg, void **out, char *why, size_t whylen)
{
    omp_ctx *c = NULL;
    size_t bytes = 0;
    char tiling_src[4200] = "";
    int st;
    *out = NULL;
    if ((st = ps_plugin_check_config(cfg, why, whylen)))
        return st;
    if (cfg->device > 0) {
        snprintf(why, whylen, "device %d does not exist (the openmp backend has device 0)",
                 cfg->device);
        return PS_ENODEVICE;
    }
    if (cfg->threads < 0 || cfg->threads > PS_THREADS_MAX) {
        snprintf(why, whylen, "invalid thread count %d (0 for the default, or 1..%d)",
                 cfg->threads, PS_THREADS_MAX);
        return PS_EINVAL;
    }
    if (cfg->threads == 0) {
        /* the default team: OMP_NUM_THREADS's, or omp_set_num_threads()'s */
        if (ps_threads_env_check()) {
            snprintf(why, whylen, "%s", ps_error_detail());
            return PS_EINVAL;
        }
        if (omp_get_max_threads() > PS_THREADS_MAX) {
            snprintf(why, whylen, "the OpenMP default team has %d threads (at most %d)",
                     omp_get_max_threads(), PS_THREADS_MAX);
            return PS_EINVAL;
        }
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
    if ((st = ps_omp_knobs_take(&cfg->knobs, &c->knobs, why, whylen))) {
        omp_destroy(c);
        return st;
    }
    {
        size_t al = (bytes + 63) & ~(size_t)63;
        if (al < 64)
            al = 64;
        c->field_bytes = al;
        c->cur = ps_omp_pages(al);
        c->next = ps_omp_pages(al);
    }
    if (!c->cur || !c->next)
        goto nomem;
    st = omp_generic_create(c, tiling_src, sizeof tiling_src, why, whylen);
    if (st == PS_ENOMEM)
        goto nomem;
    if (st) {
        omp_destroy(c);
        return st;
    }
    ps_omp_describe_choices(c, tiling_src);
    /* the height its tiling gave (the rows shared out evenly), which a stored
     * entry then asks for again */
    if (c->tune_key[0])
        snprintf(c->tune_values, sizeof c->tune_values, "%d %zu", c->tblock,
                 c->gen_tile_rows);
    /* no first touch here: the first upload or adopt (or omp_ready's zeros) and the
     * first step are it */
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


/* Row (k,j) of a region's host block: @p host + k * pp + j * rp bytes. */
#define HOST_ROW(host, k, j, pp, rp) ((host) + (k) * (pp) + (j) * (rp))

/* Upload from a host block with pitches @p rp (row) and @p pp (plane) in bytes. */
static int omp_upload_pitched(void *vc, const void *host, size_t rp, size_t pp,
                              const ps_region *r)
{
    omp_ctx *c = vc;
    const char *h = host;
    const size_t ny = c->g.ny, nx = c->g.nx, es = c->es;
    size_t k, j;
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "upload: %s", ps_error_detail());
        return PS_ERANGE;
    }
    if (rp % es || pp % es || rp < (r ? r->count.nx : nx) * es ||
        pp < (r ? r->count.ny : ny) * rp) {
        snprintf(c->err, sizeof c->err, "upload: pitches %zu (row) and %zu (plane) bytes "
                 "do not hold the region's rows of %zu-byte cells", rp, pp, es);
        return PS_EINVAL;
    }
    if (c->adopted && host == c->adopted &&
        (!is_whole(&c->g, r) || rp != nx * es || pp != ny * nx * es)) {
        snprintf(c->err, sizeof c->err, "upload: the adopted field goes in whole, densely");
        return PS_EINVAL;
    }
    if (is_whole(&c->g, r)) {
        if (c->adopted && host == c->adopted && c->next == c->adopted) {
            /* in place: the adopted buffer becomes cur */
            c->next = c->cur;
            c->cur = c->adopted;
        }
        fill_both(c, host, pp / es, rp / es);
        return PS_OK;
    }
    omp_ready(c);
    /* a halo or sub-block: into both buffers, so the outermost layer agrees */
    if (c->zl && ps_omp_zl_region_check(c, host, rp, pp, r))
        ps_omp_zl_leave(c);
    for (k = 0; k < r->count.nz; k++)
        for (j = 0; j < r->count.ny; j++) {
            size_t off = (((r->start[0] + k) * ny + r->start[1] + j) * nx + r->start[2]) * es;
            memcpy((char *)c->cur + off, HOST_ROW(h, k, j, pp, rp), r->count.nx * es);
            memcpy((char *)c->next + off, HOST_ROW(h, k, j, pp, rp), r->count.nx * es);
        }
    if (c->zl)
        ps_omp_zl_region(c, r);
    return PS_OK;
}

static int omp_upload(void *vc, const void *host, const ps_region *r)
{
    omp_ctx *c = vc;
    ps_grid n = r ? r->count : c->g;
    return omp_upload_pitched(vc, host, n.nx * c->es, n.ny * n.nx * c->es, r);
}

/* Download into a host block with pitches @p rp (row) and @p pp (plane) in bytes. */
static int omp_download_pitched(void *vc, void *host, size_t rp, size_t pp,
                                const ps_region *r)
{
    omp_ctx *c = vc;
    ps_region whole = ps_region_whole(c->g);
    const ps_region *q = r ? r : &whole;
    const size_t ny = c->g.ny, nx = c->g.nx, cx = q->count.nx, cy = q->count.ny;
    const long rows = (long)(q->count.nz * cy);
    int zl;
    long t;
    if (ps_region_check(&c->g, r)) {
        snprintf(c->err, sizeof c->err, "download: %s", ps_error_detail());
        return PS_ERANGE;
    }
    if (rp % c->es || pp % c->es || rp < cx * c->es || pp < cy * rp) {
        snprintf(c->err, sizeof c->err, "download: pitches %zu (row) and %zu (plane) bytes "
                 "do not hold the region's rows of %zu-byte cells", rp, pp, c->es);
        return PS_EINVAL;
    }
    if (c->adopted && host == c->adopted &&
        (!is_whole(&c->g, r) || rp != nx * c->es || pp != ny * nx * c->es)) {
        snprintf(c->err, sizeof c->err, "download: the adopted field comes out whole, densely");
        return PS_EINVAL;
    }
    if (!c->filled)
        fill_both(c, NULL, 0, 0);
    zl = c->zl;
    if (c->adopted && host == c->adopted && c->cur == c->adopted) {
        /* the state is there already: land's NaN back in place */
        if (!c->host_form)
            ps_omp_inplace_restore(c);
        c->host_form = c->zl;
        return PS_OK;
    }
    /* row by row (zero-land: land cells with their NaN back, in one pass);
     * rows in parallel when there are enough cells to pay for the threads */
#pragma omp parallel for num_threads(c->threads) schedule(static) \
    if ((size_t)rows * cx >= 65536)
    for (t = 0; t < rows; t++) {
        size_t k = (size_t)t / cy, j = (size_t)t % cy;
        size_t b = ((q->start[0] + k) * ny + q->start[1] + j) * nx + q->start[2];
        char *h = HOST_ROW((char *)host, k, j, pp, rp);
        if (zl)
            ps_omp_zl_copy_out(c, h, b, cx);
        else
            memcpy(h, (const char *)c->cur + b * c->es, cx * c->es);
    }
    if (c->adopted && host == c->adopted) { /* the copy is the state: it becomes cur */
        c->next = c->cur;
        c->cur = c->adopted;
        c->host_form = c->zl;
    }
    return PS_OK;
}

/* ps_backend_ops.adopt: @p host replaces the buffer cur, then a whole upload in place */
static int omp_adopt(void *vc, void *host)
{
    omp_ctx *c = vc;
    if (c->adopted) {
        snprintf(c->err, sizeof c->err, "adopt: the context steps a host field already");
        return PS_EINVAL;
    }
    if (!host || (uintptr_t)host % c->es) {
        snprintf(c->err, sizeof c->err, "adopt: the host field must be aligned to its "
                 "%zu-byte cells", c->es);
        return PS_EINVAL;
    }
    munmap(c->cur, c->field_bytes);
    c->cur = c->adopted = host;
    fill_both(c, host, c->g.ny * c->g.nx, c->g.nx);
    return PS_OK;
}

static int omp_download(void *vc, void *host, const ps_region *r)
{
    omp_ctx *c = vc;
    ps_grid n = r ? r->count : c->g;
    return omp_download_pitched(vc, host, n.nx * c->es, n.ny * n.nx * c->es, r);
}

static int omp_step(void *vc, long nsteps)
{
    omp_ctx *c = vc;
    ps_omp_gen_sweep s;
    ps_omp_generic_fn f;
    long done;
    if (nsteps <= 0)
        return PS_OK;
    omp_ready(c);
    s = (ps_omp_gen_sweep){
        .cfg = &c->cfg, .threads = c->threads, .params = c->params, .cur = &c->cur,
        .next = &c->next, .nsteps = nsteps, .tblock = c->tblock, .rk = c->gen_rk,
        .rj = c->gen_rj, .tiles = c->gen_tiles, .slot_rows = c->gen_slot_rows,
        .spitch = c->gen_spitch, .scratch = c->scratch, .cnt = c->zl ? c->cnt : NULL,
        .nt = c->nt_out,
    };
    f = c->es == sizeof(float) ? c->gen->f32 : c->gen->f64;
    done = f(&s);
    if (done < nsteps) { /* an ocean cell turned NaN: from this sweep on, NaN land */
        ps_omp_zl_leave(c);
        s.cnt = NULL;
        s.nsteps = nsteps - done;
        f(&s);
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
            ps_omp_pages_free(c->scratch[t], c->scratch_size);
        free(c->scratch);
    }
    if (c->cur && c->cur != c->adopted)
        munmap(c->cur, c->field_bytes);
    if (c->next && c->next != c->adopted)
        munmap(c->next, c->field_bytes);
    ps_omp_pages_free(c->cnt, c->cnt_bytes);
    free(c->odd);
    free(c->params);
    free(c);
}

static const char *omp_last_error(void *vc)
{
    omp_ctx *c = vc;
    return c ? c->err : "";
}

static const char *omp_describe(void *vc, int what)
{
    omp_ctx *c = vc;
    if (what == PS_DESCRIBE_CHOICES)
        return c->choices;
    if (what == PS_DESCRIBE_TUNE_KEY)
        return c->tune_key;
    if (what == PS_DESCRIBE_TUNE_VALUES)
        return c->tune_values;
    return "";
}

static const ps_knobs *omp_knobs(void *vc)
{
    return &((omp_ctx *)vc)->knobs;
}

static const ps_backend_ops table = {
    .abi_version = PS_BACKEND_ABI_VERSION,
    .name = "openmp",
    .description = "OpenMP CPU backend: every stencil from its description, on vector rows "
                   "with fused steps",
    .priority = 100,
    /* concurrent: a context's state is its own (nothing static is written but the
     * tuning cache's warn-once flag, atomically) */
    .flags = PS_BACKEND_THREADS | PS_BACKEND_PITCHED | PS_BACKEND_CONCURRENT |
             PS_BACKEND_DESCRIBE | PS_BACKEND_KNOBS | PS_BACKEND_ADOPT,
    .fast_paths = NULL, /* none: every stencil by the generic path */
    .probe = omp_probe,
    .create = omp_create,
    .upload = omp_upload,
    .step = omp_step,
    .finish = omp_finish,
    .download = omp_download,
    .timing = NULL,
    .destroy = omp_destroy,
    .last_error = omp_last_error,
    .upload_pitched = omp_upload_pitched,
    .download_pitched = omp_download_pitched,
    .describe = omp_describe,
    .knobs = omp_knobs,
    .adopt = omp_adopt,
};

const ps_backend_ops *ps_openmp_ops(void)
{
    return &table;
}
