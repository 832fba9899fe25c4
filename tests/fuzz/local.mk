# The fuzz harness of the reader (tests/fuzz/, docs/reliability.md).
# make check: tests/fuzz/replay_regressions.sh replays tests/fuzz/regressions (hostile
# files that once crashed or stalled a command) through the fuzz target under
# the normal build and through every reading command.
# make fuzz: libFuzzer for FUZZ_SECONDS on the seeds (tiny.cdl in every
# format, made with ncgen) and the regressions; needs clang (configure: PS_FUZZ).
check_PROGRAMS += tests/fuzz/fuzz_replay
tests_fuzz_fuzz_replay_SOURCES = tests/fuzz/fuzz_reader.c tests/fuzz/replay_main.c
tests_fuzz_fuzz_replay_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_fuzz_fuzz_replay_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) $(UDUNITS_LIBS) -lm
# The regression corpus (hostile files that once crashed or stalled a
# command) replayed through the fuzz target and every reading command.
TESTS += tests/fuzz/replay_regressions.sh
EXTRA_DIST += tests/fuzz/replay_regressions.sh tests/fuzz/make_regressions.py \
	tests/fuzz/regressions
CLEANFILES += tests/fuzz/fuzz_reader fuzz-memcheck.log

clean-fuzz-made:
	-rm -rf tests/fuzz/made

FUZZ_SECONDS = 60
FUZZ_IO_SRC = $(srcdir)/io/ps_nc_read.c $(srcdir)/io/ps_nc_header.c $(srcdir)/io/ps_nc_get.c \
	$(srcdir)/io/ps_coords.c $(srcdir)/io/ps_dataset_check.c $(srcdir)/io/ps_time.c \
	$(srcdir)/io/ps_mem.c $(srcdir)/io/ps_units.c
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

if PS_FUZZ
# the reader's sources are compiled into the target, so libFuzzer sees their
# coverage; the engine library below them is linked as built
tests/fuzz/fuzz_reader: $(srcdir)/tests/fuzz/fuzz_reader.c $(FUZZ_IO_SRC) core/libpstencil.la
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_FLAGS) -DHAVE_CONFIG_H -I. $(AM_CPPFLAGS) $(NETCDF_CFLAGS) \
	  $(UDUNITS_CFLAGS) -o $@ $(srcdir)/tests/fuzz/fuzz_reader.c $(FUZZ_IO_SRC) \
	  -Lcore/.libs -lpstencil -Wl,-rpath,$(abs_builddir)/core/.libs $(NETCDF_LIBS) \
	  $(UDUNITS_LIBS) -lm

# -malloc_limit_mb: no input under 64 KiB may cost 256 MB (docs/reliability.md,
# "The cost of an input"); a compressed field is at most 256 times its file as
# float32 (check_declared_size in io/ps_nc_read.c), 16 MB for 64 KiB, so any
# single allocation past 256 MB is a finding.
fuzz: tests/fuzz/fuzz_reader
	@mkdir -p tests/fuzz/corpus tests/fuzz/seeds
	@for k in classic 64-bit-offset cdf5 nc4; do \
	  for c in tiny tiny_b; do \
	    $(NCGEN) -k $$k -o tests/fuzz/seeds/$$c-$$k.nc $(srcdir)/tests/data/$$c.cdl || exit 1; \
	  done; \
	done
	@for k in cdf5 nc4; do \
	  $(NCGEN) -k $$k -o tests/fuzz/seeds/cf_nemo-$$k.nc $(srcdir)/tests/data/cf_nemo.cdl || exit 1; \
	done
	@mkdir -p tests/fuzz/made
	python3 $(srcdir)/tests/fuzz/make_regressions.py tests/fuzz/made
	ASAN_OPTIONS=detect_leaks=0 tests/fuzz/fuzz_reader -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=5 -malloc_limit_mb=256 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
	  tests/fuzz/corpus tests/fuzz/seeds $(srcdir)/tests/fuzz/regressions tests/fuzz/made

# Every input of the corpus replayed by the normal build under valgrind's
# memcheck, which sees invalid writes inside libnetcdf and HDF5 (the fuzz
# target's ASan instruments pstencil's code only).
fuzz-memcheck: tests/fuzz/fuzz_replay
	@mkdir -p tests/fuzz/made tests/fuzz/corpus tests/fuzz/seeds
	python3 $(srcdir)/tests/fuzz/make_regressions.py tests/fuzz/made
	find tests/fuzz/corpus tests/fuzz/seeds $(srcdir)/tests/fuzz/regressions tests/fuzz/made \
	  -type f -print0 | xargs -0 -n 500 $(LIBTOOL) --mode=execute valgrind -q \
	  --error-exitcode=99 --leak-check=no tests/fuzz/fuzz_replay > fuzz-memcheck.log 2>&1; \
	  rc=$$?; grep -c '^replayed' fuzz-memcheck.log | sed 's/$$/ inputs replayed under memcheck/'; \
	  if [ $$rc -ne 0 ]; then tail -60 fuzz-memcheck.log; exit 1; fi
else
fuzz:
	@echo "make fuzz: no C compiler with -fsanitize=fuzzer was found by configure (install clang or set FUZZ_CC)" >&2; exit 1
endif
.PHONY: fuzz fuzz-memcheck
