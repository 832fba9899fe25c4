# The backends: the list (backends/ps_backends.h), read by the loader and by
# configure (m4/ps_backends.m4), and each backend's own rules. Adding a
# backend: its folder, its line in the list and its include line here
# (docs/adding-a-backend.md).
noinst_HEADERS += backends/ps_backends.h
# configure reads the list (summary, the tests' plugin path): re-run it when
# the list changes
CONFIGURE_DEPENDENCIES = $(top_srcdir)/backends/ps_backends.h

include $(srcdir)/backends/reference/local.mk
include $(srcdir)/backends/openmp/local.mk
include $(srcdir)/backends/opencl/local.mk
include $(srcdir)/backends/cuda/local.mk
include $(srcdir)/backends/hip/local.mk
include $(srcdir)/backends/check/local.mk
