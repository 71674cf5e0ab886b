#!/usr/bin/env bash
# Session 30, fourth GPU call: where attention_fa3's per-tile time goes.
# Knock-outs (results wrong on purpose, timing only): no store of O
# (ko_store), no last P V (ko_vlast), neither (ko_both); the per-tile
# overhead a fitted over job_third.sh's shapes, D 128 and 64.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s $k "$@" >> $OUT/fit.jsonl 2>> $OUT/fit.err; echo "$v rc=$?"; }
for shape in 4x33x1024 2x33x2048 1x33x4096 1x33x8192; do
  run2 fa3 examples/attention_fa3.tile grid "128,128,8,2" "128,0;64,0" $shape
  for v in ko_store ko_vlast ko_both; do
    run2 $v $R/$v.tile grid "128,128,8,2" "128,0;64,0" $shape
  done
done
tail -5 $OUT/fit.err
python3 $R/fit_overhead.py $OUT/fit.jsonl
