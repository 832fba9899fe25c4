dnl PS_SUMMARY: what will be built, and why. The backends come from the list
dnl (PS_BACKEND_LIST_READ); each backend's configure check, if it has one,
dnl sets ps_NAME_happy (yes/no) and ps_NAME_why (the reason).
AC_DEFUN([PS_SUMMARY], [
  cat <<PSEOF

pstencil $PACKAGE_VERSION configuration summary
  prefix            : $prefix
  compiler          : $CC $CFLAGS $PS_CFLAGS
  netCDF-C          : $ps_summary_netcdf
  backends (backends/ps_backends.h; plugins load at run time from $libdir/pstencil):
PSEOF
  for ps_e in $ps_backend_entries; do
    ps_n=`echo $ps_e | $SED 's/:.*//'`
    ps_k=`echo $ps_e | $SED 's/^[[^:]]*:\([[^:]]*\):.*/\1/'`
    ps_c=`echo $ps_e | $SED 's/.*://'`
    eval "ps_h=\${ps_${ps_n}_happy-}; ps_w=\${ps_${ps_n}_why-}"
    if test -z "$ps_h"; then
      case $ps_k:$ps_c in
        CHECK:*) ps_h=yes; ps_w="built by make check for the tests, never installed" ;;
        *:1) ps_h=yes; ps_w="always built" ;;
        *) ps_h=unknown; ps_w="no configure check sets ps_${ps_n}_happy" ;;
      esac
    fi
    case $ps_k in
      BUILTIN) ps_k="built in" ;;
      PLUGIN) ps_k=plugin ;;
      CHECK) ps_k="check only" ;;
    esac
    printf '    %-15s : %-10s %s (%s)\n' "$ps_n" "$ps_k" "$ps_h" "$ps_w"
  done
  cat <<PSEOF
  images (PLplot)   : $ps_plplot_happy ($ps_plplot_why)
  plotly.js         : ${PLOTLY_JS:-none (HTML references the CDN)}
  NumPy baseline    : $ps_python_why
PSEOF
])
