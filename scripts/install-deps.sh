#!/usr/bin/env bash
# Install the Debian 12 packages hcart needs to build, test and run.
# Idempotent: packages already present are left alone. As a non-root user it prints
# the apt-get command instead of running it.
#   HCART_MPI=openmpi (default)  Open MPI and the HDF5 built with it
#   HCART_MPI=mpich              MPICH and its HDF5, installed beside any Open MPI; Debian
#                                keeps Open MPI the default (mpicxx), so name MPICH's
#                                wrappers to CMake (README, "Other MPIs: MPICH")
set -euo pipefail

case "${HCART_MPI:-openmpi}" in
  openmpi) mpi_packages=(openmpi-bin libopenmpi-dev libhdf5-openmpi-dev) ;;
  mpich) mpi_packages=(mpich libmpich-dev libhdf5-mpich-dev) ;;
  *)
    echo "install-deps: HCART_MPI=${HCART_MPI}: expected openmpi or mpich" >&2
    exit 2
    ;;
esac

packages=(
  build-essential cmake pkg-config git
  "${mpi_packages[@]}"                # MPI and parallel HDF5 of that MPI
  libtrilinos-kokkos-dev              # Kokkos 3.4 (Serial backend), shipped inside Trilinos
  libhwloc-dev                        # hardware topology
  hdf5-tools                          # h5ls, h5dump
  libgtest-dev googletest             # tests
  libtoml11-dev libcli11-dev nlohmann-json3-dev
  python3-h5py python3-matplotlib     # docs/plot_slice.py (run with /usr/bin/python3)
  iproute2 util-linux                 # scripts/cluster.sh and the cluster tests (ip, tc, unshare)
  slurm-wlm munge                     # scripts/cluster.sh --launcher srun (cluster.srun.* tests)
  libscotch-dev                       # hcart-bench-uneven's reference mapper (a benchmark only)
  gfortran                            # the Fortran module hcart (a build without it says so)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: not root; run this as root:"
  echo "  apt-get update && ${cmd[*]}"
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists when they are missing or older than a day.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
  apt-get update -q
fi
"${cmd[@]}"
