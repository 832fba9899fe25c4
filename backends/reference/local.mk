# The reference backend (always built into libpstencil: the oracle).
core_libpstencil_la_SOURCES += backends/reference/ps_reference.c
