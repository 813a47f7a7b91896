set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
d=$OUT/prof2; mkdir -p $d
common=(--prims sort_keys --dists uniform --no-boost --no-host --shape cpu --device pocl --repeats 5 --min-repeats 5 --warmups 1 --qsort-max-log2 10 --serial-max-log2 10 --min-log2 24 --max-log2 24)
run() { name=$1; shift; env "$@" SCANKIT_LOG=1 gpubuild-bench/bench/bench_all "${common[@]}" --csv $d/$name.csv > $d/$name.out 2> $d/$name.log
  echo "$name: $(grep scankit $d/$name.out | awk '{print $4}') ms; buckets kernel: $(grep 'launch 6 of 6' $d/$name.log | sed 's/.*(\(.*\) us)/\1/' | tr '\n' ' ')"; }
for r in 1 2; do
run default X=1
run noprefetch SKX_NO_PREFETCH=1
run bb11 SKX_BB=11
run bb8 SKX_BB=8
done
cd $OUT && tar czf prof2.tgz prof2 && rm -rf prof2
