#!/bin/bash
set -- $1 $2 $3 $4 $5 $6 $7
src=$1 d=$2 bm=$3 bn=$4 w=$5 s=$6 c=$7
f=/tmp/sweep/p_$src_$d_$bm_$bn_$w_$s_$c_$$.ptx
timeout 60 /work/main/build/bin/tilec /work/main/examples/$src.tile --arch=sm_90a -D D=$d -D BM=$bm -D BN=$bn -D CAUSAL=$c --num-warps=$w --num-stages=$s -o $f >/dev/null 2>&1 || { echo "$* | nocompile"; exit; }
o=$(timeout 120 /usr/local/cuda/bin/ptxas -arch=sm_90a -v $f -o /dev/null 2>&1); rc=$?
rm -f $f
sp=$(echo "$o" | grep -oE '[0-9]+ bytes spill stores' | head -1 | cut -d' ' -f1)
if [ $rc != 0 ]; then echo "$* | PTXAS-ERROR $(echo "$o" | grep -m1 -i error | cut -c1-120)"; 
elif echo "$o" | grep -qi "warning"; then echo "$* | warn $(echo "$o" | grep -m1 -i warning | cut -c1-120) spill=$sp";
else echo "$* | ok spill=$sp"; fi
