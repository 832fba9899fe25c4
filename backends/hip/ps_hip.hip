/*
 * The hip plugin: the shared GPU backend (backends/gpu/) compiled by hipcc,
 * with the exact-mode kernel. Compiled with -ffp-contract=off and no fast
 * math (backends/hip/local.mk): bitwise identical to the reference backend.
 */
#include "config.h"
#define PS_GPU_HIP 1
#define PS_GPU_KNS ps_exact
#define PS_GPU_LAUNCH_NAME ps_gpu_launch_exact
#include "ps_gpu_kernels.h"
#include "ps_gpu_backend.inc"
