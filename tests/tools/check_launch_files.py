#!/usr/bin/env python3
"""Checks hcart-plan's launcher files against a count of its own.

    check_launch_files.py HCART_PLAN SCRATCH

For several machines (even, 3 levels, uneven nodes) and meshes, runs hcart-plan with
--rankfile, --hostfile and --hosts on the code's dims, then, from the files alone: every
(host, slot) is used once and within the node's size; the host file names the rankfile's
hosts in rank order; and the halo bytes that cross nodes, counted face by face for a code
that puts world rank r at row-major coordinates of the dims (balanced blocks), equal what
hcart-plan printed, with the files and as launched (block order), and the busiest node
sends no more with the files (hcart's objective: the total may grow on uneven nodes). Prints "launch files: ok" and exits 0, else names the first mismatch and exits 1.
"""
import os
import re
import subprocess
import sys


def coords_of(rank, dims):
    out = []
    for d in reversed(dims):
        out.append(rank % d)
        rank //= d
    return list(reversed(out))


def rank_of(coords, dims):
    r = 0
    for c, d in zip(coords, dims):
        r = r * d + c
    return r


def extent(g, d, c):
    base, extra = divmod(g, d)
    return base + (1 if c < extra else 0)


def node_bytes(mesh, halo, dims, node_of_rank, elem=8):
    """Total and busiest node's bytes of face messages between ranks on different nodes."""
    total, per_node = 0, {}
    for r in range(len(node_of_rank)):
        c = coords_of(r, dims)
        for axis in range(len(dims)):
            for step in (-1, 1):
                n = list(c)
                n[axis] += step
                if n[axis] < 0 or n[axis] >= dims[axis]:
                    continue  # not periodic
                other = rank_of(n, dims)
                if node_of_rank[other] == node_of_rank[r]:
                    continue
                cells = halo[axis]
                for a in range(len(dims)):
                    if a != axis:
                        cells *= extent(mesh[a], dims[a], c[a])
                total += cells * elem
                per_node[node_of_rank[r]] = per_node.get(node_of_rank[r], 0) + cells * elem
    return total, max(per_node.values(), default=0)


CASES = [
    # mesh, halo, machine, dims, hosts, ranks per node, the launch order kept
    ([12, 20, 40], [1, 1, 1], "node:2 core:2", [2, 2, 1], ["a", "b"], [2, 2], False),
    ([256, 128, 64], [1, 1, 1], "node:4 socket:2 core:4", [8, 2, 2], ["n0", "n1", "n2", "n3"],
     [8, 8, 8, 8], False),
    ([96, 96, 96], [2, 1, 1], "node:3 core:4", [3, 2, 2], ["x", "y", "z"], [4, 4, 4], False),
    ([100, 60, 30], [1, 1, 1], "node:[4,4,2] core:4", [5, 2, 1], ["p", "q", "r"], [4, 4, 2], False),
    # An uneven machine where no placement of the code's dims sends less than the launch
    # order (strips: every placement cuts two node boundaries, the middle node's both; a
    # real code's case sent 3.7% more before): the files keep it. With dims 4x2 they do not.
    ([256, 256, 1], [1, 1, 0], "node:[3,3,2] core:3", [8, 1, 1], ["u", "v", "w"], [3, 3, 2], True),
    ([256, 256, 1], [1, 1, 0], "node:[3,3,2] core:3", [4, 2, 1], ["u", "v", "w"], [3, 3, 2], False),
]


def main():
    plan, scratch = sys.argv[1], sys.argv[2]
    os.makedirs(scratch, exist_ok=True)
    for mesh, halo, machine, dims, hosts, per_node, expect_kept in CASES:
        what = f"{machine}, dims {dims}"
        rankfile = os.path.join(scratch, "rankfile")
        hostfile = os.path.join(scratch, "hostfile")
        out = subprocess.run(
            [plan, "--mesh", ",".join(map(str, mesh)), "--halo", ",".join(map(str, halo)),
             "--machine", machine, "--dims", ",".join(map(str, dims)), "--hosts", ",".join(hosts),
             "--rankfile", rankfile, "--hostfile", hostfile],
            capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{what}: hcart-plan failed: {out.stderr}")
        m = re.search(r"across nodes (\d+) B per exchange \(busiest node (\d+) B\) with them, "
                      r"(\d+) B \(busiest node (\d+) B\) as launched", out.stdout)
        kept = re.search(r"no placement of these dims sends less than the launch order \(across "
                         r"nodes (\d+) B per exchange, busiest node (\d+) B\), so the files keep "
                         r"it", out.stdout)
        if m:
            printed = [int(x) for x in m.groups()]
        elif kept:
            printed = [int(x) for x in kept.groups()] * 2
        else:
            sys.exit(f"{what}: no launch-file summary in:\n{out.stdout}")
        ranks = sum(per_node)
        node_of_rank, used = [], set()
        with open(rankfile) as f:
            lines = f.read().splitlines()
        if len(lines) != ranks:
            sys.exit(f"{what}: {len(lines)} rankfile lines for {ranks} ranks")
        for r, line in enumerate(lines):
            lm = re.fullmatch(r"rank (\d+)=(\S+) slot=(\d+)", line)
            if not lm or int(lm.group(1)) != r:
                sys.exit(f"{what}: rankfile line {r + 1}: '{line}'")
            host, slot = lm.group(2), int(lm.group(3))
            node = hosts.index(host)
            if slot >= per_node[node] or (host, slot) in used:
                sys.exit(f"{what}: rank {r} on {host} slot {slot}: outside the node or taken")
            used.add((host, slot))
            node_of_rank.append(node)
        with open(hostfile) as f:
            if f.read().split() != [hosts[n] for n in node_of_rank]:
                sys.exit(f"{what}: the host file is not the rankfile's hosts in rank order")
        launched = []
        for n, count in enumerate(per_node):
            launched += [n] * count
        counted = list(node_bytes(mesh, halo, dims, node_of_rank)) + \
            list(node_bytes(mesh, halo, dims, launched))
        if counted != printed:
            sys.exit(f"{what}: counted {counted} (with the files; as launched), "
                     f"hcart-plan printed {printed}")
        # Never worse than the launch order: the busiest node, then the total.
        if (counted[1], counted[0]) > (counted[3], counted[2]):
            sys.exit(f"{what}: the files send more than the launch order: {counted}")
        if expect_kept != bool(kept):
            sys.exit(f"{what}: expected the files to {'keep' if expect_kept else 'change'} the "
                     f"launch order:\n{out.stdout}")
        if kept and node_of_rank != launched:
            sys.exit(f"{what}: the files keep the launch order, but place ranks elsewhere")
        print(f"{what}: across nodes {counted[0]} B (busiest {counted[1]} B) with the files, "
              f"{counted[2]} B (busiest {counted[3]} B) as launched")
    print("launch files: ok")


if __name__ == "__main__":
    main()
