# mpi/: the MPI layer of the program (./configure --enable-mpi; m4/ps_mpi.m4):
# the halo-exchange transport, parallel netCDF I/O, agreeing on failure, and
# the MPI `run` (cli/cmd_run_mpi.c). Compiled into the pstencil program only:
# no library links MPI (the parallel netCDF that libpstencil-io then links
# needs it). Automake distributes these sources in every configuration.
if PS_HAVE_MPI
cli_pstencil_SOURCES += mpi/ps_mpi.h mpi/ps_mpi_agree.c mpi/ps_mpi_init.c mpi/ps_mpi_job.c mpi/ps_mpi_transport.c \
	mpi/ps_mpi_io.c cli/cmd_run_mpi.c
cli_pstencil_CFLAGS += -I$(top_srcdir)/mpi $(MPI_CFLAGS)
cli_pstencil_LDADD += $(NETCDF_LIBS) $(MPI_LIBS)
endif
