#!/bin/sh
# `pstencil validate --backend cuda|hip` on a machine that has such a GPU:
# every validation case bitwise equal to the reference in exact mode.
# Skips (77), saying why, when neither backend has a device, or while the
# validate subcommand is not available in this build.
. "$top_srcdir/tests/lib.sh"
"$PSTENCIL" validate --help >/dev/null 2>&1 || skip "'pstencil validate' is not available in this build"
ran=0
why=""
for b in cuda hip; do
  # the backend's own probe decides: test_gpu_backend prints the reason
  if ! "$top_builddir/tests/gpu/test_gpu_backend" --probe "$b" >"$TMP/probe" 2>&1; then
    why="$why $(cat "$TMP/probe");"
    continue
  fi
  echo "== pstencil validate --backend $b"
  "$PSTENCIL" validate --backend "$b" || fail "pstencil validate --backend $b failed"
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || skip "no GPU backend has a device:$why"
exit 0
