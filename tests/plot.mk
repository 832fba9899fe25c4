# Pictures: unit tests on synthetic data, pixel checks, browser checks, CLI.
check_PROGRAMS += tests/test_plot
tests_test_plot_SOURCES = tests/test_plot.c
tests_test_plot_LDADD = core/libpstencil.la -lm
TESTS += tests/test_plot
