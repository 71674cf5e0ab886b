//===- TestPrintAxisInfo.cpp - axis analysis as remarks (testing) ---------===//
#include "TestPasses.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace tile;

namespace {
struct TestPrintAxisInfo
    : PassWrapper<TestPrintAxisInfo, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfo)

  StringRef getArgument() const final { return "tile-test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Report the axis analysis of every value as remarks (testing)";
  }
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

void tile::test::registerTestPasses() { PassRegistration<TestPrintAxisInfo>(); }
