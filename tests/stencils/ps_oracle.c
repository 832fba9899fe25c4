/*
 * The tests' independent oracle (ps_oracle.h): docs/model.md's formulas as
 * plain loops. Nothing here includes kernels/ or calls the registry.
 */
#include "ps_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ORACLE_R 6371000.0                   /* Earth radius, m */
#define ORACLE_DEG (3.14159265358979323846 / 180.0) /* radians per degree */

#define AT(k, j, i) (((k) * ny + (j)) * nx + (i))

int ps_oracle_hdiff_coeffs(size_t nz, size_t ny, size_t nx, const double *depth,
                           const double *lat, const double *lon, double kh, double kv,
                           ps_oracle_hdiff *c)
{
    size_t k, j;
    double dlon, most = 0.0;
    memset(c, 0, sizeof *c);
    c->nz = nz;
    c->ny = ny;
    c->nx = nx;
    c->up = calloc(nz, sizeof(double));
    c->down = calloc(nz, sizeof(double));
    c->south = calloc(ny, sizeof(double));
    c->north = calloc(ny, sizeof(double));
    c->ew = calloc(ny, sizeof(double));
    if (!c->up || !c->down || !c->south || !c->north || !c->ew) {
        ps_oracle_hdiff_free(c);
        return -1;
    }
    /* dlon: the mean spacing of the (uniform) longitudes, in radians */
    dlon = fabs((lon[nx - 1] - lon[0]) / (double)(nx - 1)) * ORACLE_DEG;

    /* down: Kv / (d_{k+1/2} h_k); up: Kv / (d_{k-1/2} h_k) */
    for (k = 1; k + 1 < nz; k++) {
        double h = (depth[k + 1] - depth[k - 1]) / 2.0;
        double d_below = depth[k + 1] - depth[k];
        double d_above = depth[k] - depth[k - 1];
        c->down[k] = kv / (d_below * h);
        c->up[k] = kv / (d_above * h);
    }
    for (j = 1; j + 1 < ny; j++) {
        /* mid-points and differences in degrees, then radians */
        double lat_n = (lat[j] + lat[j + 1]) / 2.0 * ORACLE_DEG;
        double lat_s = (lat[j - 1] + lat[j]) / 2.0 * ORACLE_DEG;
        double g_n = (lat[j + 1] - lat[j]) * ORACLE_DEG;
        double g_s = (lat[j] - lat[j - 1]) * ORACLE_DEG;
        double w = (lat[j + 1] - lat[j - 1]) / 2.0 * ORACLE_DEG;
        double cosj = cos(lat[j] * ORACLE_DEG);
        double width = ORACLE_R * cosj * dlon; /* R cos(lat_j) dlon */
        /* east and west: Kh / (R cos(lat_j) dlon)^2 */
        c->ew[j] = kh / (width * width);
        /* north: Kh cos(lat_{j+1/2}) / (R^2 cos(lat_j) g_{j+1/2} w_j); south alike */
        c->north[j] = kh * cos(lat_n) / (ORACLE_R * ORACLE_R * cosj * g_n * w);
        c->south[j] = kh * cos(lat_s) / (ORACLE_R * ORACLE_R * cosj * g_s * w);
    }
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++) {
            double sum = c->up[k] + c->down[k] + c->south[j] + c->north[j] + c->ew[j] + c->ew[j];
            if (sum > most)
                most = sum;
        }
    c->limit = most > 0 ? 1.0 / most : HUGE_VAL;
    return 0;
}

void ps_oracle_hdiff_free(ps_oracle_hdiff *c)
{
    free(c->up);
    free(c->down);
    free(c->south);
    free(c->north);
    free(c->ew);
    memset(c, 0, sizeof *c);
}

/*
 * T' = T + dt * s, s = sum over the ocean faces, in the order k-1, k+1, j-1,
 * j+1, i-1, i+1, of c_f * (T_f - T), starting at +0.0; every operation in
 * REAL. Land, faces of the grid and cells with no ocean neighbour: unchanged.
 */
#define ORACLE_HDIFF_STEP(REAL)                                                        \
    size_t nz = c->nz, ny = c->ny, nx = c->nx, k, j, i, f;                             \
    REAL rdt = (REAL)dt;                                                               \
    memcpy(out, in, nz * ny * nx * sizeof(REAL));                                      \
    for (k = 1; k + 1 < nz; k++)                                                       \
        for (j = 1; j + 1 < ny; j++)                                                   \
            for (i = 1; i + 1 < nx; i++) {                                             \
                REAL t = in[AT(k, j, i)];                                              \
                REAL nb[6], cf[6], s = (REAL)0;                                        \
                int ocean = 0;                                                         \
                if (isnan(t))                                                          \
                    continue;                                                          \
                nb[0] = in[AT(k - 1, j, i)]; cf[0] = (REAL)c->up[k];                   \
                nb[1] = in[AT(k + 1, j, i)]; cf[1] = (REAL)c->down[k];                 \
                nb[2] = in[AT(k, j - 1, i)]; cf[2] = (REAL)c->south[j];                \
                nb[3] = in[AT(k, j + 1, i)]; cf[3] = (REAL)c->north[j];                \
                nb[4] = in[AT(k, j, i - 1)]; cf[4] = (REAL)c->ew[j];                   \
                nb[5] = in[AT(k, j, i + 1)]; cf[5] = (REAL)c->ew[j];                   \
                for (f = 0; f < 6; f++) {                                              \
                    REAL diff, flux;                                                   \
                    if (isnan(nb[f]))                                                  \
                        continue; /* land: no flux */                                  \
                    diff = nb[f] - t;                                                  \
                    flux = cf[f] * diff;                                               \
                    s = s + flux;                                                      \
                    ocean++;                                                           \
                }                                                                      \
                if (ocean > 0) {                                                       \
                    REAL change = rdt * s;                                             \
                    out[AT(k, j, i)] = t + change;                                     \
                }                                                                      \
            }

void ps_oracle_hdiff_step_f32(const float *in, float *out, const ps_oracle_hdiff *c, double dt)
{
    ORACLE_HDIFF_STEP(float)
}

void ps_oracle_hdiff_step_f64(const double *in, double *out, const ps_oracle_hdiff *c,
                              double dt)
{
    ORACLE_HDIFF_STEP(double)
}

/*
 * diffusion7: s = sum of the ocean neighbours (k-1, k+1, j-1, j+1, i-1, i+1,
 * from +0.0), n their count; T' = T + (D * (s - n*T)) / n, each operation
 * rounded in REAL in the order t1 = n*T, t2 = s - t1, t3 = D*t2, t4 = t3/n.
 */
#define ORACLE_D7_STEP(REAL)                                                           \
    size_t k, j, i, f;                                                                 \
    REAL rd = (REAL)d;                                                                 \
    memcpy(out, in, nz * ny * nx * sizeof(REAL));                                      \
    for (k = 1; k + 1 < nz; k++)                                                       \
        for (j = 1; j + 1 < ny; j++)                                                   \
            for (i = 1; i + 1 < nx; i++) {                                             \
                REAL t = in[AT(k, j, i)], s = (REAL)0, n = (REAL)0;                    \
                REAL nb[6], t1, t2, t3, t4;                                            \
                if (isnan(t))                                                          \
                    continue;                                                          \
                nb[0] = in[AT(k - 1, j, i)];                                           \
                nb[1] = in[AT(k + 1, j, i)];                                           \
                nb[2] = in[AT(k, j - 1, i)];                                           \
                nb[3] = in[AT(k, j + 1, i)];                                           \
                nb[4] = in[AT(k, j, i - 1)];                                           \
                nb[5] = in[AT(k, j, i + 1)];                                           \
                for (f = 0; f < 6; f++)                                                \
                    if (!isnan(nb[f])) {                                               \
                        s = s + nb[f];                                                 \
                        n = n + (REAL)1;                                               \
                    }                                                                  \
                if (n == (REAL)0)                                                      \
                    continue;                                                          \
                t1 = n * t;                                                            \
                t2 = s - t1;                                                           \
                t3 = rd * t2;                                                          \
                t4 = t3 / n;                                                           \
                out[AT(k, j, i)] = t + t4;                                             \
            }

void ps_oracle_d7_step_f32(const float *in, float *out, size_t nz, size_t ny, size_t nx,
                           double d)
{
    ORACLE_D7_STEP(float)
}

void ps_oracle_d7_step_f64(const double *in, double *out, size_t nz, size_t ny, size_t nx,
                           double d)
{
    ORACLE_D7_STEP(double)
}

double ps_oracle_heat(const void *field, int single, size_t nz, size_t ny, size_t nx,
                      const double *depth, const double *lat, double *abs_sum)
{
    double sum = 0.0, comp = 0.0, asum = 0.0;
    size_t k, j, i;
    for (k = 1; k + 1 < nz; k++) {
        double h = (depth[k + 1] - depth[k - 1]) / 2.0;
        for (j = 1; j + 1 < ny; j++) {
            double w = (lat[j + 1] - lat[j - 1]) / 2.0 * ORACLE_DEG;
            double weight = cos(lat[j] * ORACLE_DEG) * fabs(w) * fabs(h);
            for (i = 1; i + 1 < nx; i++) {
                double t = single ? (double)((const float *)field)[AT(k, j, i)]
                                  : ((const double *)field)[AT(k, j, i)];
                double term, y, z;
                if (isnan(t))
                    continue;
                term = weight * t;
                /* Kahan: the sum's own rounding stays far below the step's */
                y = term - comp;
                z = sum + y;
                comp = (z - sum) - y;
                sum = z;
                asum += fabs(term);
            }
        }
    }
    if (abs_sum)
        *abs_sum = asum;
    return sum;
}

/* ---- tracer (docs/model.md), written for a grid stored the usual way ---- */

void ps_oracle_tracer_free(ps_oracle_tracer *c)
{
    ps_oracle_hdiff_free(&c->h);
    free(c->re);
    memset(c, 0, sizeof *c);
}

int ps_oracle_tracer_rates(size_t nz, size_t ny, size_t nx, const double *depth,
                           const double *lat, const double *lon, double kh, double kv,
                           const double *u, const double *v, const double *w,
                           ps_oracle_tracer *c)
{
    const size_t n = nz * ny * nx;
    size_t k, j, i;
    double dlon, most = 0.0;
    memset(c, 0, sizeof *c);
    if (ps_oracle_hdiff_coeffs(nz, ny, nx, depth, lat, lon, kh, kv, &c->h))
        return -1;
    c->re = calloc(6 * n + 1, sizeof(double));
    if (!c->re) {
        ps_oracle_tracer_free(c);
        return -1;
    }
    c->rw = c->re + n;
    c->rn = c->rw + n;
    c->rs = c->rn + n;
    c->rt = c->rs + n;
    c->rb = c->rt + n;
    dlon = fabs(lon[nx - 1] - lon[0]) / (double)(nx - 1) * ORACLE_DEG;
#define OCEAN(q) (!isnan(u[q]) && !isnan(v[q]) && (!w || !isnan(w[q])))
    /* horizontal: face velocity = mean of two ocean cells, 0 at land; the rate
     * divides it (north/south: times cos of the face's latitude) by the metric */
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++) {
            double cosj = cos(lat[j] * ORACLE_DEG);
            double wj = fabs(lat[j + 1] - lat[j - 1]) / 2.0 * ORACLE_DEG;
            double cos_n = cos((lat[j] + lat[j + 1]) / 2.0 * ORACLE_DEG);
            double cos_s = cos((lat[j - 1] + lat[j]) / 2.0 * ORACLE_DEG);
            double mx = ORACLE_R * cosj * dlon, my = ORACLE_R * cosj * wj;
            for (i = 1; i + 1 < nx; i++) {
                size_t q = AT(k, j, i);
                double ue, uw, vn, vs;
                if (!OCEAN(q))
                    continue;
                ue = OCEAN(q + 1) ? (u[q] + u[q + 1]) / 2.0 : 0.0;
                uw = OCEAN(q - 1) ? (u[q - 1] + u[q]) / 2.0 : 0.0;
                vn = OCEAN(q + nx) ? (v[q] + v[q + nx]) / 2.0 : 0.0;
                vs = OCEAN(q - nx) ? (v[q - nx] + v[q]) / 2.0 : 0.0;
                c->re[q] = ue / mx;
                c->rw[q] = uw / mx;
                c->rn[q] = cos_n * vn / my;
                c->rs[q] = cos_s * vs / my;
            }
        }
    /* vertical: w up; from the deepest updated level upward, w_b = 0 above
     * the bottom layer and at land, w_t = w_b - h divH (0 if k-1 is land) */
    for (j = 1; j + 1 < ny; j++)
        for (i = 1; i + 1 < nx; i++) {
            double wb = 0.0;
            for (k = nz - 2; k >= 1; k--) {
                size_t q = AT(k, j, i), above = AT(k - 1, j, i), below = AT(k + 1, j, i);
                double h = fabs(depth[k + 1] - depth[k - 1]) / 2.0, wt;
                if (!OCEAN(q)) {
                    wb = 0.0;
                    continue;
                }
                if (w) {
                    wt = OCEAN(above) ? (w[above] + w[q]) / 2.0 : 0.0;
                    wb = OCEAN(below) ? (w[q] + w[below]) / 2.0 : 0.0;
                } else {
                    double divh = (c->re[q] - c->rw[q]) + (c->rn[q] - c->rs[q]);
                    if (!OCEAN(below))
                        wb = 0.0;
                    wt = OCEAN(above) ? wb - h * divh : 0.0;
                }
                c->rt[q] = wt / h;
                c->rb[q] = wb / h;
                wb = wt;
            }
        }
    /* stability: dt (outgoing rates + the six diffusion coefficients) <= 1 */
    for (k = 1; k + 1 < nz; k++)
        for (j = 1; j + 1 < ny; j++)
            for (i = 1; i + 1 < nx; i++) {
                size_t q = AT(k, j, i);
                double sum;
                if (!OCEAN(q))
                    continue;
                sum = c->h.up[k] + c->h.down[k] + c->h.south[j] + c->h.north[j] + c->h.ew[j] +
                      c->h.ew[j];
                sum += fmax(c->re[q], 0.0) + fmax(-c->rw[q], 0.0) + fmax(c->rn[q], 0.0) +
                       fmax(-c->rs[q], 0.0) + fmax(c->rt[q], 0.0) + fmax(-c->rb[q], 0.0);
                if (sum > most)
                    most = sum;
            }
#undef OCEAN
    c->limit = most > 0 ? 1.0 / most : HUGE_VAL;
    return 0;
}

/*
 * T' = T + dt * (s + a): s hdiff's diffusive sum, a the upwind advective sum
 * (top, bottom, south, north, west, east; a land face skipped):
 *   top    a -= r_t (r_t >= 0 ? T : T_{k-1})      bottom a += r_b (r_b >= 0 ? T_{k+1} : T)
 *   south  a += r_s (r_s >= 0 ? T_{j-1} : T)      north  a -= r_n (r_n >= 0 ? T : T_{j+1})
 *   west   a += r_w (r_w >= 0 ? T_{i-1} : T)      east   a -= r_e (r_e >= 0 ? T : T_{i+1})
 * every operation in REAL.
 */
#define ORACLE_TRACER_STEP(REAL)                                                       \
    const ps_oracle_hdiff *hc = &c->h;                                                 \
    size_t nz = hc->nz, ny = hc->ny, nx = hc->nx, k, j, i, f;                          \
    REAL rdt = (REAL)dt;                                                               \
    memcpy(out, in, nz * ny * nx * sizeof(REAL));                                      \
    for (k = 1; k + 1 < nz; k++)                                                       \
        for (j = 1; j + 1 < ny; j++)                                                   \
            for (i = 1; i + 1 < nx; i++) {                                             \
                size_t q = AT(k, j, i);                                                \
                REAL t = in[q], nb[6], cf[6], s = (REAL)0, a = (REAL)0, r, x;         \
                int ocean = 0;                                                         \
                if (isnan(t))                                                          \
                    continue;                                                          \
                nb[0] = in[AT(k - 1, j, i)]; cf[0] = (REAL)hc->up[k];                  \
                nb[1] = in[AT(k + 1, j, i)]; cf[1] = (REAL)hc->down[k];                \
                nb[2] = in[AT(k, j - 1, i)]; cf[2] = (REAL)hc->south[j];               \
                nb[3] = in[AT(k, j + 1, i)]; cf[3] = (REAL)hc->north[j];               \
                nb[4] = in[AT(k, j, i - 1)]; cf[4] = (REAL)hc->ew[j];                  \
                nb[5] = in[AT(k, j, i + 1)]; cf[5] = (REAL)hc->ew[j];                  \
                for (f = 0; f < 6; f++) {                                              \
                    if (isnan(nb[f]))                                                  \
                        continue;                                                      \
                    s = s + cf[f] * (nb[f] - t);                                       \
                    ocean++;                                                           \
                }                                                                      \
                if (!ocean)                                                            \
                    continue;                                                          \
                if (!isnan(nb[0])) {                                                   \
                    r = (REAL)c->rt[q]; x = r >= 0 ? t : nb[0]; a = a - r * x;        \
                }                                                                      \
                if (!isnan(nb[1])) {                                                   \
                    r = (REAL)c->rb[q]; x = r >= 0 ? nb[1] : t; a = a + r * x;        \
                }                                                                      \
                if (!isnan(nb[2])) {                                                   \
                    r = (REAL)c->rs[q]; x = r >= 0 ? nb[2] : t; a = a + r * x;        \
                }                                                                      \
                if (!isnan(nb[3])) {                                                   \
                    r = (REAL)c->rn[q]; x = r >= 0 ? t : nb[3]; a = a - r * x;        \
                }                                                                      \
                if (!isnan(nb[4])) {                                                   \
                    r = (REAL)c->rw[q]; x = r >= 0 ? nb[4] : t; a = a + r * x;        \
                }                                                                      \
                if (!isnan(nb[5])) {                                                   \
                    r = (REAL)c->re[q]; x = r >= 0 ? t : nb[5]; a = a - r * x;        \
                }                                                                      \
                s = s + a;                                                             \
                s = rdt * s;                                                           \
                out[q] = t + s;                                                        \
            }

void ps_oracle_tracer_step_f32(const float *in, float *out, const ps_oracle_tracer *c,
                               double dt)
{
    ORACLE_TRACER_STEP(float)
}

void ps_oracle_tracer_step_f64(const double *in, double *out, const ps_oracle_tracer *c,
                               double dt)
{
    ORACLE_TRACER_STEP(double)
}
