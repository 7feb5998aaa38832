#!/usr/bin/env bash
# Build and install a Kokkos 4.x for hcart from a source tarball or folder you name, with one
# of the backends hcart supports, and print the install prefix (the last line of stdout).
#
#   scripts/build-kokkos.sh SOURCE BACKEND [--prefix DIR] [--jobs N]
#
# SOURCE   a Kokkos release tarball (e.g. kokkos-4.6.01.tar.gz from GitHub) or an unpacked
#          source folder. Nothing is downloaded.
# BACKEND  openmp  OpenMP + Serial (host threads)
#          cuda    CUDA (NVIDIA Hopper, sm_90; KOKKOS_CUDA_ARCH overrides, e.g. AMPERE80)
#                  + OpenMP, compiled with nvcc from CUDA_HOME (default /usr/local/cuda)
#                  through Kokkos' nvcc_wrapper, which is installed in PREFIX/bin
#          serial  Serial only
#          cuda-check  the cuda configuration for a compile-only check of device code: every
#                  nvcc compile stops after the device front end and code generation, at
#                  PTX (NVCC_APPEND_FLAGS=--ptx while it builds), so its libraries hold no
#                  machine code and nothing can link against it; half the processor time
#                  of cuda's build (CI's stage 5, .ci/run)
# --prefix where to install. Default: a cache folder keyed by the source's checksum, the
#          backend and its options and the compilers, under HCART_KOKKOS_CACHE (default
#          ~/.cache/hcart-kokkos); a second call with the same key reuses it and builds
#          nothing.
#
# Then configure hcart with -DKokkos_ROOT=PREFIX (and for cuda also
# -DCMAKE_CXX_COMPILER=PREFIX/bin/nvcc_wrapper); README.md "Other Kokkos builds".
#
# The patches in scripts/kokkos-patches/ that name the source's version are applied (4.6.01:
# CUDA 13 API changes; harmless for host builds).
set -euo pipefail

usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "build-kokkos.sh: $*" >&2; exit 2; }

[ $# -ge 1 ] && { [ "$1" = -h ] || [ "$1" = --help ]; } && { usage; exit 0; }
[ $# -ge 2 ] || { usage >&2; exit 2; }
source=$1 backend=$2
shift 2
prefix="" jobs=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || die "--prefix needs a folder"; prefix=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive count"
            jobs=$2; shift 2 ;;
    *) die "unknown argument '$1'; expected --prefix DIR or --jobs N" ;;
  esac
done

here=$(cd "$(dirname "$0")" && pwd)
cuda_home=${CUDA_HOME:-/usr/local/cuda}
cuda_arch=${KOKKOS_CUDA_ARCH:-HOPPER90}
case $backend in
  openmp) options=(-DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON) ;;
  serial) options=(-DKokkos_ENABLE_SERIAL=ON) ;;
  cuda|cuda-check)
    [ -x "$cuda_home/bin/nvcc" ] || die "backend cuda: no nvcc at $cuda_home/bin/nvcc; set CUDA_HOME"
    [[ $cuda_arch =~ ^[A-Z]+[0-9]+$ ]] || die "KOKKOS_CUDA_ARCH='$cuda_arch'; expected a Kokkos architecture name such as HOPPER90"
    options=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_OPENMP=ON "-DKokkos_ARCH_${cuda_arch}=ON"
             -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ENABLE_CUDA_CONSTEXPR=ON) ;;
  *) die "backend '$backend'; expected openmp, cuda, cuda-check or serial" ;;
esac

# The source's identity: the tarball's checksum, or the checksum of a folder's file list and
# contents.
if [ -f "$source" ]; then
  source=$(cd "$(dirname "$source")" && pwd)/$(basename "$source")
  source_sum=$(sha256sum "$source" | cut -c1-16)
elif [ -d "$source" ]; then
  source=$(cd "$source" && pwd)
  [ -f "$source/CMakeLists.txt" ] && [ -d "$source/core" ] || die "'$source' is not a Kokkos source folder (no CMakeLists.txt and core/)"
  source_sum=$(cd "$source" && find . -type f ! -path './.git/*' -print0 | LC_ALL=C sort -z |
               xargs -0 sha256sum | sha256sum | cut -c1-16)
else
  die "source '$source' is neither a tarball nor a folder"
fi

compilers="$(c++ --version | head -n 1)"
[[ $backend == cuda* ]] && compilers="$compilers $("$cuda_home/bin/nvcc" --version | tail -n 1)"
key=$(printf '%s\n' "$source_sum" "$backend" "${options[*]}" "$compilers" \
        "$(cat "$here"/kokkos-patches/*.patch 2>/dev/null | sha256sum)" | sha256sum | cut -c1-12)

work=$(mktemp -d "${TMPDIR:-/tmp}/hcart-kokkos.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -f "$source" ]; then
  tar -xzf "$source" -C "$work" || die "cannot unpack '$source' (expected a .tar.gz)"
  tree=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  [ -n "$tree" ] && [ -f "$tree/CMakeLists.txt" ] || die "'$source' holds no Kokkos source tree"
else
  cp -a "$source" "$work/src"
  tree=$work/src
fi
version=$(sed -n 's/^ *set(Kokkos_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)).*/\2/p' "$tree/CMakeLists.txt" |
          paste -sd. -)
[ -n "$version" ] || die "cannot read the Kokkos version from $tree/CMakeLists.txt"
case $version in 4.*|5.*) ;; *) die "Kokkos $version; hcart's builds beyond Debian's 3.4 need Kokkos 4.x" ;; esac

if [ -z "$prefix" ]; then
  cache=${HCART_KOKKOS_CACHE:-$HOME/.cache/hcart-kokkos}
  prefix=$cache/kokkos-$version-$backend-$key
fi
# A finished install carries a stamp; anything else in the folder is a broken earlier try.
if [ -f "$prefix/.hcart-kokkos-complete" ]; then
  echo "build-kokkos.sh: Kokkos $version ($backend) already installed" >&2
  echo "$prefix"
  exit 0
fi

# Kokkos' version numbers print as 4.6.1 for the 4.6.01 release.
padded=$(echo "$version" | awk -F. '{printf "%d.%d.%02d", $1, $2, $3}')
for patch in "$here"/kokkos-patches/kokkos-"$padded"-*.patch; do
  [ -f "$patch" ] || continue
  echo "build-kokkos.sh: applying $(basename "$patch")" >&2
  patch -s -p1 -d "$tree" < "$patch" || die "patch $(basename "$patch") does not apply to $source"
done

cxx=(-DCMAKE_CXX_COMPILER=c++)
[[ $backend == cuda* ]] && cxx=(-DCMAKE_CXX_COMPILER="$tree/bin/nvcc_wrapper" -DCMAKE_CUDA_COMPILER="$cuda_home/bin/nvcc")
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
log=$work/build.log
echo "build-kokkos.sh: building Kokkos $version ($backend) into $prefix (log: $prefix.log)" >&2
rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
export PATH="$cuda_home/bin:$PATH"
# cuda-check: nvcc stops at PTX in the build only (the configure step's compiler checks link).
stop_at_ptx=()
[ "$backend" = cuda-check ] && stop_at_ptx=(env NVCC_APPEND_FLAGS=--ptx)
if ! { cmake -S "$tree" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF \
         "${cxx[@]}" "${options[@]}" &&
       "${stop_at_ptx[@]}" cmake --build "$work/build" -j "$jobs" &&
       cmake --install "$work/build"; } > "$log" 2>&1; then
  cp "$log" "$prefix.log"
  tail -n 30 "$log" >&2
  die "building Kokkos failed; the whole log is $prefix.log"
fi
cp "$log" "$prefix.log"
echo "$source $backend ${options[*]}" > "$prefix/.hcart-kokkos-complete"
echo "build-kokkos.sh: done" >&2
echo "$prefix"
