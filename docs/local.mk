# docs/: the user guide, design notes, pictures and the man page.
# The man page is made from docs/pstencil.1.in and the program's own --help
# (tools/man-page.sh): its options and exit codes cannot drift from the program.
man_MANS = docs/pstencil.1
docs/pstencil.1: $(srcdir)/docs/pstencil.1.in $(srcdir)/tools/man-page.sh cli/pstencil$(EXEEXT)
	@$(MKDIR_P) docs
	$(AM_V_GEN)$(SHELL) $(srcdir)/tools/man-page.sh $(srcdir)/docs/pstencil.1.in \
	  cli/pstencil$(EXEEXT) '$(docdir)' > $@.tmp && mv $@.tmp $@
CLEANFILES += docs/pstencil.1 docs/pstencil.1.tmp
EXTRA_DIST += docs/pstencil.1.in tools/man-page.sh
# the user docs and their pictures, installed in $(docdir) (the man page's SEE ALSO)
dist_doc_DATA = $(ps_doc_files)
ps_docimgdir = $(docdir)/img
dist_ps_docimg_DATA = $(ps_doc_images)
ps_doc_files = docs/architecture.md docs/dependencies.md docs/file-conventions.md \
	docs/model.md docs/user-guide.md docs/adding-a-backend.md docs/numerical-contract.md \
	docs/opencl.md docs/gpu.md docs/pictures.md docs/performance.md docs/adding-a-stencil.md \
	docs/reliability.md docs/knobs.md docs/python.md docs/real-data.md
ps_doc_images = docs/img/slice.png docs/img/slice_100m_thermal.png docs/img/run_diff.png \
	docs/img/animate.png docs/img/cube.png docs/img/bench_runtime_steps.png \
	docs/img/bench_runtime_steps_log.png docs/img/bench_throughput_grid.png \
	docs/img/bench_bound_fraction.png docs/img/bench_speedup.png \
	docs/img/mpi_scaling.png
