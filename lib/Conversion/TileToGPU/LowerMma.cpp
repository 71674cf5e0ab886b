//===- LowerMma.cpp - tensor-core dot: fragments and mma.sync -------------===//
//
// A tile in a `#tile.dot_operand` layout is held as the 32-bit registers
// `mma.sync` takes: for A (M x K) four per (m16 block i, k block kk), for B
// (K x N) two per (n8 block j, kk), i/j outermost. The accumulator's m16
// block i pairs local rows 2i and 2i+1 of its mma layout (a blocked layout),
// so instruction row r < 8 is tensor row `16 wm i + 8 warpM + r` and row
// r >= 8 is `16 wm i + 8 wm + 8 warpM + r - 8`; the n8 block j is tensor
// columns `8 wn j + 8 warpN + [0, 8)`.
//
// Operands reach fragments through shared memory in a swizzled row-major
// layout: 16-byte chunk c of row r is stored at chunk `c ^ phase(r)`, with
// the phase chosen so that the 8 rows an `ldmatrix` reads fall in 8
// different bank groups.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace tile;

/// The register `mma.sync` takes for two 16-bit elements or one tf32.
static Type fragmentType(OpBuilder &b, Type elemType) {
  if (elemType.isF16())
    return VectorType::get({2}, elemType);
  return b.getI32Type();
}

/// Reads the mma fragments of a tile of `type` (a dot-operand layout) from
/// the swizzled tile at `buffer`; with `onlyK` >= 0 only those of that k
/// step (the other slots are null).
static Slots loadFragments(LoweringContext &l, RankedTensorType type,
                           Value buffer, int64_t onlyK = -1) {
  ImplicitLocOpBuilder &b = l.builder();
  auto operand = cast<DotOperandEncodingAttr>(type.getEncoding());
  BlockedEncodingAttr parent = operand.getParent();
  SwizzledTile tile = SwizzledTile::get(type);
  Type elemType = type.getElementType();
  bool isA = operand.getOpIdx() == 0;
  bool tf32 = elemType.isF32();
  int64_t wm = parent.getWarpsPerCTA()[0], wn = parent.getWarpsPerCTA()[1];
  int64_t instrK = tf32 ? 8 : 16;
  int64_t numK = (isA ? tile.cols : tile.rows) / instrK;
  int64_t numMN = isA ? tile.rows / (16 * wm) : tile.cols / (8 * wn);
  int64_t kLo = onlyK < 0 ? 0 : onlyK, kHi = onlyK < 0 ? numK : onlyK + 1;
  // Registers per (block, k step): 4 for A, 2 for B, at (blk*numK+kk)*n.
  int64_t perStep = isA ? 4 : 2;
  ArrayRef<Value> warps = l.warpCoords(parent);
  Type fragType = fragmentType(b, elemType);
  auto add = [&](Value x, int64_t c) -> Value {
    return c == 0 ? x : arith::AddIOp::create(b, x, l.i32(c));
  };
  auto mul = [&](Value x, int64_t c) -> Value {
    return c == 1 ? x : arith::MulIOp::create(b, x, l.i32(c));
  };
  auto toFragment = [&](Value reg) -> Value {
    return reg.getType() == fragType
               ? reg
               : Value(LLVM::BitcastOp::create(b, fragType, reg));
  };
  // Row (of A) or column (of B) of the tensor for instruction row/column
  // `r` (0..15 for A, 0..7 for B) of block `blk`.
  auto tensorRowA = [&](Value r, int64_t blk) -> Value {
    Value high = arith::DivUIOp::create(b, r, l.i32(8));
    Value low = arith::RemUIOp::create(b, r, l.i32(8));
    Value row = arith::AddIOp::create(
        b, mul(high, 8 * wm), arith::AddIOp::create(b, mul(warps[0], 8), low));
    return add(row, 16 * wm * blk);
  };
  auto tensorColB = [&](Value nBlock, Value n) {
    Value start =
        arith::AddIOp::create(b, mul(nBlock, 8 * wn), mul(warps[1], 8));
    return n ? Value(arith::AddIOp::create(b, start, n)) : start;
  };

  SwizzleAnchors anchors;
  auto swizzledPtr = [&](Value row, int64_t rowDelta, Value col,
                         int64_t colDelta) {
    return swizzledPointer(l, tile, buffer, elemType, row, rowDelta, col,
                           colDelta, anchors);
  };

  Slots out(numMN * numK * perStep);
  if (tf32 && !isA) {
    // B's registers hold one element of a column each: no ldmatrix (its
    // .trans moves 16-bit halves), one load per element. The f32 bits go
    // to the mma as they are: the tensor core ignores the low 13 bits
    // (truncation to tf32, as the interpreter computes; no cvt per element).
    Value g = arith::DivUIOp::create(b, l.getLaneId(), l.i32(4));
    Value t = arith::RemUIOp::create(b, l.getLaneId(), l.i32(4));
    Value n0 = tensorColB(l.i32(0), g);
    auto loadElement = [&](int64_t k, int64_t nDelta) -> Value {
      return LLVM::LoadOp::create(b, b.getI32Type(),
                                  swizzledPtr(t, k, n0, nDelta));
    };
    for (int64_t blk = 0; blk < numMN; ++blk)
      for (int64_t kk = kLo; kk < kHi; ++kk) {
        int64_t nDelta = blk * 8 * wn;
        out[(blk * numK + kk) * 2] = loadElement(kk * 8, nDelta);
        out[(blk * numK + kk) * 2 + 1] = loadElement(kk * 8 + 4, nDelta);
      }
    return out;
  }

  // ldmatrix. Lane l addresses row l % 16 of an x4 load's matrices (rows
  // 0-7 and 8-15); lanes 16-31 the second 16 bytes of k (A) or the next n
  // block (B). A tf32 A is loaded the same way: 16 bytes are 4 elements, and
  // the 32-bit word a lane receives is the (g, t) element the mma expects.
  Value q = arith::RemUIOp::create(b, l.getLaneId(), l.i32(16));
  Value half = arith::DivUIOp::create(b, l.getLaneId(), l.i32(16));
  auto ldmatrix = [&](Value ptr, unsigned num, bool trans) {
    SmallVector<Type> regs(num, b.getI32Type());
    Type resultType =
        num == 1 ? b.getI32Type()
                 : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), regs));
    Value v = NVVM::LdMatrixOp::create(
        b, resultType, ptr, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    Slots result;
    for (unsigned r = 0; r < num; ++r)
      result.push_back(toFragment(
          num == 1 ? v : Value(LLVM::ExtractValueOp::create(b, v, r))));
    return result;
  };
  if (isA) {
    int64_t chunk = 16 / tile.elemBytes; // elements per 16 bytes
    Value row0 = tensorRowA(q, 0), col0 = mul(half, chunk);
    for (int64_t blk = 0; blk < numMN; ++blk) {
      for (int64_t kk = kLo; kk < kHi; ++kk) {
        Slots regs = ldmatrix(
            swizzledPtr(row0, 16 * wm * blk, col0, kk * instrK), 4, false);
        for (int r = 0; r < 4; ++r)
          out[(blk * numK + kk) * 4 + r] = regs[r];
      }
    }
    return out;
  }
  // B: fragments of n blocks j and j+1 from one x4 load where both exist.
  // Block blk (+ half for a pair) starts at column blk * 8 * wn of the first.
  Value pairCol = tensorColB(half, Value()),
        singleCol = tensorColB(l.i32(0), Value());
  for (int64_t blk = 0; blk < numMN; blk += 2) {
    bool pair = blk + 1 < numMN;
    Value col = pair ? pairCol : singleCol;
    for (int64_t kk = kLo; kk < kHi; ++kk) {
      Slots regs = ldmatrix(swizzledPtr(q, kk * 16, col, blk * 8 * wn),
                            pair ? 4 : 2, true);
      for (int64_t r = 0; r < int64_t(regs.size()); ++r)
        out[((blk + r / 2) * numK + kk) * 2 + r % 2] = regs[r];
    }
  }
  return out;
}

/// convert_layout into a dot-operand layout: through swizzled shared
/// memory into mma fragments.
static LogicalResult lowerToDotOperand(ConvertLayoutOp op, LoweringContext &l) {
  Value src = op.getSrc(), result = op.getResult();
  ImplicitLocOpBuilder &b = l.builder();
  auto from = Distribution::get(src.getType());
  if (failed(from) || from->isScalar() || from->getSlicedDim())
    return op->emitError("a dot operand must be converted from a 2-D "
                         "blocked tile");
  auto type = cast<RankedTensorType>(result.getType());
  SwizzledTile tile = SwizzledTile::get(type);
  Value buffer = l.sharedPointer(0, tile.rows * tile.cols * tile.elemBytes);
  storeSwizzled(l, l.lookup(src), *from, tile, buffer);
  gpu::BarrierOp::create(b);
  l.map(result, loadFragments(l, type, buffer));
  gpu::BarrierOp::create(b);
  return success();
}

static LogicalResult lowerMmaDot(DotOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto aType = op.getA().getType();
  auto cType = op.getType();
  auto cDist = *Distribution::get(cType);
  BlockedEncodingAttr layout = cDist.getLayout();
  Type in = aType.getElementType(), accType = cType.getElementType();
  bool tf32 = in.isF32();
  int64_t instrK = tf32 ? 8 : 16;
  int64_t wm = layout.getWarpsPerCTA()[0], wn = layout.getWarpsPerCTA()[1];
  int64_t numM = cType.getDimSize(0) / (16 * wm);
  int64_t numN = cType.getDimSize(1) / (8 * wn);
  int64_t numK = aType.getDimSize(1) / instrK;
  if (cDist.getExtent(0) != 2 * numM || cDist.getExtent(1) != 2 * numN)
    return op.emitError("the mma layout does not tile the result");
  // Operands read from a pipeline stage are loaded one k step at a time,
  // just before that step's mmas.
  Value aDeferred = l.deferredStage(op.getA());
  Value bDeferred = l.deferredStage(op.getB());
  Slots aRegs = aDeferred ? Slots(numM * numK * 4) : l.lookup(op.getA());
  Slots bRegs = bDeferred ? Slots(numN * numK * 2) : l.lookup(op.getB());
  auto loadStep = [&](Slots &regs, Value stage, RankedTensorType type,
                      int64_t kk) {
    Slots step = loadFragments(l, type, stage, kk);
    for (size_t r = 0; r < step.size(); ++r)
      if (step[r])
        regs[r] = step[r];
  };
  Slots acc = l.lookup(op.getAcc());
  NVVM::MMATypes ptxType = in.isF16()    ? NVVM::MMATypes::f16
                           : in.isBF16() ? NVVM::MMATypes::bf16
                                         : NVVM::MMATypes::tf32;
  bool halfAcc = accType.isF16();
  auto halfPair = VectorType::get({2}, accType);
  Type resultType =
      halfAcc ? LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {halfPair, halfPair})
              : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(4, accType));
  for (int64_t kk = 0; kk < numK; ++kk) {
    if (aDeferred)
      loadStep(aRegs, aDeferred, aType, kk);
    if (bDeferred)
      loadStep(bRegs, bDeferred, op.getB().getType(), kk);
    for (int64_t i = 0; i < numM; ++i)
      for (int64_t j = 0; j < numN; ++j) {
        unsigned slots[4] = {cDist.getSlot({2 * i, 2 * j}),
                             cDist.getSlot({2 * i, 2 * j + 1}),
                             cDist.getSlot({2 * i + 1, 2 * j}),
                             cDist.getSlot({2 * i + 1, 2 * j + 1})};
        SmallVector<Value> c;
        if (halfAcc) {
          for (int p = 0; p < 2; ++p)
            c.push_back(vector::FromElementsOp::create(
                b, halfPair,
                ValueRange{acc[slots[2 * p]], acc[slots[2 * p + 1]]}));
        } else {
          for (unsigned s : slots)
            c.push_back(acc[s]);
        }
        ValueRange a(ArrayRef<Value>(aRegs).slice((i * numK + kk) * 4, 4));
        ValueRange bv(ArrayRef<Value>(bRegs).slice((j * numK + kk) * 2, 2));
        Value d = NVVM::MmaOp::create(
            b, resultType, a, bv, c, {16, 8, instrK}, std::nullopt,
            std::nullopt, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int r = 0; r < 4; ++r) {
          if (halfAcc) {
            Value pair = LLVM::ExtractValueOp::create(b, d, r / 2);
            acc[slots[r]] = vector::ExtractOp::create(b, pair, r % 2);
          } else {
            acc[slots[r]] = LLVM::ExtractValueOp::create(b, d, r);
          }
        }
      }
  }
  l.map(op, acc);
  return success();
}

/// A shared_load into a dot-operand layout: the fragments of the stage.
static LogicalResult lowerSharedLoad(SharedLoadOp op, LoweringContext &l) {
  Value stage = l.stagePointer(op.getBuffer(), op.getStage());
  l.map(op, loadFragments(l, op.getType(), stage));
  return success();
}

void tile::populateMmaLowerings(LoweringPatternSet &patterns) {
  patterns.add(
      lowerMmaDot, /*benefit=*/1,
      +[](DotOp op) { return isDotOperand(op.getA().getType()); });
  patterns.add(
      lowerToDotOperand, /*benefit=*/2,
      +[](ConvertLayoutOp op) { return isDotOperand(op.getType()); });
  patterns.add(
      lowerSharedLoad, /*benefit=*/1,
      +[](SharedLoadOp op) { return isDotOperand(op.getType()); });
}
