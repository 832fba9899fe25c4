/*
 * The generic kernels: every stencil of PS_STENCIL_LIST (kernels/ps_stencils.h)
 * in the loop skeleton every backend shares. The plugin compiles this after
 * kernels/ps_kernel_defs.h, every stencil file, ps_stencils.h and
 * ps_skeleton.h, as one program, with -DPS_REAL=float|double
 * -DPS_SUFFIX=_f32|_f64; it includes nothing and names no stencil.
 *
 * For each stencil NAME, three kernels, one per range shape (the host picks
 * one as for the fast path, backends/opencl/ps_opencl.c), and a fused one:
 *   ps_gen_NAME_row  2-D range over (j, k), each work-item one row along i
 *                    (the default on CPU devices): one pointer per
 *                    neighbour row, the scalars and the coefficient arrays
 *                    over axes without i read once per row
 *                    (ps_gen_NAME_rowfn), a contiguous loop along i;
 *   ps_gen_NAME_wave T steps per launch as a wavefront along k (the openmp
 *                    backend's fused sweep, radius-aware): tiles of tj rows
 *                    j, work-item w of W walking tiles w, w + W, ... one
 *                    after another, each plane by plane; for kk, level
 *                    l = 1..T computes plane k = kk - (l-1) R of step l from
 *                    planes k-R..k+R of step l-1 (R the radius; step 0 and
 *                    every cell within R of a face of the box: in, which a
 *                    step never changes); level l covers the tile's rows
 *                    grown by (T-l) R halo rows each side, so it reads only
 *                    rows level l-1 made. Steps 1..T-1 live in the
 *                    work-item's part of the scratch buffer (the W
 *                    work-items', not the tiles'), 2R+1 rolling
 *                    planes of tj + 2 (T-1) R rows per step (plane k
 *                    overwrites plane k-2R-1, which no level still needs);
 *                    step T goes to out. Every row is ps_gen_NAME_rowfs's
 *                    (rowfn's cells in strips), so every value is the
 *                    unfused steps' value bitwise.
 *                    Arguments: the others', then the scratch (W x (T-1)
 *                    x (2R+1) x (tj + 2 (T-1) R) x nx values), T, tj;
 *   ps_gen_NAME_ij   2-D range over (i, j), each work-item one column along k
 *                    (the default elsewhere: consecutive work-items read
 *                    consecutive i);
 *   ps_gen_NAME_ijk  3-D range, one cell per work-item.
 * Every cell of the output is written: a cell closer than PS_NAME_RADIUS to a
 * face of the box is copied, every other cell gets ps_NAME_apply<SUFFIX>
 * (kernels/ps_skeleton.h), which gathers the neighbours in the order the
 * stencil lists them, reads the kernel scalars and the coefficient arrays at
 * the cell's global coordinates (box origin + local index, in the global grid
 * gz x gy x gx) from the packed parameter block, and calls the stencil's cell
 * function. Land and isolated cells are kept by the cell function itself.
 *
 * Arguments of every kernel (the fast-path kernels of ps_opencl_diffusion7.cl
 * take the same): in, out, the packed parameters (core/ps_plugin.h,
 * ps_params_pack()), the box extents nz, ny, nx, its origin ok, oj, oi and the
 * global grid gz, gy, gx.
 */

PS_STENCIL_LIST(PS_SKELETON_DEFINE)

#define PS_GEN_ARGS                                                                      \
    __global const PS_REAL *restrict in, __global PS_REAL *restrict out,                 \
        __global const PS_REAL *restrict params, const uint nz, const uint ny,           \
        const uint nx, const long ok, const long oj, const long oi, const long gz,       \
        const long gy, const long gx

/* the new value of stored cell (k, j, i) at linear index p: the skeleton's update */
#define PS_GEN_APPLY(NAME, p, k, j, i)                                                   \
    PS_CAT(ps_##NAME##_apply, PS_SUFFIX)(in, (long)(p), (long)plane, (long)nx, params,   \
                                         ok + (long)(k), oj + (long)(j), oi + (long)(i), \
                                         gz, gy, gx)

/* description steps of ps_gen_NAME_rowfn: scalars; an array's row value
 * (arrays over i: their row offset); a neighbour */
#define PS_GEN_SC(name) sc[q] = params[q]; q++;
#define PS_GEN_AROW(name, A)                                                             \
    abase[q] = off + PS_SK_AXIDX(A, gk, gj, oi, gy, gx);                                 \
    arow[q] = params[((A)&PS_AXIS_I) ? 0 : abase[q]];                                    \
    off += PS_SK_AXLEN(A, gz, gy, gx);                                                   \
    q++;
#define PS_GEN_AR(name, A)                                                               \
    ar[q] = ((A)&PS_AXIS_I) ? params[abase[q] + (long)i] : arow[q];                      \
    q++;
#define PS_GEN_NB(dk, dj, di) nb[q] = rp[q][(long)i + (di)]; q++;
/* cells per strip of ps_gen_NAME_rowfs */
#define PS_GEN_VW 16

/*
 * ps_gen_NAME_rowfn: cells r..nx-r-1 of one row: o[i] from rp[q], the row of
 * neighbour q (its (dk, dj) applied, not di), and rp[NNB], the centre row,
 * at global row (gk, gj) with the row's first cell at global column oi.
 * ps_gen_NAME_rowfs: the same in strips of PS_GEN_VW cells computed into a
 * private array before they are stored, which PoCL vectorises where a
 * work-item walks many rows alone (the wavefront: 5-7x faster than rowfn
 * there); the row kernel keeps rowfn, which PoCL vectorises across
 * work-items (strips measured 1.3x slower there). Same cells, same bits.
 */
#define PS_GEN_ROWFN(NAME, FN, STRIPS)                                                   \
    static void ps_gen_##NAME##_##FN(__global PS_REAL *restrict o,                      \
                                      __global const PS_REAL *const *rp,                 \
                                      __global const PS_REAL *restrict params, uint nx,  \
                                      long gk, long gj, long oi, long gz, long gy,       \
                                      long gx)                                           \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        __global const PS_REAL *restrict c = rp[PS_STENCIL_NNB(NAME)];                   \
        PS_REAL sc[PS_STENCIL_NSC(NAME) + 1], arow[PS_STENCIL_NAR(NAME) + 1];            \
        long abase[PS_STENCIL_NAR(NAME) + 1];                                            \
        long off = PS_STENCIL_NSC(NAME);                                                 \
        uint i;                                                                          \
        int q = 0;                                                                       \
        (void)gk; (void)gj; (void)oi; (void)gz; (void)gy; (void)gx; (void)off;           \
        (void)abase; (void)arow;                                                         \
        PS_##NAME##_SCALARS(PS_GEN_SC)                                                   \
        q = 0;                                                                           \
        PS_##NAME##_ARRAYS(PS_GEN_AROW)                                                  \
        i = r;                                                                           \
        for (; STRIPS && i + PS_GEN_VW <= nx - r; i += PS_GEN_VW) {                      \
            PS_REAL v[PS_GEN_VW];                                                        \
            const uint i0 = i;                                                           \
            for (uint l = 0; l < PS_GEN_VW; l++) {                                       \
                PS_REAL nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];      \
                i = i0 + l;                                                              \
                q = 0;                                                                   \
                PS_##NAME##_NEIGHBOURS(PS_GEN_NB)                                        \
                q = 0;                                                                   \
                PS_##NAME##_ARRAYS(PS_GEN_AR)                                            \
                v[l] = PS_CAT(ps_##NAME##_point, PS_SUFFIX)(c[i], nb, sc, ar);           \
            }                                                                            \
            for (uint l = 0; l < PS_GEN_VW; l++)                                         \
                o[i0 + l] = v[l];                                                        \
            i = i0;                                                                      \
        }                                                                                \
        for (; i < nx - r; i++) {                                                        \
            PS_REAL nb[PS_STENCIL_NNB(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];          \
            q = 0;                                                                       \
            PS_##NAME##_NEIGHBOURS(PS_GEN_NB)                                            \
            q = 0;                                                                       \
            PS_##NAME##_ARRAYS(PS_GEN_AR)                                                \
            o[i] = PS_CAT(ps_##NAME##_point, PS_SUFFIX)(c[i], nb, sc, ar);               \
        }                                                                                \
    }
#define PS_GEN_ROWFNS(NAME) PS_GEN_ROWFN(NAME, rowfn, 0) PS_GEN_ROWFN(NAME, rowfs, 1)
PS_STENCIL_LIST(PS_GEN_ROWFNS)

/* list step: the row of neighbour q of row (k, j) of the field at base */
#define PS_GEN_RP(dk, dj, di)                                                            \
    rp[q++] = in + (size_t)((long)k + (dk)) * plane + (size_t)((long)j + (dj)) * nx;

/* whether index x along an axis of n cells is at least r away from both faces */
#define PS_GEN_INNER(x, n, r) ((x) >= (r) && (x) + (r) < (n))

/*
 * The three range shapes every step kernel shares (generic and land-sum): the
 * work-item's cells, the copies of the cells within r of a face, and around
 * them the interior, which the caller gives. STOP: a launch-wide reason to
 * return at once (0: none).
 *   PS_GEN_ROW_SHAPE: row (j, k); INTERIOR sees rp (the neighbour rows and,
 *     last, the centre row), row, j, k and does cells r..nx-r-1;
 *   PS_GEN_IJ_SHAPE: column (i, j); DECL declares what CELL and AFTER share,
 *     CELL does interior plane k (p its cell), AFTER runs after the column;
 *   PS_GEN_IJK_SHAPE: cell (i, j, k); CELL does interior cell p.
 */
#define PS_GEN_ROW_SHAPE(NAME, INTERIOR)                                                 \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint j = (uint)get_global_id(0);                                           \
        const uint k = (uint)get_global_id(1);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t row = (size_t)k * plane + (size_t)j * nx;                           \
        uint i;                                                                          \
        if (j >= ny || k >= nz)                                                          \
            return;                                                                      \
        if (!PS_GEN_INNER(k, nz, r) || !PS_GEN_INNER(j, ny, r) || nx < 2 * r + 1) {      \
            for (i = 0; i < nx; i++)                                                     \
                out[row + i] = in[row + i];                                              \
            return;                                                                      \
        }                                                                                \
        for (i = 0; i < r; i++)                                                          \
            out[row + i] = in[row + i];                                                  \
        {                                                                                \
            __global const PS_REAL *rp[PS_STENCIL_NNB(NAME) + 1];                        \
            int q = 0;                                                                   \
            PS_##NAME##_NEIGHBOURS(PS_GEN_RP)                                            \
            rp[q] = in + row;                                                            \
            INTERIOR                                                                     \
        }                                                                                \
        for (i = nx - r; i < nx; i++)                                                    \
            out[row + i] = in[row + i];                                                  \
    }
#define PS_GEN_IJ_SHAPE(NAME, STOP, DECL, CELL, AFTER)                                   \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint i = (uint)get_global_id(0);                                           \
        const uint j = (uint)get_global_id(1);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t col = (size_t)j * nx + i;                                           \
        uint k;                                                                          \
        DECL                                                                             \
        if (i >= nx || j >= ny || STOP)                                                  \
            return;                                                                      \
        if (!PS_GEN_INNER(i, nx, r) || !PS_GEN_INNER(j, ny, r) || nz < 2 * r + 1) {      \
            for (k = 0; k < nz; k++)                                                     \
                out[col + k * plane] = in[col + k * plane];                              \
            return;                                                                      \
        }                                                                                \
        for (k = 0; k < r; k++)                                                          \
            out[col + k * plane] = in[col + k * plane];                                  \
        for (k = r; k < nz - r; k++) {                                                   \
            const size_t p = col + k * plane;                                            \
            CELL                                                                         \
        }                                                                                \
        for (k = nz - r; k < nz; k++)                                                    \
            out[col + k * plane] = in[col + k * plane];                                  \
        AFTER                                                                            \
    }
#define PS_GEN_IJK_SHAPE(NAME, STOP, CELL)                                               \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        const uint i = (uint)get_global_id(0);                                           \
        const uint j = (uint)get_global_id(1);                                           \
        const uint k = (uint)get_global_id(2);                                           \
        const size_t plane = (size_t)ny * nx;                                            \
        const size_t p = (size_t)k * plane + (size_t)j * nx + i;                         \
        if (i >= nx || j >= ny || k >= nz || STOP)                                       \
            return;                                                                      \
        if (PS_GEN_INNER(i, nx, r) && PS_GEN_INNER(j, ny, r) && PS_GEN_INNER(k, nz, r)) { \
            CELL                                                                         \
        } else                                                                           \
            out[p] = in[p];                                                              \
    }

#define PS_GEN_KERNELS(NAME)                                                             \
    __kernel void ps_gen_##NAME##_row(PS_GEN_ARGS)                                       \
    PS_GEN_ROW_SHAPE(NAME, ps_gen_##NAME##_rowfn(out + row, rp, params, nx,              \
                                                 ok + (long)k, oj + (long)j, oi, gz, gy, \
                                                 gx);)                                   \
    __kernel void ps_gen_##NAME##_ij(PS_GEN_ARGS)                                        \
    PS_GEN_IJ_SHAPE(NAME, 0, , out[p] = PS_GEN_APPLY(NAME, p, k, j, i);, )               \
    __kernel void ps_gen_##NAME##_ijk(PS_GEN_ARGS)                                       \
    PS_GEN_IJK_SHAPE(NAME, 0, out[p] = PS_GEN_APPLY(NAME, p, k, j, i);)

PS_STENCIL_LIST(PS_GEN_KERNELS)

/*
 * The land-sum kernels of a stencil whose PS_NAME_LAND_SUM list names it
 * (kernels/ps_skeleton.h): ps_gls_NAME_row, _ij and _ijk, the generic
 * kernels' cells on land held as +0.0, with cnt one count byte a cell
 * (core/ps_plugin_land.h: the ocean neighbours in the low 7 bits, 0 for land,
 * made on the host from the stencil's neighbour list). An interior cell gets
 * n > 0 ? ps_NAME_sumcount(c, s, n, sc, ar) : c, s the plain sum of its
 * neighbours from +0.0 in their listed order: a land neighbour adds +0.0,
 * which leaves a sum that starts at +0.0 as it is (it is never -0.0), and n is
 * the masked count, so the value is the masked kernel's bitwise as long as
 * no ocean cell is NaN. The first NaN a launch writes (an ocean cell turning
 * NaN, which the masked kernels would then count as land) is reported: the
 * launch stores its tag in *flag, and every launch that finds *flag set
 * returns at once, so the input of the launch that wrote it is still in its
 * buffer and the host (ps_opencl.c, ls_check) redoes it on NaN land. The
 * report needs ps_NAME_sumcount to give NaN when c or s is NaN (the
 * land-sum contract). Arguments: the generic kernels', then cnt, flag, tag.
 */
#define PS_GLS_ARGS                                                                      \
    PS_GEN_ARGS, __global const uchar *restrict cnt, __global ulong *restrict flag,      \
        const ulong tag
#define PS_GLS_SUM(dk, dj, di) s = s + rp[q][(long)i + (di)]; q++;
/* a count byte's count as PS_REAL (land: 0) */
#define PS_GLS_N(b) ((PS_REAL)(int)((b)&0x7f))

/* an interior cell p of a land-sum kernel: v its new value, stored */
#define PS_GLS_CELL(NAME)                                                                \
    const PS_REAL v = ps_gls_##NAME##_cell(in, cnt, (long)p, (long)plane, (long)nx, params, \
                                           ok + (long)k, oj + (long)j, oi + (long)i, gz,  \
                                           gy, gx);                                       \
    out[p] = v;

/* a land-sum row function's parameters: ps_gen_NAME_rowfn's, cn the row's
 * count bytes and i1 the end of its interior cells */
#define PS_GLS_ROW_PARAMS                                                                \
    __global PS_REAL *restrict o, __global const PS_REAL *const *rp,                     \
        __global const uchar *restrict cn, __global const PS_REAL *restrict params,      \
        uint nx, long gk, long gj, long oi, long gz, long gy, long gx, uint i1

#define PS_GLS_FNS(NAME)                                                                 \
    /* cells r..i1-1 of one row; nonzero if it wrote a NaN */                           \
    static int ps_gls_##NAME##_rowfn(PS_GLS_ROW_PARAMS)                                  \
    {                                                                                    \
        const uint r = PS_##NAME##_RADIUS;                                               \
        __global const PS_REAL *restrict c = rp[PS_STENCIL_NNB(NAME)];                   \
        PS_REAL sc[PS_STENCIL_NSC(NAME) + 1], arow[PS_STENCIL_NAR(NAME) + 1];            \
        long abase[PS_STENCIL_NAR(NAME) + 1];                                            \
        long off = PS_STENCIL_NSC(NAME);                                                 \
        uint i;                                                                          \
        int q = 0, bad = 0;                                                              \
        (void)gk; (void)gj; (void)oi; (void)gz; (void)gy; (void)gx; (void)off;           \
        (void)abase; (void)arow;                                                         \
        PS_##NAME##_SCALARS(PS_GEN_SC)                                                   \
        q = 0;                                                                           \
        PS_##NAME##_ARRAYS(PS_GEN_AROW)                                                  \
        for (i = r; i < i1; i++) {                                                       \
            PS_REAL s = (PS_REAL)0, ar[PS_STENCIL_NAR(NAME) + 1], v;                     \
            const PS_REAL n = PS_GLS_N(cn[i]);                                           \
            q = 0;                                                                       \
            PS_##NAME##_NEIGHBOURS(PS_GLS_SUM)                                           \
            q = 0;                                                                       \
            PS_##NAME##_ARRAYS(PS_GEN_AR)                                                \
            v = n > (PS_REAL)0 ? PS_CAT(ps_##NAME##_sumcount, PS_SUFFIX)(c[i], s, n, sc, ar) \
                               : c[i];                                                   \
            o[i] = v;                                                                    \
        }                                                                                \
        for (i = r; i < i1; i++) /* apart: the update loop stays the masked one's */     \
            bad |= o[i] != o[i];                                                         \
        return bad;                                                                      \
    }                                                                                    \
    /* the new value of interior cell p (ps_NAME_apply's arguments, and cnt) */         \
    static PS_REAL ps_gls_##NAME##_cell(__global const PS_REAL *in,                     \
                                        __global const uchar *cnt, long p, long sk,      \
                                        long sj, __global const PS_REAL *params, long gk, \
                                        long gj, long gi, long gz, long gy, long gx)     \
    {                                                                                    \
        PS_REAL sc[PS_STENCIL_NSC(NAME) + 1], ar[PS_STENCIL_NAR(NAME) + 1];              \
        PS_REAL s = (PS_REAL)0;                                                          \
        const PS_REAL n = PS_GLS_N(cnt[p]), c = in[p];                                   \
        int q = 0;                                                                       \
        long off = PS_STENCIL_NSC(NAME);                                                 \
        (void)sk; (void)sj; (void)params; (void)gk; (void)gj; (void)gi;                  \
        (void)gz; (void)gy; (void)gx; (void)off;                                         \
        PS_##NAME##_NEIGHBOURS(PS_SK_SUM)                                                \
        PS_##NAME##_SCALARS(PS_SK_SC)                                                    \
        q = 0;                                                                           \
        PS_##NAME##_ARRAYS(PS_SK_AR)                                                     \
        (void)q;                                                                         \
        return n > (PS_REAL)0 ? PS_CAT(ps_##NAME##_sumcount, PS_SUFFIX)(c, s, n, sc, ar) \
                              : c;                                                       \
    }                                                                                    \
    /* row: after a launch that wrote a NaN no interior cell (the face copies  \
     * write what the target holds already: faces never change) */               \
    __kernel void ps_gls_##NAME##_row(PS_GLS_ARGS)                                       \
    PS_GEN_ROW_SHAPE(NAME, if (ps_gls_##NAME##_rowfn(out + row, rp, cnt + row, params,  \
                                                     nx, ok + (long)k, oj + (long)j, oi, \
                                                     gz, gy, gx, *flag ? r : nx - r))    \
                               *flag = tag;)                                             \
    __kernel void ps_gls_##NAME##_ij(PS_GLS_ARGS)                                        \
    PS_GEN_IJ_SHAPE(NAME, *flag, int bad = 0;, PS_GLS_CELL(NAME) bad |= v != v;,         \
                    if (bad) *flag = tag;)                                               \
    __kernel void ps_gls_##NAME##_ijk(PS_GLS_ARGS)                                       \
    PS_GEN_IJK_SHAPE(NAME, *flag, PS_GLS_CELL(NAME) if (v != v) *flag = tag;)
#define PS_GLS_OF(NAME) PS_##NAME##_LAND_SUM(PS_GLS_FNS)
PS_STENCIL_LIST(PS_GLS_OF)

/* row J of plane K of step L as the wavefront reads it: in for step 0 and
 * for every row within R of a face of the box, else the level's ring slot */
#define PS_GEN_WROW(L, K, J)                                                             \
    (((L) == 0 || (K) < r || (K) >= (long)nz - r || (J) < r || (J) >= (long)ny - r)      \
         ? in + (size_t)(K)*plane + (size_t)(J)*nx                                       \
         : ring + ((size_t)((L)-1) * S + (size_t)((K) % S)) * splane +                   \
               (size_t)((J)-jlo) * nx)
/* list step: the row of neighbour q of row (k, j) at step l-1 */
#define PS_GEN_WRP(dk, dj, di) rp[q++] = PS_GEN_WROW(l - 1, k + (dk), j + (dj));

/*
 * One tile of a wavefront kernel, FN (ps_gen_NAME_wave's, and
 * ps_opencl_vector.cl's ps_glv_NAME_wave's): output rows j0.. (tj, clipped to
 * the box), ring the work-item's, the parameters after j0 in the variadic
 * argument (with their leading comma). ROW computes row j of plane k at step
 * l (of T) into o from the neighbour rows rp (the centre last; row the row's
 * offset in the field) and may or a NaN report into bad, which FN returns;
 * the row's face columns are copied after it.
 */
#define PS_GEN_WAVE_TILE(NAME, FN, ROW, ...)                                             \
    static int FN(PS_GEN_ARGS, __global PS_REAL *restrict ring, const uint T,            \
                  const uint tj, const long j0 __VA_ARGS__)                              \
    {                                                                                    \
        const long r = PS_##NAME##_RADIUS, S = 2 * r + 1;                                \
        const long hj = (long)tj + 2 * (long)(T - 1) * r;                                \
        const long j1 = j0 + (long)tj < (long)ny ? j0 + (long)tj : (long)ny;             \
        const long jlo = j0 - (long)(T - 1) * r; /* ring row 0 */                        \
        const size_t plane = (size_t)ny * nx, splane = (size_t)hj * nx;                  \
        const long kend = (long)nz - r + (long)(T - 1) * r;                              \
        long kk, j, k;                                                                   \
        uint l, i;                                                                       \
        int bad = 0;                                                                     \
        /* the cells no step changes: copies */                                          \
        for (k = 0; k < (long)nz; k++)                                                   \
            for (j = j0; j < j1; j++) {                                                  \
                const size_t row = (size_t)k * plane + (size_t)j * nx;                   \
                if (k < r || k >= (long)nz - r || j < r || j >= (long)ny - r ||          \
                    (long)nx <= 2 * r)                                                   \
                    for (i = 0; i < nx; i++)                                             \
                        out[row + i] = in[row + i];                                      \
            }                                                                            \
        if ((long)nx <= 2 * r)                                                           \
            return 0; /* no interior cell */                                             \
        for (kk = r; kk < kend; kk++)                                                    \
            for (l = 1; l <= T; l++) {                                                   \
                long ja = j0 - (long)(T - l) * r, jb = j1 + (long)(T - l) * r;           \
                k = kk - (long)(l - 1) * r;                                              \
                if (k < r || k >= (long)nz - r)                                          \
                    continue;                                                            \
                if (ja < r)                                                              \
                    ja = r;                                                              \
                if (jb > (long)ny - r)                                                   \
                    jb = (long)ny - r;                                                   \
                for (j = ja; j < jb; j++) {                                              \
                    __global const PS_REAL *rp[PS_STENCIL_NNB(NAME) + 1];                \
                    const size_t row = (size_t)k * plane + (size_t)j * nx;               \
                    __global const PS_REAL *a = in + row;                                \
                    __global PS_REAL *o =                                                \
                        l == T ? out + row                                               \
                               : ring + ((size_t)(l - 1) * S + (size_t)(k % S)) * splane + \
                                     (size_t)(j - jlo) * nx;                             \
                    int q = 0;                                                           \
                    PS_##NAME##_NEIGHBOURS(PS_GEN_WRP)                                   \
                    rp[q] = PS_GEN_WROW(l - 1, k, j);                                    \
                    ROW                                                                  \
                    for (i = 0; i < (uint)r; i++) { /* the row's face columns */         \
                        o[i] = a[i];                                                     \
                        o[nx - 1 - i] = a[nx - 1 - i];                                   \
                    }                                                                    \
                }                                                                        \
            }                                                                            \
        return bad;                                                                      \
    }

#define PS_GEN_WAVE(NAME)                                                                \
    PS_GEN_WAVE_TILE(NAME, ps_gen_##NAME##_wave_tile,                                    \
                     ps_gen_##NAME##_rowfs(o, rp, params, nx, ok + k, oj + j, oi, gz, gy, \
                                           gx);, )                                       \
    __kernel void ps_gen_##NAME##_wave(PS_GEN_ARGS, __global PS_REAL *restrict scratch,  \
                                       const uint T, const uint tj)                      \
    {                                                                                    \
        const size_t w = get_global_id(0), nw = get_global_size(0);                      \
        const size_t hj = (size_t)tj + 2 * (size_t)(T - 1) * PS_##NAME##_RADIUS;         \
        __global PS_REAL *ring = /* the work-item's */                                   \
            scratch + w * (T - 1) * (2 * PS_##NAME##_RADIUS + 1) * hj * nx;              \
        long j0;                                                                         \
        for (j0 = (long)(w * tj); j0 < (long)ny; j0 += (long)(nw * tj))                  \
            (void)ps_gen_##NAME##_wave_tile(in, out, params, nz, ny, nx, ok, oj, oi, gz, \
                                            gy, gx, ring, T, tj, j0);                    \
    }

PS_STENCIL_LIST(PS_GEN_WAVE)
