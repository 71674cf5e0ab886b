#!/bin/bash
idx=$1 cfg=$2 k=$3
defs=$(echo "$cfg" | tr , "\n" | grep -E "^B[MNK]=" | sed "s/^/-D /" | tr "\n" " ")
warps=$(echo "$cfg" | grep -oE "num_warps=[0-9]+" | cut -d= -f2)
stages=$(echo "$cfg" | grep -oE "num_stages=[0-9]+" | cut -d= -f2)
for arch in sm_90a sm_80; do
ptx=/tmp/tkp/cfg${idx}_$(basename "$k" .tile)_$arch.ptx
/work/main/build/bin/tilec "$k" $defs --arch=$arch --num-warps=$warps --num-stages=$stages --divisible=a,b,c,M,N,K,lda,ldb,ldc -o "$ptx" 2>&1 | head -2
report=$(/usr/local/cuda/bin/ptxas -arch=$arch -v "$ptx" -o /dev/null 2>&1)
frame=$(echo "$report" | grep -oE "[0-9]+ bytes stack frame" | grep -oE "^[0-9]+" | head -1)
spill=$(echo "$report" | grep -oE "[0-9]+ bytes spill stores" | grep -oE "^[0-9]+" | head -1)
echo "$arch $(basename "$k" .tile) $idx $cfg stack=$frame spills=$spill $(echo "$report" | grep -i -m1 'error\|warn')"
rm -f "$ptx"
done
