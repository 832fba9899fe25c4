/*
 * The benchmark's bandwidth bound: a STREAM-like copy b[i] = a[i] on the
 * CPU with OpenMP (static schedule, first touch by the threads that copy).
 * Compiled with -fno-tree-loop-distribute-patterns (bench/local.mk) so the
 * loop stays a loop of plain loads and stores, like the stencil's, instead
 * of becoming a memcpy call that may use non-temporal stores.
 */
#include "config.h"
#include "ps_bench.h"
#include "ps_status.h"
#include "ps_timer.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/*
 * Copy @p inner times inside one parallel region: every thread copies the
 * same static chunk each time (nowait: no barrier between copies), so the
 * figure is the threads' own bandwidth, not fork/join or barrier cost,
 * which would dominate a cache-resident array on a loaded machine.
 * Two builds of the loop, like the openmp backend's rows: the baseline
 * target and AVX2 (32-byte loads and stores), picked at run time, so the
 * bound is not lower than what the vectorised stencil can reach in cache.
 */
#ifdef _OPENMP
#define PS_OMP_PARALLEL _Pragma("omp parallel num_threads(threads)")
#define PS_OMP_FOR_NOWAIT _Pragma("omp for schedule(static) nowait")
#else
#define PS_OMP_PARALLEL
#define PS_OMP_FOR_NOWAIT
#endif
#define PS_COPY_REP(NAME, ATTR)                                                             \
    ATTR static void NAME(double *restrict b, const double *restrict a, size_t n, long inner, \
                          int threads)                                                      \
    {                                                                                       \
        PS_OMP_PARALLEL                                                                     \
        {                                                                                   \
            long it;                                                                        \
            for (it = 0; it < inner; it++) {                                                \
                size_t i;                                                                   \
                PS_OMP_FOR_NOWAIT                                                           \
                for (i = 0; i < n; i++)                                                     \
                    b[i] = a[i];                                                            \
            }                                                                               \
        }                                                                                   \
        (void)threads;                                                                      \
    }

PS_COPY_REP(copy_rep_base, )
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
PS_COPY_REP(copy_rep_avx2, __attribute__((target("avx2"))))
#define PS_HAVE_AVX2_COPY 1
#endif

static void copy_rep(double *restrict b, const double *restrict a, size_t n, long inner,
                     int threads)
{
#ifdef PS_HAVE_AVX2_COPY
    if (__builtin_cpu_supports("avx2")) {
        copy_rep_avx2(b, a, n, inner, threads);
        return;
    }
#endif
    copy_rep_base(b, a, n, inner, threads);
}

static void first_touch(double *a, double *b, size_t n, int threads)
{
    size_t i;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads)
#endif
    for (i = 0; i < n; i++) {
        a[i] = (double)(i & 1023) * 0.5;
        b[i] = 0.0;
    }
    (void)threads;
}

/*
 * The same copy with non-temporal (streaming) stores, which skip the
 * read-for-ownership of the destination: what a stencil that streams its
 * output (the openmp backend does on grids beyond the cache) can reach.
 * Each thread copies a chunk that starts on a 64-byte boundary.
 */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
#define PS_HAVE_NT_COPY 1
static void copy_rep_nt(double *restrict b, const double *restrict a, size_t n, long inner,
                        int threads)
{
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
    {
        int t = 0, nt = 1;
        size_t per, lo, hi, i;
        long it;
#ifdef _OPENMP
        t = omp_get_thread_num();
        nt = omp_get_num_threads();
#endif
        per = (n / (size_t)nt + 7) & ~(size_t)7;
        lo = per * (size_t)t;
        hi = lo + per;
        if (lo > n)
            lo = n;
        if (hi > n || t == nt - 1)
            hi = n;
        for (it = 0; it < inner; it++) {
            for (i = lo; i + 2 <= hi; i += 2)
                _mm_stream_pd(b + i, _mm_load_pd(a + i));
            for (; i < hi; i++)
                b[i] = a[i];
        }
        _mm_sfence();
    }
    (void)threads;
}
#endif

typedef void (*copy_fn)(double *restrict, const double *restrict, size_t, long, int);

/* Best and mean GB/s of @p samples timed samples of @p fn. */
static void measure(copy_fn fn, double *b, const double *a, size_t n, int threads, int samples,
                    double *best, double *mean)
{
    long inner = 1, it;
    double sum = 0.0;
    int s;
    /* calibrate: a sample lasts about 1 ms for arrays that may sit in a cache
     * (many short samples: on a shared machine the best of them is one where
     * every thread ran), 10 ms beyond (one copy already takes that long) */
    double target = n * sizeof(double) < (64u << 20) ? 1e-3 : 10e-3;
    for (it = 1; it < (1L << 30); it *= 2) {
        double t = ps_now(), dt;
        fn(b, a, n, it, threads);
        dt = ps_now() - t;
        if (dt >= target / 4) {
            inner = (long)((double)it * target / dt) + 1;
            break;
        }
    }
    *best = 0.0;
    for (s = 0; s < samples; s++) {
        double t = ps_now(), dt, gbps;
        fn(b, a, n, inner, threads);
        dt = ps_now() - t;
        gbps = 2.0 * (double)(n * sizeof(double)) * (double)inner / dt / 1e9;
        sum += gbps;
        if (gbps > *best)
            *best = gbps;
    }
    *mean = sum / samples;
}

int ps_stream_copy(size_t array_bytes, int threads, int samples, ps_stream_result *r)
{
    size_t n = array_bytes / sizeof(double);
    double *a = NULL, *b = NULL;
    int rc = PS_OK;

    memset(r, 0, sizeof *r);
    if (n < 1024)
        n = 1024;
    n = (n + 7) & ~(size_t)7;
    if (samples < 1)
        samples = 1;
#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_max_threads();
#else
    threads = 1;
#endif
    a = aligned_alloc(64, n * sizeof(double));
    b = aligned_alloc(64, n * sizeof(double));
    if (!a || !b) {
        rc = ps_error(PS_ENOMEM, "stream copy: cannot allocate 2 x %zu bytes", n * sizeof(double));
        goto done;
    }
    first_touch(a, b, n, threads);
    measure(copy_rep, b, a, n, threads, samples, &r->plain_gbps, &r->plain_mean_gbps);
    r->best_gbps = r->plain_gbps;
    r->mean_gbps = r->plain_mean_gbps;
#ifdef PS_HAVE_NT_COPY
    measure(copy_rep_nt, b, a, n, threads, samples, &r->nt_gbps, &r->nt_mean_gbps);
    if (r->nt_gbps > r->best_gbps) {
        r->best_gbps = r->nt_gbps;
        r->mean_gbps = r->nt_mean_gbps;
    }
#endif
    r->array_bytes = n * sizeof(double);
    r->threads = threads;
    r->samples = samples;
done:
    free(a);
    free(b);
    return rc;
}
