//===- DefaultLayout.h - the blocked layout tile-coalesce gives a tile ----===//
//
// Shared by tile-coalesce, which lays out every tile, and tile-accelerate-dot,
// which gives an FMA dot computed transposed the layout that tile-coalesce
// gives the dots of kernels whose operands are stored as that dot reads them.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_DEFAULTLAYOUT_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_DEFAULTLAYOUT_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

namespace tile {

/// Spreads 32 lanes and `numWarps` warps over `shape`, fastest dimension
/// (order[0]) first, given each thread's `sizePerThread`. With
/// `fastestLanes` below 32, at most that many lanes and one warp go to the
/// fastest dimension, the rest to the others.
BlockedEncodingAttr defaultBlocked(mlir::MLIRContext *context,
                                   llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<unsigned> sizePerThread,
                                   llvm::ArrayRef<unsigned> order,
                                   unsigned numWarps,
                                   unsigned fastestLanes = 32);

} // namespace tile

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_DEFAULTLAYOUT_H
