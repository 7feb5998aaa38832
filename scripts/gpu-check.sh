#!/usr/bin/env bash
# One command for a GPU node (docs/benchmarks.md, "GPU and many-core runs"): check the
# machine, set up, build hcart with CUDA (and with OpenMP for the host CPU), run the test
# suite on the GPU, run the GPU and many-core benchmarks, and pack every log and JSON into
# one archive.
#
#   scripts/gpu-check.sh [--kit DIR] [STEP ...]
#
# STEPs, in this order when none is named: setup build test bench cpu
#   setup  the kit's setup.sh (parallel HDF5, toml11, Kokkos 4.6.01 CUDA + OpenMP builds)
#   unpack instead of setup and build: the builds scripts/gpu-pack.sh packed into the kit
#          elsewhere, put back at their paths (build-cuda and build-openmp link to them);
#          only the kit's HDF5 packages are installed
#   build  build-cuda (nvcc_wrapper, Kokkos CUDA) and build-openmp (host compiler, OpenMP)
#   test   the whole suite of build-cuda (ranks share the GPU); JUnit XML and a log
#   bench  on the GPU: Jacobi sweep against the device copy over a sweep of mesh sizes; a
#          user's kernels (FieldAccessor, views) against a plain MDRange sweep; the
#          halo exchange split (pack, MPI, unpack, and a device copy of the same bytes) on 2
#          and 4 ranks; Jacobi3D and ZEUS runs with JSON reports, and ZEUS on the GPU
#          against the same deck on the CPU build
#   tiles  (only when named) the copy kernel and the Jacobi sweep at 256^3 and 512^3 for
#          each device tiling in HCART_GPU_TILES (tiles:THREADS/K values of HCART_DEVICE_LAUNCH)
#   launches (only when named) the device launch shapes of HCART_GPU_LAUNCHES (comma-separated
#          HCART_DEVICE_LAUNCH values) side by side in one run per mesh size of
#          HCART_GPU_LAUNCH_SIZES (default 256 512): copy, sweep kernel and solver iteration
#          through for_each_cell, checked bitwise against the first shape
#   halo   (only when named; bench runs it too) the exchanger benchmark on 2 and 4 ranks at
#          256^3 and 512^3: pack + unpack against a device copy, Faces and Full, both ways
#          of staging through pinned memory; under MPS or time-sliced as the run shares
#   multigrid (only when named) Jacobi3D's multigrid deck on the GPU (1 and 2 ranks; 1 rank
#          again with its timers fenced, for each level's time) and on the host build (1 rank
#          of P threads): V-cycles, time per cycle, and the final fields compared
#          (hcart-compare, bitwise and within 1e-12)
#   layouts (only when named) the host CPU: Jacobi3D's default deck (1000 iterations, the
#          automatic iterations per pass) at every ranks x threads layout of P cores whose
#          threads are a power of two, threads bound to cores
#   threads (only when named) the host CPU: the copy bandwidth of P ranks; Jacobi3D on P
#          ranks and on 1 rank of P threads (also bound to cores) at the automatic depth and
#          at each of HCART_GPU_THREAD_DEPTHS (default 0 1 2) iterations per pass
#   cpu    the host CPU: Jacobi3D at every ranks x threads layout of its cores (P x 1,
#          sqrt(P) x sqrt(P), 1 x P; ranks bound to cores) and the copy bandwidth of P ranks;
#          ZEUS Sod and Sedov on P ranks (zone updates per second against the GPU's)
# Before any step it checks the machine and stops with one line (exit 2) when it does not
# fit: nvidia-smi present, at least one GPU, a driver of the R580 series or newer (CUDA 13),
# and a compute mode that lets several processes share a GPU (Default; Exclusive_Process
# only with MPS). Several ranks share one GPU through MPS when nvidia-cuda-mps-control is
# there and HCART_GPU_MPS is not 0 (the script starts and stops its daemon); without it they
# time-slice the GPU, and
# tests of more than HCART_GPU_MAX_RANKS ranks per GPU (default 4) are left out, by name.
# Every step runs under a time limit (seconds: HCART_GPU_LIMIT_SETUP 300, _BUILD 600,
# _TEST 900, _BENCH 600, _CPU 300), so one hung test cannot take the whole run, and
# HCART_GPU_DEADLINE (seconds from the start; none by default) caps every command so the
# whole run ends in time (a command that would get under 5 s is left out). The test step runs
# HCART_GPU_TEST_JOBS tests at once (default 4) and leaves out, besides, the tests matched by
# the regular expression HCART_GPU_TEST_EXCLUDE; HCART_GPU_TEST_ONLY runs only those it matches.
# Logs and JSON go to HCART_GPU_LOGS (default out/gpu); when $OUT is set (the device tool's
# results folder) they are packed at the end, also after a failure, into
# $OUT/gpu-check.tar.gz, beside a copy of summary.txt.
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
    setup|unpack|build|test|bench|tiles|launches|halo|multigrid|layouts|threads|cpu) steps+=("$1"); shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (expected --kit DIR or setup|unpack|build|test|bench|tiles|launches|halo|multigrid|layouts|threads|cpu)" >&2; exit 2 ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || steps=(setup build test bench cpu)
out=${HCART_GPU_LOGS:-out/gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
results=${OUT:-}
jobs=$(nproc)
cuda=${KOKKOS_CUDA:-/opt/kokkos-cuda}
openmp=${KOKKOS_OPENMP:-/opt/kokkos-openmp}
hdf5_flag=()
[ -x /usr/bin/h5pcc.openmpi ] && hdf5_flag=(-DHDF5_C_COMPILER_EXECUTABLE=/usr/bin/h5pcc.openmpi)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

say() { echo "gpu-check.sh: $*" | tee -a "$out/summary.txt"; }
refuse() { echo "gpu-check.sh: $*" | tee -a "$out/summary.txt" >&2; exit 2; }
limit=600 # seconds, per command: set by each step
deadline=${HCART_GPU_DEADLINE:-0}
timed() { # label, command...: runs it with its output in $out/<label>.log, within $limit s
  local label=$1 start=$SECONDS rc=0 cap=$limit
  shift
  if [ "$deadline" -gt 0 ]; then
    [ $((deadline - SECONDS)) -lt "$cap" ] && cap=$((deadline - SECONDS))
    if [ "$cap" -lt 5 ]; then
      say "$label: left out, the deadline of $deadline s is reached"
      return 124
    fi
  fi
  timeout --kill-after=10 "$cap" "$@" >"$out/$label.log" 2>&1 || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    say "$label: stopped at the time limit of $cap s (log: $label.log)"
  else
    say "$label: exit $rc after $((SECONDS - start)) s (log: $label.log)"
  fi
  return $rc
}

# Packs the logs into $OUT (at most a few files come back from a device call), named after
# the logs' folder so that two runs into one $OUT (time-sliced, then MPS) keep both.
pack() {
  [ -n "$results" ] || return 0
  mkdir -p "$results"
  local name
  name=$(basename "$out")
  # Without the field files (the multigrid and ZEUS runs write tens of MB; their comparisons
  # are in the logs): run 5's archive came to more than the device tool returns, and was lost.
  tar -czf "$results/$name.tar.gz" --exclude='*.h5' --exclude='*.xmf' -C "$(dirname "$out")" "$name" 2>/dev/null || true
  cp "$out/summary.txt" "$results/$name-summary.txt" 2>/dev/null || true
}

mps_pipe=""
stop_mps() {
  if [ -n "$mps_pipe" ]; then
    echo quit | CUDA_MPS_PIPE_DIRECTORY=$mps_pipe nvidia-cuda-mps-control >/dev/null 2>&1 || true
    mps_pipe=""
  fi
}
trap 'stop_mps; pack' EXIT

# The machine: GPUs, driver, compute mode; MPS or a cap on ranks per GPU.
max_ranks=${HCART_GPU_MAX_RANKS:-4}
sharing=""
preflight() {
  command -v nvidia-smi >/dev/null || refuse "no nvidia-smi: this is not a GPU machine (or its driver is missing)"
  local query
  query=$(nvidia-smi --query-gpu=index,name,driver_version,compute_mode --format=csv,noheader 2>&1) ||
    refuse "nvidia-smi cannot query the GPUs: $(echo "$query" | head -1)"
  local gpus driver major modes
  gpus=$(echo "$query" | grep -c . || true)
  [ "$gpus" -ge 1 ] || refuse "nvidia-smi lists no GPU"
  driver=$(echo "$query" | head -1 | awk -F', *' '{print $3}')
  major=${driver%%.*}
  [[ "$major" =~ ^[0-9]+$ ]] || refuse "driver version '$driver' not understood"
  [ "$major" -ge 580 ] || refuse "driver $driver: CUDA 13 needs the R580 series or newer"
  modes=$(echo "$query" | awk -F', *' '{print $4}' | sort -u | paste -sd, -)
  local mps=0
  command -v nvidia-cuda-mps-control >/dev/null && [ "${HCART_GPU_MPS:-1}" != 0 ] && mps=1
  case "$modes" in
    Default) ;;
    Exclusive_Process) [ "$mps" -eq 1 ] ||
      refuse "compute mode Exclusive_Process and no MPS: only one rank per GPU; set Default (nvidia-smi -c DEFAULT, as root) or install MPS" ;;
    *) refuse "compute mode '$modes': the suite needs Default (or Exclusive_Process with MPS) to share a GPU between ranks" ;;
  esac
  say "$gpus GPU(s): $(echo "$query" | head -1 | awk -F', *' '{print $2}'), driver $driver, compute mode $modes"
  if [ "$mps" -eq 1 ]; then
    mps_pipe=$(mktemp -d /tmp/hcart-mps-pipe.XXXX)
    export CUDA_MPS_PIPE_DIRECTORY=$mps_pipe CUDA_MPS_LOG_DIRECTORY=$mps_pipe
    if nvidia-cuda-mps-control -d >/dev/null 2>&1; then
      sharing="mps"
      say "ranks share the GPU through MPS (daemon started, pipe $mps_pipe)"
    else
      mps_pipe=""
      unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
      say "MPS did not start: ranks time-slice the GPU"
    fi
  fi
  if [ -z "$sharing" ]; then
    sharing="time-sliced"
    say "no MPS: ranks time-slice the GPU; at most $max_ranks ranks per GPU ($gpus GPU(s)): tests of more are left out"
  fi
  max_ranks=$((max_ranks * gpus))
}

step_setup() {
  limit=${HCART_GPU_LIMIT_SETUP:-300}
  [ -f "$kit/device/setup.sh" ] || { echo "gpu-check.sh: no $kit/device/setup.sh: copy the set-up kit and the Kokkos source into $kit (device/, kokkos/)" >&2; exit 2; }
  timed setup bash "$kit/device/setup.sh" all
  nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
  lscpu >"$out/lscpu.txt" 2>&1 || true
}

# Builds packed elsewhere by scripts/gpu-pack.sh: back at the paths they were built at (their
# ctest files name them), the checkout reachable at the path it had there, and the kit's
# libraries used only where this machine lacks one.
step_unpack() {
  limit=${HCART_GPU_LIMIT_SETUP:-300}
  local pre=$kit/prebuilt name dir source lib
  [ -f "$pre/builds.txt" ] || refuse "no $pre/builds.txt: pack the builds first (scripts/gpu-pack.sh)"
  if [ ! -x /usr/bin/h5pcc.openmpi ] && [ "${HCART_GPU_UNPACK_ONLY:-0}" != 1 ]; then
    for deb in "$kit"/device/debs/*.deb; do
      case $(basename "$deb") in
        libaec0_*|libsz2_*) ls /usr/lib/x86_64-linux-gnu/libsz.so.2 >/dev/null 2>&1 && continue ;;
      esac
      dpkg -x "$deb" /
    done
  fi
  source=$(awk '$1 == "source" {print $2}' "$pre/builds.txt")
  if [ -n "$source" ] && [ "$source" != "$(pwd)" ] && [ ! -e "$source" ]; then
    mkdir -p "$(dirname "$source")"
    ln -s "$(pwd)" "$source"
  fi
  # tar reads .tar.xz through xz; where xz is missing, Python's lzma reads it.
  unpack_archive() {
    command -v xz >/dev/null && tar -xf "$1" -C / && return
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall("/")' "$1"
  }
  local here resolved
  here=$(pwd -P)
  while read -r name dir; do
    [ "$name" = source ] && continue
    # Where the archive's files land, links resolved: the build's folder is this checkout's
    # build-NAME when packed from a checkout at this very path, or from one whose path now
    # links here (above); then the folder is emptied first and the archive lands in place.
    # (Emptied afterwards, it would delete the build just unpacked, through the link, and
    # leave build-NAME a link to itself.)
    resolved=$(cd "$(dirname "$dir")" 2>/dev/null && pwd -P)/$(basename "$dir") || resolved=""
    if [ "$dir" = "$(pwd)/build-$name" ] || [ "$resolved" = "$here/build-$name" ]; then
      rm -rf "build-$name"
      unpack_archive "$(ls "$pre/$name".tar.* | head -1)"
      say "unpacked build-$name in place"
      continue
    fi
    unpack_archive "$(ls "$pre/$name".tar.* | head -1)"
    rm -rf "build-$name"
    ln -s "$dir" "build-$name"
    say "unpacked build-$name -> $dir"
  done <"$pre/builds.txt"
  # HCART_GPU_UNPACK_ONLY=1: the builds alone, nothing outside them (the kit's test does so).
  [ "${HCART_GPU_UNPACK_ONLY:-0}" = 1 ] && return 0
  mkdir -p /usr/local/lib/hcart-fallback
  for lib in "$pre"/lib/*.so*; do
    [ -e "$lib" ] || continue
    ldconfig -p | awk -v n="$(basename "$lib")" '$1 == n {f = 1} END {exit !f}' || { cp "$lib" /usr/local/lib/hcart-fallback/; say "library from the kit: $(basename "$lib")"; }
  done
  echo /usr/local/lib/hcart-fallback >/etc/ld.so.conf.d/hcart-fallback.conf
  ldconfig
  local tool
  for tool in mpiexec cmake python3; do # the ctest files name them at Debian's paths
    [ -x "/usr/bin/$tool" ] || ! command -v "$tool" >/dev/null ||
      { ln -s "$(command -v "$tool")" "/usr/bin/$tool" && say "/usr/bin/$tool -> $(command -v "$tool")"; }
  done
  # A Python the packing machine's configure found off /usr/bin (a pyenv shim): the same
  # path here, to this machine's python3.
  local py
  py=$(sed -n 's/^HCART_PYTHON3:FILEPATH=//p' build-cuda/CMakeCache.txt 2>/dev/null)
  if [ -n "$py" ] && [ ! -x "$py" ] && command -v python3 >/dev/null; then
    mkdir -p "$(dirname "$py")" && ln -sf "$(command -v python3)" "$py" && say "$py -> $(command -v python3)"
  fi
  local missing
  missing=$(find build-cuda/bin/ build-openmp/bin/ -type f -perm -u+x -exec ldd {} + 2>/dev/null | grep "not found" | sort -u || true)
  [ -z "$missing" ] || say "libraries not found: $(echo "$missing" | tr -s ' \t\n' ' ')"
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
  limit=${HCART_GPU_LIMIT_BUILD:-600}
  timed build-cuda configure_and_build build-cuda "$cuda" -DCMAKE_CXX_COMPILER="$cuda/bin/nvcc_wrapper"
  timed build-openmp configure_and_build build-openmp "$openmp"
}

step_test() {
  limit=${HCART_GPU_LIMIT_TEST:-900}
  # Tests of more ranks than the GPUs take (time-sliced) are left out by name.
  local skip=() np
  if [ "$sharing" != "mps" ]; then
    for np in $(seq $((max_ranks + 1)) 16); do skip+=("\\.np${np}\$"); done
    [ ${#skip[@]} -gt 0 ] && say "left out: tests of $((max_ranks + 1)) or more ranks"
  fi
  [ -n "${HCART_GPU_TEST_EXCLUDE:-}" ] && skip+=("$HCART_GPU_TEST_EXCLUDE") && say "left out: $HCART_GPU_TEST_EXCLUDE"
  local exclude=()
  [ ${#skip[@]} -gt 0 ] && exclude=(-E "$(IFS='|'; echo "${skip[*]}")")
  [ -n "${HCART_GPU_TEST_ONLY:-}" ] && exclude+=(-R "$HCART_GPU_TEST_ONLY") && say "only: $HCART_GPU_TEST_ONLY"
  timed test-cuda env OMP_NUM_THREADS=2 ctest --test-dir build-cuda --output-on-failure -j "${HCART_GPU_TEST_JOBS:-4}" \
    "${exclude[@]}" --output-junit "$out/test-cuda.xml" || true
  grep -E "tests passed|tests failed" "$out/test-cuda.log" | tee -a "$out/summary.txt" || true
}

step_bench() {
  limit=${HCART_GPU_LIMIT_BENCH:-600}
  local b=build-cuda/bin
  for n in 64 128 192 256 384 512; do
    timed "jacobi-roofline-$n" "$b/hcart-mpiexec" -n 1 "$b/hcart-bench-jacobi" --roofline --size "$n" \
      --iterations 50 --launches columns:128/32/8,tiles:128/64 --json "$out/jacobi-roofline-$n.json" || true
  done
  for n in 256 512; do
    timed "user-kernels-$n" "$b/hcart-mpiexec" -n 1 "$b/hcart-bench-user-kernels" --size "$n" || true
  done
  step_halo
  timed strategy-bench-np4 "$b/hcart-mpiexec" -n 4 "$b/hcart-strategy-bench" --sizes 6 --json || true
  timed jacobi3d-default "$b/hcart-mpiexec" -n 1 "$b/jacobi3d" inputs/jacobi3d/default.toml \
    --set output.directory=\""$out/jacobi3d-default"\" --set output.every=0 || true
  # ZEUS on the GPU and on the host build, the same decks; their fields compared.
  for deck in sod_x sedov; do
    for build in cuda openmp; do
      timed "zeus-$deck-$build" "build-$build/bin/hcart-mpiexec" -n 1 "build-$build/bin/zeus" \
        "inputs/zeus/$deck.toml" --set output.directory=\""$out/zeus-$deck-$build"\" \
        --set output.timers_json=\"report.json\" || true
    done
    local last
    last=$(cd "$out/zeus-$deck-cuda" 2>/dev/null && ls zeus_*.h5 | tail -1) || true
    [ -n "$last" ] && timed "zeus-$deck-gpu-vs-cpu" "$b/hcart-compare" --relative 1e-12 \
      "$out/zeus-$deck-cuda/$last" "$out/zeus-$deck-openmp/$last" || true
  done
}

# The exchanger on 2 and 4 ranks sharing the GPU (MPS or time-sliced, as the preflight set).
step_halo() {
  limit=${HCART_GPU_LIMIT_BENCH:-600}
  local b=build-cuda/bin np n
  for np in 2 4; do
    for n in 256 512; do
      timed "halo-split-np$np-$n-$sharing" "$b/hcart-mpiexec" -n "$np" "$b/hcart-bench-exchanger" \
        --size "$n" || true
    done
  done
}

# The device launch shapes (HCART_DEVICE_LAUNCH) side by side, through for_each_cell.
step_launches() {
  limit=${HCART_GPU_LIMIT_BENCH:-600}
  local b=build-cuda/bin n
  local shapes=${HCART_GPU_LAUNCHES:-columns:128/32/8,columns:256/32/8,columns:64/32/8,columns:128/32/4,columns:128/16/8,tiles:128/64}
  for n in ${HCART_GPU_LAUNCH_SIZES:-256 512}; do
    timed "launches-$n" "$b/hcart-mpiexec" -n 1 "$b/hcart-bench-jacobi" --roofline --size "$n" \
      --iterations 50 --repeats 5 --launches "$shapes" --json "$out/launches-$n.json" || true
  done
}

# Jacobi3D on the host at every ranks x threads layout, the automatic depth, threads bound.
step_layouts() {
  limit=${HCART_GPU_LIMIT_CPU:-300}
  local P=$jobs t runs=()
  for ((t = 1; t <= P; t *= 2)); do
    [ $((P % t)) -eq 0 ] && runs+=("r$((P / t))x$t=build-openmp:$((P / t))x$t")
  done
  timed cpu-layouts env OMP_PROC_BIND=close OMP_PLACES=cores python3 bench/jacobi_runs.py \
    --repeats 3 --set jacobi.max_iterations=1000 --set output.every=0 \
    --json "$out/cpu-layouts.json" "${runs[@]}" || true
}

# Jacobi3D's multigrid on the GPU against the host build: cycles, time, the final fields.
step_multigrid() {
  limit=${HCART_GPU_LIMIT_BENCH:-600}
  local deck=inputs/jacobi3d/multigrid.toml run
  # cuda-np1-fenced: the same run with its timer regions fenced (HCART_TIMER_FENCES=1), for the
  # time of each level's kernels; the others time the cycle as it runs unfenced.
  for run in cuda-np1 cuda-np1-fenced cuda-np2 openmp-np1; do
    local build=build-${run%%-np*} np=${run##*-np} launch fences=
    np=${np%-fenced}
    [ "${run%-fenced}" != "$run" ] && fences=1
    # The host run without a launcher: Open MPI binds one rank to one core, and its P
    # threads would share it (run 5 did: 1.1 s, the report's note said so).
    launch=("$build/bin/hcart-mpiexec" -n "$np")
    [ "$build" = build-openmp ] && launch=(env OMP_PROC_BIND=close OMP_PLACES=cores)
    timed "multigrid-$run" env ${fences:+HCART_TIMER_FENCES=1} OMP_NUM_THREADS="$([ "$build" = build-openmp ] && echo "$jobs" || echo 2)" \
      "${launch[@]}" "$build/bin/jacobi3d" "$deck" \
      --set output.directory=\""$out/multigrid-$run"\" --set output.timers_json=\"report.json\" || true
  done
  local last
  last=$(cd "$out/multigrid-cuda-np1" 2>/dev/null && ls jacobi3d_*.h5 | tail -1) || true
  if [ -n "$last" ]; then
    timed multigrid-gpu-vs-host-bitwise build-cuda/bin/hcart-compare --bitwise \
      "$out/multigrid-cuda-np1/$last" "$out/multigrid-openmp-np1/$last" || true
    timed multigrid-gpu-vs-host-1e-12 build-cuda/bin/hcart-compare --relative 1e-12 \
      "$out/multigrid-cuda-np1/$last" "$out/multigrid-openmp-np1/$last" || true
    timed multigrid-gpu-np1-vs-np2 build-cuda/bin/hcart-compare --bitwise \
      "$out/multigrid-cuda-np1/$last" "$out/multigrid-cuda-np2/$last" || true
    timed multigrid-gpu-np1-vs-fenced build-cuda/bin/hcart-compare --bitwise \
      "$out/multigrid-cuda-np1/$last" "$out/multigrid-cuda-np1-fenced/$last" || true
  fi
}

# The host CPU's threads against its ranks: the copy bandwidth of P ranks, then Jacobi3D's
# default deck (1000 iterations) on P ranks and on one rank of P threads (also with its
# threads bound to cores), at 1 and 2 iterations per pass and the automatic depth.
step_threads() {
  limit=${HCART_GPU_LIMIT_CPU:-300}
  local P=$jobs depth
  timed cpu-copy-np$P build-openmp/bin/hcart-mpiexec --bind-to core -n "$P" \
    build-openmp/bin/hcart-bench-jacobi --roofline --size 256 --json "$out/cpu-roofline-np$P.json" || true
  for depth in ${HCART_GPU_THREAD_DEPTHS:-0 1 2}; do
    timed "threads-ipp$depth" python3 bench/jacobi_runs.py --repeats 3 \
      --set jacobi.max_iterations=1000 --set output.every=0 --set jacobi.iterations_per_pass=$depth \
      --json "$out/threads-ipp$depth.json" "ranks=build-openmp:${P}x1" "threads=build-openmp:1x${P}" || true
    timed "threads-bound-ipp$depth" env OMP_PROC_BIND=close OMP_PLACES=cores python3 bench/jacobi_runs.py \
      --repeats 3 --set jacobi.max_iterations=1000 --set output.every=0 \
      --set jacobi.iterations_per_pass=$depth --json "$out/threads-bound-ipp$depth.json" \
      "bound=build-openmp:1x${P}" || true
  done
}

# The MDRange tiles of hcart's 3D policy (HCART_DEVICE_LAUNCH=tiles:T/K, hcart/impl/grid/DeviceLaunch.hpp): the copy
# kernel and hcart's Jacobi sweep at 256^3 and 512^3 for each setting in HCART_GPU_TILES.
step_tiles() {
  limit=${HCART_GPU_LIMIT_BENCH:-600}
  local b=build-cuda/bin t n
  for t in ${HCART_GPU_TILES:-64/64 128/64 256/64 512/64 1024/64 128/32 256/32}; do
    for n in 256 512; do
      timed "tiles-${t//\//-}-$n" env HCART_DEVICE_LAUNCH="tiles:$t" "$b/hcart-mpiexec" -n 1 \
        "$b/hcart-bench-jacobi" --roofline --size "$n" --iterations 50 --repeats 3 \
        --json "$out/tiles-${t//\//-}-$n.json" || true
    done
  done
}

step_cpu() {
  limit=${HCART_GPU_LIMIT_CPU:-300}
  local P=$jobs root layouts
  root=$(awk -v p="$P" 'BEGIN { r = int(sqrt(p) + 0.5); print (r * r == p) ? r : 0 }')
  layouts=("ranks=build-openmp:${P}x1")
  [ "$root" -gt 1 ] && layouts+=("square=build-openmp:${root}x${root}")
  layouts+=("threads=build-openmp:1x${P}")
  timed cpu-copy-np$P build-openmp/bin/hcart-mpiexec --bind-to core -n "$P" \
    build-openmp/bin/hcart-bench-jacobi --roofline --size 256 --json "$out/cpu-roofline-np$P.json" || true
  timed cpu-jacobi-layouts python3 bench/jacobi_runs.py --repeats 3 --json "$out/cpu-jacobi-layouts.json" \
    "${layouts[@]}" || true
  # ZEUS on P ranks of one thread, bound to cores: zone updates per second against the GPU's.
  local deck
  for deck in sod_x sedov; do
    timed "cpu-zeus-$deck-np$P" env OMP_NUM_THREADS=1 build-openmp/bin/hcart-mpiexec --bind-to core \
      -n "$P" build-openmp/bin/zeus "inputs/zeus/$deck.toml" \
      --set output.directory=\""$out/cpu-zeus-$deck-np$P"\" --set output.timers_json=\"report.json\" || true
  done
}

preflight
for s in "${steps[@]}"; do
  "step_$s"
done
say "done: ${steps[*]}; results in $out"
