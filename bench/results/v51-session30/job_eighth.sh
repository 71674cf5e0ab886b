#!/usr/bin/env bash
# Session 30, eighth GPU call: the last block's P V as a one-iteration loop
# whose V comes through the producer's ring (no one-stage buffer, no
# cp.async, no barriers at a query block's end), in attention_fa3 (grid)
# and attention_persistent, against the lone-dot versions (fa3_lone.tile,
# pex_lone.tile), B4 H32 N4096, one round; then AttentionExample.
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_GPU_PTX_DIR=/tmp/tile-ptx PYTHONUNBUFFERED=1
mkdir -p /tmp/tile-ptx
R=bench/results/v51-session30
AB=$R/pers_ab.py
run2() { local v=$1 s=$2 k=$3; shift 3; TILE_CACHE_DIR=/tmp/tn-$v timeout 60 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
run2 fa3_lone $R/fa3_lone.tile grid "128,128,8,2"
run2 fa3 examples/attention_fa3.tile grid "128,128,8,2"
run2 pex_lone $R/pex_lone.tile persistent "128,128,8,2"
run2 pex examples/attention_persistent.tile persistent "128,128,8,2"
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl fa3_lone fa3 pex_lone pex
tilec examples/vector_add.tile -o /tmp/tile-ptx/vector_add.ptx
timeout 150 TileGPUTests --gtest_filter='MatmulTest.AttentionExample' > $OUT/gtest.log 2>&1
echo "attention rc=$?"
grep -E "^\[ +(OK|FAILED)|PASSED|FAILED|Failure|Expected|Which|exception" $OUT/gtest.log | grep -v "^\[       OK" | head -20
grep -c "worst error" $OUT/gtest.log
