// RUN: tile-opt %s --convert-tile-to-gpu --canonicalize | FileCheck %s

// A range in a slice layout that removes dimension 0 runs along the parent's
// dimension 1: here lane % 8 (threadsPerWarp [4, 8], order [1, 0]), not the
// constant coordinate of the sliced dimension.
#b2 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tile.slice<{dim = 0, parent = #b2}>
// CHECK-LABEL: gpu.func @row
// CHECK: %[[L:.*]] = arith.remui %{{.*}}, %c8_i32 : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[L]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
module {
  tile.kernel @row(%p: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
    %r = tile.make_range 0, 8 : tensor<8xi32, #s0>
    %e = tile.expand_dims %r, axis = 0 : tensor<8xi32, #s0> -> tensor<1x8xi32, #b2>
    %ps = tile.splat %p : tensor<1x8x!tile.ptr<i32>, #b2>
    %pp = tile.addptr %ps, %e : tensor<1x8x!tile.ptr<i32>, #b2>, tensor<1x8xi32, #b2>
    tile.store %pp, %e : tensor<1x8x!tile.ptr<i32>, #b2>
    tile.return
  }
}
