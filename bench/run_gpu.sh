#!/usr/bin/env bash
# run_gpu.sh - the benchmarks on the GPU machine (an NVIDIA H200 or H100
# reached through NVIDIA's OpenCL driver; see GPU.md), from binaries built
# on the development machine into gpubuild-bench/.
#
# On the development machine (Debian 12, CUDA toolkit installed), once:
#
#   bench/run_gpu.sh --prepare
#
#   configures gpubuild-bench/ (static libscankit, no tests), builds
#   bench_all (with Boost.Compute), bench_cub (CUB, sm_90) and the programs
#   hyperfine.sh times, and copies hyperfine into gpubuild-bench/bin/.
#
#   bench/run_gpu.sh --prepare-old REV
#
#   builds bench_all of commit REV (a worktree under /tmp) into
#   gpubuild-bench/bench/bench_all_old, for the ab phase.
#
# On the GPU machine, from the repository root, with $OUT set and
# gpubuild-bench/ carried along; each command stays under 10 minutes:
#
#   bash bench/run_gpu.sh opencl      bench_all: scankit, serial, Boost.Compute
#                                     (about 8 minutes: ALL_BUDGET, default 450 s)
#   bash bench/run_gpu.sh cub         bench_cub: CUB (about 2-4 minutes:
#                                     CUB_BUDGET, default 300 s)
#   bash bench/run_gpu.sh hyperfine   the CLI timings (about 2-3 minutes)
#   bash bench/run_gpu.sh bench       opencl then cub in one command, with
#                                     budgets of 330 s and 120 s (it may stop
#                                     one size earlier)
#   bash bench/run_gpu.sh lb-spin     the look-back's spin bound side by side:
#                                     bench_all on the single-pass primitives
#                                     (scan, segmented scan, select, sort;
#                                     uniform, 2^20..2^28) with
#                                     SCANKIT_LB_SPIN=0 (wait forever, no
#                                     fallback) and with the default bound,
#                                     alternated for LB_ROUNDS rounds
#                                     (default 2; about 4 minutes); prints
#                                     the scankit rows of both, lb_spin.md
#   bash bench/run_gpu.sh bykey-lb    reduce by key and run-length encoding
#                                     (uniform, 2^20..2^28) four ways: as
#                                     built (one pass, look-back depth 8),
#                                     SCANKIT_SCAN_PATH=reduce-then-scan,
#                                     and the look-back's SK_LB_DEPTH 16
#                                     and 32 (SCANKIT_KERNEL_DEFINES),
#                                     alternated for LB_ROUNDS rounds
#                                     (default 2; about 3-5 minutes);
#                                     prints the scankit rows, bykey_lb.md
#   bash bench/run_gpu.sh ab          the build before a change against the
#                                     build with it: bench_all_old (see
#                                     --prepare-old) and bench_all alternated
#                                     for AB_ROUNDS rounds (default 2), each
#                                     with --no-boost --no-host, 2^16..2^28,
#                                     uniform, then BENCH_ARGS (e.g.
#                                     "--prims sort_keys,sort_pairs");
#                                     prints the scankit rows of both, ab.md
#
#   Each writes into $OUT/results/<slug>/ (slug "nvidia-h200", or e.g.
#   "nvidia-h100-80gb-hbm3"). Copy the files of every phase into
#   bench/results/<slug>/ here and run
#       bench/run_all.sh --report bench/results/<slug>
#   to merge bench_all.csv and bench_cub.csv (CUB's ratios, the input
#   checksums), write results.md and draw the plots (no gnuplot there).
#
# Environment: BENCH_ARGS adds options to bench_all and bench_cub (e.g.
# "--max-log2 26", or "--prims merge_keys,merge_pairs" for the merges
# alone), HYPERFINE_ARGS to hyperfine.sh. Serial baselines stop at 2^26 and qsort at 2^22 there
# (one host core would take minutes per size above).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/gpubuild-bench

if [ "${1:-}" = "--prepare" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DSCANKIT_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90
  cmake --build "$build" -j"$(nproc)" --target bench_all bench_cub scan compact radixsort datagen
  [ -x "$build/bench/bench_cub" ] || { echo "run_gpu: bench_cub was not built (no CUDA toolkit?)" >&2; exit 1; }
  mkdir -p "$build/bin" "$build/lib"
  # the shared libraries of the vqsort peer (libhwy-dev), absent there
  ldd "$build/bench/bench_all" | awk '/libhwy/ {print $3}' | xargs -r cp -L -t "$build/lib"
  if command -v hyperfine >/dev/null 2>&1; then cp -L "$(command -v hyperfine)" "$build/bin/"; fi
  du -sh "$build"/bench/bench_all "$build"/bench/bench_cub "$build"/apps "$build/bin" >&2
  echo "run_gpu: ready; carry gpubuild-bench to the GPU machine" >&2
  exit 0
fi

if [ "${1:-}" = "--prepare-old" ]; then
  rev=${2:?run_gpu: --prepare-old takes a commit}
  tree=$(mktemp -d /tmp/scankit-old.XXXXXX)
  git -C "$root" worktree add --detach "$tree/src" "$rev" >&2
  cmake -S "$tree/src" -B "$tree/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DSCANKIT_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >&2
  cmake --build "$tree/build" -j"$(nproc)" --target bench_all >&2
  cp "$tree/build/bench/bench_all" "$build/bench/bench_all_old"
  git -C "$root" worktree remove --force "$tree/src"
  rm -rf "$tree"
  echo "run_gpu: $build/bench/bench_all_old is bench_all of $rev" >&2
  exit 0
fi

: "${OUT:?run_gpu: set OUT to the folder results go to}"
[ -x "$build/bench/bench_all" ] || { echo "run_gpu: no $build/bench/bench_all: run bench/run_gpu.sh --prepare on the development machine" >&2; exit 2; }

# NVIDIA's OpenCL driver is present but not registered with the ICD loader
if [ -e /usr/lib/libnvidia-opencl.so.1 ]; then
  mkdir -p /etc/OpenCL/vendors
  echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export SCANKIT_DEVICE=${SCANKIT_DEVICE:-nvidia}
export SCANKIT_CACHE_DIR=${SCANKIT_CACHE_DIR:-/tmp/scankit-bench-cache}
export PATH=$build/bin:$PATH
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L 2>/dev/null || true

slug=$("$build/bench/bench_all" --print-slug)
dest=$OUT/results/$slug
mkdir -p "$dest"
echo "run_gpu: device $slug -> $dest" >&2

read -r -a extra <<< "${BENCH_ARGS:-}"
phase=${1:-bench}
all_budget=${ALL_BUDGET:-450}
cub_budget=${CUB_BUDGET:-300}
if [ "$phase" = bench ]; then
  all_budget=${ALL_BUDGET:-330}
  cub_budget=${CUB_BUDGET:-120}
fi
run_opencl() {
  {
    echo "run: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "command: bench_all --budget $all_budget --serial-max-log2 26 --qsort-max-log2 22 ${extra[*]}; bench_cub --budget $cub_budget ${extra[*]}"
  } > "$dest/run.txt"
  "$build/bench/bench_all" --csv "$dest/bench_all.csv" --budget "$all_budget" \
    --serial-max-log2 26 --qsort-max-log2 22 "${extra[@]}" 2> >(tee "$dest/bench_all.log" >&2)
}
run_cub() {
  "$build/bench/bench_cub" --csv "$dest/bench_cub.csv" --budget "$cub_budget" \
    "${extra[@]}" 2> >(tee "$dest/bench_cub.log" >&2)
}
# The scankit rows of $dest/PREFIX_<variant>_<round>.csv as one markdown
# table (the variant in a column named COLUMN) in $dest/PREFIX.md, printed.
variant_table() {
  local prefix=$1 column=$2 f b
  {
    echo "| primitive | n | $column | round | ms |"
    echo "| --- | --- | --- | --- | --- |"
    for f in "$dest"/"$prefix"_*.csv; do
      b=$(basename "$f" .csv); b=${b#"$prefix"_}
      awk -F, -v variant="${b%_*}" -v round="${b##*_}" \
        '$4 == "scankit" {print "| " $1 " | " $2 " | " variant " | " round " | " $7 " |"}' "$f"
    done | sort -t'|' -k2,2 -k3,3n -k4,4 -k5,5
  } > "$dest/$prefix.md"
  cat "$dest/$prefix.md"
}
status=0
case "$phase" in
  opencl)
    run_opencl || status=1
    sleep 1   # let the log tees finish
    "$here/run_all.sh" --report "$dest" || status=1
    cat "$dest/results.md"
    ;;
  cub)
    run_cub || status=1
    sleep 1
    tail -n 3 "$dest/bench_cub.log"
    ;;
  bench)
    run_opencl || status=1
    run_cub || status=1
    sleep 1
    "$here/run_all.sh" --report "$dest" || status=1
    cat "$dest/results.md"
    ;;
  lb-spin)
    # Old (0: always wait) against new (the tuning table's bound), A B A B.
    lb_args=(--prims scan_inclusive,segscan,select_if,sort_keys --dists uniform
             --min-log2 20 --max-log2 28 --no-boost --no-host
             --serial-max-log2 10 --qsort-max-log2 10 "${extra[@]}")
    for round in $(seq "${LB_ROUNDS:-2}"); do
      for spin in 0 default; do
        if [ "$spin" = 0 ]; then
          SCANKIT_LB_SPIN=0 "$build/bench/bench_all" --csv "$dest/lb_spin_${spin}_$round.csv" \
            "${lb_args[@]}" || status=1
        else
          env -u SCANKIT_LB_SPIN "$build/bench/bench_all" \
            --csv "$dest/lb_spin_${spin}_$round.csv" "${lb_args[@]}" || status=1
        fi
      done
    done
    variant_table lb_spin spin
    ;;
  bykey-lb)
    # bench/NOTES-gpu.md: Reduce by key and run-length encoding: the
    # look-back of a value in parts. segreduce (reduce-then-scan of the same
    # lifted element) rides along for reference.
    bk_args=(--prims reduce_by_key,rle,segreduce --dists uniform
             --min-log2 20 --max-log2 28 --no-boost --no-host
             --serial-max-log2 10 --qsort-max-log2 10 "${extra[@]}")
    for round in $(seq "${LB_ROUNDS:-2}"); do
      for variant in depth8 rts depth16 depth32; do
        case $variant in
          depth8) vars=() ;;
          rts) vars=(SCANKIT_SCAN_PATH=reduce-then-scan) ;;
          depth16) vars=(SCANKIT_KERNEL_DEFINES=SK_LB_DEPTH=16) ;;
          depth32) vars=(SCANKIT_KERNEL_DEFINES=SK_LB_DEPTH=32) ;;
        esac
        env -u SCANKIT_SCAN_PATH -u SCANKIT_KERNEL_DEFINES "${vars[@]}" \
          "$build/bench/bench_all" --csv "$dest/bykey_lb_${variant}_$round.csv" \
          "${bk_args[@]}" || status=1
      done
    done
    variant_table bykey_lb variant
    ;;
  ab)
    [ -x "$build/bench/bench_all_old" ] || { echo "run_gpu: no bench_all_old: run bench/run_gpu.sh --prepare-old REV" >&2; exit 2; }
    ab_args=(--dists uniform --min-log2 16 --max-log2 28 --no-boost --no-host
             --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.4 "${extra[@]}")
    for round in $(seq "${AB_ROUNDS:-2}"); do
      for side in old new; do
        bin=$build/bench/bench_all; [ "$side" = old ] && bin=$build/bench/bench_all_old
        "$bin" --csv "$dest/ab_${side}_$round.csv" "${ab_args[@]}" || status=1
      done
    done
    variant_table ab build
    ;;
  hyperfine)
    read -r -a hf_extra <<< "${HYPERFINE_ARGS:-}"
    "$here/hyperfine.sh" --build "$build" --out "$dest" "${hf_extra[@]}" || status=1
    cat "$dest/hyperfine.md"
    ;;
  *)
    echo "run_gpu: unknown phase $phase (opencl, cub, bench, lb-spin, bykey-lb, ab or hyperfine)" >&2
    exit 2
    ;;
esac
exit $status
