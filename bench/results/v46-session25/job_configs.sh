#!/usr/bin/env bash
# tf32 tiles outside the default list for TN's producer pipeline (deeper
# pipelines with BK = 16, other shapes), tuned together with the list's
# best tiles, two rounds; every order over the same list, so NN's best is
# in the same run.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
mkdir -p /tmp/r
C="BK=32,BM=256,BN=128,num_warps=8,num_stages=4;BK=32,BM=128,BN=256,num_warps=8,num_stages=4"
C="$C;BK=16,BM=256,BN=128,num_warps=8,num_stages=8;BK=16,BM=256,BN=128,num_warps=8,num_stages=6"
C="$C;BK=32,BM=256,BN=128,num_warps=8,num_stages=3;BK=16,BM=128,BN=256,num_warps=8,num_stages=8"
C="$C;BK=32,BM=256,BN=64,num_warps=8,num_stages=6;BK=16,BM=128,BN=128,num_warps=4,num_stages=8"
C="$C;BK=64,BM=256,BN=64,num_warps=8,num_stages=4;BK=16,BM=256,BN=64,num_warps=8,num_stages=8"
for r in 1 2; do
  TILE_CACHE_DIR=/tmp/tile-cache-$r timeout 250 tile-bench --only=matmul --matmul-filter=matmul_tf32 --matmul-configs="$C" --tune-verbose > /tmp/r/cfg_$r.jsonl 2> /tmp/r/cfg_$r.txt
  echo "round $r rc=$?"; grep -o '"kernel": "[^"]*".*"tflops": [0-9.]*, "config": "[^"]*"' /tmp/r/cfg_$r.jsonl | sed 's/"shape.*"tflops"/"tflops"/'
done
grep -A11 autotune /tmp/r/cfg_1.txt | paste - - - - - - - - - - - - | head -0
cat /tmp/r/cfg_1.txt /tmp/r/cfg_2.txt
tar -C /tmp -cJf $OUT/cfg.tar.xz r
