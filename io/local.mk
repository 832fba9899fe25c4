# io/: NetCDF reading and writing, the built-in ocean, images and HTML.
core_libpstencil_la_SOURCES += io/ps_nc_read.c io/ps_nc_header.c io/ps_nc_write.c io/ps_ocean.c io/ps_coords.c \
	io/ps_nc_internal.h io/ps_nc_header.h
pkginclude_HEADERS += io/ps_io.h
