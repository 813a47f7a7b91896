set -u
B=gpubuild-bench/bench
AB_ROUNDS=2 BENCH_ARGS="--prims partition,reduce_by_key,rle" timeout 260 bash bench/run_gpu.sh ab > /dev/null 2> $OUT/ab.err; echo "ab rc=$?"
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/scankit-bench-cache
slug=$($B/bench_all --print-slug); d=$OUT/results/$slug; mkdir -p $d
A="--prims topk --dists uniform --min-log2 16 --max-log2 28 --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.4"
for r in 1 2; do for t in 8 1000000; do
  SCANKIT_TOPK_NARROW_TILES=$t timeout 70 $B/bench_all --csv $d/topk_narrow_${t}_$r.csv $A 2>/dev/null; echo "topk $t $r rc=$?"
done; done
timeout 120 $B/bench_cub --csv $d/cub_small.csv --budget 110 --prims partition,topk,reduce_by_key,rle --dists uniform --min-log2 16 --max-log2 28 2>/dev/null; echo "cub rc=$?"
cat $d/ab.md
for f in $d/topk_narrow_*.csv; do awk -F, -v f=$(basename $f .csv) '$4=="scankit"{print f, $2, $7}' $f; done
awk -F, 'NR>1{print "cub", $1, $2, $7}' $d/cub_small.csv
