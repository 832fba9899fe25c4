# Real data and pictures at any size (issue 28 points 5 and 8).
# docs/real-data.md run as written on ferret-datasets: outputs CF- and CDO-clean.
TESTS += tests/real_data.sh
EXTRA_DIST += tests/real_data.sh
# slice and diff at 200x150 .. 3000x1000 measured: titles wrapped, text on the page.
TESTS += tests/plot_page_sizes.sh
EXTRA_DIST += tests/plot_page_sizes.sh
