//===- Rematerialize.h - recompute cheap tiles in another layout -*- C++
//-*-===//
//
// Shared by tile-remove-layout-conversions, tile-fuse and
// tile-accelerate-dot: which ops compute element by element, and a tile made only
// from splats, ranges and splat constants, through elementwise ops,
// `addptr`, `expand_dims`, `broadcast` and layout conversions, is cheaper
// to compute again in the layout a user wants than to move through shared
// memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_REMATERIALIZE_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_REMATERIALIZE_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"

namespace tile {

/// True for `arith` and `math` ops on tiles: each element of the result
/// comes from the same element of the operands, so they may run in any
/// layout.
bool isElementwise(mlir::Operation *op);

/// True when `value` can be built again with layout `encoding` (a blocked or
/// slice layout) from splats, ranges and splat constants through elementwise
/// ops, `addptr`, `expand_dims`, `broadcast` and layout conversions, at most
/// `depth` ops deep.
bool isRematerializable(mlir::Value value, mlir::Attribute encoding,
                        unsigned depth = 8);

/// Builds `value` again with result layout `encoding` at the builder's
/// insertion point; `isRematerializable(value, encoding)` must hold.
mlir::Value rematerialize(mlir::OpBuilder &builder, mlir::Value value,
                          mlir::Attribute encoding);

} // namespace tile

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_REMATERIALIZE_H
