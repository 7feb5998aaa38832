#!/usr/bin/env bash
# One command for a GPU node (docs/benchmarks.md, "GPU and many-core runs"): set up, build
# hcart with CUDA (and with OpenMP for the host CPU), run the test suite on the GPU, run the
# GPU and many-core benchmarks, and write every log and JSON under $OUT (default out/gpu).
#
#   scripts/gpu-check.sh [--kit DIR] [STEP ...]
#
# STEPs, in this order when none is named: setup build test bench cpu
#   setup  the kit's setup.sh (parallel HDF5, toml11, Kokkos 4.6.01 CUDA + OpenMP builds)
#   build  build-cuda (nvcc_wrapper, Kokkos CUDA) and build-openmp (host compiler, OpenMP)
#   test   the whole suite of build-cuda (1-8 ranks share the GPU); JUnit XML and a log
#   bench  on the GPU: Jacobi sweep against the device copy at 256^3 and 512^3; the halo
#          exchange split (pack, MPI, unpack) on 2 ranks; Jacobi3D and ZEUS runs with JSON
#          reports, and ZEUS on the GPU against the same deck on the CPU build
#   cpu    the host CPU: Jacobi3D at every ranks x threads layout of its cores (P x 1,
#          sqrt(P) x sqrt(P), 1 x P; ranks bound to cores) and the copy bandwidth of P ranks
# Each step skips what is already there (a second call on a warm machine goes on where the
# first stopped). --kit DIR: a folder holding the set-up kit `device/` and the Kokkos source
# `kokkos/` (default .device, git-ignored). Steps other than setup take Kokkos from
# KOKKOS_CUDA (default /opt/kokkos-cuda) and KOKKOS_OPENMP (default /opt/kokkos-openmp).
set -euo pipefail
cd "$(dirname "$0")/.."
kit=.device
steps=()
while [ $# -gt 0 ]; do
  case $1 in
    --kit) kit=${2:?--kit needs a folder}; shift 2 ;;
    setup|build|test|bench|cpu) steps+=("$1"); shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (expected --kit DIR or setup|build|test|bench|cpu)" >&2; exit 2 ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || steps=(setup build test bench cpu)
out=${OUT:-out/gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
jobs=$(nproc)
cuda=${KOKKOS_CUDA:-/opt/kokkos-cuda}
openmp=${KOKKOS_OPENMP:-/opt/kokkos-openmp}
hdf5_flag=()
[ -x /usr/bin/h5pcc.openmpi ] && hdf5_flag=(-DHDF5_C_COMPILER_EXECUTABLE=/usr/bin/h5pcc.openmpi)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

say() { echo "gpu-check.sh: $*" | tee -a "$out/summary.txt"; }
timed() { # label, command...: runs it with its output in $out/<label>.log
  local label=$1 start=$SECONDS rc=0
  shift
  "$@" >"$out/$label.log" 2>&1 || rc=$?
  say "$label: exit $rc after $((SECONDS - start)) s (log: $label.log)"
  return $rc
}

step_setup() {
  [ -f "$kit/device/setup.sh" ] || { echo "gpu-check.sh: no $kit/device/setup.sh: copy the set-up kit and the Kokkos source into $kit (device/, kokkos/)" >&2; exit 2; }
  timed setup bash "$kit/device/setup.sh" all
  nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
  lscpu >"$out/lscpu.txt" 2>&1 || true
}

configure_and_build() { # dir, kokkos prefix, extra cmake flags...
  local dir=$1 prefix=$2
  shift 2
  [ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] || [ -f "$prefix/lib64/cmake/Kokkos/KokkosConfig.cmake" ] ||
    { echo "gpu-check.sh: no Kokkos at $prefix (run the setup step)" >&2; return 2; }
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" "${hdf5_flag[@]}" "$@" &&
    cmake --build "$dir" -j "$jobs"
}
step_build() {
  timed build-cuda configure_and_build build-cuda "$cuda" -DCMAKE_CXX_COMPILER="$cuda/bin/nvcc_wrapper"
  timed build-openmp configure_and_build build-openmp "$openmp"
}

step_test() {
  # 1 to 8 ranks share the GPU; a few tests at a time keep the device and the cores busy.
  timed test-cuda env OMP_NUM_THREADS=2 ctest --test-dir build-cuda --output-on-failure -j 4 \
    --output-junit "$out/test-cuda.xml" || true
  grep -E "tests passed|tests failed" "$out/test-cuda.log" | tee -a "$out/summary.txt" || true
}

step_bench() {
  local b=build-cuda/bin
  for n in 256 512; do
    timed "jacobi-roofline-$n" "$b/hcart-mpiexec" -n 1 "$b/hcart-bench-jacobi" --roofline --size "$n" \
      --iterations 50 --json "$out/jacobi-roofline-$n.json" || true
  done
  for np in 2 4; do
    timed "halo-split-np$np" "$b/hcart-mpiexec" -n "$np" "$b/hcart-bench-halo" --size 256 || true
  done
  timed halo-bench-np4 "$b/hcart-mpiexec" -n 4 "$b/hcart-halo-bench" --sizes 6 --json || true
  timed jacobi3d-default "$b/hcart-mpiexec" -n 1 "$b/jacobi3d" inputs/jacobi3d/default.toml \
    --set output.directory=\""$out/jacobi3d-default"\" --set output.every=0 || true
  # ZEUS on the GPU and on the host build, the same decks; their fields compared.
  for deck in sod_x sedov; do
    for build in cuda openmp; do
      timed "zeus-$deck-$build" "build-$build/bin/hcart-mpiexec" -n 1 "build-$build/bin/zeus" \
        "inputs/zeus/$deck.toml" --set output.directory=\""$out/zeus-$deck-$build"\" \
        --set output.timers_json=\"report.json\" || true
    done
    if command -v h5diff >/dev/null; then
      local last
      last=$(cd "$out/zeus-$deck-cuda" 2>/dev/null && ls zeus_*.h5 | tail -1) || true
      [ -n "$last" ] && timed "zeus-$deck-gpu-vs-cpu" h5diff -r -p 1e-12 \
        "$out/zeus-$deck-cuda/$last" "$out/zeus-$deck-openmp/$last" /fields /fields || true
    fi
  done
}

step_cpu() {
  local P=$jobs root layouts
  root=$(awk -v p="$P" 'BEGIN { r = int(sqrt(p) + 0.5); print (r * r == p) ? r : 0 }')
  layouts=("ranks=build-openmp:${P}x1")
  [ "$root" -gt 1 ] && layouts+=("square=build-openmp:${root}x${root}")
  layouts+=("threads=build-openmp:1x${P}")
  timed cpu-copy-np$P build-openmp/bin/hcart-mpiexec --bind-to core -n "$P" \
    build-openmp/bin/hcart-bench-jacobi --roofline --size 256 --json "$out/cpu-roofline-np$P.json" || true
  timed cpu-jacobi-layouts python3 bench/jacobi_runs.py --repeats 3 --json "$out/cpu-jacobi-layouts.json" \
    "${layouts[@]}" || true
}

for s in "${steps[@]}"; do
  "step_$s"
done
say "done: ${steps[*]}; results in $out"
