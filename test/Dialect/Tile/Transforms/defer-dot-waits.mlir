// RUN: tile-opt %s --split-input-file --tile-defer-dot-waits | FileCheck %s

// Attention with its query rows in two halves: S1 and S2 read one K stage
// (a shared_load each); the first half's softmax reads S1 while S2's MMAs
// run (wait for S1 with one group pending), P1 V's MMAs run while the
// second half's softmax reads S2 (wait for S2 with P1 V pending), and the
// waits for the P V products come where the loop yields them, P1 V's with
// P2 V pending. The waits for P V take the P in registers that the MMAs
// read.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
#row = #tile.slice<{dim = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @halves
// CHECK: scf.for
// CHECK: %[[S1:.*]] = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xf16
// CHECK-NEXT: tile.shared_load
// CHECK-NEXT: %[[S2:.*]] = tile.dot
// CHECK-NEXT: %[[W1:.*]] = tile.dot_wait %[[S1]] pending = 1 : tensor<64x64xf32, #mma>
// CHECK-NEXT: tile.reduce max %[[W1]]
// CHECK: %[[P1:.*]] = tile.convert_layout
// CHECK: %[[O1:.*]] = tile.dot %[[P1]]
// CHECK-NEXT: %[[W2:.*]] = tile.dot_wait %[[S2]] pending = 1 : tensor<64x64xf32, #mma>
// CHECK-NEXT: tile.reduce max %[[W2]]
// CHECK: %[[P2:.*]] = tile.convert_layout
// CHECK: %[[O2:.*]] = tile.dot %[[P2]]
// CHECK-NEXT: %[[WO1:.*]]:2 = tile.dot_wait %[[O1]], %[[P1]] pending = 1 : tensor<64x128xf32, #mma>, tensor<64x64xf16, #dot_operand>
// CHECK-NEXT: %[[WO2:.*]]:2 = tile.dot_wait %[[O2]], %[[P2]] pending = 0
// CHECK-NEXT: scf.yield %[[WO1]]#0, %[[WO2]]#0
tile.kernel @halves(%n: i32) attributes {tile.num_warps = 4 : i32} {
  %q1 = arith.constant dense<1.0> : tensor<64x128xf16, #a>
  %q2 = arith.constant dense<2.0> : tensor<64x128xf16, #a>
  %kbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %vbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o1 = %zo, %o2 = %zo) -> (tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>) : i32 {
    %k1 = tile.shared_load %kbuf[%i] transposed : memref<2x64x128xf16, 3> -> tensor<128x64xf16, #bo>
    %s1 = tile.dot %q1, %k1, %zs : tensor<64x128xf16, #a> * tensor<128x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %k2 = tile.shared_load %kbuf[%i] transposed : memref<2x64x128xf16, 3> -> tensor<128x64xf16, #bo>
    %s2 = tile.dot %q2, %k2, %zs : tensor<64x128xf16, #a> * tensor<128x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %m1 = tile.reduce max %s1, axis = 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
    %e1 = tile.expand_dims %m1, axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
    %b1 = tile.broadcast %e1 : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %x1 = arith.subf %s1, %b1 : tensor<64x64xf32, #mma>
    %h1 = arith.truncf %x1 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %p1 = tile.convert_layout %h1 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    %v1 = tile.shared_load %vbuf[%i] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
    %n1 = tile.dot %p1, %v1, %o1 : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
    %m2 = tile.reduce max %s2, axis = 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
    %e2 = tile.expand_dims %m2, axis = 1 : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
    %b2 = tile.broadcast %e2 : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %x2 = arith.subf %s2, %b2 : tensor<64x64xf32, #mma>
    %h2 = arith.truncf %x2 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %p2 = tile.convert_layout %h2 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    %v2 = tile.shared_load %vbuf[%i] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
    %n2 = tile.dot %p2, %v2, %o2 : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
    scf.yield %n1, %n2 : tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>
  }
  tile.return
}

// -----

// Left as they are: a dot read at once; a dot that a wait for copies (a
// barrier that must end its MMAs before a buffer is reused) follows; a dot
// whose B is no wgmma stage (mma.sync, which waits for nothing); a dot
// whose MMAs a dot_wait already ends. A dot read inside an scf.if waits
// before the if (with its A, computed in the block: a constant here).
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: tile.kernel @kept
// CHECK: %[[D1:.*]] = tile.dot
// CHECK-NEXT: tile.store %{{.*}}, %[[D1]]
// CHECK: %[[D2:.*]] = tile.dot
// CHECK-NEXT: tile.async_wait pending = 0
// CHECK-NEXT: tile.store %{{.*}}, %[[D2]]
// CHECK: %[[D3:.*]] = tile.dot
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tile.store %{{.*}}, %[[D3]]
// CHECK: %[[D4:.*]] = tile.dot
// CHECK-NEXT: %[[W4:.*]] = tile.dot_wait %[[D4]] pending = 1
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tile.store %{{.*}}, %[[W4]]
// CHECK: %[[D5:.*]] = tile.dot
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[W5:.*]]:2 = tile.dot_wait %[[D5]], %{{.*}} pending = 0
// CHECK-NEXT: scf.if
// CHECK-NEXT: tile.store %{{.*}}, %[[W5]]#0
// CHECK-NOT: tile.dot_wait
tile.kernel @kept(%pp: !tile.ptr<f32>, %c: i1) attributes {tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<64x64xf16, #a>
  %bt = arith.constant dense<1.0> : tensor<64x128xf16, #bo>
  %p = tile.splat %pp : tensor<64x128x!tile.ptr<f32>, #mma>
  %buf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<1x64x128xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %s = arith.constant 0 : i32
  %b1 = tile.shared_load %buf[%s] : memref<1x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d1 = tile.dot %a, %b1, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  tile.store %p, %d1 : tensor<64x128x!tile.ptr<f32>, #mma>
  %b2 = tile.shared_load %buf[%s] : memref<1x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d2 = tile.dot %a, %b2, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  tile.async_wait pending = 0
  tile.store %p, %d2 : tensor<64x128x!tile.ptr<f32>, #mma>
  %d3 = tile.dot %a, %bt, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %x3 = arith.constant 3 : i32
  tile.store %p, %d3 : tensor<64x128x!tile.ptr<f32>, #mma>
  %b4 = tile.shared_load %buf[%s] : memref<1x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d4 = tile.dot %a, %b4, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %w4 = tile.dot_wait %d4 pending = 1 : tensor<64x128xf32, #mma>
  %x4 = arith.constant 4 : i32
  tile.store %p, %w4 : tensor<64x128x!tile.ptr<f32>, #mma>
  %b5 = tile.shared_load %buf[%s] : memref<1x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d5 = tile.dot %a, %b5, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %x5 = arith.constant 5 : i32
  scf.if %c {
    tile.store %p, %d5 : tensor<64x128x!tile.ptr<f32>, #mma>
  }
  tile.return
}
