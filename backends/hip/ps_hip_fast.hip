/*
 * The hip plugin's fast-mode kernel: the same source compiled with
 * -ffp-contract=fast -freciprocal-math (never -ffast-math: it would let the
 * compiler drop the NaN tests that keep land masked).
 */
#include "config.h"
#define PS_GPU_HIP 1
#define PS_GPU_KNS ps_fast
#define PS_GPU_LAUNCH_NAME ps_gpu_launch_fast
#include "ps_gpu_kernels.h"
