//===- InitAllPasses.h - every tile pass and pipeline -----------*- C++ -*-===//
#ifndef TILE_INITALLPASSES_H
#define TILE_INITALLPASSES_H

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Pipeline/Pipeline.h"

namespace tile {
/// Registers every tile pass and pipeline with the global registries.
inline void registerAllTilePasses() {
  registerTilePasses();
  registerTileConversionPasses();
  registerTilePipeline();
}
} // namespace tile

#endif // TILE_INITALLPASSES_H
