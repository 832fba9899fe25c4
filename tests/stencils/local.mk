# stencils: each stencil's model checked from outside the kernel files, and
# the registry that every front end reads.

# diffusion7's cell update against values computed by hand: every neighbour
# count and mix of NaN neighbours, both precisions, the course's formula.
check_PROGRAMS += tests/stencils/test_cell_update
tests_stencils_test_cell_update_SOURCES = tests/stencils/test_cell_update.c
tests_stencils_test_cell_update_LDADD = core/libpstencil.la -lm
TESTS += tests/stencils/test_cell_update
# The reference backend through the backend interface: boundaries and land
# unchanged, steps iterated by hand, regions, the loader's built-ins.
check_PROGRAMS += tests/stencils/test_reference
tests_stencils_test_reference_SOURCES = tests/stencils/test_reference.c
tests_stencils_test_reference_LDADD = core/libpstencil.la -lm
TESTS += tests/stencils/test_reference
# The reference equals an independent oracle (literal loops, no kernels/),
# bitwise, for every model stencil.
check_PROGRAMS += tests/stencils/test_oracle
tests_stencils_test_oracle_SOURCES = tests/stencils/test_oracle.c tests/stencils/ps_oracle.c \
	tests/stencils/ps_oracle.h
tests_stencils_test_oracle_LDADD = core/libpstencil.la -lm
TESTS += tests/stencils/test_oracle
# Every land-sum stencil's zero-land form (land +0.0, counts precomputed)
# gives the bits of its NaN-masked point update, both precisions.
check_PROGRAMS += tests/stencils/test_landsum
tests_stencils_test_landsum_SOURCES = tests/stencils/test_landsum.c
tests_stencils_test_landsum_LDADD = -lm
TESTS += tests/stencils/test_landsum
# hdiff conserves heat in a closed basin to rounding.
check_PROGRAMS += tests/stencils/test_hdiff_conserve
tests_stencils_test_hdiff_conserve_SOURCES = tests/stencils/test_hdiff_conserve.c \
	tests/stencils/ps_oracle.c tests/stencils/ps_oracle.h
tests_stencils_test_hdiff_conserve_LDADD = core/libpstencil.la -lm
TESTS += tests/stencils/test_hdiff_conserve
# run --stencil hdiff on the built-in ocean and CF files: --dt auto, the
# metric, units, refusals.
TESTS += tests/stencils/cli_hdiff.sh
# pstencil stencils and run's stencil options: every registered stencil
# listed, documented and run with its options and ranges.
TESTS += tests/stencils/cli_stencils.sh
# docs/adding-a-stencil.md followed literally in a copy of the tree: its
# worked example's blocks applied, its checks run (a configure and build of
# its own: check-full only).
FULL_TESTS += tests/stencils/adding_stencil.sh

EXTRA_DIST += tests/stencils/cli_hdiff.sh tests/stencils/cli_stencils.sh \
	tests/stencils/adding_stencil.sh
# tracer against the oracle (bitwise), conservation, uniformity, mirrored
# storage and its stability rule.
check_PROGRAMS += tests/stencils/test_tracer
tests_stencils_test_tracer_SOURCES = tests/stencils/test_tracer.c \
	tests/stencils/ps_oracle.c tests/stencils/ps_oracle.h
tests_stencils_test_tracer_LDADD = core/libpstencil.la -lm
TESTS += tests/stencils/test_tracer
