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

#include "pstencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the benchmark records about the machine it runs on. */
typedef struct ps_bench_machine {
    char cpu_name[256];  /**< "model name" from /proc/cpuinfo */
    int cpus_online;     /**< online CPUs (sysconf) */
    int omp_max_threads; /**< OpenMP's default thread count (1 without OpenMP) */
    uint64_t mem_bytes;  /**< physical memory */
    uint64_t l3_bytes;   /**< last-level cache size (0 if unknown) */
    char compiler[128];  /**< compiler that built libpstencil */
    char version[32];    /**< pstencil version */
    char date[64];       /**< UTC date and time, ISO 8601 */
    char host[128];      /**< host name */
    char kernel[128];    /**< uname sysname release machine */
    double loadavg1;     /**< 1-minute load average when described */
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

/** Write the fields of one row as JSON members ("name": value, ...), no braces. */
void ps_bench_json_fields(FILE *f, const ps_bench_row *r);

/** Write @p s as a JSON string literal. */
void ps_bench_json_string(FILE *f, const char *s);

/** Write @p m as a JSON object. */
void ps_bench_json_machine(FILE *f, const ps_bench_machine *m, int indent);

/** Plot options. */
typedef struct ps_bench_plot_options {
    const char *dir;    /**< output directory (created if missing) */
    const char *format; /**< "png" (default) or "svg" */
    int log_axes;       /**< log axes for runtime vs steps */
    const char *title;  /**< subtitle, e.g. the machine (may be NULL) */
} ps_bench_plot_options;

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
} ps_bench_memory_options;

/**
 * Host peak RSS and device bytes held against cells for each backend at the
 * built-in ocean's scales 1..max_scale; a table on @p out, the CSV and the
 * figure (out-of-core runs marked) where asked.
 */
int ps_bench_memory(const ps_bench_memory_options *o, FILE *out);

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
int ps_bench_plot_memory(const char *path, const ps_bench_mem_point *pts, int n);

#ifdef __cplusplus
}
#endif
#endif /* PS_BENCH_H */
