/*
 * The cuda plugin: the shared GPU backend (backends/gpu/) compiled by nvcc,
 * with the exact-mode kernel. This file is compiled with --fmad=false
 * -prec-div=true -prec-sqrt=true -ftz=false (backends/cuda/local.mk), so
 * the kernel is bitwise identical to the reference backend.
 */
#include "config.h"
#define PS_GPU_KNS ps_exact
#define PS_GPU_LAUNCH_NAME ps_gpu_launch_exact
#include "ps_gpu_kernels.h"
#include "ps_gpu_backend.inc"
