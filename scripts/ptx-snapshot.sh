#!/usr/bin/env bash
# Writes the PTX (or the error) of a corpus of kernels into DIR, one file
# each: the examples, matmul_relu in its four precisions (as
# tools/tile-bench/MatmulVariants.h makes them) over tile-bench's default
# tuning configurations with three specializations, the unpipelined matmul
# and the GPU tests' inline kernels. Run it before and after a change that
# must not change generated code, then `diff -r BEFORE AFTER`.
#   scripts/ptx-snapshot.sh DIR        (TILEC=... to use another tilec)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:?usage: ptx-snapshot.sh DIR}
mkdir -p "$out"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

# compile NAME ARGS...: tilec's PTX, or its error message, into NAME.ptx.
compile() {
  local name=$1
  shift
  "$tilec" "$@" -o "$out/$name.ptx" 2>"$out/$name.err" || true
  [[ -s $out/$name.err ]] || rm -f "$out/$name.err"
}

compile vector_add "$root/examples/vector_add.tile"
for block in 1024 2048 4096 16384; do
  compile softmax_$block "$root/examples/softmax.tile" -D BLOCK=$block
done

mm=$root/examples/matmul_relu.tile
cp "$mm" "$src/f16.tile"
sed -e 's/ptr<f16>/ptr<bf16>/g' -e 's/acc, 0.0), f16)/acc, 0.0), bf16)/' "$mm" >"$src/bf16.tile"
sed -e 's/ptr<f16>/ptr<f32>/g' -e 's/acc, 0.0), f16)/acc, 0.0), f32)/' "$mm" >"$src/f32.tile"
sed -e 's/dot(av, bv, acc)/dot(av, bv, acc, precision: tf32)/' "$src/f32.tile" >"$src/tf32.tile"
configs=(128,128,32,4,3 128,128,64,4,3 128,128,16,4,4 256,128,32,8,3
         128,256,32,8,3 256,64,32,4,3 64,128,64,4,3 128,64,64,4,3
         64,64,32,4,4 256,64,32,4,2 32,32,16,4,3)
specs=(a,b,c,M,N,K,lda,ldb,ldc a,b,c none)
for p in f16 bf16 f32 tf32; do
  for cfg in "${configs[@]}"; do
    IFS=, read -r bm bn bk w s <<<"$cfg"
    for i in "${!specs[@]}"; do
      compile "mm_${p}_${bm}x${bn}x${bk}_w${w}_s${s}_d$i" "$src/$p.tile" \
        -D BM=$bm -D BN=$bn -D BK=$bk --num-warps=$w --num-stages=$s \
        --divisible="${specs[$i]}"
    done
  done
  compile "mm_${p}_unpipelined" "$src/$p.tile" -D BK=16 --num-stages=1
done

cat >"$src/column.tile" <<'TILE'
kernel column(x: ptr<f32>, out: ptr<f32>, stride: i32) {
  let r = range(0, 256);
  store(out + r, load(x + r * stride));
}
TILE
compile column "$src/column.tile"
compile column_eq1 "$src/column.tile" --equal-to-one=stride
cat >"$src/transpose.tile" <<'TILE'
kernel transpose(x: ptr<f32>, out: ptr<f32>, ld: i32) {
  let r = range(0, 128);
  let t = load(x + r[:, None] * ld + r[None, :]);
  store(out + r[:, None] * ld + r[None, :], trans(t));
}
TILE
compile transpose "$src/transpose.tile"
cat >"$src/big.tile" <<'TILE'
kernel transpose(x: ptr<f64>, out: ptr<f64>) {
  let r = range(0, 256);
  let c = range(0, 128);
  let t = load(x + r[:, None] * 128 + c[None, :]);
  store(out + c[:, None] * 256 + r[None, :], trans(t));
}
TILE
compile big_w32 "$src/big.tile" --num-warps=32
# Error messages name the temporary source file: keep only the message.
for f in "$out"/*.err; do
  [[ -e $f ]] && sed -i "s|$src/||g" "$f"
done
echo "ptx-snapshot: $(ls "$out" | wc -l) files in $out"
