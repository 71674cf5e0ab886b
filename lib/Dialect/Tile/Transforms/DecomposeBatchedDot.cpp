//===- DecomposeBatchedDot.cpp - a batched dot as one dot per batch -------===//
//
// The layouts and lowerings compute 2-D dots; a 3-D (batched) one,
// [B, M, K] x [B, K, N] + [B, M, N], becomes B of them. An operand computed
// from the batch index by ops that act elementwise (the usual loads through
// `base + g * stride + ...` pointers) is computed again for each batch with
// the index fixed: batch i's tile is loaded directly, as a 2-D dot's
// operand is (and tile-promote-shared can stage it). Any other operand is
// taken out of the 3-D tile by selecting batch i and summing over the batch
// dimension on the values' bits (as integers: the sum of one value and
// zeros is that value exactly, -0.0 and NaN payloads included), which costs
// B elementwise passes over it. The results are put back together by
// selecting each where its batch is.
//
//===----------------------------------------------------------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace tile {
#define GEN_PASS_DEF_TILEDECOMPOSEBATCHEDDOT
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

/// Splits batched dots into one 2-D dot per batch index.
class BatchedDotSplitter {
public:
  BatchedDotSplitter(DotOp dot) : dot(dot), b(dot) {}

  void run() {
    Location loc = dot.getLoc();
    auto type = dot.getType();
    int64_t batches = type.getDimSize(0);
    Value result;
    for (int64_t i = 0; i < batches; ++i) {
      Value a = slice(dot.getA(), i), bb = slice(dot.getB(), i),
            acc = slice(dot.getAcc(), i);
      Value product = DotOp::create(b, loc, acc.getType(), a, bb, acc,
                                    dot.getPrecisionAttr());
      // Back to [B, M, N]: this batch's rows where the batch index is i.
      auto unit = RankedTensorType::get(
          {1, type.getDimSize(1), type.getDimSize(2)}, type.getElementType());
      Value spread = BroadcastOp::create(
          b, loc, type, ExpandDimsOp::create(b, loc, unit, product, 0));
      result = i == 0
                   ? spread
                   : Value(arith::SelectOp::create(
                         b, loc, isBatch(type.getShape(), i), spread, result));
    }
    dot.replaceAllUsesWith(result);
    dot.erase();
  }

private:
  /// The i1 tile of `shape` (rank 3) that is true where the batch index
  /// (dimension 0) is `i`.
  Value isBatch(ArrayRef<int64_t> shape, int64_t i) {
    Location loc = dot.getLoc();
    Type i32 = b.getI32Type();
    Value &index = batchIndex[shape.vec()];
    if (!index) {
      Value range = MakeRangeOp::create(
          b, loc, RankedTensorType::get({shape[0]}, i32),
          b.getI32IntegerAttr(0), b.getI32IntegerAttr(shape[0]));
      Value column = ExpandDimsOp::create(
          b, loc, RankedTensorType::get({shape[0], 1}, i32), range, 1);
      Value cube = ExpandDimsOp::create(
          b, loc, RankedTensorType::get({shape[0], 1, 1}, i32), column, 2);
      index =
          BroadcastOp::create(b, loc, RankedTensorType::get(shape, i32), cube);
    }
    Value constant = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get(shape, i32),
                               b.getI32IntegerAttr(i)));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                                 constant);
  }

  /// Batch `i` of the 3-D tile `x`: a [M, K] tile, recomputed where it can
  /// be, else extracted.
  Value slice(Value x, int64_t i) {
    if (FailureOr<Value> recomputed = recompute(x, i); succeeded(recomputed))
      return *recomputed;
    return extract(x, i);
  }

  /// `v` (a tile whose dimension 0 is the batch's, or of size 1: broadcast)
  /// at batch index `i`, without dimension 0 (a scalar for a 1-D `v`),
  /// computed again by the ops that computed `v`, each placed right after
  /// the op it repeats (so that loads keep their order with stores).
  /// Fails for any op but constants, splat, make_range, expand_dims,
  /// broadcast and elementwise ops (arith, addptr, load).
  FailureOr<Value> recompute(Value v, int64_t i) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getEncoding())
      return failure();
    if (type.getDimSize(0) == 1)
      i = 0;
    auto key = std::make_pair(v, i);
    if (auto it = recomputed.find(key); it != recomputed.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumResults() != 1)
      return failure();
    Type slicedType =
        type.getRank() == 1
            ? type.getElementType()
            : Type(RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType()));
    OpBuilder after(def->getContext());
    after.setInsertionPointAfter(def);
    Location loc = def->getLoc();
    Value result;
    SplatElementsAttr splat;
    if (matchPattern(v, m_Constant(&splat))) {
      auto value = splat.getSplatValue<TypedAttr>();
      result =
          isa<RankedTensorType>(slicedType)
              ? arith::ConstantOp::create(
                    after, loc,
                    SplatElementsAttr::get(cast<ShapedType>(slicedType), value))
              : arith::ConstantOp::create(after, loc, value);
    } else if (auto splatOp = dyn_cast<SplatOp>(def)) {
      result =
          isa<RankedTensorType>(slicedType)
              ? Value(SplatOp::create(after, loc, slicedType, splatOp.getSrc()))
              : splatOp.getSrc();
    } else if (auto range = dyn_cast<MakeRangeOp>(def)) {
      result = arith::ConstantOp::create(
          after, loc,
          after.getI32IntegerAttr(int32_t(range.getStart()) + int32_t(i)));
    } else if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
      if (expand.getAxis() == 0)
        return remember(key, expand.getSrc());
      FailureOr<Value> src = recompute(expand.getSrc(), i);
      if (failed(src))
        return failure();
      result = isa<RankedTensorType>(src->getType())
                   ? Value(ExpandDimsOp::create(after, loc, slicedType, *src,
                                                expand.getAxis() - 1))
                   : Value(SplatOp::create(after, loc, slicedType, *src));
    } else if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
      FailureOr<Value> src = recompute(broadcast.getSrc(), i);
      if (failed(src))
        return failure();
      result = src->getType() == slicedType ? *src
               : isa<RankedTensorType>(src->getType())
                   ? Value(BroadcastOp::create(after, loc, slicedType, *src))
                   : Value(SplatOp::create(after, loc, slicedType, *src));
    } else if (isa<AddPtrOp, LoadOp>(def) ||
               (def->getDialect() ==
                    def->getContext()->getLoadedDialect("arith") &&
                def->hasTrait<OpTrait::Elementwise>())) {
      IRMapping mapping;
      for (Value operand : def->getOperands()) {
        FailureOr<Value> sliced = recompute(operand, i);
        if (failed(sliced))
          return failure();
        mapping.map(operand, *sliced);
      }
      Operation *clone = after.clone(*def, mapping);
      clone->getResult(0).setType(slicedType);
      result = clone->getResult(0);
    } else {
      return failure();
    }
    return remember(key, result);
  }

  Value remember(std::pair<Value, int64_t> key, Value value) {
    recomputed[key] = value;
    return value;
  }

  /// Batch `i` of the 3-D tile `x`, taken out of it: a [M, K] tile.
  Value extract(Value x, int64_t i) {
    Location loc = dot.getLoc();
    auto type = cast<RankedTensorType>(x.getType());
    Type elem = type.getElementType();
    auto sliceType = RankedTensorType::get(type.getShape().drop_front(), elem);
    Type bits = b.getIntegerType(elem.getIntOrFloatBitWidth());
    auto bitsType = RankedTensorType::get(type.getShape(), bits);
    Value asBits =
        elem == bits ? x : Value(arith::BitcastOp::create(b, loc, bitsType, x));
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(bitsType, b.getIntegerAttr(bits, 0)));
    Value picked = arith::SelectOp::create(b, loc, isBatch(type.getShape(), i),
                                           asBits, zeros);
    Value summed = ReduceOp::create(
        b, loc, RankedTensorType::get(sliceType.getShape(), bits),
        ReduceKindAttr::get(b.getContext(), ReduceKind::sum), picked,
        b.getI32IntegerAttr(0));
    return elem == bits
               ? summed
               : Value(arith::BitcastOp::create(b, loc, sliceType, summed));
  }

  DotOp dot;
  OpBuilder b;
  std::map<std::vector<int64_t>, Value> batchIndex;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> recomputed;
};

struct DecomposeBatchedDot
    : tile::impl::TileDecomposeBatchedDotBase<DecomposeBatchedDot> {
  void runOnOperation() override {
    SmallVector<DotOp> batched;
    getOperation().walk([&](DotOp dot) {
      if (dot.getType().getRank() == 3)
        batched.push_back(dot);
    });
    for (DotOp dot : batched)
      BatchedDotSplitter(dot).run();
  }
};

} // namespace
