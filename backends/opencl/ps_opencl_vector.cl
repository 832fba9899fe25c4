/*
 * The row kernels on explicit vectors, for one stencil: the program of the
 * stencil named by PS_VEC_NAME (ps_opencl_program.c, ps_ocl_program_vector)
 * appends to the shared program's files
 *     #define PS_VEC_NAME NAME
 *     the stencil's file again, with PS_REAL the vector type PS_VEC_VT and
 *     PS_SUFFIX _vec (its cell functions on PS_VEC_VW cells at once),
 *     PS_REAL and PS_SUFFIX back to the scalar type, and this file again.
 * In the shared program PS_VEC_NAME is undefined and this file is empty.
 *
 * Each kernel is one of ps_opencl_generic.cl's (same arguments, same cells)
 * with a row's interior cells in whole vectors of PS_VEC_VW cells (16
 * float32 or 8 float64: one AVX-512 register on a CPU device), the last one
 * moved back to end at the row's last interior cell (overlapped cells are
 * recomputed from the same inputs: out is never an input). Every lane does
 * the scalar row's operations in its order; FP_CONTRACT is off and the
 * division is correctly rounded in every lane as in the scalar one (in
 * double where the variant divides in double), so the bits are the scalar
 * kernel's. A row with fewer than PS_VEC_VW interior cells takes the scalar
 * row. PoCL vectorises the scalar row kernels across work-items, one row a
 * lane, with strided loads: the explicit vectors read each row contiguously.
 *   ps_gmv_NAME_row   ps_gen_NAME_row: the neighbours as loaded (NaN land),
 *                     ps_NAME_point_vec(c, nb, sc, ar);
 *   ps_glv_NAME_row   ps_gls_NAME_row (land-sum stencils): s the neighbours'
 *                     plain sum from +0.0 in the listed order, n the count
 *                     byte's count, ps_NAME_sumcount_vec(c, s, n, sc, ar)
 *                     kept where n > 0, else c; a NaN reported the same way,
 *                     and a launch after one that wrote a NaN leaves the
 *                     interior alone;
 *   ps_glv_NAME_wave  its steps fused (below).
 * The land-sum NaN test is one product a vector, nan_ = nan_ * u from +0.0:
 * NaN from then on once a lane of u is NaN or infinite (0 * inf is NaN),
 * else +-0.0 (on PoCL, against no test: a compare and any() a vector 1.8x
 * the time, the product 1.06x). An infinity thus also hands the launch to
 * the masked kernel, whose result is the reference's there as everywhere.
 */
#ifdef PS_VEC_NAME

#if defined(PS_REAL_IS_DOUBLE)
#define PS_VEC_VLOAD vload8
#define PS_VEC_VSTORE vstore8
#define PS_VEC_VCNT(p) convert_double8(vload8(0, (p)) & (uchar8)0x7f)
#define PS_VEC_VMASK long8
#else
#define PS_VEC_VLOAD vload16
#define PS_VEC_VSTORE vstore16
#define PS_VEC_VCNT(p) convert_float16(vload16(0, (p)) & (uchar16)0x7f)
#define PS_VEC_VMASK int16
#endif

/* description steps of the vector rows: a neighbour's cells; the same into
 * the sum; a scalar broadcast; an array's cells (arrays over i: loaded, else
 * the row's value broadcast) */
#define PS_GMV_NB(dk, dj, di) nb[q] = PS_VEC_VLOAD(0, rp[q] + (long)v + (di)); q++;
#define PS_GLV_SUM(dk, dj, di) s = s + PS_VEC_VLOAD(0, rp[q] + (long)v + (di)); q++;
#define PS_GLV_SC(name) scv[q] = (PS_VEC_VT)params[q]; q++;
#define PS_GLV_AR(name, A)                                                               \
    ar[q] = ((A)&PS_AXIS_I) ? PS_VEC_VLOAD(0, params + abase[q] + (long)v)              \
                            : (PS_VEC_VT)arow[q];                                        \
    q++;

/* ps_gmv_NAME_rowfn: cells r..nx-r-1 of one row (ps_gen_NAME_rowfn's
 * arguments) */
#define PS_GMV_FNS(NAME)                                                                 \
    static void ps_gmv_##NAME##_rowfn(__global PS_REAL *restrict o,                     \
                                      __global const PS_REAL *const *rp,                 \
                                      __global const PS_REAL *restrict params, uint nx,  \
                                      long gk, long gj, long oi, long gz, long gy,       \
                                      long gx)                                           \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS, i1 = nx - PS_##NAME##_RADIUS;                 \
        __global const PS_REAL *restrict c = rp[PS_STENCIL_NNB(NAME)];                   \
        PS_VEC_VT scv[PS_STENCIL_NSC(NAME) + 1];                                         \
        PS_REAL arow[PS_STENCIL_NAR(NAME) + 1];                                          \
        long abase[PS_STENCIL_NAR(NAME) + 1];                                            \
        long off = PS_STENCIL_NSC(NAME);                                                 \
        uint v;                                                                          \
        int q = 0;                                                                       \
        (void)gk; (void)gj; (void)oi; (void)gz; (void)gy; (void)gx; (void)off;           \
        (void)abase; (void)arow;                                                         \
        if (i1 < r + PS_VEC_VW) {                                                        \
            ps_gen_##NAME##_rowfn(o, rp, params, nx, gk, gj, oi, gz, gy, gx);            \
            return;                                                                      \
        }                                                                                \
        PS_##NAME##_SCALARS(PS_GLV_SC)                                                   \
        q = 0;                                                                           \
        PS_##NAME##_ARRAYS(PS_GEN_AROW)                                                  \
        for (v = r;; v += PS_VEC_VW) {                                                   \
            PS_VEC_VT nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1], x;     \
            if (v + PS_VEC_VW > i1)                                                      \
                v = i1 - PS_VEC_VW;                                                      \
            x = PS_VEC_VLOAD(0, c + v);                                                  \
            q = 0;                                                                       \
            PS_##NAME##_NEIGHBOURS(PS_GMV_NB)                                            \
            q = 0;                                                                       \
            PS_##NAME##_ARRAYS(PS_GLV_AR)                                                \
            PS_VEC_VSTORE(ps_##NAME##_point_vec(x, nb, scv, ar), 0, o + v);              \
            if (v + PS_VEC_VW == i1)                                                     \
                break;                                                                   \
        }                                                                                \
    }                                                                                    \
    __kernel void ps_gmv_##NAME##_row(PS_GEN_ARGS)                                       \
    PS_GEN_ROW_SHAPE(NAME, ps_gmv_##NAME##_rowfn(out + row, rp, params, nx,              \
                                                 ok + (long)k, oj + (long)j, oi, gz, gy, \
                                                 gx);)

/* ps_glv_NAME_rowfn: cells r..i1-1 of one row (ps_gls_NAME_rowfn's arguments);
 * nonzero if it wrote a NaN. ps_glv_NAME_rowfn_nochk: the same without the
 * test (0), for the wavefront's steps before its last. */
#define PS_GLV_ROWFN(NAME, FN, CHK)                                                      \
    static int ps_glv_##NAME##_##FN(PS_GLS_ROW_PARAMS)                                   \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        __global const PS_REAL *restrict c = rp[PS_STENCIL_NNB(NAME)];                   \
        PS_VEC_VT scv[PS_STENCIL_NSC(NAME) + 1];                                         \
        PS_REAL arow[PS_STENCIL_NAR(NAME) + 1];                                          \
        long abase[PS_STENCIL_NAR(NAME) + 1];                                            \
        long off = PS_STENCIL_NSC(NAME);                                                 \
        PS_VEC_VT nan_ = (PS_VEC_VT)((PS_REAL)0);                                        \
        uint v;                                                                          \
        int q = 0;                                                                       \
        (void)gk; (void)gj; (void)oi; (void)gz; (void)gy; (void)gx; (void)off;           \
        (void)abase; (void)arow;                                                         \
        if (i1 < r + PS_VEC_VW)                                                          \
            return ps_gls_##NAME##_rowfn(o, rp, cn, params, nx, gk, gj, oi, gz, gy, gx,  \
                                         i1);                                            \
        PS_##NAME##_SCALARS(PS_GLV_SC)                                                   \
        q = 0;                                                                           \
        PS_##NAME##_ARRAYS(PS_GEN_AROW)                                                  \
        for (v = r;; v += PS_VEC_VW) {                                                   \
            PS_VEC_VT s = (PS_VEC_VT)((PS_REAL)0), ar[PS_STENCIL_NAR(NAME) + 1], x, n, u; \
            if (v + PS_VEC_VW > i1)                                                      \
                v = i1 - PS_VEC_VW;                                                      \
            x = PS_VEC_VLOAD(0, c + v);                                                  \
            n = PS_VEC_VCNT(cn + v);                                                     \
            q = 0;                                                                       \
            PS_##NAME##_NEIGHBOURS(PS_GLV_SUM)                                           \
            q = 0;                                                                       \
            PS_##NAME##_ARRAYS(PS_GLV_AR)                                                \
            u = ps_##NAME##_sumcount_vec(x, s, n, scv, ar);                              \
            u = select(x, u, (PS_VEC_VMASK)isgreater(n, (PS_VEC_VT)((PS_REAL)0)));       \
            if (CHK)                                                                     \
                nan_ = nan_ * u;                                                         \
            PS_VEC_VSTORE(u, 0, o + v);                                                  \
            if (v + PS_VEC_VW == i1)                                                     \
                break;                                                                   \
        }                                                                                \
        return any(nan_ != nan_);                                                        \
    }
#define PS_GLV_FNS(NAME)                                                                 \
    PS_GLV_ROWFN(NAME, rowfn, 1)                                                         \
    PS_GLV_ROWFN(NAME, rowfn_nochk, 0)                                                   \
    __kernel void ps_glv_##NAME##_row(PS_GLS_ARGS)                                       \
    PS_GEN_ROW_SHAPE(NAME, if (ps_glv_##NAME##_rowfn(out + row, rp, cnt + row, params,  \
                                                     nx, ok + (long)k, oj + (long)j, oi, \
                                                     gz, gy, gx, *flag ? r : nx - r))    \
                               *flag = tag;)

/*
 * ps_glv_NAME_wave: T land-sum steps a launch as ps_gen_NAME_wave fuses the
 * masked ones (ps_opencl_generic.cl: the same tiles, ring and halo rows),
 * every row by ps_glv_NAME_rowfn with the count bytes of its cells. Only the
 * last step's rows are tested for NaN: an ocean cell that turns NaN stays
 * NaN in every later step (the land-sum contract: ps_NAME_sumcount is NaN
 * when c is; n == 0 keeps c) and the last step writes every interior cell.
 * A launch after one that wrote a NaN computes no interior cell. Arguments:
 * the row kernel's, then the scratch, T and tj.
 */
#define PS_GLV_WAVE(NAME)                                                                \
    PS_GEN_WAVE_TILE(NAME, ps_glv_##NAME##_wave_tile,                                    \
                     if (l == T) bad |= ps_glv_##NAME##_rowfn(o, rp, cnt + row, params,  \
                                                              nx, ok + k, oj + j, oi, gz, \
                                                              gy, gx, i1);               \
                     else ps_glv_##NAME##_rowfn_nochk(o, rp, cnt + row, params, nx,      \
                                                      ok + k, oj + j, oi, gz, gy, gx,    \
                                                      i1);,                              \
                     , __global const uchar *restrict cnt, const uint i1)                \
    __kernel void ps_glv_##NAME##_wave(PS_GLS_ARGS, __global PS_REAL *restrict scratch,  \
                                       const uint T, const uint tj)                      \
    {                                                                                    \
        const size_t w = get_global_id(0), nw = get_global_size(0);                      \
        const size_t hj = (size_t)tj + 2 * (size_t)(T - 1) * PS_##NAME##_RADIUS;         \
        const uint i1 = *flag ? PS_##NAME##_RADIUS : nx - PS_##NAME##_RADIUS;           \
        __global PS_REAL *ring = /* the work-item's */                                   \
            scratch + w * (T - 1) * (2 * PS_##NAME##_RADIUS + 1) * hj * nx;              \
        long j0;                                                                         \
        int bad = 0;                                                                     \
        for (j0 = (long)(w * tj); j0 < (long)ny; j0 += (long)(nw * tj))                  \
            bad |= ps_glv_##NAME##_wave_tile(in, out, params, nz, ny, nx, ok, oj, oi, gz, \
                                             gy, gx, ring, T, tj, j0, cnt, i1);          \
        if (bad)                                                                         \
            *flag = tag;                                                                 \
    }

/* every stencil's masked rows, a land-sum stencil's (PS_NAME_LAND_SUM) others;
 * PS_VEC_NAME expanded before the pasting */
#define PS_GLV_ALL(NAME) PS_GLV_FNS(NAME) PS_GLV_WAVE(NAME)
#define PS_VEC_FNS(NAME) PS_GMV_FNS(NAME) PS_##NAME##_LAND_SUM(PS_GLV_ALL)
#define PS_VEC_FNS_OF(NAME) PS_VEC_FNS(NAME)
PS_VEC_FNS_OF(PS_VEC_NAME)

#endif /* PS_VEC_NAME */
