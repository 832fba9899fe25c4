/* Cell-by-cell comparison of two fields (see ps_compare.h for definitions). */
#include "config.h"
#include "ps_compare.h"
#include "ps_status.h"

#include <math.h>
#include <string.h>

void ps_compare_init(ps_compare_stats *st, const ps_compare_tol *tol)
{
    memset(st, 0, sizeof *st);
    if (tol)
        st->tol = *tol;
    st->first_a = st->first_b = NAN;
    st->first_bits_a = st->first_bits_b = NAN;
    st->max_abs_a = st->max_abs_b = NAN;
}

/* Map a float's bits to an integer that orders like the value: non-negative
 * values keep their magnitude bits, negative ones are mirrored; -0 -> 0. */
static int64_t ordered_f32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if (u & UINT32_C(0x80000000))
        return -(int64_t)(u & UINT32_C(0x7fffffff));
    return (int64_t)u;
}

static void sign_mag_f64(double x, uint64_t *mag, int *neg)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    *neg = (u >> 63) != 0;
    *mag = u & UINT64_C(0x7fffffffffffffff);
}

uint64_t ps_ulp_distance_f32(float a, float b)
{
    int64_t x, y;
    if (isnan(a) || isnan(b))
        return UINT64_MAX;
    x = ordered_f32(a);
    y = ordered_f32(b);
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

uint64_t ps_ulp_distance_f64(double a, double b)
{
    uint64_t ma, mb;
    int na, nb;
    if (isnan(a) || isnan(b))
        return UINT64_MAX;
    /* magnitudes are < 2^63, so work on (sign, magnitude) without overflow */
    sign_mag_f64(a, &ma, &na);
    sign_mag_f64(b, &mb, &nb);
    if (na == nb)
        return ma > mb ? ma - mb : mb - ma;
    /* opposite signs: the distance is the sum of the magnitudes (saturating) */
    if (ma > UINT64_MAX - mb)
        return UINT64_MAX;
    return ma + mb;
}

static void set_loc(ps_compare_loc *l, size_t t, size_t c, const ps_grid *g)
{
    l->t = t;
    l->i = c % g->nx;
    l->j = (c / g->nx) % g->ny;
    l->k = c / (g->nx * g->ny);
}

/* Record the first cell whose bit patterns differ in any way. */
static void first_bits(ps_compare_stats *st, size_t c, const ps_grid *g, double va, double vb)
{
    if (st->have_first_bits)
        return;
    st->have_first_bits = 1;
    set_loc(&st->first_bits_at, st->time, c, g);
    st->first_bits_a = va;
    st->first_bits_b = vb;
}

/* Whether bit pattern @p bits of a cell of @p f is the poison of ps_field_poison(). */
static inline int poisoned(const ps_field *f, uint64_t bits)
{
    return f->precision == PS_FLOAT64 ? bits == PS_POISON_F64 : bits == PS_POISON_F32;
}

/* Fetch element c of a field as a double, its bit pattern for the bitwise
 * test, and its ulp-comparison value. */
static inline double get(const ps_field *f, size_t c, uint64_t *bits)
{
    if (f->precision == PS_FLOAT64) {
        double v = ((const double *)f->data)[c];
        memcpy(bits, &v, 8);
        return v;
    } else {
        float v = ((const float *)f->data)[c];
        uint32_t u;
        memcpy(&u, &v, 4);
        *bits = u;
        return (double)v;
    }
}

/* Compare cell @p c of @p a and @p b and add what it is to @p st. */
static void compare_cell(ps_compare_stats *st, const ps_field *a, const ps_field *b, size_t c,
                         int same, ps_precision up)
{
    uint64_t ba, bb, ulp;
    double va = get(a, c, &ba), vb = get(b, c, &bb);
    int na = isnan(va), nb = isnan(vb);
    double d, m, rel;
    st->cells++;
    if (nb && poisoned(b, bb) && !(na && same && ba == bb))
        st->unwritten++;
    if (na && nb) {
        st->both_nan++;
        if (same && ba != bb) {
            st->nan_bits_differ++;
            first_bits(st, c, &a->grid, va, vb);
        }
        return;
    }
    if (na || nb) {
        first_bits(st, c, &a->grid, va, vb);
        st->nan_mismatch++;
        if (na)
            st->nan_only_a++;
        if (!st->have_first_nan) {
            st->have_first_nan = 1;
            set_loc(&st->first_nan_at, st->time, c, &a->grid);
        }
        if (!st->have_first) {
            st->have_first = 1;
            set_loc(&st->first_at, st->time, c, &a->grid);
            st->first_a = va;
            st->first_b = vb;
        }
        return;
    }
    st->both_number++;
    if (same ? ba == bb : va == vb && signbit(va) == signbit(vb))
        return;
    st->bit_differ++;
    first_bits(st, c, &a->grid, va, vb);
    if (!st->have_first) {
        st->have_first = 1;
        set_loc(&st->first_at, st->time, c, &a->grid);
        st->first_a = va;
        st->first_b = vb;
    }
    if (va == vb)
        return; /* +0 vs -0: numerically equal */
    st->differ++;
    d = fabs(va - vb);
    m = fmax(fabs(va), fabs(vb));
    rel = m > 0 ? d / m : 0.0;
    if (up == PS_FLOAT64)
        ulp = ps_ulp_distance_f64(va, vb);
    else
        ulp = ps_ulp_distance_f32((float)va, (float)vb);
    if (d > st->max_abs || (isinf(d) && !isinf(st->max_abs))) {
        st->max_abs = d;
        st->max_abs_a = va;
        st->max_abs_b = vb;
        set_loc(&st->max_abs_at, st->time, c, &a->grid);
    }
    if (rel > st->max_rel) {
        st->max_rel = rel;
        set_loc(&st->max_rel_at, st->time, c, &a->grid);
    }
    if (ulp > st->max_ulp) {
        st->max_ulp = ulp;
        set_loc(&st->max_ulp_at, st->time, c, &a->grid);
    }
    if (!(d <= st->tol.abs) && !(st->tol.rel > 0 && d <= st->tol.rel * m) &&
        !(st->tol.ulps > 0 && ulp <= st->tol.ulps))
        st->exceed++;
}

int ps_compare_fields(const ps_field *a, const ps_field *b, ps_compare_stats *st)
{
    size_t n, c;
    int same = 0;
    ps_precision up;
    if (!a || !b || !st || !a->data || !b->data)
        return ps_error(PS_EINVAL, "compare: NULL field");
    if (a->grid.nz != b->grid.nz || a->grid.ny != b->grid.ny || a->grid.nx != b->grid.nx)
        return ps_error(PS_EDIM, "compare: grids differ (%zux%zux%zu vs %zux%zux%zu)",
                        a->grid.nz, a->grid.ny, a->grid.nx, b->grid.nz, b->grid.ny,
                        b->grid.nx);
    n = ps_field_cells(a);
    same = a->precision == b->precision;
    up = (same && a->precision == PS_FLOAT64) ? PS_FLOAT64 : PS_FLOAT32;
    st->ulp_precision = up;
    if (same && a->precision == PS_FLOAT32) {
        /* most cells are bitwise equal: classify those from their bits alone */
        const char *pa = a->data, *pb = b->data;
        uint64_t equal = 0, nan = 0;
        for (c = 0; c < n; c++) {
            uint32_t x, y;
            memcpy(&x, pa + 4 * c, 4); /* bits of a float, without aliasing it */
            memcpy(&y, pb + 4 * c, 4);
            if (x != y) {
                compare_cell(st, a, b, c, same, up);
                continue;
            }
            equal++;
            nan += (x & UINT32_C(0x7fffffff)) > UINT32_C(0x7f800000);
        }
        st->cells += equal;
        st->both_nan += nan;
        st->both_number += equal - nan;
        return PS_OK;
    }
    if (same) {
        const char *pa = a->data, *pb = b->data;
        uint64_t equal = 0, nan = 0;
        for (c = 0; c < n; c++) {
            uint64_t x, y;
            memcpy(&x, pa + 8 * c, 8);
            memcpy(&y, pb + 8 * c, 8);
            if (x != y) {
                compare_cell(st, a, b, c, same, up);
                continue;
            }
            equal++;
            nan += (x & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000);
        }
        st->cells += equal;
        st->both_nan += nan;
        st->both_number += equal - nan;
        return PS_OK;
    }
    for (c = 0; c < n; c++)
        compare_cell(st, a, b, c, same, up);
    return PS_OK;
}

int ps_compare_identical(const ps_compare_stats *st)
{
    return st->nan_mismatch == 0 && st->bit_differ == 0;
}

int ps_compare_within(const ps_compare_stats *st)
{
    return st->nan_mismatch == 0 && st->exceed == 0;
}

int ps_compare_bitwise(const ps_compare_stats *st)
{
    return ps_compare_bits_differ(st) == 0;
}

uint64_t ps_compare_bits_differ(const ps_compare_stats *st)
{
    return st->nan_mismatch + st->bit_differ + st->nan_bits_differ;
}

static void print_loc(FILE *f, const ps_compare_loc *l)
{
    fprintf(f, "(t=%zu, k=%zu, j=%zu, i=%zu)", l->t, l->k, l->j, l->i);
}

void ps_compare_print(FILE *f, const ps_compare_stats *st, const char *in)
{
    if (!in)
        in = "";
    fprintf(f, "%scells compared      : %llu (%llu ocean in both, %llu land in both)\n", in,
            (unsigned long long)st->cells, (unsigned long long)st->both_number,
            (unsigned long long)st->both_nan);
    fprintf(f, "%sNaN-mask mismatches : %llu (%llu NaN only in the first, %llu only in the second)\n",
            in, (unsigned long long)st->nan_mismatch, (unsigned long long)st->nan_only_a,
            (unsigned long long)(st->nan_mismatch - st->nan_only_a));
    fprintf(f, "%sdiffering cells     : %llu (bitwise: %llu, outside tolerance: %llu)\n", in,
            (unsigned long long)st->differ, (unsigned long long)st->bit_differ,
            (unsigned long long)st->exceed);
    if (st->nan_bits_differ)
        fprintf(f, "%sNaN bits differ     : %llu (land in both, another NaN payload)\n", in,
                (unsigned long long)st->nan_bits_differ);
    if (st->unwritten)
        fprintf(f, "%sunwritten cells     : %llu (the second holds the poison pattern)\n", in,
                (unsigned long long)st->unwritten);
    if (st->differ) {
        fprintf(f, "%smax abs difference  : %.9g at ", in, st->max_abs);
        print_loc(f, &st->max_abs_at);
        fprintf(f, " (%.9g vs %.9g)\n", st->max_abs_a, st->max_abs_b);
        fprintf(f, "%smax rel difference  : %.9g at ", in, st->max_rel);
        print_loc(f, &st->max_rel_at);
        fprintf(f, "\n%smax ulp difference  : %llu (%s) at ", in,
                (unsigned long long)st->max_ulp, ps_precision_name(st->ulp_precision));
        print_loc(f, &st->max_ulp_at);
        fputc('\n', f);
    }
    if (st->have_first_nan) {
        fprintf(f, "%sfirst NaN mismatch  : ", in);
        print_loc(f, &st->first_nan_at);
        fputc('\n', f);
    }
    if (st->have_first) {
        fprintf(f, "%sfirst mismatch      : ", in);
        print_loc(f, &st->first_at);
        fprintf(f, " (%.9g vs %.9g)\n", st->first_a, st->first_b);
    }
    if (ps_compare_identical(st))
        fprintf(f, "%sverdict             : identical\n", in);
    else if (ps_compare_within(st))
        fprintf(f, "%sverdict             : within tolerance (abs %g, rel %g, ulps %llu)\n", in,
                st->tol.abs, st->tol.rel, (unsigned long long)st->tol.ulps);
    else
        fprintf(f, "%sverdict             : DIFFERENT\n", in);
}
