/*
 * diffusion7's zero-land row kernels (see row_zl_p in ps_openmp_rows.h) for
 * CPUs with AVX-512F and AVX-512VL, written with intrinsics: this file is
 * compiled only with -mavx512f -mavx512vl (backends/openmp/local.mk) and the
 * backend calls it only where the CPU has both: by default the 512-bit rows;
 * PSTENCIL_OPENMP_ISA=avx512vl asks for the same on 256-bit vectors and
 * =avx2 for the auto-vectorised rows (see ps_omp_use_avx512()).
 *
 * The input rows j-1 and j+1 are src -/+ pitch: the fused sweep's slots keep
 * their rows on whole cache lines (ps_openmp_tblock.c), so there every load
 * but the counts' and every store is vector-aligned.
 *
 * What differs from the auto-vectorised rows: the i-1 / i+1 neighbours come
 * from registers: the cell
 * vectors of a row are loaded once each (at vector-aligned addresses of the
 * centre row, so those loads never split a cache line), and the shifted
 * neighbours are built with valignd/valignq from the previous, current and
 * next vector instead of two more unaligned loads per vector. The row's
 * first and last vectors are unaligned ones overlapping their aligned
 * neighbours, so only the two centre vectors loaded before the loop are
 * masked, no store is, and no load leaves the row (rows shorter than W + 2
 * cells use masked vectors throughout; see PS_ZL_ROW).
 *
 * Bitwise: every cell gets exactly ROW_ZL_CELL's operations in its order,
 * s = ((((((+0 + km) + kp) + jm) + jp) + im) + ip), t1 = n*c, t2 = s - t1,
 * t3 = D*t2, t4 = t3/n, c + t4, kept where n > 0 (the contract's order,
 * docs/numerical-contract.md); each lane computes that scalar expression.
 * No fused multiply-add is formed: only separate add/sub/mul/div intrinsics
 * are used, and the library is compiled with -ffp-contract=off.
 */
#include "config.h"
#include "ps_openmp_internal.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/* lanes l (0 <= l < W) with lo <= b + l < hi, as a bit mask */
static inline unsigned lanes(long b, long lo, long hi, int w)
{
    long first = lo - b, last = hi - b;
    if (first < 0)
        first = 0;
    if (last > w)
        last = w;
    if (last <= first)
        return 0;
    return ((1u << last) - 1u) & ~((1u << first) - 1u);
}

/* one vector of cells B..B+W-1 from the centre vectors P (cells B-W..B-1),
 * C (B..B+W-1) and N (B+W..B+2W-1): SM the cells written; CNT(mask, B) loads
 * the counts of cells B.. as a vector */
#define PS_ZL_CORE(B, SM, P, C, N, V, M, W, LOADU, STOREU, ADD, SUB, MUL, DIV, CMP, BLEND,   \
                   ALIGNR, CI, CO, CNT)                                                      \
    do {                                                                                     \
        const M sm = (SM);                                                                   \
        const V im = CO(ALIGNR(CI(C), CI(P), W - 1));                                        \
        const V ip = CO(ALIGNR(CI(N), CI(C), 1));                                            \
        V s = ADD(z, LOADU(sm, km + (B))), cn, t1, t2, t3, t4, r;                            \
        M ocean;                                                                             \
        s = ADD(s, LOADU(sm, kp + (B)));                                                     \
        s = ADD(s, LOADU(sm, jm + (B)));                                                     \
        s = ADD(s, LOADU(sm, jp + (B)));                                                     \
        s = ADD(s, im);                                                                      \
        s = ADD(s, ip);                                                                      \
        cn = CNT(sm, B);                                                                     \
        t1 = MUL(cn, C);                                                                     \
        t2 = SUB(s, t1);                                                                     \
        t3 = MUL(vd, t2);                                                                    \
        t4 = DIV(t3, cn);                                                                    \
        r = ADD(C, t4);                                                                      \
        ocean = CMP(sm, cn, z, _CMP_GT_OQ);                                                  \
        STOREU(dst + (B), sm, BLEND(ocean, C, r));                                           \
    } while (0)

/* one vector of cells B..B+W-1 anywhere inside the row (1 <= B, B+W <= n-1):
 * the centre and both shifted neighbours loaded from memory, no masks */
#define PS_ZL_VECU(B, V, M, LOADF, STOREF, ADD, SUB, MUL, DIV, CMPF, BLEND, CNT)            \
    do {                                                                                     \
        const V c = LOADF(src + (B));                                                        \
        V s = ADD(z, LOADF(km + (B))), cn, t1, t2, t3, t4, r;                                \
        s = ADD(s, LOADF(kp + (B)));                                                         \
        s = ADD(s, LOADF(jm + (B)));                                                         \
        s = ADD(s, LOADF(jp + (B)));                                                         \
        s = ADD(s, LOADF(src + (B) - 1));                                                    \
        s = ADD(s, LOADF(src + (B) + 1));                                                    \
        cn = CNT((M)~0u, B);                                                                 \
        t1 = MUL(cn, c);                                                                     \
        t2 = SUB(s, t1);                                                                     \
        t3 = MUL(vd, t2);                                                                    \
        t4 = DIV(t3, cn);                                                                    \
        r = ADD(c, t4);                                                                      \
        STOREF(dst + (B), BLEND(CMPF(cn, z, _CMP_GT_OQ), c, r));                             \
    } while (0)

/*
 * The row functions; V vector type, W lanes, M mask type, the intrinsics of
 * that vector (LOADU/STOREU/CMP masked, LOADF/STOREF/CMPF unmasked), ALIGNR
 * the valign of its lane size (_mm512_alignr_epi32 etc.), CI/CO casts to and
 * from the integer vector, CNT the count loader (see the loaders below).
 *
 * PS_ZL_LONG makes FN for rows of at least W + 2 cells (shorter ones go to
 * SHORT): cells 1..W as one unaligned vector, then
 * vector-aligned vectors (two per iteration) while the next centre vector is
 * inside the row, then unaligned vectors, the last one ending exactly at
 * cell n-2. Those first and last vectors overlap the aligned ones: the
 * overlapped cells are computed twice from the same inputs and stored twice
 * with the same bits (dst never aliases an input). Every load and store is
 * inside the row; only the loads of the first aligned vector and the one
 * before it are masked. PS_ZL_ROW makes the masked short-row function, FN
 * with plain and with streamed stores, the table's row function and the
 * block function.
 */
#define PS_ZL_LONG(FN, REAL, V, W, M, SETZERO, SET1, LOADU, STOREU, LOADF, STOREF, ADD, SUB, \
                   MUL, DIV, CMP, CMPF, BLEND, ALIGNR, CI, CO, CNT, SHORT, ALIGNP)           \
    static inline __attribute__((always_inline)) void FN(                                    \
        REAL *restrict dst, const REAL *restrict km, const REAL *restrict src,               \
        const REAL *restrict kp, const unsigned char *restrict cnt, size_t nx, size_t pitch, \
        REAL d)                                                                              \
    {                                                                                        \
        const REAL *jm = src - pitch, *jp = src + pitch;                                     \
        const long n = (long)nx;                                                             \
        const V vd = SET1(d), z = SETZERO();                                                 \
        /* the first vector after cell 1 aligned in ALIGNP (1 < b <= W + 1) */              \
        long b = 1 + W - (long)(((uintptr_t)(ALIGNP + 1) / sizeof(REAL)) & (W - 1));         \
        V prev, cur;                                                                         \
        if (n < W + 2) {                                                                     \
            SHORT(dst, km, src, kp, cnt, nx, pitch, d);                                      \
            return;                                                                          \
        }                                                                                    \
        PS_ZL_VECU(1, V, M, LOADF, STOREF, ADD, SUB, MUL, DIV, CMPF, BLEND, CNT);            \
        prev = LOADU((M)lanes(b - W, 0, n, W), src + b - W);                                 \
        cur = LOADU((M)lanes(b, 0, n, W), src + b);                                          \
        for (; b + 3 * W <= n; b += 2 * W) {                                                 \
            const V c1 = LOADF(src + b + W), c2 = LOADF(src + b + 2 * W);                    \
            PS_ZL_CORE(b, (M)~0u, prev, cur, c1, V, M, W, LOADU, STOREU, ADD, SUB, MUL, DIV, \
                       CMP, BLEND, ALIGNR, CI, CO, CNT);                                     \
            PS_ZL_CORE(b + W, (M)~0u, cur, c1, c2, V, M, W, LOADU, STOREU, ADD, SUB, MUL,    \
                       DIV, CMP, BLEND, ALIGNR, CI, CO, CNT);                                \
            prev = c1;                                                                       \
            cur = c2;                                                                        \
        }                                                                                    \
        for (; b + W <= n - 1; b += W)                                                       \
            PS_ZL_VECU(b, V, M, LOADF, STOREF, ADD, SUB, MUL, DIV, CMPF, BLEND, CNT);        \
        if (b < n - 1)                                                                       \
            PS_ZL_VECU(n - 1 - W, V, M, LOADF, STOREF, ADD, SUB, MUL, DIV, CMPF, BLEND,      \
                       CNT);                                                                 \
    }

#define PS_ZL_ROW(NAME, REAL, V, W, M, SETZERO, SET1, LOADU, STOREU, LOADF, STOREF, ADD, SUB, \
                  MUL, DIV, CMP, CMPF, BLEND, ALIGNR, CI, CO, CNTF, CNTB, STREAM, FENCE)     \
    /* rows shorter than W + 2 cells (kept out of line: the long rows' code      \
     * then keeps more pointers in registers) */                                             \
    static __attribute__((noinline)) void NAME##_short(                                     \
        REAL *restrict dst, const REAL *restrict km, const REAL *restrict src,               \
        const REAL *restrict kp, const unsigned char *restrict cnt, size_t nx, size_t pitch, \
        REAL d)                                                                              \
    {                                                                                        \
        const REAL *jm = src - pitch, *jp = src + pitch;                                     \
        const long n = (long)nx;                                                             \
        const V vd = SET1(d), z = SETZERO();                                                 \
        /* first vector: cell 1 rounded down to a vector boundary */                         \
        long b = 1 - (long)(((uintptr_t)(src + 1) / sizeof(REAL)) & (W - 1));                \
        V prev = LOADU((M)lanes(b - W, 0, n, W), src + b - W);                               \
        V cur = LOADU((M)lanes(b, 0, n, W), src + b);                                        \
        for (; b < n - 1; b += W) {                                                          \
            const V nxt = LOADU((M)lanes(b + W, 0, n, W), src + b + W);                      \
            PS_ZL_CORE(b, (M)lanes(b, 1, n - 1, W), prev, cur, nxt, V, M, W, LOADU, STOREU,  \
                       ADD, SUB, MUL, DIV, CMP, BLEND, ALIGNR, CI, CO, CNTF);                \
            prev = cur;                                                                      \
            cur = nxt;                                                                       \
        }                                                                                    \
    }                                                                                        \
    PS_ZL_LONG(NAME##_b, REAL, V, W, M, SETZERO, SET1, LOADU, STOREU, LOADF, STOREF, ADD, SUB, \
               MUL, DIV, CMP, CMPF, BLEND, ALIGNR, CI, CO, CNTB, NAME##_short, src)          \
    /* byte counts, the body's stores streamed (non-temporal) to dst-aligned   \
     * vectors: the fused sweep's output rows on large grids */                             \
    PS_ZL_LONG(NAME##_nt, REAL, V, W, M, SETZERO, SET1, LOADU, STREAM, LOADF, STOREF, ADD,    \
               SUB, MUL, DIV, CMP, CMPF, BLEND, ALIGNR, CI, CO, CNTB, NAME##_short, dst)     \
    /* the table's row function */                                                           \
    static void NAME(REAL *restrict dst, const REAL *restrict km, const REAL *restrict src,  \
                     const REAL *restrict kp, const unsigned char *restrict cnt, size_t nx,   \
                     size_t pitch, REAL d)                                                   \
    {                                                                                        \
        NAME##_b(dst, km, src, kp, cnt, nx, pitch, d);                                       \
    }                                                                                        \
    /* a block of rows (ps_omp_zl_rows): one call per plane of a tile */                     \
    static void NAME##_rows(const ps_omp_zl_rows *rb, REAL d)                                \
    {                                                                                        \
        REAL *dst = rb->dst;                                                                 \
        const REAL *km = rb->km, *src = rb->src, *kp = rb->kp;                               \
        const unsigned char *cnt = rb->cnt;                                                  \
        const size_t nx = rb->nx, cp = rb->cpitch;                                           \
        size_t q;                                                                            \
        for (q = 0; q < rb->nrows; q++) {                                                    \
            if (rb->nt)                                                                      \
                NAME##_nt(dst, km, src, kp, cnt, nx, cp, d);                                 \
            else                                                                             \
                NAME##_b(dst, km, src, kp, cnt, nx, cp, d);                                  \
            if (rb->bcols) {                                                                 \
                dst[0] = src[0];                                                             \
                dst[nx - 1] = src[nx - 1];                                                   \
            }                                                                                \
            dst += rb->dpitch;                                                               \
            km += rb->mpitch;                                                                \
            src += cp;                                                                       \
            kp += rb->ppitch;                                                                \
            cnt += rb->npitch;                                                               \
        }                                                                                    \
        if (rb->nt)                                                                          \
            FENCE(); /* the streamed stores before the sweep's barrier */                    \
    }

/*
 * Count loaders CNT(mask, B) for cells B..B+W-1: the count bytes (their
 * PS_OMP_ZL_COUNT bits: land's are 0) converted exactly to REAL (integers
 * 0..6); masked (the short rows: only the lanes of the mask are read) or not
 * (the long-row code: every lane in the row).
 */
#define PS_CNTV(v) _mm_and_si128((v), _mm_set1_epi8((char)PS_OMP_ZL_COUNT))
#define PS_CNTB_F32_Z(m, b)                                                                 \
    _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(PS_CNTV(_mm_loadu_si128((const __m128i *)(cnt + (b))))))
#define PS_CNTB_F64_Z(m, b)                                                                 \
    _mm512_cvtepi32_pd(_mm256_cvtepu8_epi32(PS_CNTV(_mm_loadl_epi64((const __m128i *)(cnt + (b))))))
#define PS_CNTB_F32_Y(m, b)                                                                 \
    _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(PS_CNTV(_mm_loadl_epi64((const __m128i *)(cnt + (b))))))
#define PS_CNTB_F64_Y(m, b) _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(PS_CNTV(load4(cnt + (b)))))
#define PS_CNTF_F32_Z(m, b) _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(PS_CNTV(loadm(cnt, (b), (m)))))
#define PS_CNTF_F64_Z(m, b) _mm512_cvtepi32_pd(_mm256_cvtepu8_epi32(PS_CNTV(loadm(cnt, (b), (m)))))
#define PS_CNTF_F32_Y(m, b) _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(PS_CNTV(loadm(cnt, (b), (m)))))
#define PS_CNTF_F64_Y(m, b) _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(PS_CNTV(loadm(cnt, (b), (m)))))

/* streamed stores of a whole vector (STOREU's signature; the mask is all
 * lanes where they are used) */
#define PS_NT_F32_Z(p, m, v) _mm512_stream_ps((p), (v))
#define PS_NT_F64_Z(p, m, v) _mm512_stream_pd((p), (v))
#define PS_NT_F32_Y(p, m, v) _mm256_stream_ps((p), (v))
#define PS_NT_F64_Y(p, m, v) _mm256_stream_pd((p), (v))

/* four bytes into the low lane of a vector */
static inline __m128i load4(const unsigned char *p)
{
    int v;
    memcpy(&v, p, sizeof v);
    return _mm_cvtsi32_si128(v);
}

/* the bytes p[b + l] of the lanes l set in @p m (at most 16), the others 0: the
 * short rows' masked count loads (AVX-512F/VL has no masked byte load) */
static inline __m128i loadm(const unsigned char *p, long b, unsigned m)
{
    unsigned char v[16] = {0};
    int l;
    for (l = 0; l < 16; l++)
        if (m >> l & 1u)
            v[l] = p[b + l];
    return _mm_loadu_si128((const __m128i *)v);
}

PS_ZL_ROW(row_zl_p_f32_z, float, __m512, 16, __mmask16, _mm512_setzero_ps, _mm512_set1_ps,
          _mm512_maskz_loadu_ps, _mm512_mask_storeu_ps, _mm512_loadu_ps, _mm512_storeu_ps,
          _mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps, _mm512_div_ps, _mm512_mask_cmp_ps_mask,
          _mm512_cmp_ps_mask, _mm512_mask_blend_ps,
          _mm512_alignr_epi32, _mm512_castps_si512, _mm512_castsi512_ps, PS_CNTF_F32_Z,
          PS_CNTB_F32_Z, PS_NT_F32_Z, _mm_sfence)
PS_ZL_ROW(row_zl_p_f64_z, double, __m512d, 8, __mmask8, _mm512_setzero_pd, _mm512_set1_pd,
          _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd, _mm512_loadu_pd, _mm512_storeu_pd,
          _mm512_add_pd, _mm512_sub_pd, _mm512_mul_pd, _mm512_div_pd, _mm512_mask_cmp_pd_mask,
          _mm512_cmp_pd_mask, _mm512_mask_blend_pd,
          _mm512_alignr_epi64, _mm512_castpd_si512, _mm512_castsi512_pd, PS_CNTF_F64_Z,
          PS_CNTB_F64_Z, PS_NT_F64_Z, _mm_sfence)
PS_ZL_ROW(row_zl_p_f32_y, float, __m256, 8, __mmask8, _mm256_setzero_ps, _mm256_set1_ps,
          _mm256_maskz_loadu_ps, _mm256_mask_storeu_ps, _mm256_loadu_ps, _mm256_storeu_ps,
          _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps, _mm256_div_ps, _mm256_mask_cmp_ps_mask,
          _mm256_cmp_ps_mask, _mm256_mask_blend_ps,
          _mm256_alignr_epi32, _mm256_castps_si256, _mm256_castsi256_ps, PS_CNTF_F32_Y,
          PS_CNTB_F32_Y, PS_NT_F32_Y, _mm_sfence)
PS_ZL_ROW(row_zl_p_f64_y, double, __m256d, 4, __mmask8, _mm256_setzero_pd, _mm256_set1_pd,
          _mm256_maskz_loadu_pd, _mm256_mask_storeu_pd, _mm256_loadu_pd, _mm256_storeu_pd,
          _mm256_add_pd, _mm256_sub_pd, _mm256_mul_pd, _mm256_div_pd, _mm256_mask_cmp_pd_mask,
          _mm256_cmp_pd_mask, _mm256_mask_blend_pd,
          _mm256_alignr_epi64, _mm256_castpd_si256, _mm256_castsi256_pd, PS_CNTF_F64_Y,
          PS_CNTB_F64_Y, PS_NT_F64_Y, _mm_sfence)

/* zero-land rows only; everything else comes from the avx2 table */
const ps_omp_rows ps_omp_rows_avx512 = {
    .isa = "avx512",
    .zl_p32 = row_zl_p_f32_z,
    .zl_p64 = row_zl_p_f64_z,
    .zl_rows32 = row_zl_p_f32_z_rows,
    .zl_rows64 = row_zl_p_f64_z_rows,
};
/* the same rows on 256-bit vectors (AVX-512VL), no 512-bit instructions */
const ps_omp_rows ps_omp_rows_avx512vl = {
    .isa = "avx512vl",
    .zl_p32 = row_zl_p_f32_y,
    .zl_p64 = row_zl_p_f64_y,
    .zl_rows32 = row_zl_p_f32_y_rows,
    .zl_rows64 = row_zl_p_f64_y_rows,
};
