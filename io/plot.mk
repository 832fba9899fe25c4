# Pictures: static maps (PLplot cairo), interactive plotly.js pages, colour maps.
core_libpstencil_la_SOURCES += io/ps_cmap.c io/ps_plot_field.c io/ps_plot_slice.c io/ps_html.c
pkginclude_HEADERS += io/ps_plot.h

