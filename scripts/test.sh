#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (Criterion tests of every
# primitive, CLI tests, the Oclgrind race/bounds check, the install test).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
build=${SCANKIT_BUILD_DIR:-build}
cd "$build"
ctest --output-on-failure --timeout 1200 "$@"
