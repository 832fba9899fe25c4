# io/: NetCDF reading and writing and the built-in ocean: libpstencil-io,
# the layer above the engine (links libpstencil, netCDF-C and UDUNITS-2).
lib_LTLIBRARIES += io/libpstencil-io.la
io_libpstencil_io_la_SOURCES = io/ps_nc_read.c io/ps_nc_header.c io/ps_nc_get.c io/ps_nc_write.c io/ps_nc_reduce.c \
	io/ps_ocean.c io/ps_coords.c io/ps_dataset_check.c io/ps_dataset_mem.c io/ps_time.c io/ps_mem.c \
	io/ps_units.c io/ps_aux.c io/ps_nc_internal.h io/ps_nc_header.h io/ps_time.h io/ps_mem.h io/ps_units.h
io_libpstencil_io_la_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS) $(UDUNITS_CFLAGS)
io_libpstencil_io_la_LIBADD = core/libpstencil.la $(NETCDF_LIBS) $(UDUNITS_LIBS) -lm
io_libpstencil_io_la_LDFLAGS = -version-info 0:0:0
pkginclude_HEADERS += io/ps_io.h io/pstencil_io.h
pkgconfig_DATA += pstencil-io.pc
