# docs/: the user guide, design notes, pictures and the man page.
man_MANS = docs/pstencil.1
EXTRA_DIST += docs/pstencil.1 $(ps_doc_files) $(ps_doc_images)
ps_doc_files = docs/architecture.md docs/dependencies.md docs/file-conventions.md \
	docs/model.md docs/user-guide.md docs/adding-a-backend.md docs/numerical-contract.md \
	docs/opencl.md docs/gpu.md docs/pictures.md docs/performance.md docs/adding-a-stencil.md \
	docs/reliability.md docs/python.md
ps_doc_images = docs/img/slice.png docs/img/slice_100m_thermal.png docs/img/run_diff.png \
	docs/img/animate.png docs/img/cube.png docs/img/bench_runtime_steps.png \
	docs/img/bench_runtime_steps_log.png docs/img/bench_throughput_grid.png \
	docs/img/bench_bound_fraction.png docs/img/bench_speedup.png
# the MPI scaling figure (bench/mpi-scaling.sh, docs/performance.md)
EXTRA_DIST += docs/img/mpi_scaling.png
