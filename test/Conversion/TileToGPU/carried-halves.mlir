// RUN: tile-opt %s --convert-tile-to-gpu | FileCheck %s

// 16-bit float tiles cross control flow in pairs: a loop carries, a branch
// yields and a while loop passes each thread's f16 slots as vector<2xf16>
// (attention's P, rounded in one iteration and packed into MMA fragments
// in the next, then needs no moves to pack it again), taken apart where the
// region or the results begin; f32 tiles stay scalars.
// CHECK-LABEL: gpu.func @carry
// CHECK: %[[P0:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: %[[P1:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: %[[FOR:.*]]:6 = scf.for %{{.*}} iter_args(%[[H0:.*]] = %[[P0]], %[[H1:.*]] = %[[P1]], {{.*}}) -> (vector<2xf16>, vector<2xf16>, f32, f32, f32, f32)
// CHECK-NEXT: vector.extract %[[H0]][0] : f16 from vector<2xf16>
// CHECK-NEXT: vector.extract %[[H0]][1] : f16 from vector<2xf16>
// CHECK-NEXT: vector.extract %[[H1]][0] : f16 from vector<2xf16>
// CHECK-NEXT: vector.extract %[[H1]][1] : f16 from vector<2xf16>
// CHECK: %[[Y0:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: %[[Y1:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf16>
// CHECK-NEXT: scf.yield %[[Y0]], %[[Y1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<2xf16>, vector<2xf16>, f32, f32, f32, f32
// CHECK: vector.extract %[[FOR]]#0[0] : f16 from vector<2xf16>
// CHECK: scf.if %{{.*}} -> (vector<2xf16>, vector<2xf16>)
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, vector<2xf16>, vector<2xf16>) -> (i32, vector<2xf16>, vector<2xf16>)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}}, %{{.*}} : i32, vector<2xf16>, vector<2xf16>
// CHECK: ^bb0(%{{.*}}: i32, %[[W0:.*]]: vector<2xf16>, %{{.*}}: vector<2xf16>):
// CHECK-NEXT: vector.extract %[[W0]][0] : f16 from vector<2xf16>
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tile.kernel @carry(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32} {
    %zero = arith.constant dense<0.0> : tensor<512xf16, #b>
    %zf = arith.constant dense<0.0> : tensor<512xf32, #b>
    %one = arith.constant dense<1.0> : tensor<512xf16, #b>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%h = %zero, %f = %zf) -> (tensor<512xf16, #b>, tensor<512xf32, #b>) : i32 {
      %s = arith.addf %h, %one : tensor<512xf16, #b>
      %w = arith.extf %s : tensor<512xf16, #b> to tensor<512xf32, #b>
      %g = arith.addf %f, %w : tensor<512xf32, #b>
      scf.yield %s, %g : tensor<512xf16, #b>, tensor<512xf32, #b>
    }
    %odd = arith.cmpi sgt, %n, %c1 : i32
    %t = scf.if %odd -> (tensor<512xf16, #b>) {
      scf.yield %r#0 : tensor<512xf16, #b>
    } else {
      scf.yield %one : tensor<512xf16, #b>
    }
    %u:2 = scf.while (%k = %c0, %v = %t) : (i32, tensor<512xf16, #b>) -> (i32, tensor<512xf16, #b>) {
      %more = arith.cmpi slt, %k, %n : i32
      scf.condition(%more) %k, %v : i32, tensor<512xf16, #b>
    } do {
    ^bb0(%k2: i32, %v2: tensor<512xf16, #b>):
      %k3 = arith.addi %k2, %c1 : i32
      %v3 = arith.addf %v2, %one : tensor<512xf16, #b>
      scf.yield %k3, %v3 : i32, tensor<512xf16, #b>
    }
    %offs = tile.make_range 0, 512 : tensor<512xi32, #b>
    %ps = tile.splat %p : tensor<512x!tile.ptr<f16>, #b>
    %pp = tile.addptr %ps, %offs : tensor<512x!tile.ptr<f16>, #b>, tensor<512xi32, #b>
    tile.store %pp, %u#1 : tensor<512x!tile.ptr<f16>, #b>
    %qs = tile.splat %q : tensor<512x!tile.ptr<f32>, #b>
    %qp = tile.addptr %qs, %offs : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    tile.store %qp, %r#1 : tensor<512x!tile.ptr<f32>, #b>
    tile.return
  }
}
