#!/usr/bin/env bash
# Session 32, third GPU call: the time a program of the persistent example
# spends per tile beside its key blocks (v51's fit, ms per wave = a + b ·
# blocks, over non-causal shapes whose tile count is a multiple of 132),
# the example with its first key block alone (peel) and before (before),
# SDPA's default backend in the same processes.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v53-session32
AB=$R/pers_ab.py
run2() { local v=$1 s=$2; shift 2; TILE_CACHE_DIR=/tmp/tn-$v timeout 100 python3 $AB $v $s persistent "128,128,8,2" "128,0;64,0" "$@" >> $OUT/fit.jsonl 2>> $OUT/fit.err; echo "$v rc=$?"; }
for shape in 4x33x1024 2x33x2048 1x33x4096 1x33x8192; do
  run2 before $R/ap_before.tile $shape
  run2 peel examples/attention_persistent.tile $shape
done
tail -5 $OUT/fit.err
python3 $R/fit_overhead.py $OUT/fit.jsonl
