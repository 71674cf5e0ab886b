#!/usr/bin/env bash
# A grid-stride loop (grid_stride.tile, 64 Mi floats, 528 programs = 4 per
# SM) with the axis analysis fixed (pack) and before (pack-old, d50ac1a),
# alternating, two rounds; PyTorch's x * 2 in the same session.
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH
xz -dc pack-old/tile-bench-flip.xz > /tmp/tile-bin/tile-bench-old; chmod +x /tmp/tile-bin/tile-bench-old
n=$((64 * 1024 * 1024))
for r in 1 2; do for v in new old; do
  b=tile-bench; [ $v = old ] && b=tile-bench-old
  TILE_CACHE_DIR=/tmp/tile-cache-$v $b --kernel=bench/results/v46-session25/grid_stride.tile --grid=528 \
    --arg x=$n --arg y=$n --arg n=$n --bytes=$((8 * n)) 2>&1 | tail -2 | sed "s/^/$v $r: /"
done; done
python3 bench/results/v46-session25/grid_stride_peer.py
