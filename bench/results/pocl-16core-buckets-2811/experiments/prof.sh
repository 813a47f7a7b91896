set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
d=$OUT/prof; mkdir -p $d
common=(--prims sort_keys --dists uniform --no-boost --no-host --shape cpu --device pocl --repeats 3 --min-repeats 3 --warmups 1 --qsort-max-log2 10 --serial-max-log2 10 --min-log2 24 --max-log2 24)
for c in 0 32 128; do
  extra=(); [ $c != 0 ] && extra=(--chunks $c)
  SCANKIT_LOG=1 gpubuild-bench/bench/bench_all "${common[@]}" "${extra[@]}" --csv $d/c$c.csv > $d/c$c.out 2> $d/c$c.log
  echo "chunks=$c"; grep "profile: launch" $d/c$c.log | tail -8; grep scankit $d/c$c.out
done
lscpu | grep -E "Model name|L1d|L2|L3|Socket|NUMA node\(s\)"
cd $OUT && tar czf prof.tgz prof && rm -rf prof
