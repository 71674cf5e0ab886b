#!/usr/bin/env bash
# f16 3000^3 (rows of 6000 bytes: every 128-byte box row spans two L2
# lines): does a wider K block (256-byte box rows of A) lose less to the
# misalignment? matmul_relu.tile per configuration, then lda = 3008.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_CACHE_DIR=/tmp/tile-cache-3000
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
run() { # BM BN BK warps stages ld
  local gx=$(( (3000 + $1 - 1) / $1 )) gy=$(( (3000 + $2 - 1) / $2 )) n=$(( 3000 * $6 ))
  echo "== BM=$1 BN=$2 BK=$3 warps=$4 stages=$5 ld=$6"
  timeout 60 tile-bench --kernel=examples/matmul_relu.tile --grid=$gx,$gy -D BM=$1 -D BN=$2 -D BK=$3 \
    --num-warps=$4 --num-stages=$5 --arg a=$n --arg b=$n --arg c=$n --arg M=3000 --arg N=3000 --arg K=3000 \
    --arg lda=$6 --arg ldb=$6 --arg ldc=$6 --flops=54000000000 2>&1 | tail -2
}
for round in 1 2; do
  run 128 256 64 8 4 3000
  run 128 256 128 8 2 3000
  run 256 128 128 8 2 3000
  run 256 128 64 8 4 3000
  run 128 128 128 4 3 3000
  run 128 128 64 4 4 3000
  run 128 256 64 8 4 3008
  run 128 256 128 8 2 3008
done
python3 - <<'PY'
import torch, triton
a = torch.randn(3000, 3000, device="cuda").half(); b = torch.randn(3000, 3000, device="cuda").half()
for f, name in [(lambda: torch.relu(a @ b), "relu(a@b)"), (lambda: a @ b, "a@b")]:
    ms = triton.testing.do_bench(f, return_mode="median")
    print("torch", name, "%.4f ms %.1f TFLOP/s" % (ms, 5.4e10 / ms / 1e9))
PY
