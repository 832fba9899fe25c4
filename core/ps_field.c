/* Field allocation, conversion, poisoning and checksums. */
#include "config.h"
#include "ps_field.h"
#include "ps_status.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t ps_precision_size(ps_precision p)
{
    return p == PS_FLOAT64 ? sizeof(double) : sizeof(float);
}

const char *ps_precision_name(ps_precision p)
{
    return p == PS_FLOAT64 ? "float64" : "float32";
}

int ps_precision_parse(const char *s, ps_precision *out)
{
    if (!s)
        return ps_error(PS_EINVAL, "missing precision");
    if (!strcasecmp(s, "float") || !strcasecmp(s, "float32") || !strcasecmp(s, "single") ||
        !strcasecmp(s, "f32")) {
        *out = PS_FLOAT32;
        return PS_OK;
    }
    if (!strcasecmp(s, "double") || !strcasecmp(s, "float64") || !strcasecmp(s, "f64")) {
        *out = PS_FLOAT64;
        return PS_OK;
    }
    return ps_error(PS_EINVAL, "unknown precision '%s' (use float or double)", s);
}

const char *ps_mode_name(ps_mode m)
{
    return m == PS_MODE_FAST ? "fast" : "exact";
}

int ps_mode_parse(const char *s, ps_mode *out)
{
    if (s && !strcasecmp(s, "exact")) {
        *out = PS_MODE_EXACT;
        return PS_OK;
    }
    if (s && !strcasecmp(s, "fast")) {
        *out = PS_MODE_FAST;
        return PS_OK;
    }
    return ps_error(PS_EINVAL, "unknown mode '%s' (use exact or fast)", s ? s : "");
}

const char *ps_kernel_name(ps_kernel k)
{
    return k == PS_KERNEL_GENERIC ? "generic" : k == PS_KERNEL_FAST ? "fast" : "auto";
}

int ps_kernel_parse(const char *s, ps_kernel *out)
{
    static const char *const names[] = {"auto", "generic", "fast"};
    int i;
    for (i = 0; i < 3; i++)
        if (s && !strcasecmp(s, names[i])) {
            *out = (ps_kernel)i;
            return PS_OK;
        }
    return ps_error(PS_EINVAL, "unknown kernel '%s' (use generic, fast or auto)", s ? s : "");
}

int ps_grid_size(const ps_grid *g, ps_precision p, size_t *cells, size_t *bytes)
{
    size_t c = g->nz;
    size_t es = ps_precision_size(p);
    if (g->ny && c > SIZE_MAX / g->ny)
        goto overflow;
    c *= g->ny;
    if (g->nx && c > SIZE_MAX / g->nx)
        goto overflow;
    c *= g->nx;
    if (c > SIZE_MAX / es)
        goto overflow;
    if (cells)
        *cells = c;
    if (bytes)
        *bytes = c * es;
    return PS_OK;
overflow:
    return ps_error(PS_ENOMEM, "grid %zux%zux%zu is too large to address", g->nz, g->ny, g->nx);
}

int ps_field_alloc(ps_field *f, ps_grid g, ps_precision p)
{
    size_t bytes = 0;
    int st;
    memset(f, 0, sizeof *f);
    st = ps_grid_size(&g, p, NULL, &bytes);
    if (st)
        return st;
    if (bytes == 0)
        bytes = 64;
    /* aligned_alloc needs a size that is a multiple of the alignment */
    if (bytes > SIZE_MAX - 63)
        return ps_error(PS_ENOMEM, "grid too large");
    f->data = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!f->data)
        return ps_error(PS_ENOMEM, "cannot allocate %zu bytes for a %zux%zux%zu %s field", bytes,
                        g.nz, g.ny, g.nx, ps_precision_name(p));
    f->grid = g;
    f->precision = p;
    f->owns = 1;
    return PS_OK;
}

void ps_field_free(ps_field *f)
{
    if (f && f->owns)
        free(f->data);
    if (f)
        memset(f, 0, sizeof *f);
}

size_t ps_field_cells(const ps_field *f)
{
    return f->grid.nz * f->grid.ny * f->grid.nx;
}

int ps_field_convert(ps_field *dst, const ps_field *src)
{
    size_t n = ps_field_cells(src), i;
    if (dst->grid.nz != src->grid.nz || dst->grid.ny != src->grid.ny ||
        dst->grid.nx != src->grid.nx)
        return ps_error(PS_EINVAL, "field conversion between different grids");
    if (dst->precision == src->precision) {
        memcpy(dst->data, src->data, n * ps_precision_size(src->precision));
    } else if (dst->precision == PS_FLOAT64) {
        const float *s = src->data;
        double *d = dst->data;
        for (i = 0; i < n; i++)
            d[i] = (double)s[i];
    } else {
        const double *s = src->data;
        float *d = dst->data;
        for (i = 0; i < n; i++)
            d[i] = (float)s[i];
    }
    return PS_OK;
}

void ps_field_poison(ps_field *f)
{
    size_t n = ps_field_cells(f), i;
    if (f->precision == PS_FLOAT64) {
        uint64_t *d = f->data;
        for (i = 0; i < n; i++)
            d[i] = PS_POISON_F64;
    } else {
        uint32_t *d = f->data;
        for (i = 0; i < n; i++)
            d[i] = PS_POISON_F32;
    }
}

uint64_t ps_field_checksum(const ps_field *f)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const uint64_t prime = UINT64_C(0x100000001b3);
    size_t n = ps_field_cells(f), i;
    int b;
    if (f->precision == PS_FLOAT64) {
        const double *d = f->data;
        for (i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, &d[i], 8);
            for (b = 0; b < 8; b++) {
                h ^= (v >> (8 * b)) & 0xff;
                h *= prime;
            }
        }
    } else {
        const float *d = f->data;
        for (i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, &d[i], 4);
            for (b = 0; b < 4; b++) {
                h ^= (v >> (8 * b)) & 0xff;
                h *= prime;
            }
        }
    }
    return h;
}
