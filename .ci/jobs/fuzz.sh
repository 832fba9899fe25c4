#!/bin/bash
# CI job: the reader's libFuzzer target (tests/fuzz/, `make fuzz`) for 60 s,
# built with clang -fsanitize=fuzzer,address,undefined out of tree in
# build-fuzz/, from the seeds and the regression corpus. Any crash, leak,
# undefined behaviour, timeout (5 s per input) or input that needs more than
# 256 MB fails the job; the reproducer (crash-*, timeout-*, oom-*, leak-*) is
# left in build-fuzz/ and named in the log. Prints executions per second.
# Then the whole corpus (seeds, committed and scripted regressions, what the
# run found) is replayed by the normal build under valgrind's memcheck, which
# sees invalid writes inside libnetcdf and HDF5 that ASan cannot.
set -u
cd "$(dirname "$0")/../.."
command -v clang >/dev/null || { echo "no clang"; exit 77; }
. .ci/job-tree.sh && ps_job_tree fuzz || exit 1
# DWARF 4: valgrind 3.19 cannot read clang 14's default DWARF 5 (the memcheck replay)
CC=clang CFLAGS="-g -gdwarf-4 -O2" "$PS_JOB_CONFIGURE" --disable-cuda --disable-hip \
  --disable-opencl > configure.log 2>&1 \
  || { tail -40 configure.log; echo "configure failed"; exit 1; }
grep -q 'supports -fsanitize=fuzzer\.\.\. yes' configure.log \
  || { echo "clang here does not support -fsanitize=fuzzer"; exit 77; }
make -j2 core/libpstencil.la > make.log 2>&1 || { tail -60 make.log; echo "build failed"; exit 1; }
make fuzz FUZZ_SECONDS=60 > fuzz.log 2>&1
rc=$?
grep -E '^(stat::|INFO: (Seed|Loaded)|#[0-9]+ +DONE)' fuzz.log
ls crash-* timeout-* oom-* leak-* slow-unit-* 2>/dev/null | sed "s|^|reproducer: build-fuzz/obj/|"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' fuzz.log)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' fuzz.log)
if [ $rc -ne 0 ]; then
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' fuzz.log | head -20
  tail -40 fuzz.log
  echo "fuzzing failed (make fuzz exit $rc)"
  exit 1
fi
command -v valgrind >/dev/null || { echo "no valgrind for the memcheck replay"; exit 1; }
make -j2 io/libpstencil-io.la > make.log 2>&1 || { tail -60 make.log; echo "build failed"; exit 1; }
mc=$(make fuzz-memcheck 2>&1) || { echo "$mc" | tail -80; echo "memcheck replay failed"; exit 1; }
echo "$mc" | grep 'inputs replayed'
echo "fuzz: 60 s, ${execs:-?} executions, ${rate:-?} per second, no finding; corpus clean under memcheck"
