/*
 * The GPU backend's kernels and their launcher. Compiled twice per port by
 * backends/gpu/local.mk: with -DPS_GPU_EXACT and the exact-mode flags (nvcc
 * --fmad=false -prec-div=true -prec-sqrt=true -ftz=false; hipcc
 * -ffp-contract=off; the mock -ffp-contract=off) into ps_gpu_launch_exact,
 * bitwise equal to the reference backend; and with -DPS_GPU_FAST and
 * contraction and approximate division into ps_gpu_launch_fast. The two
 * units put their kernels in different namespaces so they never merge.
 */
#include "config.h"

#if defined(PS_GPU_EXACT) == defined(PS_GPU_FAST)
#  error "define exactly one of PS_GPU_EXACT, PS_GPU_FAST"
#endif
#ifdef PS_GPU_EXACT
#  define PS_GPU_KNS ps_exact
#  define PS_GPU_LAUNCH_NAME ps_gpu_launch_exact
#else
#  define PS_GPU_KNS ps_fast
#  define PS_GPU_LAUNCH_NAME ps_gpu_launch_fast
#endif

#include "ps_gpu_kernels.h"

namespace {

/* Positions in PS_STENCIL_LIST (ps_gpu_context.cpp numbers the names alike). */
#define PS_GPU_ENUM(NAME) stencil_##NAME,
enum { PS_STENCIL_LIST(PS_GPU_ENUM) n_stencils };
#undef PS_GPU_ENUM

} /* namespace */

/* Launch a tuned diffusion7 kernel template K<T> in the launch's precision. */
#define PS_GPU_TUNED(K)                                                                    \
    (f64 ? PS_GPU_KERNEL_LAUNCH_PDL(l->pdl, PS_GPU_KNS::K<double>, grid, block, l->stream,  \
                                    (const double *)l->in, (double *)l->out, g.nz, g.ny,    \
                                    g.nx, l->coeff, g.kchunk)                               \
         : PS_GPU_KERNEL_LAUNCH_PDL(l->pdl, PS_GPU_KNS::K<float>, grid, block, l->stream,   \
                                    (const float *)l->in, (float *)l->out, g.nz, g.ny,      \
                                    g.nx, (float)l->coeff, g.kchunk))

namespace {

/*
 * A generic temporally blocked kernel (gtbF_NAME, B its gtb_block): l->steps
 * steps in one launch, one block per tile; refused where no tile fits.
 */
template <typename T, typename B>
gpuError_t gtb_launch(const ps_gpu_launch *l,
                      void (*kernel)(const T *, T *, const T *, ps_gpu_geom))
{
    const ps_gpu_geom &g = l->geom;
    if (!B::ok)
        return gpuErrorInvalidValue;
    dim3 block(PS_GPU_TB_BX, PS_GPU_TB_BY, 1);
    dim3 grid((unsigned)((g.nx + B::X - 1) / B::X), (unsigned)((g.ny + B::Y - 1) / B::Y),
              (unsigned)((g.nz + B::Z - 1) / B::Z));
    return PS_GPU_KERNEL_LAUNCH_SYNC_PDL(l->pdl, kernel, grid, block, l->stream,
                                         (const T *)l->in, (T *)l->out, (const T *)l->params,
                                         g);
}

} /* namespace */

gpuError_t PS_GPU_LAUNCH_NAME(const ps_gpu_launch *l)
{
    const ps_gpu_geom &g = l->geom;
    dim3 block((unsigned)l->bx, (unsigned)l->by, 1);
    dim3 grid((unsigned)((g.nx + l->bx - 1) / l->bx),
              (unsigned)((g.ny + l->by - 1) / l->by),
              (unsigned)((g.nz + g.kchunk - 1) / g.kchunk));
    const bool f64 = l->real == PS_GPU_F64;
    if (l->tuned) {
        switch (l->variant) {
        case PS_GPU_V_D7:
            return PS_GPU_TUNED(d7_step);
        case PS_GPU_V_D7LB:
            /* __launch_bounds__(256): the device refuses larger blocks; so do we */
            if ((long long)l->bx * l->by > PS_GPU_LB_THREADS)
                return gpuErrorInvalidValue;
            return PS_GPU_TUNED(d7lb_step);
        default:
            return gpuErrorInvalidValue;
        }
    }
    switch (l->stencil) {
/* the land-sum form (ls_cnt set): the epoch, then the step */
#define PS_GPU_GLS_CASE(NAME)                                                              \
    if (l->ls_cnt) {                                                                       \
        gpuError_t e_ = PS_GPU_KERNEL_LAUNCH(PS_GPU_KNS::gls_epoch, dim3(1, 1, 1),           \
                                             dim3(1, 1, 1), l->stream, l->ls);              \
        if (e_ != gpuSuccess)                                                              \
            return e_;                                                                     \
        return f64 ? PS_GPU_KERNEL_LAUNCH(PS_GPU_KNS::gls_##NAME##_f64, grid, block,         \
                                          l->stream, (const double *)l->in,                \
                                          (double *)l->out, (const double *)l->params, g,  \
                                          l->ls_cnt, l->ls, l->ls_parity)                  \
                   : PS_GPU_KERNEL_LAUNCH(PS_GPU_KNS::gls_##NAME##_f32, grid, block,         \
                                          l->stream, (const float *)l->in, (float *)l->out, \
                                          (const float *)l->params, g, l->ls_cnt, l->ls,    \
                                          l->ls_parity);                                   \
    }
#define PS_GPU_GEN_CASE(NAME)                                                              \
    case stencil_##NAME:                                                                   \
        if (l->steps == 2 || l->steps == 4)                                                \
            return f64 ? (l->steps == 2                                                    \
                              ? gtb_launch<double, PS_GPU_GTB_BLOCK(NAME, double, 2)>(     \
                                    l, PS_GPU_KNS::gtb2_##NAME##_f64)                      \
                              : gtb_launch<double, PS_GPU_GTB_BLOCK(NAME, double, 4)>(     \
                                    l, PS_GPU_KNS::gtb4_##NAME##_f64))                     \
                       : (l->steps == 2                                                    \
                              ? gtb_launch<float, PS_GPU_GTB_BLOCK(NAME, float, 2)>(       \
                                    l, PS_GPU_KNS::gtb2_##NAME##_f32)                      \
                              : gtb_launch<float, PS_GPU_GTB_BLOCK(NAME, float, 4)>(       \
                                    l, PS_GPU_KNS::gtb4_##NAME##_f32));                    \
        if (l->steps > 1)                                                                  \
            return gpuErrorInvalidValue;                                                   \
        PS_##NAME##_LAND_SUM(PS_GPU_GLS_CASE)                                              \
        return f64 ? PS_GPU_KERNEL_LAUNCH_PDL(l->pdl, PS_GPU_KNS::gen_##NAME##_f64, grid,    \
                                              block, l->stream, (const double *)l->in,      \
                                              (double *)l->out, (const double *)l->params,  \
                                              g)                                            \
                   : PS_GPU_KERNEL_LAUNCH_PDL(l->pdl, PS_GPU_KNS::gen_##NAME##_f32, grid,    \
                                              block, l->stream, (const float *)l->in,       \
                                              (float *)l->out, (const float *)l->params, g);
        PS_STENCIL_LIST(PS_GPU_GEN_CASE)
#undef PS_GPU_GEN_CASE
#undef PS_GPU_GLS_CASE
    default:
        return gpuErrorInvalidValue;
    }
}

#ifdef PS_GPU_EXACT
/* The copy bound's launch (ps_gpu_port.h): one pass of gpu_copy over the field. */
gpuError_t ps_gpu_launch_copy(const ps_gpu_launch *l)
{
    const ps_gpu_geom &g = l->geom;
    const size_t bytes = (size_t)g.nz * (size_t)g.ny * (size_t)g.nx *
                         (l->real == PS_GPU_F64 ? sizeof(double) : sizeof(float));
    const long long n16 = (long long)(bytes / 16);
    /* 256 threads a block, at most 2^20 blocks (the loop strides over the rest) */
    const long long blocks = n16 / 256 + 1 < (1LL << 20) ? n16 / 256 + 1 : (1LL << 20);
    return PS_GPU_KERNEL_LAUNCH(PS_GPU_KNS::gpu_copy, dim3((unsigned)blocks, 1, 1),
                                dim3(256, 1, 1), l->stream, (const PS_GPU_KNS::gpu_v16 *)l->in,
                                (PS_GPU_KNS::gpu_v16 *)l->out, n16, (int)(bytes % 16));
}
#endif
