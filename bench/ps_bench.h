/**
 * @file ps_bench.h
 * @brief Benchmark measurement helpers: machine description, a STREAM-like
 *        copy that measures the bandwidth bound on this machine, statistics,
 *        peak memory, and the benchmark's result rows (CSV/JSON) and plots.
 *
 * The rows' first six fields are the course's table
 * (gpu_name, cpu_name, method, num_timesteps, mean_time_sec, std_dev_sec);
 * every other figure follows. A figure that does not apply (a bandwidth
 * bound for a GPU backend, a whole-job time for a grid-scaling run) is NaN
 * in memory, "n/a" in the CSV and null in the JSON.
 */
#ifndef PS_BENCH_H
#define PS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ps_json.h"
#include "pstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most cache kinds ps_bench_topology records (L1d, L1i, L2, L3, ...). */
#define PS_BENCH_MAX_CACHES 10
/** Most NUMA nodes whose memory ps_bench_topology records. */
#define PS_BENCH_MAX_NUMA 64

/** One kind of cache (a level and type), as the machine has it. */
typedef struct ps_bench_cache {
    int level;        /**< 1, 2, 3, ... */
    char type[12];    /**< "data", "instruction" or "unified" */
    uint64_t bytes;   /**< size of the largest instance */
    uint64_t bytes_min; /**< size of the smallest instance (differs on hybrid CPUs) */
    int count;        /**< instances on the machine */
    int pus_sharing;  /**< logical CPUs sharing the first instance */
} ps_bench_cache;

/** The machine's layout: packages, NUMA nodes, cores, logical CPUs, caches. */
typedef struct ps_bench_topology {
    char source[48];  /**< "hwloc 2.9.0" or "sysfs" (what filled it in) */
    int packages;     /**< processor packages (sockets); 0 if unknown */
    int numa_nodes;   /**< NUMA nodes; 0 if unknown */
    int cores;        /**< physical cores; 0 if unknown */
    int pus;          /**< logical CPUs (hardware threads) */
    int ncaches;      /**< entries of caches */
    ps_bench_cache caches[PS_BENCH_MAX_CACHES]; /**< by level, data before instruction */
    uint64_t numa_bytes[PS_BENCH_MAX_NUMA];     /**< memory local to each NUMA node */
} ps_bench_topology;

/**
 * Describe the machine's layout with hwloc where pstencil was configured
 * with it, else from /sys (every CPU's cache directories and topology
 * files). Never fails: what is unknown is 0.
 */
void ps_bench_topology_describe(ps_bench_topology *t);

/** Most threads ps_bench_placement records one by one. */
#define PS_BENCH_MAX_PLACED 256

/** Where the threads of an OpenMP parallel region ran. */
typedef struct ps_bench_placement {
    char proc_bind[64];  /**< OMP_PROC_BIND as set in the environment ("" if unset) */
    char places[128];    /**< OMP_PLACES as set ("" if unset) */
    char policy[16];     /**< omp_get_proc_bind(): "false", "true", "primary", "close", "spread" */
    int threads;         /**< threads of the region */
    int nplaced;         /**< threads recorded below (min of threads, PS_BENCH_MAX_PLACED) */
    int pu[PS_BENCH_MAX_PLACED];      /**< OS index of the logical CPU thread i ran on (-1) */
    int core[PS_BENCH_MAX_PLACED];    /**< its core (hwloc logical index or core_id; -1) */
    int package[PS_BENCH_MAX_PLACED]; /**< its package (-1 unknown) */
    int numa[PS_BENCH_MAX_PLACED];    /**< its NUMA node (-1 unknown) */
    int distinct_cores;  /**< cores the threads ran on */
    int distinct_pus;    /**< logical CPUs the threads ran on */
    char summary[640];   /**< one line: "4 threads on PUs 0-3, cores 0-3, package 0, NUMA node 0" */
} ps_bench_placement;

/**
 * Run one OpenMP parallel region of @p threads threads (0: OpenMP's default)
 * in which every thread works for about a millisecond, and record the
 * logical CPU each ran on (sched_getcpu) with its core, package and NUMA
 * node (hwloc, else /sys), with OMP_PROC_BIND, OMP_PLACES and the binding
 * policy. OpenMP keeps one thread pool and one binding per process, so
 * this is where the openmp backend's threads run too. Without binding the
 * operating system may move threads later: the record is a snapshot.
 */
void ps_bench_thread_placement(int threads, ps_bench_placement *p);

/** Write @p t as a JSON object. */
void ps_bench_json_topology(ps_json *j, const ps_bench_topology *t);

/** Write @p p as a JSON object. */
void ps_bench_json_placement(ps_json *j, const ps_bench_placement *p);

/** One line describing @p t ("1 package, 1 NUMA node (62.7 GiB), 2 cores, ..."). */
void ps_bench_topology_line(const ps_bench_topology *t, char *buf, size_t len);

/** What the benchmark records about the machine it runs on. */
typedef struct ps_bench_machine {
    char cpu_name[256];  /**< "model name" from /proc/cpuinfo */
    int cpus_online;     /**< online CPUs (sysconf) */
    int omp_max_threads; /**< OpenMP's default thread count (1 without OpenMP) */
    uint64_t mem_bytes;  /**< physical memory */
    uint64_t l3_bytes;   /**< last-level cache size: largest cache instance (0 if unknown) */
    char compiler[128];  /**< compiler that built libpstencil */
    char version[32];    /**< pstencil version */
    char date[64];       /**< UTC date and time, ISO 8601 */
    char host[128];      /**< host name */
    char kernel[128];    /**< uname sysname release machine */
    double loadavg1;     /**< 1-minute load average when described */
    ps_bench_topology topo;        /**< packages, NUMA nodes, cores, every cache level */
    ps_bench_placement placement;  /**< where OpenMP's default threads ran */
} ps_bench_machine;

/** Fill @p m (never fails: unknown fields are left empty or 0). */
void ps_bench_machine_describe(ps_bench_machine *m);

/** Result of a STREAM-like copy measurement. */
typedef struct ps_stream_result {
    size_t array_bytes; /**< bytes of each of the two arrays */
    int threads;        /**< OpenMP threads used */
    int samples;        /**< timed samples */
    double best_gbps;   /**< the bound: the better of the two copies' best samples */
    double mean_gbps;   /**< mean over the samples of that copy */
    double plain_gbps;  /**< best sample with ordinary stores (2 x array_bytes / time, 1e9 B/s) */
    double plain_mean_gbps; /**< mean with ordinary stores */
    double nt_gbps;     /**< best sample with non-temporal stores (0 where unavailable) */
    double nt_mean_gbps;/**< mean with non-temporal stores */
} ps_stream_result;

/**
 * Measure copy bandwidth b[i] = a[i] on two arrays of @p array_bytes each,
 * on @p threads OpenMP threads (0 = OpenMP's default), static schedule,
 * first-touch initialised by the same threads, each thread copying its own
 * chunk repeatedly inside one parallel region, once with ordinary stores and
 * once with non-temporal stores (x86; they skip the destination's
 * read-for-ownership, as a stencil that streams its output does); the bound
 * is the better of the two. A sample lasts about 1 ms
 * (arrays under 64 MiB) or 10 ms; the best sample is reported. Bytes
 * counted: read a + write b (the STREAM convention, like the stencil's
 * compulsory traffic).
 */
int ps_stream_copy(size_t array_bytes, int threads, int samples, ps_stream_result *r);

/** Result of a cache-resident sweep of the exact update (ps_roofline_sweep). */
typedef struct ps_roofline_result {
    size_t nz, ny, nx;  /**< each thread's block */
    int threads;        /**< OpenMP threads used */
    int samples;        /**< timed samples */
    const char *isa;    /**< instruction set of the sweep ("avx512", "avx2", "baseline") */
    const char *stencil; /**< the stencil swept: the registry's default */
    int landsum;        /**< 1: its land-sum form (land +0.0, counts precomputed) */
    int loads;          /**< loads per cell: the cell, its neighbours (and its count) */
    double best_gcells; /**< best sample: interior cells updated per ns, all threads */
    double mean_gcells; /**< mean over the samples */
} ps_roofline_result;

/**
 * The compute ceiling of the default stencil on this CPU (bench/ps_roofline.c):
 * every thread sweeps its own nz x ny x nx block (float32, ping-pong, about a
 * quarter of the cells land) with the stencil's exact cell update (its
 * default options), one step per sweep, repeatedly inside one parallel
 * region; samples of at least 2 ms and 2 M cells per thread, the best
 * reported. The update is the cheapest exact form the stencil declares: for
 * a land-sum stencil (PS_STENCIL_LAND_SUM) land held as +0.0 with the
 * ocean-neighbour counts precomputed (2 + neighbours loads and 1 store per
 * cell, three arrays) unless @p masked, otherwise the NaN-masked point update
 * (1 + neighbours loads, two arrays). Size the block so its arrays fit the
 * cache level to be measured (L1 or L2); it must be at least 2 radius + 1
 * cells deep and wide and 2 radius + 16 long.
 */
int ps_roofline_sweep(size_t nz, size_t ny, size_t nx, int threads, int samples, int masked,
                      ps_roofline_result *r);

/** Mean and sample standard deviation (n-1; 0 when n < 2) of @p x. */
void ps_bench_stats(const double *x, int n, double *mean, double *sd);

/** Reset the process's peak resident set (Linux clear_refs 5); 0 if it worked. */
int ps_bench_peak_reset(void);

/** Peak resident set in MiB since the last reset (VmHWM), else ru_maxrss. */
double ps_bench_peak_host_mb(void);

/** One benchmark result: a configuration measured over repeats. */
typedef struct ps_bench_row {
    /* the course's columns */
    char gpu_name[128];    /**< the machine's GPU (or this row's GPU device), "none" */
    char cpu_name[128];    /**< the host CPU */
    char method[96];       /**< e.g. "pstencil openmp float32 (CPU)" */
    long num_timesteps;    /**< steps per run */
    double mean_time_sec;  /**< mean step-loop time over repeats (s) */
    double std_dev_sec;    /**< its sample standard deviation (s) */
    /* ours */
    char experiment[16];   /**< "steps" (step-count scaling) or "grid" (grid scaling) */
    char backend[32];      /**< backend name */
    char device[128];      /**< device name */
    char device_type[16];  /**< "cpu", "gpu", ... */
    char precision[16];    /**< "float32" / "float64" */
    double scale;          /**< built-in ocean scale (NaN for --input) */
    long nz, ny, nx;       /**< grid */
    double cells;          /**< nz*ny*nx */
    int repeats;           /**< runs measured */
    int threads;           /**< requested threads (0 = default) */
    double step_ms;        /**< mean ms per step */
    double spread;         /**< repeat-to-repeat spread: std_dev / mean */
    double cells_per_s;    /**< cells updated per second */
    double bytes_per_step; /**< compulsory traffic: 2 arrays x cells x element size */
    double gbps;           /**< bytes_per_step / step time, 1e9 B/s */
    double bound_gbps;     /**< measured copy bandwidth on arrays the grid's size */
    double bound_fraction; /**< gbps / bound_gbps */
    double dram_bound_gbps;/**< measured copy bandwidth on arrays far beyond the L3 */
    double dram_fraction;  /**< gbps / dram_bound_gbps */
    double job_mean_s;     /**< whole job (read/generate, upload, steps, download, write) */
    double job_std_s;      /**< its standard deviation */
    double create_ms;      /**< mean context creation */
    double upload_ms;      /**< mean upload */
    double download_ms;    /**< mean download */
    double peak_host_mb;   /**< peak host resident set during the runs */
    double peak_device_mb; /**< device memory the context held (NaN if not reported) */
    double speedup_ref;    /**< reference step time / this step time (NaN if no reference) */
    int speedup_noise;     /**< 1: the difference from the reference is within the spread */
    double best_step_ms;   /**< fastest repeat's ms per step (least disturbed by other load) */
    double best_job_s;     /**< fastest whole job (NaN for grid scaling) */
} ps_bench_row;

/** The CSV header line (no newline). Starts with the course's six columns. */
const char *ps_bench_csv_header(void);

/** Write the header and @p n rows as CSV. */
int ps_bench_csv_write(FILE *f, const ps_bench_row *rows, int n);

/**
 * Read a CSV written by ps_bench_csv_write (columns found by header name,
 * so extra or reordered columns are fine; the course's six are required).
 * @p rows is malloc'd; free it.
 */
int ps_bench_csv_read(const char *path, ps_bench_row **rows, int *n);

/**
 * Name of the oracle, the backend the speedups are relative to: the one
 * whose ops table has PS_BACKEND_ORACLE (core/ps_oracle.h), looked up once;
 * "reference" if none can be opened.
 */
const char *ps_bench_oracle_name(void);

/**
 * Fill speedup_ref/speedup_noise of every row from the oracle's rows
 * (ps_bench_oracle_name()) with the same precision and grid (same step count
 * preferred).
 */
void ps_bench_speedups(ps_bench_row *rows, int n);

/**
 * Colour slot of a backend on the plots: its position in ps_backend_known()
 * (the one backend list), so a backend keeps its colour everywhere; the
 * number of known backends for a name that is not known.
 */
int ps_bench_backend_slot(const char *backend);

/** Write the fields of one row as members of the object @p j has open. */
void ps_bench_json_fields(ps_json *j, const ps_bench_row *r);

/** Write @p m as a JSON object. */
void ps_bench_json_machine(ps_json *j, const ps_bench_machine *m);

/**
 * Measure the roofline ceilings (ps_roofline_sweep on an L1-sized block, an
 * L2-sized block from sysconf's cache sizes, and the fixed 8 x 16 x 512
 * block) on @p threads threads and print them, then every CPU row of
 * @p rows as a fraction of each ceiling and of the two copy bounds the rows
 * already carry. For `pstencil bench --roofline`.
 */
int ps_roofline_print(FILE *f, const ps_bench_row *rows, int n, int threads);

/** Plot options. */
typedef struct ps_bench_plot_options {
    const char *dir;    /**< output directory (created if missing) */
    const char *format; /**< "png" (default) or "svg" */
    int log_axes;       /**< log axes for runtime vs steps */
    const char *title;  /**< subtitle, e.g. the machine (may be NULL) */
    int force;          /**< replace plots that exist (else refuse, PS_EEXIST) */
} ps_bench_plot_options;

/** File names (without directory and extension) the plots may take, NULL-terminated. */
extern const char *const ps_bench_plot_names[];

/**
 * Check, before any measuring, that the plots of @p opt can be written
 * (core/ps_outfile.h rules): the directory exists, or can be created in a
 * writable parent; no plot file exists unless opt->force; the format is png
 * or svg. Returns PS_OK or the status of the first problem (detail set).
 */
int ps_bench_plot_check(const ps_bench_plot_options *opt);

/**
 * Draw the benchmark plots with PLplot's cairo drivers: runtime vs steps
 * (error bars), throughput vs grid size, fraction of the measured bandwidth
 * bound, speedup over the reference. Plots without data are not drawn.
 * @p written receives up to @p max paths. PS_ENOTIMPL without PLplot.
 */
int ps_bench_plot(const ps_bench_row *rows, int n, const ps_bench_plot_options *opt,
                  char (*written)[4096], int max, int *nwritten);


/* ------------------------------------------------------------------ */
/* Decomposition experiments (bench/ps_bench_decomp.c)                  */
/* ------------------------------------------------------------------ */

/** One run of the memory experiment. */
typedef struct ps_bench_mem_point {
    char backend[32];   /**< backend name */
    double scale;       /**< built-in ocean scale */
    double cells;       /**< cells of the grid */
    double host_mib;    /**< host peak RSS during the run (MiB) */
    double device_mib;  /**< device memory the contexts held at most at once (MiB) */
    int ooc_slabs;      /**< slabs streamed (0: in core) */
    double ms_per_step; /**< step time */
} ps_bench_mem_point;

/** Options of ps_bench_memory(). */
typedef struct ps_bench_memory_options {
    const char *const *backends; /**< backends to measure */
    int nbackends;               /**< entries in backends */
    long max_scale;              /**< scales 1..max_scale of the built-in ocean */
    long steps;                  /**< steps per run */
    int threads;                 /**< CPU threads (0: runtime default) */
    ps_precision precision;      /**< working precision */
    uint64_t budget;             /**< device budget (0: the device's memory less 1/8) */
    const char *csv;             /**< CSV file to write (NULL: none) */
    const char *plot;            /**< PNG figure to write (NULL: none) */
    int force;                   /**< replace an existing CSV or figure (else PS_EEXIST) */
} ps_bench_memory_options;

/**
 * Host peak RSS and device bytes held against cells for each backend at the
 * built-in ocean's scales 1..max_scale; a table on @p out, the CSV and the
 * figure (out-of-core runs marked) where asked.
 */
int ps_bench_memory(const ps_bench_memory_options *o, FILE *out);

/** Options of ps_bench_stencils(). */
typedef struct ps_bench_stencils_options {
    const char *const *backends; /**< backend names (each must run here) */
    int nbackends;               /**< entries in backends */
    double scale;                /**< built-in ocean scale */
    long steps;                  /**< timed steps per run (after one warm-up step) */
    long repeat;                 /**< interleaved repeats, 1..64 (the median is reported) */
    int threads;                 /**< CPU threads (0: runtime default) */
    ps_precision precision;      /**< working precision */
    ps_mode mode;                /**< exact or fast */
} ps_bench_stencils_options;

/**
 * Every registered stencil on every backend of @p o, through the generic
 * path and the backend's fast path where it has one: median ms/step and
 * Gcell/s over interleaved repeats, a table on @p out. In exact mode a fast
 * path whose result differs from the generic one's is PS_EINTERNAL.
 */
int ps_bench_stencils(const ps_bench_stencils_options *o, FILE *out);

/** Options of ps_bench_decomp(). */
typedef struct ps_bench_decomp_options {
    const char *backend;    /**< backend (openmp) */
    double scale;           /**< built-in ocean scale */
    long steps;             /**< steps per run */
    long repeat;            /**< runs per configuration (the median is reported) */
    int threads;            /**< CPU threads (0: runtime default) */
    ps_precision precision; /**< working precision */
} ps_bench_decomp_options;

/**
 * ms/step, the fraction in halo exchanges and bytes exchanged per step for
 * one box, 2x1x1 and 2, 4, 8 boxes (split to minimise the halo surface) with
 * halos 1 and 4; then out of core through a budget of a quarter of the grid
 * against in core. A table on @p out.
 */
int ps_bench_decomp(const ps_bench_decomp_options *o, FILE *out);

/**
 * The memory figure: host peak (solid) and device bytes held (dashed)
 * against cells per backend, out-of-core runs marked. PS_ENOTIMPL without
 * PLplot.
 */
int ps_bench_plot_memory(const char *path, const ps_bench_mem_point *pts, int n, int force);

#ifdef __cplusplus
}
#endif
#endif /* PS_BENCH_H */
