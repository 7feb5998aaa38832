#!/usr/bin/python3
"""Measure a zeus output file against the known solutions (the numbers of docs/zeus.md).

    /usr/bin/python3 docs/zeus_check.py sod DIR [--axis 0]   # L1 of the density vs exact Riemann
    /usr/bin/python3 docs/zeus_check.py sedov DIR            # shock radius, total energy
    /usr/bin/python3 docs/zeus_check.py sine DIR             # L1 vs the initial sine, mass
    /usr/bin/python3 docs/zeus_check.py noh DIR              # post-shock density, shock position

DIR is a run's [output] directory; the newest zeus_*.h5 in it is read. Needs Debian's
python3-h5py and python3-numpy; run with /usr/bin/python3.
"""
import argparse
import glob
import sys

import h5py
import numpy as np


def newest(directory):
    files = sorted(glob.glob(directory + "/zeus_*.h5"))
    if not files:
        sys.exit(f"zeus_check: error: no zeus_*.h5 in {directory}")
    return h5py.File(files[-1], "r")


def sod_density(x, t, g=1.4, left=(1.0, 1.0), right=(0.125, 0.1)):
    """Exact Riemann solution of Sod's problem (interface at 0.5), density only."""
    rl, pl = left
    rr, pr = right
    cl, cr = np.sqrt(g * pl / rl), np.sqrt(g * pr / rr)

    def f(p, rk, pk, ck):
        if p > pk:
            a, b = 2 / ((g + 1) * rk), (g - 1) / (g + 1) * pk
            return (p - pk) * np.sqrt(a / (p + b))
        return 2 * ck / (g - 1) * ((p / pk) ** ((g - 1) / (2 * g)) - 1)

    p = 0.5 * (pl + pr)
    for _ in range(100):
        h = 1e-8 * p
        fp = f(p, rl, pl, cl) + f(p, rr, pr, cr)
        df = (f(p + h, rl, pl, cl) + f(p + h, rr, pr, cr) - f(p - h, rl, pl, cl) - f(p - h, rr, pr, cr)) / (2 * h)
        p -= fp / df
    u = 0.5 * (f(p, rr, pr, cr) - f(p, rl, pl, cl))
    out = np.empty_like(x)
    for n, xi in enumerate(x):
        s = (xi - 0.5) / t
        if s < u:
            cs = cl * (p / pl) ** ((g - 1) / (2 * g))
            if s < -cl:
                out[n] = rl
            elif s < u - cs:
                out[n] = rl * (2 / (g + 1) + (g - 1) / ((g + 1) * cl) * (-s)) ** (2 / (g - 1))
            else:
                out[n] = rl * (p / pl) ** (1 / g)
        else:
            shock = cr * np.sqrt((g + 1) / (2 * g) * p / pr + (g - 1) / (2 * g))
            ratio = p / pr
            out[n] = rr * (ratio + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ratio + 1) if s < shock else rr
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["sod", "sedov", "sine", "noh"])
    parser.add_argument("directory")
    parser.add_argument("--axis", type=int, default=0, help="direction of the Sod tube")
    args = parser.parse_args()
    f = newest(args.directory)
    d = f["fields/density"][:]
    t = float(f.attrs["time"])
    for name in f["fields"]:
        bad = int((~np.isfinite(f["fields/" + name][:])).sum())
        if bad:
            sys.exit(f"zeus_check: error: {name} has {bad} values that are NaN or infinite")
    if args.check in ("sod", "sine"):
        axis = args.axis
        profile = d.mean(axis=tuple(a for a in range(3) if a != axis))
        n = len(profile)
        x = (np.arange(n) + 0.5) / n
        exact = sod_density(x, t) if args.check == "sod" else 1 + 0.5 * np.sin(2 * np.pi * x)
        print(f"zeus_check {args.check}: {n} zones, t = {t:g}, L1(density) = {np.abs(profile - exact).mean():.5f}, "
              f"mean density = {d.mean():.15g}")
        return
    if args.check == "noh":
        profile = d.mean(axis=(1, 2))
        n = len(profile)
        x = (np.arange(n) + 0.5) / n
        behind = profile[(x > 0.05) & (x < 0.15)].mean()
        shock = x[np.argmax(profile < 2.5)]
        print(f"zeus_check noh: {n} zones, t = {t:g}, density behind the shock {behind:.3f} (exact 4), "
              f"shock at x = {shock:.4f} (exact {t / 3:.4f}), density at the wall {profile[0]:.2f}")
        return
    # Sedov, one octant at the low corner of the unit cube: radially binned density.
    n = d.shape[0]
    c = (np.arange(n) + 0.5) / n
    x, y, z = np.meshgrid(c, c, c, indexing="ij")
    r = np.sqrt(x * x + y * y + z * z)
    bins = np.linspace(0, 1, n + 1)
    which = np.digitize(r.ravel(), bins)
    mean = np.array([d.ravel()[which == i].mean() if (which == i).any() else 0.0 for i in range(1, n + 1)])
    centres = 0.5 * (bins[1:] + bins[:-1])
    peak = int(np.argmax(mean))
    half = 0.5 * (mean[peak] + 1.0)
    j = peak
    while j + 1 < n and mean[j + 1] > half:
        j += 1
    radius = centres[j] + (mean[j] - half) / (mean[j] - mean[j + 1]) * (centres[j + 1] - centres[j])
    analytic = 1.152 * (t * t) ** 0.2
    kinetic = 0.0
    for a, name in enumerate("xyz"):
        v = f["fields/velocity_" + name][:]
        kinetic += (0.5 * 0.5 * (d + np.roll(d, 1, axis=a)) * v * v).sum()
    energy = 8 * (f["fields/energy"][:].sum() + kinetic) / d.size
    print(f"zeus_check sedov: {n}^3, t = {t:g}, radius (half max) {radius:.4f} ({100 * (radius / analytic - 1):+.1f}%), "
          f"radius (peak) {centres[peak]:.4f} ({100 * (centres[peak] / analytic - 1):+.1f}%), "
          f"analytic {analytic:.4f}, total energy x8 = {energy:.3f}")


if __name__ == "__main__":
    main()
