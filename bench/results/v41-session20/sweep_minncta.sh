#!/bin/bash
# For every dumped matmul kernel x default config: ptxas as emitted, and with .minnctapersm 1.
TILEC=$1; OUT=$2
CONFIGS="128,128,32,4,3 128,128,64,4,3 128,128,16,4,4 256,128,32,8,4 128,256,32,8,4 256,64,32,4,3 64,128,64,4,3 128,64,64,4,3 64,64,32,4,4 256,64,32,4,2 128,256,64,8,4 128,128,64,4,4 128,64,64,4,6"
: > $OUT; mkdir -p /tmp/sweep
for f in /tmp/k/*.tile; do
  n=$(basename $f .tile); i=0
  for c in $CONFIGS; do
    IFS=, read BM BN BK W S <<< "$c"
    ptx=/tmp/sweep/$n.$i.ptx
    if $TILEC $f --arch=sm_90a -D BM=$BM -D BN=$BN -D BK=$BK --num-warps=$W --num-stages=$S --divisible=a,b,c,M,N,K,lda,ldb,ldc -o $ptx 2>/dev/null; then
      smem=$(head -1 $ptx | grep -o "shared=[0-9]*" | cut -d= -f2)
      r=$(/usr/local/cuda/bin/ptxas -arch=sm_90a -v $ptx -o /dev/null 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | sed 's/ bytes spill stores/sp/; s/Used //; s/ registers/r/' | tr '\n' ' ')
      sed "s/^\(\s*\.maxntid [0-9]*, 1, 1\)/\1\n.minnctapersm 1/" $ptx > $ptx.m
      r2=$(/usr/local/cuda/bin/ptxas -arch=sm_90a -v $ptx.m -o /dev/null 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | sed 's/ bytes spill stores/sp/; s/Used //; s/ registers/r/' | tr '\n' ' ')
    else r="COMPILE-FAIL"; r2=""; fi
    echo "$n $i smem=$smem | $r | $r2" >> $OUT
    i=$((i+1))
  done
done
