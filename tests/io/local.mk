# io: the NetCDF reader and writer, CF conventions, units, time, hostile files
# and the output-safety rules every command keeps.

# The reader on files in every convention of docs/file-conventions.md.
check_PROGRAMS += tests/io/test_io_read
tests_io_test_io_read_SOURCES = tests/io/test_io_read.c tests/io/ps_io_test.h
tests_io_test_io_read_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_io_test_io_read_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
TESTS += tests/io/test_io_read
# The writer: round trip bitwise, CF attributes, time axis, chunking, the
# temporary file and its rename, the overwrite refusals.
check_PROGRAMS += tests/io/test_io_write
tests_io_test_io_write_SOURCES = tests/io/test_io_write.c tests/io/ps_io_test.h
tests_io_test_io_write_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_io_test_io_write_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
TESTS += tests/io/test_io_write
# Several field variables in one output (thetao and so): read back bitwise,
# reductions per field, the refusals; the built-in ocean's so, thetao unchanged.
check_PROGRAMS += tests/io/test_io_fields
tests_io_test_io_fields_SOURCES = tests/io/test_io_fields.c tests/io/ps_io_test.h
tests_io_test_io_fields_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_io_test_io_fields_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
TESTS += tests/io/test_io_fields
# The comparison engine: counts, NaN masks, max abs/rel/ulp, tolerances.
check_PROGRAMS += tests/io/test_io_compare
tests_io_test_io_compare_SOURCES = tests/io/test_io_compare.c
tests_io_test_io_compare_LDADD = core/libpstencil.la -lm
TESTS += tests/io/test_io_compare
# A block read holds the same bits as the whole-grid read.
check_PROGRAMS += tests/io/test_io_region
tests_io_test_io_region_SOURCES = tests/io/test_io_region.c
tests_io_test_io_region_LDADD = io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/io/test_io_region
# The one checked read of a variable: refused before netCDF-C writes past
# the buffer, exact values when it fits.
check_PROGRAMS += tests/io/test_nc_get
tests_io_test_nc_get_SOURCES = tests/io/test_nc_get.c
tests_io_test_nc_get_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_io_test_nc_get_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
TESTS += tests/io/test_nc_get
# pstencil gen: deterministic, the course's shape and conventions, readable
# by ncdump, CDO and xarray.
TESTS += tests/io/gen.sh
# pstencil summary: statistics checked against ncdump's text; a run's
# reductions shown record by record.
TESTS += tests/io/summary.sh
# pstencil compare: exit 0 equal or within tolerance, 1 different, 2 trouble.
TESTS += tests/io/compare.sh
# Bad input for every reading and writing command: a message, exit 2, no
# output or temporary file left.
TESTS += tests/io/badinput.sh
# The output's CF time axis in the input's units and calendar (cdo showdate).
TESTS += tests/io/time.sh
# One overwrite policy: every command refuses an existing output without
# --force and leaves it untouched.
TESTS += tests/io/overwrite.sh
# Outputs pass the CF checkers (compliance-checker cf:1.8; skips without it).
TESTS += tests/io/cf_check.sh
# A flipped byte in an output's data is caught by its Fletcher32 checksum.
TESTS += tests/io/integrity.sh
# An output is published where link() fails (no hard links), never clobbering.
TESTS += tests/io/publish.sh
# Compression bombs are refused past --max-expansion.
TESTS += tests/io/expansion.sh
# Hostile attributes, kinds and filters are refused with the exact reason.
TESTS += tests/io/hostile_attrs.sh
# Non-finite coordinates and latitudes outside [-90, 90] refused everywhere.
TESTS += tests/io/coords_finite.sh
# Coordinates that are not strictly monotonic refused by every command.
TESTS += tests/io/coords_order.sh
# A record with no ocean cell or an infinite one refused by every command.
TESTS += tests/io/all_land.sh
# The output's time axis continues the input's, never invented.
TESTS += tests/io/time_axis.sh
# An output keeps its input's identity; CF names for the depth axis; a title.
TESTS += tests/io/cf_identity.sh
# The step count survives CDO, or comes from the time axis.
TESTS += tests/io/step_cdo.sh
# Units through UDUNITS-2: legacy spellings, conversions, kelvin without
# units refused.
TESTS += tests/io/units.sh
# docs/real-data.md run as written on ferret-datasets' Levitus and atlas
# subset: outputs CF- and CDO-clean (skips without ferret-datasets).
TESTS += tests/io/real_data.sh
# The reductions in an output equal an independent exact computation from its
# values; unit weights without coordinates; --continue keeps them; attributes.
TESTS += tests/io/reductions.sh

# an LD_PRELOAD shim making link() fail as on a file system without hard
# links (tests/io/publish.sh)
check_LTLIBRARIES += tests/io/ps_link_shim.la
tests_io_ps_link_shim_la_SOURCES = tests/io/link_shim.c
tests_io_ps_link_shim_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_io_ps_link_shim_la_LIBADD = -ldl

EXTRA_DIST += tests/io/gen.sh tests/io/summary.sh tests/io/compare.sh tests/io/badinput.sh \
	tests/io/time.sh tests/io/overwrite.sh tests/io/cf_check.sh tests/io/integrity.sh \
	tests/io/publish.sh tests/io/expansion.sh tests/io/hostile_attrs.sh tests/io/input_lib.sh \
	tests/io/coords_finite.sh tests/io/coords_order.sh tests/io/all_land.sh tests/io/time_axis.sh \
	tests/io/cf_identity.sh tests/io/step_cdo.sh tests/io/units.sh tests/io/real_data.sh \
	tests/io/reductions.sh \
	tests/data/tiny.cdl tests/data/tiny_b.cdl tests/data/time_360.cdl tests/data/time_noleap.cdl \
	tests/data/levitus.cdl tests/data/cf_cmems.cdl tests/data/cf_nco.cdl tests/data/cf_cdo.cdl \
	tests/data/cf_nemo.cdl tests/data/cf_descending.cdl tests/data/cf_indices.cdl \
	tests/data/plot_small.cdl tests/data/plot_other.cdl
