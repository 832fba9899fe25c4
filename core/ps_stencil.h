/**
 * @file ps_stencil.h
 * @brief The stencil registry.
 *
 * Each stencil is defined once as a cell-update function in kernels/ and
 * described here: its name, halo radius, parameters and the memory traffic a
 * step must move (used for bandwidth fractions). Adding a stencil means adding
 * a kernel file and an entry in ps_registry.c.
 */
#ifndef PS_STENCIL_H
#define PS_STENCIL_H

#ifdef __cplusplus
extern "C" {
#endif

/** Stencil identifiers (stable: backends switch on them). */
typedef enum ps_stencil_id {
    PS_STENCIL_DIFFUSION7 = 1 /**< masked 7-point diffusion (design.md section 1) */
} ps_stencil_id;

/** A registry entry. */
typedef struct ps_stencil {
    ps_stencil_id id;        /**< identifier */
    const char *name;        /**< e.g. "diffusion7" */
    const char *description; /**< one line */
    const char *kernel_file; /**< the file in kernels/ holding the cell update */
    int radius;              /**< halo width a step reads (1 for 7-point) */
    int arrays_read;         /**< arrays a step must read once (compulsory traffic) */
    int arrays_written;      /**< arrays a step must write once */
    double default_coeff;    /**< default value of the coefficient D */
} ps_stencil;

/** Look a stencil up by name; NULL if unknown. */
const ps_stencil *ps_stencil_find(const char *name);

/** Look a stencil up by id; NULL if unknown. */
const ps_stencil *ps_stencil_get(ps_stencil_id id);

/** The default stencil (diffusion7). */
const ps_stencil *ps_stencil_default(void);

/** Number of registered stencils and the i-th one. */
int ps_stencil_count(void);
const ps_stencil *ps_stencil_at(int i);

#ifdef __cplusplus
}
#endif
#endif /* PS_STENCIL_H */
