#!/bin/bash
# CI job: the CF checker on pstencil's outputs. Debian packages no CF checker,
# so the main job skips tests/io/cf_check.sh; here the IOOS compliance-checker
# is installed from PyPI into a virtual environment (build-cf/venv) and the
# test runs against the main job's build. No network: skipped (77).
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
PATH=$PWD/build-cf/venv/bin:$PATH make check TESTS=tests/io/cf_check.sh > build-cf/check.log 2>&1
rc=$?
cat tests/io/cf_check.log
grep -q '^SKIP' tests/io/cf_check.log && { echo "io_cf_check skipped"; exit 1; }
[ $rc -eq 0 ] && echo "1 passed, 0 failed, 0 skipped" || echo "0 passed, 1 failed, 0 skipped"
exit $rc
