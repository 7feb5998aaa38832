#!/usr/bin/env python3
"""Halo time across nodes: the strategies side by side on an emulated cluster with shaped links.

    bench/cluster_halo.py [--build DIR] [--layout NODESxRANKS|R0,R1,... ...] [--ratio G0,G1,G2 ...]
                          [--periodic P0,P1,P2] [--halo H] [--dims D0,D1,D2]
                          [--base B] [--sizes S] [--rate RATE] [--burst SIZE]
                          [--rounds K] [--repetitions N] [--calibrate] [--repeat R]
                          [--json FILE]

For every layout (nodes x ranks per node, or every node's ranks) and mesh ratio, brings up the cluster with
scripts/cluster.sh (every link shaped to RATE, both directions) and runs
DIR/bin/hcart-strategy-bench on it: for meshes RATIO * BASE * 2^k (k < S) it times a halo
exchange under the mpi, weighted, levelwise and hierarchical strategies in turn (K rounds of N
exchanges; min and median over the rounds). Prints, per mesh and strategy, the process
grid, the bytes that cross nodes per exchange (all nodes, and the busiest node's link),
the time per exchange, what the busiest link alone would take at RATE, and the saving
against mpi; the links' byte counters of the whole job are printed too. With --calibrate,
each layout's cluster is first measured by `hcart-machine --measure` (a machine file,
docs/machine-file.md), and every row shows the time hcart's model predicts from it, its
error against the measured median, and whether the model ranks the strategies of each mesh
in the measured order. --repeat R runs all of it R times (with --calibrate each layout is
calibrated again every time) and ends with the median over the repeats of the measured
medians and of the predictions, with the range of the repeats' errors. Needs root (the
cluster). The ranks yield the core while they wait (scripts/cluster.sh sets Open MPI's
mpi_yield_when_idle): 8 ranks share 2 cores here, and ranks that spin would hide the links
behind the scheduler's time slices. Example (docs/benchmarks.md):

    bench/cluster_halo.py --layout 4x2 --layout 2x4 --ratio 1,2,4 --ratio 1,1,8 --rate 100mbit
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_layout(text):
    """(nodes, ranks per node as scripts/cluster.sh takes it): "4x2", or "4,4,2" (uneven)."""
    m = re.fullmatch(r"(\d+)x(\d+)", text)
    if m and int(m.group(1)) >= 2 and int(m.group(2)) >= 1:
        return int(m.group(1)), m.group(2)
    counts = text.split(",")
    if len(counts) >= 2 and all(c.isdigit() and 1 <= int(c) <= 64 for c in counts):
        return len(counts), text
    sys.exit(f"cluster_halo.py: --layout '{text}': expected NODESxRANKS with at least 2 nodes "
             "(4x2), or the ranks of every node (4,4,2)")


def label(nodes, ranks):
    return ranks if "," in ranks else f"{nodes}x{ranks}"


def parse_ratio(text):
    parts = text.split(",")
    if len(parts) != 3 or not all(p.isdigit() and int(p) >= 1 for p in parts):
        sys.exit(f"cluster_halo.py: --ratio '{text}': expected three positive integers, e.g. 1,2,4")
    return text


def rate_bits(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(bit|kbit|mbit|gbit)", text)
    if not m:
        sys.exit(f"cluster_halo.py: --rate '{text}': expected a rate such as 100mbit or 1gbit")
    return float(m.group(1)) * {"bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9}[m.group(2)]


def human(b):
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= size:
            return f"{b / size:.2f} {unit}"
    return f"{b} B"


def on_cluster(args, nodes, ranks, counters, program):
    command = [os.path.join(ROOT, "scripts", "cluster.sh"), "--nodes", str(nodes),
               "--ranks-per-node", str(ranks), "--rate", args.rate, "--burst", args.burst,
               "--counters", counters]
    if args.switches:
        command += ["--switches", args.switches, "--uplink-counters", counters + ".uplinks"]
        if args.uplink_rate:
            command += ["--uplink-rate", args.uplink_rate]
    command += ["--"] + program
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"cluster_halo.py: {' '.join(command)} failed ({done.returncode}):\n"
                 f"{done.stderr.strip()}")
    return done.stdout


def calibrate(args, nodes, ranks, tmp):
    """The layout's machine file, measured on its shaped cluster by hcart-machine --measure."""
    path = os.path.join(tmp, f"machine-{label(nodes, ranks)}.json")
    on_cluster(args, nodes, ranks, os.path.join(tmp, "calibration-counters"),
               [os.path.join(args.build, "bin", "hcart-machine"), "--measure", path,
                "--repetitions", str(args.calibration_repetitions)])
    with open(path) as f:
        return path, json.load(f)


def run_layout(args, nodes, ranks, ratio, machine_file):
    with tempfile.TemporaryDirectory() as tmp:
        counters = os.path.join(tmp, "counters")
        program = [os.path.join(args.build, "bin", "hcart-strategy-bench"), "--ratio", ratio,
                   "--periodic", args.periodic,
                   "--base", str(args.base), "--sizes", str(args.sizes), "--rounds",
                   str(args.rounds), "--repetitions", str(args.repetitions), "--json"]
        if machine_file is not None:
            program += ["--machine-file", machine_file]
        if args.halo != 1:
            program += ["--halo", str(args.halo)]
        if args.dims:
            program += ["--dims", args.dims]
        result = json.loads(on_cluster(args, nodes, ranks, counters, program))
        with open(counters) as f:
            links = [line.split() for line in f.read().splitlines()[1:]]
        result["links"] = [{"node": int(n), "tx_bytes": int(tx), "rx_bytes": int(rx)}
                           for n, _, tx, rx in links]
        if args.switches:
            with open(counters + ".uplinks") as f:
                uplinks = [line.split() for line in f.read().splitlines()[1:]]
            result["uplinks"] = [{"switch": int(k), "tx_bytes": int(tx), "rx_bytes": int(rx)}
                                 for k, tx, rx in uplinks]
        return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="the build folder whose bin/ holds the programs (default build)")
    parser.add_argument("--layout", action="append", default=None,
                        help="NODESxRANKS, e.g. 4x2, or the ranks of every node for an uneven "
                             "layout, e.g. 4,4,2; repeatable (default 4x2)")
    parser.add_argument("--ratio", action="append", default=None,
                        help="mesh ratio G0,G1,G2: the meshes are RATIO * BASE * 2^k; "
                             "repeatable (default 1,2,4)")
    parser.add_argument("--halo", type=int, default=1,
                        help="halo width of every mesh in every direction (default 1)")
    parser.add_argument("--dims", default=None,
                        help="given dims D0,D1,D2 for every layout (their product its ranks): "
                             "the launch order against hcart's placement of them, instead of "
                             "the strategies")
    parser.add_argument("--periodic", default="0,0,0",
                        help="periodic directions of every mesh, e.g. 1,1,1 (default 0,0,0)")
    parser.add_argument("--base", type=int, default=64,
                        help="the first mesh is RATIO * BASE (default 64)")
    parser.add_argument("--sizes", type=int, default=2,
                        help="meshes per ratio, each twice the last per direction (default 2)")
    parser.add_argument("--rate", default="100mbit",
                        help="every link's rate, both directions, as tc writes it (default 100mbit)")
    parser.add_argument("--burst", default="64kb",
                        help="the token bucket's size (default 64kb)")
    parser.add_argument("--switches", default=None,
                        help="leaf switches above the nodes (scripts/cluster.sh --switches: a "
                             "count, or nodes per switch such as 2,1), told to the job by a "
                             "topology file; the rows then show the switch level, and the "
                             "default planned for the nodes alone is timed too")
    parser.add_argument("--uplink-rate", default=None,
                        help="the uplinks' rate with --switches (default: as --rate)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds per mesh, the strategies in turn in each; min and median over them (default 5)")
    parser.add_argument("--repetitions", type=int, default=5,
                        help="timed exchanges per round, their median counts (default 5)")
    parser.add_argument("--calibrate", action="store_true",
                        help="measure each layout's cluster first (hcart-machine --measure) and show the model's prediction and error")
    parser.add_argument("--calibration-repetitions", type=int, default=9,
                        help="repetitions of each calibration measurement (default 9)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run everything this many times and end with the medians over the repeats (default 1)")
    parser.add_argument("--json", default=None,
                        help="also write every result to this JSON file")
    args = parser.parse_args()
    layouts = [parse_layout(t) for t in (args.layout or ["4x2"])]
    ratios = [parse_ratio(t) for t in (args.ratio or ["1,2,4"])]
    parts = args.periodic.split(",")
    if len(parts) != 3 or any(p not in ("0", "1") for p in parts):
        sys.exit(f"cluster_halo.py: --periodic '{args.periodic}': expected three 0 or 1, e.g. 1,1,1")
    bits = rate_bits(args.rate)
    if args.uplink_rate and not args.switches:
        sys.exit("cluster_halo.py: --uplink-rate needs --switches")
    if args.switches and args.uplink_rate:
        bits = rate_bits(args.uplink_rate)  # the switch level's link: an uplink
    for name, value, low in (("--base", args.base, 1), ("--sizes", args.sizes, 1),
                             ("--rounds", args.rounds, 1), ("--repetitions", args.repetitions, 1),
                             ("--repeat", args.repeat, 1)):
        if value < low:
            sys.exit(f"cluster_halo.py: {name} {value}: expected at least {low}")
    if not os.access(os.path.join(args.build, "bin", "hcart-strategy-bench"), os.X_OK):
        sys.exit(f"cluster_halo.py: --build '{args.build}': no bin/hcart-strategy-bench there")

    report = {"rate": args.rate, "burst": args.burst, "repeat": args.repeat, "runs": [],
              "switches": args.switches, "uplink_rate": args.uplink_rate}
    # (layout, mesh, method) -> measured medians and predictions, one per repeat
    rows = {}
    print(f"links shaped to {args.rate} (burst {args.burst})" +
          (f", switches {args.switches}, uplinks {args.uplink_rate or args.rate}"
           if args.switches else "") +
          f"; time per exchange, min / median over {args.rounds} rounds of {args.repetitions} "
          "exchanges")
    calibration = tempfile.TemporaryDirectory()
    for repeat in range(args.repeat):
        if args.repeat > 1:
            print(f"\nrepeat {repeat + 1} of {args.repeat}" +
                  (" (each layout calibrated again)" if args.calibrate else ""))
        run_once(args, layouts, ratios, bits, repeat, calibration.name, report, rows)
    if args.calibrate:
        summarise(args, rows, report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


def run_once(args, layouts, ratios, bits, repeat, tmp, report, rows):
    """One pass over every layout and ratio: calibrate, measure, print one row per strategy."""
    top = "switch" if args.switches else "node"  # the coarsest level: its busiest link
    header = (f"{'layout':>6} {'mesh':>14} {'strategy':>12} {'dims':>7} {top + ' bytes':>12} "
              f"{'busiest ' + top:>14} {'link alone':>10} {'time min':>10} {'median':>10} {'saving':>8}")
    if args.calibrate:
        header += f" {'predicted':>10} {'error':>7}"
    print(header)
    print("-" * len(header))
    errors, misranked = [], []
    for nodes, ranks in layouts:
        machine_path = None
        if args.calibrate:
            machine_path, machine_file = calibrate(args, nodes, ranks, tmp)
            report.setdefault("machine_files", []).append(
                {"repeat": repeat, "nodes": nodes, "ranks_per_node": ranks,
                 "machine_file": machine_file})
            for level in machine_file["levels"][:2 if args.switches else 1]:
                print(f"{label(nodes, ranks):<6} calibrated: {level['name']} latency "
                      f"{1e6 * level['latency_seconds']:.0f} us, bandwidth "
                      f"{level['bandwidth_bytes_per_second'] / 1e6:.1f} MB/s at the largest volume")
        for ratio in ratios:
            result = run_layout(args, nodes, ranks, ratio, machine_path)
            result.update({"repeat": repeat, "nodes": nodes, "ranks_per_node": ranks})
            report["runs"].append(result)
            for entry in result["results"]:
                mesh = "x".join(str(g) for g in entry["mesh"])
                if "skipped" in entry:
                    print(f"{label(nodes, ranks):<6} {mesh:>14} skipped: {entry['skipped']}")
                    continue
                mpi = entry["methods"][0]["seconds"]
                for m in entry["methods"]:
                    node = next(l for l in m["levels"] if l["name"] == top)
                    alone = node["max_unit_bytes"] * 8 / bits
                    saving = ("same as " + m["same_as"]) if "same_as" in m else \
                        f"{100 * (1 - m['seconds'] / mpi):.1f}%"
                    line = (f"{label(nodes, ranks):<6} {mesh:>14} {m['method']:>12} "
                            f"{'x'.join(map(str, m['dims'])):>7} {human(node['bytes']):>12} "
                            f"{human(node['max_unit_bytes']):>14} {1e3 * alone:8.1f} ms "
                            f"{1e3 * m['seconds_min']:7.1f} ms {1e3 * m['seconds']:7.1f} ms {saving:>8}")
                    if args.calibrate:
                        error = m["predicted_seconds"] / m["seconds"] - 1
                        errors.append(error)
                        line += f" {1e3 * m['predicted_seconds']:7.1f} ms {100 * error:+6.1f}%"
                        row = rows.setdefault((label(nodes, ranks), mesh, m["method"]), {
                            "dims": m["dims"], "busiest": node["max_unit_bytes"],
                            "same_as": m.get("same_as"), "measured": [], "predicted": []})
                        row["measured"].append(m["seconds"])
                        row["predicted"].append(m["predicted_seconds"])
                    print(line)
                if args.calibrate:
                    distinct = [m for m in entry["methods"] if "same_as" not in m]
                    measured, predicted = ranking(distinct, "seconds"), \
                        ranking(distinct, "predicted_seconds")
                    entry["ranked_as_measured"] = measured == predicted
                    if measured != predicted:
                        misranked.append(f"{label(nodes, ranks)} {mesh}")
                        print(f"{label(nodes, ranks):<6} {mesh:>14} ranked differently: measured "
                              f"{' < '.join(measured)}, predicted {' < '.join(predicted)}")
            busiest = max(link["tx_bytes"] for link in result["links"])
            total = sum(link["tx_bytes"] for link in result["links"])
            print(f"{label(nodes, ranks):<6} the job's links: {human(total)} sent in all, the busiest "
                  f"{human(busiest)}")
            if "uplinks" in result:
                print(f"{label(nodes, ranks):<6} the job's uplinks: " + ", ".join(
                    f"switch {u['switch']} {human(u['tx_bytes'])} out" for u in result["uplinks"]))
    if args.calibrate and errors:
        print(model_line(errors, misranked))


def ranking(methods, key):
    """The strategies of one mesh, fastest first by `key`."""
    return [m["method"] for m in sorted(methods, key=lambda m: m[key])]


def model_line(errors, misranked):
    worst = max(errors, key=abs)
    return (f"model: prediction / measured median - 1 from {100 * min(errors):+.1f}% to "
            f"{100 * max(errors):+.1f}% (worst {100 * worst:+.1f}%); "
            + ("every mesh ranked as measured" if not misranked
               else "ranked differently: " + ", ".join(misranked)))


def summarise(args, rows, report):
    """Over the repeats: the median of the measured medians against the median prediction."""
    if args.repeat == 1:
        return
    print(f"\nover the {args.repeat} repeats: median of the measured medians, median of the "
          f"predictions (each repeat calibrated on its own), and the range of the repeats' errors")
    top = "switch" if args.switches else "node"
    header = (f"{'layout':>6} {'mesh':>14} {'strategy':>12} {'dims':>7} {'busiest ' + top:>14} "
              f"{'measured':>10} {'predicted':>10} {'error':>7} {'repeats':>17}")
    print(header)
    print("-" * len(header))
    errors, misranked, summary, meshes = [], [], [], {}
    for (layout, mesh, method), row in rows.items():
        measured = statistics.median(row["measured"])
        predicted = statistics.median(row["predicted"])
        error = predicted / measured - 1
        each = [p / m - 1 for p, m in zip(row["predicted"], row["measured"])]
        errors.append(error)
        print(f"{layout:>6} {mesh:>14} {method:>12} {'x'.join(map(str, row['dims'])):>7} "
              f"{human(row['busiest']):>14} {1e3 * measured:7.1f} ms {1e3 * predicted:7.1f} ms "
              f"{100 * error:+6.1f}% {100 * min(each):+6.1f}% to {100 * max(each):+6.1f}%")
        entry = {"layout": layout, "mesh": mesh, "method": method, "dims": row["dims"],
                 "busiest_node_bytes": row["busiest"], "measured_seconds": measured,
                 "predicted_seconds": predicted, "error": error, "repeat_errors": each}
        if row["same_as"]:
            entry["same_as"] = row["same_as"]
        else:
            meshes.setdefault((layout, mesh), []).append(
                {"method": method, "seconds": measured, "predicted_seconds": predicted})
        summary.append(entry)
    for (layout, mesh), methods in meshes.items():
        measured, predicted = ranking(methods, "seconds"), ranking(methods, "predicted_seconds")
        if measured != predicted:
            misranked.append(f"{layout} {mesh}")
            print(f"{layout:>6} {mesh:>14} ranked differently: measured {' < '.join(measured)}, "
                  f"predicted {' < '.join(predicted)}")
    print("over the repeats, " + model_line(errors, misranked))
    report["summary"] = summary


if __name__ == "__main__":
    main()
