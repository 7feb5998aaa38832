#!/usr/bin/env python3
"""Plots bench/cluster_halo.py's JSON: time per halo exchange against the busiest node's bytes.

    /usr/bin/python3 bench/plot_cluster_halo.py RESULT.json [RESULT.json ...] -o PLOT.png

One point per mesh, layout and strategy (median over the rounds, the bar from min to
median), coloured by strategy; the line is what the busiest node's link alone would take at
the runs' rate (bytes / rate). Points on the line: the exchange takes as long as its
busiest link needs. Needs python3-matplotlib (run it with /usr/bin/python3).
"""
import argparse
import json
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"mpi": "tab:red", "weighted": "tab:blue", "hierarchical": "tab:green"}
MARKERS = {(4, 2): "o", (2, 4): "s"}


def rate_bits(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(bit|kbit|mbit|gbit)", text)
    if not m:
        sys.exit(f"plot_cluster_halo.py: rate '{text}' in the JSON: not a tc rate")
    return float(m.group(1)) * {"bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9}[m.group(2)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    fig, ax = plt.subplots(figsize=(7, 5))
    rates, seen, most = set(), set(), 0.0
    for path in args.results:
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"plot_cluster_halo.py: {path}: {e}")
        rates.add(report["rate"])
        for run in report["runs"]:
            layout = (run["nodes"], run["ranks_per_node"])
            for entry in run["results"]:
                for m in entry.get("methods", []):
                    node = next(l for l in m["levels"] if l["name"] == "node")
                    x = node["max_unit_bytes"] / 1024
                    label = f"{m['method']}, {layout[0]} nodes x {layout[1]}"
                    ax.errorbar([x], [1e3 * m["seconds"]],
                                yerr=[[1e3 * (m["seconds"] - m["seconds_min"])], [0]],
                                fmt=MARKERS.get(layout, "^"), color=COLOURS.get(m["method"], "k"),
                                label=None if label in seen else label, capsize=2)
                    seen.add(label)
                    most = max(most, x)
    if len(rates) != 1:
        sys.exit(f"plot_cluster_halo.py: the results were measured at different rates: {sorted(rates)}")
    rate = rates.pop()
    xs = [0, most * 1.05]
    ax.plot(xs, [x * 1024 * 8 / rate_bits(rate) * 1e3 for x in xs], "k--", lw=1,
            label=f"busiest link alone at {rate}")
    ax.set_xlabel("busiest node's bytes per exchange (KiB)")
    ax.set_ylabel("time per exchange, median (ms; bar down to the min)")
    ax.set_title("Halo exchange on the emulated cluster, links shaped to " + rate)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)


if __name__ == "__main__":
    main()
