// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: tile.kernel @all_ops(
// CHECK-SAME:    %[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[H:.*]]: !tile.ptr<f16>)
// CHECK-SAME:    attributes {constants = {BLOCK = 128 : i32}}
tile.kernel @all_ops(%x: !tile.ptr<f32>, %n: i32, %h: !tile.ptr<f16>)
    attributes {constants = {BLOCK = 128 : i32}} {
  // CHECK: %[[PID:.*]] = tile.program_id 0
  %pid = tile.program_id 0
  // CHECK: tile.num_programs 2
  %np = tile.num_programs 2
  // CHECK: %[[R:.*]] = tile.make_range 0, 128 : tensor<128xi32>
  %r = tile.make_range 0, 128 : tensor<128xi32>
  // CHECK: %[[S:.*]] = tile.splat %[[N]] : tensor<128xi32>
  %s = tile.splat %n : tensor<128xi32>
  %mask = arith.cmpi slt, %r, %s : tensor<128xi32>
  // CHECK: %[[P:.*]] = tile.splat %[[X]] : tensor<128x!tile.ptr<f32>>
  %p = tile.splat %x : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[PTRS:.*]] = tile.addptr %[[P]], %[[R]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %ptrs = tile.addptr %p, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // CHECK: tile.addptr %[[X]], %[[N]] : !tile.ptr<f32>, i32
  %q = tile.addptr %x, %n : !tile.ptr<f32>, i32
  // CHECK: tile.load %[[PTRS]] : tensor<128x!tile.ptr<f32>>
  %v0 = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tile.load %[[PTRS]], mask %{{.*}}, other %{{.*}} : tensor<128x!tile.ptr<f32>>
  %v1 = tile.load %ptrs, mask %mask, other %zero : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<f32>
  %scalar = tile.load %q : !tile.ptr<f32>
  // CHECK: tile.reduce max %{{.*}}, axis = 0 : tensor<128xf32> -> f32
  %m = tile.reduce max %v1, axis = 0 : tensor<128xf32> -> f32
  // CHECK: tile.expand_dims %{{.*}}, axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  %col = tile.expand_dims %v0, axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  // CHECK: tile.broadcast %{{.*}} : tensor<128x1xf32> -> tensor<128x16xf32>
  %b = tile.broadcast %col : tensor<128x1xf32> -> tensor<128x16xf32>
  // CHECK: tile.reduce sum %{{.*}}, axis = 1 : tensor<128x16xf32> -> tensor<128xf32>
  %rs = tile.reduce sum %b, axis = 1 : tensor<128x16xf32> -> tensor<128xf32>
  // CHECK: tile.generic_reduce %{{.*}}, axis = 1 : tensor<128x16xf32> -> tensor<128xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : f32
  // CHECK-NEXT: tile.combine_yield %[[M]] : f32
  // CHECK-NEXT: }
  %gr = tile.generic_reduce %b, axis = 1 : tensor<128x16xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %c: f32):
    %mx = arith.maximumf %a, %c : f32
    tile.combine_yield %mx : f32
  }
  // CHECK: tile.generic_scan %{{.*}}, axis = 0 : tensor<128x16xf32> {
  // CHECK: tile.combine_yield
  %gs = tile.generic_scan %b, axis = 0 : tensor<128x16xf32> {
  ^bb0(%a: f32, %c: f32):
    tile.combine_yield %c : f32
  }
  // CHECK: tile.trans %{{.*}} : tensor<128x16xf32> -> tensor<16x128xf32>
  %t = tile.trans %b : tensor<128x16xf32> -> tensor<16x128xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<128x16xf32> -> tensor<32x4x16xf32>
  %rs3 = tile.reshape %b : tensor<128x16xf32> -> tensor<32x4x16xf32>
  // CHECK: tile.permute %{{.*}}, order = [2, 0, 1] : tensor<32x4x16xf32> -> tensor<16x32x4xf32>
  %pm = tile.permute %rs3, order = [2, 0, 1] : tensor<32x4x16xf32> -> tensor<16x32x4xf32>
  // CHECK: tile.join %{{.*}}, %{{.*}} : tensor<128x16xf32> -> tensor<128x16x2xf32>
  %jn = tile.join %b, %b : tensor<128x16xf32> -> tensor<128x16x2xf32>
  // CHECK: tile.split %{{.*}} : tensor<128x16x2xf32> -> tensor<128x16xf32>
  %lo, %hi = tile.split %jn : tensor<128x16x2xf32> -> tensor<128x16xf32>
  %acc = arith.constant dense<0.0> : tensor<128x128xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x16xf32> * tensor<16x128xf32> -> tensor<128x128xf32>
  %d = tile.dot %b, %t, %acc : tensor<128x16xf32> * tensor<16x128xf32> -> tensor<128x128xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} precision = tf32 : tensor<128x16xf32>
  %d2 = tile.dot %b, %t, %acc precision = tf32 : tensor<128x16xf32> * tensor<16x128xf32> -> tensor<128x128xf32>
  // CHECK: tile.convert_layout %{{.*}} : tensor<128xf32> -> tensor<128xf32>
  %c = tile.convert_layout %rs : tensor<128xf32> -> tensor<128xf32>
  // CHECK: tile.store %[[PTRS]], %{{.*}}, mask %{{.*}} : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %c, mask %mask : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f32>
  tile.store %q, %m : !tile.ptr<f32>
  // CHECK: tile.return
  tile.return
}
