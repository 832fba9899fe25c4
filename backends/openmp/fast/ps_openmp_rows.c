/*
 * diffusion7's fast-path row kernels (ps_openmp_rows.h) for one instruction
 * set: this file is compiled once per variant by build rule
 * (backends/openmp/local.mk) with that variant's flags and PS_OMP_ISA set to
 * base or avx2, and exports the table ps_omp_rows_<PS_OMP_ISA>. The backend
 * picks a table once per context from what the CPU supports. No variant
 * contracts: the library is compiled with -ffp-contract=off and without FMA.
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <stdint.h>
#include <string.h>

#ifndef PS_OMP_ISA
#  error "compile with -DPS_OMP_ISA=base|avx2"
#endif

#define PS_REAL float
#define PS_SUFFIX _f32
#include "ps_stencils.h"
#undef PS_REAL
#undef PS_SUFFIX
#define PS_REAL double
#define PS_SUFFIX _f64
#include "ps_stencils.h"
#undef PS_REAL
#undef PS_SUFFIX

/* Non-temporal copies of a computed row chunk to its destination. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PS_OMP_STREAM(NAME, REAL, VEC, LOADU, STREAM, W)                               \
    static inline void NAME(REAL *d, const REAL *s, size_t n)                          \
    {                                                                                  \
        size_t q = 0;                                                                  \
        while (q < n && ((uintptr_t)(d + q) & (sizeof(VEC) - 1)))                      \
            d[q] = s[q], q++;                                                          \
        for (; q + (W) <= n; q += (W))                                                 \
            STREAM(d + q, LOADU(s + q));                                               \
        for (; q < n; q++)                                                             \
            d[q] = s[q];                                                               \
    }
#endif
#if defined(__AVX2__)
#define ROW_VBYTES 32
PS_OMP_STREAM(stream_f32, float, __m256, _mm256_loadu_ps, _mm256_stream_ps, 8)
PS_OMP_STREAM(stream_f64, double, __m256d, _mm256_loadu_pd, _mm256_stream_pd, 4)
#elif defined(__GNUC__) && defined(__x86_64__)
#define ROW_VBYTES 16
PS_OMP_STREAM(stream_f32, float, __m128, _mm_loadu_ps, _mm_stream_ps, 4)
PS_OMP_STREAM(stream_f64, double, __m128d, _mm_loadu_pd, _mm_stream_pd, 2)
#else
#define ROW_VBYTES 16
static inline void stream_f32(float *d, const float *s, size_t n)
{
    memcpy(d, s, n * sizeof *d);
}
static inline void stream_f64(double *d, const double *s, size_t n)
{
    memcpy(d, s, n * sizeof *d);
}
#endif

#define ROW_ATTR __attribute__((unused))

/* float32, then float64 (ps_openmp_rows.h undefines these four) */
#define PS_REAL float
#define PS_SUFFIX _f32
#define ROW_STREAM stream_f32
#define ROW_ZL_STORE(nf, x) _mm_storeu_ps((nf), _mm_cvtepi32_ps(x))
#include "ps_openmp_rows.h"
#undef ROW_ZL_STORE

#define PS_REAL double
#define PS_SUFFIX _f64
#define ROW_STREAM stream_f64
#define ROW_ZL_STORE(nf, x) _mm_storeu_pd((nf), _mm_cvtepi32_pd(x))
#include "ps_openmp_rows.h"
#undef ROW_ZL_STORE

#define PS_OMP_ROWS_CAT_(a, b) a##b
#define PS_OMP_ROWS_CAT(a, b) PS_OMP_ROWS_CAT_(a, b)

const ps_omp_rows PS_OMP_ROWS_CAT(ps_omp_rows_, PS_OMP_ISA) = {
#if defined(__AVX2__)
    .isa = "avx2",
#else
    .isa = "baseline",
#endif
    .exact32 = row_exact_f32,
    .exact_nt32 = row_exact_nt_f32,
    .exact64 = row_exact_f64,
    .exact_nt64 = row_exact_nt_f64,
    .exact_p32 = row_exact_p_f32,
    .exact_p64 = row_exact_p_f64,
    .zl_p32 = row_zl_p_f32,
    .zl_p64 = row_zl_p_f64,
};
