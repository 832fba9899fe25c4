/*
 * The reductions of a field (core/ps_reduce.h): the cell volumes of hdiff's
 * metric against the formula written out here (and the same volumes for a
 * grid stored north-first or bottom-first); unusable coordinates refused
 * with the reason; a field reduced whole, in blocks at their global origins
 * merged in any order, on 1..8 threads and through integer packs (what the
 * ranks exchange) gives bitwise the same content, volume, mean, minimum and
 * maximum; the content is the correctly rounded sum of V * T; -0.0 is the
 * minimum below +0.0; a field without ocean gives NaN extremes.
 */
#include "pstencil.h"
#include "../ps_test.h"

static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_red(const ps_reduction *a, const ps_reduction *b)
{
    return same(a->content, b->content) && same(a->volume, b->volume) &&
           same(a->mean, b->mean) && same(a->min, b->min) && same(a->max, b->max) &&
           a->cells == b->cells;
}

static void print_red(const char *what, const ps_reduction *r)
{
    printf("  %s: content %a volume %a mean %a min %a max %a cells %lld\n", what, r->content,
           r->volume, r->mean, r->min, r->max, r->cells);
}

enum { NZ = 7, NY = 9, NX = 11 };

static void volumes(void)
{
    const double deg = 3.14159265358979323846 / 180.0, R = 6371000.0;
    double z[NZ] = {0.5, 1.5, 3.0, 10.0, 25.0, 60.0, 150.0};
    double lat[NY], lon[NX], zr[NZ], latr[NY], v[NZ * NY], vr[NZ * NY];
    ps_grid g = {NZ, NY, NX};
    char why[256];
    size_t k, j;
    for (j = 0; j < NY; j++)
        lat[j] = 40.0 + 0.25 * (double)j + (j == 4 ? 0.1 : 0.0);
    for (j = 0; j < NX; j++)
        lon[j] = 350.0 + 0.5 * (double)j;
    EXPECT(ps_cell_volumes(g, z, lat, lon, v, why, sizeof why) == PS_OK);
    /* the formula of docs/model.md, written out: level 3, row 4; row 0 and the bottom
     * level one-sided */
    {
        double w = (lat[5] - lat[3]) / 2.0 * deg, h = (z[4] - z[2]) / 2.0;
        double want = ((((R * R) * (0.5 * deg)) * cos(lat[4] * deg)) * w) * h;
        CHECK(same(v[3 * NY + 4], want), "V(3,4) = %.17g, the formula gives %.17g",
              v[3 * NY + 4], want);
        w = (lat[1] - lat[0]) * deg;
        h = z[NZ - 1] - z[NZ - 2];
        want = ((((R * R) * (0.5 * deg)) * cos(lat[0] * deg)) * w) * h;
        CHECK(same(v[(NZ - 1) * NY], want), "V(bottom, 0) = %.17g, the formula gives %.17g",
              v[(NZ - 1) * NY], want);
    }
    /* north-first and bottom-first storage: the same volumes, mirrored */
    for (k = 0; k < NZ; k++)
        zr[k] = z[NZ - 1 - k];
    for (j = 0; j < NY; j++)
        latr[j] = lat[NY - 1 - j];
    EXPECT(ps_cell_volumes(g, zr, latr, lon, vr, why, sizeof why) == PS_OK);
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            CHECK(same(vr[(NZ - 1 - k) * NY + NY - 1 - j], v[k * NY + j]),
                  "reversed storage: V(%zu,%zu) %.17g != %.17g", k, j,
                  vr[(NZ - 1 - k) * NY + NY - 1 - j], v[k * NY + j]);
    /* unusable coordinates: the reason */
    lon[5] += 0.01;
    CHECK(ps_cell_volumes(g, z, lat, lon, v, why, sizeof why) == PS_EINVAL &&
              strstr(why, "longitudes not uniform"), "irregular longitudes: %s", why);
    lon[5] -= 0.01;
    z[3] = z[2];
    CHECK(ps_cell_volumes(g, z, lat, lon, v, why, sizeof why) == PS_EINVAL &&
              strstr(why, "depths"), "repeated depth: %s", why);
    CHECK(ps_cell_volumes(g, NULL, lat, lon, v, why, sizeof why) == PS_EINVAL &&
              strstr(why, "no depth"), "no depth: %s", why);
}

static void reduce_whole(const ps_field *f, const double *vol, int threads, ps_reduction *out)
{
    static const size_t origin[3] = {0, 0, 0};
    ps_reduce_part p;
    ps_reduce_part_init(&p);
    EXPECT(ps_reduce_field(&p, f, origin, vol, f->grid.ny, threads) == PS_OK);
    ps_reduce_finish(&p, out);
}

/* the block [lo, hi) of f as a field of its own */
static void block_of(const ps_field *f, const size_t *lo, const size_t *hi, ps_field *b)
{
    size_t k, j, i, es = ps_precision_size(f->precision), c = 0;
    ps_grid g = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    EXPECT(ps_field_alloc(b, g, f->precision) == PS_OK);
    for (k = lo[0]; k < hi[0]; k++)
        for (j = lo[1]; j < hi[1]; j++)
            for (i = lo[2]; i < hi[2]; i++, c++)
                memcpy((char *)b->data + c * es,
                       (const char *)f->data + ps_index(&f->grid, k, j, i) * es, es);
}

static void splits(ps_precision prec, const double *vol)
{
    ps_grid g = {13, 17, 19};
    ps_field f;
    ps_reduction whole, r;
    uint64_t s = 7;
    int t, trial;
    EXPECT(ps_field_alloc(&f, g, prec) == PS_OK);
    ps_test_fill(&f, 3, 0.3);
    reduce_whole(&f, vol, 1, &whole);
    CHECK(whole.cells > 0 && isfinite(whole.content), "%s: no ocean reduced",
          ps_precision_name(prec));
    /* the content is the correctly rounded sum of the products V * T */
    {
        ps_xsum a;
        size_t c, n = ps_field_cells(&f);
        ps_xsum_init(&a);
        for (c = 0; c < n; c++) {
            double x = prec == PS_FLOAT64 ? ((double *)f.data)[c] : ((float *)f.data)[c];
            double v = vol ? vol[(c / (g.nx * g.ny)) * g.ny + c / g.nx % g.ny] : 1.0;
            if (x == x)
                ps_xsum_add(&a, v * x);
        }
        CHECK(same(ps_xsum_round(&a), whole.content), "%s: content %a, the sum of V*T %a",
              ps_precision_name(prec), whole.content, ps_xsum_round(&a));
    }
    for (t = 2; t <= 8; t++) {
        reduce_whole(&f, vol, t, &r);
        if (!same_red(&r, &whole)) {
            print_red("whole", &whole);
            print_red("threads", &r);
        }
        CHECK(same_red(&r, &whole), "%s: %d threads differ", ps_precision_name(prec), t);
    }
    /* blocks of random cuts along each axis, merged in reverse and packed */
    for (trial = 0; trial < 10; trial++) {
        size_t cut[3][4], a, nb[3], bk, bj, bi;
        ps_reduce_part total, ptot;
        long long sums[PS_REDUCE_SUM_WORDS], words[PS_REDUCE_SUM_WORDS];
        uint64_t maxes[PS_REDUCE_MAX_WORDS], mw[PS_REDUCE_MAX_WORDS];
        size_t dim[3] = {g.nz, g.ny, g.nx};
        int w;
        ps_reduce_part_init(&total);
        memset(sums, 0, sizeof sums);
        memset(maxes, 0, sizeof maxes);
        for (a = 0; a < 3; a++) {
            nb[a] = 1 + (size_t)(ps_test_rand(&s) * 3);
            cut[a][0] = 0;
            cut[a][nb[a]] = dim[a];
            if (nb[a] == 3) {
                cut[a][1] = 1 + (size_t)(ps_test_rand(&s) * (double)(dim[a] / 2));
                cut[a][2] = cut[a][1] + 1 + (size_t)(ps_test_rand(&s) * (double)(dim[a] / 2 - 1));
            } else if (nb[a] == 2) {
                cut[a][1] = 1 + (size_t)(ps_test_rand(&s) * (double)(dim[a] - 2));
            }
        }
        for (bk = nb[0]; bk-- > 0;)
            for (bj = nb[1]; bj-- > 0;)
                for (bi = nb[2]; bi-- > 0;) {
                    size_t lo[3] = {cut[0][bk], cut[1][bj], cut[2][bi]};
                    size_t hi[3] = {cut[0][bk + 1], cut[1][bj + 1], cut[2][bi + 1]};
                    ps_field b;
                    ps_reduce_part p;
                    block_of(&f, lo, hi, &b);
                    ps_reduce_part_init(&p);
                    EXPECT(ps_reduce_field(&p, &b, lo, vol, g.ny, 1 + (int)(bi % 3)) == PS_OK);
                    ps_reduce_merge(&total, &p);
                    ps_reduce_pack(&p, words, mw);
                    for (w = 0; w < PS_REDUCE_SUM_WORDS; w++)
                        sums[w] += words[w];
                    for (w = 0; w < PS_REDUCE_MAX_WORDS; w++)
                        maxes[w] = mw[w] > maxes[w] ? mw[w] : maxes[w];
                    ps_field_free(&b);
                }
        ps_reduce_finish(&total, &r);
        CHECK(same_red(&r, &whole), "%s: %zux%zux%zu blocks merged differ",
              ps_precision_name(prec), nb[0], nb[1], nb[2]);
        ps_reduce_unpack(&ptot, sums, maxes);
        ps_reduce_finish(&ptot, &r);
        CHECK(same_red(&r, &whole), "%s: %zux%zux%zu blocks packed differ",
              ps_precision_name(prec), nb[0], nb[1], nb[2]);
    }
    ps_field_free(&f);
}

static void extremes(void)
{
    ps_grid g = {1, 1, 4};
    ps_field f;
    ps_reduction r;
    double *v;
    EXPECT(ps_field_alloc(&f, g, PS_FLOAT64) == PS_OK);
    v = f.data;
    v[0] = 0.0, v[1] = -0.0, v[2] = NAN, v[3] = 0.0;
    reduce_whole(&f, NULL, 1, &r);
    CHECK(same(r.min, -0.0) && same(r.max, 0.0) && r.cells == 3,
          "signed zeros: min %g (sign %d), max %g (sign %d), %lld cells", r.min,
          signbit(r.min) != 0, r.max, signbit(r.max) != 0, r.cells);
    v[0] = -0.0, v[3] = -0.0;
    reduce_whole(&f, NULL, 1, &r);
    CHECK(same(r.max, -0.0) && same(r.content, -0.0), "all -0.0: max %g, content %g", r.max,
          r.content);
    v[0] = v[1] = v[2] = v[3] = NAN;
    reduce_whole(&f, NULL, 1, &r);
    CHECK(r.cells == 0 && isnan(r.min) && isnan(r.max) && isnan(r.mean) && r.content == 0,
          "no ocean: min %g max %g mean %g content %g", r.min, r.max, r.mean, r.content);
    v[0] = 1.0, v[1] = INFINITY;
    reduce_whole(&f, NULL, 1, &r);
    CHECK(r.content == INFINITY && r.max == INFINITY && r.min == 1.0,
          "an infinite cell: content %g max %g min %g", r.content, r.max, r.min);
    ps_field_free(&f);
}

/* a row's volume in pieces: v * 3 + v * 5 must be v * 8 exactly (the products'
 * rounding errors kept), whatever the split of the row */
static void row_pieces(void)
{
    const double v = 0x1.e4b060741c7a9p+0; /* 3v + 5v rounds away from 8v */
    ps_grid g = {1, 1, 8};
    ps_field f, a, b;
    ps_reduce_part p, q;
    ps_reduction whole, split;
    size_t c, lo[3] = {0, 0, 0}, mid[3] = {0, 0, 3}, hi[3] = {1, 1, 8};
    EXPECT(ps_field_alloc(&f, g, PS_FLOAT64) == PS_OK);
    for (c = 0; c < 8; c++)
        ((double *)f.data)[c] = 1.0;
    reduce_whole(&f, &v, 1, &whole);
    CHECK(same(whole.volume, 8 * v), "8 cells of volume v: %a, expected %a", whole.volume, 8 * v);
    block_of(&f, lo, (size_t[3]){1, 1, 3}, &a);
    block_of(&f, mid, hi, &b);
    ps_reduce_part_init(&p);
    ps_reduce_part_init(&q);
    EXPECT(ps_reduce_field(&p, &a, lo, &v, 1, 1) == PS_OK);
    EXPECT(ps_reduce_field(&q, &b, mid, &v, 1, 1) == PS_OK);
    ps_reduce_merge(&p, &q);
    ps_reduce_finish(&p, &split);
    CHECK(same_red(&split, &whole), "a row split 3 + 5: volume %a, whole %a", split.volume,
          whole.volume);
    ps_field_free(&a);
    ps_field_free(&b);
    ps_field_free(&f);
}

int main(void)
{
    double vol[13 * 17], lat[17], lon[19], z[13];
    char why[256];
    size_t q;
    volumes();
    for (q = 0; q < 13; q++)
        z[q] = 1.0 + (double)(q * q);
    for (q = 0; q < 17; q++)
        lat[q] = -20.0 + 2.5 * (double)q;
    for (q = 0; q < 19; q++)
        lon[q] = 100.0 + (double)q;
    EXPECT(ps_cell_volumes((ps_grid){13, 17, 19}, z, lat, lon, vol, why, sizeof why) == PS_OK);
    splits(PS_FLOAT32, vol);
    splits(PS_FLOAT64, vol);
    splits(PS_FLOAT32, NULL);
    extremes();
    row_pieces();
    return ps_test_finish("test_reduce");
}
