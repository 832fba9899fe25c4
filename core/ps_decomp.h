/**
 * @file ps_decomp.h
 * @brief Domain decomposition: a global grid split into a Cartesian
 *        arrangement of boxes with ghost (halo) layers, the halo-exchange plan,
 *        and a driver that runs rounds of steps with an exchange between them
 *        over a transport.
 *
 * A decomposition of a PK x PJ x PI split gives every box its owned cells
 * (sizes differ by at most one along an axis: remainders go to the first
 * boxes) plus @c ghost layers on each face that is not a global boundary. A
 * round of up to ghost/radius steps leaves every owned cell exact (deep halo,
 * core/ps_backend.h); then the exchange refreshes every ghost layer.
 *
 * The exchange runs axis by axis (k, then j, then i). Along axis a, a box's
 * ghost slab on each side is filled from every box of the same pencil (the
 * boxes that share its position along the other axes) whose owned cells it
 * overlaps, so a ghost slab deeper than a neighbour's thickness takes cells
 * from the boxes beyond. The copies of axis a span the boxes' stored extent
 * along the axes exchanged before it (ghosts already refreshed) and their
 * owned extent along the axes after it, which fills edges and corners for
 * any ghost depth.
 *
 * The transport moves a region of one box into a region of another; the
 * in-process transport (ps_decomp_transport_local) downloads from one backend
 * context into a staging buffer and uploads into another. An MPI transport
 * implements the same interface with messages.
 */
#ifndef PS_DECOMP_H
#define PS_DECOMP_H

#include "ps_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One box of a decomposition. */
typedef struct ps_decomp_box {
    ps_box box;       /**< stored block: extent, origin, global grid, ghost, global faces */
    int coord[3];     /**< position in the split (k, j, i) */
    size_t own_lo[3]; /**< first owned global cell along each axis */
    size_t own_hi[3]; /**< one past the last owned global cell */
} ps_decomp_box;

/** One copy of the exchange plan: a region of box @c src into a region of box @c dst. */
typedef struct ps_decomp_copy {
    int src;             /**< source box index */
    ps_region src_region; /**< in the source box's stored coordinates */
    int dst;             /**< destination box index */
    ps_region dst_region; /**< in the destination box's stored coordinates (same shape) */
} ps_decomp_copy;

/** A decomposition and its exchange plan. */
typedef struct ps_decomp {
    ps_grid global;        /**< the whole grid */
    int split[3];          /**< boxes along k, j, i */
    unsigned ghost;        /**< ghost layers on inner faces */
    int nboxes;            /**< split[0] * split[1] * split[2] */
    ps_decomp_box *boxes;  /**< nboxes boxes, i fastest */
    int ncopies;           /**< copies of one exchange, in the order they must run */
    ps_decomp_copy *copies; /**< the plan */
    int axis_end[3];       /**< copies [axis_end[a-1], axis_end[a]) belong to axis a */
    size_t max_copy_cells; /**< largest copy (staging buffer size, in cells) */
} ps_decomp;

/**
 * Split @p global into @p split[0] x split[1] x split[2] boxes with @p ghost
 * layers on inner faces and build the exchange plan. PS_EINVAL (with the
 * reason) for a split with more boxes along an axis than cells, a split
 * below 1, or ghost 0 with more than one box.
 */
int ps_decomp_create(ps_decomp *d, ps_grid global, const int split[3], unsigned ghost);

/** Free what ps_decomp_create() allocated. */
void ps_decomp_free(ps_decomp *d);

/**
 * Choose a split of @p nboxes boxes for @p global that minimises the halo
 * surface (the cells of all inner faces), never more boxes along an axis than
 * cells. PS_EINVAL if no factorisation fits.
 */
int ps_decomp_factor(int nboxes, ps_grid global, int split[3]);

/**
 * Parse "PKxPJxPI" (e.g. "2x1x1") or "N" (factorised by ps_decomp_factor).
 * PS_EINVAL with the reason for anything else.
 */
int ps_decomp_parse_split(const char *s, ps_grid global, int split[3]);

/** A transport: moves regions between boxes. */
typedef struct ps_decomp_transport {
    /** Copy @p c->src_region of box c->src into c->dst_region of box c->dst. */
    int (*move)(void *self, const ps_decomp_copy *c);
    void *self; /**< the transport's state */
} ps_decomp_transport;

/** @cond internals */
struct ps_decomp_pool;
/** @endcond */

/** The in-process transport over one backend context per box. */
typedef struct ps_decomp_local {
    ps_context **ctx;  /**< nboxes contexts (not owned) */
    void *staging;     /**< reused buffer of max_copy_cells elements */
    size_t es;         /**< element size */
    long moves;        /**< copies made */
    double bytes;      /**< bytes moved (download + upload) */
    double exchange_s; /**< seconds in exchanges (ps_decomp_local_step(); concurrent:
                            the slowest worker's copies of each exchange) */
    struct ps_decomp_pool *pool; /**< host threads stepping boxes at once
                                      (ps_decomp_local_concurrent()); NULL: one
                                      box after another */
    int pool_shared;   /**< nonzero: @ref pool belongs to another transport
                            (ps_decomp_local_share_workers()) */
} ps_decomp_local;

/**
 * Set up the in-process transport for decomposition @p d over contexts
 * @p ctx (one per box) in precision @p p: allocates the staging buffer once.
 */
int ps_decomp_local_init(ps_decomp_local *l, const ps_decomp *d, ps_context **ctx,
                         ps_precision p, ps_decomp_transport *t);

/** Free the staging buffer and stop the workers of ps_decomp_local_concurrent(). */
void ps_decomp_local_free(ps_decomp_local *l);

/**
 * Place the @p nboxes boxes of a split on host threads ("workers": each steps
 * its boxes and moves their halo copies, all workers at once) and divide CPU
 * threads between them. @p device[q] is box q's device. @p threads is the CPU
 * threads of one device for a backend with PS_BACKEND_THREADS (0 otherwise).
 * @p concurrent is nonzero when the backend declares PS_BACKEND_CONCURRENT.
 *
 * Not concurrent: one worker; every box keeps @p threads. Concurrent: the
 * boxes of one device get min(boxes, @p threads) workers, round-robin (one
 * worker per device when @p threads is 0), and a worker's threads,
 * @p threads divided between the device's workers (remainders to the first,
 * at least 1 each), go to each of its boxes. Writes box_threads[q] (the
 * ps_config.threads of box q's context; 0 when @p threads is 0) and
 * worker[q] (0 .. workers - 1), and returns the number of workers (>= 1).
 */
int ps_decomp_place(int nboxes, const int *device, int threads, int concurrent,
                    int *box_threads, int *worker);

/**
 * Start @p nworkers - 1 host threads (the caller is worker 0) so that
 * ps_decomp_local_step() steps box q on worker[q], all workers at once, and
 * runs the exchange concurrently: each worker downloads the copies whose
 * source box it steps into the copy's own part of one staging area (every
 * copy of the plan, allocated here once), waits for the others, and uploads
 * the copies whose destination box it steps; one wait per axis with copies.
 * So a context is only ever used by one thread at a time, which is all
 * PS_BACKEND_CONCURRENT promises. @p nworkers 1 does nothing. The contexts of
 * @p l must stay alive until ps_decomp_local_free().
 */
int ps_decomp_local_concurrent(ps_decomp_local *l, const ps_decomp *d, int nworkers,
                               const int *worker);

/**
 * Let @p l step its boxes on the workers that ps_decomp_local_concurrent()
 * started for @p owner: transports of the same decomposition and precision
 * (several fields of one run) stepped one after another need one set of
 * workers, not one each. @p owner must outlive @p l's use of them and be
 * freed after or with it; ps_decomp_local_free(@p l) leaves them running.
 * Without workers on @p owner, @p l steps its boxes one after another.
 * @return PS_OK; PS_EINVAL if @p l has workers of its own or the element
 *         sizes differ.
 */
int ps_decomp_local_share_workers(ps_decomp_local *l, const ps_decomp_local *owner);

/**
 * ps_decomp_step() over the in-process transport @p l (set up by
 * ps_decomp_local_init()): on @p l's workers when ps_decomp_local_concurrent()
 * started them, else one box after another. Adds the exchange time to
 * l->exchange_s. A failure on any box stops the run at the end of that
 * round's work with the first failure's status and detail; every worker is
 * idle again on return either way.
 */
int ps_decomp_local_step(const ps_decomp *d, ps_decomp_local *l, int radius, long steps);

/** Run one whole exchange (every copy of the plan, in order). */
int ps_decomp_exchange(const ps_decomp *d, const ps_decomp_transport *t);

/**
 * Scatter the global field @p f into every box's context (its whole stored
 * block, ghosts included) through contexts @p ctx.
 */
int ps_decomp_upload(const ps_decomp *d, ps_context **ctx, const ps_field *f);

/** Gather every box's owned cells from its context into the global field @p f. */
int ps_decomp_download(const ps_decomp *d, ps_context **ctx, ps_field *f);

/**
 * Run @p steps steps of the decomposed grid whose state (ghosts included) is
 * in the contexts: rounds of min(ghost/radius, steps left) steps on every
 * box, each followed by an exchange, so the ghosts are current again on
 * return and the call can be repeated. @p radius is the stencil's radius.
 */
int ps_decomp_step(const ps_decomp *d, ps_context **ctx, const ps_decomp_transport *t,
                   int radius, long steps);

#ifdef __cplusplus
}
#endif
#endif /* PS_DECOMP_H */
