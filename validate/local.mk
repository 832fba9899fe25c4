# validate/: cross-backend validation, libpstencil-validate, the layer above
# the engine (it needs nothing else: its test fields are its own): synthetic
# cases and coordinates, a backend run, verdicts from the engine's comparison
# (core/ps_compare.h), the suite behind `pstencil validate` and its report.
lib_LTLIBRARIES += validate/libpstencil-validate.la
validate_libpstencil_validate_la_SOURCES = validate/ps_validate_cases.c \
	validate/ps_validate_fields.c validate/ps_validate_coords.c validate/ps_validate_verdict.c \
	validate/ps_validate_run.c validate/ps_validate_plan.c validate/ps_validate_suite.c \
	validate/ps_validate_report.c validate/ps_validate_decomp.c validate/ps_validate_internal.h
validate_libpstencil_validate_la_LIBADD = core/libpstencil.la -lm
validate_libpstencil_validate_la_LDFLAGS = -version-info 0:0:0
pkginclude_HEADERS += validate/ps_validate.h
pkgconfig_DATA += pstencil-validate.pc
