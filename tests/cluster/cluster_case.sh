#!/usr/bin/env bash
# hcart across real hosts: one case of the cluster tests (ctest -L cluster), each run on an
# emulated cluster of network-namespace nodes made by scripts/cluster.sh (own host names, a
# bridge, TCP between nodes). The truths the cases compare with come from outside hcart:
# host names, a one-node run's fields, the kernel's link byte counters.
#
#   cluster_case.sh CASE BIN DETECT HALO SOURCE SCRATCH MPIRUN
#     CASE     detect | halo | apps | placement | traffic | rankfile | multigrid | network
#     BIN      the build's bin/ (jacobi3d, zeus, hcart-machine, hcart-compare)
#     DETECT   the test program cluster_detect (tests/cluster/ClusterDetectTest.cpp)
#     HALO     the test program mpi_halo_exchanger (tests/framework/HaloExchangerTest.cpp)
#     SOURCE   the source tree (scripts/cluster.sh, inputs/)
#     SCRATCH  this case's folder (emptied first)
#     MPIRUN   Open MPI's mpirun (the build's)
#
# Exit 0: passed; 1: failed (what and why on stdout); 77: skipped, with the reason on stdout
# (not root, no network namespaces, no unshare): ctest shows it as skipped.
set -u
[ $# -eq 7 ] || { echo "usage: cluster_case.sh CASE BIN DETECT HALO SOURCE SCRATCH MPIRUN"; exit 2; }
case_name=$1 bin=$2 detect=$3 halo=$4 source=$5 scratch=$6 mpirun=$7

skip() {
  echo "SKIPPED: $*"
  exit 77
}
[ "$(id -u)" -eq 0 ] || skip "not root: the cluster tests make network namespaces (run them as root)"
for tool in ip tc unshare; do
  command -v "$tool" >/dev/null || skip "'$tool' not found (iproute2, util-linux)"
done
probe="hcart-probe-$$"
ip netns add "$probe" 2>/dev/null || skip "this machine cannot make network namespaces ('ip netns add' failed)"
ip netns delete "$probe"

# HCART_CLUSTER_LAUNCHER=srun runs the case under a real Slurm on the nodes
# (scripts/cluster.sh --launcher srun); the default is mpirun through the rsh agent.
launcher=${HCART_CLUSTER_LAUNCHER:-mpirun}
if [ "$launcher" = srun ]; then
  for tool in slurmctld slurmd srun munged; do
    command -v "$tool" >/dev/null || skip "'$tool' not found: the srun cases need slurm-wlm and munge"
  done
fi

# Under srun a case takes a few of its layouts: what it adds to the mpirun case is the
# launcher (a real Slurm, its PMIx wire-up, the host file's placement, SLURM_TOPOLOGY_ADDR),
# which a few uneven and round-robin layouts reach; the mpirun cases take them all.
under_srun() { [ "$launcher" = srun ]; }

unset HCART_MACHINE # the node level must come from MPI
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run_on NODES RANKS_PER_NODE MAP LOG [cluster.sh options ...] -- PROGRAM ARGS...
# (RANKS_PER_NODE one count for every node, or a list for an uneven layout: "4,4,2")
# A launch that does not end within HCART_CLUSTER_LAUNCH_SECONDS (default 240) is stopped
# (cluster.sh then takes its nodes down) and fails with the launcher's last words: a crashed
# rank can leave a launcher waiting for ever, and the case must end before CTest's timeout.
run_on() {
  local nodes=$1 rpn=$2 map=$3 log=$4 limit=${HCART_CLUSTER_LAUNCH_SECONDS:-240} status
  shift 4
  timeout --kill-after=20 "$limit" "$source/scripts/cluster.sh" --nodes "$nodes" \
    --ranks-per-node "$rpn" --map-by "$map" --mpirun "$mpirun" --launcher "$launcher" "$@" >"$log" 2>&1
  status=$?
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    echo "launch stopped after $limit s ($launcher): $(grep -v '^ *$' "$log" | tail -n 3 | tr '\n' ' ')" |
      tee -a "$log"
  fi
  return $status
}

# The node of every rank (one line) under a placement: slot fills node 0 first, node deals
# the ranks to the nodes with room in turn (as Open MPI's mappers do).
expected_nodes() { # nodes rpn map
  /usr/bin/python3 - "$@" <<'EOF'
import sys
nodes, rpn, how = int(sys.argv[1]), sys.argv[2], sys.argv[3]
slots = [int(x) for x in rpn.split(",")] if "," in rpn else [int(rpn)] * nodes
of, filled = [], [0] * len(slots)
if how == "slot":
    for u, n in enumerate(slots):
        of += [u] * n
else:
    while len(of) < sum(slots):
        for u, n in enumerate(slots):
            if filled[u] < n:
                of.append(u)
                filled[u] += 1
print(" ".join(map(str, of)))
EOF
}

# The node level as hcart-machine writes it: "node:4", or "node:[4x2,2]" for a list.
expected_node_level() { # nodes rpn
  /usr/bin/python3 - "$@" <<'EOF'
import sys
nodes, rpn = int(sys.argv[1]), sys.argv[2]
slots = [int(x) for x in rpn.split(",")] if "," in rpn else [int(rpn)] * nodes
if len(set(slots)) == 1:
    print(f"node:{nodes}")
else:
    runs, u = [], 0
    while u < len(slots):
        v = u
        while v < len(slots) and slots[v] == slots[u]:
            v += 1
        runs.append(str(slots[u]) + (f"x{v - u}" if v - u > 1 else ""))
        u = v
    print("node:[" + ",".join(runs) + "]")
EOF
}

# The ranks of a layout.
total_ranks() { # nodes rpn
  if [[ "$2" == *,* ]]; then echo $(($(tr , + <<<"$2"))); else echo $(($1 * $2)); fi
}

case_detect() {
  local spec nodes rpn map log r ranks level node_of
  local specs=("2 1 slot" "2 3 node" "4 2 slot" "4 2 node" "3 4,4,2 slot" "4 3,3,3,1 node"
    "5 2,2,2,2,1 slot")
  under_srun && specs=("4 2 node" "3 4,4,2 slot" "4 3,3,3,1 node")
  for spec in "${specs[@]}"; do
    read -r nodes rpn map <<<"$spec"
    log="$scratch/detect-$nodes-$rpn-$map"
    # The library's view, against host names (tests/cluster/ClusterDetectTest.cpp).
    run_on "$nodes" "$rpn" "$map" "$log.gtest" -- "$detect" ||
      { cat "$log.gtest"; fail "cluster_detect on $nodes nodes x $rpn ($map)"; }
    # The tool's view: the detected machine and every rank's node.
    if ! run_on "$nodes" "$rpn" "$map" "$log.machine" -- "$bin/hcart-machine" --mesh 48,48,48; then
      cat "$log.machine"
      fail "hcart-machine on $nodes nodes x $rpn ($map)"
      continue
    fi
    ranks=$(total_ranks "$nodes" "$rpn")
    level=$(expected_node_level "$nodes" "$rpn")
    # The tool's own line, wherever the launcher's warnings put it (a loaded machine once
    # printed "plm:rsh: Warning: setpgid(...) failed" first).
    local own
    own=$(grep -m 1 '^hcart-machine: ' "$log.machine")
    grep -Fq "hcart-machine: $ranks ranks, machine $level " <<<"$own" && grep -q "(detected)$" <<<"$own" ||
      { head -n 3 "$log.machine"; fail "hcart-machine did not detect $level ($nodes x $rpn, $map)"; }
    read -r -a node_of <<<"$(expected_nodes "$nodes" "$rpn" "$map")"
    for ((r = 0; r < ranks; r++)); do
      grep -q "^  rank $r: node ${node_of[$r]}\b" "$log.machine" ||
        fail "hcart-machine: rank $r is not on node ${node_of[$r]} ($nodes x $rpn, $map)"
    done
  done
}

case_halo() {
  # The halo exchanger's property test (Faces and Full, periodic and not, widths 1-3, three
  # field types; tests/framework/HaloExchangerTest.cpp) with its ranks on several hosts, and
  # the C interface's. Its random configurations on 64 trials per layout rather than 320:
  # each costs a decomposition's collectives over TCP between the hosts (320 took 150 s of
  # a CI run), and the layouts, not the configurations, are what this case adds.
  local spec nodes rpn map
  for spec in "2 3 slot" "4 1 node" "2 2 node" "3 3,2,1 node"; do
    read -r nodes rpn map <<<"$spec"
    HCART_TEST_HALO_TRIALS=64 run_on "$nodes" "$rpn" "$map" "$scratch/halo-$nodes-$rpn-$map.log" \
      --mpirun-flag -x --mpirun-flag HCART_TEST_HALO_TRIALS -- "$halo" ||
      { tail -n 40 "$scratch/halo-$nodes-$rpn-$map.log"; fail "mpi_halo_exchanger on $nodes nodes x $rpn ($map)"; }
  done
  # The C interface with the machine detected through its call across the hosts: the same
  # dims and places as hcart::Decomposition (tests/capi/CartTest.cpp).
  local capi
  capi="$(dirname "$halo")/../capi/mpi_cart_interface"
  for spec in "2 2 node" "3 3,2,1 slot"; do
    read -r nodes rpn map <<<"$spec"
    HCART_TEST_CART_DETECTED=only GTEST_FILTER='CartInterface.MeshCall*' \
      run_on "$nodes" "$rpn" "$map" "$scratch/capi-$nodes-$rpn-$map.log" \
      --mpirun-flag -x --mpirun-flag HCART_TEST_CART_DETECTED \
      --mpirun-flag -x --mpirun-flag GTEST_FILTER -- "$capi" ||
      { tail -n 40 "$scratch/capi-$nodes-$rpn-$map.log"; fail "mpi_cart_interface on $nodes nodes x $rpn ($map)"; }
  done
}

# run_and_compare NODES RPN MAP WHAT REFERENCE OUTPUT -- PROGRAM ARGS...: runs the program
# on the cluster and compares the file OUTPUT (relative to its output directory, SCRATCH/WHAT)
# with REFERENCE bitwise (hcart-compare --bitwise: every bit of every field, -0 and +0 differ).
run_and_compare() {
  local nodes=$1 rpn=$2 map=$3 what=$4 reference=$5 output=$6
  shift 7
  local d="$scratch/$what"
  if ! run_on "$nodes" "$rpn" "$map" "$d.log" -- "$@" --set output.directory="$d"; then
    tail -n 20 "$d.log"
    fail "$what: the run on $nodes nodes x $rpn (map-by $map) failed"
  elif ! "$bin/hcart-compare" --bitwise "$reference" "$d/$output" >"$d.compare" 2>&1; then
    cat "$d.compare"
    fail "$what ($nodes nodes x $rpn, map-by $map): the fields differ from the one-node run"
  else
    echo "$what ($nodes nodes x $rpn, map-by $map): bitwise equal to the one-node run"
  fi
}

case_apps() {
  # Under srun: Jacobi3D on 4x2 round-robin and on the uneven 4,4,2, ZEUS on the uneven
  # 3,3,3,1 (see under_srun).
  local jacobi=("$bin/jacobi3d" "$source/inputs/jacobi3d/default.toml" --set "mesh.size=[40,36,30]"
    --set jacobi.max_iterations=60 --set output.every=60 --set output.progress_seconds=0)
  local ref="$scratch/jacobi-one/jacobi3d_00000060.h5"
  run_on 1 1 slot "$scratch/jacobi-one.log" -- "${jacobi[@]}" --set output.directory="$scratch/jacobi-one" ||
    { cat "$scratch/jacobi-one.log"; fail "Jacobi3D on one node"; return; }
  run_and_compare 4 2 node jacobi-hierarchical "$ref" jacobi3d_00000060.h5 -- "${jacobi[@]}"
  under_srun || run_and_compare 2 3 slot jacobi-mpi "$ref" jacobi3d_00000060.h5 -- "${jacobi[@]}" \
    --set decomposition.strategy=mpi
  # Uneven layouts: nodes holding 4, 4 and 2 ranks; five nodes, the last holding one.
  run_and_compare 3 4,4,2 slot jacobi-uneven "$ref" jacobi3d_00000060.h5 -- "${jacobi[@]}"
  under_srun || run_and_compare 5 2,2,2,2,1 node jacobi-five "$ref" jacobi3d_00000060.h5 -- "${jacobi[@]}"
  # A checkpoint written on 4 nodes, the run finished on one.
  local d="$scratch/jacobi-checkpoint"
  if under_srun; then
    :
  elif run_on 4 1 slot "$d.log" -- "${jacobi[@]}" --set output.directory="$d" --set output.every=0 \
    --set output.checkpoint_every=30 --set output.checkpoint_keep=0 --set jacobi.max_iterations=30; then
    run_and_compare 1 1 slot jacobi-restart "$ref" jacobi3d_00000060.h5 -- "${jacobi[@]}" \
      --set output.restart="$d/checkpoint_00000030.h5"
  else
    tail -n 20 "$d.log"
    fail "Jacobi3D with a checkpoint on 4 nodes failed"
  fi

  local zeus=("$bin/zeus" "$source/inputs/zeus/sedov.toml" --set "mesh.size=[24,20,16]"
    --set hydro.max_steps=10 --set output.progress_seconds=0)
  ref="$scratch/zeus-one/zeus_00000010.h5"
  run_on 1 1 slot "$scratch/zeus-one.log" -- "${zeus[@]}" --set output.directory="$scratch/zeus-one" ||
    { cat "$scratch/zeus-one.log"; fail "ZEUS on one node"; return; }
  if ! under_srun; then
    run_and_compare 2 2 node zeus-hierarchical "$ref" zeus_00000010.h5 -- "${zeus[@]}"
    run_and_compare 4 2 slot zeus-weighted "$ref" zeus_00000010.h5 -- "${zeus[@]}" \
      --set decomposition.strategy=weighted
  fi
  run_and_compare 4 3,3,3,1 node zeus-uneven "$ref" zeus_00000010.h5 -- "${zeus[@]}"
}

# node_bytes LOG COLUMN: the "node bytes" row of hcart-machine's table, column 1 mpi,
# 2 weighted, 3 hierarchical (a number and a unit).
node_bytes() { awk -v c="$2" '/^node bytes/ {print $(2 * c + 1), $(2 * c + 2)}' "$1"; }

case_placement() {
  # The same ranks on the same hosts, numbered differently by the launcher: the hierarchical
  # strategy places by the detected machine, so its node bytes do not change; mpi's grid
  # follows the rank numbers, so they do.
  local map
  for map in slot node; do
    run_on 4 2 "$map" "$scratch/placement-$map.log" -- "$bin/hcart-machine" --mesh 64,64,256 ||
      { cat "$scratch/placement-$map.log"; fail "hcart-machine, map-by $map"; return; }
  done
  local h_slot h_node m_slot m_node
  h_slot=$(node_bytes "$scratch/placement-slot.log" 3) h_node=$(node_bytes "$scratch/placement-node.log" 3)
  m_slot=$(node_bytes "$scratch/placement-slot.log" 1) m_node=$(node_bytes "$scratch/placement-node.log" 1)
  echo "node bytes, map-by slot / node: mpi $m_slot / $m_node, hierarchical $h_slot / $h_node"
  [ -n "$h_slot" ] && [ "$h_slot" = "$h_node" ] || fail "hierarchical node bytes differ: $h_slot (slot), $h_node (node)"
  [ -n "$m_slot" ] && [ "$m_slot" != "$m_node" ] || fail "mpi node bytes do not depend on the placement: $m_slot, $m_node"
}

# json_node_bytes FILE: the node level's halo bytes in a report (all ranks, the whole run).
json_node_bytes() {
  /usr/bin/python3 -c 'import json,sys
levels = json.load(open(sys.argv[1]))["halo"]["levels"]
print(next(l["bytes"] for l in levels if l["name"] == "node"))' "$1"
}
# json_level_bytes REPORT LEVEL: the halo bytes of one level in an app's report.json.
json_level_bytes() {
  /usr/bin/python3 -c 'import json,sys
levels = json.load(open(sys.argv[1]))["halo"]["levels"]
print(next(l["bytes"] for l in levels if l["name"] == sys.argv[2]))' "$1" "$2"
}
# link_bytes FILE: the bytes all nodes' links sent (scripts/cluster.sh --counters), or all
# uplinks (--uplink-counters: the same columns).
link_bytes() { awk 'NR > 1 {s += $3} END {print s}' "$1"; }

# within_3_percent WHAT COUNTED SENT LEVEL LINKS: what the LINKS sent (the kernel's
# counters) must lie within 0% and +3% of hcart's count of the LEVEL's bytes (headers and
# ACKs on top of the halo bytes); prints both, and FAIL with exit 1 when not.
within_3_percent() {
  /usr/bin/python3 - "$@" <<'EOF'
import sys
what, counted, sent, level, links = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
over = (sent - counted) / counted if counted else float("inf")
print(f"{what}: hcart's {level} bytes {counted}, the {links} sent {sent}, {100 * over:+.2f}%")
if counted <= 0 or not 0 <= over <= 0.03:
    print(f"FAIL: {what}: the {links}' bytes are not within 0% to +3% of hcart's {level}-level count")
    sys.exit(1)
EOF
}

# traffic APP DECK LABEL NODES RPN SHORT LONG SET...: for each strategy, two runs on the
# layout NODES x RPN (map-by slot) differing only in the number of steps; what the links
# carried between them against hcart's node-level count. The links' bytes of each strategy
# are kept in link_of[strategy].
declare -A link_of
traffic() {
  local app=$1 deck=$2 label=$3 nodes=$4 rpn=$5 short=$6 long=$7
  shift 7
  local strategy n d hcart link
  for strategy in mpi weighted hierarchical; do
    for n in "$short" "$long"; do
      d="$scratch/traffic-$app-$label-$strategy-$n"
      run_on "$nodes" "$rpn" slot "$d.log" --counters "$d.counters" -- "$bin/$app" "$source/inputs/$app/$deck" \
        --set decomposition.strategy="$strategy" --set output.directory="$d" \
        --set output.timers_json=report.json --set output.progress_seconds=0 "$@" \
        --set "$([ "$app" = zeus ] && echo hydro.max_steps || echo jacobi.max_iterations)=$n" ||
        { cat "$d.log"; fail "$app $label $strategy $n"; return; }
    done
    local a="$scratch/traffic-$app-$label-$strategy-$short" b="$scratch/traffic-$app-$label-$strategy-$long"
    hcart=$(($(json_node_bytes "$b/report.json") - $(json_node_bytes "$a/report.json")))
    link=$(($(link_bytes "$b.counters") - $(link_bytes "$a.counters")))
    link_of[$strategy]=$link
    within_3_percent "$app $label $strategy" "$hcart" "$link" node links || failures=$((failures + 1))
  done
}

case_traffic() {
  # Faces (Jacobi3D, one iteration per pass so that every iteration exchanges; every message
  # 64 KiB or more) and Full (ZEUS: five fields per message, edges and corners too); meshes
  # on which the strategies' node bytes differ.
  traffic jacobi3d default.toml faces 4 2 10 30 --set "mesh.size=[128,256,640]" \
    --set jacobi.iterations_per_pass=1 --set output.every=0
  traffic zeus sedov.toml full 4 2 3 9 --set "mesh.size=[48,112,160]" --set output.every=0
  # An uneven layout, nodes holding 4, 4 and 2 ranks: the node level is counted as exactly,
  # and the default sends fewer node bytes than world order (mpi, weighted).
  traffic jacobi3d default.toml uneven 3 4,4,2 10 30 --set "mesh.size=[96,192,480]" \
    --set jacobi.iterations_per_pass=1 --set output.every=0
  local s
  for s in mpi weighted; do
    [ "${link_of[hierarchical]}" -lt "${link_of[$s]}" ] ||
      fail "uneven layout: hierarchical's links sent ${link_of[hierarchical]} B, not fewer than $s's ${link_of[$s]} B"
  done
}

case_rankfile() {
  # A code that cannot change a line: examples/c/jacobi.c on MPI_Dims_create +
  # MPI_Cart_create (dims 2x2x1 on 2 nodes x 2 ranks), launched as it comes and with
  # hcart-plan's rankfile. For each, what the links carried between a short and a long run
  # against the node bytes hcart-plan predicts (0% to +3%); the rankfile's fewer; the same
  # answer both ways. On 32x64x96 cells MPI's grid cuts x between the nodes as launched (faces
  # of 32x96 cells), hcart's placement cuts y (16x96).
  local example plan predicted mode n d a b link want
  example="$(dirname "$scratch")/cluster_jacobi_c"
  plan=$("$bin/hcart-plan" --mesh 32,64,96 --machine "node:2 core:2" --dims 2,2,1 \
    --hosts 10.213.0.1,10.213.0.2 --rankfile "$scratch/rankfile") || { fail "hcart-plan: $plan"; return; }
  predicted=$(sed -n 's/.*across nodes \([0-9]*\) B per exchange.* with them, \([0-9]*\) B .*as launched/\1 \2/p' <<<"$plan")
  [ -n "$predicted" ] || { fail "no prediction in hcart-plan's output: $plan"; return; }
  declare -A link_by
  for mode in rankfile launched; do
    for n in 20 60; do
      d="$scratch/$mode-$n"
      if [ "$mode" = rankfile ]; then
        run_on 2 2 slot "$d.log" --rankfile "$scratch/rankfile" --counters "$d.counters" -- "$example" 32 64 96 "$n"
      else
        run_on 2 2 slot "$d.log" --counters "$d.counters" -- "$example" 32 64 96 "$n"
      fi || { cat "$d.log"; fail "$mode $n"; return; }
    done
    a="$scratch/$mode-20" b="$scratch/$mode-60"
    link=$(($(link_bytes "$b.counters") - $(link_bytes "$a.counters")))
    link_by[$mode]=$link
    if [ "$mode" = rankfile ]; then want=$((40 * ${predicted%% *})); else want=$((40 * ${predicted##* })); fi
    /usr/bin/python3 - "unmodified code, $mode" "$want" "$link" <<'EOF' || failures=$((failures + 1))
import sys
what, want, link = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
over = (link - want) / want
print(f"{what}: hcart-plan's node bytes {want}, the links sent {link}, {100 * over:+.2f}%")
if not 0 <= over <= 0.03:
    print(f"FAIL: {what}: the links' bytes are not within 0% to +3% of hcart-plan's count")
    sys.exit(1)
EOF
  done
  [ "${link_by[rankfile]}" -lt "${link_by[launched]}" ] ||
    fail "the rankfile's links sent ${link_by[rankfile]} B, not fewer than ${link_by[launched]} B"
  [ "$(grep 'last change' "$scratch/rankfile-60.log")" = "$(grep 'last change' "$scratch/launched-60.log")" ] ||
    fail "the answer differs with the rankfile"
}

# json_level FILE SECTION WHAT: the node level's "bytes" or "messages" of a report's "halo"
# or "transfers".
json_level() {
  /usr/bin/python3 -c 'import json,sys
levels = json.load(open(sys.argv[1]))[sys.argv[2]]["levels"]
print(next(l[sys.argv[3]] for l in levels if l["name"] == "node"))' "$1" "$2" "$3"
}

case_multigrid() {
  # Jacobi3D's multigrid with its coarse levels gathered across hosts: the field after 6
  # cycles bitwise equal to one node's (4 nodes x 2 round-robin, the uneven 4,3,1, the stride
  # rule). Then the links: between a 2- and a 6-cycle run, what they sent against hcart's
  # node-level count of the exchanges and the level transfers (gathers and scatters), for
  # both rules: within 0% to +3%, plus 256 B per node message (the coarse levels' messages
  # are a few hundred bytes, so TCP/IP and MPI headers and the ACKs weigh); the machine
  # rule's transfers send fewer node bytes than the stride rule's.
  local mg=("$bin/jacobi3d" "$source/inputs/jacobi3d/multigrid.toml" --set "mesh.size=[63,63,63]"
    --set jacobi.tolerance=0 --set jacobi.max_iterations=6 --set output.every=6
    --set output.progress_seconds=0 --set output.timers_json=\"\")
  local ref="$scratch/mg-one/jacobi3d_00000006.h5"
  run_on 1 1 slot "$scratch/mg-one.log" -- "${mg[@]}" --set output.directory="$scratch/mg-one" ||
    { cat "$scratch/mg-one.log"; fail "multigrid on one node"; return; }
  run_and_compare 4 2 node mg-machine "$ref" jacobi3d_00000006.h5 -- "${mg[@]}"
  run_and_compare 3 4,3,1 slot mg-uneven "$ref" jacobi3d_00000006.h5 -- "${mg[@]}"
  run_and_compare 4 2 node mg-stride "$ref" jacobi3d_00000006.h5 -- "${mg[@]}" \
    --set multigrid.agglomeration=stride
  local rule n d a b hcart link messages
  declare -A moved_by
  for rule in machine stride; do
    for n in 2 6; do
      d="$scratch/mg-links-$rule-$n"
      run_on 4 2 node "$d.log" --counters "$d.counters" -- "${mg[@]}" --set output.directory="$d" \
        --set output.every=0 --set output.timers_json=report.json --set jacobi.max_iterations=$n \
        --set multigrid.agglomeration=$rule ||
        { tail -n 20 "$d.log"; fail "multigrid links $rule $n"; return; }
    done
    a="$scratch/mg-links-$rule-2/report.json" b="$scratch/mg-links-$rule-6/report.json"
    hcart=$(($(json_level "$b" halo bytes) + $(json_level "$b" transfers bytes) -
      $(json_level "$a" halo bytes) - $(json_level "$a" transfers bytes)))
    messages=$(($(json_level "$b" halo messages) + $(json_level "$b" transfers messages) -
      $(json_level "$a" halo messages) - $(json_level "$a" transfers messages)))
    moved_by[$rule]=$(($(json_level "$b" transfers bytes) - $(json_level "$a" transfers bytes)))
    link=$(($(link_bytes "$scratch/mg-links-$rule-6.counters") - $(link_bytes "$scratch/mg-links-$rule-2.counters")))
    /usr/bin/python3 - "multigrid, agglomeration $rule" "$hcart" "$messages" "$link" "${moved_by[$rule]}" <<'EOF' || failures=$((failures + 1))
import sys
what, hcart, messages, link, moved = sys.argv[1], *map(int, sys.argv[2:])
over = (link - hcart) / hcart if hcart else float("inf")
print(f"{what}: hcart's node bytes {hcart} in {messages} messages (of them the level transfers "
      f"{moved}), the links sent {link}, {100 * over:+.2f}%, {(link - hcart) / messages:.0f} B per message over")
if hcart <= 0 or not 0 <= link - hcart <= 0.03 * hcart + 256 * messages:
    print(f"FAIL: {what}: the links' bytes are not within 0% to +3% (+256 B per message) of hcart's node-level count")
    sys.exit(1)
EOF
  done
  [ "${moved_by[machine]}" -lt "${moved_by[stride]}" ] ||
    fail "the machine rule's transfers sent ${moved_by[machine]} node bytes, not fewer than the stride rule's ${moved_by[stride]}"
}

# Levels above the node: leaf switches as bridges, their uplinks to the core counted (and
# shaped narrower than the node links), told to the job by a topology file or by Slurm's
# per-task address (scripts/cluster.sh --switches).
case_network() {
  local spec nodes rpn map switches topology want log own per
  # Detection: the switch level from either source, block and round-robin launches, an
  # uneven tree (3 nodes of 4, 4 and 2 ranks, 2 under one switch).
  for spec in "4 2 slot 2 file switch:2_node:2" "4 2 node 2 slurm switch:2_node:2" \
    "3 4,4,2 slot 2,1 file switch:[2,1]_node:[4x2,2]" "4 2 slot 4 slurm switch:4_node:1"; do
    read -r nodes rpn map switches topology want <<<"$spec"
    want=${want//_/ }
    log="$scratch/detect-$nodes-$rpn-$map-$switches-$topology"
    run_on "$nodes" "$rpn" "$map" "$log" --switches "$switches" --topology "$topology" -- \
      "$bin/hcart-machine" --mesh 48,48,48 || { cat "$log"; fail "hcart-machine with switches $switches ($topology)"; continue; }
    own=$(grep -m 1 '^hcart-machine: ' "$log")
    grep -Fq "machine $want " <<<"$own" ||
      { head -n 5 "$log"; fail "hcart-machine did not detect '$want' ($nodes x $rpn, $map, switches $switches from $topology)"; }
    grep -q "note: network levels from" "$log" || fail "no note on the network levels ($topology)"
    # Every rank's switch and node within it, from the launcher's placement and the tree.
    local r node_of switch_of k first
    read -r -a node_of <<<"$(expected_nodes "$nodes" "$rpn" "$map")"
    switch_of=() first=()
    if [[ "$switches" == *,* ]]; then IFS=, read -r -a per <<<"$switches"; else
      per=(); for ((k = 0; k < switches; k++)); do per+=($((nodes / switches))); done; fi
    for ((k = 0; k < ${#per[@]}; k++)); do
      for ((r = 0; r < ${per[$k]}; r++)); do switch_of+=("$k"); first+=("$((${#switch_of[@]} - 1 - r))"); done
    done
    for ((r = 0; r < $(total_ranks "$nodes" "$rpn"); r++)); do
      k=${node_of[$r]}
      grep -q "^  rank $r: switch ${switch_of[$k]} node $((k - ${first[$k]})) " "$log" ||
        fail "hcart-machine: rank $r is not on switch ${switch_of[$k]}, node $((k - ${first[$k]})) ($nodes x $rpn, $map, switches $switches)"
    done
  done

  # Under srun the detection only: the traffic below is the same program on the same
  # placement, whichever launcher started it.
  under_srun && return
  # Traffic: Jacobi3D on 2 switches x 2 nodes x 2 ranks, 64x256x512 cells, where the plan
  # for the nodes alone sends 2.5 times the default's bytes over the uplinks. Each strategy
  # twice (10 and 50 iterations): what the uplinks carried between the runs against hcart's
  # switch-level count (0% to +3%), and the default with the switch level against the
  # nodes-only plan (the same network, nothing told).
  local strategy set_strategy n d a b up model
  declare -A up_of
  for strategy in hierarchical mpi weighted nodes-only; do
    topology=file set_strategy=$strategy
    [ "$strategy" = nodes-only ] && topology=none set_strategy=hierarchical
    for n in 10 50; do
      d="$scratch/uplinks-$strategy-$n"
      run_on 4 2 slot "$d.log" --switches 2 --topology "$topology" --uplink-counters "$d.uplinks" -- \
        "$bin/jacobi3d" "$source/inputs/jacobi3d/default.toml" --set "mesh.size=[64,256,512]" \
        --set jacobi.iterations_per_pass=1 --set output.every=0 --set output.progress_seconds=0 \
        --set decomposition.strategy="$set_strategy" --set output.directory="$d" \
        --set output.timers_json=report.json --set jacobi.max_iterations="$n" ||
        { tail -n 20 "$d.log"; fail "jacobi3d $strategy $n on switches"; return; }
    done
    a="$scratch/uplinks-$strategy-10" b="$scratch/uplinks-$strategy-50"
    up=$(($(link_bytes "$b.uplinks") - $(link_bytes "$a.uplinks")))
    up_of[$strategy]=$up
    [ "$strategy" = nodes-only ] && continue
    model=$(($(json_level_bytes "$b/report.json" switch) - $(json_level_bytes "$a/report.json" switch)))
    within_3_percent "jacobi3d on switches, $strategy" "$model" "$up" switch uplinks ||
      failures=$((failures + 1))
  done
  echo "uplink bytes: with the switch level ${up_of[hierarchical]}, the nodes-only plan ${up_of[nodes-only]}"
  [ "${up_of[hierarchical]}" -lt "${up_of[nodes-only]}" ] ||
    fail "the plan with the switch level sent ${up_of[hierarchical]} B over the uplinks, not fewer than the nodes-only plan's ${up_of[nodes-only]} B"
}

case "$case_name" in
  detect | halo | apps | placement | traffic | rankfile | multigrid | network) "case_$case_name" ;;
  *) echo "cluster_case.sh: unknown case '$case_name' (detect, halo, apps, placement, traffic, rankfile, multigrid, network)"; exit 2 ;;
esac
echo "$case_name: $failures failure(s)"
[ "$failures" -eq 0 ]
