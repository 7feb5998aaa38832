#!/usr/bin/env bash
# An emulated cluster on this machine: N nodes, each a network namespace with its own host
# name, joined by a switch, and one MPI job across them. Brings the nodes up, runs the
# command with mpirun on node 0 (Open MPI's mpirun, or MPICH's Hydra mpiexec: either reaches
# the other nodes through an rsh agent that enters their namespaces), reads each node's link
# byte counters, and tears everything down, also when the job fails or the script is
# interrupted.
#
#   scripts/cluster.sh [--nodes N] [--ranks-per-node R] [--map-by slot|node]
#                      [--rankfile FILE] [--rate RATE [--burst SIZE]] [--counters FILE]
#                      [--mpirun PATH]
#                      [--switches S|LIST [--uplink-rate RATE] [--topology file|slurm|none]
#                       [--uplink-counters FILE]]
#                      [--launcher mpirun|srun]
#                      [--mpirun-flag FLAG ...] -- PROGRAM [ARGS...]
#
#   --nodes N            nodes (default 2, at most 32)
#   --ranks-per-node R   ranks on each node (default 1): mpirun -n N*R; or a list, one count
#                        per node, for an uneven layout: "4,4,2" (3 nodes, -n 10; --nodes,
#                        when given, must agree)
#   --map-by slot|node   slot (default): ranks 0..R-1 on node 0, R..2R-1 on node 1, ...;
#                        node: rank r on node r mod N
#   --rankfile FILE      place the ranks by an Open MPI rankfile instead of --map-by (e.g.
#                        hcart-plan --rankfile FILE --hosts 10.213.0.1,10.213.0.2,...: the
#                        nodes' addresses, below, are the host names the job knows)
#   --rate RATE          shape every link, both directions, with tc's token bucket (tbf):
#                        e.g. 100mbit, 1gbit; default unshaped
#   --burst SIZE         the bucket's size (default 64kb)
#   --counters FILE      write the bytes each node's link sent and received during the job:
#                        a header line, then "node address tx_bytes rx_bytes" per node
#   --mpirun PATH        Open MPI's mpirun (default mpirun.openmpi, else mpirun), or MPICH's
#                        Hydra mpiexec (mpiexec.mpich: --map-by slot only; --rankfile names a
#                        machine file of one host per rank, hcart-plan --hostfile; MPICH's
#                        UCX takes shared memory between the nodes unless UCX_TLS=tcp,self)
#   --mpirun-flag FLAG   one more mpirun argument (repeatable)
#   --switches S|LIST    leaf switches: S of them sharing the nodes evenly (node k on switch
#                        k / (N/S)), or a list of nodes per switch ("2,1"); each a bridge
#                        of its own, joined to the core bridge by an uplink (a veth pair)
#   --uplink-rate RATE   shape every uplink, both directions, with tbf (narrower than the
#                        node links: a tapered tree); default unshaped
#   --topology file|slurm|none  how the job learns the switches: file (default) writes Slurm's
#                        topology.conf ("SwitchName=leaf0 Nodes=node[0-1]", the leaves under
#                        "core") and exports HCART_TOPOLOGY_FILE; slurm gives every rank
#                        SLURM_TOPOLOGY_ADDR=core.leaf<i>.node<k> and
#                        SLURM_TOPOLOGY_ADDR_PATTERN=switch.switch.node as Slurm's tree
#                        plugin does under srun; none tells the job nothing (the
#                        network is there, the plan is the nodes' alone)
#   --uplink-counters FILE  write the bytes each uplink carried during the job: a header
#                        line, then "switch tx_bytes rx_bytes" per leaf (tx: out of the leaf)
#   --launcher mpirun|srun  mpirun (default) through the rsh agent, or a real Slurm on the
#                        nodes: a munged of the cluster's own, slurmctld on node 0, a slurmd
#                        on every node (proctrack/linuxproc, task/none; with --switches the
#                        tree topology plugin, so srun gives every task its
#                        SLURM_TOPOLOGY_ADDR), and the job run by `srun --mpi=pmix` (Debian's
#                        Slurm 22.05 launches Open MPI through PMIx, not pmi2), the ranks
#                        placed by --map-by or the uneven counts through a host file
#                        (--distribution=arbitrary). Needs slurm-wlm and munge; Open MPI only
#
# Nodes are hcart-<pid>-n<k> (host name node<k>), the switch hcart-<pid>-sw; node k has the
# address 10.213.0.<k+1>/24 on its eth0 (the documented range: 10.213.0.0/24, which exists
# only inside these namespaces, so clusters side by side do not meet). Nothing outside the
# namespaces is changed: no address on the host, no /etc/hosts entry, no route.
# Needs root, iproute2 (ip, tc), util-linux's unshare and Open MPI or MPICH. Exit status: the job's;
# 2 when the arguments or the machine cannot make a cluster (one line on stderr).
set -uo pipefail

usage_error() {
  echo "cluster.sh: $*" >&2
  exit 2
}

nodes=2 nodes_given=0 ranks_per_node=1 map_by=slot rankfile="" rate="" burst=64kb counters="" mpirun="" flags=()
switches="" uplink_rate="" topology=file uplink_counters="" use_srun=0
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=${2:-}; nodes_given=1; shift 2 || usage_error "--nodes needs a value" ;;
    --ranks-per-node) ranks_per_node=${2:-}; shift 2 || usage_error "--ranks-per-node needs a value" ;;
    --map-by) map_by=${2:-}; shift 2 || usage_error "--map-by needs a value" ;;
    --rankfile) rankfile=${2:-}; shift 2 || usage_error "--rankfile needs a file" ;;
    --rate) rate=${2:-}; shift 2 || usage_error "--rate needs a value" ;;
    --burst) burst=${2:-}; shift 2 || usage_error "--burst needs a value" ;;
    --counters) counters=${2:-}; shift 2 || usage_error "--counters needs a file" ;;
    --mpirun) mpirun=${2:-}; shift 2 || usage_error "--mpirun needs a path" ;;
    --mpirun-flag) flags+=("${2:-}"); shift 2 || usage_error "--mpirun-flag needs a value" ;;
    --switches) switches=${2:-}; shift 2 || usage_error "--switches needs a value" ;;
    --uplink-rate) uplink_rate=${2:-}; shift 2 || usage_error "--uplink-rate needs a value" ;;
    --topology) topology=${2:-}; shift 2 || usage_error "--topology needs a value" ;;
    --uplink-counters) uplink_counters=${2:-}; shift 2 || usage_error "--uplink-counters needs a file" ;;
    --launcher)
      case "${2:-}" in
        mpirun) use_srun=0 ;; srun) use_srun=1 ;;
        *) usage_error "--launcher '${2:-}': expected mpirun or srun" ;;
      esac
      shift 2 ;;
    --) shift; break ;;
    *) usage_error "unknown option '$1' (expected --nodes, --ranks-per-node, --map-by, --rankfile, --rate, --burst, --counters, --mpirun, --mpirun-flag, --switches, --uplink-rate, --topology, --uplink-counters, --launcher, then -- PROGRAM)" ;;
  esac
done
[ $# -gt 0 ] || usage_error "no program: expected -- PROGRAM [ARGS...] after the options"
[[ "$nodes" =~ ^[0-9]+$ ]] && [ "$nodes" -ge 1 ] && [ "$nodes" -le 32 ] ||
  usage_error "--nodes '$nodes': expected an integer from 1 to 32"
# Ranks per node: one count for every node, or a list.
slots=()
if [[ "$ranks_per_node" == *,* ]]; then
  IFS=, read -r -a slots <<<"$ranks_per_node"
  [ "$nodes_given" = 0 ] || [ "$nodes" -eq "${#slots[@]}" ] ||
    usage_error "--nodes $nodes but --ranks-per-node '$ranks_per_node' lists ${#slots[@]} nodes"
  nodes=${#slots[@]}
  [ "$nodes" -le 32 ] || usage_error "--ranks-per-node '$ranks_per_node': more than 32 nodes"
else
  for ((k = 0; k < nodes; k++)); do slots+=("$ranks_per_node"); done
fi
ranks=0
for count in "${slots[@]}"; do
  [[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] && [ "$count" -le 64 ] ||
    usage_error "--ranks-per-node '$ranks_per_node': expected an integer from 1 to 64, or a list of them such as 4,4,2"
  ranks=$((ranks + count))
done
[ "$map_by" = slot ] || [ "$map_by" = node ] || usage_error "--map-by '$map_by': expected slot or node"
if [ -n "$rate" ]; then
  [[ "$rate" =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)$ ]] ||
    usage_error "--rate '$rate': expected a tc rate such as 100mbit or 1gbit"
fi
[[ "$burst" =~ ^[0-9]+(b|kb|mb|k|m)?$ ]] || usage_error "--burst '$burst': expected a size such as 64kb"
# The leaf switches: every node's switch (node_switch[k]), S of them.
node_switch=()
leaves=0
if [ -n "$switches" ]; then
  if [[ "$switches" == *,* ]]; then
    IFS=, read -r -a per_switch <<<"$switches"
  else
    [[ "$switches" =~ ^[0-9]+$ ]] && [ "$switches" -ge 1 ] && [ $((nodes % switches)) -eq 0 ] ||
      usage_error "--switches '$switches': expected a count that divides the $nodes nodes, or a list of nodes per switch such as 2,1"
    per_switch=()
    for ((i = 0; i < switches; i++)); do per_switch+=($((nodes / switches))); done
  fi
  for count in "${per_switch[@]}"; do
    [[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] ||
      usage_error "--switches '$switches': expected counts of nodes >= 1"
    for ((i = 0; i < count; i++)); do node_switch+=("$leaves"); done
    leaves=$((leaves + 1))
  done
  [ "${#node_switch[@]}" -eq "$nodes" ] ||
    usage_error "--switches '$switches' holds ${#node_switch[@]} nodes, expected the $nodes nodes"
  [ "$topology" = file ] || [ "$topology" = slurm ] || [ "$topology" = none ] ||
    usage_error "--topology '$topology': expected file, slurm or none"
elif [ -n "$uplink_rate" ] || [ -n "$uplink_counters" ]; then
  usage_error "--uplink-rate and --uplink-counters need --switches"
fi
if [ -n "$uplink_rate" ]; then
  [[ "$uplink_rate" =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)$ ]] ||
    usage_error "--uplink-rate '$uplink_rate': expected a tc rate such as 100mbit or 1gbit"
fi
[ "$(id -u)" -eq 0 ] || usage_error "needs root (network namespaces); run it as root"
for tool in ip tc unshare hostname; do
  command -v "$tool" >/dev/null || usage_error "'$tool' not found: install iproute2 and util-linux"
done
if [ -z "$mpirun" ]; then
  mpirun=$(command -v mpirun.openmpi || command -v mpirun || true)
fi
[ -n "$mpirun" ] && [ -x "$mpirun" ] || usage_error "--mpirun '${mpirun}': no such program (Open MPI's mpirun or MPICH's mpiexec)"
launcher=openmpi
mpirun_version=$("$mpirun" --version 2>&1 || true)
if ! grep -Eq "Open MPI|OpenRTE" <<<"$mpirun_version"; then
  grep -q "HYDRA" <<<"$mpirun_version" ||
    usage_error "--mpirun '$mpirun' is neither Open MPI's mpirun nor MPICH's Hydra mpiexec (the cluster launches through an rsh agent)"
  launcher=hydra
fi
if [ "$use_srun" = 1 ]; then
  [ "$launcher" = openmpi ] || usage_error "--launcher srun launches Open MPI programs (through PMIx)"
  [ -z "$rankfile" ] || usage_error "--launcher srun takes --map-by or uneven counts, not --rankfile"
  for tool in slurmctld slurmd srun sinfo munged; do
    command -v "$tool" >/dev/null ||
      usage_error "--launcher srun: '$tool' not found: install slurm-wlm and munge (apt-get install slurm-wlm munge)"
  done
fi
if [ -n "$counters" ]; then
  : >"$counters" 2>/dev/null || usage_error "--counters '$counters': cannot write this file"
fi
if [ -n "$uplink_counters" ]; then
  : >"$uplink_counters" 2>/dev/null || usage_error "--uplink-counters '$uplink_counters': cannot write this file"
fi

prefix="hcart-$$"
switch="$prefix-sw"
workdir=$(mktemp -d /tmp/hcart-cluster.XXXXXX)
# Open MPI's shared-memory segments (btl vader) in a folder of this cluster's own, removed
# with it. In /dev/shm itself they are named by host name, job and local rank, which repeat
# between clusters (node0, node1, ...; under srun the job was always Slurm's first), so a
# segment an interrupted job left behind could be opened again by a later job of the same
# names, and two clusters at once would share names (docs/testing.md, "The srun launches").
shm=$(mktemp -d /dev/shm/hcart-cluster.XXXXXX)
made=()
launched=""

teardown() {
  local ns
  # A launcher still running (the script was interrupted): stop it first.
  [ -n "$launched" ] && kill -KILL "$launched" 2>/dev/null
  # The cluster's own munged (--launcher srun) runs outside the namespaces.
  [ -f "$workdir/munged.pid" ] && kill "$(cat "$workdir/munged.pid")" 2>/dev/null
  for ns in "${made[@]}"; do
    # Leftover processes of an interrupted job first, then the namespace (its links go too).
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -KILL 2>/dev/null
    ip netns delete "$ns" 2>/dev/null
  done
  made=()
  # HCART_CLUSTER_LOGS=DIR keeps the daemons' logs (--launcher srun) for a post-mortem.
  if [ -n "${HCART_CLUSTER_LOGS:-}" ]; then
    mkdir -p "$HCART_CLUSTER_LOGS" && cp "$workdir"/*.log "$workdir"/*.out "$workdir"/*.conf "$HCART_CLUSTER_LOGS"/ 2>/dev/null
  fi
  rm -rf "$workdir" "$shm"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

address() { echo "10.213.0.$(($1 + 1))"; }
node_ns() { echo "$prefix-n$1"; }

bring_up() {
  ip netns add "$switch" && made+=("$switch") || return 1
  ip -n "$switch" link add sw type bridge && ip -n "$switch" link set sw up &&
    ip -n "$switch" link set lo up || return 1
  local k ns i
  # Leaf switches: a bridge each, its uplink a veth pair (up<i> on the leaf, dn<i> on the
  # core bridge sw), shaped both ways when asked.
  for ((i = 0; i < leaves; i++)); do
    ip -n "$switch" link add "leaf$i" type bridge && ip -n "$switch" link set "leaf$i" up &&
      ip -n "$switch" link add "up$i" type veth peer name "dn$i" &&
      ip -n "$switch" link set "up$i" master "leaf$i" && ip -n "$switch" link set "dn$i" master sw &&
      ip -n "$switch" link set "up$i" up && ip -n "$switch" link set "dn$i" up || return 1
    if [ -n "$uplink_rate" ]; then
      tc -n "$switch" qdisc add dev "up$i" root tbf rate "$uplink_rate" burst "$burst" latency 400ms &&
        tc -n "$switch" qdisc add dev "dn$i" root tbf rate "$uplink_rate" burst "$burst" latency 400ms ||
        return 1
    fi
  done
  for ((k = 0; k < nodes; k++)); do
    ns=$(node_ns $k)
    ip netns add "$ns" && made+=("$ns") || return 1
    ip link add eth0 netns "$ns" type veth peer name "p$k" netns "$switch" || return 1
    local port_bridge=sw
    [ "$leaves" -gt 0 ] && port_bridge="leaf${node_switch[$k]}"
    ip -n "$switch" link set "p$k" master "$port_bridge" && ip -n "$switch" link set "p$k" up || return 1
    ip -n "$ns" addr add "$(address $k)/24" dev eth0 && ip -n "$ns" link set eth0 up &&
      ip -n "$ns" link set lo up || return 1
    if [ -n "$rate" ]; then
      # Both directions of the node's link: its eth0 out, and the switch's port into it.
      tc -n "$ns" qdisc add dev eth0 root tbf rate "$rate" burst "$burst" latency 400ms &&
        tc -n "$switch" qdisc add dev "p$k" root tbf rate "$rate" burst "$burst" latency 400ms ||
        return 1
    fi
  done
}

read_counters() { # file: node host tx rx
  local k ns
  for ((k = 0; k < nodes; k++)); do
    ns=$(node_ns $k)
    echo "$k $(address $k) $(ip netns exec "$ns" cat /sys/class/net/eth0/statistics/tx_bytes) $(ip netns exec "$ns" cat /sys/class/net/eth0/statistics/rx_bytes)"
  done >"$1"
}

read_uplinks() { # file: leaf tx rx
  local i
  for ((i = 0; i < leaves; i++)); do
    echo "$i $(ip netns exec "$switch" cat /sys/class/net/up$i/statistics/tx_bytes) $(ip netns exec "$switch" cat /sys/class/net/up$i/statistics/rx_bytes)"
  done >"$1"
}

bring_up 2>"$workdir/up.log" || usage_error "could not make the nodes: $(head -n 1 "$workdir/up.log")"

# What the job knows of the switches: a topology file, or Slurm's per-task address (set on
# every node by the agent below, and on node 0 for mpirun's own ranks).
env_line=""
if [ "$leaves" -gt 0 ]; then
  {
    for ((i = 0; i < leaves; i++)); do
      members=""
      for ((k = 0; k < nodes; k++)); do
        [ "${node_switch[$k]}" -eq "$i" ] && members+="${members:+,}node$k"
      done
      echo "SwitchName=leaf$i Nodes=$members"
    done
    echo "SwitchName=core Switches=leaf[0-$((leaves - 1))]"
  } >"$workdir/topology.conf"
  for ((k = 0; k < nodes; k++)); do
    if [ "$topology" = none ]; then
      : >"$workdir/env$k"
    elif [ "$topology" = slurm ]; then
      echo "SLURM_TOPOLOGY_ADDR=core.leaf${node_switch[$k]}.node$k SLURM_TOPOLOGY_ADDR_PATTERN=switch.switch.node; export SLURM_TOPOLOGY_ADDR SLURM_TOPOLOGY_ADDR_PATTERN;" >"$workdir/env$k"
    else
      echo "HCART_TOPOLOGY_FILE=$workdir/topology.conf; export HCART_TOPOLOGY_FILE;" >"$workdir/env$k"
    fi
  done
  env_line=". $workdir/env\$k && "
fi

# The rsh agent: "agent HOST COMMAND..." runs COMMAND as ssh would (one shell line) on the
# node whose address is HOST, under the node's host name.
cat >"$workdir/agent" <<EOF
#!/bin/sh
host=\$1
shift
k=\${host##*.}
k=\$((k - 1))
exec ip netns exec "$prefix-n\$k" unshare --uts /bin/sh -c "hostname node\$k && $env_line\$*"
EOF
chmod +x "$workdir/agent"

hosts=""
for ((k = 0; k < nodes; k++)); do
  hosts+="${hosts:+,}$(address $k):${slots[$k]}"
done
placement=(--map-by "$map_by")
if [ -n "$rankfile" ]; then
  [ -r "$rankfile" ] || usage_error "--rankfile '$rankfile': no such readable file"
  placement=(--rankfile "$(cd "$(dirname "$rankfile")" && pwd)/$(basename "$rankfile")")
fi
# ob1 named (cmake/HcartMpiLauncher.cmake): choosing it costs every rank 0.2 s at start.
mpi_flags=(--host "$hosts" "${placement[@]}" -n "$ranks"
  --mca plm_rsh_agent "$workdir/agent" --mca plm_rsh_no_tree_spawn 1
  --mca oob_tcp_if_include 10.213.0.0/24 --mca btl_tcp_if_include 10.213.0.0/24
  --mca pml ob1 --mca btl self,vader,tcp --mca btl_vader_backing_directory "$shm" --allow-run-as-root)
# Waiting ranks yield the core. Open MPI counts the nodes' slots, not this machine's cores,
# so it lets every rank spin while it waits; but the nodes' packets are moved by the kernel
# on the same cores, and a spinning rank keeps that work waiting for the next timer tick: a
# barrier took 4.4 ms on 2 nodes x 1 rank and 12.7 ms on 2 x 3 (2 cores), against 32 and
# 132 us with yielding ranks (2026-11-26).
# (Unless the caller sets it: --mpirun-flag --mca --mpirun-flag mpi_yield_when_idle ...)
case " ${flags[*]:-} " in
  *" mpi_yield_when_idle "*) ;;
  *) mpi_flags+=(--mca mpi_yield_when_idle 1) ;;
esac
if [ "$launcher" = hydra ]; then
  # MPICH's Hydra: started inside node 0's namespace, its proxies through the same agent,
  # everything on eth0 (the nodes' only network). Hydra fills the hosts in order.
  # A --rankfile is read as a machine file of one host per rank (hcart-plan --hostfile).
  [ "$map_by" = slot ] || usage_error "--map-by node needs Open MPI's mpirun"
  placement=(-hosts "$hosts")
  [ -n "$rankfile" ] && placement=(-f "$(cd "$(dirname "$rankfile")" && pwd)/$(basename "$rankfile")")
  mpi_flags=("${placement[@]}" -n "$ranks" -launcher rsh -launcher-exec "$workdir/agent" -iface eth0)
fi

# A real Slurm on the nodes (--launcher srun): its own munged and key, slurmctld on node 0,
# a slurmd per node under the node's host name, everything in the temporary folder.
start_slurm() {
  local k most=1 topology_plugin=topology/none
  for count in "${slots[@]}"; do [ "$count" -gt "$most" ] && most=$count; done
  [ "$leaves" -gt 0 ] && [ "$topology" != none ] && topology_plugin=topology/tree
  dd if=/dev/urandom of="$workdir/munge.key" bs=1024 count=1 status=none && chmod 400 "$workdir/munge.key" || return 1
  munged --force --socket="$workdir/munge.socket" --key-file="$workdir/munge.key" \
    --pid-file="$workdir/munged.pid" --log-file="$workdir/munged.log" \
    --seed-file="$workdir/munged.seed" || return 1
  mkdir -p "$workdir/slurmctld" || return 1
  {
    echo "ClusterName=hcart"
    # Job numbers of this cluster's own, so that no two clusters name a job (and its PMIx
    # namespace and files) alike.
    echo "FirstJobId=$(( (RANDOM * 32768 + RANDOM) % 60000000 + 1 ))"
    echo "SlurmctldHost=node0($(address 0))"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "AuthInfo=socket=$workdir/munge.socket"
    echo "CredType=cred/munge"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "TopologyPlugin=$topology_plugin"
    echo "MpiDefault=pmix"
    echo "SchedulerType=sched/builtin"
    echo "SelectType=select/linear"
    echo "SlurmdParameters=config_overrides"
    echo "ReturnToService=2"
    echo "StateSaveLocation=$workdir/slurmctld"
    echo "SlurmdSpoolDir=$workdir/slurmd-%n"
    echo "SlurmctldPidFile=$workdir/slurmctld.pid"
    echo "SlurmdPidFile=$workdir/slurmd-%n.pid"
    echo "SlurmctldLogFile=$workdir/slurmctld.log"
    echo "SlurmdLogFile=$workdir/slurmd-%n.log"
    # Generous timeouts: every node's daemons and ranks share this machine's few cores.
    echo "MessageTimeout=60"
    echo "SlurmdTimeout=300"
    echo "SlurmctldPort=6817"
    echo "SlurmdPort=6818"
    for ((k = 0; k < nodes; k++)); do
      echo "NodeName=node$k NodeAddr=$(address $k) CPUs=$most State=UNKNOWN"
    done
    echo "PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE"
  } >"$workdir/slurm.conf"
  # slurmd loads a cgroup plugin even with proctrack/linuxproc: the v1 hierarchy, nothing
  # constrained (a container's /sys/fs/cgroup is often a tmpfs of v1 controllers).
  printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\nCgroupAutomount=no\n' >"$workdir/cgroup.conf"
  # PMIx's client folders are named by the job step alone: on nodes sharing one file system
  # they would collide, so every node's slurmd sees a folder of its own there (a bind mount
  # in a mount namespace of its own).
  # Slurm's PMIx fence by ring, not by its default tree: under the tree fence about one job
  # in fifteen lost ranks (all of one node) to a segmentation fault inside MPI_Init or its
  # first collective, a message handled before its handler was there (a NULL call from
  # btl tcp or btl vader), as if some ranks left the fence before all had entered it; with
  # the ring, none in 240 launches (docs/testing.md, "The srun launches").
  printf 'PMIxCliTmpDirBase=%s\nPMIxCollFence=ring\n' "$workdir/pmix" >"$workdir/mpi.conf"
  mkdir -p "$workdir/pmix" || return 1
  for ((k = 0; k < nodes; k++)); do mkdir -p "$workdir/pmix-$k" "$workdir/slurmd-node$k" || return 1; done
  export SLURM_CONF="$workdir/slurm.conf"
  ip netns exec "$(node_ns 0)" unshare --uts /bin/sh -c "hostname node0 && exec slurmctld -D -i" \
    >"$workdir/slurmctld.out" 2>&1 &
  disown # the teardown kills the namespaces' processes: no job-control notice
  for ((k = 0; k < nodes; k++)); do
    ip netns exec "$(node_ns $k)" unshare --uts --mount /bin/sh -c \
      "mount --bind $workdir/pmix-$k $workdir/pmix && hostname node$k && exec slurmd -D -N node$k" \
      >"$workdir/slurmd-$k.out" 2>&1 &
    disown
  done
  # Ready when every node is idle (30 s at most).
  local tries
  for ((tries = 0; tries < 60; tries++)); do
    [ "$(ip netns exec "$(node_ns 0)" sinfo -h -o '%T' -N 2>/dev/null | grep -c '^idle')" -eq "$nodes" ] && return 0
    sleep 0.5
  done
  echo "Slurm did not come up: $(ip netns exec "$(node_ns 0)" sinfo -N 2>&1 | tail -n +2 | tr '\n' ';') node0's slurmd: $(tail -n 3 "$workdir/slurmd-node0.log" "$workdir/slurmd-0.out" 2>/dev/null | tr '\n' ';')"
  return 1
}

srun_command=()
if [ "$use_srun" = 1 ]; then
  start_slurm >"$workdir/slurm-up.log" 2>&1 || usage_error "could not start Slurm: $(tail -n 1 "$workdir/slurm-up.log")"
  # One host per rank, in rank order: the launcher's placement, or the uneven counts.
  {
    if [ "$map_by" = slot ]; then
      for ((k = 0; k < nodes; k++)); do for ((i = 0; i < ${slots[$k]}; i++)); do echo "node$k"; done; done
    else
      filled=() left=$ranks
      for ((k = 0; k < nodes; k++)); do filled+=(0); done
      while [ "$left" -gt 0 ]; do
        for ((k = 0; k < nodes; k++)); do
          [ "${filled[$k]}" -lt "${slots[$k]}" ] && { echo "node$k"; filled[$k]=$((filled[k] + 1)); left=$((left - 1)); }
        done
      done
    fi
  } >"$workdir/hostfile"
  srun_env="SLURM_HOSTFILE=$workdir/hostfile OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_backing_directory=$shm OMPI_MCA_btl_tcp_if_include=10.213.0.0/24 OMPI_MCA_oob_tcp_if_include=10.213.0.0/24 OMPI_MCA_mpi_yield_when_idle=1"
  [ "$leaves" -gt 0 ] && [ "$topology" = file ] && srun_env+=" HCART_TOPOLOGY_FILE=$workdir/topology.conf"
  # A task that dies ends the whole step (--kill-on-bad-exit) at once, with srun's message.
  srun_command=(env $srun_env srun --mpi=pmix -N "$nodes" -n "$ranks" --distribution=arbitrary --overcommit
                --kill-on-bad-exit=1)
fi

[ -n "$counters" ] && read_counters "$workdir/before"
[ -n "$uplink_counters" ] && read_uplinks "$workdir/up-before"
# The launcher runs in the background and the script waits for it: a signal (a test's
# watchdog, timeout(1), Ctrl-C) then reaches the traps at once, which stop the launcher and
# take the nodes down, instead of waiting for a launcher that may itself wait for ever.
if [ "$use_srun" = 1 ]; then
  # Slurm's tree plugin gives the tasks their switches itself (--topology slurm).
  ip netns exec "$(node_ns 0)" unshare --uts /bin/sh -c 'hostname node0 && exec "$@"' srun \
    "${srun_command[@]}" "$@" <&0 &
else
  node0_env=""
  [ "$leaves" -gt 0 ] && node0_env=". $workdir/env0 && "
  ip netns exec "$(node_ns 0)" unshare --uts /bin/sh -c "hostname node0 && $node0_env"'exec "$@"' mpirun \
    "$mpirun" "${mpi_flags[@]}" "${flags[@]}" "$@" <&0 &
fi
launched=$!
wait "$launched"
status=$?
launched=""
if [ -n "$uplink_counters" ]; then
  read_uplinks "$workdir/up-after"
  {
    echo "switch tx_bytes rx_bytes"
    paste -d ' ' "$workdir/up-before" "$workdir/up-after" | awk '{print $1, $5 - $2, $6 - $3}'
  } >"$uplink_counters"
fi
if [ -n "$counters" ]; then
  read_counters "$workdir/after"
  {
    echo "node address tx_bytes rx_bytes"
    paste -d ' ' "$workdir/before" "$workdir/after" | awk '{print $1, $2, $7 - $3, $8 - $4}'
  } >"$counters"
fi
exit $status
