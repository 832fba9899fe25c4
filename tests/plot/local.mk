# plot: the pictures (PLplot PNG/SVG/PDF) and the interactive pages, checked by
# measuring the rendered images and by a headless browser.

# The picture layer on synthetic data: colour maps, limits, levels,
# decimation, differences, image sizes, the pages' content.
check_PROGRAMS += tests/plot/test_plot
tests_plot_test_plot_SOURCES = tests/plot/test_plot.c
tests_plot_test_plot_LDADD = plot/libpstencil-plot.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/plot/test_plot
# PNGs of the requested size whose pixels show land grey and a colour bar; a
# zero difference has no colour; a mask mismatch is magenta.
TESTS += tests/plot/pixels.sh
# The interactive pages load in headless Chromium without a JavaScript error
# and draw something.
TESTS += tests/plot/browser.sh
# pstencil plot end to end on small CF files: outputs, options, errors.
TESTS += tests/plot/cli.sh
# The calendar-aware time decoder behind the slider dates, by hand.
check_PROGRAMS += tests/plot/test_plot_time
tests_plot_test_plot_time_SOURCES = tests/plot/test_plot_time.c
tests_plot_test_plot_time_LDADD = io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/plot/test_plot_time
# The calendar decoder against cftime, 3000 values per CF calendar.
TESTS += tests/plot/time_cftime.sh
# Levels and dates of model output: the shallowest changed level, depths and
# dates shown.
TESTS += tests/plot/levels_dates.sh
# Pages under 5 MB: a minified plotly.js embedded or written once beside.
TESTS += tests/plot/html_size.sh
# A --lon window across 0 degrees and a file cut across 0 drawn in order.
TESTS += tests/plot/wrap.sh
# Tall, wide and tiny-valued maps laid out inside the page at several sizes.
TESTS += tests/plot/layout.sh
# The help of every plot subcommand lists exactly what it accepts.
TESTS += tests/plot/help.sh
# The pictures show a run's result: last record by default, negative --time,
# diff of an input and an output compares the right records.
TESTS += tests/plot/records.sh
# Slice and diff at any page size and aspect, 200x150 to 3000x1000,
# measured: titles wrapped at spaces, every text on the page.
TESTS += tests/plot/sizes.sh
SAMPLED_TESTS += tests/plot/sizes.sh
# The interactive pages at any window size, in Chromium.
TESTS += tests/plot/html_layout.sh
SAMPLED_TESTS += tests/plot/html_layout.sh

EXTRA_DIST += tests/plot/lib.sh tests/plot/png.py tests/plot/pixels.sh tests/plot/browser.sh \
	tests/plot/cli.sh tests/plot/time_cftime.sh tests/plot/levels_dates.sh \
	tests/plot/html_size.sh tests/plot/wrap.sh tests/plot/layout.sh tests/plot/help.sh \
	tests/plot/records.sh tests/plot/sizes.sh tests/plot/html_layout.sh
