# decomposition: a grid split into boxes with halos, boxes stepped at once,
# out-of-core slabs; every case bitwise the one-box result.

# Boxes through the public API (uneven PK x PJ x PI, ghost depths, rounds of
# steps with a halo refresh) give the one-box result bitwise, every backend.
check_PROGRAMS += tests/decomposition/test_decompose
tests_decomposition_test_decompose_SOURCES = tests/decomposition/test_decompose.c tests/ps_test.h
tests_decomposition_test_decompose_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_decompose
# The decomposition engine (core/ps_decomp.h): exchange plan and round driver
# give the one-box result bitwise, thin boxes and wide halos included.
check_PROGRAMS += tests/decomposition/test_decomp_engine
tests_decomposition_test_decomp_engine_SOURCES = tests/decomposition/test_decomp_engine.c \
	tests/ps_test.h
tests_decomposition_test_decomp_engine_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_decomp_engine
SAMPLED_TESTS += tests/decomposition/test_decomp_engine
# Several fields through one run (ps_run_fields()): each bitwise its own
# ps_run_split() run, in boxes, out of core and in place, every backend; the
# snapshots of all fields at one step; stops and refusals.
check_PROGRAMS += tests/decomposition/test_run_fields
tests_decomposition_test_run_fields_SOURCES = tests/decomposition/test_run_fields.c \
	tests/ps_test.h
tests_decomposition_test_run_fields_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_run_fields
# The out-of-core plan (core/ps_ooc.h): the fewest slabs that fit a budget,
# a budget below the thinnest slab refused with the smallest that works.
check_PROGRAMS += tests/decomposition/test_ooc_plan
tests_decomposition_test_ooc_plan_SOURCES = tests/decomposition/test_ooc_plan.c tests/ps_test.h
tests_decomposition_test_ooc_plan_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_ooc_plan
# The exact accumulator of the reductions (core/ps_exactsum.h): correctly
# rounded, bitwise the same for any order and any split into merged parts.
check_PROGRAMS += tests/decomposition/test_exactsum
tests_decomposition_test_exactsum_SOURCES = tests/decomposition/test_exactsum.c tests/ps_test.h
tests_decomposition_test_exactsum_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_exactsum
SAMPLED_TESTS += tests/decomposition/test_exactsum
# The reductions of a field (core/ps_reduce.h): hdiff's cell volumes, and the
# same bits whole, in blocks, on any thread count and through integer packs.
check_PROGRAMS += tests/decomposition/test_reduce
tests_decomposition_test_reduce_SOURCES = tests/decomposition/test_reduce.c tests/ps_test.h
tests_decomposition_test_reduce_LDADD = core/libpstencil.la -lm
TESTS += tests/decomposition/test_reduce
# validate --decomp on the reference backend: every decomposition and
# out-of-core case bitwise.
TESTS += tests/decomposition/validate_decomp_reference.sh
# validate --decomp on the openmp backend: every case bitwise.
TESTS += tests/decomposition/validate_decomp_openmp.sh
# validate --decomp on the opencl backend: every case bitwise.
TESTS += tests/decomposition/validate_decomp_opencl.sh
# run --split: boxes with halo exchange give the one-box output bitwise;
# bad splits refused.
TESTS += tests/decomposition/cli_split.sh
SAMPLED_TESTS += tests/decomposition/cli_split.sh
# run --split on a backend whose boxes run at once, threads divided.
TESTS += tests/decomposition/cli_split_concurrent.sh
# run --max-device-memory streams out-of-core slabs, bitwise the in-core run.
TESTS += tests/decomposition/cli_ooc.sh
# The reductions of every record are bitwise the same on every backend, thread
# count, block shape, box split and out-of-core plan.
TESTS += tests/decomposition/cli_reductions.sh
# bench --memory and --decomp write their CSVs and agree with the runs.
TESTS += tests/decomposition/bench_decomp.sh

EXTRA_DIST += tests/decomposition/validate_decomp.sh \
	tests/decomposition/validate_decomp_reference.sh \
	tests/decomposition/validate_decomp_openmp.sh tests/decomposition/validate_decomp_opencl.sh \
	tests/decomposition/cli_split.sh tests/decomposition/cli_split_concurrent.sh \
	tests/decomposition/cli_ooc.sh tests/decomposition/bench_decomp.sh \
	tests/decomposition/cli_reductions.sh
