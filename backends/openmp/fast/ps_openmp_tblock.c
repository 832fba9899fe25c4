/*
 * The openmp backend's temporal blocking for diffusion7's fast path: several
 * steps of one step() call fused into one sweep over the field.
 */
#include "config.h"
#include "ps_openmp_internal.h"
#include "ps_status.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Temporal blocking (PSTENCIL_OPENMP_TBLOCK=T, T = 1..PS_TB_MAX; 0 = the
 * single-step path in ps_openmp.c). T steps of one step() call are fused into one
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
 * A slot's rows are nx rounded up to whole 64-byte lines apart, so each slot
 * row starts on a cache line: the AVX-512 rows, which align their centre
 * loads, then load every slot row and store every slot row without a split
 * line (the row kernels take the input's row pitch for rows j-1 and j+1).
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

/* One tile: output rows [j0, j1) of every interior plane, T steps A -> B.
 * The field's rows are nx cells apart; a slot's rows are spitch cells apart
 * (nx rounded up to whole 64-byte lines, see ps_omp_step_tblock). */
static void tb_tile(const omp_ctx *c, const char *A, char *B, size_t j0, size_t j1, int T,
                    char *scratch, size_t slot_rows, size_t spitch)
{
    const size_t nz = c->g.nz, ny = c->g.ny, nx = c->g.nx, es = c->es;
    const size_t rowb = nx * es, planeb = ny * rowb, srowb = spitch * es;
    const size_t slotb = slot_rows * srowb;
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
            size_t k, r0, r1, j, dlo, mlo, clo, plo, dpb, mpb, cpb, ppb;
            char *dp;
            const char *sm, *sc, *sp;
            if (kl < 1 || kl > (long)nz - 2)
                continue;
            k = (size_t)kl;
            r0 = lo[l] > 0 ? lo[l] : 1;
            r1 = hi[l] < ny - 1 ? hi[l] : ny - 1;
            /* row j of level L, plane K is P + (j - PLO)*PB: the field's
             * planes hold every row (PLO = 0, PB = rowb), a slot rows lo[L]..
             * (PB = srowb) */
#define TB_PLANE(L, K, P, PLO, PB)                                                      \
    do {                                                                                \
        if ((L) == 0 || (K) == 0 || (K) == nz - 1)                                      \
            (P) = A + (K) * planeb, (PLO) = 0, (PB) = rowb;                             \
        else if ((L) == T)                                                              \
            (P) = B + (K) * planeb, (PLO) = 0, (PB) = rowb;                             \
        else                                                                            \
            (P) = scratch + ((size_t)((L) - 1) * 3 + (K) % 3) * slotb, (PLO) = lo[L],   \
            (PB) = srowb;                                                               \
    } while (0)
            if (l == T)
                dp = B + k * planeb, dlo = 0, dpb = rowb;
            else
                dp = scratch + ((size_t)(l - 1) * 3 + k % 3) * slotb, dlo = lo[l], dpb = srowb;
            TB_PLANE(l - 1, k - 1, sm, mlo, mpb);
            TB_PLANE(l - 1, k, sc, clo, cpb);
            TB_PLANE(l - 1, k + 1, sp, plo, ppb);
#undef TB_PLANE
            if (l < T) {
                /* boundary rows of the slot, from A */
                const char *a = A + k * planeb;
                if (lo[l] == 0)
                    memcpy(dp, a, rowb);
                if (hi[l] == ny)
                    memcpy(dp + (ny - 1 - dlo) * dpb, a + (ny - 1) * rowb, rowb);
            }
            if (c->zl && r1 > r0 &&
                (es == sizeof(float) ? c->rowsz32 != NULL : c->rowsz64 != NULL)) {
                /* the plane's rows in one call (no per-row call overhead) */
                ps_omp_zl_rows rb;
                rb.dst = dp + (r0 - dlo) * dpb;
                rb.km = sm + (r0 - mlo) * mpb;
                rb.src = sc + (r0 - clo) * cpb;
                rb.kp = sp + (r0 - plo) * ppb;
                rb.cnt = c->cnt + (k * ny + r0) * nx;
                rb.dpitch = dpb / es;
                rb.mpitch = mpb / es;
                rb.cpitch = cpb / es;
                rb.ppitch = ppb / es;
                rb.npitch = nx;
                rb.nx = nx;
                rb.nrows = r1 - r0;
                rb.bcols = l < T;
                rb.nt = l == T && c->nt_out;
                if (es == sizeof(float))
                    c->rowsz32(&rb, (float)c->cfg.params.scalars[0]);
                else
                    c->rowsz64(&rb, c->cfg.params.scalars[0]);
                continue;
            }
            for (j = r0; j < r1; j++) {
                float *d32 = (float *)(dp + (j - dlo) * dpb);
                double *d64 = (double *)(dp + (j - dlo) * dpb);
                const char *rm = sm + (j - mlo) * mpb, *rc = sc + (j - clo) * cpb,
                           *rp = sp + (j - plo) * ppb;
                const size_t pitch = cpb / es; /* rows j-1, j+1 of the centre plane */
                if (c->zl) {
                    const unsigned char *rn = c->cnt + (k * ny + j) * nx;
                    if (es == sizeof(float))
                        c->rowz32(d32, (const float *)rm, (const float *)rc, (const float *)rp,
                                  rn, nx, pitch, (float)c->cfg.params.scalars[0]);
                    else
                        c->rowz64(d64, (const double *)rm, (const double *)rc,
                                  (const double *)rp, rn, nx, pitch, c->cfg.params.scalars[0]);
                } else if (es == sizeof(float))
                    c->rowp32(d32, (const float *)rm, (const float *)rc, (const float *)rp, nx,
                              pitch, (float)c->cfg.params.scalars[0]);
                else
                    c->rowp64(d64, (const double *)rm, (const double *)rc, (const double *)rp,
                              nx, pitch, c->cfg.params.scalars[0]);
                if (l < T) {
                    /* boundary columns i = 0, nx-1: the input row's, which
                     * are A's (boundary cells never change) and were just
                     * read by the row kernel (A itself is further away) */
                    const char *a = rc;
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
        ps_omp_pages_free(c->scratch[t], c->scratch_size);
        c->scratch[t] = NULL;
    }
    c->scratch_size = need;
    for (t = 0; t < c->threads; t++)
        if (!(c->scratch[t] = ps_omp_pages(need)))
            return -1;
    return 0;
}

int ps_omp_step_tblock(omp_ctx *c, long nsteps)
{
    const int T = c->tblock;
    size_t hmax, ntiles = tb_tiles(c, &hmax);
    size_t slot_rows = hmax + 2 * (size_t)(T - 1);
    /* slot rows start on a cache line: nx rounded up to whole 64-byte lines */
    size_t line = 64 / c->es, spitch = (c->g.nx + line - 1) / line * line;
    size_t need = (size_t)(T > 1 ? T - 1 : 1) * 3 * slot_rows * spitch * c->es;
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
            tb_tile(c, A, B, j0, j1, t, c->scratch[omp_get_thread_num()], slot_rows,
                    spitch);
        }
        tmp = c->cur;
        c->cur = c->next;
        c->next = tmp;
        done += t;
    }
    return PS_OK;
}
