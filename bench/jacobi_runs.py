#!/usr/bin/env python3
"""Jacobi3D runs side by side: builds, rank counts and threads per rank, on one deck.

    bench/jacobi_runs.py [--deck DECK] [--repeats N] [--set table.key=value ...]
                         [--mpiexec-flag=FLAG ...] [--busy-core CORE] [--json FILE]
                         LABEL=BUILD:RANKSxTHREADS ...

Each repeat runs every LABEL once, in turn (the order rotates from repeat to repeat, so no
run always goes first), as BUILD/bin/hcart-mpiexec -n RANKS BUILD/bin/jacobi3d DECK with
OMP_NUM_THREADS=THREADS, and reads MLUP/s from the run's JSON report. With more than one
thread per rank each rank gets that many cores (Open MPI: --map-by slot:PE=THREADS
--bind-to core; Open MPI binds each of up to 2 ranks to a single core otherwise). Prints min
and median per label, and the ratio of each label's MLUP/s to the first label's, per repeat
(min and median); --json FILE writes the same figures, and every repeat (with the compute
time of the slowest rank, from the report's timers), to FILE. --busy-core CORE keeps one
unrelated busy process pinned to that core for the whole measurement (a laptop's browser, a
shared login node). Examples (docs/benchmarks.md):

    bench/jacobi_runs.py main=/tmp/main/build:2x1 new=build:2x1
    bench/jacobi_runs.py ranks=build-openmp:2x1 threads=build-openmp:1x2
    bench/jacobi_runs.py --busy-core 1 one=build-openmp:1x1 two=build-openmp:1x2
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def parse_run(text):
    try:
        label, rest = text.split("=", 1)
        build, layout = rest.rsplit(":", 1)
        ranks, threads = (int(x) for x in layout.split("x"))
    except ValueError:
        sys.exit(f"jacobi_runs.py: run '{text}': expected LABEL=BUILD:RANKSxTHREADS, e.g. new=build:2x1")
    if ranks < 1 or threads < 1:
        sys.exit(f"jacobi_runs.py: run '{text}': ranks and threads must be at least 1")
    for program in ("hcart-mpiexec", "jacobi3d"):
        if not os.access(os.path.join(build, "bin", program), os.X_OK):
            sys.exit(f"jacobi_runs.py: run '{text}': no {build}/bin/{program}; build it first")
    return {"label": label, "build": build, "ranks": ranks, "threads": threads, "mlups": [],
            "seconds": [], "compute_max": []}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="LABEL=BUILD:RANKSxTHREADS")
    parser.add_argument("--deck", default="inputs/jacobi3d/default.toml")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    parser.add_argument("--mpiexec-flag", action="append", default=[], dest="flags",
                        help="extra flag for hcart-mpiexec, e.g. --mpiexec-flag=--bind-to=core")
    parser.add_argument("--busy-core", type=int, default=None,
                        help="keep a busy process pinned to this core during the runs")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.repeats < 1:
        sys.exit(f"jacobi_runs.py: --repeats {args.repeats}: expected at least 1")
    cores = os.cpu_count() or 1
    if args.busy_core is not None and not 0 <= args.busy_core < cores:
        sys.exit(f"jacobi_runs.py: --busy-core {args.busy_core}: expected 0 to {cores - 1}")
    runs = [parse_run(r) for r in args.runs]
    busy = None
    if args.busy_core is not None:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        os.sched_setaffinity(busy.pid, {args.busy_core})
    try:
        measure(args, runs)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


def measure(args, runs):
    with tempfile.TemporaryDirectory(prefix="hcart-jacobi-runs-") as work:
        for repeat in range(args.repeats):
            order = runs[repeat % len(runs):] + runs[:repeat % len(runs)]
            for run in order:
                out = os.path.join(work, f"{run['label']}-{repeat}")
                env = dict(os.environ, OMP_NUM_THREADS=str(run["threads"]))
                env.setdefault("OMP_PROC_BIND", "false")
                command = [os.path.join(run["build"], "bin", "hcart-mpiexec")]
                command += [flag for f in args.flags for flag in f.split("=", 1)]
                if run["threads"] > 1 and not args.flags:
                    command += ["--map-by", f"slot:PE={run['threads']}", "--bind-to", "core"]
                command += ["-n", str(run["ranks"]), os.path.join(run["build"], "bin", "jacobi3d"),
                            args.deck, "--set", f'output.directory="{out}"', "--set",
                            "output.every=0", "--set", 'output.timers_json="report.json"',
                            "--set", "output.progress_seconds=0"]
                for o in args.overrides:
                    command += ["--set", o]
                done = subprocess.run(command, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
                    sys.exit(f"jacobi_runs.py: {run['label']} failed (exit {done.returncode})")
                with open(os.path.join(out, "report.json")) as f:
                    report = json.load(f)
                run["mlups"].append(report["mlups"])
                run["seconds"].append(report["seconds"])
                # The slowest rank's kernel time: the run's time less halo waits and checks.
                compute = [t["max"] for t in report.get("timers", []) if t["name"] == "compute"]
                run["compute_max"].append(compute[0] if compute else None)
                run["report"] = report
                print(f"repeat {repeat + 1}/{args.repeats} {run['label']:>12}: "
                      f"{report['mlups']:8.1f} MLUP/s  {report['seconds']:.3f} s"
                      + (f"  (compute, slowest rank: {compute[0]:.3f} s)" if compute else ""),
                      flush=True)
    first = runs[0]
    print(f"\n{'label':>12} {'layout':>9} {'space':>8} {'per pass':>8} "
          f"{'MLUP/s min':>11} {'median':>9} {'ratio min':>10} {'median':>8}")
    for run in runs:
        ratios = [a / b for a, b in zip(run["mlups"], first["mlups"])]
        r = run["report"]
        print(f"{run['label']:>12} {run['ranks']}x{run['threads']:<7} "
              f"{r.get('execution_space', '?'):>8} {r.get('iterations_per_pass', 1):>8} "
              f"{min(run['mlups']):11.1f} {statistics.median(run['mlups']):9.1f} "
              f"{min(ratios):10.3f} {statistics.median(ratios):8.3f}")
        run["ratios"] = ratios
    if args.json:
        summary = {"deck": args.deck, "repeats": args.repeats, "overrides": args.overrides,
                   "busy_core": args.busy_core, "runs": [
            {"label": run["label"], "build": run["build"], "ranks": run["ranks"],
             "threads": run["threads"], "execution_space": run["report"].get("execution_space"),
             "iterations_per_pass": run["report"].get("iterations_per_pass"),
             "mlups": run["mlups"], "seconds": run["seconds"], "compute_max": run["compute_max"],
             "mlups_min": min(run["mlups"]), "mlups_median": statistics.median(run["mlups"]),
             "ratio_to_first": run["ratios"]} for run in runs]}
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()
