#!/usr/bin/env bash
# Runs on the GPU machine after run.sh has unpacked the tools (or unpacks
# them): what limits one matmul_relu variant. For each configuration given
# as "VARIANT BM BN BK WARPS STAGES" on stdin (VARIANT: f16, bf16, f32,
# tf32): ptxas's resource report and the SASS instruction mix, for the
# specialization the runtime picks when every integer is a multiple of 16.
set -uo pipefail
out=${OUT:-/tmp/tile-out}
mkdir -p "$out" /tmp/tile-bin /tmp/tile-ptx
if [[ ! -x /tmp/tile-bin/tilec ]]; then
  for f in pack/*.xz; do xz -dc "$f" > "/tmp/tile-bin/$(basename "$f" .xz)"; done
  chmod +x /tmp/tile-bin/*
fi
export PATH=/tmp/tile-bin:$PATH
while read -r variant bm bn bk warps stages; do
  [[ -z $variant ]] && continue
  src=/tmp/tile-ptx/mm_$variant.tile
  sed -e "s/a: ptr<f16>, b: ptr<f16>, c: ptr<f16>/a: ptr<${variant/tf32/f32}>, b: ptr<${variant/tf32/f32}>, c: ptr<${variant/tf32/f32}>/" \
      -e "s/cast(maximum(acc, 0.0), f16)/cast(maximum(acc, 0.0), ${variant/tf32/f32})/" \
      examples/matmul_relu.tile > "$src"
  [[ $variant == tf32 ]] && sed -i "s/dot(av, bv, acc)/dot(av, bv, acc, precision: tf32)/" "$src"
  name="$variant-$bm-$bn-$bk-w$warps-s$stages"
  echo "== $name"
  # As the runtime specializes a launch whose integers are multiples of 16.
  tilec "$src" -D BM=$bm -D BN=$bn -D BK=$bk --num-warps=$warps \
    --num-stages=$stages --divisible=a,b,c,M,N,K,lda,ldb,ldc \
    -o /tmp/tile-ptx/$name.ptx || continue
  ptxas -arch=sm_90 -v /tmp/tile-ptx/$name.ptx -o /tmp/tile-ptx/$name.cubin 2>&1 |
    grep -E "error|Used|spill"
  cuobjdump -sass /tmp/tile-ptx/$name.cubin |
    grep -oE "\b(HMMA|FFMA|LDSM|LDGSTS|LDG|STS|LDS|LDL|STL|BAR|F2FP|F2F|I2F|IMAD|IADD3|LOP3|SHF|LEA|MOV|ISETP|BRA)[.A-Z0-9]*" |
    sort | uniq -c | sort -rn | head -20
  cp /tmp/tile-ptx/$name.ptx "$out/" 2>/dev/null
done
