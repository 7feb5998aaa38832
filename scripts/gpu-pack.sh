#!/usr/bin/env bash
# Packs builds made on this machine for the GPU machine, so that its short lease goes to
# tests and benchmarks rather than to compiling (docs/benchmarks.md, "GPU and many-core runs").
#
#   scripts/gpu-pack.sh [--kit DIR] CUDA_BUILD [OPENMP_BUILD]
#
# CUDA_BUILD: a build of hcart with Kokkos CUDA for the GPU's architecture (sm_90 for an H100
# or H200); OPENMP_BUILD: a host build with Kokkos OpenMP and the benchmarks. Each build's
# programs, test files and generated files (not its object files) go into
# KIT/prebuilt/<name>.tar.xz (of the OpenMP build, its programs alone), with the absolute paths they were built at (ctest files name
# them): `gpu-check.sh unpack` puts them back at those paths there. Shared libraries the
# programs link that a Debian 12 machine has and an Ubuntu 24.04 one may lack (Open MPI's C++
# bindings, Scotch) go into KIT/prebuilt/lib, used there only for a library it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
kit=.device
if [ "${1:-}" = --kit ]; then kit=${2:?--kit needs a folder}; shift 2; fi
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "gpu-pack.sh: expected CUDA_BUILD [OPENMP_BUILD]" >&2; exit 2; }
dest=$kit/prebuilt
rm -rf "$dest"
mkdir -p "$dest/lib"
: >"$dest/builds.txt"
names=(cuda openmp)
i=0
for dir in "$@"; do
  dir=$(cd "$dir" && pwd)
  [ -f "$dir/CTestTestfile.cmake" ] || { echo "gpu-pack.sh: $dir is not a build folder (no CTestTestfile.cmake)" >&2; exit 2; }
  name=${names[$i]}
  i=$((i + 1))
  # Programs are stripped of their symbol tables (the CUDA fat binaries stay).
  find "$dir/bin" -type f -perm -u+x -exec strip --strip-unneeded {} + 2>/dev/null || true
  # The CUDA build whole (its tests run there), the OpenMP build's programs alone.
  what=${dir#/}
  [ "$name" = openmp ] && what=${dir#/}/bin
  # xz: the CUDA fat binaries pack three times smaller than with gzip (the device tool
  # carries at most 64 MiB). Left out: what cannot run there (PETSc's benchmark, the
  # cluster tests, which need network namespaces and are not run there).
  rm -f "$dest/$name".tar.*
  tar -cf - -C / --exclude='*.o' --exclude='*.a' --exclude='*.ninja_*' --exclude='*/CMakeFiles' \
    --exclude='*/bin/hcart-bench-petsc' --exclude='*/tests/cluster' "$what" |
    xz -T0 -6 >"$dest/$name.tar.xz"
  echo "$name $dir" >>"$dest/builds.txt"
  for lib in $(find "$dir/bin" -type f -perm -u+x -exec ldd {} + 2>/dev/null |
    awk '/=> \// {print $3}' | grep -E 'libmpi_cxx|libscotch|libgtest|libgmock|libfmt' | sort -u); do
    cp -L "$lib" "$dest/lib/"
  done
done
echo "source $(pwd)" >>"$dest/builds.txt"
du -sh "$dest"/* | sed 's/^/gpu-pack.sh: /'
