// RUN: tile-opt %s --tile-accelerate-dot --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// f16 inputs with f32 accumulation: the result gets the m16n8 accumulator
// layout with the 4 warps as 2x2, the operands its dot-operand layouts, all
// through explicit conversions; the result converts back for its users.
// CHECK-DAG: #[[MMA:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[A:.*]] = #tile.dot_operand<{opIdx = 0, parent = #[[MMA]]}>
// CHECK-DAG: #[[B:.*]] = #tile.dot_operand<{opIdx = 1, parent = #[[MMA]]}>
// CHECK-LABEL: tile.kernel @f16
// CHECK: %[[CA:.*]] = tile.convert_layout %{{.*}} : tensor<128x32xf16, #{{.*}}> -> tensor<128x32xf16, #[[A]]>
// CHECK: %[[CB:.*]] = tile.convert_layout %{{.*}} : tensor<32x128xf16, #{{.*}}> -> tensor<32x128xf16, #[[B]]>
// CHECK: %[[CC:.*]] = tile.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = tile.dot %[[CA]], %[[CB]], %[[CC]] : tensor<128x32xf16, #[[A]]> * tensor<32x128xf16, #[[B]]> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: tile.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #
tile.kernel @f16(%x: f16, %y: f32, %q: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<128x32xf16, #b>
  %bb = tile.splat %x : tensor<32x128xf16, #b>
  %c = tile.splat %y : tensor<128x128xf32, #b>
  %p = tile.splat %q : tensor<128x128x!tile.ptr<f32>, #b>
  %d = tile.dot %a, %bb, %c : tensor<128x32xf16, #b> * tensor<32x128xf16, #b> -> tensor<128x128xf32, #b>
  tile.store %p, %d : tensor<128x128x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>

// 8 warps on a 64x256 tile: the warp tiles stay as square as the shape
// allows (32x64 each). tf32 and bf16 are accelerated; f32 ieee stays on FMA.
// CHECK: #[[M8:mma[0-9]*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @precisions
// CHECK: tile.dot {{.*}} precision = tf32 : tensor<64x16xf32, #dot_operand{{.*}}> * tensor<16x256xf32, #dot_operand{{.*}}> -> tensor<64x256xf32, #[[M8]]>
// CHECK: tile.dot {{.*}} : tensor<64x16xbf16, #dot_operand{{.*}}> * tensor<16x256xbf16, #dot_operand{{.*}}> -> tensor<64x256xf32, #[[M8]]>
// CHECK: tile.dot {{.*}} : tensor<64x16xf32, #blocked> * tensor<16x256xf32, #blocked> -> tensor<64x256xf32, #blocked>
tile.kernel @precisions(%x: f32, %h: bf16, %q: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %a = tile.splat %x : tensor<64x16xf32, #b>
  %bb = tile.splat %x : tensor<16x256xf32, #b>
  %ah = tile.splat %h : tensor<64x16xbf16, #b>
  %bh = tile.splat %h : tensor<16x256xbf16, #b>
  %c = tile.splat %x : tensor<64x256xf32, #b>
  %p = tile.splat %q : tensor<64x256x!tile.ptr<f32>, #b>
  %t = tile.dot %a, %bb, %c precision = tf32 : tensor<64x16xf32, #b> * tensor<16x256xf32, #b> -> tensor<64x256xf32, #b>
  %hd = tile.dot %ah, %bh, %t : tensor<64x16xbf16, #b> * tensor<16x256xbf16, #b> -> tensor<64x256xf32, #b>
  %d = tile.dot %a, %bb, %hd : tensor<64x16xf32, #b> * tensor<16x256xf32, #b> -> tensor<64x256xf32, #b>
  tile.store %p, %d : tensor<64x256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// Shapes the instruction does not tile (M = 8), or too small for every warp
// to own an m16n8 block (16x8 with 4 warps), stay on the FMA path.
// CHECK-LABEL: tile.kernel @too_small
// CHECK-NOT: dot_operand
// CHECK: tile.dot {{.*}} -> tensor<8x32xf32, #blocked>
// CHECK: tile.dot {{.*}} -> tensor<16x8xf32, #blocked>
tile.kernel @too_small(%x: f16, %y: f32, %q: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<8x16xf16, #b>
  %bb = tile.splat %x : tensor<16x32xf16, #b>
  %c = tile.splat %y : tensor<8x32xf32, #b>
  %a2 = tile.splat %x : tensor<16x16xf16, #b>
  %b2 = tile.splat %x : tensor<16x8xf16, #b>
  %c2 = tile.splat %y : tensor<16x8xf32, #b>
  %p = tile.splat %q : tensor<8x32x!tile.ptr<f32>, #b>
  %p2 = tile.splat %q : tensor<16x8x!tile.ptr<f32>, #b>
  %d = tile.dot %a, %bb, %c : tensor<8x16xf16, #b> * tensor<16x32xf16, #b> -> tensor<8x32xf32, #b>
  %d2 = tile.dot %a2, %b2, %c2 : tensor<16x16xf16, #b> * tensor<16x8xf16, #b> -> tensor<16x8xf32, #b>
  tile.store %p, %d : tensor<8x32x!tile.ptr<f32>, #b>
  tile.store %p2, %d2 : tensor<16x8x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// A chain (attention's S = Q Kᵀ, then P V with P computed from S): both
// dots put their 4 warps along M, though a lone 128 x 128 dot would take
// 2 x 2, so that each warp holds whole rows of S, P's A fragments. A dot
// outside the chain keeps the square grid.
// CHECK-DAG: #[[ROWS:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SQUARE:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @chain
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[ROWS]]>
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[ROWS]]>
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[SQUARE]]>
tile.kernel @chain(%x: f16, %q: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<128x64xf16, #b>
  %k = tile.splat %x : tensor<64x128xf16, #b>
  %v = tile.splat %x : tensor<128x128xf16, #b>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #b>
  %s = tile.dot %a, %k, %zero : tensor<128x64xf16, #b> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #b>
  %e = math.exp2 %s : tensor<128x128xf32, #b>
  %p = arith.truncf %e : tensor<128x128xf32, #b> to tensor<128x128xf16, #b>
  %o = tile.dot %p, %v, %zero : tensor<128x128xf16, #b> * tensor<128x128xf16, #b> -> tensor<128x128xf32, #b>
  %lone = tile.dot %v, %v, %o : tensor<128x128xf16, #b> * tensor<128x128xf16, #b> -> tensor<128x128xf32, #b>
  %ptr = tile.splat %q : tensor<128x128x!tile.ptr<f32>, #b>
  tile.store %ptr, %lone : tensor<128x128x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>

// f32 ieee dots stay on the FMA path. One whose A is loaded along M (stored
// [k][m]) gets each thread's 32 rows consecutive, so that they are vectors
// of A's stage; one whose B is loaded along K (stored [n][k]) one
// column per lane, so that the lanes read consecutive rows of B's stage,
// its rows (A stored [m][k]) left interleaved. The same threads and warps,
// through conversions; an NN dot keeps its layout. TT (both) is computed
// as Cᵀ = Bᵀ Aᵀ, an NN dot on the layout of a K-contiguous [n][k] load of
// B's width (4 f32: 8 lanes along K), every `trans` free.
// CHECK-DAG: #[[B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TN:.*]] = #tile.blocked<{sizePerThread = [32, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[NT:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TTN:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TTC:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tile.kernel @fma_orders
// CHECK: %[[AT:.*]] = tile.convert_layout %{{.*}} : tensor<128x32xf32, #{{.*}}> -> tensor<128x32xf32, #[[B]]>
// CHECK: %[[BK:.*]] = tile.convert_layout %{{.*}} : tensor<32x128xf32, #{{.*}}> -> tensor<32x128xf32, #[[B]]>
// CHECK: %[[C:.*]] = tile.convert_layout %{{.*}} : tensor<128x128xf32, #[[B]]> -> tensor<128x128xf32, #[[TN]]>
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[C]] : tensor<128x32xf32, #{{.*}}> * tensor<32x128xf32, #[[B]]> -> tensor<128x128xf32, #[[TN]]>
// CHECK: tile.convert_layout %[[D]] : tensor<128x128xf32, #[[TN]]> -> tensor<128x128xf32, #[[B]]>
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[NT]]>
// CHECK: %[[NN:.*]] = tile.dot {{.*}} : tensor<128x32xf32, #[[B]]> * tensor<32x128xf32, #[[B]]> -> tensor<128x128xf32, #[[B]]>
// CHECK: %[[TTACC:.*]] = tile.convert_layout %[[NN]] : tensor<128x128xf32, #[[B]]> -> tensor<128x128xf32, #[[TTC]]>
// CHECK: %[[CT:.*]] = tile.trans %[[TTACC]] : tensor<128x128xf32, #[[TTC]]> -> tensor<128x128xf32, #[[TTN]]>
// CHECK: %[[ATT:.*]] = tile.trans %[[AT]] : tensor<128x32xf32, #[[B]]> -> tensor<32x128xf32, #{{.*}}>
// CHECK: %[[BKT:.*]] = tile.trans %[[BK]] : tensor<32x128xf32, #[[B]]> -> tensor<128x32xf32, #{{.*}}>
// CHECK: %[[TT:.*]] = tile.dot %[[BKT]], %[[ATT]], %[[CT]] : tensor<128x32xf32, #{{.*}}> * tensor<32x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[TTN]]>
// CHECK: %[[TTB:.*]] = tile.trans %[[TT]] : tensor<128x128xf32, #[[TTN]]> -> tensor<128x128xf32, #[[TTC]]>
// CHECK: tile.convert_layout %[[TTB]] : tensor<128x128xf32, #[[TTC]]> -> tensor<128x128xf32, #[[B]]>
tile.kernel @fma_orders(%q: !tile.ptr<f32>, %y: f32) attributes {tile.num_warps = 4 : i32} {
  %atp = tile.splat %q : tensor<128x32x!tile.ptr<f32>, #t>
  %at = tile.load %atp : tensor<128x32x!tile.ptr<f32>, #t>
  %a = tile.convert_layout %at : tensor<128x32xf32, #t> -> tensor<128x32xf32, #b>
  %anp = tile.splat %q : tensor<128x32x!tile.ptr<f32>, #b>
  %an = tile.load %anp : tensor<128x32x!tile.ptr<f32>, #b>
  %bnp = tile.splat %q : tensor<32x128x!tile.ptr<f32>, #b>
  %bn = tile.load %bnp : tensor<32x128x!tile.ptr<f32>, #b>
  %btp = tile.splat %q : tensor<32x128x!tile.ptr<f32>, #t>
  %bt = tile.load %btp : tensor<32x128x!tile.ptr<f32>, #t>
  %bk = tile.convert_layout %bt : tensor<32x128xf32, #t> -> tensor<32x128xf32, #b>
  %c = tile.splat %y : tensor<128x128xf32, #b>
  %tn = tile.dot %a, %bn, %c : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %nt = tile.dot %an, %bk, %tn : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %nn = tile.dot %an, %bn, %nt : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %tt = tile.dot %a, %bk, %nn : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %p = tile.splat %q : tensor<128x128x!tile.ptr<f32>, #b>
  tile.store %p, %tt : tensor<128x128x!tile.ptr<f32>, #b>
  tile.return
}
