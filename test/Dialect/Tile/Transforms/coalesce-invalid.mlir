// RUN: not tile-opt %s --tile-coalesce=num-warps=3 2>&1 | FileCheck %s
// CHECK: error: num-warps must be a power of two, got 3
tile.kernel @k() {
  tile.return
}
