#!/usr/bin/env bash
# The GPU kit's unpack into a checkout at another path than the packing one's:
# scripts/gpu-pack.sh packs a build made in a checkout at PACK, scripts/gpu-check.sh unpack
# runs in a checkout at GPU (PACK absent there, as on the GPU machine); the build must come
# out whole at GPU/build-cuda, a folder, not a link (to itself). nvidia-smi is a stand-in that
# names one GPU; HCART_GPU_UNPACK_ONLY=1 keeps the step from touching the system.
#   check_gpu_unpack.sh SOURCE SCRATCH
set -euo pipefail
source=$1 scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch/pack/main/build-cuda/bin" "$scratch/gpu/main" "$scratch/fake"
cp -r "$source/scripts" "$scratch/pack/main/"
echo "# ctest" >"$scratch/pack/main/build-cuda/CTestTestfile.cmake"
printf '#!/bin/sh\necho unpacked-program-runs\n' >"$scratch/pack/main/build-cuda/bin/prog"
chmod +x "$scratch/pack/main/build-cuda/bin/prog"
(cd "$scratch/pack/main" && scripts/gpu-pack.sh build-cuda >/dev/null)
cp -r "$scratch/pack/main/scripts" "$scratch/pack/main/.device" "$scratch/gpu/main/"
rm -rf "$scratch/pack"
printf '#!/bin/sh\necho "0, NVIDIA H100 80GB HBM3, 580.65.06, Default"\n' >"$scratch/fake/nvidia-smi"
chmod +x "$scratch/fake/nvidia-smi"
# Without OUT: on the GPU machine the device tool's results folder is set, and the script would
# pack this test's logs into it.
(cd "$scratch/gpu/main" && env -u OUT PATH="$scratch/fake:$PATH" HCART_GPU_UNPACK_ONLY=1 \
   HCART_GPU_LOGS="$scratch/out" scripts/gpu-check.sh unpack)
build=$scratch/gpu/main/build-cuda
[ -d "$build" ] && [ ! -L "$build" ] || { echo "FAIL: $build is not a folder: $(ls -ld "$build" 2>&1)"; exit 1; }
[ "$("$build/bin/prog")" = unpacked-program-runs ] || { echo "FAIL: the unpacked program does not run"; exit 1; }
echo "gpu unpack: ok ($build)"
