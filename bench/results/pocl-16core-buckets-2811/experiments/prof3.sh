set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
d=$OUT/prof3; mkdir -p $d
common=(--prims sort_keys --dists uniform --no-boost --no-host --shape cpu --device pocl --repeats 5 --min-repeats 5 --warmups 1 --qsort-max-log2 10 --serial-max-log2 10 --min-log2 24 --max-log2 24)
run() { name=$1; shift; env "$@" SCANKIT_LOG=1 gpubuild-bench/bench/bench_all "${common[@]}" --csv $d/$name.csv > $d/$name.out 2> $d/$name.log
  echo "$name: $(grep -E 'scankit' $d/$name.out | awk '{print $2, $4}' | tr '\n' ' ') ms"; grep 'launch [156] of 6' $d/$name.log | tail -6 | sed 's/.*(\(.*\) us)/\1/' | tr '\n' ' '; echo; }
for r in 1 2; do
run default X=1
run plainput SKX_PLAIN_PUT=1
run plainlines SKX_PLAIN_LINES=1
run plainboth SKX_PLAIN_LINES=1 SKX_PLAIN_PUT=1
done
cd $OUT && tar czf prof3.tgz prof3 && rm -rf prof3
