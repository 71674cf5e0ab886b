// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu | FileCheck %s

// A dot whose operands are stages stored for wgmma: A (64 x 64, K-major,
// rows of 128 bytes, in order: the accumulator is in the instructions' row
// order) and B
// (64 x 128 row-major: MN-major, two panels of 64 columns). Descriptor
// fields in 16-byte units: A 0x4000004000010000 (128-byte swizzle, 8 rows
// of 128 bytes, leading offset unused), B 0x4000004002000000 (the panel
// stride, 64 rows of 128 bytes, as the leading offset). Each k step moves
// A 32 bytes along its rows (2 units) and B 16 rows (128 units). The
// kernel issues no cp.async, so its async_wait is only a block barrier
// (with copies it also fences them for the async proxy: Target/wgmma.test).
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK: llvm.mlir.global external @__tile_shared_wgmma() {addr_space = 3 : i32, alignment = 1024 : i64
// CHECK-LABEL: gpu.func @wgmma
// CHECK-NOT: nvvm.cp.async.wait.group
// CHECK-NOT: nvvm.fence.proxy
// CHECK: gpu.barrier
// CHECK: %[[AF:.*]] = arith.constant 4611686293305360384 : i64
// CHECK-NEXT: %[[A:.*]] = arith.ori %{{.*}}, %[[AF]] : i64
// The warpgroup's rows (warpgroup 0 of 1: offset 0 times 64 rows).
// CHECK: %[[A0:.*]] = arith.addi %[[A]], %{{.*}} : i64
// CHECK: %[[BF:.*]] = arith.constant 4611686293338849280 : i64
// CHECK-NEXT: %[[B0:.*]] = arith.ori %{{.*}}, %[[BF]] : i64
// The accumulator is zeros: the first k step computes A B alone (scale-d
// zero) from an undefined accumulator (no register set to zero first), the
// others accumulate.
// CHECK: %[[UNDEF:.*]] = llvm.mlir.undef : !llvm.struct<(f32,
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A0]], %[[B0]], %[[UNDEF]], <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A0]], %[[TWO]] : i64
// CHECK-NEXT: %[[ROWS16:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[B0]], %[[ROWS16]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A1]], %[[B1]], %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-COUNT-2: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// The dot waits for its own group, the 64 accumulator registers of the
// thread tied through the wait (the lowering's one inline PTX), and the
// store reads what the wait returns.
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: %[[W:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "{{(=f,)+}}0,1,2,{{([0-9]+,)+}}63,~{memory}"
// CHECK: %[[W0:.*]] = llvm.extractvalue %[[W]][0]
// CHECK: llvm.store %[[W0]]
tile.kernel @wgmma(%s: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  tile.async_wait pending = 0
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %d : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// An accumulator that is not a constant zero is read by every MMA: its
// registers go in (llvm.insertvalue) and the first k step accumulates too.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @accumulated
// CHECK: llvm.insertvalue
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK-NOT: D[<f32>, <zero>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
tile.kernel @accumulated(%s: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %f = arith.sitofp %s : i32 to f32
  %acc = tile.splat %f : tensor<64x128xf32, #mma>
  tile.async_wait pending = 0
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %d : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A dot whose only user is a dot_wait leaves its group in flight: no wait
// in the dot; the dot_wait ties the accumulators through wait_group 1.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @in_flight
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wait
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;", "{{(=f,)+}}0,{{([0-9]+,)+}}63,~{memory}"
// CHECK-NOT: wait_group
// CHECK: gpu.return
tile.kernel @in_flight(%s: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %w = tile.dot_wait %d pending = 1 : tensor<64x128xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %w : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// tile-promote-shared's TMA loop with MMAs in flight: the phase wait has
// no block barrier before it (`unsynchronized`), and the dot_wait that
// leaves one group in flight is followed by one (`synchronize`), after
// which every warp's earlier MMAs have ended.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @in_flight_synchronized
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: gpu.barrier
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;"
// CHECK-NEXT: llvm.extractvalue
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
tile.kernel @in_flight_synchronized(%s: i32, %ph: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %bar = tile.barrier_alloc arrivals = 2 : memref<2xi64, 3>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  tile.tma_wait %bar[%s] phase %ph {unsynchronized} : memref<2xi64, 3>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %w = tile.dot_wait %d pending = 1 {synchronize} : tensor<64x128xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %w : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A stored K x M (MN-major: stored rows run along M, one 128-byte panel)
// is a descriptor operand too, read with imm-trans-a 1 (`col`): its
// descriptor 0x4000004002000000, B's in the first test (the 128-byte
// swizzle, the 8-row stride, 64 rows of 128 bytes between panels as the
// leading offset), 16
// stored rows (128 units) further each k step. No wait and no ldmatrix
// before the MMAs.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @mn_major_a
// CHECK-NOT: nvvm.ldmatrix
// CHECK-NOT: wgmma.wait_group
// CHECK: %[[AF:.*]] = arith.constant 4611686293338849280 : i64
// CHECK-NEXT: %[[A:.*]] = arith.ori %{{.*}}, %[[AF]] : i64
// CHECK: %[[A0:.*]] = arith.addi %[[A]], %{{.*}} : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A0]], %{{.*}}, %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[ROWS16:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A0]], %[[ROWS16]] : i64
// CHECK: nvvm.wgmma.mma_async %[[A1]]
// CHECK-COUNT-2: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.ldmatrix
tile.kernel @mn_major_a(%s: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %abuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], panel = 64}> : memref<2x64x64xf16, 3>
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.shared_load %abuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %d : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// An A that is no stage (attention's P: the previous dot's accumulator cast
// to f16 and re-packed as A fragments) reaches the MMAs in the registers it
// is computed in: no wait and no ldmatrix before them, each m64n64k16 (one
// per k step of 16; k 64 here) takes four of the packed registers. B is a K x N
// view of a stage stored N x K (attention's trans(K)): K-major, imm-trans-b 0.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @computed_a
// CHECK-NOT: wgmma.wait_group
// CHECK-NOT: nvvm.ldmatrix
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: nvvm.ldmatrix
// The accumulator is zeros: the first MMA's scale-d operand ($69) is 0 (A B
// alone, its accumulator inputs undefined), the others' 1.
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $69, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{(\$[0-9]+, )+}}$31}, {$64, $65, $66, $67}, $68, p, 1, 1, 0; }"{{.*}}, %[[ZERO]] :
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16{{.*}}, %[[ONE]] :
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: "wgmma.wait_group.sync.aligned 0;"
tile.kernel @computed_a(%s: i32, %p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x64xf16, 3>
  %s0 = tile.splat %s : tensor<64x64xi32, #mma>
  %f = arith.sitofp %s0 : tensor<64x64xi32, #mma> to tensor<64x64xf32, #mma>
  %h = arith.truncf %f : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
  %a = tile.convert_layout %h : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %b = tile.shared_load %bbuf[%s] transposed : memref<2x64x64xf16, 3> -> tensor<64x64xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #bo> -> tensor<64x64xf32, #mma>
  %ptrs = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %d : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A dot_wait that also takes the A the MMAs read from registers (a computed
// P, tile-defer-dot-waits): the accumulators as f registers, A's 16
// registers (f16 pairs) as r registers, all tied through the wait.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma}>
// CHECK-LABEL: gpu.func @register_a_in_flight
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wait_group
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "{{(=f,)+(=r,)+}}0,1,{{([0-9]+,)+}}79,~{memory}"
// CHECK-NOT: wait_group
// CHECK: gpu.return
tile.kernel @register_a_in_flight(%s: i32, %p: !tile.ptr<f32>, %x: f16) attributes {tile.num_warps = 4 : i32} {
  %bbuf = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<2x64x128xf16, 3>
  %acc = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %h = tile.splat %x : tensor<64x64xf16, #mma>
  %a = tile.convert_layout %h : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
  %b = tile.shared_load %bbuf[%s] : memref<2x64x128xf16, 3> -> tensor<64x128xf16, #bo>
  %d = tile.dot %a, %b, %acc : tensor<64x64xf16, #a> * tensor<64x128xf16, #bo> -> tensor<64x128xf32, #mma>
  %w:2 = tile.dot_wait %d, %a pending = 0 : tensor<64x128xf32, #mma>, tensor<64x64xf16, #a>
  %ptrs = tile.splat %p : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.store %ptrs, %w#0 : tensor<64x128x!tile.ptr<f32>, #mma>
  tile.return
}
