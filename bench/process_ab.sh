#!/usr/bin/env bash
# process_ab.sh - whole-process time of two radixsort binaries (A, B) on
# one file, side by side: the file (datagen, 2^28 uniform uint32 = 1 GiB,
# seed 7 unless FILE is given) read once into the page cache, one warm-up
# run of each (kernel caches warm), then ROUNDS rounds of A then B, each
# timed from fork to exit; prints every time, the medians and A/B, one
# --time breakdown of each, and `cp` of the file three times.
#
#   bench/process_ab.sh A B [FILE] [ROUNDS]      (DATAGEN: the datagen binary)
#
# The outputs of A and B must be identical (cmp), else it stops.
set -euo pipefail
a=$1 b=$2 file=${3:-} rounds=${4:-7}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -z "$file" ]; then
    file=$dir/k.bin
    "${DATAGEN:-datagen}" -n 268435456 --type uint32 --seed 7 -o "$file"
fi
cat "$file" > /dev/null
"$a" "$file" -o "$dir/a.bin" > /dev/null
"$b" "$file" -o "$dir/b.bin" > /dev/null
cmp "$dir/a.bin" "$dir/b.bin"
ms() { local t0 t1; t0=$(date +%s%N); "$@" > /dev/null; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
for _ in $(seq "$rounds"); do
    echo "A $(ms "$a" "$file" -o "$dir/a.bin")"
    echo "B $(ms "$b" "$file" -o "$dir/b.bin")"
done > "$dir/times"
awk '{t[$1] = t[$1] " " $2} END {print "A ms:" t["A"]; print "B ms:" t["B"]}' "$dir/times"
for s in A B; do
    grep "^$s " "$dir/times" | sort -k2 -n | awk -v s="$s" '{v[NR] = $2} END {m = v[int((NR + 1) / 2)]; print s " median " m " ms"; print m > "/dev/stderr"}' 2>> "$dir/medians"
done
paste -s "$dir/medians" | awk '{printf "A/B %.2f\n", $1 / $2}'
for s in a b; do
    echo "== ${s^^} --time"
    bin=$a; [ "$s" = b ] && bin=$b
    "$bin" "$file" -o "$dir/$s.bin" --time 2>&1 | tail -9
done
for _ in 1 2 3; do echo "cp $(ms cp "$file" "$dir/c.bin") ms"; done
