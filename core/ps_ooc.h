/**
 * @file ps_ooc.h
 * @brief Out-of-core slabs: a grid too big for a device's memory budget is
 *        streamed through one context at a time, slab by slab.
 *
 * The grid is split along one axis (ps_ooc_plan_make(): depth, k, unless
 * only another axis fits; ps_ooc_plan_auto(), which runs use: the axis, slab
 * count and ghost depth of least estimated cost) into slabs, a decomposition (core/ps_decomp.h) with boxes 1 thick
 * along the other axes: each slab is stored with @c ghost layers of its
 * neighbours on its inner faces. Where they can be, the slabs are stored
 * equally thick (the first and last own @c ghost cells more than an inner
 * one, which has two inner faces), so one context serves every slab; the
 * decomposition's exchange plan is then dropped (slabs never exchange). A pass takes min(ghost/radius, steps left)
 * steps of the whole grid: for each slab in turn, one context is created for
 * its box (or the previous slab's is reused, see ps_ooc_step()), the slab
 * and its ghosts are uploaded from the host copy of the grid at the start
 * of the pass, stepped, and the slab's owned cells are
 * downloaded into a second host copy; the two copies swap after the pass. By
 * the deep-halo argument (core/ps_backend.h) every owned cell is exact, so
 * the result is bitwise the in-core result.
 *
 * The device footprint of a box is estimated as PS_OOC_COPIES copies of its
 * stored cells (the field, the step's second buffer, one per-cell array such
 * as a mask or count); a backend's own count (ps_timing.device_bytes) may be
 * lower.
 */
#ifndef PS_OOC_H
#define PS_OOC_H

#include <stdint.h>

#include "ps_decomp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copies of the stored cells a context is assumed to hold on its device. */
#define PS_OOC_COPIES 3

/** How a grid is streamed through a device memory budget. */
typedef struct ps_ooc_plan {
    int axis;            /**< 0 k (depth), 1 j, 2 i */
    int slabs;           /**< slabs along the axis (1: the grid fits, in core) */
    unsigned ghost;      /**< ghost layers on inner faces */
    uint64_t budget;     /**< the budget planned for (bytes) */
    uint64_t grid_bytes; /**< estimated footprint of the whole grid in core */
    uint64_t slab_bytes; /**< estimated footprint of the largest slab */
    uint64_t min_budget; /**< the smallest budget any slab plan fits */
} ps_ooc_plan;

/** Estimated device bytes of a box storing @p stored cells in precision @p p. */
uint64_t ps_ooc_footprint(ps_grid stored, ps_precision p);

/**
 * Plan grid @p g in precision @p p with @p ghost layers under @p budget bytes
 * (0: unlimited). The grid itself fits: slabs = 1. Otherwise the fewest
 * slabs along k whose largest slab fits, or along j or i if no k plan does.
 * PS_ENOMEM with "budget ... too small ... at least N bytes" in the detail
 * (and plan->min_budget set) when no slab fits.
 */
int ps_ooc_plan_make(ps_grid g, ps_precision p, unsigned ghost, uint64_t budget,
                     ps_ooc_plan *plan);

/**
 * Plan grid @p g like ps_ooc_plan_make(), but choosing the axis, the slab
 * count and (when @p ghost is 0) the ghost depth that cost least for runs of
 * @p steps steps per call (0: many) of a stencil of radius @p radius.
 *
 * The cost model counts cell visits: every pass visits each stored cell of
 * every slab a fixed number of times outside the kernel (gather, upload,
 * the backend's per-upload set-up, download, scatter; more along i, whose
 * slab rows are strided), and each of the pass's ghost/radius steps once
 * more. Thicker slabs carry fewer ghost cells per owned cell and deeper
 * ghosts mean fewer passes, so the plan trades the two under the budget.
 * With @p ghost 0 the depths tried run from @p radius up; the smallest
 * budget reported is the thinnest slab with @p radius ghosts.
 */
int ps_ooc_plan_auto(ps_grid g, ps_precision p, int radius, unsigned ghost, long steps,
                     uint64_t budget, ps_ooc_plan *plan);

/** A grid being streamed (state of ps_ooc_step()). */
typedef struct ps_ooc {
    ps_decomp d;        /**< the slabs */
    ps_backend *b;      /**< backend of every slab context (not owned) */
    ps_config cfg;      /**< config of the slab contexts (box set per slab) */
    ps_field *field;    /**< the grid on the host (current between calls) */
    void *other;        /**< the second host copy */
    void *staging;      /**< one slab's stored cells (NULL when @c pitched) */
    int pitched;        /**< nonzero: the backend copies slabs straight from and to
                             the host copies (PS_BACKEND_PITCHED), no staging */
    double bytes;       /**< bytes uploaded and downloaded so far */
    long passes;        /**< passes made */
    uint64_t device_bytes; /**< most device bytes one slab context held
                                (backend's count, else the estimate) */
    ps_context *ctx;    /**< the slab context kept for the next slab (NULL: none) */
    ps_box ctx_box;     /**< the box @c ctx was created for */
    long contexts;      /**< slab contexts created so far */
} ps_ooc;

/**
 * Set up streaming of @p field on backend @p b with config @p cfg (its box
 * is ignored) along @p plan. Allocates the second host copy and, for a
 * backend without pitched copies (ps_context_upload_pitched()), the staging
 * buffer; creates no context yet.
 */
int ps_ooc_init(ps_ooc *o, const ps_ooc_plan *plan, ps_backend *b, const ps_config *cfg,
                ps_field *field);

/**
 * Take @p steps steps of the grid in passes of min(ghost/radius, steps
 * left) steps; the field is current on return. One context is held at a
 * time: a slab whose box has the extent and ghost of the held context's box,
 * and an origin no coefficient array of the stencil tells apart (no array
 * over the slab axis; global faces do not matter), reuses it with a whole
 * upload;
 * another slab destroys it and creates its own. On failure the held context
 * is freed and the field
 * holds the state of the last whole pass or a partial one: the caller must
 * not keep it.
 */
int ps_ooc_step(ps_ooc *o, long steps);

/** Free what ps_ooc_init() allocated. */
void ps_ooc_free(ps_ooc *o);

#ifdef __cplusplus
}
#endif
#endif /* PS_OOC_H */
