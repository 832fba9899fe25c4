#!/bin/sh
# tests/stencil-list.sh [SRCDIR]: the stencils of SRCDIR/kernels/ps_stencils.h
# (the X(NAME) entries of PS_STENCIL_LIST), one a line, in the list's order,
# for the scripts that check every stencil; exit 2 when the list has none.
src=${1:-.}
names=$(sed -n '/^#define PS_STENCIL_LIST/,/^#endif/s/^[[:space:]]*X(\([A-Za-z0-9_]*\)).*/\1/p' \
          "$src/kernels/ps_stencils.h") || exit 2
[ -n "$names" ] || { echo "stencil-list.sh: no X(NAME) entry in $src/kernels/ps_stencils.h" >&2; exit 2; }
printf '%s\n' $names
