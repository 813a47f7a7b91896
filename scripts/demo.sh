#!/usr/bin/env bash
# The main job on demo data: sets up, builds, generates 16M random uint32
# and scans them on the default OpenCL device, with timing and a check.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build=${SCANKIT_BUILD_DIR:-build}
mkdir -p "$build/demo"
data="$build/demo/keys.bin"
"$build/apps/datagen" -n 16M --type uint32 --dist uniform --seed 42 -o "$data"
"$build/apps/scan" --list-devices
"$build/apps/scan" "$data" -o "$build/demo/keys.scan.bin" --time --check
