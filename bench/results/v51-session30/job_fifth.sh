#!/usr/bin/env bash
# Session 30, fifth GPU call: examples/attention_persistent.tile (causal
# tiles as pairs of query blocks, heads in groups of 4, the last V block
# loaded before the loops) against attention_fa3.tile on its grid and the
# first persistent probe, B4 H32 N4096, two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 150 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 fa3 examples/attention_fa3.tile grid "128,128,8,2"
  run2 pers $R/attention_persistent.tile persistent "128,128,8,2"
  run2 pex examples/attention_persistent.tile persistent "128,128,8,2"
done
run2 pex3 examples/attention_persistent.tile persistent "128,128,8,3;128,64,8,2"
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl fa3 pers pex pex3
