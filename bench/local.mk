# bench/: benchmark scripts and the NumPy baseline.
# gpu_bench: per-step time, copy bound and validation of any backend through
# the library API (tests/gpu/run-on-gpu.sh runs it on GPU machines).
noinst_PROGRAMS += bench/gpu_bench
bench_gpu_bench_SOURCES = bench/gpu_bench.c
bench_gpu_bench_LDADD = core/libpstencil.la -lm
