//===- DecomposeBatchedDot.cpp - a batched dot as one dot per batch -------===//
//
// The layouts and lowerings compute 2-D dots; a 3-D (batched) one,
// [B, M, K] x [B, K, N] + [B, M, N], becomes B of them. Each takes its
// batch's operands out of the 3-D tiles by selecting that batch and summing
// over the batch dimension, on the values' bits (as integers: the sum of one
// value and zeros is that value exactly, -0.0 and NaN payloads included),
// and the results are put back together by selecting each where its batch
// is. The extraction costs B elementwise passes over each operand, against
// the M x N x K multiply-adds each product does on tensor cores.
//
//===----------------------------------------------------------------------===//
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
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

  /// Batch `i` of the 3-D tile `x`: a [M, K] tile.
  Value slice(Value x, int64_t i) {
    Location loc = dot.getLoc();
    auto type = cast<RankedTensorType>(x.getType());
    Type elem = type.getElementType();
    auto sliceType = RankedTensorType::get(type.getShape().drop_front(), elem);
    // A splat constant (a zero accumulator) is the same splat of each batch.
    SplatElementsAttr splat;
    if (matchPattern(x, m_Constant(&splat)))
      return arith::ConstantOp::create(
          b, loc,
          SplatElementsAttr::get(sliceType, splat.getSplatValue<Attribute>()));
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
