dnl PS_CHECK_PLOTLY: a plotly.js file to embed in interactive HTML
dnl (--with-plotly-js=PATH; Debian's python3-plotly ships one).
AC_DEFUN([PS_CHECK_PLOTLY], [
  AC_ARG_WITH([plotly-js],
    [AS_HELP_STRING([--with-plotly-js=PATH], [plotly.js to embed in HTML output (default: search)])],
    [ps_plotly_js=$withval], [ps_plotly_js=check])
  PLOTLY_JS=""
  if test "x$ps_plotly_js" = xcheck || test "x$ps_plotly_js" = xyes; then
    for ps_f in /usr/share/javascript/plotly/plotly.min.js /usr/share/python3-plotly/plotly.js /usr/share/javascript/plotly/plotly.js; do
      if test -r "$ps_f"; then PLOTLY_JS=$ps_f; break; fi
    done
  elif test "x$ps_plotly_js" != xno; then
    test -r "$ps_plotly_js" || AC_MSG_ERROR([--with-plotly-js: cannot read $ps_plotly_js])
    PLOTLY_JS=$ps_plotly_js
  fi
  AC_MSG_CHECKING([for plotly.js])
  AC_MSG_RESULT([${PLOTLY_JS:-none (HTML output will reference the CDN)}])
  AC_DEFINE_UNQUOTED([PS_PLOTLY_JS], ["$PLOTLY_JS"], [plotly.js file embedded in HTML output])
  AC_SUBST([PLOTLY_JS])
  dnl An unminified plotly.js (Debian's python3-plotly ships only that, 8.7 MB)
  dnl is minified at build time into plot/plotly.min.js (installed in
  dnl $(pkgdatadir)) by the first of esbuild, terser, uglifyjs found.
  AC_ARG_VAR([JS_MINIFY], [JavaScript minifier for plotly.js (esbuild, terser or uglifyjs)])
  AC_PATH_PROGS([JS_MINIFY], [esbuild terser uglifyjs])
  ps_minify_plotly=no
  case $PLOTLY_JS in
    ""|*.min.js) ;;
    *) test -n "$JS_MINIFY" && ps_minify_plotly=yes ;;
  esac
  AC_MSG_CHECKING([whether to minify plotly.js at build time])
  AC_MSG_RESULT([$ps_minify_plotly${JS_MINIFY:+ ($JS_MINIFY)}])
  AM_CONDITIONAL([PS_MINIFY_PLOTLY], [test "x$ps_minify_plotly" = xyes])
])
