/*
 * diffusion7's fast path: three tuned kernels around its cell update
 * ps_diffusion7_cell (kernels/diffusion7.h), used for diffusion7 unless the
 * config asks for the generic skeleton (ps_opencl_generic.cl), against which
 * they are validated bitwise. The plugin compiles this last in the program
 * (after kernels/ and ps_opencl_generic.cl) with -DPS_REAL=float|double
 * -DPS_SUFFIX=_f32|_f64; it includes nothing. Every cell of the output is
 * written: the outermost layer of the box and land are copies, the rest goes
 * through the cell update (which keeps NaN cells and isolated cells unchanged
 * by itself).
 *
 * The arguments are the generic kernels' (in, out, packed parameters, box
 * extents, origin, global grid), so the host treats every kernel alike;
 * diffusion7 reads only D = params[0] and needs neither origin nor global
 * grid (it has no coefficient arrays).
 *
 * ps_fast_diffusion7_ij: a 2-D range over (i, j); each work-item walks its
 * column along k, keeping the k-1, k and k+1 values in registers (each value
 * is loaded once from the k stream instead of three times).
 * ps_fast_diffusion7_ijk: a 3-D range, one work-item per cell.
 * ps_fast_diffusion7_row: a 2-D range over (j, k); each work-item does one
 * row along i (a loop a CPU compiler vectorises: the default on CPU devices).
 */

#define PS_FAST_D7_ARGS                                                                  \
    __global const PS_REAL *restrict in, __global PS_REAL *restrict out,                \
        __global const PS_REAL *restrict params, const uint nz, const uint ny,          \
        const uint nx, const long ok, const long oj, const long oi, const long gz,      \
        const long gy, const long gx

__kernel void ps_fast_diffusion7_ij(PS_FAST_D7_ARGS)
{
    const PS_REAL d = params[0];
    const uint i = (uint)get_global_id(0);
    const uint j = (uint)get_global_id(1);
    const size_t plane = (size_t)ny * nx;
    size_t p = (size_t)j * nx + i;
    uint k;
    PS_REAL km, c, kp;

    if (i >= nx || j >= ny)
        return;
    if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1 || nz < 3) {
        for (k = 0; k < nz; k++, p += plane)
            out[p] = in[p];
        return;
    }
    km = in[p];
    out[p] = km;
    p += plane;
    c = in[p];
    for (k = 1; k < nz - 1; k++, p += plane) {
        kp = in[p + plane];
        out[p] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(c, km, kp, in[p - nx], in[p + nx],
                                                       in[p - 1], in[p + 1], d);
        km = c;
        c = kp;
    }
    out[p] = c;
}

__kernel void ps_fast_diffusion7_ijk(PS_FAST_D7_ARGS)
{
    const PS_REAL d = params[0];
    const uint i = (uint)get_global_id(0);
    const uint j = (uint)get_global_id(1);
    const uint k = (uint)get_global_id(2);
    const size_t plane = (size_t)ny * nx;
    const size_t p = (size_t)k * plane + (size_t)j * nx + i;

    if (i >= nx || j >= ny || k >= nz)
        return;
    if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1)
        out[p] = in[p];
    else
        out[p] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(in[p], in[p - plane], in[p + plane],
                                                       in[p - nx], in[p + nx], in[p - 1],
                                                       in[p + 1], d);
}

/*
 * The start of a row kernel (2-D range over (j, k), row r of in, row o of
 * out): work-items past the box return; rows on a face of the box (and every
 * row when nx < 3) are copied whole and return.
 */
#define PS_ROW_EDGES(o, r)                                                               \
    do {                                                                                 \
        uint i_;                                                                         \
        if (j >= ny || k >= nz)                                                          \
            return;                                                                      \
        if (j == 0 || k == 0 || j == ny - 1 || k == nz - 1 || nx < 3) {                  \
            for (i_ = 0; i_ < nx; i_++)                                                  \
                o[i_] = r[i_];                                                           \
            return;                                                                      \
        }                                                                                \
    } while (0)

__kernel void ps_fast_diffusion7_row(PS_FAST_D7_ARGS)
{
    const PS_REAL d = params[0];
    const uint j = (uint)get_global_id(0);
    const uint k = (uint)get_global_id(1);
    const size_t plane = (size_t)ny * nx;
    __global const PS_REAL *r = in + (size_t)k * plane + (size_t)j * nx;
    __global PS_REAL *o = out + (size_t)k * plane + (size_t)j * nx;
    uint i;

    PS_ROW_EDGES(o, r);
    {
        __global const PS_REAL *rkm = r - plane, *rkp = r + plane, *rjm = r - nx, *rjp = r + nx;
        o[0] = r[0];
        for (i = 1; i < nx - 1; i++)
            o[i] = PS_CAT(ps_diffusion7_cell, PS_SUFFIX)(r[i], rkm[i], rkp[i], rjm[i], rjp[i],
                                                         r[i - 1], r[i + 1], d);
    }
    o[nx - 1] = r[nx - 1];
}

/*
 * Zero-land (exact mode on CPU devices, the row shape; ps_opencl_zeroland.c):
 * the working fields hold land as +0.0, and a count buffer holds one byte a
 * cell (a quarter of a float stream's traffic): an interior ocean cell's
 * number of ocean neighbours in the count bits PS_ZL_COUNT (0 for isolated
 * and box-face ocean cells); a land cell's PS_ZL_LAND and, from bit
 * PS_ZL_TSHIFT, the index of its original NaN (payload and all) in the table
 * of land's NaNs, its count bits 0. The neighbour sum is then a plain sum from +0.0 in the
 * contract's order: a land neighbour adds +0.0, the identity on a sum that
 * starts at +0.0 and so can never be -0.0 (an ocean -0.0 adds what the masked
 * sum adds), so s is bitwise the masked sum and n (an integer 0..6, converted
 * exactly) the masked count; the
 * update is the shared ps_diffusion7_update; cells with !(n > 0) keep their
 * value (land keeps +0.0, an isolated cell its value), exactly the cases in
 * which ps_diffusion7_cell keeps c. No compare-and-select per neighbour is
 * left in the loop. The mask is fixed only while no ocean cell can turn NaN,
 * which the host ensures (ps_opencl_zeroland.c).
 *
 * ps_zl_diffusion7_row: the row shape (2-D range over (j, k)), arguments of
 * the other kernels plus the count buffer.
 *
 * PS_ZL_ROW: one row off the box faces, o from r (rkm, rkp, rjm, rjp the rows
 * at k-1, k+1, j-1, j+1; cn the row's counts): the first and last cell copied,
 * the rest the zero-land update above. Used by ps_zl_diffusion7_row and by
 * each step of ps_zl_diffusion7_fused.
 */
/* the count byte's parts (the host's PS_OCL_ZL_* in ps_opencl.h are the same) */
#define PS_ZL_LAND 0x80u
#define PS_ZL_COUNT 0x07u
#define PS_ZL_TSHIFT 3
#define PS_ZL_TMAX 16 /* entries of the table of land's NaNs */
#define PS_ZL_ROW(o, r, rkm, rkp, rjm, rjp, cn)                                          \
    do {                                                                                 \
        uint i;                                                                          \
        o[0] = r[0];                                                                     \
        for (i = 1; i < nx - 1; i++) {                                                   \
            PS_REAL c_ = r[i], n_ = (PS_REAL)(cn[i] & PS_ZL_COUNT);                      \
            PS_REAL s_ = (PS_REAL)0 + rkm[i];                                            \
            s_ = s_ + rkp[i];                                                            \
            s_ = s_ + rjm[i];                                                            \
            s_ = s_ + rjp[i];                                                            \
            s_ = s_ + r[i - 1];                                                          \
            s_ = s_ + r[i + 1];                                                          \
            o[i] = (n_ > (PS_REAL)0) ? PS_CAT(ps_diffusion7_update, PS_SUFFIX)(c_, s_, n_, d) \
                                     : c_;                                               \
        }                                                                                \
        o[nx - 1] = r[nx - 1];                                                           \
    } while (0)

/*
 * PS_ZL_ROWV: PS_ZL_ROW on explicit vectors of PS_VW cells (16 float32 or 8
 * float64: one AVX-512 register on a CPU device), so the compiler need not
 * find the vectorisation itself: every lane computes PS_ZL_ROW's operations
 * in its order (the sum from +0.0 in the contract's order, t1 = n*c, t2 = s -
 * t1, t3 = D*t2, t4 = t3/n, c + t4, kept where n > 0; FP_CONTRACT is off and
 * the division correctly rounded), so the bits are PS_ZL_ROW's. The row is
 * covered by whole vectors, the last one moved back to end at cell nx-2
 * (overlapped cells are recomputed from the same inputs: o is never an
 * input); rows with fewer than PS_VW interior cells take PS_ZL_ROW. Not
 * used where the division is done in double (PS_OCL_DIV_IN_DOUBLE).
 */
#if !defined(PS_OCL_DIV_IN_DOUBLE)
#if defined(PS_REAL_IS_DOUBLE)
#define PS_VW 8
#define PS_VT double8
#define PS_VLOAD vload8
#define PS_VSTORE vstore8
#define PS_VCNT(p) convert_double8(vload8(0, (p)) & (uchar8)PS_ZL_COUNT)
#define PS_VMASK long8
#else
#define PS_VW 16
#define PS_VT float16
#define PS_VLOAD vload16
#define PS_VSTORE vstore16
#define PS_VCNT(p) convert_float16(vload16(0, (p)) & (uchar16)PS_ZL_COUNT)
#define PS_VMASK int16
#endif
#define PS_ZL_ROWV(o, r, rkm, rkp, rjm, rjp, cn)                                         \
    do {                                                                                 \
        if (nx - 2 < PS_VW) {                                                            \
            PS_ZL_ROW(o, r, rkm, rkp, rjm, rjp, cn);                                     \
            break;                                                                       \
        }                                                                                \
        o[0] = r[0];                                                                     \
        for (uint v_ = 1;; v_ += PS_VW) {                                                \
            PS_VT c_, n_, s_, t1_, t2_, t3_, t4_, u_;                                    \
            if (v_ + PS_VW > nx - 1)                                                     \
                v_ = nx - 1 - PS_VW;                                                     \
            c_ = PS_VLOAD(0, r + v_);                                                    \
            n_ = PS_VCNT(cn + v_);                                                       \
            s_ = (PS_VT)((PS_REAL)0) + PS_VLOAD(0, rkm + v_);                            \
            s_ = s_ + PS_VLOAD(0, rkp + v_);                                             \
            s_ = s_ + PS_VLOAD(0, rjm + v_);                                             \
            s_ = s_ + PS_VLOAD(0, rjp + v_);                                             \
            s_ = s_ + PS_VLOAD(0, r + v_ - 1);                                           \
            s_ = s_ + PS_VLOAD(0, r + v_ + 1);                                           \
            t1_ = n_ * c_;                                                               \
            t2_ = s_ - t1_;                                                              \
            t3_ = d * t2_;                                                               \
            t4_ = t3_ / n_;                                                              \
            u_ = c_ + t4_;                                                               \
            PS_VSTORE(select(c_, u_, (PS_VMASK)isgreater(n_, (PS_VT)((PS_REAL)0))), 0,    \
                      o + v_);                                                           \
            if (v_ + PS_VW == nx - 1)                                                    \
                break;                                                                   \
        }                                                                                \
        o[nx - 1] = r[nx - 1];                                                           \
    } while (0)
#else
#define PS_ZL_ROWV PS_ZL_ROW
#endif

__kernel void ps_zl_diffusion7_row(PS_FAST_D7_ARGS, __global const uchar *restrict cnt)
{
    const PS_REAL d = params[0];
    const uint j = (uint)get_global_id(0);
    const uint k = (uint)get_global_id(1);
    const size_t plane = (size_t)ny * nx;
    const size_t row = (size_t)k * plane + (size_t)j * nx;
    __global const PS_REAL *r = in + row;
    __global const uchar *cn = cnt + row;
    __global PS_REAL *o = out + row;

    PS_ROW_EDGES(o, r);
    PS_ZL_ROWV(o, r, (r - plane), (r + plane), (r - nx), (r + nx), cn);
}
#undef PS_ROW_EDGES

/*
 * ps_zl_diffusion7_fused: T zero-land steps in one launch (temporal blocking
 * in local memory). A work-group owns a tile of whole rows, TJ x TK output
 * rows (j, k) with all of i, and one work-item per row of the tile grown by a
 * T-deep halo: local size (TJ + 2T, TK + 2T), global range the tiles side by
 * side, so group (gj, gk) outputs rows j0 = gj*TJ.., k0 = gk*TK... The halo
 * tile is read into local buffer a (rows outside the box as +0.0); step s
 * (1..T) computes the rows at least s away from the halo tile's edge, from a
 * into b or b into a, and the last step writes the output rows to out. Each
 * row is computed exactly as ps_zl_diffusion7_row computes it (box-face rows
 * copied, the rest PS_ZL_ROW), so every
 * intermediate value is bitwise the value the unfused steps store; the halo
 * rows are recomputed by the neighbouring tiles. Arguments: the row kernel's,
 * then the two local buffers ((TJ + 2T) (TK + 2T) nx values each) and T.
 */
__kernel void ps_zl_diffusion7_fused(PS_FAST_D7_ARGS, __global const uchar *restrict cnt,
                                     __local PS_REAL *la, __local PS_REAL *lb, const uint T)
{
    const PS_REAL d = params[0];
    const uint hj = (uint)get_local_size(0), hk = (uint)get_local_size(1);
    const uint jj = (uint)get_local_id(0), kk = (uint)get_local_id(1);
    const uint tj = hj - 2 * T, tk = hk - 2 * T;
    /* the row's box coordinates, as signed: the halo reaches outside the box */
    const long j = (long)get_group_id(0) * tj - (long)T + (long)jj;
    const long k = (long)get_group_id(1) * tk - (long)T + (long)kk;
    const int inbox = j >= 0 && k >= 0 && j < (long)ny && k < (long)nz;
    const int face = j == 0 || k == 0 || j == (long)ny - 1 || k == (long)nz - 1 || nx < 3;
    const size_t plane = (size_t)ny * nx;
    const size_t lrow = ((size_t)kk * hj + jj) * nx, lplane = (size_t)hj * nx;
    const size_t grow = inbox ? (size_t)k * plane + (size_t)j * nx : 0;
    uint s, i;

    if (inbox)
        for (i = 0; i < nx; i++)
            la[lrow + i] = in[grow + i];
    else
        for (i = 0; i < nx; i++)
            la[lrow + i] = (PS_REAL)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (s = 1; s <= T; s++) {
        __local const PS_REAL *src = (s & 1) ? la : lb;
        __local PS_REAL *dst = (s & 1) ? lb : la;
        if (inbox && jj >= s && jj < hj - s && kk >= s && kk < hk - s) {
            __local const PS_REAL *r = src + lrow;
            /* row r into o (global on the last step, local before: two address
             * spaces, so two pointers and one body) */
#define PS_ZL_FUSED_ROW(o)                                                               \
    do {                                                                                 \
        if (face)                                                                        \
            for (i = 0; i < nx; i++)                                                     \
                o[i] = r[i];                                                             \
        else                                                                             \
            PS_ZL_ROW(o, r, (r - lplane), (r + lplane), (r - nx), (r + nx), (cnt + grow)); \
    } while (0)
            if (s == T) {
                __global PS_REAL *o = out + grow;
                PS_ZL_FUSED_ROW(o);
            } else {
                __local PS_REAL *o = dst + lrow;
                PS_ZL_FUSED_ROW(o);
            }
#undef PS_ZL_FUSED_ROW
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/*
 * ps_zl_diffusion7_wave: T zero-land steps in one launch as a wavefront along
 * k, the openmp backend's fused sweep, for CPU devices: tiles of TJ output
 * rows j (all of i, all planes); work-item w of W walks tiles w, w + W, ...
 * alone, one after another (no barrier: a work-item is a CPU thread's whole
 * share; each row on vectors, PS_ZL_ROWV, as in ps_zl_diffusion7_row), so
 * the scratch is the work-items' (W of them), not the tiles'. For kk = 1..,
 * level l = 1..T computes plane k = kk-(l-1) of step l from planes k-1..k+1
 * of step l-1 (step 0 and the box's face planes: in, which never change);
 * level l covers the tile's rows grown by T-l halo rows each side (clipped to
 * the box), so it reads only rows level l-1 made. Steps 1..T-1 live in the
 * work-item's part of the scratch buffer, three rolling planes of TJ+2(T-1)
 * rows per step (plane k overwrites plane k-3, which no step still needs);
 * step T goes to out, and the face planes are copied to out. Each row is
 * computed as ps_zl_diffusion7_row computes it (face rows copied, the rest
 * PS_ZL_ROWV), so every value is bitwise the unfused steps' value. Needs nz,
 * ny, nx >= 3 (the host's check). Arguments: the row kernel's, then the
 * scratch buffer (W x (T-1) x 3 x (TJ+2(T-1)) x nx values), T, TJ.
 */
/* one tile of ps_zl_diffusion7_wave: output rows j0.. (TJ, clipped to the box) */
static inline void ps_zl_wave_tile(__global const PS_REAL *restrict in,
                                   __global PS_REAL *restrict out,
                                   __global const uchar *restrict cnt,
                                   __global PS_REAL *restrict ring, const PS_REAL d,
                                   const uint nz, const uint ny, const uint nx, const uint T,
                                   const uint tj, const long j0)
{
    const uint hj = tj + 2 * (T - 1);
    const long jlo = j0 - (long)(T - 1); /* ring row 0 */
    const size_t plane = (size_t)ny * nx, splane = (size_t)hj * nx;
    const long kend = (long)nz - 2 + (long)T;
    long kk, j;
    uint l, i;

    /* the face planes of the output: copies */
    for (j = j0; j < j0 + (long)tj && j < (long)ny; j++)
        for (i = 0; i < nx; i++) {
            out[(size_t)j * nx + i] = in[(size_t)j * nx + i];
            out[(size_t)(nz - 1) * plane + (size_t)j * nx + i] =
                in[(size_t)(nz - 1) * plane + (size_t)j * nx + i];
        }
    for (kk = 1; kk < kend; kk++) {
        for (l = 1; l <= T; l++) {
            const long k = kk - (long)(l - 1);
            long ja = j0 - (long)(T - l), jb = j0 + (long)tj + (long)(T - l);
            if (k < 1 || k > (long)nz - 2)
                continue;
            if (ja < 0)
                ja = 0;
            if (jb > (long)ny)
                jb = (long)ny;
            for (j = ja; j < jb; j++) {
                /* row j of step L, plane K */
#define PS_WAVE_ROW(L, K)                                                                \
    (((L) == 0 || (K) == 0 || (K) == (long)nz - 1)                                       \
         ? in + (size_t)(K) * plane + (size_t)j * nx                                     \
         : ring + ((size_t)((L) - 1) * 3 + (size_t)((K) % 3)) * splane +                 \
               (size_t)(j - jlo) * nx)
                __global const PS_REAL *r = PS_WAVE_ROW(l - 1, k);
                __global const PS_REAL *rkm = PS_WAVE_ROW(l - 1, k - 1);
                __global const PS_REAL *rkp = PS_WAVE_ROW(l - 1, k + 1);
#undef PS_WAVE_ROW
                /* rows j-1, j+1 of the same plane are nx away (field or ring) */
                __global PS_REAL *o =
                    l == T ? out + (size_t)k * plane + (size_t)j * nx
                           : ring + ((size_t)(l - 1) * 3 + (size_t)(k % 3)) * splane +
                                 (size_t)(j - jlo) * nx;
                if (j == 0 || j == (long)ny - 1)
                    for (i = 0; i < nx; i++)
                        o[i] = r[i];
                else
                    PS_ZL_ROWV(o, r, rkm, rkp, (r - nx), (r + nx),
                               (cnt + (size_t)k * plane + (size_t)j * nx));
            }
        }
    }
}

__kernel void ps_zl_diffusion7_wave(PS_FAST_D7_ARGS, __global const uchar *restrict cnt,
                                    __global PS_REAL *restrict scratch, const uint T,
                                    const uint tj)
{
    const size_t w = get_global_id(0), nw = get_global_size(0);
    __global PS_REAL *ring =
        scratch + w * (T - 1) * 3 * (size_t)(tj + 2 * (T - 1)) * nx; /* the work-item's */
    long j0;
    for (j0 = (long)(w * tj); j0 < (long)ny; j0 += (long)(nw * tj))
        ps_zl_wave_tile(in, out, cnt, ring, params[0], nz, ny, nx, T, tj, j0);
}
#undef PS_ZL_ROW

/*
 * The zero-land conversions, each a 3-D range over a block of the box
 * (extents ck x cj x ci at origin k0, j0, i0; i fastest), given the uploaded
 * region R too (rk0.., rck..). A region upload runs mark, count and convert;
 * a whole one count (its mask the field itself) and convert.
 * ps_zl_diffusion7_mark, over R grown by a cell: m[p] = the cell as uploaded
 * (in R), else NaN for land and +0.0 for ocean (the count bytes' flag): the
 * land mask of the grown block, in a spare field, before R's land changes.
 * ps_zl_diffusion7_count, over the same block: a land cell of R gets
 * PS_ZL_LAND and its NaN's table index (the host put every NaN of R in tab),
 * an ocean cell its ocean neighbours (0 on the box faces), read from m inside
 * the block and from the count bytes' flag outside it (bytes this kernel does
 * not write); land outside R keeps its byte.
 * ps_zl_diffusion7_convert, over R: land (NaN) to +0.0.
 * ps_zl_diffusion7_restore: out[p] = land's NaN for land, a[p] otherwise
 * (out may be a: a download in place, or the switch back to NaN land).
 */
#define PS_ZL_REGION_ARGS                                                                \
    const uint nz, const uint ny, const uint nx, const uint k0, const uint j0,           \
        const uint i0, const uint ck, const uint cj, const uint ci, const uint rk0,      \
        const uint rj0, const uint ri0, const uint rck, const uint rcj, const uint rci
#define PS_ZL_REGION_INDEX                                                               \
    const uint i = (uint)get_global_id(0), j = (uint)get_global_id(1),                   \
               k = (uint)get_global_id(2);                                               \
    const size_t plane = (size_t)ny * nx;                                                \
    const size_t p = (size_t)(k0 + k) * plane + (size_t)(j0 + j) * nx + (i0 + i);        \
    if (i >= ci || j >= cj || k >= ck)                                                   \
        return
/* is cell (gk, gj, gi) in the region R? in the block? */
#define PS_ZL_IN_R(gk, gj, gi)                                                           \
    ((gk) >= rk0 && (gk) < rk0 + rck && (gj) >= rj0 && (gj) < rj0 + rcj && (gi) >= ri0 &&  \
     (gi) < ri0 + rci)
#define PS_ZL_IN_B(gk, gj, gi)                                                           \
    ((gk) >= k0 && (gk) < k0 + ck && (gj) >= j0 && (gj) < j0 + cj && (gi) >= i0 &&        \
     (gi) < i0 + ci)
#if defined(PS_REAL_IS_DOUBLE)
#define PS_ZL_BITS(v) as_ulong(v)
#else
#define PS_ZL_BITS(v) as_uint(v)
#endif

__kernel void ps_zl_diffusion7_mark(__global const PS_REAL *restrict a,
                                    __global const uchar *restrict cnt,
                                    __global PS_REAL *restrict m, PS_ZL_REGION_ARGS)
{
    uint gk, gj, gi;
    PS_ZL_REGION_INDEX;
    gk = k0 + k;
    gj = j0 + j;
    gi = i0 + i;
    m[p] = PS_ZL_IN_R(gk, gj, gi) ? a[p] : (cnt[p] & PS_ZL_LAND) ? (PS_REAL)NAN : (PS_REAL)0;
}

__kernel void ps_zl_diffusion7_count(__global const PS_REAL *m, __global const PS_REAL *a,
                                     __global uchar *cnt, __global const PS_REAL *restrict tab,
                                     const uint ntab, PS_ZL_REGION_ARGS)
{
    uchar n = 0;
    uint gk, gj, gi, t;
    PS_ZL_REGION_INDEX;
    gk = k0 + k;
    gj = j0 + j;
    gi = i0 + i;
    if (m[p] != m[p]) {
        if (PS_ZL_IN_R(gk, gj, gi)) {
            for (t = 0; t + 1 < ntab && PS_ZL_BITS(a[p]) != PS_ZL_BITS(tab[t]); t++)
                ;
            cnt[p] = (uchar)(PS_ZL_LAND | (t << PS_ZL_TSHIFT));
        }
        return;
    }
    if (gk > 0 && gj > 0 && gi > 0 && gk + 1 < nz && gj + 1 < ny && gi + 1 < nx) {
        /* neighbour q: land from m in the block, else from its byte's flag */
#define PS_ZL_OCEAN(q, qk, qj, qi)                                                       \
    (PS_ZL_IN_B(qk, qj, qi) ? m[q] == m[q] : !(cnt[q] & PS_ZL_LAND))
        n += PS_ZL_OCEAN(p - plane, gk - 1, gj, gi) ? 1 : 0;
        n += PS_ZL_OCEAN(p + plane, gk + 1, gj, gi) ? 1 : 0;
        n += PS_ZL_OCEAN(p - nx, gk, gj - 1, gi) ? 1 : 0;
        n += PS_ZL_OCEAN(p + nx, gk, gj + 1, gi) ? 1 : 0;
        n += PS_ZL_OCEAN(p - 1, gk, gj, gi - 1) ? 1 : 0;
        n += PS_ZL_OCEAN(p + 1, gk, gj, gi + 1) ? 1 : 0;
#undef PS_ZL_OCEAN
    }
    cnt[p] = n;
}

__kernel void ps_zl_diffusion7_convert(__global PS_REAL *restrict a, PS_ZL_REGION_ARGS)
{
    PS_REAL v;
    PS_ZL_REGION_INDEX;
    v = a[p];
    a[p] = (v != v) ? (PS_REAL)0 : v;
}

__kernel void ps_zl_diffusion7_restore(__global const PS_REAL *a, __global const uchar *cnt,
                                       __global const PS_REAL *restrict tab,
                                       __global PS_REAL *out, PS_ZL_REGION_ARGS)
{
    uchar b;
    PS_ZL_REGION_INDEX;
    b = cnt[p];
    out[p] = (b & PS_ZL_LAND) ? tab[(b >> PS_ZL_TSHIFT) & (PS_ZL_TMAX - 1)] : a[p];
}
#undef PS_ZL_REGION_ARGS
#undef PS_ZL_REGION_INDEX
#undef PS_ZL_IN_R
#undef PS_ZL_IN_B
#undef PS_ZL_BITS
