#!/bin/bash
# usage: sweep.sh TILEC OUTFILE ARCH
TILEC=$1; OUT=$2; ARCH=${3:-sm_90a}
CONFIGS="128,128,32,4,3 128,128,64,4,3 128,128,16,4,4 256,128,32,8,4 128,256,32,8,4 256,64,32,4,3 64,128,64,4,3 128,64,64,4,3 64,64,32,4,4 256,64,32,4,2 128,256,64,8,4 128,128,64,4,4 128,64,64,4,6"
: > $OUT
for f in /tmp/k/*.tile; do
  n=$(basename $f .tile); i=0
  for c in $CONFIGS; do
    IFS=, read BM BN BK W S <<< "$c"
    ptx=/tmp/sweep/$n.$i.ptx
    if $TILEC $f --arch=$ARCH -D BM=$BM -D BN=$BN -D BK=$BK --num-warps=$W --num-stages=$S --divisible=a,b,c,M,N,K,lda,ldb,ldc -o $ptx 2>/dev/null; then
      r=$(/usr/local/cuda/bin/ptxas -arch=$ARCH -v $ptx -o /dev/null 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ')
    else r="COMPILE-FAIL"; fi
    echo "$n $i $r" >> $OUT
    i=$((i+1))
  done
done
