/**
 * @file ps_field.h
 * @brief Grids, fields, precision and the fixed-order checksum.
 *
 * A field is a C-order 3-D array T[k][j][i] (k = depth, j = latitude,
 * i = longitude, i fastest) of float or double; NaN marks land.
 */
#ifndef PS_FIELD_H
#define PS_FIELD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Working precision. */
typedef enum ps_precision {
    PS_FLOAT32 = 0, /**< IEEE binary32 (the default: the data is float32) */
    PS_FLOAT64 = 1  /**< IEEE binary64 */
} ps_precision;

/** Numerical mode (docs/numerical-contract.md). */
typedef enum ps_mode {
    PS_MODE_EXACT = 0, /**< bitwise identical to the reference backend */
    PS_MODE_FAST = 1   /**< contraction/reciprocals allowed, validated within a bound */
} ps_mode;

/** Which of a backend's kernels runs a stencil (`--kernel`). */
typedef enum ps_kernel {
    PS_KERNEL_AUTO = 0,    /**< the backend's fast path where it has one, else the generic one */
    PS_KERNEL_GENERIC = 1, /**< the generic path, built from the stencil's description */
    PS_KERNEL_FAST = 2     /**< the backend's fast path for the stencil (refused where none) */
} ps_kernel;

/** Extent of a 3-D grid: nz depth levels, ny latitudes, nx longitudes. */
typedef struct ps_grid {
    size_t nz; /**< depth levels (k) */
    size_t ny; /**< latitudes (j) */
    size_t nx; /**< longitudes (i), fastest varying */
} ps_grid;

/** A 3-D field owning (or borrowing) its storage. */
typedef struct ps_field {
    ps_grid grid;           /**< extent */
    ps_precision precision; /**< element type */
    void *data;             /**< nz*ny*nx elements, C order */
    int owns;               /**< nonzero if ps_field_free() frees data */
} ps_field;

/** Size in bytes of one element. */
size_t ps_precision_size(ps_precision p);

/** "float32" / "float64". */
const char *ps_precision_name(ps_precision p);

/** Parse "float", "float32", "single", "double", "float64". */
int ps_precision_parse(const char *s, ps_precision *out);

/** "exact" / "fast". */
const char *ps_mode_name(ps_mode m);

/** Parse "exact" or "fast". */
int ps_mode_parse(const char *s, ps_mode *out);

/** "auto" / "generic" / "fast". */
const char *ps_kernel_name(ps_kernel k);

/** Parse "auto", "generic" or "fast" (PS_EINVAL with the valid values otherwise). */
int ps_kernel_parse(const char *s, ps_kernel *out);

/**
 * Number of cells nz*ny*nx, and bytes for @p p, with overflow checks.
 * @return PS_OK, or PS_ENOMEM if the product overflows size_t.
 */
int ps_grid_size(const ps_grid *g, ps_precision p, size_t *cells, size_t *bytes);

/**
 * Allocate a field (64-byte aligned, contents uninitialised).
 * Size arithmetic is overflow-checked before allocating.
 */
int ps_field_alloc(ps_field *f, ps_grid g, ps_precision p);

/** Free a field's storage if it owns it; the field becomes empty. */
void ps_field_free(ps_field *f);

/** Number of cells of a field. */
size_t ps_field_cells(const ps_field *f);

/** Copy a field, converting precision if needed (dst must be allocated with the same grid). */
int ps_field_convert(ps_field *dst, const ps_field *src);

/** Bit pattern ps_field_poison() writes into a float32 cell (a NaN payload no kernel produces). */
#define PS_POISON_F32 UINT32_C(0x7fbadbad)
/** Bit pattern ps_field_poison() writes into a float64 cell. */
#define PS_POISON_F64 UINT64_C(0x7ff4dead0badf00d)

/** Fill every cell with the poison pattern PS_POISON_F32 / PS_POISON_F64 (unwritten cells show). */
void ps_field_poison(ps_field *f);

/**
 * Fixed-order 64-bit hash (FNV-1a over the little-endian bytes of each
 * element's bit pattern, in C order). Two fields hash equal iff they are
 * (with overwhelming probability) bitwise identical.
 */
uint64_t ps_field_checksum(const ps_field *f);

/** Pointer to element (k,j,i) as bytes offset helper. */
static inline size_t ps_index(const ps_grid *g, size_t k, size_t j, size_t i)
{
    return (k * g->ny + j) * g->nx + i;
}

#ifdef __cplusplus
}
#endif
#endif /* PS_FIELD_H */
