/*
 * The openmp backend's generic path: every stencil of kernels/ps_stencils.h
 * in both precisions, built from its description alone (neighbours, radius,
 * scalars, coefficient arrays) around the stencil's point update.
 *
 * Rows: a row function per stencil updates cells r..nx-r-1 of one (k, j)
 * row (r the stencil's radius) from one pointer per neighbour row, so the
 * innermost loop is contiguous and the compiler vectorises it (ivdep: it
 * writes only dst, which no load reads). Scalars and coefficient arrays
 * over axes without i are read once per row; arrays over i are a
 * contiguous load per cell.
 *
 * Sweeps: T steps of one step() call are fused into one sweep (temporal
 * blocking): the interior rows j are cut into tiles, and each thread walks its tiles plane
 * by plane along k as a wavefront,
 *     for kk: for level l = 1..T: compute plane k = kk - (l-1) r of step t+l,
 * as soon as planes k-r..k+r of step t+l-1 exist (computed at the same kk by
 * level l-1). Step t is the field A (read only), step t+T goes into the
 * other field B, the intermediate steps into the thread's scratch: 2r+1
 * rolling plane slots per level (plane k overwrites plane k-2r-1, which no
 * level still needs). Level l covers (T-l) r halo rows each side of its
 * tile (recomputed by the neighbouring tile too), so tiles never wait on
 * each other; only the end of a sweep is a barrier. Boundary planes, rows
 * and columns (within r of a face of the box) never change: they are read
 * from A, and a slot row's boundary columns are copied from A.
 *
 * Bitwise: every cell of every step gets the stencil's point function with
 * the same neighbour values, scalars and coefficients as the reference
 * (Jacobi: level l reads only level l-1); the variants base, avx2 and
 * avx512 never contract (-ffp-contract=off, no FMA). The fma and fma512
 * variants (fast mode only) are compiled with contraction allowed.
 *
 * Streamed output (ps_omp_gen_sweep::nt, 512-bit variants): the last step's
 * vectors that sit on a whole 64-byte line of B are written with
 * non-temporal stores (no read of B's line before the write: a field too
 * large for the caches is then read once and written once a sweep), the
 * others as usual; each tile ends with a store fence, before the sweep's
 * barrier. The values are the same.
 *
 * This file is compiled once per instruction set by build rule
 * (backends/openmp/local.mk): PS_OMP_ISA names the variant.
 */
#include "config.h"
#include "ps_openmp_generic.h"

#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "ps_skeleton_all.h"

/*
 * A plane's rows for a rows function: rows j0..j0+nrows-1 of one plane k,
 * cells i0..i1-1 of each. Row pointers are at cell 0 of row j0 (of the
 * neighbour's row j0 + dj for neighbour q) and advance by their pitch.
 */
typedef struct gen_rows {
    char *dst;              /* output row j0 */
    size_t dpitch;          /* bytes between output rows */
    const char *src[64];    /* [q < nnb] neighbour q's row, [nnb] the centre row,
                             * [nnb + 1] the centre's count row (land-sum form) */
    size_t pitch[64];       /* bytes between successive rows of each */
    long nrows, i0, i1;
    long geo[6];            /* gk, gj of row j0, oi, gz, gy, gx */
    int last;               /* the sweep's last step, into B (the land-sum rows check it for
                             * NaN; a row of an earlier step goes to a slot, whose i0
                             * boundary columns each side are copied from the centre row) */
    int nt;                 /* last, and its whole vectors streamed (GEN_NT_POST) */
} gen_rows;

/* the rows of one plane; nonzero if the land-sum form wrote a NaN (an ocean
 * cell turned NaN; the masked rows: 0) */
typedef int (*gen_rows_fn)(const gen_rows *rb, const void *params);

typedef struct gen_desc {
    int r, nnb; /* radius (the unwritten layer at every face), neighbours */
    int rk, rj; /* reach of the neighbours along k and j (the wavefront and the halos) */
    const int *dk, *dj;
    gen_rows_fn rows; /* the masked rows, or the land-sum rows when the sweep has counts */
    size_t es;
} gen_desc;

/* bytes of the widest vector of the variant (the row loop's unit, GEN_CELLS) */
#define GEN_VBYTES_base 16
#define GEN_VBYTES_avx2 32
#define GEN_VBYTES_fma 32
#define GEN_VBYTES_avx512 64
#define GEN_VBYTES_fma512 64
#define GEN_VBYTES PS_OMP_CAT(GEN_VBYTES_, PS_OMP_ISA)

#if GEN_VBYTES >= 32
#  include <immintrin.h>
#endif
/* streamed output rows: the 512-bit variants */
#if GEN_VBYTES == 64
#  define GEN_NT 1
/* a row's vector (cells a..a+n-1, computed into ob_) into dst: each cell once,
 * and a line of B either streamed whole or written with plain stores, never
 * both (a plain store after a streamed one reads the line back). A vector on
 * a whole line is streamed; another one stores its cells from e_ (the end of
 * those stored), the row's first vector only up to the next line unless it
 * also ends the row (i1_). */
#  define GEN_NT_POST(a, n)                                                             \
    do {                                                                                \
        const size_t es_ = sizeof dst[0];                                               \
        if ((n) * es_ == 64 && !((uintptr_t)(dst + (a)) & 63)) {                        \
            __m512i v_;                                                                 \
            memcpy(&v_, ob_, 64);                                                       \
            _mm512_stream_si512((void *)(dst + (a)), v_);                               \
            e_ = (a) + (n);                                                             \
        } else {                                                                        \
            const long lo_ = (a) > e_ ? (a) : e_;                                       \
            long hi_ = (a) + (n), hb_;                                                  \
            if (lo_ == (a) && (a) + (n) < i1_) { /* the row's first: to the next line */ \
                hb_ = (a) + (long)(((64 - ((uintptr_t)(dst + (a)) & 63)) & 63) / es_);  \
                if (hb_ > (a) && hb_ < hi_)                                             \
                    hi_ = hb_;                                                          \
            }                                                                           \
            if (hi_ > lo_)                                                              \
                memcpy(dst + lo_, ob_ + (lo_ - (a)), (size_t)(hi_ - lo_) * es_);        \
            e_ = hi_ > e_ ? hi_ : e_;                                                   \
        }                                                                               \
    } while (0)
#  define GEN_SFENCE() _mm_sfence()
#else
#  define GEN_NT 0
#  define GEN_SFENCE() ((void)0)
#endif
/* a cell's result: into the row (ST_ROW) or a vector's buffer (ST_BUF, GEN_NT_POST) */
#define GEN_ST_ROW(v) (dst[i] = (v))
#define GEN_ST_BUF(v) (ob_[t_] = (v))

/* description steps of the rows functions */
#define GEN_NB(dk, dj, di) nb[q] = nbr[q][i + (di)]; q++;
#define GEN_SUM(dk, dj, di) s = s + nbr[q][i + (di)]; q++;
#define GEN_SC(name) sc[q] = P[q]; q++;
#define GEN_AOFF(name, A) aoff[q] = off; off += PS_SK_AXLEN(A, gz, gy, gx); q++;
#define GEN_AROW(name, A)                                                               \
    arow[q] = ((A) & PS_AXIS_I) ? (P[0] * 0) : P[aoff[q] + PS_SK_AXIDX(A, gk, gj, 0, gy, gx)]; \
    q++;
#define GEN_AR(name, A)                                                                 \
    ar[q] = ((A) & PS_AXIS_I) ? P[aoff[q] + PS_SK_AXIDX(A, gk, gj, oi + i, gy, gx)]     \
                              : arow[q];                                                \
    q++;
#define GEN_DK(dk, dj, di) (dk),
#define GEN_DJ(dk, dj, di) (dj),

/*
 * The cell loop of a row: the cell statement (the variadic argument) for
 * i = I0..I1-1, in whole vectors of W = GEN_VBYTES / sizeof(REAL) cells (a
 * fixed-count inner loop the compiler turns into one vector operation per
 * statement). The first vector starts at I0; the next ones start where
 * DST + i sits on a whole vector (a slot row and the rows it reads share
 * that alignment, so their loads and stores then span one cache line, not
 * two: every unaligned 64-byte access spans two), the first of them
 * overlapping the first vector; the last vector is moved back to end
 * exactly at I1, overlapping the previous one. Recomputing a few cells is
 * harmless (dst is no input) and replaces scalar remainder loops.
 * PREP(a, n) runs before cells a..a+n-1 and POST(a, n) after them (n = W,
 * or 1 in the plain loop of a row shorter than W).
 */
#define GEN_NOP(a, n) ((void)0)
/* a vector of the variant's width from any address (vr_ in scope) */
#define gen_vload_(p)                                                                   \
    __extension__({                                                                     \
        vr_ v_;                                                                         \
        memcpy(&v_, (p), sizeof v_);                                                    \
        v_;                                                                             \
    })
#define GEN_CELLS_IN(REAL, DST, I0, I1, PREP, POST, ...)                                \
    do {                                                                                \
        enum { W_ = GEN_VBYTES / (int)sizeof(REAL) };                                   \
        const long o_ = (long)(((uintptr_t)(DST) / sizeof(REAL)) & (W_ - 1));           \
        long a_ = (I0), n_ = (I0) + W_ - (((I0) + o_) & (W_ - 1)), i, t_;               \
        if ((I1) - (I0) >= W_) {                                                        \
            for (;;) {                                                                  \
                PREP(a_, W_);                                                           \
                _Pragma("GCC ivdep")                                                    \
                for (t_ = 0; t_ < W_; t_++) {                                           \
                    i = a_ + t_;                                                        \
                    __VA_ARGS__;                                                        \
                }                                                                       \
                POST(a_, W_);                                                           \
                if (a_ + W_ == (I1))                                                    \
                    break;                                                              \
                a_ = n_; /* the next aligned start */                                   \
                n_ += W_;                                                               \
                if (a_ + W_ > (I1))                                                     \
                    a_ = (I1) - W_; /* the last vector, overlapping */                  \
            }                                                                           \
        } else                                                                          \
            for (i = (I0), t_ = 0; i < (I1); i++) {                                     \
                PREP(i, 1);                                                             \
                __VA_ARGS__;                                                            \
                POST(i, 1);                                                             \
            }                                                                           \
    } while (0)

/* a rows function's set-up and row loop around its body (the variadic
 * argument; it sees dst, nbr[], c, cn, arow[], sc[], gk, gj, oi, gy, gx, i0_,
 * i1_ and may add to a lane of nan_[], which is checked for NaN once after the
 * rows) */
#define GEN_ROWS_FN(FN, NAME, REAL, ...)                                                \
    static int FN(const gen_rows *rb, const void *vP)                                   \
    {                                                                                   \
        const REAL *restrict P = vP;                                                    \
        const long gk = rb->geo[0], oi = rb->geo[2], gz = rb->geo[3], gy = rb->geo[4],  \
                   gx = rb->geo[5], i0_ = rb->i0, i1_ = rb->i1;                         \
        REAL sc[PS_STENCIL_NSC(NAME) + 1], arow[PS_STENCIL_NAR(NAME) + 1];              \
        long aoff[PS_STENCIL_NAR(NAME) + 1], off = PS_STENCIL_NSC(NAME), j;             \
        const char *rowp[PS_STENCIL_NNB(NAME) + 2];                                     \
        char *drow = rb->dst;                                                           \
        REAL nan_[GEN_VBYTES / sizeof(REAL)] = {0};                                     \
        int q, bad = 0;                                                                 \
        (void)gk; (void)oi; (void)gz; (void)gy; (void)gx; (void)off; (void)aoff;        \
        (void)arow; (void)sc;                                                           \
        q = 0;                                                                          \
        PS_##NAME##_SCALARS(GEN_SC)                                                     \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(GEN_AOFF)                                                    \
        for (q = 0; q < PS_STENCIL_NNB(NAME) + 2; q++)                                  \
            rowp[q] = rb->src[q];                                                       \
        for (j = 0; j < rb->nrows; j++) {                                               \
            const long gj = rb->geo[1] + j;                                             \
            const REAL *nbr[PS_STENCIL_NNB(NAME) + 1];                                  \
            REAL *restrict dst = (REAL *)drow;                                          \
            const REAL *restrict c = (const REAL *)rowp[PS_STENCIL_NNB(NAME)];          \
            const unsigned char *restrict cn =                                          \
                (const unsigned char *)rowp[PS_STENCIL_NNB(NAME) + 1];                  \
            (void)gj; (void)cn;                                                         \
            q = 0;                                                                      \
            PS_##NAME##_ARRAYS(GEN_AROW)                                                \
            for (q = 0; q < PS_STENCIL_NNB(NAME); q++)                                  \
                nbr[q] = (const REAL *)rowp[q];                                         \
            __VA_ARGS__                                                                 \
            if (!rb->last) { /* a slot row's boundary columns: the centre row's */     \
                long b_;                                                                \
                for (b_ = 0; b_ < PS_##NAME##_RADIUS; b_++) {                           \
                    dst[b_] = c[b_];                                                    \
                    dst[i1_ + b_] = c[i1_ + b_];                                        \
                }                                                                       \
            }                                                                           \
            drow += rb->dpitch;                                                         \
            for (q = 0; q < PS_STENCIL_NNB(NAME) + 2; q++)                              \
                rowp[q] += rb->pitch[q];                                                \
        }                                                                               \
        for (q = 0; q < (int)(GEN_VBYTES / sizeof(REAL)); q++)                          \
            bad |= nan_[q] != nan_[q];                                                  \
        return bad;                                                                     \
    }

/* the masked rows: the stencil's point update on NaN land */
#define GEN_MASKED_CELL(NAME, SFX, ST)                                                  \
    {                                                                                   \
        REAL_ nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];               \
        int q = 0;                                                                      \
        PS_##NAME##_NEIGHBOURS(GEN_NB)                                                  \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(GEN_AR)                                                      \
        (void)q;                                                                        \
        ST(ps_##NAME##_point##SFX(c[i], nb, sc, ar));                                   \
    }
/* a rows function's streamed form (rb->nt), its cells stored through ob_ by
 * GEN_NT_POST; else (no GEN_NT) nothing: the statement after it runs alone */
#if GEN_NT
#  define GEN_ROWS_NT(PREP, ...)                                                        \
    if (rb->nt) {                                                                       \
        REAL_ ob_[GEN_VBYTES / sizeof(REAL_)];                                          \
        long e_ = i0_;                                                                  \
        GEN_CELLS_IN(REAL_, dst, i0_, i1_, PREP, GEN_NT_POST, __VA_ARGS__);             \
    } else
#else
#  define GEN_ROWS_NT(PREP, ...)
#endif
#define GEN_ROWS(NAME, REAL, SFX)                                                       \
    GEN_ROWS_FN(grows_##NAME##SFX, NAME, REAL, {                                        \
        typedef REAL REAL_;                                                             \
        GEN_ROWS_NT(GEN_NOP, GEN_MASKED_CELL(NAME, SFX, GEN_ST_BUF))                    \
        GEN_CELLS_IN(REAL, dst, i0_, i1_, GEN_NOP, GEN_NOP,                             \
                     GEN_MASKED_CELL(NAME, SFX, GEN_ST_ROW));                           \
    })

/*
 * The land-sum rows of a stencil that declares the form (PS_NAME_LAND_SUM):
 * land held as +0.0, the centre's count bytes cn (zero-land bytes, see
 * ps_openmp_zeroland.c: the ocean neighbours in the PS_OMP_ZL_COUNT bits, 0
 * for land), s the plain sum of the neighbours in their order,
 * ps_NAME_sumcount where n > 0: bitwise the masked rows' result as
 * long as no ocean cell turns NaN (the masked rows would then count it as
 * land); the rows of the sweep's last step report a NaN they write, and the
 * sweep is then redone masked. Checking the last step alone finds every NaN
 * of the sweep: an ocean cell that turns NaN stays NaN in every later step
 * (the land-sum contract: ps_NAME_sumcount is NaN when c is; n == 0 keeps c),
 * and the last step writes every interior cell. It keeps the test out of the
 * fused steps before it. Each vector's counts are converted to the working
 * precision ahead of its cells (nf[]: GEN_LS_PREP, one vector conversion
 * where the variant has one), and each result's test (CHK) adds v - v to its
 * lane of nan_[] (in registers: reading the stored vector back would stall on
 * a store that spans two cache lines, as a row's unaligned vectors do every
 * other time): NaN from then on where v is NaN or infinite, else +0.0. A
 * subtraction and an addition a vector cost no mask conversion (a compare and
 * an or cost 4 % of diffusion7's generic time, 1 thread, Zen 4); an infinity
 * also sends the sweep to the masked rows, whose result is the reference's
 * there as everywhere.
 */
#define GEN_LS_CELL(NAME, SFX, CHK, ST)                                                 \
    {                                                                                   \
        REAL_ s = (REAL_)0, ar[PS_STENCIL_NAR(NAME) + 1], v;                            \
        const REAL_ n = nf[i - p_];                                                     \
        int q = 0;                                                                      \
        PS_##NAME##_NEIGHBOURS(GEN_SUM)                                                 \
        q = 0;                                                                          \
        PS_##NAME##_ARRAYS(GEN_AR)                                                      \
        (void)q;                                                                        \
        v = ps_##NAME##_sumcount##SFX(c[i], s, n, sc, ar);                              \
        v = n > (REAL_)0 ? v : c[i];                                                    \
        ST(v);                                                                          \
        if (CHK)                                                                        \
            nan_[t_] += v - v;                                                          \
    }
/* a vector of double counts in one conversion (gcc 12 converts them in two
 * halves and joins them: 5 instructions a vector instead of 2) */
#if GEN_VBYTES == 64
#define GEN_LS_CVT64(a)                                                                 \
    if (sizeof(REAL_) == 8) {                                                           \
        __m512d d_ = _mm512_cvtepi32_pd(_mm256_cvtepu8_epi32(_mm_and_si128(             \
            _mm_loadl_epi64((const __m128i *)(cn + (a))),                                \
            _mm_set1_epi8((char)PS_OMP_ZL_COUNT))));                                    \
        memcpy(nf, &d_, sizeof d_);                                                     \
    } else
#elif GEN_VBYTES == 32
#define GEN_LS_CVT64(a)                                                                 \
    if (sizeof(REAL_) == 8) {                                                           \
        int w_;                                                                         \
        __m256d d_;                                                                     \
        memcpy(&w_, cn + (a), sizeof w_);                                               \
        d_ = _mm256_cvtepi32_pd(_mm_cvtepu8_epi32(                                      \
            _mm_and_si128(_mm_cvtsi32_si128(w_), _mm_set1_epi8((char)PS_OMP_ZL_COUNT)))); \
        memcpy(nf, &d_, sizeof d_);                                                     \
    } else
#else
#define GEN_LS_CVT64(a)
#endif
#if GEN_VBYTES >= 32
/* AVX2 and AVX-512: the bytes widened and converted as one vector (gcc 12
 * splits a loop of scalar conversions into half-width vectors) */
#define GEN_LS_PREP(a, n)                                                               \
    do {                                                                                \
        p_ = (a);                                                                       \
        if ((n) > 1) GEN_LS_CVT64(a) {                                                  \
            vb_ b_;                                                                     \
            vr_ f_;                                                                     \
            memcpy(&b_, cn + (a), sizeof b_);                                           \
            b_ &= (unsigned char)PS_OMP_ZL_COUNT;                                       \
            f_ = __builtin_convertvector(__builtin_convertvector(b_, vi_), vr_);        \
            memcpy(nf, &f_, sizeof f_);                                                 \
        } else                                                                          \
            nf[0] = (REAL_)(int)(cn[a] & PS_OMP_ZL_COUNT);                              \
    } while (0)
#else
#define GEN_LS_PREP(a, n)                                                               \
    do {                                                                                \
        long u_;                                                                        \
        p_ = (a);                                                                       \
        for (u_ = 0; u_ < (n); u_++)                                                    \
            nf[u_] = (REAL_)(int)(cn[(a) + u_] & PS_OMP_ZL_COUNT);                      \
    } while (0)
#endif
/*
 * Shifted rows (the AVX-512 variants): the neighbours in the centre's own row
 * (dk = dj = 0, |di| <= W) come from the row's vectors in registers instead
 * of loads that each span two cache lines. While a vector-aligned start a
 * has the row's vectors P (cells a-W..a-1), C (a..a+W-1) and N (a+W..a+2W-1)
 * readable, the vector at a is computed from them: the neighbour at di
 * is lanes W+di.. of P:C (di < 0) or di.. of C:N, the others are loads; s is
 * summed in the neighbours' order and each lane then gets the stencil's
 * sumcount, as GEN_LS_CELL does, so the bits are the same. P must lie in the
 * row (a >= W); N may run up to W - 1 cells past the row's end: a field row
 * is followed by other rows, a scratch row by other rows or the line past
 * the scratch (ps_omp_gen_tiling), and the lanes that would read cells past
 * the row are those of cells at or past i1, which are not stored. The row's
 * first vector, a last vector that overlaps, and rows shorter than W + r
 * cells take GEN_LS_CELL. GEN_IX_<n>(b) lists lanes b..b+n-1. AVX2 has no
 * two-source lane shift (AVX-512's vpermt2ps, valignd): its shifted vectors
 * took 1.13x the time of the loads (diffusion7, Zen 4, avx2 rows), so the
 * 256-bit variants keep the loads. The masked rows (stencils without the land-sum
 * form) keep them too: gcc 12 does not vectorise their point update over
 * neighbours held as vectors (hdiff ran 12x slower).
 */
#define GEN_IX_4(b) (b), (b) + 1, (b) + 2, (b) + 3
#define GEN_IX_8(b) GEN_IX_4(b), GEN_IX_4((b) + 4)
#define GEN_IX_16(b) GEN_IX_8(b), GEN_IX_8((b) + 8)
#if GEN_VBYTES == 64
#  define GEN_VSHIFT 1
#  define GEN_IX_f32 GEN_IX_16
#  define GEN_IX_f64 GEN_IX_8
#else
#  define GEN_VSHIFT 0
#endif
/* the neighbour at (dk, dj, di) of the vector at a_, as a vector: clamped
 * lane offsets keep the branch the description does not take well formed */
#define GEN_VL(di) ((di) < -W_ ? -W_ : (di) > 0 ? 0 : (di))
#define GEN_VR(di) ((di) > W_ ? W_ : (di) < 1 ? 1 : (di))
#define GEN_VNB(IX, dk, dj, di)                                                         \
    (((dk) == 0 && (dj) == 0 && (di) >= -W_ && (di) <= W_)                              \
         ? ((di) < 0 ? __builtin_shufflevector(P_, C_, IX(W_ + GEN_VL(di)))             \
                     : (di) == 0 ? C_ : __builtin_shufflevector(C_, N_, IX(GEN_VR(di)))) \
         : gen_vload_(nbr[q] + a_ + (di)))
#define GEN_VSUM_f32(dk, dj, di) S_ = S_ + GEN_VNB(GEN_IX_f32, dk, dj, di); q++;
#define GEN_VSUM_f64(dk, dj, di) S_ = S_ + GEN_VNB(GEN_IX_f64, dk, dj, di); q++;
/* the vectors at aligned starts a_ while P is in the row and the vector ends by i1_ */
#define GEN_LSV_RUN(NAME, SFX, CHK)                                                     \
    if (a_ >= W_ && a_ + W_ <= i1_) {                                                   \
        vr_ P_ = gen_vload_(c + a_ - W_), C_ = gen_vload_(c + a_), N_, S_, NF_, R_;     \
        for (; a_ + W_ <= i1_; a_ += W_) {                                              \
            int q = 0;                                                                  \
            N_ = gen_vload_(c + a_ + W_);                                               \
            S_ = (vr_){0};                                                              \
            PS_##NAME##_NEIGHBOURS(GEN_VSUM##SFX)                                       \
            GEN_LS_PREP(a_, W_);                                                        \
            memcpy(&NF_, nf, sizeof NF_);                                               \
            _Pragma("GCC ivdep")                                                        \
            for (t_ = 0; t_ < W_; t_++) {                                               \
                REAL_ ar[PS_STENCIL_NAR(NAME) + 1], v;                                  \
                i = a_ + t_;                                                            \
                q = 0;                                                                  \
                PS_##NAME##_ARRAYS(GEN_AR)                                              \
                v = ps_##NAME##_sumcount##SFX(C_[t_], S_[t_], NF_[t_], sc, ar);         \
                R_[t_] = NF_[t_] > (REAL_)0 ? v : C_[t_];                               \
            }                                                                           \
            memcpy(dst + a_, &R_, sizeof R_);                                           \
            if (CHK)                                                                    \
                VN_ = VN_ + (R_ - R_);                                                  \
            P_ = C_;                                                                    \
            C_ = N_;                                                                    \
        }                                                                               \
    }
/* GEN_CELLS_IN's vectors (the first at I0, the next at aligned starts, the
 * last ending at i1_) with the aligned ones in GEN_LSV_RUN where it can */
#define GEN_CELLS_LSV(NAME, SFX, REAL, CHK)                                             \
    do {                                                                                \
        enum { W_ = GEN_VBYTES / (int)sizeof(REAL) };                                   \
        const long o_ = (long)(((uintptr_t)dst / sizeof(REAL)) & (W_ - 1));             \
        long a_ = i0_, i, t_;                                                           \
        vr_ VN_ = (vr_){0};                                                             \
        if (i1_ - i0_ < W_) {                                                           \
            for (i = i0_, t_ = 0; i < i1_; i++) {                                       \
                GEN_LS_PREP(i, 1);                                                      \
                GEN_LS_CELL(NAME, SFX, CHK, GEN_ST_ROW);                                \
            }                                                                           \
            break;                                                                      \
        }                                                                               \
        for (;;) {                                                                      \
            GEN_LS_PREP(a_, W_);                                                        \
            _Pragma("GCC ivdep")                                                        \
            for (t_ = 0; t_ < W_; t_++) {                                               \
                i = a_ + t_;                                                            \
                GEN_LS_CELL(NAME, SFX, CHK, GEN_ST_ROW);                                \
            }                                                                           \
            if (a_ + W_ == i1_)                                                         \
                break;                                                                  \
            a_ += W_ - ((a_ + o_) & (W_ - 1)); /* the next aligned start */             \
            GEN_LSV_RUN(NAME, SFX, CHK)                                                 \
            if (a_ >= i1_)                                                              \
                break;                                                                  \
            if (a_ + W_ > i1_)                                                          \
                a_ = i1_ - W_; /* the last vector, overlapping */                       \
        }                                                                               \
        if (CHK)                                                                        \
            for (t_ = 0; t_ < W_; t_++)                                                 \
                nan_[t_] += VN_[t_];                                                    \
    } while (0)
#if GEN_VSHIFT
#  define GEN_LS_BODY(NAME, SFX, REAL)                                                  \
    if (rb->last)                                                                       \
        GEN_CELLS_LSV(NAME, SFX, REAL, 1);                                              \
    else                                                                                \
        GEN_CELLS_LSV(NAME, SFX, REAL, 0);
#else
#  define GEN_LS_BODY(NAME, SFX, REAL)                                                  \
    if (rb->last)                                                                       \
        GEN_CELLS_IN(REAL, dst, i0_, i1_, GEN_LS_PREP, GEN_NOP,                         \
                     GEN_LS_CELL(NAME, SFX, 1, GEN_ST_ROW));                            \
    else                                                                                \
        GEN_CELLS_IN(REAL, dst, i0_, i1_, GEN_LS_PREP, GEN_NOP,                         \
                     GEN_LS_CELL(NAME, SFX, 0, GEN_ST_ROW));
#endif
#define GEN_ROWS_LS(NAME, REAL, SFX)                                                    \
    GEN_ROWS_FN(glrows_##NAME##SFX, NAME, REAL, {                                       \
        typedef REAL REAL_;                                                             \
        typedef REAL vr_ __attribute__((vector_size(GEN_VBYTES)));                      \
        typedef unsigned char vb_                                                       \
            __attribute__((vector_size(GEN_VBYTES / sizeof(REAL))));                    \
        typedef int vi_ __attribute__((vector_size(GEN_VBYTES / sizeof(REAL) * sizeof(int)))); \
        REAL nf[GEN_VBYTES / sizeof(REAL)];                                             \
        long p_ = 0;                                                                    \
        (void)sizeof(vb_); (void)sizeof(vi_); (void)sizeof(vr_);                        \
        GEN_ROWS_NT(GEN_LS_PREP, GEN_LS_CELL(NAME, SFX, 1, GEN_ST_BUF))                 \
        { GEN_LS_BODY(NAME, SFX, REAL) }                                                \
    })

/* One tile: output rows [j0, j1) of every interior plane, T steps A -> B;
 * nonzero if a land-sum row wrote a NaN. A slot plane holds its level's
 * rows lo[l]..hi[l]-1, boundary rows (within r of a face) copied from A, so
 * every neighbour row of a plane comes from one buffer at one pitch. */
static int gen_tile(const gen_desc *d, const ps_omp_gen_sweep *s, const char *A, char *B,
                    long j0, long j1, int T, char *scr)
{
    const ps_box *b = &s->cfg->box;
    const long r = d->r, nz = (long)b->extent.nz, ny = (long)b->extent.ny,
               nx = (long)b->extent.nx;
    const size_t es = d->es, rowb = (size_t)nx * es, S = (size_t)(2 * d->rk + 1),
                 srowb = s->spitch * es, slotb = s->slot_rows * srowb;
    gen_rows rb;
    long lo[PS_TB_MAX + 1], hi[PS_TB_MAX + 1];
    long kk;
    int l, q, bad = 0;
    for (l = 1; l <= T; l++) {
        long h = (long)(T - l) * d->rj;
        lo[l] = j0 - h > 0 ? j0 - h : 0;
        hi[l] = j1 + h < ny ? j1 + h : ny;
    }
    lo[0] = 0;
    rb.i0 = r;
    rb.i1 = nx - r;
    rb.geo[2] = (long)b->origin[2];
    rb.geo[3] = (long)b->global.nz;
    rb.geo[4] = (long)b->global.ny;
    rb.geo[5] = (long)b->global.nx;
    for (kk = r; kk < nz - r + (long)(T - 1) * d->rk; kk++)
        for (l = 1; l <= T; l++) {
            const long k = kk - (long)(l - 1) * d->rk;
            const long r0 = lo[l] > r ? lo[l] : r;
            const long r1 = hi[l] < ny - r ? hi[l] : ny - r;
            const char *a = A + (size_t)k * (size_t)ny * rowb;
            char *dplane;
            long dlo;
            if (k < r || k >= nz - r)
                continue;
            if (l == T) {
                dplane = B + (size_t)k * (size_t)ny * rowb;
                dlo = 0;
                rb.dpitch = rowb;
            } else {
                long jb;
                dplane = scr + ((size_t)(l - 1) * S + (size_t)k % S) * slotb;
                dlo = lo[l];
                rb.dpitch = srowb;
                for (jb = lo[l]; jb < hi[l]; jb++) /* the slot's boundary rows: A's */
                    if (jb < r || jb >= ny - r)
                        memcpy(dplane + (size_t)(jb - dlo) * srowb, a + (size_t)jb * rowb,
                               rowb);
            }
            if (r1 <= r0)
                continue;
            /* each neighbour's (and the centre's) row r0 + dj: the field A
             * (level 0, a boundary plane) or the previous level's slot */
            for (q = 0; q <= d->nnb; q++) {
                const long kq = k + (q < d->nnb ? d->dk[q] : 0);
                const long jq = r0 + (q < d->nnb ? d->dj[q] : 0);
                if (l == 1 || kq < r || kq >= nz - r) {
                    rb.src[q] = A + ((size_t)kq * (size_t)ny + (size_t)jq) * rowb;
                    rb.pitch[q] = rowb;
                } else {
                    rb.src[q] = scr + ((size_t)(l - 2) * S + (size_t)kq % S) * slotb +
                                (size_t)(jq - lo[l - 1]) * srowb;
                    rb.pitch[q] = srowb;
                }
            }
            /* the count bytes (one a cell) never change with the level */
            rb.src[d->nnb + 1] =
                s->cnt ? (const char *)s->cnt + ((size_t)k * (size_t)ny + (size_t)r0) * nx
                       : NULL;
            rb.pitch[d->nnb + 1] = s->cnt ? nx : 0;
            rb.dst = dplane + (size_t)(r0 - dlo) * rb.dpitch;
            rb.nrows = r1 - r0;
            rb.geo[0] = (long)b->origin[0] + k;
            rb.geo[1] = (long)b->origin[1] + r0;
            rb.last = l == T;
            rb.nt = rb.last && s->nt && GEN_NT;
            bad |= d->rows(&rb, s->params);
        }
    if (s->nt) /* the streamed stores complete before the sweep's barrier */
        GEN_SFENCE();
    return bad;
}

/* The steps done: all, or those before a land-sum sweep that wrote a NaN
 * (that sweep is discarded: *s->cur is still its input). */
static long gen_run(const gen_desc *d, const ps_omp_gen_sweep *s)
{
    const ps_grid *g = &s->cfg->box.extent;
    const long r = d->r, nj = (long)g->ny - 2 * r;
    long done;
    if ((long)g->nz <= 2 * r || (long)g->ny <= 2 * r || (long)g->nx <= 2 * r)
        return s->nsteps; /* no interior cell: a step changes nothing */
    for (done = 0; done < s->nsteps;) {
        const int T = s->nsteps - done < s->tblock ? (int)(s->nsteps - done) : s->tblock;
        const char *A = *s->cur;
        char *B = *s->next;
        void *tmp;
        long q;
        int bad = 0;
#pragma omp parallel for schedule(static) num_threads(s->threads) reduction(| : bad)
        for (q = 0; q < (long)s->tiles; q++)
            bad |= gen_tile(d, s, A, B, r + q * nj / (long)s->tiles,
                            r + (q + 1) * nj / (long)s->tiles, T,
                            s->scratch[omp_get_thread_num()]);
        if (bad)
            return done;
        tmp = *s->cur;
        *s->cur = *s->next;
        *s->next = tmp;
        done += T;
    }
    return done;
}

/* the land-sum rows of the stencils that declare the form */
#define GEN_LS_F32(NAME) GEN_ROWS_LS(NAME, float, _f32)
#define GEN_LS_F64(NAME) GEN_ROWS_LS(NAME, double, _f64)
#define GEN_LS_OF(NAME) PS_##NAME##_LAND_SUM(GEN_LS_F32) PS_##NAME##_LAND_SUM(GEN_LS_F64)
PS_STENCIL_LIST(GEN_LS_OF)
#define GEN_LSREF_f32(NAME) glrows_##NAME##_f32,
#define GEN_LSREF_f64(NAME) glrows_##NAME##_f64,

#define GEN_STEP(NAME, REAL, SFX)                                                       \
    GEN_ROWS(NAME, REAL, SFX)                                                           \
    static long gen_##NAME##SFX(const ps_omp_gen_sweep *s)                              \
    {                                                                                   \
        static const int dk[] = {PS_##NAME##_NEIGHBOURS(GEN_DK) 0};                     \
        static const int dj[] = {PS_##NAME##_NEIGHBOURS(GEN_DJ) 0};                     \
        static const gen_rows_fn ls[] = {PS_##NAME##_LAND_SUM(GEN_LSREF##SFX) NULL};     \
        gen_desc d = {PS_##NAME##_RADIUS, PS_STENCIL_NNB(NAME), 0, 0, dk, dj,           \
                      grows_##NAME##SFX, sizeof(REAL)};                                  \
        d.rk = s->rk;                                                                   \
        d.rj = s->rj;                                                                   \
        if (s->cnt) {                                                                   \
            if (!ls[0])                                                                 \
                return 0; /* not a land-sum stencil: the caller never asks */          \
            d.rows = ls[0];                                                              \
        }                                                                               \
        return gen_run(&d, s);                                                          \
    }
#define GEN_F32(NAME) GEN_STEP(NAME, float, _f32)
#define GEN_F64(NAME) GEN_STEP(NAME, double, _f64)
PS_STENCIL_LIST(GEN_F32)
PS_STENCIL_LIST(GEN_F64)

/* a row gathers at most 62 neighbours (gen_tile's rp[]: them, the centre, the counts) */
#define GEN_NNB_OK(NAME) typedef char gen_nnb_##NAME[PS_STENCIL_NNB(NAME) < 63 ? 1 : -1];
PS_STENCIL_LIST(GEN_NNB_OK)

#define GEN_ONE(NAME) +1
#define GEN_ENTRY(NAME)                                                                 \
    {#NAME, PS_##NAME##_RADIUS, (0 PS_##NAME##_LAND_SUM(GEN_ONE)), GEN_NT,              \
     gen_##NAME##_f32, gen_##NAME##_f64},
static const ps_omp_generic PS_OMP_GEN_TABLE[] = {
    PS_STENCIL_LIST(GEN_ENTRY){NULL, 0, 0, 0, NULL, NULL}};

const ps_omp_generic *PS_OMP_GEN_LOOKUP(const char *name)
{
    const ps_omp_generic *g;
    for (g = PS_OMP_GEN_TABLE; g->name; g++)
        if (!strcmp(g->name, name))
            return g;
    return NULL;
}
