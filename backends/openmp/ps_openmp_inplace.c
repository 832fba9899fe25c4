/*
 * The openmp backend's adopted field (ps_backend_ops.adopt): the caller's
 * buffer is one of the context's two working fields, so the field is held
 * once. In the zero-land form (ps_openmp_zeroland.c: the land-sum sweeps)
 * the working fields hold land as +0.0:
 * a whole download into the adopted buffer makes it cur and puts land's NaN
 * back in place (restore), and the next step first takes that land to +0.0
 * again (zero). Each pass reads the land flags and writes only land cells,
 * where the copy of a download reads and writes every cell. Land is told
 * from the count byte (PS_OMP_ZL_LAND; the NaN is nan_bits, or the odd
 * list's).
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <stdint.h>
#include <string.h>

#define IP_FUNCS(T, U, SFX)                                                              \
    /* cells [p0, p1) of v: land's NaN (restore) or +0.0 */                                \
    static void ip_land##SFX(const omp_ctx *c, T *v, size_t p0, size_t p1, int restore)  \
    {                                                                                    \
        const unsigned char *cnt = c->cnt;                                               \
        const U u = (U)c->nan_bits;                                                      \
        T x = (T)0;                                                                      \
        size_t p;                                                                        \
        if (restore)                                                                     \
            memcpy(&x, &u, sizeof x);                                                    \
        for (p = p0; p < p1; p++)                                                        \
            if (cnt[p] & PS_OMP_ZL_LAND)                                                 \
                v[p] = x;                                                                \
    }
IP_FUNCS(float, uint32_t, _f32)
IP_FUNCS(double, uint64_t, _f64)
#undef IP_FUNCS

/* every land cell of cur: its NaN (restore) or +0.0; rows in parallel */
static void ip_land(omp_ctx *c, int restore)
{
    const size_t rows = c->g.nz * c->g.ny, nx = c->g.nx;
    long t;
    size_t q;
    if (!c->zl)
        return;
#pragma omp parallel for num_threads(c->threads) schedule(static)
    for (t = 0; t < (long)rows; t++) {
        if (c->es == sizeof(float))
            ip_land_f32(c, c->cur, (size_t)t * nx, (size_t)(t + 1) * nx, restore);
        else
            ip_land_f64(c, c->cur, (size_t)t * nx, (size_t)(t + 1) * nx, restore);
    }
    /* zero-land: the land cells whose NaN is not nan_bits */
    for (q = 0; restore && c->zl && q < c->nodd; q++) {
        if (c->es == sizeof(float)) {
            const uint32_t u = (uint32_t)c->odd[q].bits;
            memcpy((float *)c->cur + c->odd[q].cell, &u, sizeof u);
        } else
            memcpy((double *)c->cur + c->odd[q].cell, &c->odd[q].bits, sizeof(uint64_t));
    }
}

void ps_omp_inplace_restore(omp_ctx *c)
{
    ip_land(c, 1);
}

void ps_omp_inplace_zero(omp_ctx *c)
{
    ip_land(c, 0);
}
