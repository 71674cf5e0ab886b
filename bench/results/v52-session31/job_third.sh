#!/usr/bin/env bash
# Session 31, third GPU call: Q copied by the producer warpgroup (TMA, two
# slots; stageTileOperands) in the persistent example's form before
# c05f88f (Q loaded in each query block: q_by_producer.tile), against the
# example (Q loaded by the MMA warps a block ahead), B4 H32 N4096, two
# rounds alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v52-session31
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 90 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 pex examples/attention_persistent.tile persistent "128,128,8,2"
  run2 qtma $R/q_by_producer.tile persistent "128,128,8,2;128,128,8,3"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pex qtma
