// RUN: tile-opt %s --tile-accelerate-dot=wgmma=true --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>

// With wgmma, a 16-bit dot that warpgroup MMAs fit (8 warps: M by 128,
// N <= 256, K by 16, f32 accumulation) puts all warps along M, each warp's
// rows the 16 an m64 instruction gives it (repsPerWarp). A tf32 dot,
// one with N = 512 and one with M = 64 (not 16 rows per warp) keep the
// square warp grids of mma.sync.
// CHECK-DAG: #[[WG:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK-DAG: #[[SQ:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @fits
// CHECK: tile.dot {{.*}} -> tensor<128x256xf32, #[[WG]]>
// CHECK: tile.dot {{.*}} precision = tf32 {{.*}} -> tensor<128x256xf32, #[[SQ]]>
// CHECK: tile.dot {{.*}} -> tensor<128x512xf32, #[[SQ]]>
// CHECK: tile.dot {{.*}} -> tensor<64x256xf32, #[[SQ]]>
tile.kernel @fits(%x: f16, %f: f32, %y: f32, %q: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %a = tile.splat %x : tensor<128x64xf16, #b>
  %bb = tile.splat %x : tensor<64x256xf16, #b>
  %c = tile.splat %y : tensor<128x256xf32, #b>
  %p = tile.splat %q : tensor<128x256x!tile.ptr<f32>, #b>
  %d = tile.dot %a, %bb, %c : tensor<128x64xf16, #b> * tensor<64x256xf16, #b> -> tensor<128x256xf32, #b>
  tile.store %p, %d : tensor<128x256x!tile.ptr<f32>, #b>
  %fa = tile.splat %f : tensor<128x64xf32, #b>
  %fb = tile.splat %f : tensor<64x256xf32, #b>
  %e = tile.dot %fa, %fb, %c precision = tf32 : tensor<128x64xf32, #b> * tensor<64x256xf32, #b> -> tensor<128x256xf32, #b>
  tile.store %p, %e : tensor<128x256x!tile.ptr<f32>, #b>
  %wb = tile.splat %x : tensor<64x512xf16, #b>
  %wc = tile.splat %y : tensor<128x512xf32, #b>
  %wp = tile.splat %q : tensor<128x512x!tile.ptr<f32>, #b>
  %w = tile.dot %a, %wb, %wc : tensor<128x64xf16, #b> * tensor<64x512xf16, #b> -> tensor<128x512xf32, #b>
  tile.store %wp, %w : tensor<128x512x!tile.ptr<f32>, #b>
  %sa = tile.splat %x : tensor<64x64xf16, #b>
  %sc = tile.splat %y : tensor<64x256xf32, #b>
  %sp = tile.splat %q : tensor<64x256x!tile.ptr<f32>, #b>
  %s = tile.dot %sa, %bb, %sc : tensor<64x64xf16, #b> * tensor<64x256xf16, #b> -> tensor<64x256xf32, #b>
  tile.store %sp, %s : tensor<64x256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>

// A laid out along M (stored K x M) gets the warpgroup grid too: the MMAs
// read it from shared memory as an MN-major operand, in order.
// CHECK-DAG: #[[WG2:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK-LABEL: tile.kernel @a_along_m
// CHECK: tile.dot {{.*}} -> tensor<128x256xf32, #[[WG2]]>
tile.kernel @a_along_m(%x: f16, %y: f32, %q: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %a = tile.splat %x : tensor<128x64xf16, #t>
  %bb = tile.splat %x : tensor<64x256xf16, #b>
  %c = tile.splat %y : tensor<128x256xf32, #b>
  %p = tile.splat %q : tensor<128x256x!tile.ptr<f32>, #b>
  %d = tile.dot %a, %bb, %c : tensor<128x64xf16, #t> * tensor<64x256xf16, #b> -> tensor<128x256xf32, #b>
  tile.store %p, %d : tensor<128x256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [0, 1]}>

// The same through the conversion tile-coalesce puts between a load along
// M and the dot.
// CHECK-DAG: #[[WG3:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK-LABEL: tile.kernel @a_converted
// CHECK: tile.dot {{.*}} -> tensor<128x256xf32, #[[WG3]]>
tile.kernel @a_converted(%x: f16, %y: f32, %q: !tile.ptr<f32>) attributes {tile.num_warps = 8 : i32} {
  %at = tile.splat %x : tensor<128x64xf16, #t>
  %a = tile.convert_layout %at : tensor<128x64xf16, #t> -> tensor<128x64xf16, #b>
  %bb = tile.splat %x : tensor<64x256xf16, #b>
  %c = tile.splat %y : tensor<128x256xf32, #b>
  %p = tile.splat %q : tensor<128x256x!tile.ptr<f32>, #b>
  %d = tile.dot %a, %bb, %c : tensor<128x64xf16, #b> * tensor<64x256xf16, #b> -> tensor<128x256xf32, #b>
  tile.store %p, %d : tensor<128x256x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// tf32: warpgroup MMAs read a 32-bit B only K-major, and A K-major or in
// registers. B loaded along K (given N x K: NT, TT) gets the warpgroup
// layout. NN (B loaded along N, A along K) is computed transposed,
// Cᵀ = Bᵀ Aᵀ: Bᵀ is the A read along M, Aᵀ the B read along K, and the
// result goes back through `trans`. TN (neither loaded along K) gets the
// warpgroup layout too: tile-promote-shared copies its B into a K-major
// stage.
// CHECK-DAG: #[[WG4:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK-LABEL: tile.kernel @tf32_orders
// CHECK: %[[A:.*]] = tile.load %{{.*}} : tensor<128x32x!tile.ptr<f32>, #[[BL:[^>]*]]>
// CHECK: %[[BN:.*]] = tile.load %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[BL]]>
// CHECK: %[[NT:.*]] = tile.dot {{.*}} precision = tf32 {{.*}} -> tensor<128x128xf32, #[[WG4]]>
// CHECK: %[[TT:.*]] = tile.dot {{.*}} precision = tf32 {{.*}} -> tensor<128x128xf32, #[[WG4]]>
// CHECK: %[[ACC:.*]] = tile.trans %{{.*}} : tensor<128x128xf32, #[[BL]]> -> tensor<128x128xf32, #[[BLT:[^>]*]]>
// CHECK: %[[AT:.*]] = tile.trans %[[A]] : tensor<128x32xf32, #[[BL]]> -> tensor<32x128xf32, #[[BLT]]>
// CHECK: %[[BT:.*]] = tile.trans %[[BN]] : tensor<32x128xf32, #[[BL]]> -> tensor<128x32xf32, #[[BLT]]>
// CHECK: %[[BTOP:.*]] = tile.convert_layout %[[BT]] : {{.*}} -> tensor<128x32xf32, #[[AOP:.*]]>
// CHECK: %[[ATOP:.*]] = tile.convert_layout %[[AT]] : {{.*}} -> tensor<32x128xf32, #[[BOP:.*]]>
// CHECK: %[[ACCOP:.*]] = tile.convert_layout %[[ACC]] : {{.*}} -> tensor<128x128xf32, #[[WG4]]>
// CHECK: %[[NNT:.*]] = tile.dot %[[BTOP]], %[[ATOP]], %[[ACCOP]] precision = tf32 {{.*}} -> tensor<128x128xf32, #[[WG4]]>
// CHECK: %[[BACK:.*]] = tile.convert_layout %[[NNT]] : tensor<128x128xf32, #[[WG4]]> -> tensor<128x128xf32, #[[BLT]]>
// CHECK: %[[NN:.*]] = tile.trans %[[BACK]] : tensor<128x128xf32, #[[BLT]]> -> tensor<128x128xf32, #[[BL]]>
// CHECK: tile.dot {{.*}} precision = tf32 {{.*}} -> tensor<128x128xf32, #[[WG4]]>
tile.kernel @tf32_orders(%q: !tile.ptr<f32>, %y: f32) attributes {tile.num_warps = 4 : i32} {
  %ap = tile.splat %q : tensor<128x32x!tile.ptr<f32>, #b>
  %a = tile.load %ap : tensor<128x32x!tile.ptr<f32>, #b>
  %atp = tile.splat %q : tensor<128x32x!tile.ptr<f32>, #t>
  %at = tile.load %atp : tensor<128x32x!tile.ptr<f32>, #t>
  %am = tile.convert_layout %at : tensor<128x32xf32, #t> -> tensor<128x32xf32, #b>
  %btp = tile.splat %q : tensor<32x128x!tile.ptr<f32>, #t>
  %bt = tile.load %btp : tensor<32x128x!tile.ptr<f32>, #t>
  %bk = tile.convert_layout %bt : tensor<32x128xf32, #t> -> tensor<32x128xf32, #b>
  %bk2 = tile.load %btp : tensor<32x128x!tile.ptr<f32>, #t>
  %bk2b = tile.convert_layout %bk2 : tensor<32x128xf32, #t> -> tensor<32x128xf32, #b>
  %bnp = tile.splat %q : tensor<32x128x!tile.ptr<f32>, #b>
  %bn = tile.load %bnp : tensor<32x128x!tile.ptr<f32>, #b>
  %bn2 = tile.load %bnp : tensor<32x128x!tile.ptr<f32>, #b>
  %am2 = tile.load %atp : tensor<128x32x!tile.ptr<f32>, #t>
  %am2b = tile.convert_layout %am2 : tensor<128x32xf32, #t> -> tensor<128x32xf32, #b>
  %c = tile.splat %y : tensor<128x128xf32, #b>
  %nt = tile.dot %a, %bk, %c precision = tf32 : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %tt = tile.dot %am, %bk2b, %nt precision = tf32 : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %nn = tile.dot %a, %bn, %tt precision = tf32 : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %tn = tile.dot %am2b, %bn2, %nn precision = tf32 : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %p = tile.splat %q : tensor<128x128x!tile.ptr<f32>, #b>
  tile.store %p, %tn : tensor<128x128x!tile.ptr<f32>, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// tf32 TN whose B tile would take a thread more than 32 registers in the
// copy through registers (64 x 128 on 4 warps: 64) keeps mma.sync's square
// grid; 32 x 128 (32 registers) gets the warpgroup layout.
// CHECK-DAG: #[[WGT:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK-DAG: #[[SQT:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tile.kernel @tf32_tn_registers
// CHECK: tile.dot {{.*}} precision = tf32 : tensor<128x64xf32, {{.*}}> * tensor<64x128xf32, {{.*}}> -> tensor<128x128xf32, #[[SQT]]>
// CHECK: tile.dot {{.*}} precision = tf32 : tensor<128x32xf32, {{.*}}> * tensor<32x128xf32, {{.*}}> -> tensor<128x128xf32, #[[WGT]]>
tile.kernel @tf32_tn_registers(%q: !tile.ptr<f32>, %y: f32) attributes {tile.num_warps = 4 : i32} {
  %atp = tile.splat %q : tensor<128x64x!tile.ptr<f32>, #t>
  %at = tile.load %atp : tensor<128x64x!tile.ptr<f32>, #t>
  %am = tile.convert_layout %at : tensor<128x64xf32, #t> -> tensor<128x64xf32, #b>
  %bnp = tile.splat %q : tensor<64x128x!tile.ptr<f32>, #b>
  %bn = tile.load %bnp : tensor<64x128x!tile.ptr<f32>, #b>
  %c = tile.splat %y : tensor<128x128xf32, #b>
  %big = tile.dot %am, %bn, %c precision = tf32 : tensor<128x64xf32, #b> * tensor<64x128xf32, #b> -> tensor<128x128xf32, #b>
  %atp2 = tile.splat %q : tensor<128x32x!tile.ptr<f32>, #t>
  %at2 = tile.load %atp2 : tensor<128x32x!tile.ptr<f32>, #t>
  %am2 = tile.convert_layout %at2 : tensor<128x32xf32, #t> -> tensor<128x32xf32, #b>
  %bnp2 = tile.splat %q : tensor<32x128x!tile.ptr<f32>, #b>
  %bn2 = tile.load %bnp2 : tensor<32x128x!tile.ptr<f32>, #b>
  %small = tile.dot %am2, %bn2, %big precision = tf32 : tensor<128x32xf32, #b> * tensor<32x128xf32, #b> -> tensor<128x128xf32, #b>
  %p = tile.splat %q : tensor<128x128x!tile.ptr<f32>, #b>
  tile.store %p, %small : tensor<128x128x!tile.ptr<f32>, #b>
  tile.return
}
