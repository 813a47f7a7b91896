#!/usr/bin/env bash
# Configures and builds scankit (library, apps, tests, benchmarks) into
# ${SCANKIT_BUILD_DIR:-build}. Extra arguments go to the cmake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SCANKIT_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
