#!/usr/bin/env python3
"""Every writer takes a path as users write it.

    check_output_paths.py SCRATCH JACOBI3D ZEUS HCART_MACHINE HCART_PLAN DECKS -- LAUNCH...

LAUNCH... is the MPI launcher for 2 ranks with its flags. In SCRATCH (emptied
first, then the working directory), for each form of a path — a bare name, ./name, a
relative path whose directories do not exist yet, an absolute path — runs:
  - Jacobi3D with that [output] directory: its field file, XDMF file and series,
    checkpoint and timers JSON (timers_json a bare name, a path below the directory, an
    absolute path) must appear where the path says;
  - ZEUS with that [output] directory: its field file, checkpoint and timers JSON;
  - hcart-machine --measure PATH (2 ranks): the machine file;
  - hcart-plan --rankfile PATH --hostfile PATH: both launch files.
Prints "output paths: ok" and exits 0, else names the first missing file and exits 1.
"""
import os
import shutil
import subprocess
import sys


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=300)
    if result.returncode != 0:
        print("FAILED (exit %d): %s\n%s" % (result.returncode, " ".join(command),
                                              result.stdout[-3000:]))
        sys.exit(1)


def expect(path, what):
    if not os.path.isfile(path):
        print("missing %s: %s (cwd %s)" % (what, path, os.getcwd()))
        for root, _, files in os.walk("."):
            for f in files:
                print("  found", os.path.join(root, f))
        sys.exit(1)


def main():
    scratch, jacobi, zeus, machine, plan, decks, separator = sys.argv[1:8]
    if separator != "--" or len(sys.argv) < 9:
        sys.exit(__doc__)
    launch = sys.argv[8:]
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    os.chdir(scratch)
    absolute = os.path.join(os.path.abspath("."), "absolute")
    # (directory form, timers_json form): each directory form once, each timers form once.
    forms = [
        ("out-bare", "timers.json"),
        ("./out-dot", "./timers.json"),
        ("new/nested/out", "reports/run/timers.json"),
        (absolute + "/out", os.path.join(absolute, "elsewhere", "timers.json")),
    ]
    for directory, timers in forms:
        run(launch + [jacobi, os.path.join(decks, "jacobi3d", "default.toml"),
                      "--set", "mesh.size=[12,12,12]", "--set", "jacobi.max_iterations=4",
                      "--set", "jacobi.check_every=2", "--set", "output.every=4",
                      "--set", "output.checkpoint_every=2",
                      "--set", "output.directory=%s" % directory,
                      "--set", "output.timers_json=%s" % timers])
        expect(os.path.join(directory, "jacobi3d_00000004.h5"), "Jacobi3D field file")
        expect(os.path.join(directory, "jacobi3d_00000004.xmf"), "Jacobi3D XDMF file")
        expect(os.path.join(directory, "jacobi3d.xmf"), "Jacobi3D XDMF series")
        expect(os.path.join(directory, "checkpoint_00000004.h5"), "Jacobi3D checkpoint")
        expect(timers if os.path.isabs(timers) else os.path.join(directory, timers),
               "Jacobi3D timers JSON")
        zeus_directory = directory + "-zeus"
        run(launch + [zeus, os.path.join(decks, "zeus", "sod_x.toml"),
                      "--set", "mesh.size=[40,4,4]", "--set", "hydro.max_steps=4",
                      "--set", "output.checkpoint_every=2", "--set", "output.every=4",
                      "--set", "output.directory=%s" % zeus_directory,
                      "--set", "output.timers_json=%s" % timers.replace("timers", "zeus")])
        expect(os.path.join(zeus_directory, "zeus_00000004.h5"), "ZEUS field file")
        expect(os.path.join(zeus_directory, "checkpoint_00000004.h5"), "ZEUS checkpoint")
        zeus_timers = timers.replace("timers", "zeus")
        expect(zeus_timers if os.path.isabs(zeus_timers)
               else os.path.join(zeus_directory, zeus_timers), "ZEUS timers JSON")
    for path in ["machine.json", "./machine-dot.json", "machines/new/machine.json",
                 os.path.join(absolute, "machines", "machine.json")]:
        run(launch + [machine, "--machine", "node:2 core:1", "--measure", path,
                      "--max-bytes", "4096", "--repetitions", "3"])
        expect(path, "hcart-machine's machine file")
    for rankfile, hostfile in [("ranks.txt", "hosts.txt"), ("./ranks-dot.txt", "./hosts-dot.txt"),
                               ("launch/new/ranks.txt", "launch/other/hosts.txt"),
                               (os.path.join(absolute, "l", "ranks.txt"),
                                os.path.join(absolute, "l", "hosts.txt"))]:
        run([plan, "--mesh", "64,64,64", "--machine", "node:2 core:2", "--dims", "2,2,1",
             "--rankfile", rankfile, "--hostfile", hostfile, "--hosts", "a,b"])
        expect(rankfile, "hcart-plan's rankfile")
        expect(hostfile, "hcart-plan's host file")
    print("output paths: ok")


if __name__ == "__main__":
    main()
