#!/usr/bin/env bash
# The fields zeus writes on 4 ranks (a 2x2x1 grid) equal those of 1 rank, run after run:
# the scenario in which a collective MPI-IO path corrupted data (framework/src/io/FieldFile.cpp).
#   output_determinism.sh <zeus> <hcart-compare> <deck> <scratch> <launcher for 1 rank...> -- <launcher for 4 ranks...>
set -u
zeus=$1 compare=$2 deck=$3 dir=$4
shift 4
one=() four=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do one+=("$1"); shift; done
shift
four=("$@")
rm -rf "$dir" && mkdir -p "$dir"
args=(--set "mesh.size=[12,12,12]" --set problem.sedov_radius=0.25 --set hydro.max_steps=8
      --set decomposition.strategy=mpi --set output.progress_seconds=0)
"${one[@]}" "$zeus" "$deck" "${args[@]}" --set output.directory="$dir/one" >"$dir/one.log" 2>&1 || { echo "FAIL: 1-rank run"; exit 1; }
failed=0
for run in 1 2 3 4 5; do
  "${four[@]}" "$zeus" "$deck" "${args[@]}" --set output.directory="$dir/four$run" >"$dir/four$run.log" 2>&1 || { echo "FAIL: run $run"; exit 1; }
  for field in density energy velocity_x velocity_y velocity_z; do
    if ! "$compare" --bitwise "$dir/one/zeus_00000008.h5" "$dir/four$run/zeus_00000008.h5" --field "$field" >"$dir/compare.log" 2>&1; then
      cat "$dir/compare.log"
      echo "run $run: /fields/$field differs from the 1-rank run"
      failed=$((failed + 1))
    fi
  done
done
echo "$((25 - failed)) passed, $failed failed"
[ $failed -eq 0 ]
