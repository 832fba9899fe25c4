# kernels/: each stencil's description and cell update (C99/CUDA/HIP/OpenCL C),
# the list of stencils, and the generic point update the backends' skeletons call.
# PS_STENCIL_FILES names every stencil file (the OpenCL program embeds them).
PS_STENCIL_FILES = kernels/diffusion7.h kernels/hdiff.h kernels/smooth2.h kernels/tracer.h
PS_KERNEL_FILES = kernels/ps_kernel_defs.h $(PS_STENCIL_FILES) kernels/ps_stencils.h \
	kernels/ps_skeleton.h
# ps_skeleton_all.h instantiates both precisions for C/CUDA/HIP; OpenCL does not embed it
PS_KERNEL_HOST_FILES = $(PS_KERNEL_FILES) kernels/ps_skeleton_all.h
pkginclude_HEADERS += $(PS_KERNEL_HOST_FILES)
