// RUN: tile-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: tile.kernel @splat_of_constant
tile.kernel @splat_of_constant(%p: !tile.ptr<f32>) {
  %c = arith.constant 2.0 : f32
  // CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
  // CHECK-NOT: tile.splat %{{.*}} : tensor<8xf32>
  %t = tile.splat %c : tensor<8xf32>
  %ps = tile.splat %p : tensor<8x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %[[C]]
  tile.store %ps, %t : tensor<8x!tile.ptr<f32>>
  tile.return
}

// CHECK-LABEL: tile.kernel @broadcast_of_splat
tile.kernel @broadcast_of_splat(%p: !tile.ptr<f32>, %x: f32) {
  // CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<4x8xf32>
  // CHECK-NOT: tile.expand_dims
  // CHECK-NOT: tile.broadcast
  %t = tile.splat %x : tensor<8xf32>
  %e = tile.expand_dims %t, axis = 0 : tensor<8xf32> -> tensor<1x8xf32>
  %b = tile.broadcast %e : tensor<1x8xf32> -> tensor<4x8xf32>
  %ps = tile.splat %p : tensor<4x8x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %[[S]]
  tile.store %ps, %b : tensor<4x8x!tile.ptr<f32>>
  tile.return
}

// CHECK-LABEL: tile.kernel @broadcast_chain
tile.kernel @broadcast_chain(%p: !tile.ptr<i32>) {
  %r = tile.make_range 0, 8 : tensor<8xi32>
  %e = tile.expand_dims %r, axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x8xi32> -> tensor<4x8xi32>
  // CHECK-NOT: tile.broadcast
  %same = tile.broadcast %e : tensor<1x8xi32> -> tensor<1x8xi32>
  %b2 = tile.broadcast %same : tensor<1x8xi32> -> tensor<4x8xi32>
  %ps = tile.splat %p : tensor<4x8x!tile.ptr<i32>>
  tile.store %ps, %b2 : tensor<4x8x!tile.ptr<i32>>
  tile.return
}

// CHECK-LABEL: tile.kernel @dead_load_removed
tile.kernel @dead_load_removed(%p: !tile.ptr<f32>) {
  // A load without users is dropped (it only reads), a store is kept.
  // CHECK-NOT: tile.load
  // CHECK: tile.store
  %v = tile.load %p : !tile.ptr<f32>
  %c = arith.constant 1.0 : f32
  tile.store %p, %c : !tile.ptr<f32>
  tile.return
}

// CHECK-LABEL: tile.kernel @convert_layout_identity
tile.kernel @convert_layout_identity(%p: !tile.ptr<i32>) {
  %r = tile.make_range 0, 8 : tensor<8xi32>
  // CHECK-NOT: tile.convert_layout
  %c = tile.convert_layout %r : tensor<8xi32> -> tensor<8xi32>
  %ps = tile.splat %p : tensor<8x!tile.ptr<i32>>
  tile.store %ps, %c : tensor<8x!tile.ptr<i32>>
  tile.return
}
