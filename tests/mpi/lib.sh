# Helpers of the MPI tests (source after tests/lib.sh): skip unless configure
# had --enable-mpi and mpirun is here; mpirun_p P ARGS... runs pstencil under
# mpirun with P ranks (oversubscribed: this machine may have fewer cores);
# sum: the checksum line of the last expect_exit's stdout.
grep -q '^#define PS_HAVE_MPI 1' "$top_builddir/config.h" 2>/dev/null ||
  skip "pstencil was configured without MPI (./configure --enable-mpi builds it)"
MPIRUN=$(command -v mpirun || command -v mpiexec) ||
  skip "no mpirun or mpiexec on PATH"
OMP_NUM_THREADS=1
# Open MPI: run as root in containers, more ranks than cores, no CUDA-aware probing noise
OMPI_MCA_btl_vader_single_copy_mechanism=none
OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS OMPI_MCA_btl_vader_single_copy_mechanism OMPI_MCA_rmaps_base_oversubscribe
mpi_flags="--oversubscribe"
"$MPIRUN" --version 2>/dev/null | grep -q 'Open MPI' && mpi_flags="--oversubscribe --allow-run-as-root"
mpirun_p() {
  _np=$1; shift
  # shellcheck disable=SC2086
  "$MPIRUN" $mpi_flags -np "$_np" -x PSTENCIL_PLUGIN_PATH -x OMP_NUM_THREADS "$PSTENCIL" "$@" </dev/null
}
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
