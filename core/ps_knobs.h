/**
 * @file ps_knobs.h
 * @brief Tuning knobs: every choice a backend makes for speed (kernel
 *        variant, instruction set, fused steps, tile sizes, streaming
 *        stores...), one field each of ps_knobs, with its value and what
 *        decided it.
 *
 * A caller asks for a knob by setting its field in ps_config::knobs with
 * source PS_KNOB_OPTION (ps_knobs_set() parses NAME=VALUE), or for the
 * backend's rule with source PS_KNOB_RULE (its environment variable is then
 * not read; ps_knobs::skip skips the tuning cache); every other field stays
 * PS_KNOB_UNSET and the backend decides. Each backend fills every
 * knob of its own in one place when it creates a context, with one
 * precedence, highest first:
 *
 *  1. the caller's value (PS_KNOB_OPTION: command line or API);
 *  2. the tuning cache (PS_KNOB_CACHE, core/ps_tunecache.h; knobs that
 *     `pstencil tune` measures);
 *  3. the knob's environment variable (PS_KNOB_ENV, e.g.
 *     PSTENCIL_OPENMP_TBLOCK);
 *  4. the backend's built-in rule (PS_KNOB_RULE).
 *
 * ps_context_knobs() returns the knobs a context decided (value and source
 * of each); ps_knob_list() describes every knob (meaning, type, range,
 * default rule, environment variable), and docs/knobs.md lists them.
 *
 * Only the value of a knob changes speed or which validated kernel runs:
 * in exact mode every value gives bitwise the same result.
 */
#ifndef PS_KNOBS_H
#define PS_KNOBS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What decided a knob's value (a higher source overrides a lower one). */
typedef enum ps_knob_source {
    PS_KNOB_UNSET = 0,  /**< not decided: the backend decides (what a caller leaves) */
    PS_KNOB_RULE = 1,   /**< the backend's built-in rule or default */
    PS_KNOB_ENV = 2,    /**< the knob's environment variable */
    PS_KNOB_CACHE = 3,  /**< the tuning cache (`pstencil tune`) */
    PS_KNOB_OPTION = 4  /**< the caller: command line or ps_config::knobs */
} ps_knob_source;

/** A numeric knob: an integer, a boolean (0 or 1) or the index of a choice. */
typedef struct ps_knob {
    long value; /**< the value (meaningful when source is not PS_KNOB_UNSET) */
    int source; /**< ps_knob_source */
} ps_knob;

/** Longest text knob value, terminating NUL included. */
#define PS_KNOB_TEXT_MAX 256

/** A text knob (device names, compiler options). */
typedef struct ps_knob_text {
    char value[PS_KNOB_TEXT_MAX]; /**< the value ("" when unset) */
    int source;                   /**< ps_knob_source */
} ps_knob_text;

/** ps_knobs::skip bits: sources a context must not read. */
enum ps_knobs_skip {
    PS_KNOBS_SKIP_ENV = 1u << 0,  /**< ignore the knobs' environment variables */
    PS_KNOBS_SKIP_CACHE = 1u << 1 /**< ignore the tuning cache */
};

/**
 * Every tuning knob of every backend. In ps_config::knobs: what the caller
 * asks for (PS_KNOB_OPTION, or PS_KNOB_RULE for the rule) and PS_KNOB_UNSET
 * elsewhere (ps_config_init() zeroes it). From ps_context_knobs(): what the context decided, each of its
 * backend's knobs with its source (other backends' knobs stay unset).
 */
typedef struct ps_knobs {
    /** PS_KNOBS_SKIP_* bits: sources not to read (`pstencil tune` measures the
     *  rule with both set). Not a knob. */
    unsigned skip;

    /* ---- openmp ---- */
    /** openmp: instruction set of the row kernels, a choice: 0 baseline,
     *  1 avx2, 2 avx512 (the rows on 512-bit vectors). Capped at what the CPU
     *  and the build have. Rule: the best of them (avx512 where the CPU has
     *  AVX-512F and VL). Env PSTENCIL_OPENMP_ISA. */
    ps_knob openmp_isa;
    /** openmp: the sweep's output rows streamed (the 512-bit rows only), 0
     *  or 1. Rule: 1 where a field is at least 128 MiB. Env
     *  PSTENCIL_OPENMP_NTOUT. */
    ps_knob openmp_nt_out;
    /** openmp: steps fused per sweep, 0..16 (0 and 1: one step a sweep).
     *  Rule: by CPU vendor and cache sizes (4; 8 or 12 on AMD). Tuned
     *  (`pstencil tune`). Env PSTENCIL_OPENMP_TBLOCK. */
    ps_knob openmp_tblock;
    /** openmp: rows per tile of the fused sweep, >= 1. Rule: the tallest tile
     *  whose working set fits the cache share of a thread, at least 8 rows, at
     *  most a thread's rows. Tuned. Env PSTENCIL_OPENMP_TJ. */
    ps_knob openmp_tj;
    /** openmp: the land-sum form (land as +0.0 with neighbour counts) of the
     *  stencils that declare it, 0 or 1. Rule: 1. Env PSTENCIL_OPENMP_ZERO_LAND. */
    ps_knob openmp_zero_land;

    /* ---- opencl ---- */
    /** opencl: kernel shape, a choice: 0 ij (a work-item per column), 1 ijk
     *  (a work-item per cell), 2 row (a work-item per row). Rule: row on CPU
     *  devices, ij elsewhere. Env PSTENCIL_OPENCL_KERNEL. */
    ps_knob opencl_kernel;
    /** opencl: the generic kernels' land-sum form (a land-sum stencil, exact
     *  mode: land as +0.0 with counts), 0 or 1. Rule: 1, except on CPU devices
     *  where the stencil has no vector rows. Env PSTENCIL_OPENCL_ZERO_LAND. */
    ps_knob opencl_zero_land;
    /** opencl: steps fused per launch as a wavefront, 0..16 (0, 1: none): the
     *  land-sum form's, and the generic kernels' where given. Rule: on CPU
     *  devices 4 (Intel, L2 >= 1 MiB) or 8, else 0. Env PSTENCIL_OPENCL_WAVE
     *  (T[,TJ]). */
    ps_knob opencl_wave;
    /** opencl: output rows per work-item of the wavefront, 1..65536 (0 in a
     *  result: the rule). Rule: the rows split over the compute units, at most
     *  as many as keep the scratch in the cache budget. Env
     *  PSTENCIL_OPENCL_WAVE (second field). */
    ps_knob opencl_wave_tj;
    /** opencl: exact float32 division, a choice: 0 auto (correctly rounded
     *  division where the device has it, else the quotient in double),
     *  1 double (the quotient in double where the device has fp64). Rule: 0.
     *  Env PSTENCIL_OPENCL_DIVIDE. */
    ps_knob opencl_divide;

    /* ---- cuda, hip (backends/gpu) ---- */
    /** cuda/hip: the fast-path kernel variant, a choice: 0 auto, 1 copy (a
     *  copy, for bandwidth bounds: wrong results), 2 d7lb (docs/gpu.md);
     *  a variant that does not fit the grid or block falls back to auto. Rule: 0. Env PSTENCIL_GPU_KERNEL. */
    ps_knob gpu_kernel;
    /** cuda/hip: programmatic dependent launch (compute capability 9 and
     *  up), 0 or 1. Rule: 0. Env PSTENCIL_GPU_PDL. */
    ps_knob gpu_pdl;
    /** cuda/hip: steps per captured graph, 0..1048576 (0: no graphs; rounded
     *  up to an even number of launches). Rule: 32. Env
     *  PSTENCIL_GPU_GRAPH_STEPS. */
    ps_knob gpu_graph_steps;
    /** cuda/hip: steps per launch of the generic kernels, a choice: 0 "1"
     *  (one step per launch, the column walk), 1 "2", 2 "4" (temporal
     *  blocking in shared-memory tiles; ignored where no tile fits or with
     *  profiling). Rule: 0. Env PSTENCIL_GPU_FUSE. */
    ps_knob gpu_fuse;
    /** cuda/hip: the generic kernels' land-sum form for a land-sum stencil
     *  (exact mode, gpu_fuse 1): land as +0.0 with neighbour counts, 0 or 1.
     *  Rule: 1. Env PSTENCIL_GPU_ZERO_LAND. */
    ps_knob gpu_zero_land;

    /* ---- text knobs ---- */
    /** opencl: the device as PLATFORM:DEVICE indices (e.g. 0:1), in place of
     *  ps_config::device. Rule: "" (ps_config::device, else GPUs first). Env
     *  PSTENCIL_OPENCL_DEVICE. */
    ps_knob_text opencl_device;
    /** opencl: options appended to the program's build options (diagnostics,
     *  vendor flags; those breaking exact mode are refused there). Rule: "".
     *  Env PSTENCIL_OPENCL_BUILD_OPTIONS. */
    ps_knob_text opencl_build_options;
} ps_knobs;

/** Type of a knob's value. */
typedef enum ps_knob_type {
    PS_KNOB_INT = 0,    /**< an integer in [min, max] */
    PS_KNOB_BOOL = 1,   /**< 0 or 1 */
    PS_KNOB_CHOICE = 2, /**< one of the words of choices: value is its index */
    PS_KNOB_TEXT = 3    /**< text (a ps_knob_text field) */
} ps_knob_type;

/** The description of one knob (ps_knob_list()). */
typedef struct ps_knob_info {
    const char *name;    /**< the field's name in ps_knobs, e.g. "openmp_tblock" */
    const char *backend; /**< the backends it applies to: "openmp", "opencl", "cuda hip" */
    ps_knob_type type;   /**< its type */
    long min;            /**< least value (0 for a boolean; the first choice's index) */
    long max;            /**< greatest value (1 for a boolean; the last choice's index) */
    const char *choices; /**< a choice's words separated by '|' (NULL otherwise) */
    const char *env;     /**< the environment variable that sets it */
    int env_field;       /**< 0: the whole variable; k >= 1: its k-th comma-separated field */
    size_t offset;       /**< offsetof(ps_knobs, field) */
    const char *meaning; /**< what it changes */
    const char *rule;    /**< the built-in rule (the default) */
} ps_knob_info;

/**
 * Every knob, in the order of ps_knobs. Returns PS_OK. The table is static.
 */
int ps_knob_list(const ps_knob_info **knobs, int *count);

/** The description of the knob @p name (ps_knobs field name), or NULL. */
const ps_knob_info *ps_knob_find(const char *name);

/** "option", "tune cache", "environment", "rule" or "unset". */
const char *ps_knob_source_name(int source);

/**
 * Set a knob of @p k from text with source PS_KNOB_OPTION: @p assignment is
 * NAME=VALUE, NAME a ps_knobs field name (ps_knob_list()), VALUE as its
 * environment variable takes it (a number, 0 or 1, a choice's word, text).
 * PS_EINVAL with a detail naming the knob and its valid values otherwise.
 */
int ps_knobs_set(ps_knobs *k, const char *assignment);

/**
 * The value of knob @p info in @p k as text into @p buf: the number, the
 * choice's word, or the text. Returns @p buf.
 */
const char *ps_knob_format(const ps_knobs *k, const ps_knob_info *info, char *buf,
                           size_t len);

/**
 * Every decided knob of @p k (source not PS_KNOB_UNSET), one line each,
 * "NAME=VALUE (SOURCE)\n", into @p buf (truncated at @p len). Returns the
 * number of lines.
 */
int ps_knobs_describe(const ps_knobs *k, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* PS_KNOBS_H */
