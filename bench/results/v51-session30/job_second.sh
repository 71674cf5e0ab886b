#!/usr/bin/env bash
# Session 30, second GPU call: the last V block copied while the loops run
# (stageLoneDots waits at the dot), in attention_fa3 and in persistent
# kernels (heads in groups of 4 with the longest query blocks first; with
# and without the next tile's Q loaded during the epilogue), two rounds.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 150 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 fa3 examples/attention_fa3.tile grid "128,128,8,2"
  run2 vlast $R/attention_fa3_vlast.tile grid "128,128,8,2"
  run2 pers $R/attention_persistent.tile persistent "128,128,8,2"
  run2 pers2 $R/attention_persistent2.tile persistent "128,128,8,2"
  run2 pers3 $R/attention_persistent3.tile persistent "128,128,8,2"
done
tail -5 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl fa3 vlast pers pers2 pers3
