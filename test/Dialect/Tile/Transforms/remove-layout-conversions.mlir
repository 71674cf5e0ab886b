// RUN: tile-opt %s --tile-remove-layout-conversions --split-input-file | FileCheck %s

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tile.slice<{dim = 1, parent = #b2}>

// A range plus a splat, converted to a slice layout: computed in the slice
// layout directly, no conversion left.
// CHECK-LABEL: tile.kernel @remat
// CHECK-NOT: tile.convert_layout
// CHECK-DAG: %[[S2:.*]] = tile.splat %{{.*}} : tensor<128xi32, #[[S:slice]]>
// CHECK-DAG: %[[R:.*]] = tile.make_range 0, 128 : tensor<128xi32, #[[S]]>
// CHECK: arith.addi %[[S2]], %[[R]] : tensor<128xi32, #[[S]]>
// CHECK-NOT: tile.convert_layout
tile.kernel @remat(%p: !tile.ptr<i32>, %base: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0, 128 : tensor<128xi32, #b1>
  %s = tile.splat %base : tensor<128xi32, #b1>
  %v = arith.addi %s, %r : tensor<128xi32, #b1>
  %c = tile.convert_layout %v : tensor<128xi32, #b1> -> tensor<128xi32, #s1>
  %e = tile.expand_dims %c, axis = 1 : tensor<128xi32, #s1> -> tensor<128x1xi32, #b2>
  %ps = tile.splat %p : tensor<128x1x!tile.ptr<i32>, #b2>
  %pp = tile.addptr %ps, %e : tensor<128x1x!tile.ptr<i32>, #b2>, tensor<128x1xi32, #b2>
  tile.store %pp, %e : tensor<128x1x!tile.ptr<i32>, #b2>
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A loaded value must move; a chain of two conversions becomes one, and a
// round trip none.
// CHECK-LABEL: tile.kernel @chain
// CHECK: %[[V:.*]] = tile.load
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[V]] : tensor<512xf32, #{{.*}}> -> tensor<512xf32, #{{.*}}>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %{{.*}}, %[[C]]
// CHECK-NEXT: tile.store %{{.*}}, %[[V]]
tile.kernel @chain(%p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range 0, 512 : tensor<512xi32, #b1>
  %ps = tile.splat %p : tensor<512x!tile.ptr<f32>, #b1>
  %pp = tile.addptr %ps, %r : tensor<512x!tile.ptr<f32>, #b1>, tensor<512xi32, #b1>
  %v = tile.load %pp : tensor<512x!tile.ptr<f32>, #b1>
  %c1 = tile.convert_layout %v : tensor<512xf32, #b1> -> tensor<512xf32, #b4>
  %c2 = tile.convert_layout %c1 : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  %r4 = tile.make_range 0, 512 : tensor<512xi32, #b4>
  %ps4 = tile.splat %p : tensor<512x!tile.ptr<f32>, #b4>
  %pp4 = tile.addptr %ps4, %r4 : tensor<512x!tile.ptr<f32>, #b4>, tensor<512xi32, #b4>
  tile.store %pp4, %c1 : tensor<512x!tile.ptr<f32>, #b4>
  tile.store %pp, %c2 : tensor<512x!tile.ptr<f32>, #b1>
  tile.return
}
