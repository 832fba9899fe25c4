# io tests/rules (owned by one area; see Makefile.am)
check_PROGRAMS += tests/test_io_read tests/test_io_write tests/test_io_compare
tests_test_io_read_SOURCES = tests/test_io_read.c
tests_test_io_read_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_test_io_read_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
tests_test_io_write_SOURCES = tests/test_io_write.c
tests_test_io_write_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_test_io_write_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
tests_test_io_compare_SOURCES = tests/test_io_compare.c
tests_test_io_compare_LDADD = core/libpstencil.la -lm
TESTS += tests/test_io_read tests/test_io_write tests/test_io_compare \
	tests/io_gen.sh tests/io_summary.sh tests/io_compare.sh tests/io_badinput.sh \
	tests/io_time.sh tests/io_overwrite.sh tests/io_cf_check.sh tests/io_integrity.sh \
	tests/io_publish.sh tests/io_expansion.sh tests/io_hostile_attrs.sh
EXTRA_DIST += tests/io_gen.sh tests/io_summary.sh tests/io_compare.sh tests/io_badinput.sh \
	tests/io_time.sh tests/io_overwrite.sh tests/io_cf_check.sh tests/io_integrity.sh \
	tests/io_publish.sh tests/io_expansion.sh tests/io_hostile_attrs.sh tests/data/tiny.cdl \
	tests/data/tiny_b.cdl tests/data/time_360.cdl \
	tests/data/time_noleap.cdl
# an LD_PRELOAD shim making link() fail as on a file system without hard links
# (tests/io_publish.sh)
check_LTLIBRARIES += tests/ps_link_shim.la
tests_ps_link_shim_la_SOURCES = tests/link_shim.c
tests_ps_link_shim_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_ps_link_shim_la_LIBADD = -ldl
# ps_dataset_read_region: a block reads the same bits as the whole grid
check_PROGRAMS += tests/test_io_region
tests_test_io_region_SOURCES = tests/test_io_region.c
tests_test_io_region_LDADD = io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/test_io_region
# The one checked read of a variable (io/ps_nc_get.c): refused before netCDF-C
# writes past the buffer, exact values when it fits.
check_PROGRAMS += tests/test_nc_get
tests_test_nc_get_SOURCES = tests/test_nc_get.c
tests_test_nc_get_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS)
tests_test_nc_get_LDADD = io/libpstencil-io.la core/libpstencil.la $(NETCDF_LIBS) -lm
TESTS += tests/test_nc_get
# One input check for every command (issue 23): coordinates, all-land and
# infinite records, the output's time axis; files made with ncgen.
TESTS += tests/io_coords_finite.sh tests/io_coords_order.sh tests/io_all_land.sh \
	tests/io_time_axis.sh
EXTRA_DIST += tests/io_input_lib.sh tests/io_coords_finite.sh tests/io_coords_order.sh \
	tests/io_all_land.sh tests/io_time_axis.sh
# An output keeps its input's identity; CF names for the depth axis; a title
# (issue 28 point 2). Inputs made with ncgen from tests/data.
TESTS += tests/io_cf_identity.sh
EXTRA_DIST += tests/io_cf_identity.sh tests/data/levitus.cdl
# The step count survives CDO, or comes from the time axis (issue 28 point 3).
TESTS += tests/io_step_cdo.sh
EXTRA_DIST += tests/io_step_cdo.sh
# Units through UDUNITS-2: legacy spellings, conversions, kelvin without
# units refused (issue 28 point 1).
TESTS += tests/io_units.sh
EXTRA_DIST += tests/io_units.sh
