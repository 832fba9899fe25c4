# plot/: pictures, libpstencil-plot, the layer above io/: colour maps, colour
# limits and level extraction (no drawing library), static slice maps with
# PLplot's cairo drivers (a stub without PLplot), maps of a dataset's fields,
# and interactive plotly.js pages.
lib_LTLIBRARIES += plot/libpstencil-plot.la
plot_libpstencil_plot_la_SOURCES = plot/ps_cmap.c plot/ps_plot_data.c plot/ps_plot_slice.c \
	plot/ps_plot_field.c plot/ps_html.c
plot_libpstencil_plot_la_CFLAGS = $(AM_CFLAGS) $(PLPLOT_CFLAGS) \
	-DPS_PLOTLY_MIN_JS='"$(pkgdatadir)/plotly.min.js"' \
	-DPS_PLOTLY_MIN_JS_BUILD='"$(abs_top_builddir)/plot/plotly.min.js"'
plot_libpstencil_plot_la_LIBADD = io/libpstencil-io.la core/libpstencil.la $(PLPLOT_LIBS) \
	-lpthread -lm
plot_libpstencil_plot_la_LDFLAGS = -version-info 0:0:0
pkginclude_HEADERS += plot/ps_plot.h
pkgconfig_DATA += pstencil-plot.pc

# A minified copy of an unminified plotly.js (configure: PS_MINIFY_PLOTLY),
# its licence header kept first (ps_html_plotly_cdn() reads the version there).
if PS_MINIFY_PLOTLY
nodist_pkgdata_DATA = plot/plotly.min.js
CLEANFILES += plot/plotly.min.js plot/plotly.min.js.tmp
plot/plotly.min.js: $(PLOTLY_JS)
	$(AM_V_GEN)$(MKDIR_P) plot && rm -f $@ $@.tmp && \
	sed -n '1,/\*\//p' $(PLOTLY_JS) >$@.tmp && \
	case '$(JS_MINIFY)' in \
	  *esbuild) '$(JS_MINIFY)' --minify --log-level=error $(PLOTLY_JS) >>$@.tmp ;; \
	  *) '$(JS_MINIFY)' $(PLOTLY_JS) -c -m >>$@.tmp ;; \
	esac && mv $@.tmp $@
endif
