#!/bin/bash
# CI job: the CF checker on pstencil's outputs, errors and warnings alike
# (compliance-checker --criteria normal --test cf:1.8). Debian packages no CF
# checker, so the main job skips these checks; here the IOOS compliance-checker
# is installed from PyPI into a virtual environment (build-cf/venv) and two
# tests run against the main job's build: tests/io/cf_check.sh (the built-in
# ocean through a physical stencil, calendars, bounds, NEMO, a Levitus-shaped file) and
# tests/io/real_data.sh (docs/real-data.md on ferret-datasets' Levitus and ocean
# atlas subset, which must be installed: tools/install-deps.sh). No PyPI:
# skipped (77).
set -u
cd "$(dirname "$0")/../.."
[ -x cli/pstencil ] || { echo "the main build is missing (run after the README's test command)"; exit 1; }
rm -rf build-cf && mkdir build-cf || exit 1
python3 -m venv build-cf/venv > build-cf/venv.log 2>&1 || { tail -5 build-cf/venv.log; echo "python3 -m venv failed (python3-venv missing)"; exit 77; }
if ! build-cf/venv/bin/pip install -q compliance-checker > build-cf/pip.log 2>&1; then
  tail -5 build-cf/pip.log
  echo "compliance-checker could not be installed from PyPI (no network?)"
  exit 77
fi
passed=0 failed=0
for t in io/cf_check io/real_data; do
  PATH=$PWD/build-cf/venv/bin:$PATH PSTENCIL_REQUIRE_CF_CHECKER=1 \
    make check TESTS=tests/$t.sh > build-cf/${t#io/}.log 2>&1
  rc=$?
  cat tests/$t.log
  if [ $rc -eq 0 ] && ! grep -q '^SKIP' tests/$t.log; then
    passed=$((passed + 1))
  else
    grep -q '^SKIP' tests/$t.log && echo "$t skipped: this job needs it to run"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed, 0 skipped"
[ $failed -eq 0 ]
