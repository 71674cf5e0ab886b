//===- InitAllDialects.h - dialects tile's tools load -----------*- C++ -*-===//
#ifndef TILE_INITALLDIALECTS_H
#define TILE_INITALLDIALECTS_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/DialectRegistry.h"

namespace tile {
/// Registers the tile dialect and the upstream dialects tile programs use.
inline void registerAllTileDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect>();
}
} // namespace tile

#endif // TILE_INITALLDIALECTS_H
