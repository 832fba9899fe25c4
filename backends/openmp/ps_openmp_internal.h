/*
 * Internal to the openmp backend: the context and the functions the
 * backend's files share. Nothing here is public.
 */
#ifndef PS_OPENMP_INTERNAL_H
#define PS_OPENMP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ps_backend.h"
#include "ps_openmp_generic.h"

#define PS_TB_DEFAULT 4     /* steps fused by default (see ps_omp_auto_tblock) */
#define PS_TB_DEFAULT_AMD 8 /* the same on AMD CPUs */
#define PS_TB_TALL_AMD 12   /* on AMD CPUs where tiles can be tall */
#define PS_OMP_NT_OUT_MIN ((size_t)128 << 20) /* streamed output rows from here (ps_omp_auto_nt_out) */

/* a land cell whose NaN is not the context's nan_bits */
typedef struct ps_omp_zl_nan {
    size_t cell;   /* box cell (C order) */
    uint64_t bits; /* its NaN's bits (float: the low 32) */
} ps_omp_zl_nan;

typedef struct omp_ctx {
    ps_config cfg;
    ps_grid g;
    size_t es;     /* element size */
    void *cur;     /* field at the current step */
    void *next;    /* the other buffer */
    size_t field_bytes; /* each buffer's mapping (the one adopted excepted) */
    void *adopted; /* the caller's buffer, one of cur and next (ps_openmp_inplace.c); NULL: none */
    int host_form; /* the adopted buffer is cur and holds land's NaN (a download into it):
                      land goes back to +0.0 before it is stepped (omp_ready) */
    int filled;    /* the fields have contents: an upload, or the zeros of the first use */
    int threads;   /* team size */
    int tblock;    /* steps fused per sweep */
    size_t tj;     /* target j rows per tile (0: the rule's) */
    char **scratch;      /* per thread: rolling plane slots of the fused sweep (ps_omp_pages) */
    size_t scratch_size; /* bytes of each */
    int zl;              /* nonzero: zero-land fields (ps_openmp_zeroland.c): the
                          * sweeps in the land-sum form */
    unsigned char *cnt;  /* zero-land: per cell a count byte (PS_OMP_ZL_LAND, ..._COUNT) */
    size_t cnt_bytes;    /* its mapping (ps_omp_pages) */
    uint64_t nan_bits;   /* zero-land: the bits of land's NaN, but for the cells of odd */
    ps_omp_zl_nan *odd;  /* zero-land: land cells whose NaN has other bits, by cell */
    size_t nodd, odd_cap;
    int nt_out;           /* the sweep's output rows streamed (ps_omp_auto_nt_out) */
    const char *isa;
    char choices[768];         /* what describe() says: rows, tiling and its source */
    char tune_key[512];        /* the tuning cache's key ("": no fused sweep to tune) */
    char tune_values[48];      /* "tblock tj" as the cache stores them ("" likewise) */
    ps_knobs knobs;            /* the tuning knobs decided (ps_openmp_tune.c) */
    const ps_omp_generic *gen; /* the stencil's generic sweeps */
    void *params;              /* its packed parameters */
    size_t gen_tiles, gen_slot_rows, gen_spitch; /* its tiling (ps_omp_gen_tiling) */
    size_t gen_tile_rows; /* a tile's output rows (the slot's less its halo rows) */
    int gen_rk, gen_rj;                          /* its reach (ps_omp_gen_reach) */
    char err[512];
} omp_ctx;

/* Interior rows j-major (j outer, k inner): a static schedule over them gives
 * each thread a band of j, as the sweep's tiles do (first touch). */
static inline void ps_omp_row_of(const omp_ctx *c, size_t r, size_t *k, size_t *j)
{
    const size_t nk = c->g.nz - 2;
    *k = 1 + r % nk;
    *j = 1 + r / nk;
}

static inline size_t ps_omp_interior_rows(const omp_ctx *c)
{
    if (c->g.nz < 3 || c->g.ny < 3 || c->g.nx < 3)
        return 0;
    return (c->g.nz - 2) * (c->g.ny - 2);
}

/* ps_openmp.c: pages of their own for a field-sized buffer (mmap: zeroed,
 * page-aligned, never in the allocator's heap); NULL when there is no room */
void *ps_omp_pages(size_t bytes);
void ps_omp_pages_free(void *p, size_t bytes);

/* ps_openmp_tune.c: the tuning knobs (core/ps_knobs.h), each decided there */
/* the caller's (@p asked, may be NULL) or the environment's knobs into @p k,
 * the instruction set decided; PS_EINVAL (reason in @p why) for a bad value */
int ps_omp_knobs_take(const ps_knobs *asked, ps_knobs *k, char *why, size_t whylen);
int ps_omp_use_avx2(const ps_knobs *k);
int ps_omp_use_fma(const ps_knobs *k);
int ps_omp_use_avx512(const ps_knobs *k);
void ps_omp_cpu_model(char *buf, size_t len);
/* each decides its knobs of @p k that nothing decided yet by its rule */
/* steps fused (openmp_tblock), and the tile rows into k->openmp_tj */
int ps_omp_auto_tblock(ps_knobs *k, const ps_grid *g, size_t es, int threads);
/* the fused sweep's output rows streamed, for a field of @p bytes */
int ps_omp_auto_nt_out(ps_knobs *k, size_t bytes);
/* the land-sum form for a stencil that declares it (knob
 * openmp_zero_land; no parameter condition: a NaN it writes is caught) */
int ps_omp_auto_gen_land_sum(ps_knobs *k);

/* ps_openmp_tunecache.c: the tuning cache (core/ps_tunecache.h) and describe() */
/* the cache key of a context (threads, grid, es, zl, isa and, for the generic
 * path, gen already chosen) */
void ps_omp_tune_key(const omp_ctx *c, char *buf, size_t len);
/* a fused sweep's tiling: c->tune_key, the cached tblock and tj where
 * ps_omp_tune_apply takes them, and in @p src where the tiling comes from
 * (option, variables, tune cache or rule) */
void ps_omp_tune_tiling(omp_ctx *c, char *src, size_t srclen);
/* the cached tblock and tj into c->knobs unless the caller set either or
 * skips the cache: 1 (and "tune cache PATH" in @p src) or 0 */
int ps_omp_tune_apply(omp_ctx *c, char *src, size_t srclen);
/* c->choices from the context's choices; @p src says where the tiling came from */
void ps_omp_describe_choices(omp_ctx *c, const char *src);

/* ps_openmp_zeroland.c: land as +0.0 with per-cell count bytes */
/* one thread's odd NaNs found by a whole upload (ps_omp_zl_odd_begin .. _end) */
typedef struct ps_omp_zl_odd ps_omp_zl_odd;
/* per thread lists for a whole upload (NULL: out of memory; _end then says so);
 * nan_bits set, the odd list emptied */
ps_omp_zl_odd *ps_omp_zl_odd_begin(omp_ctx *c);
ps_omp_zl_odd *ps_omp_zl_odd_of(ps_omp_zl_odd *lists, int thread);
/* the lists merged into the context's odd list and freed; nonzero if there are
 * too many odd NaNs (or no memory) for zero-land: the caller takes NaN land */
int ps_omp_zl_odd_end(omp_ctx *c, ps_omp_zl_odd *lists);
/* cells off..off+len-1 of a and b (holding the uploaded values; b may be a): NaN -> +0.0,
 * their count bytes LAND or 0, land's odd NaNs into @p odd */
void ps_omp_zl_convert(const omp_ctx *c, void *a, void *b, size_t off, size_t len,
                       ps_omp_zl_odd *odd);
/* an interior row (cell offset @p off) of a
 * whole upload from the source row @p srow into a (land as +0.0), the count
 * bytes' land flags (counts: then ps_omp_zl_count_src) and land's odd NaNs, in
 * one pass; of b only the radius's boundary cells at each end of the row (a
 * sweep writes b's other cells before it reads one) */
void ps_omp_zl_fill_ls(const omp_ctx *c, void *a, void *b, const void *srow, size_t off,
                       ps_omp_zl_odd *odd);
/* ocean cells i0..i1-1 of the row at cell @p off: their counts (the stencil's
 * neighbours) from the land flags */
void ps_omp_zl_count(const omp_ctx *c, size_t off, size_t i0, size_t i1);
/* a region upload from @p host (pitches in bytes): nonzero if it rules zero-land
 * out (too many odd NaNs, or no memory); else room for its odd NaNs is
 * reserved for ps_omp_zl_region */
int ps_omp_zl_region_check(omp_ctx *c, const void *host, size_t rp, size_t pp,
                           const ps_region *r);
/* a downloaded run (box offset @p box_off) of the current field, land with its NaN */
void ps_omp_zl_copy_out(const omp_ctx *c, void *host, size_t box_off, size_t len);
/* NaN land: ps_omp_zl_leave puts land's NaN into both fields first, ps_omp_zl_off
 * only frees (the caller rewrites the fields) */
void ps_omp_zl_leave(omp_ctx *c);
void ps_omp_zl_off(omp_ctx *c);
void ps_omp_zl_region(omp_ctx *c, const ps_region *r);
/* row (k, j)'s count bytes from the mask of its source row @p srow (NaN land;
 * neighbouring planes and rows @p spl and @p srp cells away; NULL: all ocean),
 * the stencil's neighbours; its land flags set already (ps_omp_zl_convert) */
void ps_omp_zl_count_src(const omp_ctx *c, size_t k, size_t j, const void *srow, size_t spl,
                         size_t srp);

/* ps_openmp_inplace.c: the adopted field (ps_backend_ops.adopt). In a land form
 * (zero-land, land-sum) cur's land cells take their NaN back (a whole download
 * into the adopted buffer, which is then cur) and +0.0 again (before the next
 * step, or after a whole upload in place); no land form: nothing to do. */
void ps_omp_inplace_restore(omp_ctx *c);
void ps_omp_inplace_zero(omp_ctx *c);

#endif
