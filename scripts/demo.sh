#!/usr/bin/env bash
# The main job on demo data: sets up, builds, generates 16M random uint32
# keys and sorts them on the default OpenCL device (radixsort, checked and
# timed), then scans the same keys (checked and timed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build=${SCANKIT_BUILD_DIR:-build}
mkdir -p "$build/demo"
keys="$build/demo/keys.bin"
"$build/apps/datagen" -n 16M --type uint32 --dist uniform --seed 42 -o "$keys"
"$build/apps/scan" --list-devices
echo "== radixsort $keys"
"$build/apps/radixsort" "$keys" -o "$build/demo/keys.sorted.bin" --check --time
echo "== scan $keys"
"$build/apps/scan" "$keys" -o "$build/demo/keys.scan.bin" --check --time
