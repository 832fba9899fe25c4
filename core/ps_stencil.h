/**
 * @file ps_stencil.h
 * @brief The stencil registry: what every stencil listed in
 *        kernels/ps_stencils.h says about itself, read from its kernel file.
 *
 * A stencil is described once, in kernels/NAME.h (docs/adding-a-stencil.md):
 * its neighbourhood (offsets in the order the update visits them), radius,
 * kernel scalars, coefficient arrays, user options and its cell update. The
 * registry turns those macros into ps_stencil entries; ps_stencil_prepare()
 * turns a user's option values and the grid's coordinates into the kernel
 * parameters (ps_params) a backend context receives in its ps_config.
 */
#ifndef PS_STENCIL_H
#define PS_STENCIL_H

#include <math.h>
#include <stddef.h>

#include "ps_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most kernel scalars a stencil may have. */
#define PS_MAX_SCALARS 8

/** Option default meaning "auto": the stencil chooses (e.g. a time step from its
 *  stability limit). */
#define PS_OPTION_AUTO NAN

/** Axis bits of a coefficient array (same values as kernels/ps_kernel_defs.h). */
enum ps_axis_bits {
    PS_AXES_I = 1, /**< depends on longitude */
    PS_AXES_J = 2, /**< depends on latitude */
    PS_AXES_K = 4  /**< depends on depth */
};

/** Stencil flags. */
enum ps_stencil_flags {
    PS_STENCIL_COORDS = 1u << 0, /**< needs the grid's coordinates (prepare reads them) */
    PS_STENCIL_TEST = 1u << 1,   /**< a test stencil, not a model */
    /** the update reads its neighbours only as the ocean ones' sum and count, so
     *  land may be held as +0.0 with the counts precomputed (set by the registry
     *  from PS_NAME_LAND_SUM; kernels/ps_skeleton.h, ps_NAME_apply_landsum) */
    PS_STENCIL_LAND_SUM = 1u << 2
};

/** A user option of a stencil (a command-line --NAME VALUE). */
typedef struct ps_stencil_option {
    const char *name;  /**< e.g. "kh" */
    const char *unit;  /**< e.g. "m2/s" ("1" = dimensionless) */
    double def;        /**< default value (PS_OPTION_AUTO = auto) */
    int allow_auto;    /**< nonzero: the value "auto" is accepted */
    const char *help;  /**< one line */
    double min;        /**< smallest valid value (inclusive); below it is refused */
    double max;        /**< largest valid value (inclusive); above it is refused */
    char alias;        /**< a one-letter short option for it (e.g. 'D'), or 0 */
} ps_stencil_option;

/** A coefficient array the cell update reads. */
typedef struct ps_stencil_array {
    const char *name; /**< e.g. "c_north" */
    unsigned axes;    /**< PS_AXES_* bits: stored over the global extents of these axes */
} ps_stencil_array;

/**
 * Kernel parameters of a context: the stencil's scalars (float64, rounded to
 * the working precision by the backend) and its coefficient arrays, each
 * over the global grid's extents along its axes, concatenated in the order the
 * stencil lists them (float64, rounded by the backend).
 */
typedef struct ps_params {
    double scalars[PS_MAX_SCALARS]; /**< kernel scalars in the stencil's order */
    double *arrays;                 /**< concatenated arrays (NULL when there are none) */
    size_t array_values;            /**< number of values in @c arrays */
} ps_params;

/**
 * An auxiliary input of a stencil: a read-only field over the grid, constant
 * in time, that its prepare turns into coefficient arrays (an advection stencil's currents).
 * Whoever runs the stencil finds it in the input file (or a file the user
 * names) by one of its CF standard names and hands it to ps_stencil_prepare()
 * in ps_stencil_setup::inputs.
 */
typedef struct ps_stencil_input {
    const char *name;           /**< e.g. "u" */
    const char *standard_names; /**< CF standard names that carry it, '|'-separated,
                                     the preferred one first */
    const char *unit;           /**< unit its values are given in (UDUNITS, e.g. "m s-1") */
    int required;               /**< nonzero: the stencil cannot run without it */
    const char *help;           /**< one line */
} ps_stencil_input;

/** What ps_stencil_prepare() starts from. */
typedef struct ps_stencil_setup {
    ps_grid grid;          /**< the global grid */
    const double *depth;   /**< nz depths in m, positive down (NULL = unknown) */
    const double *lat;     /**< ny latitudes in degrees_north (NULL = unknown) */
    const double *lon;     /**< nx longitudes in degrees_east (NULL = unknown) */
    const double *options; /**< one value per option; NaN = "auto" */
    int allow_unstable;    /**< nonzero: run values outside the stencil's stability rule
                                (its prepare refuses them with PS_ERANGE otherwise) */
    /** One pointer per auxiliary input of the stencil (ps_stencil::inputs order):
     *  nz*ny*nx float64 values over the global grid in C order (k slowest), in
     *  the input's unit, NaN at every land cell of the prognostic field and
     *  finite at every ocean cell; NULL (or a NULL entry) = not given. */
    const double *const *inputs;
} ps_stencil_setup;

/** What ps_stencil_prepare() says besides the parameters. */
typedef struct ps_stencil_report {
    double seconds_per_step; /**< model time a step advances (0 = not a physical time) */
    double stable_limit;     /**< largest stable time step in s (0 = not known) */
    char note[512];          /**< a sentence for the user ("" = nothing to say) */
} ps_stencil_report;

/** Turns option values and coordinates into kernel parameters. */
typedef int (*ps_stencil_prepare_fn)(const ps_stencil_setup *in, ps_params *out,
                                     ps_stencil_report *rep, char *why, size_t whylen);

/** A registry entry (read from kernels/NAME.h). */
typedef struct ps_stencil {
    int id;                  /**< position in the list (0 = the default stencil) */
    const char *name;        /**< its name in kernels/ps_stencils.h */
    const char *description; /**< one line */
    const char *kernel_file; /**< its file in kernels/ ("NAME.h") */
    int radius;              /**< halo width a step reads */
    int nneighbours;         /**< number of neighbours */
    const int (*offsets)[3]; /**< (dk, dj, di) of each neighbour, in summation order */
    int nscalars;            /**< kernel scalars */
    const char *const *scalar_names; /**< their names */
    int narrays;             /**< coefficient arrays */
    const ps_stencil_array *arrays; /**< their names and axes */
    int noptions;            /**< user options */
    const ps_stencil_option *options; /**< their names, units, defaults */
    ps_stencil_prepare_fn prepare;    /**< options + coordinates -> parameters */
    unsigned flags;          /**< PS_STENCIL_* bits */
    int ninputs;             /**< auxiliary inputs (read-only fields, constant in time) */
    const ps_stencil_input *inputs; /**< their names, standard names and units */
    int arrays_read;         /**< field arrays a step must read once (compulsory traffic) */
    int arrays_written;      /**< field arrays a step must write once */
} ps_stencil;

/** Look a stencil up by name; NULL if unknown. */
const ps_stencil *ps_stencil_find(const char *name);

/** The default stencil (the first of kernels/ps_stencils.h). */
const ps_stencil *ps_stencil_default(void);

/** Number of registered stencils. */
int ps_stencil_count(void);
/** The i-th registered stencil, in the list's order (NULL outside 0..count-1). */
const ps_stencil *ps_stencil_at(int i);

/** Index of option @p name of @p s, or -1. */
int ps_stencil_option_index(const ps_stencil *s, const char *name);

/** Index of auxiliary input @p name of @p s, or -1. */
int ps_stencil_input_index(const ps_stencil *s, const char *name);

/**
 * Check value @p v of option @p idx of @p s against the option's valid range
 * (ps_stencil_option min..max) and its "auto" rule (@p v NaN = auto).
 * PS_EINVAL with a message naming the option, the stencil and the range.
 */
int ps_stencil_check_option(const ps_stencil *s, int idx, double v);

/** Nonzero when @p s has no time step of its own (no option "dt"): its steps are
 *  dimensionless, and a run gives them a duration (seconds per step) itself. */
int ps_stencil_dimensionless(const ps_stencil *s);

/** Number of array values @p s needs on grid @p g (sum over its arrays). */
size_t ps_stencil_array_values(const ps_stencil *s, ps_grid g);

/**
 * Fill @p options (s->noptions values) with the stencil's defaults.
 */
void ps_stencil_default_options(const ps_stencil *s, double *options);

/**
 * Compute the kernel parameters of @p s for the setup @p in. On success
 * out->arrays points to memory owned by the caller (free with
 * ps_params_free()). Errors: PS_EINVAL (bad option or coordinates),
 * PS_ERANGE (an unstable time step), PS_ENOMEM; the detail names the problem.
 */
int ps_stencil_prepare(const ps_stencil *s, const ps_stencil_setup *in, ps_params *out,
                       ps_stencil_report *rep);

/** Parameters of @p s with its default options, for stencils that need no coordinates. */
int ps_stencil_prepare_default(const ps_stencil *s, ps_grid g, ps_params *out);

/** Free the arrays of parameters from ps_stencil_prepare(). */
void ps_params_free(ps_params *p);

#ifdef __cplusplus
}
#endif
#endif /* PS_STENCIL_H */
