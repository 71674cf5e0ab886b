//===- Pipeline.h - the tile compilation pipeline ---------------*- C++ -*-===//
//
// One function builds the pass pipeline from tile IR to each output stage;
// `tilec` runs it and `tile-opt` registers it as `tile-pipeline`, so the CLI
// and the lit tests run the same passes.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_PIPELINE_PIPELINE_H
#define TILE_PIPELINE_PIPELINE_H

#include "mlir/Pass/PassManager.h"

namespace tile {

/// Options of the compilation pipeline (grow with the lowering stages).
struct PipelineOptions {};

/// Adds the passes that run on frontend-generated tile IR to `pm`:
/// canonicalization and CSE of the tile program.
void buildTilePipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers `tile-pipeline` with the global pass pipeline registry.
void registerTilePipeline();

} // namespace tile

#endif // TILE_PIPELINE_PIPELINE_H
