// RUN: tile-opt %s --tile-fuse --tile-remove-layout-conversions | FileCheck %s
// RUN: tile-opt %s --tile-fuse=store-through-shared=true --tile-remove-layout-conversions | FileCheck %s --check-prefix=SHARED

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 0, parent = #b}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// The accumulator stays in the mma layout across iterations (its zero
// init is built in it), and ReLU, the bias add, the cast and the store run
// on the mma registers: no conversion of the accumulator is left. The
// bias, loaded as a 1-D tile, is the one conversion (a row, not the tile).
// CHECK-LABEL: tile.kernel @matmul_epilogue
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[ARG:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #mma>)
// CHECK-NOT: tile.convert_layout {{.*}}64x64xf32
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ARG]] : {{.*}} -> tensor<64x64xf32, #mma>
// CHECK: scf.yield %[[D]] : tensor<64x64xf32, #mma>
// CHECK: %[[BIAS:.*]] = tile.load {{.*}} : tensor<64x!tile.ptr<f32>, #{{.*}}>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[ACC]], %{{.*}} : tensor<64x64xf32, #mma>
// CHECK-NOT: tile.convert_layout {{.*}}64x64
// CHECK: tile.convert_layout %[[BIAS]] : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #[[MS:slice[0-9]*]]>
// CHECK-NOT: tile.convert_layout {{.*}}64x64
// CHECK: %[[SUM:.*]] = arith.addf %[[RELU]], %{{.*}} : tensor<64x64xf32, #mma>
// CHECK: %[[H:.*]] = arith.truncf %[[SUM]] : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %{{.*}}, %[[H]], mask %{{.*}} : tensor<64x64x!tile.ptr<f16>, #mma>
// With store-through-shared (sm_90a), the f16 tile (8 KiB) keeps its
// conversion into the store's layout, which writes 8 contiguous halves (16
// bytes) per thread where the accumulator's threads hold 2: the epilogue
// still runs on the mma registers, the conversion goes through shared
// memory. The f32 stores of the kernels below are fused as without it.
// SHARED-LABEL: tile.kernel @matmul_epilogue
// SHARED: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// SHARED-NEXT: %[[C:.*]] = tile.convert_layout %[[H]] : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #[[B:blocked[0-9]*]]>
// SHARED: tile.store %{{.*}}, %[[C]], mask %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[B]]>
// SHARED-LABEL: tile.kernel @fma_layout
// SHARED-NOT: tile.convert_layout {{.*}}128x128xf32
// SHARED: tile.store
// SHARED-LABEL: tile.kernel @transposed_dot
// SHARED-NOT: tile.convert_layout {{.*}}128x64xf32
// SHARED: tile.store
tile.kernel @matmul_epilogue(%x: f16, %pb: !tile.ptr<f32>, %pc: !tile.ptr<f16>, %n: i32, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %av = tile.splat %x : tensor<64x32xf16, #b>
  %bv = tile.splat %x : tensor<32x64xf16, #b>
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%it = %zero) -> (tensor<64x64xf32, #b>) : i32 {
    %ca = tile.convert_layout %av : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
    %cc = tile.convert_layout %it : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %d = tile.dot %ca, %cb, %cc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %back = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    scf.yield %back : tensor<64x64xf32, #b>
  }
  %r = tile.make_range 0, 64 : tensor<64xi32, #s>
  %bp = tile.splat %pb : tensor<64x!tile.ptr<f32>, #s>
  %bptr = tile.addptr %bp, %r : tensor<64x!tile.ptr<f32>, #s>, tensor<64xi32, #s>
  %bias = tile.load %bptr : tensor<64x!tile.ptr<f32>, #s>
  %be = tile.expand_dims %bias, axis = 0 : tensor<64xf32, #s> -> tensor<1x64xf32, #b>
  %bb = tile.broadcast %be : tensor<1x64xf32, #b> -> tensor<64x64xf32, #b>
  %relu = arith.maximumf %acc, %zero : tensor<64x64xf32, #b>
  %sum = arith.addf %relu, %bb : tensor<64x64xf32, #b>
  %h = arith.truncf %sum : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
  %re = tile.expand_dims %r, axis = 0 : tensor<64xi32, #s> -> tensor<1x64xi32, #b>
  %rb = tile.broadcast %re : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %ns = tile.splat %n : tensor<64x64xi32, #b>
  %mask = arith.cmpi slt, %rb, %ns : tensor<64x64xi32, #b>
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f16>, #b>
  %cptr = tile.addptr %cp, %rb : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
  tile.store %cptr, %h, mask %mask : tensor<64x64x!tile.ptr<f16>, #b>
  tile.return
}

#bf = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#fmal = #tile.blocked<{sizePerThread = [32, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// An FMA dot's layout from tile-accelerate-dot (one converted back) is an
// accumulator layout too: carried by the loop, and the ReLU and the store
// run in it.
// CHECK-LABEL: tile.kernel @fma_layout
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #[[FMA:blocked[0-9]*]]>)
// CHECK: tile.dot {{.*}} -> tensor<128x128xf32, #[[FMA]]>
// CHECK-NOT: tile.convert_layout {{.*}}128x128xf32
// CHECK: arith.maximumf {{.*}} : tensor<128x128xf32, #[[FMA]]>
// CHECK: tile.store {{.*}} : tensor<128x128x!tile.ptr<f32>, #[[FMA]]>
tile.kernel @fma_layout(%x: f32, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #bf>
  %av = tile.splat %x : tensor<128x32xf32, #bf>
  %bv = tile.splat %x : tensor<32x128xf32, #bf>
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%it = %zero) -> (tensor<128x128xf32, #bf>) : i32 {
    %cc = tile.convert_layout %it : tensor<128x128xf32, #bf> -> tensor<128x128xf32, #fmal>
    %d = tile.dot %av, %bv, %cc : tensor<128x32xf32, #bf> * tensor<32x128xf32, #bf> -> tensor<128x128xf32, #fmal>
    %back = tile.convert_layout %d : tensor<128x128xf32, #fmal> -> tensor<128x128xf32, #bf>
    scf.yield %back : tensor<128x128xf32, #bf>
  }
  %relu = arith.maximumf %acc, %zero : tensor<128x128xf32, #bf>
  %p = tile.splat %pc : tensor<128x128x!tile.ptr<f32>, #bf>
  tile.store %p, %relu : tensor<128x128x!tile.ptr<f32>, #bf>
  tile.return
}

#bown = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#so = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>

// A dot left in its operands' layout (no layout of tile-accelerate-dot's)
// is no accumulator layout: the store keeps its own (coalesced) layout and
// the conversion to it.
// CHECK-LABEL: tile.kernel @dot_in_operand_layout
// CHECK: %[[D:.*]] = tile.dot {{.*}} -> tensor<128x128xf32, #[[BO:blocked[0-9]*]]>
// CHECK: %[[S:.*]] = tile.convert_layout %[[D]] : tensor<128x128xf32, #[[BO]]> -> tensor<128x128xf32, #[[SO:blocked[0-9]*]]>
// CHECK: tile.store %{{.*}}, %[[S]] : tensor<128x128x!tile.ptr<f32>, #[[SO]]>
tile.kernel @dot_in_operand_layout(%x: f32, %pc: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #bown>
  %av = tile.splat %x : tensor<128x32xf32, #bown>
  %bv = tile.splat %x : tensor<32x128xf32, #bown>
  %d = tile.dot %av, %bv, %zero : tensor<128x32xf32, #bown> * tensor<32x128xf32, #bown> -> tensor<128x128xf32, #bown>
  %s = tile.convert_layout %d : tensor<128x128xf32, #bown> -> tensor<128x128xf32, #so>
  %p = tile.splat %pc : tensor<128x128x!tile.ptr<f32>, #so>
  tile.store %p, %s : tensor<128x128x!tile.ptr<f32>, #so>
  tile.return
}

#tb = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#tbt = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#wg = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#wa = #tile.dot_operand<{opIdx = 0, parent = #wg}>
#wb = #tile.dot_operand<{opIdx = 1, parent = #wg}>

// A dot computed transposed (tile-accelerate-dot's Cᵀ = Bᵀ Aᵀ, between
// `trans` ops): the loop carries C in the transposed mma layout, each
// iteration's `trans` of it into the mma layout and back moves nothing (the
// layouts are each other's transpose), and the ReLU and the store run in
// it: no conversion of the accumulator is left.
// CHECK-LABEL: tile.kernel @transposed_dot
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[ARG:.*]] = %{{.*}}) -> (tensor<128x64xf32, #[[WGT:blocked[0-9]*]]>)
// CHECK-NEXT: %[[CT:.*]] = tile.trans %[[ARG]] : tensor<128x64xf32, #[[WGT]]> -> tensor<64x128xf32, #[[WG:mma[0-9]*]]>
// CHECK-NOT: tile.convert_layout {{.*}}64x128xf32
// CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[CT]] {{.*}} -> tensor<64x128xf32, #[[WG]]>
// CHECK-NEXT: %[[C:.*]] = tile.trans %[[D]] : tensor<64x128xf32, #[[WG]]> -> tensor<128x64xf32, #[[WGT]]>
// CHECK-NEXT: scf.yield %[[C]]
// CHECK: %[[RELU:.*]] = arith.maximumf %[[ACC]], %{{.*}} : tensor<128x64xf32, #[[WGT]]>
// CHECK-NOT: tile.convert_layout {{.*}}128x64xf32
// CHECK: tile.store %{{.*}}, %[[RELU]] : tensor<128x64x!tile.ptr<f32>, #[[WGT]]>
tile.kernel @transposed_dot(%x: f32, %pc: !tile.ptr<f32>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #tb>
  %av = tile.splat %x : tensor<32x128xf32, #tbt>
  %bv = tile.splat %x : tensor<64x32xf32, #tbt>
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%it = %zero) -> (tensor<128x64xf32, #tb>) : i32 {
    %ct = tile.trans %it : tensor<128x64xf32, #tb> -> tensor<64x128xf32, #tbt>
    %ca = tile.convert_layout %bv : tensor<64x32xf32, #tbt> -> tensor<64x32xf32, #wa>
    %cb = tile.convert_layout %av : tensor<32x128xf32, #tbt> -> tensor<32x128xf32, #wb>
    %cc = tile.convert_layout %ct : tensor<64x128xf32, #tbt> -> tensor<64x128xf32, #wg>
    %d = tile.dot %ca, %cb, %cc precision = tf32 : tensor<64x32xf32, #wa> * tensor<32x128xf32, #wb> -> tensor<64x128xf32, #wg>
    %back = tile.convert_layout %d : tensor<64x128xf32, #wg> -> tensor<64x128xf32, #tbt>
    %c = tile.trans %back : tensor<64x128xf32, #tbt> -> tensor<128x64xf32, #tb>
    scf.yield %c : tensor<128x64xf32, #tb>
  }
  %relu = arith.maximumf %acc, %zero : tensor<128x64xf32, #tb>
  %cp = tile.splat %pc : tensor<128x64x!tile.ptr<f32>, #tb>
  tile.store %cp, %relu : tensor<128x64x!tile.ptr<f32>, #tb>
  tile.return
}

// A store inside a loop (each iteration stores its dot's f16 result) is
// fused into the mma layout even with store-through-shared: its scratch
// would sit above every buffer live in the loop.
// CHECK-LABEL: tile.kernel @store_in_loop
// SHARED-LABEL: tile.kernel @store_in_loop
// SHARED: scf.for
// SHARED: %[[H:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
// SHARED-NOT: tile.convert_layout %[[H]]
// SHARED: tile.store %{{.*}}, %[[H]] : tensor<64x64x!tile.ptr<f16>, #mma>
tile.kernel @store_in_loop(%x: f16, %pc: !tile.ptr<f16>, %k: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %av = tile.splat %x : tensor<64x32xf16, #b>
  %bv = tile.splat %x : tensor<32x64xf16, #b>
  %cp = tile.splat %pc : tensor<64x64x!tile.ptr<f16>, #b>
  scf.for %i = %c0 to %k step %c1 : i32 {
    %ca = tile.convert_layout %av : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    %cb = tile.convert_layout %bv : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
    %cc = tile.convert_layout %zero : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %d = tile.dot %ca, %cb, %cc : tensor<64x32xf16, #a> * tensor<32x64xf16, #bo> -> tensor<64x64xf32, #mma>
    %back = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %h = arith.truncf %back : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
    tile.store %cp, %h : tensor<64x64x!tile.ptr<f16>, #b>
  }
  tile.return
}
