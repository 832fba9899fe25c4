dnl PS_CHECK_PLOTLY: a plotly.js file to embed in interactive HTML
dnl (--with-plotly-js=PATH; Debian's python3-plotly ships one).
AC_DEFUN([PS_CHECK_PLOTLY], [
  AC_ARG_WITH([plotly-js],
    [AS_HELP_STRING([--with-plotly-js=PATH], [plotly.js to embed in HTML output (default: search)])],
    [ps_plotly_js=$withval], [ps_plotly_js=check])
  PLOTLY_JS=""
  if test "x$ps_plotly_js" = xcheck || test "x$ps_plotly_js" = xyes; then
    for ps_f in /usr/share/python3-plotly/plotly.js /usr/share/javascript/plotly/plotly.min.js /usr/share/javascript/plotly/plotly.js; do
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
])
