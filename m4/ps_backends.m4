dnl PS_BACKEND_LIST_READ: read the backend list (backends/ps_backends.h), the
dnl one place backends are named, for the configuration summary (PS_SUMMARY)
dnl and the test suite's plugin path (tests/ps-test-env.sh). Sets
dnl ps_backend_entries (NAME:KIND:BUILT words) and substitutes
dnl PS_TEST_PLUGIN_DIRS (backends/NAME/.libs of every PLUGIN and CHECK entry).
AC_DEFUN([PS_BACKEND_LIST_READ], [
  AC_REQUIRE([AC_PROG_SED])
  ps_backend_entries=`$SED -n 's/^[[	 ]]*X(\([[a-z0-9_]]*\), *\([[A-Z]]*\), *\([[A-Za-z0-9_]]*\)).*/\1:\2:\3/p' \
    "$srcdir/backends/ps_backends.h"`
  test -n "$ps_backend_entries" ||
    AC_MSG_ERROR([no X(name, KIND, BUILT) entries in $srcdir/backends/ps_backends.h])
  PS_TEST_PLUGIN_DIRS=
  for ps_e in $ps_backend_entries; do
    case $ps_e in
      *:PLUGIN:*|*:CHECK:*)
        PS_TEST_PLUGIN_DIRS="$PS_TEST_PLUGIN_DIRS backends/`echo $ps_e | $SED 's/:.*//'`/.libs" ;;
    esac
  done
  AC_SUBST([PS_TEST_PLUGIN_DIRS])
])
