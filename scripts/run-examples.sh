#!/usr/bin/env bash
# The main job: set up, build, compile the three example kernels (showing the
# tile IR that comes out of the compiler), and run each on the CPU
# interpreter (`tilec --run`) with small inputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
tilec="$build/bin/tilec"

"$root/scripts/setup.sh"
"$root/scripts/build.sh"

for example in vector_add softmax matmul_relu; do
  echo "=== examples/$example.tile -> tile IR ==="
  "$tilec" "$root/examples/$example.tile" --emit=tile
done

echo "=== vector_add on the CPU interpreter: out = x + y, n = 3000 ==="
"$tilec" "$root/examples/vector_add.tile" --run --grid=3 \
  --arg x=iota:3000 --arg y=fill:0.5:3000 --arg out=zeros:3000 --arg n=3000

echo "=== softmax on the CPU interpreter: 4 rows of 781 columns (each row sums to 1) ==="
"$tilec" "$root/examples/softmax.tile" --run --grid=4 \
  --arg out=zeros:3124 --arg inp=rand:3124 --arg stride=781 --arg n_cols=781

echo "=== matmul_relu on the CPU interpreter: 100x80x60, BM=BN=64 BK=32 ==="
"$tilec" "$root/examples/matmul_relu.tile" --run -D BM=64 -D BN=64 -D BK=32 \
  --grid=2,2 --arg a=rand:6000 --arg b=rand:4800 --arg c=zeros:8000 \
  --arg M=100 --arg N=80 --arg K=60 --arg lda=60 --arg ldb=80 --arg ldc=80
