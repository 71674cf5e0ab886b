// RUN: tile-opt %s --split-input-file --convert-tile-to-gpu --canonicalize --cse | FileCheck %s

// Layout conversions and transposes go through shared memory: every thread
// stores its elements at their row-major index, a barrier, every thread
// loads the elements of the new layout, a barrier (the buffer is reused).
// In #a lane l holds row (l / 4) % 8, columns 2 (l % 4) + {0, 1}; in #c it
// holds rows 2 (l % 4) + {0, 1}, column (l / 4) % 8.
#a = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: gpu.func @cvt
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32
// CHECK: %[[L4:.*]] = arith.remui %[[LANE]], %c4_i32
// CHECK: %[[Q:.*]] = arith.divui %[[LANE]], %c4_i32
// CHECK: %[[L8:.*]] = arith.remui %[[Q]], %c8_i32
// CHECK: %[[COL:.*]] = arith.muli %[[L4]], %c2_i32
// Stores at column + 8 row:
// CHECK: %[[ROW8:.*]] = arith.muli %[[L8]], %c8_i32
// CHECK: %[[S0:.*]] = arith.addi %[[COL]], %[[ROW8]]
// CHECK: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[S0]]] : (!llvm.ptr<3>, i32)
// CHECK: llvm.store %{{.*}}, %[[P0]] : f32, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// Loads at 8 (2 (l % 4)) + column:
// CHECK: %[[ROW16:.*]] = arith.muli %[[L4]], %c16_i32
// CHECK: %[[R0:.*]] = arith.addi %[[L8]], %[[ROW16]]
// CHECK: %[[Q0:.*]] = llvm.getelementptr %{{.*}}[%[[R0]]] : (!llvm.ptr<3>, i32)
// CHECK: llvm.load %[[Q0]] : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT: gpu.barrier
module {
  tile.kernel @cvt(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
    %v = tile.splat %x : tensor<8x8x!tile.ptr<f32>, #a>
    %t = tile.load %v : tensor<8x8x!tile.ptr<f32>, #a>
    %u = tile.convert_layout %t : tensor<8x8xf32, #a> -> tensor<8x8xf32, #c>
    %w = tile.splat %out : tensor<8x8x!tile.ptr<f32>, #c>
    tile.store %w, %u : tensor<8x8x!tile.ptr<f32>, #c>
    tile.return
  }
}

// -----

// A transpose into the transposed layout (#c of #a: every per-dimension
// list swapped) moves nothing: each thread holds element (j, i) of the
// result where it held (i, j), so the loaded values are stored as they are.
#a = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#c = #tile.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: gpu.func @tr_free
// CHECK-NOT: !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: %[[V:.*]] = llvm.load %arg0
// CHECK-NEXT: llvm.store %[[V]], %arg1
// CHECK-NEXT: llvm.store %[[V]], %arg1
// CHECK-NEXT: gpu.return
module {
  tile.kernel @tr_free(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
    %v = tile.splat %x : tensor<8x8x!tile.ptr<f32>, #a>
    %t = tile.load %v : tensor<8x8x!tile.ptr<f32>, #a>
    %u = tile.trans %t : tensor<8x8xf32, #a> -> tensor<8x8xf32, #c>
    %w = tile.splat %out : tensor<8x8x!tile.ptr<f32>, #c>
    tile.store %w, %u : tensor<8x8x!tile.ptr<f32>, #c>
    tile.return
  }
}

// -----

// Into any other layout, a transpose stores element (r, c) at the
// row-major index of (c, r), r + 8 c, and each thread reads back the
// elements the result's layout gives it (here #a's: (g, 2t + [0, 2))).
#a = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: gpu.func @tr
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32_i32
// CHECK: %[[L4:.*]] = arith.remui %[[LANE]], %c4_i32
// CHECK: %[[Q:.*]] = arith.divui %[[LANE]], %c4_i32
// CHECK: %[[L8:.*]] = arith.remui %[[Q]], %c8_i32
// CHECK: %[[C0:.*]] = arith.muli %[[L4]], %c2_i32
// CHECK: %[[COL8:.*]] = arith.muli %[[L4]], %c16_i32
// CHECK: %[[S0:.*]] = arith.addi %[[L8]], %[[COL8]]
// CHECK: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[S0]]] : (!llvm.ptr<3>, i32)
// CHECK: llvm.store %{{.*}}, %[[P0]] : f32, !llvm.ptr<3>
// CHECK: %[[C1:.*]] = arith.addi %[[C0]], %c1_i32
// CHECK: %[[C18:.*]] = arith.muli %[[C1]], %c8_i32
// CHECK: %[[S1:.*]] = arith.addi %[[L8]], %[[C18]]
// CHECK: %[[P1:.*]] = llvm.getelementptr %{{.*}}[%[[S1]]]
// CHECK: llvm.store %{{.*}}, %[[P1]] : f32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[L8]], %c8_i32
// CHECK-NEXT: %[[R0:.*]] = arith.addi %[[C0]], %[[ROW]]
// CHECK-NEXT: %[[Q0:.*]] = llvm.getelementptr %{{.*}}[%[[R0]]]
// CHECK-NEXT: llvm.load %[[Q0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[C1]], %[[ROW]]
// CHECK-NEXT: %[[Q1:.*]] = llvm.getelementptr %{{.*}}[%[[R1]]]
// CHECK-NEXT: llvm.load %[[Q1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: gpu.barrier
module {
  tile.kernel @tr(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
    %v = tile.splat %x : tensor<8x8x!tile.ptr<f32>, #a>
    %t = tile.load %v : tensor<8x8x!tile.ptr<f32>, #a>
    %u = tile.trans %t : tensor<8x8xf32, #a> -> tensor<8x8xf32, #a>
    %w = tile.splat %out : tensor<8x8x!tile.ptr<f32>, #a>
    tile.store %w, %u : tensor<8x8x!tile.ptr<f32>, #a>
    tile.return
  }
}

// -----

// Tiles of pointers convert through shared memory too, 8 bytes per element
// (tile-coalesce converts the addresses of a 3-D load whose contiguous
// dimension is not the last).
#p = #tile.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
#q = #tile.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [1, 8, 4], warpsPerCTA = [1, 1, 1], order = [1, 2, 0]}>
// CHECK-LABEL: gpu.func @pointers
// CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr<1>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<1>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
module {
  tile.kernel @pointers(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.num_warps = 1 : i32} {
    %v = tile.splat %x : tensor<2x8x16x!tile.ptr<f32>, #p>
    %u = tile.convert_layout %v : tensor<2x8x16x!tile.ptr<f32>, #p> -> tensor<2x8x16x!tile.ptr<f32>, #q>
    %t = tile.load %u : tensor<2x8x16x!tile.ptr<f32>, #q>
    %w = tile.splat %out : tensor<2x8x16x!tile.ptr<f32>, #q>
    tile.store %w, %t : tensor<2x8x16x!tile.ptr<f32>, #q>
    tile.return
  }
}
