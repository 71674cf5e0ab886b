// RUN: tile-opt --tile-pipeline %s | FileCheck %s
// The pipeline tilec runs, registered in tile-opt: canonicalization + CSE.

// CHECK-LABEL: tile.kernel @dedup
tile.kernel @dedup(%p: !tile.ptr<i32>, %n: i32) {
  // CHECK: %[[R:.*]] = tile.make_range 0, 16
  // CHECK-NOT: tile.make_range
  %r1 = tile.make_range 0, 16 : tensor<16xi32>
  %r2 = tile.make_range 0, 16 : tensor<16xi32>
  // CHECK: %[[S:.*]] = arith.addi %[[R]], %[[R]]
  %s = arith.addi %r1, %r2 : tensor<16xi32>
  %ps = tile.splat %p : tensor<16x!tile.ptr<i32>>
  %ptrs = tile.addptr %ps, %r1 : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  // CHECK: tile.store %{{.*}}, %[[S]]
  tile.store %ptrs, %s : tensor<16x!tile.ptr<i32>>
  tile.return
}
