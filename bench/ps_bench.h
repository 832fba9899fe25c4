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

/** Result of a cache-resident sweep of the exact update (ps_roofline_sweep). */
typedef struct ps_roofline_result {
    size_t nz, ny, nx;  /**< each thread's block */
    int threads;        /**< OpenMP threads used */
    int samples;        /**< timed samples */
    const char *isa;    /**< instruction set of the sweep ("avx512", "avx2", "baseline") */
    double best_gcells; /**< best sample: interior cells updated per ns, all threads */
    double mean_gcells; /**< mean over the samples */
} ps_roofline_result;

/**
 * The compute ceiling of diffusion7 on this CPU (bench/ps_roofline.c): every
 * thread sweeps its own nz x ny x nx block (two float32 arrays, ping-pong,
 * about a quarter of the cells land) with the exact cell update, 7 loads and
 * 1 store per interior cell, no temporal blocking, repeatedly inside one
 * parallel region; samples of at least 2 ms and 2 M cells per thread, the best reported. Size the block
 * so its two arrays fit the cache level to be measured (L1 or L2).
 */
int ps_roofline_sweep(size_t nz, size_t ny, size_t nx, int threads, int samples,
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

/** Write the fields of one row as JSON members ("name": value, ...), no braces. */
void ps_bench_json_fields(FILE *f, const ps_bench_row *r);

/** Write @p s as a JSON string literal. */
void ps_bench_json_string(FILE *f, const char *s);

/** Write @p m as a JSON object. */
void ps_bench_json_machine(FILE *f, const ps_bench_machine *m, int indent);

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
} ps_bench_plot_options;

/**
 * Draw the benchmark plots with PLplot's cairo drivers: runtime vs steps
 * (error bars), throughput vs grid size, fraction of the measured bandwidth
 * bound, speedup over the reference. Plots without data are not drawn.
 * @p written receives up to @p max paths. PS_ENOTIMPL without PLplot.
 */
int ps_bench_plot(const ps_bench_row *rows, int n, const ps_bench_plot_options *opt,
                  char (*written)[4096], int max, int *nwritten);

#ifdef __cplusplus
}
#endif
#endif /* PS_BENCH_H */
