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

static void copy_once(double *restrict b, const double *restrict a, size_t n, int threads)
{
    size_t i;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(threads)
#endif
    for (i = 0; i < n; i++)
        b[i] = a[i];
    (void)threads;
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

int ps_stream_copy(size_t array_bytes, int threads, int samples, ps_stream_result *r)
{
    size_t n = array_bytes / sizeof(double);
    double *a = NULL, *b = NULL;
    double sum = 0.0, best = 0.0;
    long inner = 1, it;
    int s, rc = PS_OK;

    memset(r, 0, sizeof *r);
    if (n < 1024)
        n = 1024;
    if (samples < 1)
        samples = 1;
#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_max_threads();
#else
    threads = 1;
#endif
    a = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64);
    b = aligned_alloc(64, (n * sizeof(double) + 63) / 64 * 64);
    if (!a || !b) {
        rc = ps_error(PS_ENOMEM, "stream copy: cannot allocate 2 x %zu bytes", n * sizeof(double));
        goto done;
    }
    first_touch(a, b, n, threads);
    /* calibrate: each sample lasts at least ~5 ms */
    {
        double t = ps_now(), dt;
        copy_once(b, a, n, threads);
        dt = ps_now() - t;
        if (dt < 5e-3)
            inner = (long)(5e-3 / (dt > 1e-7 ? dt : 1e-7)) + 1;
    }
    for (s = 0; s < samples; s++) {
        double t = ps_now(), dt, gbps;
        for (it = 0; it < inner; it++) {
            copy_once(b, a, n, threads);
            a[(size_t)it % n] = b[0]; /* keep each copy observable */
        }
        dt = ps_now() - t;
        gbps = 2.0 * (double)(n * sizeof(double)) * (double)inner / dt / 1e9;
        sum += gbps;
        if (gbps > best)
            best = gbps;
    }
    r->array_bytes = n * sizeof(double);
    r->threads = threads;
    r->samples = samples;
    r->best_gbps = best;
    r->mean_gbps = sum / samples;
done:
    free(a);
    free(b);
    return rc;
}
