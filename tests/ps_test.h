/*
 * The C tests' shared header: failure counting, skips, synthetic fields and
 * coordinates, and stencil parameters for any registered stencil. Header-only
 * (static functions), included by each area's test_*.c after pstencil.h.
 */
#ifndef PS_TEST_H
#define PS_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps_currents.h"
#include "ps_backend.h"
#include "ps_field.h"
#include "ps_status.h"
#include "ps_stencil.h"

/** Exit status of a test that cannot run here (automake's SKIP). */
#define PS_TEST_SKIP 77

static int ps_test_failures __attribute__((unused)), ps_test_checks __attribute__((unused));

/** Record a failure with a printf-style message. */
#define FAILF(...)                                                                      \
    do {                                                                                \
        printf("FAIL: " __VA_ARGS__);                                                   \
        printf("\n");                                                                   \
        ps_test_failures++;                                                             \
    } while (0)

/** Count a check; on failure print the message and count it. */
#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        ps_test_checks++;                                                               \
        if (!(cond))                                                                    \
            FAILF(__VA_ARGS__);                                                         \
    } while (0)

/** Count a check whose message is the condition itself (and the error detail). */
#define EXPECT(cond)                                                                    \
    CHECK(cond, "%s:%d: %s (%s)", __FILE__, __LINE__, #cond, ps_error_detail())

/** Print the summary and return main()'s exit status. */
/* Nonzero when the exhaustive sweeps run (make check-full, PS_CHECK_FULL=1);
 * the quick suite (make check) samples them (tests/README.md). */
static inline int ps_test_full(void)
{
    const char *v = getenv("PS_CHECK_FULL");
    return v && strcmp(v, "1") == 0;
}

static inline int ps_test_finish(const char *name)
{
    printf("%s: %d check(s), %d failure(s)\n", name, ps_test_checks, ps_test_failures);
    return ps_test_failures ? 1 : 0;
}

/* a small deterministic generator (xorshift64*) */
static inline double ps_test_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/**
 * Fill @p f with an ocean-like test field: temperatures 2..28 with noise, a
 * land fraction @p land of NaN cells in blobs, a few isolated ocean cells
 * (all six neighbours land) and some NaN in the boundary layers.
 */
static inline void ps_test_fill(ps_field *f, uint64_t seed, double land)
{
    const ps_grid g = f->grid;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    size_t k, j, i;
    for (k = 0; k < g.nz; k++)
        for (j = 0; j < g.ny; j++)
            for (i = 0; i < g.nx; i++) {
                size_t p = ps_index(&g, k, j, i);
                double v = 28.0 - 0.5 * (double)k - 0.1 * (double)j + 3.0 * ps_test_rand(&s);
                double blob = sin(0.7 * (double)i + 0.3 * (double)k) * cos(0.5 * (double)j);
                if (blob > 1.0 - 2.0 * land || ps_test_rand(&s) < 0.05 * land)
                    v = NAN;
                if (f->precision == PS_FLOAT64)
                    ((double *)f->data)[p] = v;
                else
                    ((float *)f->data)[p] = (float)v;
            }
    /* an isolated ocean cell: land all around */
    if (g.nz >= 5 && g.ny >= 5 && g.nx >= 5) {
        size_t c[3] = {g.nz / 2, g.ny / 2, g.nx / 2}, q;
        static const int nb[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                     {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
        for (q = 0; q < 6; q++) {
            size_t p = ps_index(&g, c[0] + nb[q][0], c[1] + nb[q][1], c[2] + nb[q][2]);
            if (f->precision == PS_FLOAT64)
                ((double *)f->data)[p] = NAN;
            else
                ((float *)f->data)[p] = NAN;
        }
        if (f->precision == PS_FLOAT64)
            ((double *)f->data)[ps_index(&g, c[0], c[1], c[2])] = 15.0;
        else
            ((float *)f->data)[ps_index(&g, c[0], c[1], c[2])] = 15.0f;
    }
}

/** Synthetic coordinates of a regional grid (freed with ps_test_coords_free). */
typedef struct ps_test_coords {
    double *depth, *lat, *lon;
} ps_test_coords;

/** As ps_test_coords_make, latitudes from @p lat0 (degrees) by 0.25. */
static inline int ps_test_coords_make_at(ps_test_coords *c, ps_grid g, double lat0)
{
    size_t q;
    c->depth = malloc((g.nz ? g.nz : 1) * sizeof(double));
    c->lat = malloc((g.ny ? g.ny : 1) * sizeof(double));
    c->lon = malloc((g.nx ? g.nx : 1) * sizeof(double));
    if (!c->depth || !c->lat || !c->lon)
        return PS_ENOMEM;
    for (q = 0; q < g.nz; q++)
        c->depth[q] = 5.0 + 10.0 * (double)(q * q); /* thicker with depth */
    for (q = 0; q < g.ny; q++)
        c->lat[q] = lat0 + 0.25 * (double)q;
    for (q = 0; q < g.nx; q++)
        c->lon[q] = -10.0 + 0.25 * (double)q;
    return PS_OK;
}

/** Depth 5 + 10 q^2 m, latitude 40 + 0.25 q, longitude -10 + 0.25 q degrees. */
static inline int ps_test_coords_make(ps_test_coords *c, ps_grid g)
{
    return ps_test_coords_make_at(c, g, 40.0);
}

static inline void ps_test_coords_free(ps_test_coords *c)
{
    free(c->depth);
    free(c->lat);
    free(c->lon);
}

/**
 * Parameters of stencil @p s on grid @p g with its default options and the
 * synthetic coordinates, latitudes from @p lat0, and for a stencil with inputs the
 * gyre's currents without land (free with ps_params_free).
 */
static inline int ps_test_params_at(const ps_stencil *s, ps_grid g, double lat0, ps_params *out)
{
    ps_test_coords c;
    ps_stencil_setup in;
    ps_stencil_report rep;
    double opts[64], *inbuf = NULL;
    const double *inputs[64];
    int st;
    if (s->noptions > 64 || s->ninputs > 64)
        return PS_EINVAL;
    if ((st = ps_test_coords_make_at(&c, g, lat0))) {
        ps_test_coords_free(&c);
        return st;
    }
    memset(&in, 0, sizeof in);
    in.grid = g;
    in.depth = c.depth;
    in.lat = c.lat;
    in.lon = c.lon;
    ps_stencil_default_options(s, opts);
    in.options = opts;
    /* currents: the gyre, no land (ps_currents.h) */
    st = s->ninputs ? ps_currents_inputs(s, g, NULL, c.depth, c.lat, c.lon, PS_GYRE_SPEED,
                                         &inbuf, inputs)
                    : PS_OK;
    if (!st && s->ninputs)
        in.inputs = inputs;
    if (!st)
        st = ps_stencil_prepare(s, &in, out, &rep);
    free(inbuf);
    ps_test_coords_free(&c);
    return st;
}

/** ps_test_params_at with the latitudes of ps_test_coords_make. */
static inline int ps_test_params(const ps_stencil *s, ps_grid g, ps_params *out)
{
    return ps_test_params_at(s, g, 40.0, out);
}

/**
 * Run @p steps steps of @p cfg on backend @p b in one context: upload @p in,
 * step, download into @p out (may be @p in). Returns the status.
 */
static inline int ps_test_run(ps_backend *b, const ps_config *cfg, const ps_field *in,
                              ps_field *out, long steps)
{
    ps_context *c = NULL;
    int st = ps_context_create(b, cfg, &c);
    if (!st)
        st = ps_context_upload(c, in->data, NULL);
    if (!st)
        st = ps_context_step(c, steps);
    if (!st)
        st = ps_context_download(c, out->data, NULL);
    ps_context_destroy(c);
    return st;
}

/** Bitwise equality of two fields of the same grid and precision. */
static inline int ps_test_same(const ps_field *a, const ps_field *b)
{
    return ps_field_cells(a) == ps_field_cells(b) && a->precision == b->precision &&
           !memcmp(a->data, b->data, ps_field_cells(a) * ps_precision_size(a->precision));
}

#endif /* PS_TEST_H */
