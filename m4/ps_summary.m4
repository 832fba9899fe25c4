dnl PS_SUMMARY: what will be built, and why.
AC_DEFUN([PS_SUMMARY], [
  cat <<PSEOF

pstencil $PACKAGE_VERSION configuration summary
  prefix            : $prefix
  compiler          : $CC $CFLAGS $PS_CFLAGS
  netCDF-C          : $ps_summary_netcdf
  backends built into libpstencil:
    reference       : yes (always: the oracle)
    openmp          : $ps_openmp_happy ($ps_openmp_why)
  plugins (loaded at run time from $libdir/pstencil):
    opencl          : $ps_opencl_happy ($ps_opencl_why)
    cuda            : $ps_cuda_happy ($ps_cuda_why)
    hip             : $ps_hip_happy ($ps_hip_why)
  images (PLplot)   : $ps_plplot_happy ($ps_plplot_why)
  plotly.js         : ${PLOTLY_JS:-none (HTML references the CDN)}
  NumPy baseline    : $ps_python_why
PSEOF
])
