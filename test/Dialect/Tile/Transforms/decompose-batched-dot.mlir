// RUN: tile-opt %s --tile-decompose-batched-dot --split-input-file | FileCheck %s

// Two batches of operands that are not recomputed per batch (a reshape):
// each operand's batch is selected by the batch index and summed over
// dimension 0 on its bits (f16 as i16), each batch is a 2-D dot, and the
// results are selected back by batch index.
// CHECK-LABEL: tile.kernel @two
// CHECK: %[[A:.*]] = arith.bitcast %{{.*}} : tensor<2x16x32xf16> to tensor<2x16x32xi16>
// CHECK: %[[A0:.*]] = arith.select %{{.*}}, %[[A]], %{{.*}} : tensor<2x16x32xi1>, tensor<2x16x32xi16>
// CHECK: %[[S0:.*]] = tile.reduce sum %[[A0]], axis = 0 : tensor<2x16x32xi16> -> tensor<16x32xi16>
// CHECK: %[[X0:.*]] = arith.bitcast %[[S0]] : tensor<16x32xi16> to tensor<16x32xf16>
// The accumulator's loads are recomputed per batch (a splat pointer).
// CHECK: %[[D0:.*]] = tile.dot %[[X0]], %{{.*}}, %{{.*}} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
// CHECK: %[[E0:.*]] = tile.expand_dims %[[D0]], axis = 0
// CHECK: %[[R0:.*]] = tile.broadcast %[[E0]] : tensor<1x16x8xf32> -> tensor<2x16x8xf32>
// CHECK: %[[D1:.*]] = tile.dot
// CHECK: %[[E1:.*]] = tile.expand_dims %[[D1]], axis = 0
// CHECK: %[[R1:.*]] = tile.broadcast %[[E1]]
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %[[R1]], %[[R0]] : tensor<2x16x8xi1>, tensor<2x16x8xf32>
// CHECK-NOT: tile.dot
// CHECK: tile.store %{{.*}}, %[[R]]
tile.kernel @two(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
  %sa = tile.splat %pa : tensor<2x512x!tile.ptr<f16>>
  %la = tile.load %sa : tensor<2x512x!tile.ptr<f16>>
  %a = tile.reshape %la : tensor<2x512xf16> -> tensor<2x16x32xf16>
  %sb = tile.splat %pb : tensor<2x256x!tile.ptr<f16>>
  %lb = tile.load %sb : tensor<2x256x!tile.ptr<f16>>
  %b = tile.reshape %lb : tensor<2x256xf16> -> tensor<2x32x8xf16>
  %sc = tile.splat %pc : tensor<2x16x8x!tile.ptr<f32>>
  %c = tile.load %sc : tensor<2x16x8x!tile.ptr<f32>>
  %d = tile.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<2x32x8xf16> -> tensor<2x16x8xf32>
  tile.store %sc, %d : tensor<2x16x8x!tile.ptr<f32>>
  tile.return
}

// -----

// i8 operands are summed as they are; a splat accumulator is the same
// splat for each batch.
// CHECK-LABEL: tile.kernel @splat_acc
// CHECK-COUNT-4: arith.constant dense<0> : tensor<16x8xi32>
// CHECK-NOT: arith.bitcast
// CHECK: tile.reduce sum %{{.*}}, axis = 0 : tensor<4x16x32xi8> -> tensor<16x32xi8>
// CHECK-COUNT-4: tile.dot %{{.*}}, %{{.*}}, %cst{{.*}} : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
tile.kernel @splat_acc(%pa: !tile.ptr<i8>, %pb: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
  %sa = tile.splat %pa : tensor<4x512x!tile.ptr<i8>>
  %la = tile.load %sa : tensor<4x512x!tile.ptr<i8>>
  %a = tile.reshape %la : tensor<4x512xi8> -> tensor<4x16x32xi8>
  %sb = tile.splat %pb : tensor<4x256x!tile.ptr<i8>>
  %lb = tile.load %sb : tensor<4x256x!tile.ptr<i8>>
  %b = tile.reshape %lb : tensor<4x256xi8> -> tensor<4x32x8xi8>
  %sc = tile.splat %pc : tensor<4x16x8x!tile.ptr<i32>>
  %c = arith.constant dense<0> : tensor<4x16x8xi32>
  %d = tile.dot %a, %b, %c : tensor<4x16x32xi8> * tensor<4x32x8xi8> -> tensor<4x16x8xi32>
  tile.store %sc, %d : tensor<4x16x8x!tile.ptr<i32>>
  tile.return
}

// -----

// Operands loaded through pointers computed from the batch index are loaded
// again per batch with the index fixed (make_range becomes the constant
// batch index), right after the original loads; nothing is extracted.
// CHECK-LABEL: tile.kernel @recomputed
// CHECK: tile.make_range 0, 2 : tensor<2xi32>
// CHECK-DAG: arith.constant 0 : i32
// CHECK-DAG: arith.constant 1 : i32
// CHECK: tile.load %{{.*}} : tensor<2x16x32x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %{{.*}} : tensor<16x32x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %{{.*}} : tensor<16x32x!tile.ptr<f16>>
// CHECK-NOT: tile.reduce
// CHECK: tile.dot %{{.*}} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
// CHECK: tile.dot %{{.*}} : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
tile.kernel @recomputed(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
  %g = tile.make_range 0, 2 : tensor<2xi32>
  %g1 = tile.expand_dims %g, axis = 1 : tensor<2xi32> -> tensor<2x1xi32>
  %g2 = tile.expand_dims %g1, axis = 2 : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %stride = arith.constant dense<512> : tensor<2x1x1xi32>
  %off = arith.muli %g2, %stride : tensor<2x1x1xi32>
  %offa = tile.broadcast %off : tensor<2x1x1xi32> -> tensor<2x16x32xi32>
  %sa = tile.splat %pa : tensor<2x16x32x!tile.ptr<f16>>
  %qa = tile.addptr %sa, %offa : tensor<2x16x32x!tile.ptr<f16>>, tensor<2x16x32xi32>
  %a = tile.load %qa : tensor<2x16x32x!tile.ptr<f16>>
  %offb = tile.broadcast %off : tensor<2x1x1xi32> -> tensor<2x32x8xi32>
  %sb = tile.splat %pb : tensor<2x32x8x!tile.ptr<f16>>
  %qb = tile.addptr %sb, %offb : tensor<2x32x8x!tile.ptr<f16>>, tensor<2x32x8xi32>
  %b = tile.load %qb : tensor<2x32x8x!tile.ptr<f16>>
  %c = arith.constant dense<0.0> : tensor<2x16x8xf32>
  %d = tile.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<2x32x8xf16> -> tensor<2x16x8xf32>
  %sc = tile.splat %pc : tensor<2x16x8x!tile.ptr<f32>>
  tile.store %sc, %d : tensor<2x16x8x!tile.ptr<f32>>
  tile.return
}
