#!/usr/bin/env python3
"""GLUP/s of hcart's Jacobi sweep against mesh size, beside the device copy's roofline.

    /usr/bin/python3 bench/plot_gpu_roofline.py --output FILE.png LABEL=DIR [LABEL=DIR ...]

Each DIR holds the jacobi-roofline-N.json files of `hcart-bench-jacobi --roofline --json`
(scripts/gpu-check.sh's bench step writes them). Draws one line per LABEL (the sweep's
GLUP/s at the fastest repeat; where the files time several device launch shapes
(--launches), one line per shape, "LABEL, SHAPE") and, dashed, the copy roofline of the
first DIR (the best copy's bandwidth at 16 bytes per update). Example (docs/benchmarks.md):

    /usr/bin/python3 bench/plot_gpu_roofline.py --output docs/images/gpu-jacobi-roofline.png \\
        "Kokkos' tiles=docs/data/gpu-h200-2026-11-26/kokkos-tiles" \\
        "hcart's device tiles=docs/data/gpu-h200-2026-11-26/device-tiles"
"""
import argparse
import glob
import json
import os
import re
import sys


def load(directory):
    """{shape or None: [(size, GLUP/s, copy roofline GLUP/s), ...]} of one folder."""
    lines = {}
    for path in glob.glob(os.path.join(directory, "jacobi-roofline-*.json")):
        if not re.search(r"jacobi-roofline-\d+\.json$", path):
            continue
        with open(path) as f:
            data = json.load(f)
        roof = data["copy_bandwidth_gb_s"] / 16.0
        shapes = data.get("launches", [])
        if len(shapes) > 1:
            for shape in shapes:
                lines.setdefault(shape["launch"], []).append((data["size"], shape["glups"], roof))
        else:
            lines.setdefault(None, []).append((data["size"], data["glups"], roof))
    if not lines:
        sys.exit(f"plot_gpu_roofline.py: no jacobi-roofline-N.json in '{directory}'")
    return {shape: sorted(points) for shape, points in lines.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", required=True, help="PNG file to write")
    parser.add_argument("runs", nargs="+", help="LABEL=DIR")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    roofline = None
    for run in args.runs:
        if "=" not in run:
            sys.exit(f"plot_gpu_roofline.py: '{run}': expected LABEL=DIR")
        label, directory = run.split("=", 1)
        for shape, points in load(directory).items():
            if roofline is None:
                roofline = points
            name = label if shape is None else f"{label}, {shape}"
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
    ax.plot([p[0] for p in roofline], [p[2] for p in roofline], linestyle="--", color="gray",
            label="copy roofline (deep_copy, 16 B/update)")
    ax.set_xlabel("unknowns per direction (n³ mesh, one GPU)")
    ax.set_ylabel("GLUP/s")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_gpu_roofline.py: wrote {args.output}")


if __name__ == "__main__":
    main()
