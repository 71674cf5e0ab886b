#!/usr/bin/env bash
# Session 29, seventh GPU call: attention_fa3 against a variant whose
# masked loop runs one more, fully masked block instead of the P V after
# the loops (`attention_fa3_tail.tile`: that V is then a TMA copy of the
# producer's ring, not a copy after the loops), two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PYTHONUNBUFFERED=1
AB=bench/results/v48-session27/attn_ab.py
run2() { local v=$1 s=$2; shift 2; ATTENTION_SOURCE=$s TILE_CACHE_DIR=/tmp/tn-$v timeout 150 python3 $AB $v "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 fa3 examples/attention_fa3.tile "128,128,8,2"
  run2 tail bench/results/v50-session29/attention_fa3_tail.tile "128,128,8,2"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl fa3 tail
