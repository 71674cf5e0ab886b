#!/usr/bin/env bash
# The L2-promotion rule on kernels it was not measured on: linear_int8 and
# linear_fp8 at 2000x3000x1000 (rows of 1000 bytes), f16/bf16 matmul_relu
# at 4000x4000x1000 (rows of 2000 or 8000 bytes), each with the rule (unset)
# and forced 256-byte (3), through an uncommitted switch; two rounds.
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH TILE_CACHE_DIR=/tmp/tile-cache-other
lin() { # example M N K BM BN BK warps stages
  local n=$(( ($1 == 0) ))
  timeout 60 tile-bench --kernel=examples/$1.tile --grid=$(( ( ($2 + $5 - 1) / $5 ) * ( ($3 + $6 - 1) / $6 ) )) \
    -D BM=$5 -D BN=$6 -D BK=$7 --num-warps=$8 --num-stages=$9 \
    --arg x=$(( $2 * $4 )) --arg w=$(( $3 * $4 )) --arg xs=$2 --arg ws=$3 --arg y=$(( $2 * $3 )) \
    --arg M=$2 --arg N=$3 --arg K=$4 --arg ldx=$4 --arg ldw=$4 --arg ldy=$3 \
    --flops=$(( 2 * $2 * $3 * $4 )) 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '
}
mm() { # M N K BM BN BK warps stages
  timeout 60 tile-bench --kernel=examples/matmul_relu.tile --grid=$(( ($1 + $4 - 1) / $4 )),$(( ($2 + $5 - 1) / $5 )) \
    -D BM=$4 -D BN=$5 -D BK=$6 --num-warps=$7 --num-stages=$8 \
    --arg a=$(( $1 * $3 )) --arg b=$(( $3 * $2 )) --arg c=$(( $1 * $2 )) --arg M=$1 --arg N=$2 --arg K=$3 \
    --arg lda=$3 --arg ldb=$2 --arg ldc=$2 --flops=$(( 2 * $1 * $2 * $3 )) 2>&1 | tail -1 | grep -o '"ms": [0-9.]*\|"tflops": [0-9.]*' | tr '\n' ' '
}
for round in 1 2; do
  for p in unset 3; do
    if [[ $p == unset ]]; then unset TILE_PROBE_L2P; else export TILE_PROBE_L2P=$p; fi
    echo "== round $round L2P=$p"
    echo -n "int8 2000x3000x1000 128x256x128/8w/3s: "; lin linear_int8 2000 3000 1000 128 256 128 8 3; echo
    echo -n "int8 2000x3000x1000 128x128x128/4w/4s: "; lin linear_int8 2000 3000 1000 128 128 128 4 4; echo
    echo -n "fp8 2000x3000x1000 128x256x128/8w/3s: "; lin linear_fp8 2000 3000 1000 128 256 128 8 3; echo
    echo -n "f16 4000x4000x1000 128x256x64/8w/4s: "; mm 4000 4000 1000 128 256 64 8 4; echo
    echo -n "f16 4000x4000x1000 128x128x64/4w/4s: "; mm 4000 4000 1000 128 128 64 4 4; echo
  done
done
