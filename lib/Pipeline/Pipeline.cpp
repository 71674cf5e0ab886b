//===- Pipeline.cpp - the tile compilation pipeline -----------------------===//
#include "tile/Pipeline/Pipeline.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tile::buildTilePipeline(OpPassManager &pm, const PipelineOptions &) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tile::registerTilePipeline() {
  PassPipelineRegistration<>(
      "tile-pipeline", "The tile compilation pipeline, as tilec runs it",
      [](OpPassManager &pm) { buildTilePipeline(pm, PipelineOptions{}); });
}
