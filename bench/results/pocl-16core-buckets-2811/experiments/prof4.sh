set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
d=$OUT/prof4; mkdir -p $d
common=(--prims sort_keys,sort_pairs --dists uniform --no-boost --no-host --shape cpu --device pocl --repeats 7 --min-repeats 7 --warmups 1 --qsort-max-log2 10 --serial-max-log2 10 --min-log2 22 --max-log2 24)
run() { name=$1; bw=$2; shift 2; SKX_BW=$bw SCANKIT_LOG=1 gpubuild-bench/bench/bench_all "${common[@]}" "$@" --csv $d/$name.csv > $d/$name.out 2> $d/$name.log
  echo "$name: $(grep -E 'scankit' $d/$name.out | awk '{print $1, $2, $4}' | tr '\n' ' ')"; }
for r in 1 2; do
run w1_r$r 1
run w4_r$r 4
run w16_r$r 16
run passes_r$r 1 --sort-bucket-bytes 1
done
cd $OUT && tar czf prof4.tgz prof4 && rm -rf prof4
