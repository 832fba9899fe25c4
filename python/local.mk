# python/: the Python package `pstencil` (docs/python.md), a front end over
# the job layer: cffi in API mode. python/ffi_build.py writes the module's C
# source (python/_native.c), compiled here against job/pstencil_job.h and
# linked with libpstencil-job like any other module; the package's .py files
# install beside it in $(PS_PYTHON_DIR)/pstencil. For the tests the build
# tree holds the package in python/site/pstencil (PYTHONPATH=python/site).
PS_PYTHON_SOURCES = python/pstencil/__init__.py python/pstencil/_errors.py \
	python/pstencil/_job.py python/pstencil/_xr.py
EXTRA_DIST += python/ffi_build.py python/site_dir.py $(PS_PYTHON_SOURCES)
if PS_HAVE_PYTHON_PKG
pstencilpydir = $(PS_PYTHON_DIR)/pstencil
pstencilpy_LTLIBRARIES = python/_native.la
pstencilpy_DATA = $(PS_PYTHON_SOURCES)
nodist_python__native_la_SOURCES = python/_native.c
python__native_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS)
# cffi's generated code: the project's C standard, not its warning set
python__native_la_CFLAGS = -std=gnu11 -fno-strict-aliasing $(NETCDF_CFLAGS)
python__native_la_LDFLAGS = -module -avoid-version -shared
python__native_la_LIBADD = job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la
CLEANFILES += python/_native.c
python/_native.c: $(srcdir)/python/ffi_build.py $(srcdir)/job/pstencil_job.h
	$(AM_V_GEN)$(MKDIR_P) python && $(PS_PYTHON) $(srcdir)/python/ffi_build.py $@ >/dev/null

# the package in the build tree: links to the sources and the built module
PS_PYTHON_SITE = python/site/pstencil
all-local: $(PS_PYTHON_SITE)/_native.so
$(PS_PYTHON_SITE)/_native.so: python/_native.la
	$(AM_V_GEN)$(MKDIR_P) $(PS_PYTHON_SITE) && \
	for f in $(PS_PYTHON_SOURCES); do \
	  ln -sf "$(abs_top_srcdir)/$$f" $(PS_PYTHON_SITE)/; done && \
	ln -sf "$(abs_top_builddir)/python/.libs/_native.so" $@
# the installed package needs no libtool archive
install-data-hook: install-python-hook
install-python-hook:
	rm -f "$(DESTDIR)$(pstencilpydir)/_native.la"
# libtool uninstalls a module through its .la, which is not installed
uninstall-hook: uninstall-python-hook
uninstall-python-hook:
	rm -f "$(DESTDIR)$(pstencilpydir)/_native.so"
	rm -rf "$(DESTDIR)$(pstencilpydir)/__pycache__"
	-rmdir "$(DESTDIR)$(pstencilpydir)" 2>/dev/null
endif
# Makefile.am's clean-local runs it
clean-python-site:
	-rm -rf python/site
.PHONY: clean-python-site install-python-hook uninstall-python-hook
