#!/bin/sh
# Install what pstencil needs to build and test on Debian 12 (run as root).
# Every package is from Debian; docs/dependencies.md says why each is used.
set -e
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: run as root (it uses apt-get)" >&2
  exit 2
fi
PKGS="build-essential autoconf automake libtool pkg-config
  libnetcdf-dev netcdf-bin libudunits2-dev
  openmpi-bin libopenmpi-dev libnetcdf-mpi-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
  libplplot-dev plplot-driver-cairo
  libhwloc-dev
  cdo nco ferret-datasets
  doxygen
  clang libomp-dev valgrind python3-h5py time
  python3-numpy python3-xarray python3-netcdf4 python3-plotly esbuild python3-cftime python3-venv
  python3-cffi python3-dev python3-pytest python3-nbclient python3-ipykernel
  hipcc
  chromium
  imagemagick"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi
