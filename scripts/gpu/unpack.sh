# Sourced by the GPU-machine scripts run with pack/ carried: unpacks the
# tools into /tmp/tile-bin once (a second script in the same machine session
# reuses them), points the kernel cache at /tmp/tile-cache and the Python
# package at the unpacked libtile.so.
mkdir -p /tmp/tile-bin
for f in pack/*.xz; do
  [[ -x /tmp/tile-bin/$(basename "$f" .xz) ]] ||
    xz -dc "$f" > "/tmp/tile-bin/$(basename "$f" .xz)"
done
chmod +x /tmp/tile-bin/*
export TILE_CACHE_DIR=/tmp/tile-cache
export TILE_LIBRARY=/tmp/tile-bin/libtile.so
# TileCApiTest links libtile.so.0.
ln -sf libtile.so /tmp/tile-bin/libtile.so.0
export LD_LIBRARY_PATH=/tmp/tile-bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
