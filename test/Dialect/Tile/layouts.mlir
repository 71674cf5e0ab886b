// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s

// CHECK: #[[B1:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[B2:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// A warpgroup accumulator's repsPerWarp prints back; the plain layout of
// the same sizes is another attribute.
// CHECK: #[[WG:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
// CHECK: #[[MMA:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[S:.*]] = #tile.slice<{dim = 1, parent = #[[B2]]}>
// CHECK: #[[WGS:.*]] = #tile.slice<{dim = 1, parent = #[[WG]]}>
#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b2}>
#wg = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], repsPerWarp = [2, 1]}>
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: tile.kernel @encoded
tile.kernel @encoded(%p: !tile.ptr<f32>) {
  // CHECK: tile.make_range 0, 512 : tensor<512xi32, #[[B1]]>
  %r = tile.make_range 0, 512 : tensor<512xi32, #b1>
  // CHECK: tile.convert_layout %{{.*}} : tensor<512xi32, #[[B1]]> -> tensor<512xi32, #[[S]]>
  %c = tile.convert_layout %r : tensor<512xi32, #b1> -> tensor<512xi32, #s>
  // CHECK: tile.expand_dims %{{.*}}, axis = 1 : tensor<512xi32, #[[S]]> -> tensor<512x1xi32, #[[B2]]>
  %e = tile.expand_dims %c, axis = 1 : tensor<512xi32, #s> -> tensor<512x1xi32, #b2>
  // CHECK: tile.make_range 0, 64 : tensor<64xi32, #[[WGS]]>
  %w = tile.make_range 0, 64 : tensor<64xi32, #tile.slice<{dim = 1, parent = #wg}>>
  // CHECK: tile.convert_layout %{{.*}} : tensor<64x8xf32, #[[WG]]> -> tensor<64x8xf32, #[[MMA]]>
  %z = arith.constant dense<0.0> : tensor<64x8xf32, #wg>
  %m = tile.convert_layout %z : tensor<64x8xf32, #wg> -> tensor<64x8xf32, #mma>
  tile.return
}

// Shared encodings for wgmma (panels) print back as parsed; the default
// (0) is not printed.
// CHECK-LABEL: tile.kernel @wgmma_stages
tile.kernel @wgmma_stages() {
  // CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x128x64xf16, 3>
  %a = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 64}> : memref<3x128x64xf16, 3>
  // CHECK: tile.shared_alloc <{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], panel = 32}> : memref<3x64x256xf16, 3>
  %b = tile.shared_alloc <{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], panel = 32}> : memref<3x64x256xf16, 3>
  // CHECK: tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}> : memref<3x64x64xf16, 3>
  %c = tile.shared_alloc <{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], panel = 0}> : memref<3x64x64xf16, 3>
  tile.return
}
