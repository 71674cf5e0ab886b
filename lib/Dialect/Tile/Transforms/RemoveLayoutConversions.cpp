//===- RemoveLayoutConversions.cpp - drop needless convert_layout ---------===//
#include "Rematerialize.h"
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
    Attribute encoding = op.getType().getEncoding();
    if (!isRematerializable(op.getSrc(), encoding))
      return failure();
    rewriter.replaceOp(op, rematerialize(rewriter, op.getSrc(), encoding));
    return success();
  }
};

/// Converts the operand of a `broadcast` or `expand_dims` instead of its
/// result: the operand has fewer elements to move.
struct ConvertBeforeShapeOp : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto target =
        dyn_cast_or_null<BlockedEncodingAttr>(op.getType().getEncoding());
    Operation *def = op.getSrc().getDefiningOp();
    if (!target || !isa_and_nonnull<BroadcastOp, ExpandDimsOp>(def))
      return failure();
    Value src = def->getOperand(0);
    auto srcType = cast<RankedTensorType>(src.getType());
    Attribute srcEncoding = target;
    if (auto expand = dyn_cast<ExpandDimsOp>(def))
      srcEncoding =
          SliceEncodingAttr::get(getContext(), expand.getAxis(), target);
    Value converted = ConvertLayoutOp::create(
        rewriter, op.getLoc(), srcType.cloneWithEncoding(srcEncoding), src);
    OperationState state(def->getLoc(), def->getName());
    state.addOperands(converted);
    state.addTypes(op.getType());
    state.addAttributes(def->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct RemoveLayoutConversions
    : tile::impl::TileRemoveLayoutConversionsBase<RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns
        .add<FoldConversionChain, RematerializeProducer, ConvertBeforeShapeOp>(
            &getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
