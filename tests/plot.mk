# Pictures: unit tests on synthetic data, pixel checks, browser checks, CLI.
check_PROGRAMS += tests/test_plot
tests_test_plot_SOURCES = tests/test_plot.c
tests_test_plot_LDADD = plot/libpstencil-plot.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/test_plot
TESTS += tests/plot_pixels.sh tests/plot_browser.sh tests/plot_cli.sh
EXTRA_DIST += tests/plot_lib.sh tests/plot_pixels.sh tests/plot_browser.sh tests/plot_cli.sh \
	tests/data/plot_small.cdl tests/data/plot_other.cdl
# The calendar-aware time decoder behind the slider dates (io/ps_time.c).
check_PROGRAMS += tests/test_plot_time
tests_test_plot_time_SOURCES = tests/test_plot_time.c
tests_test_plot_time_LDADD = io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/test_plot_time tests/plot_time_cftime.sh tests/plot_levels_dates.sh
# Pages under 5 MB: a minified plotly.js embedded, or written once beside them.
TESTS += tests/plot_html_size.sh tests/plot_wrap.sh tests/plot_layout.sh tests/plot_help.sh
EXTRA_DIST += tests/plot_html_size.sh tests/plot_wrap.sh tests/plot_layout.sh tests/plot_help.sh tests/plot_png.py
EXTRA_DIST += tests/plot_time_cftime.sh tests/plot_levels_dates.sh
# The pictures show a run's result: last record, negative --time, diff with
# the final state, depths whatever the file's sign (issue 28 point 4).
TESTS += tests/plot_records.sh
EXTRA_DIST += tests/plot_records.sh
# Pictures at any page size: 200x150 to 3000x1000 measured (issue 28 point 5).
TESTS += tests/plot_sizes.sh
EXTRA_DIST += tests/plot_sizes.sh
# The interactive pages at any window size, in Chromium (issue 28 point 5).
TESTS += tests/plot_html_layout.sh
EXTRA_DIST += tests/plot_html_layout.sh
