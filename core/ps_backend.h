/**
 * @file ps_backend.h
 * @brief The backend interface: a table of function pointers every backend
 *        (built-in or plugin) provides, and the loader that finds them.
 *
 * Modelled on hwloc's hwloc_component, netCDF-C's NC_Dispatch and PoCL's
 * pocl_device_ops: the table starts with an ABI version and a name, and is
 * filled with designated initialisers.
 *
 * A backend works on a *box*: a 3-D block of stored cells of a global grid.
 * A step applies the stencil (cfg->stencil) to every stored cell at least
 * radius cells away from every face of the box and copies the outer radius
 * layers unchanged. On a face flagged as a global boundary those layers are
 * the model's boundary (never updated); on any other face the outer @c ghost
 * layers (ghost >= radius) are halo copies of a neighbour's cells, refreshed
 * by the caller between rounds of steps; the ghost cells further in are
 * stepped like any other, so a round of up to ghost/radius steps leaves every
 * non-ghost cell exact (deep halo). Coefficient arrays are indexed by global
 * coordinates: stored cell (k,j,i) is global cell origin + (k,j,i); that is
 * the only use a backend may make of the origin, and a step treats global
 * and inner faces alike (the global faces are checked against the origin at
 * create, never used by a step), so two boxes of equal extent and ghost
 * whose origins differ only along axes no coefficient array of the stencil
 * spans behave alike, and out-of-core slabs (core/ps_ooc.h) reuse one
 * context for both after a whole upload. The whole-grid run is one box with
 * all six faces global, ghost 0.
 *
 * Every backend is one entry of the backend list, backends/ps_backends.h.
 * Plugins are libtool modules named pstencil_<name>.so in
 * the package library directory, or in the colon-separated directories of
 * the environment variable PSTENCIL_PLUGIN_PATH; each exports the function
 * named by PS_PLUGIN_ENTRY returning its table.
 */
#ifndef PS_BACKEND_H
#define PS_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "ps_field.h"
#include "ps_knobs.h"
#include "ps_stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Bumped whenever ps_backend_ops, ps_config, ps_box, ps_device_info, ps_params
 * or ps_stencil change. 2: stencils as descriptions (parameters in the config,
 * fast paths in the table), priority and capability flags, the global grid in
 * the box. 3: the tuning knobs (ps_config::knobs). 4: stencils' auxiliary
 * inputs (ps_stencil::ninputs, ps_stencil_setup::inputs). 5: the opencl
 * knobs of fused steps on local-memory tiles gone from ps_knobs;
 * ps_config::kernel (the user's choice) in place of ps_config::generic. 6:
 * the openmp knobs of the single-step sweep (openmp_jblock, openmp_stream)
 * gone from ps_knobs, openmp_isa's avx512vl with them. Members
 * appended to ps_backend_ops behind a flag bit (read only when the table sets
 * the bit, see PS_BACKEND_PITCHED) keep the version: a table built before
 * they existed never sets the bit, so it stays valid.
 */
#define PS_BACKEND_ABI_VERSION 6

/** Name of the function a plugin exports: const ps_backend_ops *fn(void). */
#define PS_PLUGIN_ENTRY "ps_backend_plugin_entry"

/**
 * Environment variable replacing the plugin directories (colon-separated
 * absolute directories; see ps_backend_plugin_dirs()).
 */
#define PS_PLUGIN_PATH_ENV "PSTENCIL_PLUGIN_PATH"

/** ELF section in which a plugin declares its priority (PS_PLUGIN_DECLARE()). */
#define PS_PLUGIN_SECTION ".pstencil_plugin"

/** @cond internals */
#define PS_PLUGIN_STR_(x) #x
#define PS_PLUGIN_STR(x) PS_PLUGIN_STR_(x)
/** @endcond */

/**
 * Declare a plugin's `auto` priority in its file, where the loader reads it
 * without dlopen (section PS_PLUGIN_SECTION, text "pstencil-plugin
 * priority=N"): `auto` then loads plugins one at a time in priority order
 * and never loads those below the one it picks. @p priority must be an
 * integer literal (or a macro expanding to one) equal to the ops table's
 * priority. A plugin without it is loaded to learn its priority.
 * Use once, at file scope, in the plugin's source.
 */
#define PS_PLUGIN_DECLARE(priority)                                                      \
    __attribute__((used, section(PS_PLUGIN_SECTION))) static const char                  \
        ps_plugin_declaration[] = "pstencil-plugin priority=" PS_PLUGIN_STR(priority)

/** Face flags of a box. */
enum ps_face {
    PS_FACE_K_LO = 1u << 0, /**< k = 0 side (surface) */
    PS_FACE_K_HI = 1u << 1, /**< k = nz-1 side (deep) */
    PS_FACE_J_LO = 1u << 2, /**< j = 0 side (south) */
    PS_FACE_J_HI = 1u << 3, /**< j = ny-1 side (north) */
    PS_FACE_I_LO = 1u << 4, /**< i = 0 side (west) */
    PS_FACE_I_HI = 1u << 5, /**< i = nx-1 side (east) */
    PS_FACE_ALL = 0x3fu      /**< every face is a global boundary */
};

/** A block of stored cells a backend context works on. */
typedef struct ps_box {
    ps_grid extent;        /**< stored cells along each axis, ghost layers included */
    ps_grid global;        /**< the whole grid (coefficient arrays are over it) */
    size_t origin[3];      /**< global (k,j,i) index of stored cell (0,0,0) */
    unsigned ghost;        /**< halo layers on each face that is not global */
    unsigned global_faces; /**< PS_FACE_* bits: faces that are the global boundary */
} ps_box;

/** A sub-block of a box for partial upload/download (halo exchange). */
typedef struct ps_region {
    size_t start[3]; /**< first (k,j,i) in box coordinates */
    ps_grid count;   /**< cells along each axis */
} ps_region;

/** Capability bits of a device. */
enum ps_caps {
    PS_CAP_FP64 = 1u << 0,       /**< can compute in float64 */
    PS_CAP_EXACT_F32 = 1u << 1,  /**< exact mode (bitwise) in float32 */
    PS_CAP_EXACT_F64 = 1u << 2,  /**< exact mode (bitwise) in float64 */
    PS_CAP_FAST = 1u << 3        /**< fast mode available */
};

/** Capability flags of a backend (ps_backend_ops.flags). */
enum ps_backend_flags {
    PS_BACKEND_GPU = 1u << 0,     /**< its devices are accelerators: `auto` prefers it */
    PS_BACKEND_THREADS = 1u << 1, /**< honours ps_config.threads (validated per count) */
    PS_BACKEND_BLOCK = 1u << 2,   /**< honours ps_config.block (work-group shapes) */
    PS_BACKEND_ORACLE = 1u << 3,  /**< the reference every other backend is compared to */
    PS_BACKEND_NOAUTO = 1u << 4,  /**< never picked by `auto` (test and check-only backends) */
    /** The table has ps_backend_ops.upload_pitched and .download_pitched (a
     *  table without this bit may be shorter: they are never read). */
    PS_BACKEND_PITCHED = 1u << 5,
    /**
     * Distinct contexts may be used from distinct host threads at the same
     * time (each context by one thread at a time: no state shared between
     * contexts is written without a lock). The decomposition driver then
     * steps and exchanges the boxes of a split concurrently, one host thread
     * per device (a backend that also has PS_BACKEND_THREADS: the threads
     * are divided between the boxes of a device). Without it boxes are
     * stepped one after another.
     */
    PS_BACKEND_CONCURRENT = 1u << 6,
    /** The table has ps_backend_ops.describe (and so every member before it). */
    PS_BACKEND_DESCRIBE = 1u << 7,
    /** The table has ps_backend_ops.knobs (and so every member before it). */
    PS_BACKEND_KNOBS = 1u << 8,
    /** The table has ps_backend_ops.adopt (and so every member before it). */
    PS_BACKEND_ADOPT = 1u << 9
};

/** What ps_backend_ops.describe is asked for. */
enum ps_describe_what {
    /** One line: the kernel path and tiling a context chose, and where they came from. */
    PS_DESCRIBE_CHOICES = 0,
    /** The key under which a tuning cache (core/ps_tunecache.h) stores this context's
     *  tuned choices ("": nothing of this context is tuned). */
    PS_DESCRIBE_TUNE_KEY = 1,
    /** The tuned values the context uses, as the tuning cache stores them: the
     *  integers separated by spaces (openmp: "STEPS_FUSED TILE_ROWS"; "" if none). */
    PS_DESCRIBE_TUNE_VALUES = 2,
    /** Every tuning knob the context decided, one line each, "NAME=VALUE
     *  (SOURCE)" (ps_knobs_describe(); "" without PS_BACKEND_KNOBS). Answered
     *  by ps_context_describe() from ps_backend_ops.knobs, never by a backend. */
    PS_DESCRIBE_KNOBS = 3,
    /** The path the context runs: "fast" (a kernel of the backend's fast-path
     *  table) or "generic"; "" where the backend does not say. Answered
     *  "generic" by ps_context_describe() for a backend that lists no fast
     *  paths (ps_backend_ops.fast_paths). */
    PS_DESCRIBE_KERNEL = 4
};

/** What a backend says about one of its devices. */
typedef struct ps_device_info {
    char name[128];        /**< device name */
    char type[16];         /**< "cpu", "gpu", "accelerator" */
    char detail[512];      /**< platform, driver, arch, versions... one line */
    uint64_t memory_bytes; /**< global memory (0 if unknown) */
    int compute_units;     /**< cores, SMs, CUs (0 if unknown) */
    unsigned caps;         /**< PS_CAP_* bits */
} ps_device_info;

/** Everything a backend needs to create a context. */
typedef struct ps_config {
    ps_box box;                /**< the block to work on */
    ps_precision precision;    /**< working precision */
    ps_mode mode;              /**< exact or fast */
    const ps_stencil *stencil; /**< registry entry (NULL = default) */
    ps_params params;          /**< the stencil's kernel scalars and coefficient arrays */
    ps_kernel kernel;          /**< which path (--kernel): AUTO, the backend's fast
                                    path where one of its kernels fits this config,
                                    else the generic one; GENERIC, the generic path
                                    (validation of fast paths); FAST, the fast path,
                                    PS_EUNSUPPORTED where none fits this config */
    int device;                /**< device index from probe, -1 = backend's default */
    int threads;               /**< CPU threads, 0 = runtime default (OMP_NUM_THREADS);
                                    at most PS_THREADS_MAX */
    int block[3];              /**< work-group / block shape (i,j,k), 0 = automatic */
    int profile;               /**< nonzero: record per-step device timing */
    ps_knobs knobs;            /**< tuning knobs the caller sets (PS_KNOB_OPTION; the
                                    rest PS_KNOB_UNSET: the backend decides) */
} ps_config;

/** Per-context timing a backend may report (milliseconds). */
typedef struct ps_timing {
    long steps;          /**< steps timed */
    double step_ms_min;  /**< fastest step */
    double step_ms_med;  /**< median step */
    double step_ms_max;  /**< slowest step */
    double step_ms_sum;  /**< all steps */
    double upload_ms;    /**< host-to-device copies */
    double download_ms;  /**< device-to-host copies */
    uint64_t device_bytes; /**< device memory held by the context */
} ps_timing;

/**
 * The table every backend fills (designated initialisers). All functions
 * return 0 or a negative PS_E* status; on failure the context's last_error
 * (or, for probe/create, @p why) holds the detail.
 */
typedef struct ps_backend_ops {
    int abi_version;         /**< must be PS_BACKEND_ABI_VERSION */
    const char *name;        /**< as in backends/ps_backends.h: "reference", "openmp", ... */
    const char *description; /**< one line */
    int priority;            /**< `auto` tries higher first (see backends/ps_backends.h) */
    unsigned flags;          /**< PS_BACKEND_* capability bits */
    /** Stencils with a hand-tuned fast path (NULL-terminated; NULL = none). */
    const char *const *fast_paths;

    /** List devices (up to @p max) or say in @p why exactly why there are none. */
    int (*probe)(ps_device_info *devs, int max, int *ndevs, char *why, size_t whylen);
    /** Create a context for cfg->box; writes the reason to @p why on failure. */
    int (*create)(const ps_config *cfg, void **ctx, char *why, size_t whylen);
    /** Copy host cells (C order, region shape) into the box; region NULL = whole box. */
    int (*upload)(void *ctx, const void *host, const ps_region *region);
    /** Advance nsteps steps (may return before the device finishes). */
    int (*step)(void *ctx, long nsteps);
    /** Wait until queued work is done. */
    int (*finish)(void *ctx);
    /** Copy the current field (region, or whole box if NULL) to the host; synchronises. */
    int (*download)(void *ctx, void *host, const ps_region *region);
    /** Optional (may be NULL): per-step device timing collected since create. */
    int (*timing)(void *ctx, ps_timing *t);
    /** Free everything the context holds. */
    void (*destroy)(void *ctx);
    /** Detail of the last failure on this context (never NULL). */
    const char *(*last_error)(void *ctx);

    /* Members below exist only in tables whose flags have PS_BACKEND_PITCHED. */

    /**
     * Like upload, but the host cells are a block of a larger C-order array:
     * cell (k,j,i) of the region is read from host + k * @p plane_pitch +
     * j * @p row_pitch + i * element size (pitches in bytes, as in
     * clEnqueueWriteBufferRect), so a box of a grid on the host uploads
     * without a gather. region NULL = whole box.
     */
    int (*upload_pitched)(void *ctx, const void *host, size_t row_pitch, size_t plane_pitch,
                          const ps_region *region);
    /** Like download, into a pitched host block (see upload_pitched). */
    int (*download_pitched)(void *ctx, void *host, size_t row_pitch, size_t plane_pitch,
                            const ps_region *region);

    /* Members below exist only in tables whose flags have PS_BACKEND_DESCRIBE. */

    /**
     * A string about the context (PS_DESCRIBE_*; "" for what it has nothing to
     * say about), valid until the context is destroyed; never NULL.
     */
    const char *(*describe)(void *ctx, int what);

    /* Members below exist only in tables whose flags have PS_BACKEND_KNOBS. */

    /**
     * The tuning knobs the context decided (ps_knobs.h): each knob of the
     * backend with its value and source, the others PS_KNOB_UNSET. Valid
     * until the context is destroyed; never NULL.
     */
    const ps_knobs *(*knobs)(void *ctx);

    /* Members below exist only in tables whose flags have PS_BACKEND_ADOPT. */

    /**
     * Take @p host (the whole box, dense C order, aligned to its element
     * size) as one of the context's two working fields instead of copying it:
     * its cells are the state, as after a whole upload, and the field is not
     * held twice. The memory stays the caller's (the backend never frees it)
     * and must stay valid until the context is destroyed; between a step and
     * the next whole download into @p host its contents are the backend's. A
     * whole download into @p host leaves the current state there, land's NaN
     * and payloads included; the caller may then read it, and write it until
     * its next call on the context: a whole upload from @p host takes its
     * cells as the state. At most once per context. PS_ENOTIMPL, with nothing
     * taken, where the device cannot work in host memory: the caller uploads.
     */
    int (*adopt)(void *ctx, void *host);
} ps_backend_ops;

/** Signature of the function a plugin exports under PS_PLUGIN_ENTRY. */
typedef const ps_backend_ops *(*ps_plugin_entry_fn)(void);

/* ------------------------------------------------------------------ */
/* Loader                                                              */
/* ------------------------------------------------------------------ */

/** A loaded backend (built-in or plugin). */
typedef struct ps_backend ps_backend;

/** How a backend of the list (backends/ps_backends.h) is built. */
typedef enum ps_backend_kind {
    PS_BACKEND_KIND_BUILTIN = 0, /**< compiled into libpstencil */
    PS_BACKEND_KIND_PLUGIN = 1,  /**< pstencil_<name>.so, loaded at run time */
    PS_BACKEND_KIND_CHECK = 2    /**< a plugin built by `make check` for the tests only */
} ps_backend_kind;

/** One entry of the backend list (backends/ps_backends.h). */
typedef struct ps_backend_entry {
    const char *name;      /**< the backend's name */
    ps_backend_kind kind;  /**< how it is built */
    int built;             /**< nonzero: this build of pstencil built it */
    const char *condition; /**< the config.h macro saying so ("1": always built) */
} ps_backend_entry;

/**
 * Every entry of the backend list, in its order (the order of listings and
 * help text; a backend's plot colour is its position).
 */
int ps_backend_list(const ps_backend_entry **entries, int *count);

/**
 * Names of the backends a user can ask for, in the list's order: every entry
 * except check-only (KIND_CHECK) backends whose plugin is not on the plugin
 * path (they exist only in a build tree's test suite). The array stays valid
 * until the calling thread's next call.
 */
int ps_backend_known(const char *const **names, int *count);

/** The list's names for help text, comma-separated ("reference, openmp, ..."). */
const char *ps_backend_names(void);

/** Whether @p name was built into the library or configured as a plugin. */
int ps_backend_is_built(const char *name);

/**
 * Open a backend by name. PS_ENOBACKEND: unknown or not built;
 * PS_EUNAVAIL: plugin not found or its libraries cannot load (detail has the
 * dlopen reason); PS_EABI: wrong ABI version. Does not probe devices.
 * Before any dlopen, a pstencil_NAME.so on the plugin path must be a regular
 * file (examined on an O_NONBLOCK descriptor) holding an ELF shared object of
 * this program's class, byte order and machine whose program headers and
 * segments lie inside the file; any other is passed over (the search goes on
 * in the next directory) and, when no directory has a good one, is the
 * PS_EUNAVAIL detail "PATH is not a loadable plugin: WHY".
 */
int ps_backend_open(const char *name, ps_backend **out);

/**
 * Open the best backend that has a usable device: every known backend that
 * loads and is not flagged PS_BACKEND_NOAUTO, tried by the priority of its
 * ops table, highest first (ties in list order); one flagged PS_BACKEND_GPU
 * counts only with a device of type "gpu" (OpenCL on a CPU is not preferred
 * over openmp). A plugin that declares its priority (PS_PLUGIN_DECLARE()) is
 * loaded only when its turn comes: those below the one picked are never
 * loaded. @p why receives a sentence saying which was picked, from which file
 * and origin, why the better ones were not, and which were not loaded.
 */
int ps_backend_open_auto(ps_backend **out, char *why, size_t whylen);

/** The ops table of an open backend. */
const ps_backend_ops *ps_backend_get_ops(const ps_backend *b);

/**
 * Whether kernel choice @p k (ps_config.kernel) can run stencil @p stencil
 * on backend @p b: PS_EUNSUPPORTED for PS_KERNEL_FAST where the backend lists
 * no fast path for the stencil, the detail (ps_error_detail()) naming the
 * stencils it has one for; else PS_OK. ps_context_create() calls it, so a
 * backend's create sees PS_KERNEL_FAST only for a listed stencil; one may
 * still lack a fast-path kernel for the config (precision, mode, kernel
 * shape), and create then refuses PS_KERNEL_FAST with PS_EUNSUPPORTED.
 */
int ps_backend_kernel_check(const ps_backend *b, const char *stencil, ps_kernel k);

/** Name of an open backend. */
const char *ps_backend_name(const ps_backend *b);

/** Path the plugin was loaded from ("built-in" for built-in backends). */
const char *ps_backend_path(const ps_backend *b);

/**
 * Where an open backend came from: "built-in", "build tree" (the
 * uninstalled pstencil loads its own build's plugins), "PSTENCIL_PLUGIN_PATH"
 * or "installed" (the plugin directory of the install).
 */
const char *ps_backend_origin(const ps_backend *b);

/**
 * The plugin directories searched, colon-separated, into @p dirs, and where
 * they come from into @p origin (optional; the words of ps_backend_origin()).
 * One source only, never mixed: PSTENCIL_PLUGIN_PATH when set (absolute
 * directories only; relative entries are ignored with a warning on stderr),
 * else the build tree's backends/NAME/.libs when this is the uninstalled
 * pstencil of that build tree, else the install's plugin directory (pstencil/
 * beside the libpstencil in use, else the configured one). Never the current
 * directory. Returns PS_OK, or PS_EINVAL without room.
 */
int ps_backend_plugin_dirs(char *dirs, size_t len, const char **origin);

/**
 * The priority a plugin file declares with PS_PLUGIN_DECLARE(), read from its
 * ELF section PS_PLUGIN_SECTION without loading it (bounded reads; anything
 * malformed counts as undeclared). Returns 1 and sets @p priority when
 * declared, 0 when not (or not a readable 64-bit ELF file of this machine's
 * byte order).
 */
int ps_backend_declared_priority(const char *path, int *priority);

/**
 * Probe devices. Returns PS_ENODEVICE with the reason in the thread's error
 * detail when there are none.
 */
int ps_backend_probe(ps_backend *b, ps_device_info *devs, int max, int *ndevs);

/** Close a backend (unloads a plugin). */
void ps_backend_close(ps_backend *b);

/* ------------------------------------------------------------------ */
/* Contexts: thin wrappers that copy a backend's message into the      */
/* thread's error detail (ps_error_detail()).                          */
/* ------------------------------------------------------------------ */

/** An open context on a backend. */
typedef struct ps_context ps_context;

/**
 * Create a context; fills defaults (stencil, box) where cfg leaves them 0.
 * PS_KERNEL_FAST for a stencil the backend lists no fast path for is refused
 * here (ps_backend_kernel_check()), before the backend is asked.
 */
int ps_context_create(ps_backend *b, const ps_config *cfg, ps_context **out);
/**
 * Copy @p host (the region @p r of the field; NULL = the whole box) to the
 * context. The copy may be asynchronous: ps_context_finish() waits for it.
 */
int ps_context_upload(ps_context *c, const void *host, const ps_region *r);
/** Take @p nsteps steps (0 does nothing; negative is PS_EINVAL). May return before they end. */
int ps_context_step(ps_context *c, long nsteps);
/** Wait until every upload and step queued on @p c has finished. */
int ps_context_finish(ps_context *c);
/** Copy the region @p r (NULL = the whole box) of the current state into @p host. */
int ps_context_download(ps_context *c, void *host, const ps_region *r);
/**
 * Copy the region @p r (NULL = the whole box) from a block of a larger host
 * array (ps_backend_ops.upload_pitched: cell (k,j,i) of the region at
 * @p host + k * @p plane_pitch + j * @p row_pitch bytes + i cells).
 * PS_ENOTIMPL, with nothing copied, when the backend has no pitched copies:
 * the caller gathers into a dense buffer and uses ps_context_upload().
 */
int ps_context_upload_pitched(ps_context *c, const void *host, size_t row_pitch,
                              size_t plane_pitch, const ps_region *r);
/**
 * Copy the region @p r (NULL = the whole box) of the current state into a
 * block of a larger host array (see ps_context_upload_pitched()); PS_ENOTIMPL
 * when the backend has no pitched copies.
 */
int ps_context_download_pitched(ps_context *c, void *host, size_t row_pitch,
                                size_t plane_pitch, const ps_region *r);
/**
 * Let the context step @p host (the whole box) in place (ps_backend_ops.adopt):
 * PS_OK, or PS_ENOTIMPL, with nothing taken, when the backend cannot (no
 * PS_BACKEND_ADOPT, or a device whose memory is not the host's): the caller
 * then uploads with ps_context_upload().
 */
int ps_context_adopt(ps_context *c, void *host);
/**
 * What the backend says about the context (PS_DESCRIBE_*): "" when it says
 * nothing (no PS_BACKEND_DESCRIBE). Valid until the context is destroyed.
 */
const char *ps_context_describe(ps_context *c, int what);
/**
 * The tuning knobs the context decided (ps_knobs.h: each of its backend's
 * knobs with value and source) into @p out. PS_ENOTIMPL, with @p out all
 * PS_KNOB_UNSET, when the backend does not report them (no PS_BACKEND_KNOBS).
 */
int ps_context_knobs(ps_context *c, ps_knobs *out);
/**
 * One timed run of a context: upload @p in (the whole box) and wait for it,
 * take @p steps steps in one call and wait until they have finished (the
 * wall seconds of that into @p seconds), then download the whole box into
 * @p out (NULL: no download). What benchmarks and `pstencil tune` time.
 */
int ps_context_time_steps(ps_context *c, const void *in, void *out, long steps,
                          double *seconds);
/** The backend's own timing into @p t; PS_ENOTIMPL if the backend keeps none. */
int ps_context_timing(ps_context *c, ps_timing *t);
/** Free a context and its device memory (NULL is ignored). */
void ps_context_destroy(ps_context *c);

/** A box covering a whole grid: all faces global, no ghosts. */
ps_box ps_box_whole(ps_grid g);

/** Initialise a config with defaults for a whole grid. */
void ps_config_init(ps_config *cfg, ps_grid g, ps_precision p);

/**
 * The most CPU threads any source may ask for: ps_config::threads, the
 * command line's --threads, each count of OMP_NUM_THREADS. Beyond it the
 * OpenMP runtime fails to start the team (libgomp dies of SIGSEGV).
 */
#define PS_THREADS_MAX 4096

/**
 * Check OMP_NUM_THREADS, which the OpenMP runtime reads for itself: unset or
 * empty, or a comma-separated list (one count per nesting level, blanks
 * around each allowed) of whole numbers 1..PS_THREADS_MAX. PS_OK, or
 * PS_EINVAL with a detail naming the variable, its value and the range.
 */
int ps_threads_env_check(void);

#ifdef __cplusplus
}
#endif
#endif /* PS_BACKEND_H */
