#!/usr/bin/env bash
# Session 31, first GPU call: the next query block's Q loaded by the MMA
# warps before the current one's last P V (qpre_before_pv) or before its
# store (qpre_after_pv), against the example, persistent 128x128/8/2,
# B4 H32 N4096, two rounds alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v52-session31
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 70 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 pex examples/attention_persistent.tile persistent "128,128,8,2"
  run2 qafter $R/qpre_after_pv.tile persistent "128,128,8,2"
  run2 qbefore $R/qpre_before_pv.tile persistent "128,128,8,2"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pex qafter qbefore
