#!/bin/sh
# With the ICD loader present but no vendor driver (OCL_ICD_VENDORS names an
# empty directory), the opencl backend says there is no platform: probe and
# create fail with PS_ENODEVICE naming it.
. "$top_srcdir/tests/lib.sh"
prog="$top_builddir/tests/backends/test_opencl"
[ -x "$prog" ] || skip "tests/backends/test_opencl not built"
mkdir "$TMP/no-vendors"
OCL_ICD_VENDORS="$TMP/no-vendors" "$prog" --no-platform
