//===- TestPrintAxisInfo.cpp - axis analysis as remarks -------------------===//
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

namespace tile {
#define GEN_PASS_DEF_TILETESTPRINTAXISINFO
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {
struct TestPrintAxisInfo
    : tile::impl::TileTestPrintAxisInfoBase<TestPrintAxisInfo> {
  void runOnOperation() override {
    ModuleAxisInfo info(getOperation());
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        Type elem = getElementTypeOrSelf(result.getType());
        if (!isa<IntegerType, PointerType>(elem))
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        info.get(result).print(os);
        op->emitRemark() << text;
      }
    });
  }
};
} // namespace
