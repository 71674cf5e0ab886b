#!/usr/bin/env bash
# Session 31, fourth GPU call: the producer at 24 registers (MMA warps 240)
# against 40 (232), with Q copied by the producer (q_by_producer.tile) and
# with the example; B4 H32 N4096, two rounds alternating. Then where ptxas
# spills in causal D128 (SASS: STL/LDL against the setmaxnreg split).
rm -rf /tmp/tile-bin /tmp/tile-cache* /tmp/tn-*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
R=bench/results/v52-session31
AB=$R/pers_ab.py
run2() { local v=$1 lib=$2 s=$3 k=$4; shift 4; TILE_LIBRARY=/tmp/tile-bin/$lib TILE_CACHE_DIR=/tmp/tn-$v timeout 90 python3 $AB $v $s $k "$@" >> $OUT/ab.jsonl 2>> $OUT/ab.err; echo "$v rc=$?"; }
for round in 1 2; do
  run2 pex libtile.so examples/attention_persistent.tile persistent "128,128,8,2"
  run2 qtma libtile.so $R/q_by_producer.tile persistent "128,128,8,2"
  run2 pex24 libtile-r24.so examples/attention_persistent.tile persistent "128,128,8,2"
  run2 qtma24 libtile-r24.so $R/q_by_producer.tile persistent "128,128,8,2;128,128,8,3"
done
tail -3 $OUT/ab.err
python3 bench/results/v49-session28/summarize_ab.py $OUT/ab.jsonl pex qtma pex24 qtma24
for p in pack/ptx/*.ptx; do
  n=$(basename $p .ptx)
  ptxas -arch=sm_90a -v $p -o /tmp/$n.cubin 2>&1 | grep spill
  cuobjdump -sass /tmp/$n.cubin > /tmp/$n.sass
  echo "$n: $(grep -c 'STL' /tmp/$n.sass) STL, $(grep -c 'LDL' /tmp/$n.sass) LDL"
  grep -n "USETMAXREG\|STL\|LDL\|EXIT" /tmp/$n.sass | head -40
done
