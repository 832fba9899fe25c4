dnl PS_CHECK_MPI: --enable-mpi builds the pstencil program as an MPI program
dnl (mpi/): the MPI C compiler wrapper (Open MPI's mpicc, or MPICH's) gives
dnl MPI_CFLAGS and MPI_LIBS, used by the mpi/ sources and the program only;
dnl netCDF with parallel I/O (Debian libnetcdf-mpi-dev: pkg-config netcdf-mpi,
dnl whose netcdf.h lives in its own directory, e.g.
dnl /usr/lib/x86_64-linux-gnu/netcdf/mpi/include) replaces the serial netCDF
dnl for the whole build: the two libraries define the same symbols and cannot
dnl both be loaded into one program. Call it before PS_CHECK_NETCDF, which then
dnl takes NETCDF_CFLAGS and NETCDF_LIBS as set here. Without --enable-mpi
dnl nothing changes and nothing links MPI.
AC_DEFUN([PS_CHECK_MPI], [
  AC_REQUIRE([PKG_PROG_PKG_CONFIG])
  AC_ARG_ENABLE([mpi],
    [AS_HELP_STRING([--enable-mpi],
      [build pstencil as an MPI program (mpirun -np P pstencil run ...), with parallel
       netCDF I/O (needs mpicc and netCDF built with parallel I/O)])],
    [ps_enable_mpi=$enableval], [ps_enable_mpi=no])
  AC_ARG_VAR([MPICC], [the MPI C compiler wrapper whose flags --enable-mpi uses])
  AC_ARG_VAR([MPI_CFLAGS], [C flags for MPI (default: from $MPICC)])
  AC_ARG_VAR([MPI_LIBS], [linker flags for MPI (default: from $MPICC)])
  AC_ARG_VAR([NETCDF_MPI_INCLUDE], [directory of the parallel netCDF's netcdf.h])
  ps_mpi_happy=no
  ps_summary_mpi="no (./configure --enable-mpi to build it)"
  if test "x$ps_enable_mpi" = xyes; then
    AC_PATH_PROGS([MPICC], [mpicc mpicc.openmpi mpicc.mpich])
    test -n "$MPICC" || AC_MSG_ERROR([--enable-mpi: no MPI C compiler wrapper (mpicc) found: install openmpi-bin and libopenmpi-dev (Debian), or MPICH, or set MPICC])
    AC_MSG_CHECKING([MPI flags from $MPICC])
    if test -z "$MPI_CFLAGS$MPI_LIBS"; then
      if ps_c=`$MPICC --showme:compile 2>/dev/null` && ps_l=`$MPICC --showme:link 2>/dev/null`; then
        MPI_CFLAGS=$ps_c; MPI_LIBS=$ps_l                    # Open MPI
      elif ps_s=`$MPICC -show 2>/dev/null`; then            # MPICH: "cc -I.. -L.. -lmpi"
        MPI_CFLAGS=; MPI_LIBS=
        for ps_w in $ps_s; do
          case $ps_w in
            -I*|-D*|-pthread) MPI_CFLAGS="$MPI_CFLAGS $ps_w" ;;
            -L*|-l*|-Wl,*) MPI_LIBS="$MPI_LIBS $ps_w" ;;
          esac
        done
      else
        AC_MSG_ERROR([--enable-mpi: $MPICC tells neither --showme (Open MPI) nor -show (MPICH): set MPI_CFLAGS and MPI_LIBS])
      fi
    fi
    AC_MSG_RESULT([$MPI_CFLAGS $MPI_LIBS])
    ps_save_CFLAGS=$CFLAGS; ps_save_LIBS=$LIBS
    CFLAGS="$CFLAGS $MPI_CFLAGS"; LIBS="$MPI_LIBS $LIBS"
    AC_MSG_CHECKING([whether an MPI program links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
      [[int r; MPI_Init(0, 0); MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, 0); MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Finalize();]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([--enable-mpi: cannot link an MPI-3 program with $MPI_CFLAGS $MPI_LIBS])])
    CFLAGS=$ps_save_CFLAGS; LIBS=$ps_save_LIBS
    AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [])

    dnl netCDF with parallel I/O: pkg-config netcdf-mpi (Debian) or netcdf built with it
    ps_ncmpi_pc=
    if test -n "$PKG_CONFIG" && $PKG_CONFIG --exists netcdf-mpi; then
      ps_ncmpi_pc=netcdf-mpi
    elif test -n "$PKG_CONFIG" && $PKG_CONFIG --exists netcdf; then
      ps_ncmpi_pc=netcdf
    fi
    if test -z "$NETCDF_MPI_INCLUDE"; then
      for ps_d in `test -n "$ps_ncmpi_pc" && $PKG_CONFIG --variable=includedir $ps_ncmpi_pc` \
                  /usr/lib/*/netcdf/mpi/include /usr/include/*/netcdf/mpi /usr/include; do
        if test -f "$ps_d/netcdf_par.h" && grep -q 'NC_HAS_PARALLEL4 *1' "$ps_d/netcdf_meta.h" 2>/dev/null; then
          NETCDF_MPI_INCLUDE=$ps_d; break
        fi
      done
    fi
    AC_MSG_CHECKING([for netCDF with parallel I/O (netcdf_par.h, NC_HAS_PARALLEL4)])
    if test -z "$NETCDF_MPI_INCLUDE"; then
      AC_MSG_RESULT([no])
      AC_MSG_ERROR([--enable-mpi: no netCDF with parallel I/O found: install libnetcdf-mpi-dev (Debian) or set NETCDF_MPI_INCLUDE, NETCDF_CFLAGS and NETCDF_LIBS])
    fi
    AC_MSG_RESULT([$NETCDF_MPI_INCLUDE])
    if test -z "$NETCDF_LIBS"; then
      NETCDF_LIBS=`$PKG_CONFIG --libs $ps_ncmpi_pc 2>/dev/null`
      test -n "$NETCDF_LIBS" || NETCDF_LIBS=-lnetcdf
    fi
    if test -z "$NETCDF_CFLAGS"; then
      NETCDF_CFLAGS="-I$NETCDF_MPI_INCLUDE `$PKG_CONFIG --cflags $ps_ncmpi_pc 2>/dev/null` $MPI_CFLAGS"
    fi
    CFLAGS="$CFLAGS $NETCDF_CFLAGS"; LIBS="$NETCDF_LIBS $MPI_LIBS $LIBS"
    AC_MSG_CHECKING([whether nc_create_par links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <netcdf.h>
#include <netcdf_par.h>]],
      [[int id; return nc_create_par("x", NC_NETCDF4, MPI_COMM_WORLD, MPI_INFO_NULL, &id);]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([--enable-mpi: nc_create_par does not link with $NETCDF_CFLAGS $NETCDF_LIBS])])
    CFLAGS=$ps_save_CFLAGS; LIBS=$ps_save_LIBS
    ps_ncmpi_ver=`test -n "$ps_ncmpi_pc" && $PKG_CONFIG --modversion $ps_ncmpi_pc 2>/dev/null`
    ps_ncmpi_summary="parallel I/O: ${ps_ncmpi_pc:-netcdf} $ps_ncmpi_ver, $NETCDF_LIBS, headers $NETCDF_MPI_INCLUDE"
    ps_mpi_happy=yes
    ps_summary_mpi="yes ($MPICC; mpirun: ${MPIRUN:-none found})"
    AC_DEFINE([PS_HAVE_MPI], [1], [Define if pstencil is built as an MPI program.])
  fi
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
  AC_SUBST([MPIRUN])
  AM_CONDITIONAL([PS_HAVE_MPI], [test "x$ps_mpi_happy" = xyes])
])
