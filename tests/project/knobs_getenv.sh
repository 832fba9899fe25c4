#!/bin/sh
# No product file reads a PSTENCIL_* environment variable outside the tuning
# knobs' one reader (core/ps_knobs_env.h) except those listed below: the
# user-facing variables and the test plugins' hooks. Every getenv() whose
# argument is not a string literal (a macro, a variable) must be listed too,
# as must every literal "PSTENCIL_..." argument.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
# FILE ARGUMENT: the allowed getenv() calls of that form
allowed='core/ps_knobs_env.h in->env
core/ps_loader.c PS_PLUGIN_PATH_ENV
core/ps_tunecache.c PS_TUNE_FILE_ENV
job/ps_job_input.c "PSTENCIL_BACKEND"
cli/cmd_run_mpi.c vars[v]
job/ps_job_ranks.c "PSTENCIL_MPI_FAIL_RANK"
backends/check/ps_check.c "PSTENCIL_CHECK_FAIL_STEP"
backends/check/ps_check.c "PSTENCIL_CHECK_PRIORITY"
backends/check/ps_check.c "PSTENCIL_CHECK_FLAGS"
backends/gpu/ps_gpu_mock.h name
backends/gpu/ps_gpu_mock.h "PSTENCIL_MOCK_FAIL"'
# test hooks: read only by the test plugins and the mock runtime (above)
hooks='PSTENCIL_MOCK_DEVICES PSTENCIL_MOCK_MEM_MB PSTENCIL_MOCK_DEFERRED'
dirs=
for d in backends core io cli bench plot validate mpi kernels job; do
  [ -d "$d" ] && dirs="$dirs $d"
done
# shellcheck disable=SC2086
find $dirs -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' \
  -o -name '*.hip' -o -name '*.cl' \) | sort >"$TMP/files"
[ -s "$TMP/files" ] || fail "no product files found"
# every getenv(ARG) as "FILE ARG", ARG up to its closing parenthesis
while read -r f; do
  grep -o '\(^\|[^A-Za-z0-9_]\)getenv([^)]*)' "$f" | sed "s|^.*getenv(\(.*\))\$|$f \1|"
done <"$TMP/files" | sort -u >"$TMP/calls"
[ -s "$TMP/calls" ] || fail "no getenv() found: the search is broken"
bad=0
while read -r f arg; do
  case "$arg" in
    \"PSTENCIL_*|[!\"]*) ;; # a PSTENCIL_ literal, or not a literal: must be listed
    *) continue ;;          # another variable (HOME, TMPDIR, OMP_*...)
  esac
  printf '%s\n' "$allowed" | grep -Fxq "$f $arg" && continue
  echo "getenv($arg) in $f: not the knobs' reader (core/ps_knobs_env.h) nor listed here" >&2
  bad=1
done <"$TMP/calls"
[ "$bad" -eq 0 ] || fail "getenv of PSTENCIL_* outside the configuration code"
# the hooks read through a variable name are literals elsewhere in their file
for h in $hooks; do
  grep -q "\"$h\"" backends/gpu/ps_gpu_mock.h || fail "test hook $h not in ps_gpu_mock.h (update the list)"
done
# the user-facing variables are documented in the man page's ENVIRONMENT section
for v in PSTENCIL_BACKEND PSTENCIL_PLUGIN_PATH PSTENCIL_TUNE_FILE; do
  sed -n '/^\.SH ENVIRONMENT/,/^\.SH [A-Z]/p' docs/pstencil.1.in | grep -q "$v" ||
    fail "$v is not in the ENVIRONMENT section of docs/pstencil.1.in"
done
exit 0
