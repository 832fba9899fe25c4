# kernels/: each stencil's single cell-update definition (C99/CUDA/HIP/OpenCL C).
pkginclude_HEADERS += kernels/ps_kernel_defs.h kernels/diffusion7.h
