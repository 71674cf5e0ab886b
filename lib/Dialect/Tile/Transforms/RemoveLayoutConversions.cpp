//===- RemoveLayoutConversions.cpp - drop needless convert_layout ---------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

/// `value`'s tensor type with `encoding`.
RankedTensorType withEncoding(Value value, Attribute encoding) {
  auto type = cast<RankedTensorType>(value.getType());
  return RankedTensorType::get(type.getShape(), type.getElementType(), encoding);
}

/// True when `value` can be recomputed in another layout at the cost of the
/// ops that made it: splats, ranges, splat constants, and elementwise arith
/// ops over such values (up to `depth` deep).
bool isRematerializable(Value value, unsigned depth = 4) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<SplatOp, MakeRangeOp>(def))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return isa<SplatElementsAttr>(cst.getValue());
  if (depth == 0 || !isa<arith::ArithDialect>(def->getDialect()) ||
      def->getNumResults() != 1 || def->getNumRegions() != 0)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isa<RankedTensorType>(operand.getType()) &&
           isRematerializable(operand, depth - 1);
  });
}

/// Builds `value` again with result layout `encoding`.
Value rematerialize(PatternRewriter &rewriter, Value value, Attribute encoding) {
  Operation *def = value.getDefiningOp();
  Location loc = def->getLoc();
  RankedTensorType type = withEncoding(value, encoding);
  if (auto splat = dyn_cast<SplatOp>(def))
    return SplatOp::create(rewriter, loc, type, splat.getSrc());
  if (auto range = dyn_cast<MakeRangeOp>(def))
    return MakeRangeOp::create(rewriter, loc, type, range.getStartAttr(),
                               range.getEndAttr());
  if (auto cst = dyn_cast<arith::ConstantOp>(def))
    return arith::ConstantOp::create(
        rewriter, loc,
        cast<SplatElementsAttr>(cst.getValue()).reshape(type));
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(rematerialize(rewriter, operand, encoding));
  OperationState state(loc, def->getName());
  state.addOperands(operands);
  state.addTypes(withEncoding(def->getResult(0),
                              encoding));
  state.addAttributes(def->getAttrs());
  return rewriter.create(state)->getResult(0);
}

struct FoldConversionChain : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    if (inner.getSrc().getType() == op.getType())
      rewriter.replaceOp(op, inner.getSrc());
    else
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                   inner.getSrc());
    return success();
  }
};

struct RematerializeProducer : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!isRematerializable(op.getSrc()))
      return failure();
    rewriter.replaceOp(op, rematerialize(rewriter, op.getSrc(),
                                         op.getType().getEncoding()));
    return success();
  }
};

struct RemoveLayoutConversions
    : tile::impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConversionChain, RematerializeProducer>(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
