#!/usr/bin/env bash
# Session 32, fourth GPU call: each query block begun beside the end of the
# program's previous one (ap_bridge.tile: one loop iteration issues the new
# block's S_0 and the previous block's last P V, then stores the previous
# block; a loop over the program's blocks, a causal pair's two blocks as
# two of its iterations) against the example (peel, 279899f) and before
# it (before); B4 H32 N4096 two rounds alternating, B2 H16 N4000 one; then
# v51's per-tile fit for the bridge.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v53-session32
AB=$R/pers_ab.py
run2() { local f=$1 v=$2 s=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s persistent "128,128,8,2" "$@" >> $OUT/$f 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 ab.jsonl before $R/ap_before.tile
  run2 ab.jsonl peel examples/attention_persistent.tile
  run2 ab.jsonl bridge $R/ap_bridge.tile
done
for v in before peel; do run2 ab4000.jsonl $v $([ $v = before ] && echo $R/ap_before.tile || echo examples/attention_persistent.tile) "128,0;128,1;64,0;64,1" 2x16x4000; done
run2 ab4000.jsonl bridge $R/ap_bridge.tile "128,0;128,1;64,0;64,1" 2x16x4000
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl before peel bridge
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab4000.jsonl before peel bridge
for shape in 4x33x1024 2x33x2048 1x33x4096 1x33x8192; do
  run2 fit.jsonl bridge $R/ap_bridge.tile "128,0;64,0" $shape
done
python3 $R/fit_overhead.py $OUT/fit.jsonl
