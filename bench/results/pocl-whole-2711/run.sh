#!/usr/bin/env bash
# radixsort on PoCL (the 2-core development machine) from a clean page
# cache: 1 GiB of uint32 (datagen -n 256M --seed 7), the input cached and
# clean, nothing dirty before each run (hyperfine --prepare
# 'rm -f out.bin; sync'), 3 runs each; then one radixsort --time. (NumPy
# is not installed on this machine now; its row is in ../pocl-whole.)
# Run from the repository root with a Release or default build in build/.
set -eu
B=$PWD/build/apps; O=${OUT:-$PWD/bench/results/pocl-whole-2711}
W=$(mktemp -d); cd $W
{ date -u; nproc; uname -r; grep -m1 "model name" /proc/cpuinfo; uptime; hyperfine --version; } > $O/env.txt 2>&1
$B/datagen -n 256M --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
$B/radixsort k.bin -o first.bin; sync
hyperfine --runs 3 --prepare "rm -f out.bin; sync" --export-markdown $O/whole.md -n cp "cp k.bin out.bin" \
  -n radixsort "$B/radixsort k.bin -o out.bin" 2>&1 | grep -E "Time|±"
cmp out.bin first.bin && echo "radixsort output identical"
rm -f out.bin; sync; $B/radixsort k.bin -o out.bin --time 2> $O/radixsort-time.txt; cmp out.bin first.bin && echo identical
cd /; rm -rf $W
