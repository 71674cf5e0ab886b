//===- LowerFmaDot.cpp - dot on CUDA cores: shared operands and FMAs ------===//
//
// A `dot` left in blocked layouts (f32 `ieee`, or shapes tensor cores do not
// tile) is computed with one FMA per (accumulator element, k) on the
// accumulator's layout. Its operands are read from shared memory: from a
// pipeline stage where tile-promote-shared staged them (the `shared_load`
// is deferred to the dot), otherwise stored there by the dot itself.
//
// Float operands are swizzled (16-byte chunk c of row r at c ^ phase(r)):
// the rows of A one load instruction reads at the same k fall in different
// banks, and B's runs along n stay whole chunks. The K loop then steps by
// one chunk of A (4 f32): each of the thread's rows of A is one vector
// load. Either B's rows for those k steps are loaded first and the FMAs go
// row by row of A, or A's rows first and the FMAs go k by k, whichever
// keeps fewer operand registers live; a B stage stored [n][k] is read as
// one vector of k steps per column, first. An A stage stored [k][m] is read
// at each k step as vectors along the thread's runs of rows (B first; one
// iteration covers a whole swizzle period of k, so that each k's phase is
// a constant), or element by element where its rows are not consecutive.
// Each accumulator element still takes its k terms in order.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tile;

static LogicalResult lowerDot(DotOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto aDist = *Distribution::get(op.getA().getType());
  auto bDist = *Distribution::get(op.getB().getType());
  auto cDist = *Distribution::get(op.getType());
  if (cDist.getSlicedDim() || cDist.getRank() != 2)
    return op.emitError("dot needs a 2-D blocked accumulator layout");
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  Type inType = aType.getElementType();
  Type accType = getElementTypeOrSelf(op.getType());
  int64_t bytes = std::max<int64_t>(1, inType.getIntOrFloatBitWidth() / 8);
  // Operands in pipeline stages (float, 2-D blocked: always swizzled).
  std::optional<LoweringContext::Stage> aStage = l.deferredStage(op.getA());
  std::optional<LoweringContext::Stage> bStage = l.deferredStage(op.getB());
  bool swizzle =
      isa<FloatType>(inType) && !aDist.getSlicedDim() && !bDist.getSlicedDim();
  // The verifiers make a staged operand a float tile in a 2-D blocked layout.
  assert((!aStage && !bStage) || swizzle);
  SwizzledTile aTile = aStage ? aStage->tile : SwizzledTile::get(aType),
               bTile = bStage ? bStage->tile : SwizzledTile::get(bType);
  int64_t aBytes = aStage ? 0 : llvm::alignTo(m * k * bytes, 16);
  Value aBase = aStage ? aStage->pointer : l.sharedPointer(0, m * k * bytes);
  Value bBase =
      bStage ? bStage->pointer : l.sharedPointer(aBytes, k * n * bytes);
  // With both operands in stages, the pipeline's barriers order the reads.
  bool ownBarriers = !aStage || !bStage;
  if (swizzle) {
    if (!aStage)
      storeSwizzled(l, l.lookup(op.getA()), aDist, aTile, aBase);
    if (!bStage)
      storeSwizzled(l, l.lookup(op.getB()), bDist, bTile, bBase);
  } else {
    storeShared(l, l.lookup(op.getA()), aDist, 0);
    storeShared(l, l.lookup(op.getB()), bDist, aBytes);
  }
  if (ownBarriers)
    gpu::BarrierOp::create(b);

  // The thread's rows and columns of the accumulator.
  SmallVector<Value> rows, cols;
  for (int64_t r = 0; r < cDist.getExtent(0); ++r)
    rows.push_back(l.coordinates(cDist, cDist.getSlot({r, 0}))[0]);
  for (int64_t c = 0; c < cDist.getExtent(1); ++c)
    cols.push_back(l.coordinates(cDist, cDist.getSlot({0, c}))[1]);
  auto widen = [&](Value v) -> Value {
    if (inType == accType)
      return v;
    if (isa<FloatType>(accType))
      return arith::ExtFOp::create(b, accType, v);
    return arith::ExtSIOp::create(b, accType, v);
  };
  // Each of the thread's rows (columns) as the first plus a constant where
  // the layout does not wrap, so that swizzledPointer shares one anchor
  // between those a whole swizzle period apart.
  auto asDelta = [&](unsigned dim, ArrayRef<Value> values,
                     int64_t i) -> std::pair<Value, int64_t> {
    int64_t d =
        cDist.getConstantOffset(dim, i) - cDist.getConstantOffset(dim, 0);
    if (cDist.wraps(dim) || d < 0)
      return {values[i], 0};
    return {values[0], d};
  };
  // B's columns come in the accumulator's runs of consecutive elements;
  // with the swizzle, a run inside one chunk is read as one vector.
  int64_t group = swizzle ? bTile.runLength(cDist) : 1;
  // k steps per iteration: one chunk of A's row when the swizzle keeps it
  // whole.
  int64_t kv = swizzle && k % aTile.vec == 0 ? aTile.vec : 1;
  // The accumulator slots of each of the thread's rows.
  SmallVector<SmallVector<std::pair<unsigned, int64_t>>> slotsOfRow(
      rows.size());
  for (unsigned slot = 0; slot < cDist.getNumSlots(); ++slot) {
    SmallVector<int64_t> local = cDist.getLocalIndex(slot);
    slotsOfRow[local[0]].push_back({slot, local[1]});
  }

  // A stored [k][m] read along the thread's runs of consecutive rows.
  int64_t aGroup =
      swizzle && aTile.transposed
          ? std::min({int64_t(cDist.getLayout().getSizePerThread()[0]),
                      aTile.accessElems(), int64_t(rows.size())})
          : 1;
  // A stored [m][k] with B stored [k][n]: the thread holds B's values for
  // the kv steps while ptxas hoists the loads of its rows of A (kv values
  // each); beside 128 accumulators that overflows 255 registers at 4 steps
  // (spills in four of tile-bench's configurations), not at 2, which cost
  // the tuned kernel nothing measurable (bench/NOTES.md v37).
  if (kv > 2 && aGroup == 1 && !(swizzle && bTile.transposed) &&
      cDist.getNumSlots() >= 128)
    kv = 2;
  // Such an A is read at every k of a swizzle period in one iteration: the
  // loop's k then stays a multiple of the period, so that LLVM folds each
  // k's phase to a constant and the loads share one address plus constant
  // offsets (else every run's XOR is computed again each iteration).
  int64_t period = aTile.perPhase * aTile.maxPhase;
  int64_t unroll =
      aGroup > 1 && period % kv == 0 && k % period == 0 ? period / kv : 1;

  const Slots &init = l.lookup(op.getAcc());
  auto loop = scf::ForOp::create(b, l.i32(0), l.i32(k), l.i32(kv * unroll),
                                 SmallVector<Value>(init.begin(), init.end()));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = loop.getBody();
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    b.setInsertionPointToEnd(body);
    Value kk = loop.getInductionVar();
    // The k of the current step from kk (steps of kv within an unrolled
    // iteration).
    int64_t kOffset = 0;
    SwizzleAnchors anchors;
    auto load = [&](Value ptr, int64_t count) -> SmallVector<Value> {
      if (count == 1)
        return {widen(LLVM::LoadOp::create(b, inType, ptr))};
      Value v = LLVM::LoadOp::create(b, VectorType::get({count}, inType), ptr,
                                     count * bytes);
      SmallVector<Value> elems;
      for (int64_t e = 0; e < count; ++e)
        elems.push_back(widen(vector::ExtractOp::create(b, v, e)));
      return elems;
    };
    auto linear = [&](Value base, Value row, int64_t stride, Value col) {
      Value index = arith::AddIOp::create(
          b, arith::MulIOp::create(b, row, l.i32(stride)), col);
      return LLVM::GEPOp::create(b, base.getType(), inType, base,
                                 ValueRange{index});
    };
    auto bRow = [&](int64_t e) {
      SmallVector<Value> vals;
      for (size_t c = 0; c < cols.size(); c += group) {
        Value ptr;
        if (swizzle) {
          auto [col, delta] = asDelta(1, cols, c);
          ptr = swizzledPointer(l, bTile, bBase, inType, kk, kOffset + e, col,
                                delta, anchors);
        } else {
          ptr = linear(bBase, kk, n, cols[c]);
        }
        llvm::append_range(vals, load(ptr, group));
      }
      return vals;
    };
    auto aRow = [&](size_t r) {
      Value ptr;
      if (swizzle) {
        auto [row, delta] = asDelta(0, rows, r);
        if (aTile.transposed) {
          // A stored [k][m]: the row's kv elements one by one.
          SmallVector<Value> vals;
          for (int64_t e = 0; e < kv; ++e)
            vals.push_back(load(swizzledPointer(l, aTile, aBase, inType, row,
                                                delta, kk, e, anchors),
                                1)[0]);
          return vals;
        }
        ptr = swizzledPointer(l, aTile, aBase, inType, row, delta, kk, kOffset,
                              anchors);
      } else {
        ptr = linear(aBase, rows[r], k, kk);
      }
      return load(ptr, kv);
    };
    SmallVector<Value> acc(loop.getRegionIterArgs());
    auto multiplyAdd = [&](unsigned slot, Value x, Value y) {
      acc[slot] = isa<FloatType>(accType)
                      ? Value(LLVM::FMAOp::create(b, x, y, acc[slot]))
                      : Value(arith::AddIOp::create(
                            b, arith::MulIOp::create(b, x, y), acc[slot]));
    };
    // Load first whichever operand keeps fewer values live: all of B's kv
    // rows then A row by row, or all of A's row vectors then B k by k.
    int64_t numRows = rows.size(), numCols = cols.size();
    // B stored [n][k] (a K-contiguous stage): each column's kv k steps are
    // one vector, so all of B's chunk is loaded first.
    bool bAlongK = swizzle && bTile.transposed && kv > 1 &&
                   bTile.vec % kv == 0 && kv <= bTile.accessElems();
    auto bChunk = [&] {
      SmallVector<SmallVector<Value>> vals(kv, SmallVector<Value>(numCols));
      for (int64_t c = 0; c < numCols; ++c) {
        auto [col, delta] = asDelta(1, cols, c);
        SmallVector<Value> column =
            load(swizzledPointer(l, bTile, bBase, inType, kk, kOffset, col,
                                 delta, anchors),
                 kv);
        for (int64_t e = 0; e < kv; ++e)
          vals[e][c] = column[e];
      }
      return vals;
    };
    // A stored [k][m] with the thread's rows in runs (tile-accelerate-dot's
    // layout for it): all of B's chunk first, then A's rows at each k step,
    // a run per vector.
    auto aColumn = [&](int64_t e) {
      SmallVector<Value> vals;
      for (int64_t r = 0; r < numRows; r += aGroup) {
        auto [row, delta] = asDelta(0, rows, r);
        llvm::append_range(
            vals, load(swizzledPointer(l, aTile, aBase, inType, row, delta, kk,
                                       kOffset + e, anchors),
                       aGroup));
      }
      return vals;
    };
    // All of B's kv k steps, by k step then column.
    auto bSteps = [&] {
      if (bAlongK)
        return bChunk();
      SmallVector<SmallVector<Value>> vals;
      for (int64_t e = 0; e < kv; ++e)
        vals.push_back(bRow(e));
      return vals;
    };
    for (int64_t u = 0; u < unroll; ++u) {
      kOffset = u * kv;
      if (aGroup > 1) {
        SmallVector<SmallVector<Value>> bVals = bSteps();
        for (int64_t e = 0; e < kv; ++e) {
          SmallVector<Value> aVals = aColumn(e);
          for (int64_t r = 0; r < numRows; ++r)
            for (auto [slot, c] : slotsOfRow[r])
              multiplyAdd(slot, aVals[r], bVals[e][c]);
        }
      } else if (bAlongK || kv * numCols + kv <= numRows * kv + numCols) {
        SmallVector<SmallVector<Value>> bVals = bSteps();
        for (int64_t r = 0; r < numRows; ++r) {
          SmallVector<Value> aVals = aRow(r);
          for (int64_t e = 0; e < kv; ++e)
            for (auto [slot, c] : slotsOfRow[r])
              multiplyAdd(slot, aVals[e], bVals[e][c]);
        }
      } else {
        SmallVector<SmallVector<Value>> aVals;
        for (int64_t r = 0; r < numRows; ++r)
          aVals.push_back(aRow(r));
        for (int64_t e = 0; e < kv; ++e) {
          SmallVector<Value> bVals = bRow(e);
          for (int64_t r = 0; r < numRows; ++r)
            for (auto [slot, c] : slotsOfRow[r])
              multiplyAdd(slot, aVals[r][e], bVals[c]);
        }
      }
    }
    scf::YieldOp::create(b, acc);
  }
  if (ownBarriers)
    gpu::BarrierOp::create(b);
  l.map(op, Slots(loop.getResults().begin(), loop.getResults().end()));
  return success();
}

void tile::populateFmaDotLowerings(LoweringPatternSet &patterns) {
  patterns.add(
      lowerDot, /*benefit=*/1,
      +[](DotOp op) { return !isDotOperand(op.getA().getType()); });
}
