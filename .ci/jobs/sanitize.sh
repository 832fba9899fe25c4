#!/bin/bash
# CI job: gcc with AddressSanitizer and UndefinedBehaviorSanitizer, out of
# tree in build-sanitize/, then `make check` there. Any memory error, leak
# (LeakSanitizer) or undefined behaviour fails the test it happens in (UBSan
# halts on the first report). Suppressed: only the named third-party leaks of
# .ci/lsan.supp. The CUDA and HIP plugins are not built here: nvcc and hipcc
# compile them with the vendors' toolchains, which cannot be instrumented and
# whose runtimes reserve the address ranges ASan's shadow needs; their host
# code runs under the sanitizers through the gpumock plugin's tests instead.
# Tests that cannot run under ASan skip (exit 77) with their reason when
# PSTENCIL_TEST_SANITIZER is set (tests/lib.sh: skip_under_sanitizer).
set -u
cd "$(dirname "$0")/../.."
src=$(pwd)
command -v gcc >/dev/null || { echo "no gcc"; exit 77; }
echo 'int main(void){return 0;}' > /tmp/ps-san-$$.c
if ! gcc -fsanitize=address,undefined -o /tmp/ps-san-$$ /tmp/ps-san-$$.c 2>/dev/null; then
  rm -f /tmp/ps-san-$$ /tmp/ps-san-$$.c
  echo "gcc cannot link -fsanitize=address,undefined (libasan/libubsan missing)"; exit 77
fi
rm -f /tmp/ps-san-$$ /tmp/ps-san-$$.c
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
. .ci/suite-counts.sh && . .ci/job-tree.sh && ps_job_tree sanitize || exit 1
start=$(date +%s)
"$PS_JOB_CONFIGURE" CC=gcc CFLAGS="-g -O1 $SAN" LDFLAGS="$SAN" --disable-cuda --disable-hip \
  > configure.log 2>&1 || { tail -40 configure.log; echo "configure failed"; exit 1; }
make -j2 > make.log 2>&1 || { tail -60 make.log; echo "build failed"; exit 1; }
built=$(date +%s)
export PSTENCIL_TEST_SANITIZER=address,undefined
# every report also goes to a file of its own in reports/ (log_path), so one
# from a command whose failure a test expected, or whose stderr it dropped,
# still fails the job
mkdir reports
# intercept_tls_get_addr=0: gcc 12's runtime takes a dynamic TLS block whose
# start is 16 bytes into a page for a pre-2.25 glibc header and reads the
# words before it, and LeakSanitizer's stop-the-world thread then dies at
# exit (its message: "caught signal 11") where malloc happened to place such a block: a flake of
# the runtime (fixed upstream after gcc 13), not a finding
export ASAN_OPTIONS="detect_leaks=1:intercept_tls_get_addr=0:log_path=$PWD/reports/asan"
export LSAN_OPTIONS="suppressions=$src/.ci/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$PWD/reports/ubsan"
make -j2 check > check.log 2>&1
rc=$?
# ASan writes one notice per process that switches stacks with swapcontext
# (the gpumock plugin runs a block's threads as fibers for kernels with
# barriers, and announces every switch through the sanitizer's fiber
# interface): a file holding only that notice is not a report
for r in reports/*; do
  [ -f "$r" ] || continue
  grep -qv -e "^==[0-9]*==WARNING: ASan doesn't fully support makecontext/swapcontext" \
    -e '^[[:space:]]*$' "$r" || rm -f "$r"
done
if [ -n "$(ls reports)" ]; then
  echo "sanitizer reports (build-sanitize/reports):"
  head -60 reports/*
  rc=1
fi
# wall time, and the CPU time of everything run (children's user and system
# time: on a shared machine the wall time says more about the neighbours)
echo "build $((built - start)) s, make check $(($(date +%s) - built)) s;" \
  "cpu (user, system): $(times | tail -1)"
ps_suite_counts test-suite.log 300
if [ -f test-suite.log ]; then
  find tests backends -name "*.log" -exec grep -h "^SKIP: .*sanitizer" {} + 2>/dev/null | sort -u
fi
[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && { tail -60 check.log; fail=1; }
echo "${pass} passed, ${fail} failed, ${skip} skipped"
exit $rc
