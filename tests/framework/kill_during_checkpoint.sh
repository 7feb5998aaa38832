#!/usr/bin/env bash
# A process killed (SIGKILL) while Jacobi3D writes checkpoints leaves the previous checkpoint
# loadable; truncated and foreign files are refused with exit code 2.
#   kill_during_checkpoint.sh <jacobi3d> <deck> <scratch dir> <launcher words...>
set -u
program=$1 deck=$2 dir=$3
shift 3
launch=("$@")
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

# A checkpoint every iteration of a 96^3 field (7 MiB each), killed mid-run.
"${launch[@]}" "$program" "$deck" --set mesh.size=[96,96,96] --set jacobi.max_iterations=100000 \
  --set output.checkpoint_every=1 --set output.directory="$dir/run" --set output.progress_seconds=0 \
  >"$dir/run.log" 2>&1 &
leader=$!
# Wait until a few checkpoints have been written (the run keeps the newest 2), then kill.
for _ in $(seq 1 400); do
  newest=$(ls "$dir"/run/checkpoint_*.h5 2>/dev/null | sort | tail -n 1)
  [[ "$newest" > "$dir/run/checkpoint_00000004.h5" ]] && break
  sleep 0.05
done
# Kill the launcher and every rank (Open MPI puts ranks in process groups of their own, so
# match them by the run's unique output directory on their command lines).
pkill -9 -f -- "output.directory=$dir/run" 2>/dev/null
wait "$leader" 2>/dev/null
for _ in $(seq 1 50); do
  pgrep -f -- "output.directory=$dir/run" >/dev/null || break
  sleep 0.1
done
pgrep -f -- "output.directory=$dir/run" >/dev/null && fail "the killed run is still alive"
sleep 0.5
mapfile -t checkpoints < <(ls "$dir"/run/checkpoint_*.h5 2>/dev/null | sort)
[ ${#checkpoints[@]} -ge 1 ] || fail "no checkpoint was written before the kill (log: $(tail -3 "$dir/run.log"))"
latest=${checkpoints[-1]}
echo "killed with ${#checkpoints[@]} complete checkpoints kept; in flight: $(ls "$dir"/run/*.tmp 2>/dev/null | wc -l) temporary file(s)"
# The run keeps the newest 2; a kill between completing a new one and deleting the oldest
# leaves 3, never more.
[ ${#checkpoints[@]} -le 3 ] || fail "${#checkpoints[@]} checkpoints were kept, expected at most 2 (3 right after a new one)"
step=$((10#$(basename "$latest" .h5 | sed 's/checkpoint_//')))

# The latest complete checkpoint restarts, on another number of ranks would do too.
"${launch[@]}" "$program" "$deck" --set mesh.size=[96,96,96] --set jacobi.max_iterations=$((step + 3)) \
  --set output.restart="$latest" --set output.directory="$dir/resume" --set output.progress_seconds=0 \
  >"$dir/resume.log" 2>&1 || fail "restart from $latest failed: $(tail -3 "$dir/resume.log")"
grep -q "iterations 3," "$dir/resume.log" || fail "the restart did not run 3 more iterations: $(grep iterations "$dir/resume.log")"
echo "restarted from $latest and ran 3 more iterations"

# A truncated checkpoint and a foreign file are refused: exit code 2, one clear line.
head -c $(($(stat -c %s "$latest") / 2)) "$latest" >"$dir/truncated.h5"
for bad in "$dir/truncated.h5:truncated" "$deck:not an HDF5 file"; do
  file=${bad%%:*} expect=${bad#*:}
  "${launch[@]}" "$program" "$deck" --set output.restart="$file" >"$dir/bad.log" 2>&1
  rc=$?
  [ $rc -eq 2 ] || fail "restart from $file: exit $rc, expected 2"
  grep "jacobi3d: error" "$dir/bad.log" | grep -q "$expect" || fail "restart from $file: no error line with '$expect': $(cat "$dir/bad.log")"
  echo "refused $(basename "$file"): $(grep 'jacobi3d: error' "$dir/bad.log")"
done
echo "1 passed, 0 failed"
