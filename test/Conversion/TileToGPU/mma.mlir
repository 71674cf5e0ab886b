// RUN: tile-opt %s --convert-tile-to-gpu --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// f16: operands stored to shared memory as 16-byte vectors, read back with
// ldmatrix (B transposed); a 64x32 * 32x32 dot on 2x2 warps is 2 m16 blocks
// x 2 n8 blocks x 2 k16 steps = 8 mma.sync per thread.
// CHECK-LABEL: gpu.func @f16
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>{{.*}} -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>{{.*}} -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: gpu.barrier
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
tile.kernel @f16(%x: f16, %y: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %av = tile.splat %x : tensor<64x32xf16, #b>
  %bv = tile.splat %x : tensor<32x32xf16, #b>
  %c = tile.splat %y : tensor<64x32xf32, #mma>
  %ca = tile.convert_layout %av : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
  %cb = tile.convert_layout %bv : tensor<32x32xf16, #b> -> tensor<32x32xf16, #bo>
  %d = tile.dot %ca, %cb, %c : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>, #mma>
  tile.store %ps, %d : tensor<64x32x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// tf32: A's fragments come from one ldmatrix.x4 per k8 step (16 bytes are
// 4 elements, each lane gets the 32-bit element the mma wants); B's one load
// per element (ldmatrix .trans would split 32-bit elements), as i32. The
// f32 bits go to the mma unconverted (the tensor core truncates them to
// tf32): m16n8k8 on i32 registers: 1 m16 block x 1 n8 block x 2 k8 steps.
// CHECK-LABEL: gpu.func @tf32
// CHECK-COUNT-2: nvvm.ldmatrix {{.*}}num = 4 : i32{{.*}} -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load
// CHECK-NOT: f2tf32
// CHECK-COUNT-2: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
tile.kernel @tf32(%x: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %av = tile.splat %x : tensor<32x16xf32, #b>
  %bv = tile.splat %x : tensor<16x16xf32, #b>
  %c = tile.splat %x : tensor<32x16xf32, #mma>
  %ca = tile.convert_layout %av : tensor<32x16xf32, #b> -> tensor<32x16xf32, #a>
  %cb = tile.convert_layout %bv : tensor<16x16xf32, #b> -> tensor<16x16xf32, #bo>
  %d = tile.dot %ca, %cb, %c precision = tf32 : tensor<32x16xf32, #a> * tensor<16x16xf32, #bo> -> tensor<32x16xf32, #mma>
  %ps = tile.splat %p : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.store %ps, %d : tensor<32x16x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>

// A dot's f16 result as the next dot's A, warps all along M (attention's P
// in P·V): the accumulator's element pairs are re-packed as A fragments in
// registers, with no shared memory and no barrier between the two dots.
// 64x32 * 32x32 on 4x1 warps: 1 m16 block x 4 n8 blocks x 2 k16 steps = 8
// mma.sync each; the second dot's A is 2 k steps x 4 registers.
// CHECK-LABEL: gpu.func @accumulator_as_a
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK-NOT: llvm.store
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: vector.from_elements {{.*}} : vector<2xf16>
// CHECK-NOT: llvm.store
// CHECK-NOT: gpu.barrier
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK-NOT: nvvm.mma.sync
tile.kernel @accumulator_as_a(%x: f16, %y: f32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %c = tile.splat %y : tensor<64x32xf32, #mma>
  %av = tile.splat %x : tensor<64x32xf16, #b>
  %bv = tile.splat %x : tensor<32x32xf16, #b>
  %ca = tile.convert_layout %av : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
  %cb = tile.convert_layout %bv : tensor<32x32xf16, #b> -> tensor<32x32xf16, #bo>
  %s = tile.dot %ca, %cb, %c : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
  %h = arith.truncf %s : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
  %pa = tile.convert_layout %h : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #a>
  %o = tile.dot %pa, %cb, %c : tensor<64x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<64x32xf32, #mma>
  %ps = tile.splat %p : tensor<64x32x!tile.ptr<f32>, #mma>
  tile.store %ps, %o : tensor<64x32x!tile.ptr<f32>, #mma>
  tile.return
}
