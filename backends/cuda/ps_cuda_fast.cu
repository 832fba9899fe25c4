/*
 * The cuda plugin's fast-mode kernel: the same kernel source as the exact
 * one, compiled separately with --fmad=true -prec-div=false (contraction
 * and approximate division); selected by cfg->mode == PS_MODE_FAST.
 */
#include "config.h"
#define PS_GPU_KNS ps_fast
#define PS_GPU_LAUNCH_NAME ps_gpu_launch_fast
#include "ps_gpu_kernels.h"
