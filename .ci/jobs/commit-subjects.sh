#!/bin/bash
# CI job: no commit after the cut-off of tools/check-commits.sh has a subject
# over 72 characters (the history stays readable with `git log --oneline`).
# Not a git checkout (a tarball), or a shallow clone without the cut-off
# commit: skipped (77).
set -u
cd "$(dirname "$0")/../.." || exit 1
top=$(git rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(pwd -P)" ]; then
  echo "not a git checkout: no commits to check"
  exit 77
fi
tools/check-commits.sh --all
rc=$?
if [ $rc -eq 2 ]; then
  echo "the commits cannot be checked here (see above)"
  exit 77
fi
exit $rc
