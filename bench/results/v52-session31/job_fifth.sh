#!/usr/bin/env bash
# Session 31, fifth GPU call: Q copied by the producer and loaded into the
# MMA warps' registers once a query block (qreg: ldmatrix from the slot,
# which goes back at once; producer 40 registers) against Q read by the
# MMAs from the slot (qtma24: descriptors, producer 24 registers) and the
# example (Q loaded by the MMA warps a block ahead); B4 H32 N4096, three
# rounds alternating.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v52-session31
AB=$R/pers_ab.py
run2() { local v=$1 lib=$2 s=$3 k=$4; shift 4; TILE_LIBRARY=/tmp/tile-bin/$lib TILE_CACHE_DIR=/tmp/tn-$v timeout 90 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2 3; do
  run2 pex libtile.so examples/attention_persistent.tile persistent "128,128,8,2"
  run2 qreg libtile.so $R/q_by_producer.tile persistent "128,128,8,2;128,128,8,3"
  run2 qtma24 libtile-ss24.so $R/q_by_producer.tile persistent "128,128,8,2"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pex qreg qtma24
