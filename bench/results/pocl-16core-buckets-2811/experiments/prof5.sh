set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
lscpu | grep -E "Thread|Core|Socket|Model name|MHz"
d=$OUT/prof5; mkdir -p $d
common=(--prims sort_keys --dists uniform --no-boost --no-host --shape cpu --device pocl --repeats 7 --min-repeats 7 --warmups 1 --qsort-max-log2 10 --serial-max-log2 10 --min-log2 24 --max-log2 24)
run() { name=$1; shift; env "$@" SCANKIT_LOG=1 gpubuild-bench/bench/bench_all "${common[@]}" --csv $d/$name.csv > $d/$name.out 2> $d/$name.log
  echo "$name: $(awk -F, '$4=="scankit" {print $7}' $d/$name.csv) ms; buckets: $(grep 'launch 6 of 6' $d/$name.log | tail -7 | sed 's/.*(\(.*\) us)/\1/' | tr '\n' ' ')"; }
for r in 1 2; do
run t16_r$r X=1
run t8_r$r POCL_MAX_PTHREAD_COUNT=8
run t16aff_r$r POCL_AFFINITY=1
done
cd $OUT && tar czf prof5.tgz prof5 && rm -rf prof5
