#!/usr/bin/env bash
# Session 30, third GPU call: the time a program spends per tile beside its
# key blocks. Non-causal shapes whose tile count is a multiple of 132 (no
# partial last wave): N = 1024, 2048, 4096, 8192 keys (8-64 blocks of 128)
# with B·H = 132, 66, 33, 33; fitting ms per wave = a + b · blocks gives the
# per-tile overhead a of each kernel, SDPA's default backend (cuDNN) included.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s $k "$@" >> $OUT/fit.jsonl 2>> $OUT/fit.err; echo "$v rc=$?"; }
for shape in 4x33x1024 2x33x2048 1x33x4096 1x33x8192; do
  run2 fa3 examples/attention_fa3.tile grid "128,128,8,2" "128,0;64,0" $shape
  run2 vlast $R/attention_fa3_vlast.tile grid "128,128,8,2" "128,0;64,0" $shape
  run2 pers $R/attention_persistent.tile persistent "128,128,8,2" "128,0;64,0" $shape
done
tail -5 $OUT/fit.err
python3 $R/fit_overhead.py $OUT/fit.jsonl
