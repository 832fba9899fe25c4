/*
 * diffusion7's fast-path row kernels of the openmp backend, included by
 * ps_openmp_rows.c once per precision (that file is compiled once per
 * instruction set by build rule) with:
 *   PS_REAL       float or double
 *   PS_SUFFIX     _f32 / _f64 (names the shared kernel instantiation and,
 *                 appended, each row function: row_exact_f32, ...)
 *   ROW_ATTR      function attributes
 *   ROW_VBYTES    vector width of the target in bytes (16 or 32)
 *   ROW_STREAM    non-temporal copy of a computed chunk (see row_exact_nt)
 * and undefines PS_REAL, PS_SUFFIX and ROW_STREAM at its end, so
 * that the next precision can be defined and included.
 *
 * A row function updates the interior cells i = 1..nx-2 of one row (k, j):
 * dst and src point at cell (k, j, 0) of the output and input arrays. The
 * loop is branch-free so the compiler vectorises it (a NaN neighbour is
 * folded into the sum as +0.0 and into the count as 0, see diffusion7.h).
 */

#define ROW_NAME(x) PS_CAT(x, PS_SUFFIX)

/*
 * exact mode: the one shared definition, kernels/diffusion7.h.
 *
 * ROW_VECTORS(CELL) runs CELL(q) for q = 1..nx-2: the row is covered by whole
 * vectors of W cells (a fixed-count inner loop the compiler turns into one
 * vector operation per statement); the last vector is moved back to end
 * exactly at nx-2, overlapping the previous one. Recomputing a few cells is
 * harmless (src and dst differ) and avoids a scalar remainder loop, whose NaN
 * tests compile to unpredictable branches. Rows shorter than one vector use
 * the scalar loop. Shared by row_exact, row_exact_p and row_zl_p as the last
 * statement of their body (it returns: written so, the three compile to the
 * very instructions the three hand-written loops did). ROW_VECTORS_PREP runs
 * PREP(i, n) before the cells i..i+n-1 (n = W, or 1 in the scalar loop).
 */
#define ROW_NO_PREP(i0, n) ((void)0)
#define ROW_VECTORS(CELL) ROW_VECTORS_PREP(ROW_NO_PREP, CELL)
#define ROW_VECTORS_PREP(PREP, CELL)                                                      \
    do {                                                                                  \
        enum { W = ROW_VBYTES / (int)sizeof(PS_REAL) };                                   \
        size_t i = 1, q;                                                                  \
        if (nx - 2 >= (size_t)W) {                                                        \
            for (;;) {                                                                    \
                PREP(i, W);                                                               \
                for (q = i; q < i + W; q++)                                               \
                    CELL(q);                                                              \
                if (i + W == nx - 1)                                                      \
                    break;                                                                \
                i += W;                                                                   \
                if (i + W > nx - 1)                                                       \
                    i = nx - 1 - W; /* last vector, overlapping */                        \
            }                                                                             \
            return;                                                                       \
        }                                                                                 \
        for (; i < nx - 1; i++) {                                                         \
            PREP(i, 1);                                                                   \
            CELL(i);                                                                      \
        }                                                                                 \
    } while (0)

/* The exact cell update of cell q (src, km, kp, jm, jp as in row_exact_p). */
#define ROW_EXACT_CELL(q)                                                                 \
    (dst[q] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(src[q], km[q], kp[q], jm[q], jp[q],   \
                                                     src[(q) - 1], src[(q) + 1], d))

static void ROW_ATTR ROW_NAME(row_exact)(PS_REAL *restrict dst, const PS_REAL *restrict src,
                                         size_t plane, size_t nx, PS_REAL d)
{
    const PS_REAL *restrict km = src - plane;
    const PS_REAL *restrict kp = src + plane;
    const PS_REAL *restrict jm = src - nx;
    const PS_REAL *restrict jp = src + nx;
    ROW_VECTORS(ROW_EXACT_CELL);
}

/*
 * Streaming-store variants for grids much larger than the last-level cache:
 * the row is computed in chunks into an L1-resident buffer by the same loop,
 * then written with non-temporal stores (ROW_STREAM), which skip the
 * read-for-ownership of the destination: a DRAM-bound step then moves two
 * arrays' worth of bytes instead of three. Same arithmetic, same bits.
 */
#define ROW_CHUNK 512

static void ROW_ATTR ROW_NAME(row_exact_nt)(PS_REAL *restrict dst, const PS_REAL *restrict src,
                                            size_t plane, size_t nx, PS_REAL d)
{
    PS_REAL buf[ROW_CHUNK] __attribute__((aligned(64)));
    size_t i0, len;
    for (i0 = 1; i0 < nx - 1; i0 += len) {
        const PS_REAL *restrict s = src + i0;
        const PS_REAL *restrict km = s - plane;
        const PS_REAL *restrict kp = s + plane;
        const PS_REAL *restrict jm = s - nx;
        const PS_REAL *restrict jp = s + nx;
        const PS_REAL *restrict im = s - 1; /* s[q - 1] with q == 0 would wrap q - 1 */
        size_t q;
        len = (nx - 1 - i0 < ROW_CHUNK) ? nx - 1 - i0 : ROW_CHUNK;
        for (q = 0; q < len; q++)
            buf[q] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(s[q], km[q], kp[q], jm[q], jp[q],
                                                            im[q], s[q + 1], d);
        ROW_STREAM(dst + i0, buf, len);
    }
}

/*
 * exact mode with explicit plane pointers, for the temporal-blocking sweep
 * (ps_openmp.c, tblock_tile): km, src and kp point at cell (k-1, j, 0),
 * (k, j, 0) and (k+1, j, 0), which may live in different buffers (the full
 * field or a thread's rolling plane slots); rows j-1 and j+1 are src -/+
 * pitch (nx in the field, more in the slots, whose rows start on a cache
 * line). The cell loop is row_exact's (ROW_VECTORS of ROW_EXACT_CELL), so the
 * bits are the same.
 */
static void ROW_ATTR ROW_NAME(row_exact_p)(PS_REAL *restrict dst, const PS_REAL *restrict km,
                                           const PS_REAL *restrict src,
                                           const PS_REAL *restrict kp, size_t nx, size_t pitch,
                                           PS_REAL d)
{
    const PS_REAL *restrict jm = src - pitch;
    const PS_REAL *restrict jp = src + pitch;
    ROW_VECTORS(ROW_EXACT_CELL);
}
#undef ROW_EXACT_CELL

/*
 * exact mode on zeroed-land fields (ps_openmp.c, "zero-land"): land cells
 * hold +0.0 in the working fields and cnt holds, per cell, a byte whose
 * PS_OMP_ZL_COUNT bits are the number of ocean neighbours (ocean cells) or
 * 0 (land cells, flagged PS_OMP_ZL_LAND; ps_openmp_zeroland.c).
 * The neighbour sum is then a plain sum from +0.0 in the contract's order:
 * a land neighbour adds +0.0, the identity on a sum that can never be -0.0,
 * so s is bitwise the masked sum, and n is bitwise the masked count. Cells
 * with !(n > 0) (land and isolated ocean: 0) keep c. Pointers as
 * row_exact_p, cnt at cell (k, j, 0) of the count bytes; same
 * overlapping-vector loop, each vector's counts converted first into nf_ by
 * ROW_ZL_PREP as one vector (GCC vector extensions: converted cell by cell
 * inside the cell loop, or through a loop of its own, gcc 12 splits the
 * floats into half-width vectors or stalls on the array's store forwarding).
 */
typedef unsigned char ROW_NAME(zl_vb) __attribute__((vector_size(ROW_VBYTES / sizeof(PS_REAL))));
typedef int ROW_NAME(zl_vi)
    __attribute__((vector_size(ROW_VBYTES / sizeof(PS_REAL) * sizeof(int))));
typedef PS_REAL ROW_NAME(zl_vr) __attribute__((vector_size(ROW_VBYTES)));
#if ROW_VBYTES == 16 && defined(__SSE2__) && !defined(__AVX__)
/* SSE2 has no byte-to-int conversion: gcc goes through general registers; the
 * bytes are widened with unpacks instead (the low W lanes of one vector) */
#define ROW_ZL_WIDEN(i0)                                                                  \
    do {                                                                                  \
        const __m128i z_ = _mm_setzero_si128();                                           \
        int w_ = 0;                                                                       \
        __m128i x_;                                                                       \
        memcpy(&w_, cnt + (i0), sizeof nf_ / sizeof nf_[0]);                              \
        x_ = _mm_and_si128(_mm_cvtsi32_si128(w_), _mm_set1_epi8((char)PS_OMP_ZL_COUNT));  \
        x_ = _mm_unpacklo_epi16(_mm_unpacklo_epi8(x_, z_), z_);                           \
        ROW_ZL_STORE(nf_, x_);                                                            \
    } while (0)
#endif
#define ROW_ZL_PREP(i0, n)                                                                \
    do {                                                                                  \
        if ((n) > 1) {                                                                    \
            ROW_ZL_VECTOR(i0);                                                            \
        } else                                                                            \
            nf_[0] = (PS_REAL)(int)(cnt[i0] & PS_OMP_ZL_COUNT);                           \
    } while (0)
#ifdef ROW_ZL_WIDEN
#define ROW_ZL_VECTOR(i0) ROW_ZL_WIDEN(i0)
#else
#define ROW_ZL_VECTOR(i0)                                                                 \
    do {                                                                                  \
        {                                                                                 \
            ROW_NAME(zl_vb) b_;                                                           \
            ROW_NAME(zl_vr) v_;                                                           \
            memcpy(&b_, cnt + (i0), sizeof b_);                                           \
            b_ &= (unsigned char)PS_OMP_ZL_COUNT;                                         \
            v_ = __builtin_convertvector(__builtin_convertvector(b_, ROW_NAME(zl_vi)),    \
                                         ROW_NAME(zl_vr));                                \
            memcpy(nf_, &v_, sizeof v_);                                                  \
        }                                                                                 \
    } while (0)
#endif
#define ROW_ZL_CELL(q)                                                                    \
    do {                                                                                  \
        PS_REAL c_ = src[q], n_ = nf_[(q) - i];                                           \
        PS_REAL s_ = (PS_REAL)0 + km[q];                                                  \
        s_ = s_ + kp[q];                                                                  \
        s_ = s_ + jm[q];                                                                  \
        s_ = s_ + jp[q];                                                                  \
        s_ = s_ + src[(q) - 1];                                                           \
        s_ = s_ + src[(q) + 1];                                                           \
        PS_REAL r_ = PS_CAT(ps_diffusion7_update, PS_SUFFIX)(c_, s_, n_, d);              \
        dst[q] = (n_ > (PS_REAL)0) ? r_ : c_;                                             \
    } while (0)

static void ROW_ATTR ROW_NAME(row_zl_p)(PS_REAL *restrict dst, const PS_REAL *restrict km,
                                        const PS_REAL *restrict src,
                                        const PS_REAL *restrict kp,
                                        const unsigned char *restrict cnt, size_t nx,
                                        size_t pitch, PS_REAL d)
{
    const PS_REAL *restrict jm = src - pitch;
    const PS_REAL *restrict jp = src + pitch;
    PS_REAL nf_[ROW_VBYTES / sizeof(PS_REAL)];
    ROW_VECTORS_PREP(ROW_ZL_PREP, ROW_ZL_CELL);
}
#undef ROW_ZL_CELL
#undef ROW_ZL_PREP
#undef ROW_ZL_VECTOR
#undef ROW_ZL_WIDEN
#undef ROW_VECTORS_PREP
#undef ROW_NO_PREP
#undef ROW_VECTORS
#undef ROW_NAME
#undef ROW_CHUNK
#undef ROW_STREAM
#undef PS_REAL
#undef PS_SUFFIX
