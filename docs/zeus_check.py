#!/usr/bin/python3
"""Measure a zeus output file against the known solutions (the numbers of docs/zeus.md).

    /usr/bin/python3 docs/zeus_check.py sod DIR [--axis 0]   # L1 of the density vs exact Riemann
    /usr/bin/python3 docs/zeus_check.py sedov DIR            # shock radius, total energy
    /usr/bin/python3 docs/zeus_check.py sine DIR             # L1 vs the initial sine, mass
    /usr/bin/python3 docs/zeus_check.py noh DIR              # post-shock density, shock position
    /usr/bin/python3 docs/zeus_check.py sphere DIR           # potential vs a uniform sphere's
    /usr/bin/python3 docs/zeus_check.py jeans DIR            # growth rate of the Jeans wave
    /usr/bin/python3 docs/zeus_check.py collapse DIR         # central density vs free fall

DIR is a run's [output] directory; the newest zeus_*.h5 in it is read (jeans: all of them). Needs Debian's
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


def gravity_checks(check, directory, f):
    """Self-gravity's problems (G, sizes and densities of inputs/zeus/{collapse,jeans}.toml)."""
    d = f["fields/density"][:]
    t = float(f.attrs["time"])
    n = d.shape[0]
    if check == "sphere":
        # The potential the last step started from, against a uniform sphere's (density 1,
        # radius 0.25, centred, G = 1); the medium of 1e-4 adds about 1e-4 of it.
        phi = f["fields/potential"][:]
        c = (np.arange(n) + 0.5) / n - 0.5
        x, y, z = np.meshgrid(c, c, c, indexing="ij")
        r = np.sqrt(x * x + y * y + z * z)
        big_r = 0.25
        exact = np.where(r < big_r, -2 * np.pi * (big_r ** 2 - r * r / 3), -4 * np.pi * big_r ** 3 / (3 * r))
        error = np.abs(phi - exact).max() / np.abs(exact).max()
        mean = np.abs(phi - exact).mean() / np.abs(exact).max()
        print(f"zeus_check sphere: {n}^3, mean |phi - exact| / max |exact| = {mean:.3e}, largest {error:.3e}, "
              f"phi at the centre {phi[n // 2 - 1:n // 2 + 1, n // 2 - 1:n // 2 + 1, n // 2 - 1:n // 2 + 1].mean():.5f} "
              f"(exact {-2 * np.pi * big_r ** 2:.5f} at r = 0)")
        return
    if check == "collapse":
        t_ff = np.sqrt(3 * np.pi / 32)
        lo, hi = 0.0, 1.0
        for _ in range(100):
            x = 0.5 * (lo + hi)
            tau = 2 / np.pi * (np.sqrt(x * (1 - x)) + np.arccos(np.sqrt(x)))
            lo, hi = (x, hi) if tau > t / t_ff else (lo, x)
        x = 0.5 * (lo + hi)
        centre = d[n // 2 - 1:n // 2 + 1, n // 2 - 1:n // 2 + 1, n // 2 - 1:n // 2 + 1].mean()
        print(f"zeus_check collapse: {n}^3, t = {t:g} = {t / t_ff:.3f} t_ff, central density {centre:.3f}, "
              f"free fall {1 / x ** 3:.3f} ({100 * (centre * x ** 3 - 1):+.1f}%)")
        return
    # Jeans: the wave's amplitude in every file, its growth rate by least squares on ln A.
    times, amplitudes = [], []
    for name in sorted(glob.glob(directory + "/zeus_*.h5")):
        with h5py.File(name, "r") as g:
            profile = g["fields/density"][:].mean(axis=(1, 2))
            x = (np.arange(len(profile)) + 0.5) / len(profile)
            times.append(float(g.attrs["time"]))
            amplitudes.append(2 * ((profile / profile.mean() - 1) * np.cos(2 * np.pi * x)).mean())
    times, amplitudes = np.array(times), np.array(amplitudes)
    keep = times >= 0.1 * times.max()  # past the first steps
    rate = np.polyfit(times[keep], np.log(amplitudes[keep]), 1)[0]
    print(f"zeus_check jeans: {len(times)} files to t = {times.max():g}, amplitude {amplitudes[0]:.3e} -> "
          f"{amplitudes[-1]:.3e}, growth rate {rate:.4f} against omega = 2 pi = {2 * np.pi:.4f} "
          f"({100 * (rate / (2 * np.pi) - 1):+.2f}%)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["sod", "sedov", "sine", "noh", "sphere", "jeans", "collapse"])
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
    if args.check in ("sphere", "jeans", "collapse"):
        gravity_checks(args.check, args.directory, f)
        return
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
