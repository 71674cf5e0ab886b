// RUN: tile-opt %s --convert-tile-to-gpu | FileCheck %s

// 8-bit floats are their bits (i8) in registers and memory, and convert in
// pairs: 4 elements per thread take two conversions each way. f64 is
// rounded to f32 first; the constant `other` is its bits.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: gpu.func @roundtrip
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-2: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK-NOT: nvvm.convert.f32x2.to.f8x2
// CHECK: llvm.store %{{.*}} : vector<4xi8>, !llvm.ptr<1>
// CHECK: arith.constant -72 : i8
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> vector<4xi8>
// CHECK: nvvm.convert.f8x2.to.f16x2 {{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK-COUNT-2: arith.extf %{{.*}} : f32 to f64
// CHECK: nvvm.convert.f8x2.to.f16x2
// CHECK-COUNT-2: arith.extf %{{.*}} : f32 to f64
// CHECK-NOT: nvvm.convert.f8x2.to.f16x2
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK-NOT: tile.
// CHECK: gpu.return
module {
  tile.kernel @roundtrip(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %r: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 1 : i32} {
    %offs = tile.make_range 0, 128 : tensor<128xi32, #b>
    %xs = tile.splat %x : tensor<128x!tile.ptr<f32>, #b>
    %xp = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
    %v = tile.load %xp : tensor<128x!tile.ptr<f32>, #b>
    %a = arith.truncf %v : tensor<128xf32, #b> to tensor<128xf8E4M3FN, #b>
    %qs = tile.splat %q : tensor<128x!tile.ptr<f8E4M3FN>, #b>
    %qp = tile.addptr %qs, %offs : tensor<128x!tile.ptr<f8E4M3FN>, #b>, tensor<128xi32, #b>
    tile.store %qp, %a : tensor<128x!tile.ptr<f8E4M3FN>, #b>
    %ns = tile.splat %n : tensor<128xi32, #b>
    %m = arith.cmpi slt, %offs, %ns : tensor<128xi32, #b>
    // -0.5 in f8e5m2: 1 01110 00, 0xB8 (-72 as i8).
    %other = arith.constant dense<-0.5> : tensor<128xf8E5M2, #b>
    %rs = tile.splat %r : tensor<128x!tile.ptr<f8E5M2>, #b>
    %rp = tile.addptr %rs, %offs : tensor<128x!tile.ptr<f8E5M2>, #b>, tensor<128xi32, #b>
    %c = tile.load %rp, mask %m, other %other : tensor<128x!tile.ptr<f8E5M2>, #b>
    %w = arith.extf %c : tensor<128xf8E5M2, #b> to tensor<128xf64, #b>
    %ys = tile.splat %y : tensor<128x!tile.ptr<f64>, #b>
    %yp = tile.addptr %ys, %offs : tensor<128x!tile.ptr<f64>, #b>, tensor<128xi32, #b>
    tile.store %yp, %w : tensor<128x!tile.ptr<f64>, #b>
    %back = arith.truncf %w : tensor<128xf64, #b> to tensor<128xf8E5M2, #b>
    tile.store %rp, %back : tensor<128x!tile.ptr<f8E5M2>, #b>
    tile.return
  }
}
