#!/usr/bin/env bash
# Does f32 TT's epilogue mask cost the gap to NN? The dumped kernels with and
# without the store's mask (4096^3: every tile is inside), 64x256x32/2 (TT)
# and 256x64x32/2 (NN).
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_EXAMPLES_DIR=$PWD/examples TILE_CACHE_DIR=/tmp/tile-cache-mask
tile-bench --dump-kernels=/tmp/k > /dev/null
for f in matmul_f32 matmul_f32_TT; do
  python3 - /tmp/k/$f.tile /tmp/k/${f}_nomask.tile <<'PY'
import sys
s = open(sys.argv[1]).read()
t = s.replace(",\n        (rm[:, None] < M) & (rn[None, :] < N));", ");")
assert t != s
open(sys.argv[2], "w").write(t)
PY
done
n=$((4096 * 4096))
run() { # file BM BN
  echo -n "$1 BM=$2 BN=$3: "
  timeout 60 tile-bench --kernel=/tmp/k/$1.tile --grid=$((4096 / $2)),$((4096 / $3)) -D BM=$2 -D BN=$3 -D BK=32 \
    --num-warps=4 --num-stages=2 --arg a=$n --arg b=$n --arg c=$n --arg M=4096 --arg N=4096 --arg K=4096 \
    --arg lda=4096 --arg ldb=4096 --arg ldc=4096 --flops=137438953472 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '; echo
}
for round in 1 2; do
  run matmul_f32 256 64; run matmul_f32_nomask 256 64
  run matmul_f32_TT 64 256; run matmul_f32_TT_nomask 64 256
done
