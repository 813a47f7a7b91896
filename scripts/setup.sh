#!/usr/bin/env bash
# Installs what scankit needs on Debian 12 (or Ubuntu) when it is missing:
# a C toolchain, CMake, the OpenCL ICD loader and headers, PoCL (an OpenCL
# device on the CPU), Criterion, Oclgrind, valgrind and strace (tests), Boost
# headers (the Boost.Compute peer the quick benchmark test checks), Open MPI
# (scankit_mpi, radixsort-mpi and their tests); --bench
# adds the benchmark tools and Highway (libhwy-dev: vqsort, bench_all's CPU
# sort peer), --fuzz clang and libFuzzer (scripts/fuzz.sh).
# Runs apt-get as root, or through sudo. Does nothing when everything is there.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  libcriterion-dev oclgrind valgrind strace
  libboost-dev
  libopenmpi-dev openmpi-bin
)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(hyperfine gnuplot-nox libhwy-dev) ;;
    --fuzz) packages+=(clang libclang-rt-14-dev) ;; # libFuzzer, for scripts/fuzz.sh
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
