/*
 * The validation cases: a name, a grid and a synthetic field
 * (ps_validate_fields.c) each, and whether the case is in the --quick set or
 * goes through sub-region uploads and downloads.
 */
#include "config.h"
#include "ps_validate_internal.h"
#include "ps_status.h"

#include <string.h>

typedef struct psv_case {
    const char *name;
    const char *desc;
    int quick;
    ps_grid grid;
    psv_fill_fn fill;
    double param;
    int regions; /* upload/download through sub-regions */
} psv_case;

static const psv_case psv_cases[] = {
    {"ocean-cropped", "synthetic ocean basin (land masses, islands, pockets, seabed), 20x48x56", 1,
     {20, 48, 56}, psv_fill_basin, 0, 0},
    {"ocean-full", "synthetic ocean basin at the course grid's size, 50x222x241", 0,
     {50, 222, 241}, psv_fill_basin, 0, 0},
    {"ocean-0", "random mask, no ocean at all", 1, {9, 17, 23}, psv_fill_random, 0.0, 0},
    {"ocean-0.05", "random mask, 5% ocean", 1, {9, 17, 23}, psv_fill_random, 0.05, 0},
    {"ocean-0.5", "random mask, 50% ocean", 1, {9, 17, 23}, psv_fill_random, 0.5, 0},
    {"ocean-0.95", "random mask, 95% ocean", 1, {9, 17, 23}, psv_fill_random, 0.95, 0},
    {"ocean-1", "random values, no land", 1, {9, 17, 23}, psv_fill_random, 1.0, 0},
    {"single-cell", "one isolated ocean cell (and a pair) in land", 1, {5, 6, 7}, psv_fill_single,
     0, 0},
    {"checkerboard", "3-D checkerboard of land and ocean", 1, {8, 9, 10}, psv_fill_checker, 0, 0},
    {"tiny-3x3x3", "3x3x3: one interior cell", 1, {3, 3, 3}, psv_fill_random, 0.9, 0},
    {"tiny-3x3x4", "3x3x4: two interior cells along i", 1, {3, 3, 4}, psv_fill_random, 0.9, 0},
    {"tiny-4x3x3", "4x3x3: two interior cells along k", 1, {4, 3, 3}, psv_fill_random, 0.9, 0},
    {"tiny-3x4x3", "3x4x3: two interior cells along j", 1, {3, 4, 3}, psv_fill_random, 0.9, 0},
    {"tiny-5x5x5", "5x5x5: one cell inside a radius-2 rim", 1, {5, 5, 5}, psv_fill_random, 0.9, 0},
    {"no-interior-2x5x6", "2x5x6: no interior cell (all boundary)", 1, {2, 5, 6}, psv_fill_random,
     0.8, 0},
    {"no-interior-1x1x9", "1x1x9: a single row", 1, {1, 1, 9}, psv_fill_random, 0.8, 0},
    {"thin-k", "3x40x37: one-cell-thick interior in k", 1, {3, 40, 37}, psv_fill_random, 0.8, 0},
    {"thin-j", "30x3x37: one-cell-thick interior in j", 1, {30, 3, 37}, psv_fill_random, 0.8, 0},
    {"thin-i", "30x40x3: one-cell-thick interior in i", 1, {30, 40, 3}, psv_fill_random, 0.8, 0},
    {"odd-5x7x13", "5x7x13, 80% ocean", 1, {5, 7, 13}, psv_fill_random, 0.8, 0},
    {"odd-17x129x257", "17x129x257, 80% ocean", 0, {17, 129, 257}, psv_fill_random, 0.8, 0},
    {"odd-50x222x241", "50x222x241, 70% ocean", 0, {50, 222, 241}, psv_fill_random, 0.7, 0},
    {"extremes", "+-1e30, subnormals, -0.0, large and small mixed, NaN", 1, {6, 11, 19},
     psv_fill_extremes, 0, 0},
    {"signed-zeros", "only -0.0, +0.0 and NaN", 1, {5, 6, 9}, psv_fill_zeros, 0, 0},
    {"nan-planes", "whole NaN planes in k, j and i", 1, {9, 12, 15}, psv_fill_nan_planes, 0, 0},
    {"regions", "uploaded and downloaded through sub-regions (context API)", 1, {7, 10, 21},
     psv_fill_random, 0.85, 1},
};

int ps_validate_case_count(void)
{
    return (int)(sizeof psv_cases / sizeof psv_cases[0]);
}

static const psv_case *get_case(int i)
{
    return (i >= 0 && i < ps_validate_case_count()) ? &psv_cases[i] : NULL;
}

const char *ps_validate_case_name(int i)
{
    return get_case(i) ? get_case(i)->name : NULL;
}

const char *ps_validate_case_description(int i)
{
    return get_case(i) ? get_case(i)->desc : NULL;
}

int ps_validate_case_quick(int i)
{
    return get_case(i) ? get_case(i)->quick : 0;
}

int ps_validate_case_regions(int i)
{
    return get_case(i) ? get_case(i)->regions : 0;
}

int ps_validate_case_find(const char *name)
{
    int i;
    for (i = 0; name && i < ps_validate_case_count(); i++)
        if (!strcmp(psv_cases[i].name, name))
            return i;
    return -1;
}

int ps_validate_case_make(int i, ps_precision p, ps_field *out, char *label, size_t len)
{
    const psv_case *c = get_case(i);
    ps_field tmp;
    char dummy[8];
    int st;
    if (!label) {
        label = dummy;
        len = sizeof dummy;
    }
    memset(out, 0, sizeof *out);
    if (!c)
        return ps_error(PS_EINVAL, "no validation case %d", i);
    st = ps_field_alloc(&tmp, c->grid, PS_FLOAT64);
    if (st)
        return st;
    memset(tmp.data, 0, ps_field_cells(&tmp) * sizeof(double));
    st = c->fill(c->param, p, tmp.data, &c->grid, label, len);
    if (!st)
        st = ps_field_alloc(out, c->grid, p);
    if (!st)
        st = ps_field_convert(out, &tmp);
    ps_field_free(&tmp);
    if (st)
        ps_field_free(out);
    return st;
}
