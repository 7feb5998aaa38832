#!/usr/bin/python3
"""Draw a slice of a field of an hcart field file (HDF5) to a PNG image.

    /usr/bin/python3 docs/plot_slice.py output/jacobi3d-default/jacobi3d_00003000.h5 \
        --field u --axis z --output docs/images/jacobi3d-default.png

Needs Debian's python3-h5py and python3-matplotlib (scripts/install-deps.sh installs them);
run it with /usr/bin/python3, which sees Debian's Python packages. The file layout is
described in docs/output.md.
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="an hcart field file (.h5)")
    parser.add_argument("--field", default="u", help="dataset under /fields (default u)")
    parser.add_argument("--axis", choices="xyz", default="z", help="normal of the slice")
    parser.add_argument("--index", type=int, help="global index of the slice (default: middle)")
    parser.add_argument("--output", default="slice.png", help="PNG file to write")
    args = parser.parse_args()

    try:
        f = h5py.File(args.file, "r")
    except OSError as e:
        sys.exit(f"plot_slice: error: {args.file}: cannot be opened as HDF5 ({e})")
    with f:
        if f.attrs.get("hcart_format", b"") not in (b"hcart-fields/1", "hcart-fields/1"):
            sys.exit(f"plot_slice: error: {args.file}: not an hcart field file")
        if args.field not in f["fields"]:
            sys.exit(f"plot_slice: error: no field '{args.field}'; the file has {list(f['fields'])}")
        data = f["fields"][args.field]
        axis = "xyz".index(args.axis)
        size = data.shape[axis]
        index = size // 2 if args.index is None else args.index
        if not 0 <= index < size:
            sys.exit(f"plot_slice: error: --index {index}, expected 0 to {size - 1}")
        cut = [slice(None)] * 3
        cut[axis] = index
        plane = data[tuple(cut)]
        step = int(f.attrs["step"])
        application = f.attrs["application"]
        application = application.decode() if isinstance(application, bytes) else application

    rows, cols = [d for d in "xyz" if d != args.axis]
    fig, ax = plt.subplots(figsize=(5.2, 4.2), dpi=110)
    image = ax.imshow(plane.T, origin="lower", cmap="viridis", aspect="equal")
    ax.set_xlabel(f"{rows} index")
    ax.set_ylabel(f"{cols} index")
    ax.set_title(f"{application}: {args.field}, {args.axis} = {index}, step {step}")
    fig.colorbar(image, ax=ax, shrink=0.85)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"plot_slice: wrote {args.output} ({plane.shape[0]}x{plane.shape[1]} cells)")


if __name__ == "__main__":
    main()
