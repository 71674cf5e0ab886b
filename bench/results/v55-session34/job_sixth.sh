#!/usr/bin/env bash
# Session 34, sixth GPU call (four rounds of the fifth). Q read by S's MMAs through descriptors from
# shared memory (SS, as FlashAttention-3 does) instead of registers (RS):
# TILE_PROBE_Q_SHARED=1 makes operandRegistersShort true (a probe build of
# libtile.so, not committed). Does S's register A keep the tensor cores and
# the softmax from overlapping (register-file reads)? Two rounds: persistent
# 128x128/8/2 D64/D128 causal or not, grid 64x128/4/2 D64 causal or not.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/c-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
P=bench/results/v54-session33/pers_ab.py
run() { # variant cache env
  env $3 TILE_CACHE_DIR=$2 timeout 120 python3 $P $1 examples/attention_persistent.tile persistent "128,128,8,2" "64,0;64,1;128,1" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  env $3 TILE_CACHE_DIR=$2 timeout 120 python3 $P $1 examples/attention.tile grid "64,128,4,2" "64,0;64,1" >> $OUT/ab.jsonl 2>> $OUT/ab.err
  echo "$1 rc=$?"
}
for round in 1 2 3 4; do
  run base /tmp/c-base X=1
  run qs /tmp/c-qs TILE_PROBE_Q_SHARED=1
done
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl base qs
tail -3 $OUT/ab.err
