// RUN: tile-opt %s --tile-decompose-batched-dot --split-input-file | FileCheck %s

// Two batches: each operand's batch is selected by the batch index and
// summed over dimension 0 on its bits (f16 as i16), each batch is a 2-D
// dot, and the results are selected back by batch index.
// CHECK-LABEL: tile.kernel @two
// CHECK: %[[A:.*]] = arith.bitcast %[[LA:.*]] : tensor<2x16x32xf16> to tensor<2x16x32xi16>
// CHECK: %[[A0:.*]] = arith.select %{{.*}}, %[[A]], %{{.*}} : tensor<2x16x32xi1>, tensor<2x16x32xi16>
// CHECK: %[[S0:.*]] = tile.reduce sum %[[A0]], axis = 0 : tensor<2x16x32xi16> -> tensor<16x32xi16>
// CHECK: %[[X0:.*]] = arith.bitcast %[[S0]] : tensor<16x32xi16> to tensor<16x32xf16>
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
  %sa = tile.splat %pa : tensor<2x16x32x!tile.ptr<f16>>
  %a = tile.load %sa : tensor<2x16x32x!tile.ptr<f16>>
  %sb = tile.splat %pb : tensor<2x32x8x!tile.ptr<f16>>
  %b = tile.load %sb : tensor<2x32x8x!tile.ptr<f16>>
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
// CHECK-NOT: arith.bitcast
// CHECK: tile.reduce sum %{{.*}}, axis = 0 : tensor<4x16x32xi8> -> tensor<16x32xi8>
// CHECK-COUNT-4: %[[ZERO:.*]] = arith.constant dense<0> : tensor<16x8xi32>
// CHECK-NEXT: tile.dot %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
tile.kernel @splat_acc(%pa: !tile.ptr<i8>, %pb: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
  %sa = tile.splat %pa : tensor<4x16x32x!tile.ptr<i8>>
  %a = tile.load %sa : tensor<4x16x32x!tile.ptr<i8>>
  %sb = tile.splat %pb : tensor<4x32x8x!tile.ptr<i8>>
  %b = tile.load %sb : tensor<4x32x8x!tile.ptr<i8>>
  %sc = tile.splat %pc : tensor<4x16x8x!tile.ptr<i32>>
  %c = arith.constant dense<0> : tensor<4x16x8xi32>
  %d = tile.dot %a, %b, %c : tensor<4x16x32xi8> * tensor<4x32x8xi8> -> tensor<4x16x8xi32>
  tile.store %sc, %d : tensor<4x16x8x!tile.ptr<i32>>
  tile.return
}
