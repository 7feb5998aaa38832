#!/usr/bin/env python3
"""hcart-plan --draw against the plan's own traffic (--json, the same run): in every
strategy's panels each world rank is drawn once at coordinates inside the dims, a rank sits
on the same node in every strategy (the machine's numbering, not the plan's), a 3-D grid
with a direction of one process is drawn as one panel, and on a mesh without periodic
directions drawn as one panel the thick boundaries drawn of each level down to the node
(switch, node), counted twice (a message each way), equal the face messages that first
cross at that level in the traffic model.

  check_plan_picture.py <hcart-plan> <work directory>
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check(tool, work, mesh, machine, extra=()):
    os.makedirs(work, exist_ok=True)
    picture = os.path.join(work, "plan.svg")
    out = subprocess.run([tool, "--mesh", mesh, "--machine", machine, "--json", "--draw",
                          picture, *extra], check=True, capture_output=True, text=True)
    plans = {p["strategy"]: p for p in json.loads(out.stdout)["plans"] if p["feasible"]}
    ranks = json.loads(out.stdout)["machine"]["ranks"]
    node_level = json.loads(out.stdout)["machine"]["node_level"]
    root = ET.parse(picture).getroot()
    node_of = {}      # world rank -> node, the same in every strategy
    seen = {}         # strategy -> the ranks drawn in all its planes
    for group in root.iter(SVG + "g"):
        strategy = group.get("data-strategy")
        if strategy is None:
            continue  # the legend
        plane = int(group.get("data-plane"))
        plan = plans[strategy]
        dims = plan["dims"]
        # A 3-D grid with a direction of one process is one panel of the other two.
        plane_direction = int(group.get("data-plane-direction"))
        if len(dims) == 3:
            single = [d for d in range(3) if dims[d] == 1]
            assert (plane_direction < 0) == bool(single), (strategy, dims, plane_direction)
        else:
            assert plane_direction < 0 and plane == 0, (strategy, plane_direction, plane)
        drawn = seen.setdefault(strategy, set())
        for cell in group.iter(SVG + "rect"):
            if cell.get("data-rank") is None:
                continue  # the panel's frame
            rank, node = int(cell.get("data-rank")), int(cell.get("data-node"))
            coords = [int(x) for x in cell.get("data-coords").split(",")]
            assert len(coords) == len(dims), (strategy, coords, dims)
            assert all(0 <= c < d for c, d in zip(coords, dims)), (strategy, coords, dims)
            if plane_direction >= 0:
                assert coords[plane_direction] == plane, (strategy, coords, plane)
            assert rank not in drawn, f"{strategy}: rank {rank} drawn twice"
            drawn.add(rank)
            assert node_of.setdefault(rank, node) == node, f"{strategy}: rank {rank} moved node"
        if plane_direction < 0:
            # One panel: twice its boundaries of a level (a switch's, a node's) are the
            # face messages that first cross there.
            for level in plan["traffic"]["levels"][:node_level + 1]:
                edges = [e for e in group.iter(SVG + "line")
                         if e.get("class") == level["name"] + "-edge"]
                assert 2 * len(edges) == level["messages"], (
                    f"{strategy} on {machine}: {len(edges)} {level['name']} boundaries drawn, "
                    f"the traffic model counts {level['messages']} such messages")
    assert set(seen) == set(plans), (sorted(seen), sorted(plans))
    for strategy, drawn in seen.items():
        assert drawn == set(range(ranks)), f"{strategy}: {len(drawn)} ranks drawn of {ranks}"
    return len(plans)


def main():
    tool, work = sys.argv[1], sys.argv[2]
    n = check(tool, work, "60,40", "node:[3,3,2] core:4")   # an uneven machine
    n += check(tool, work, "64,48", "node:4 socket:2 core:2")
    n += check(tool, work, "96", "node:3 core:4")
    n += check(tool, work, "24,24,12", "node:4 core:2")      # 3-D: one panel per plane
    n += check(tool, work, "12,12,36", "node:3 core:4")      # 3-D, several planes
    n += check(tool, work, "100,20,40", "node:5 core:2")     # 5x2x1 and 5x1x2: one panel each
    n += check(tool, work, "64,48", "switch:2 node:2 core:4")  # a switch level above
    n += check(tool, work, "60,40", "switch:[2,1] node:[4,4,2] core:4",
               ["--placement", "round-robin"])
    # Bad input: a 4-D mesh is refused with one line and exit code 2, nothing written.
    bad = os.path.join(work, "none.svg")
    r = subprocess.run([tool, "--mesh", "8,8,8,8", "--machine", "node:2 core:2", "--draw", bad],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--draw: a 4-dimensional mesh" in r.stderr, r
    assert not os.path.exists(bad)
    # The legend says what colours and lines mean.
    legend = ET.parse(os.path.join(work, "plan.svg")).getroot()
    text = " ".join(t.text for g in legend.iter(SVG + "g") if g.get("class") == "legend"
                    for t in g.iter(SVG + "text"))
    assert "colour is the node" in text and "(thicker: switches)" in text, text
    print(f"plan pictures: ok ({n} plans)")


if __name__ == "__main__":
    main()
