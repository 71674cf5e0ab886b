// RUN: tile-opt %s --tile-fuse --tile-remove-layout-conversions | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#r = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#rows = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// Attention's inner loop as tile-accelerate-dot leaves it: S = Q Kᵀ, the
// row maximum carried in a 1-D layout of its own, P = exp2(S - m) fed to
// the next dot, the accumulator rescaled in the blocked layout. Everything
// computed from S moves into the mma layout or its row slice: the
// reduction runs on the mma registers, the maximum and the accumulator are
// carried in those layouts, and the only conversion left in the loop is P's
// into the A operand (re-packed in registers by the lowering).
// CHECK-LABEL: tile.kernel @online_softmax
// CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[SLICE:slice[0-9]*]]>, tensor<64x32xf32, #mma>)
// CHECK: %[[S:.*]] = tile.dot {{.*}} -> tensor<64x32xf32, #mma>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.reduce max %[[S]], axis = 1 : tensor<64x32xf32, #mma> -> tensor<64xf32, #[[SLICE]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
// CHECK-NEXT: %[[PA:.*]] = tile.convert_layout %[[P]] : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #dot_operand>
// CHECK-NOT: tile.convert_layout
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<64xf32, #[[SLICE]]>, tensor<64x32xf32, #mma>
tile.kernel @online_softmax(%x: f16, %n: i32, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #r>
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #b>
  %zmma = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
  %q = tile.splat %x : tensor<64x32xf16, #b>
  %kv = tile.splat %x : tensor<32x32xf16, #b>
  %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%m = %minf, %acc = %zero) -> (tensor<64xf32, #r>, tensor<64x32xf32, #b>) : i32 {
    %ca = tile.convert_layout %q : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %kv : tensor<32x32xf16, #b> -> tensor<32x32xf16, #bo>
    %s = tile.dot %ca, %cb, %zmma : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
    %sb = tile.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #b>
    %mx = tile.reduce max %sb, axis = 1 : tensor<64x32xf32, #b> -> tensor<64xf32, #rows>
    %mxr = tile.convert_layout %mx : tensor<64xf32, #rows> -> tensor<64xf32, #r>
    %mnew = arith.maximumf %m, %mxr : tensor<64xf32, #r>
    %mc = tile.convert_layout %mnew : tensor<64xf32, #r> -> tensor<64xf32, #rows>
    %me = tile.expand_dims %mc, axis = 1 : tensor<64xf32, #rows> -> tensor<64x1xf32, #b>
    %mb = tile.broadcast %me : tensor<64x1xf32, #b> -> tensor<64x32xf32, #b>
    %d = arith.subf %sb, %mb : tensor<64x32xf32, #b>
    %e = math.exp2 %d : tensor<64x32xf32, #b>
    %alpha = math.exp2 %mnew : tensor<64xf32, #r>
    %ac = tile.convert_layout %alpha : tensor<64xf32, #r> -> tensor<64xf32, #rows>
    %ae = tile.expand_dims %ac, axis = 1 : tensor<64xf32, #rows> -> tensor<64x1xf32, #b>
    %ab = tile.broadcast %ae : tensor<64x1xf32, #b> -> tensor<64x32xf32, #b>
    %scaled = arith.mulf %acc, %ab : tensor<64x32xf32, #b>
    %p = arith.truncf %e : tensor<64x32xf32, #b> to tensor<64x32xf16, #b>
    %pa = tile.convert_layout %p : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %accm = tile.convert_layout %scaled : tensor<64x32xf32, #b> -> tensor<64x32xf32, #mma>
    %o = tile.dot %pa, %cb, %accm : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
    %back = tile.convert_layout %o : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #b>
    scf.yield %mnew, %back : tensor<64xf32, #r>, tensor<64x32xf32, #b>
  }
  %po = tile.splat %out : tensor<64x32x!tile.ptr<f32>, #b>
  tile.store %po, %res#1 : tensor<64x32x!tile.ptr<f32>, #b>
  %pm = tile.splat %out : tensor<64x!tile.ptr<f32>, #r>
  tile.store %pm, %res#0 : tensor<64x!tile.ptr<f32>, #r>
  tile.return
}

// A row maximum summed to a scalar: the first reduction runs on the mma
// registers, the second keeps a plain layout (the lowering reduces blocked
// tiles, not slices of them; tile-fuzz-programs seeds 793 and 1049).
// CHECK-LABEL: tile.kernel @reduce_of_reduce
// CHECK: tile.reduce max %{{.*}}, axis = 1 : tensor<64x32xf32, #mma> -> tensor<64xf32, #slice{{[0-9]*}}>
// CHECK: %[[ROWS:.*]] = tile.convert_layout %{{.*}} : tensor<64xf32, #slice{{[0-9]*}}> -> tensor<64xf32, #blocked{{[0-9]*}}>
// CHECK: tile.reduce sum %[[ROWS]], axis = 0 : tensor<64xf32, #blocked{{[0-9]*}}> -> f32
tile.kernel @reduce_of_reduce(%x: f16, %out: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %zmma = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
  %q = tile.splat %x : tensor<64x32xf16, #b>
  %kv = tile.splat %x : tensor<32x32xf16, #b>
  %ca = tile.convert_layout %q : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
  %cb = tile.convert_layout %kv : tensor<32x32xf16, #b> -> tensor<32x32xf16, #bo>
  %s = tile.dot %ca, %cb, %zmma : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
  %sb = tile.convert_layout %s : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #b>
  %mx = tile.reduce max %sb, axis = 1 : tensor<64x32xf32, #b> -> tensor<64xf32, #rows>
  %mr = tile.convert_layout %mx : tensor<64xf32, #rows> -> tensor<64xf32, #r>
  %total = tile.reduce sum %mr, axis = 0 : tensor<64xf32, #r> -> f32
  %po = tile.splat %out : tensor<64x!tile.ptr<f32>, #r>
  %v = tile.splat %total : tensor<64xf32, #r>
  tile.store %po, %v : tensor<64x!tile.ptr<f32>, #r>
  tile.return
}
