#!/usr/bin/env bash
# Causal attention with each head's query blocks taken last first (longest
# first: attention_lpt.tile) against the example, alternating, two rounds,
# bench/attention.py's causal shapes only (peers in the same run).
rm -rf /tmp/tile-bin /tmp/tile-cache*
source scripts/gpu/unpack.sh
export PATH=/tmp/tile-bin:$PATH PYTHONUNBUFFERED=1
mkdir -p /tmp/r
sed 's/for causal in (False, True):/for causal in (True,):/' bench/attention.py > bench/attn_causal_only.py
S="4x32x4096x128 2x16x4000x128 4x32x4096x64"
for r in 1 2; do
  for v in example lpt; do
    src=$PWD/examples/attention.tile; [ $v = lpt ] && src=$PWD/bench/results/v46-session25/attention_lpt.tile
    TILE_CACHE_DIR=/tmp/tile-cache-$v ATTENTION_SOURCE=$src timeout 280 python3 bench/attn_causal_only.py $S > /tmp/r/${v}_$r.jsonl 2> /tmp/r/${v}_$r.err
    echo "$v round $r rc=$?"; grep -o '"impl": "[a-z-]*", "kernel": "attention", "shape": "[^"]*".*"tflops": [0-9.]*' /tmp/r/${v}_$r.jsonl | sed 's/"ms".*"tflops"/"tflops"/'; grep config /tmp/r/${v}_$r.jsonl | grep -o '"shape.*'
  done
done
tar -C /tmp -cJf $OUT/lpt.tar.xz r
