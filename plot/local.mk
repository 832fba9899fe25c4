# plot/: pictures, libpstencil-plot, the layer above io/: colour maps, colour
# limits and level extraction (no drawing library), static slice maps with
# PLplot's cairo drivers (a stub without PLplot), maps of a dataset's fields,
# and interactive plotly.js pages.
lib_LTLIBRARIES += plot/libpstencil-plot.la
plot_libpstencil_plot_la_SOURCES = plot/ps_cmap.c plot/ps_plot_data.c plot/ps_plot_slice.c \
	plot/ps_plot_field.c plot/ps_html.c
plot_libpstencil_plot_la_CFLAGS = $(AM_CFLAGS) $(PLPLOT_CFLAGS)
plot_libpstencil_plot_la_LIBADD = io/libpstencil-io.la core/libpstencil.la $(PLPLOT_LIBS) \
	-lpthread -lm
plot_libpstencil_plot_la_LDFLAGS = -version-info 0:0:0
pkginclude_HEADERS += plot/ps_plot.h
pkgconfig_DATA += pstencil-plot.pc
