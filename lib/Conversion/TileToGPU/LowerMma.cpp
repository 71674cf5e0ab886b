//===- LowerMma.cpp - tensor-core dot: fragments and mma.sync -------------===//
//
// A tile in a `#tile.dot_operand` layout is held as the 32-bit registers
// `mma.sync` takes: for A (M x K) four per (m16 block i, k block kk), for B
// (K x N) two per (n8 block j, kk), i/j outermost. The accumulator's m16
// block i pairs local rows 2i and 2i+1 of its mma layout (a blocked layout),
// so instruction row r < 8 is tensor row `16 wm i + 8 warpM + r` and row
// r >= 8 is `16 wm i + 8 wm + 8 warpM + r - 8` (with repsPerWarp [2, 1]:
// `16 wm i + 16 warpM + r` for every r < 16); the n8 block j is tensor
// columns `8 wn j + 8 warpN + [0, 8)`.
//
// Operands reach fragments through shared memory, stored along either
// dimension (a `#tile.shared` encoding): 16-byte chunk c of stored row r is
// at chunk `c ^ phase(r)`, with the phase chosen so that the 8 rows an
// `ldmatrix` reads fall in 8 different bank groups.
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

/// `reg` (an i32 or two 16-bit elements) as the register type `mma.sync`
/// takes for `elemType`.
static Value asFragment(OpBuilder &b, Location loc, Type elemType, Value reg) {
  Type fragType = fragmentType(b, elemType);
  return reg.getType() == fragType
             ? reg
             : Value(LLVM::BitcastOp::create(b, loc, fragType, reg));
}

// The fragments of loadMmaFragments (LoweringContext.h): a fragment
// register is an 8 x 16-byte matrix: 8 rows of A (columns of B) by 16 bytes
// of k. Register r of an A fragment holds rows 8 (r % 2) and k half r / 2;
// of a B fragment, k half r. Stored K-contiguous (A row-major, B as N x K)
// each matrix is 8 stored rows read by `ldmatrix` (whatever the element
// width: i8's m16n8k32 fragments hold the same bytes as f16's m16n8k16);
// stored MN-contiguous (A as K x M, B row-major) by `ldmatrix.trans` for
// 16-bit types, and for tf32 and i8, which `.trans` cannot move, one load
// per element (an i8 register packs four, k increasing).
Slots tile::loadMmaFragments(LoweringContext &l, RankedTensorType type,
                             const SwizzledTile &tile, Value buffer,
                             int64_t onlyK) {
  ImplicitLocOpBuilder &b = l.builder();
  auto operand = cast<DotOperandEncodingAttr>(type.getEncoding());
  BlockedEncodingAttr parent = operand.getParent();
  Type elemType = type.getElementType();
  // 8-bit floats are their bits in memory.
  Type memType = l.memoryType(elemType);
  MmaFragments frag = MmaFragments::get(type);
  bool isA = frag.isA;
  int64_t instrK = frag.instrK, kHalf = frag.kHalf, numK = frag.numK;
  int64_t numMN = frag.numMN, perStep = frag.perStep;
  int64_t blockStride = frag.blockStride, halfStride = frag.halfStride;
  int64_t kLo = onlyK < 0 ? 0 : onlyK, kHi = onlyK < 0 ? numK : onlyK + 1;
  bool kContiguous = tile.contiguousDim() == (isA ? 1u : 0u);
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, x, y);
  };
  auto scaled = [&](Value x, int64_t c) -> Value {
    return c == 1 ? x : arith::MulIOp::create(b, x, l.i32(c));
  };
  Value lane = l.getLaneId();
  auto laneDiv = [&](int64_t d) -> Value {
    return arith::DivUIOp::create(b, lane, l.i32(d));
  };
  auto laneRem = [&](int64_t d) -> Value {
    return arith::RemUIOp::create(b, lane, l.i32(d));
  };
  // The warp's first row (A) or column (B) of the tensor.
  Value warpMN = scaled(l.warpCoords(parent)[frag.mnDim], frag.warpStride);
  SwizzleAnchors anchors;
  // Pointer to the element at (mn + mnDelta, k + kDelta).
  auto at = [&](Value mn, int64_t mnDelta, Value k, int64_t kDelta) {
    return isA ? swizzledPointer(l, tile, buffer, memType, mn, mnDelta, k,
                                 kDelta, anchors)
               : swizzledPointer(l, tile, buffer, memType, k, kDelta, mn,
                                 mnDelta, anchors);
  };

  Slots out(numMN * numK * perStep);
  if (!kContiguous && tile.elemBytes == 4) {
    // Lane (g, t) = (l / 4, l % 4) holds element (g, t) of each matrix.
    // The f32 bits go to the mma as they are: the tensor core ignores the
    // low 13 bits (truncation to tf32, as the interpreter computes).
    // Where the stage's swizzle puts two of a load's 32 elements in one
    // bank (wgmma's 128-byte swizzle does for A stored K x M: 8 rows by 4
    // k rows fall in 16 banks), the lanes of one lane bit read the step's
    // two k halves in the other order and swap the two registers back: the
    // bit (if any) whose flip needs the fewest wavefronts (bench/NOTES.md
    // v46).
    int flipBit =
        frag.bestElementFlip(tile, parent.getWarpsPerCTA()[frag.mnDim]);
    int64_t halves = isA ? 2 : 1; // the k half's bit in r
    Value mn = add(warpMN, laneDiv(4)), t = laneRem(4);
    // The lane's k for the registers of k half 0 and 1 (with a flip; else
    // the half is a constant offset from t), and its flip.
    Value k[2] = {t, t}, flip;
    if (flipBit >= 0) {
      flip = arith::TruncIOp::create(
          b, b.getI1Type(), arith::ShRUIOp::create(b, lane, l.i32(flipBit)));
      Value half = arith::SelectOp::create(b, flip, l.i32(kHalf), l.i32(0));
      k[0] = add(t, half);
      k[1] = arith::SubIOp::create(b, add(t, l.i32(kHalf)), half);
    }
    for (int64_t blk = 0; blk < numMN; ++blk)
      for (int64_t kk = kLo; kk < kHi; ++kk) {
        Value loaded[4];
        for (int64_t r = 0; r < perStep; ++r) {
          int64_t mnDelta = frag.mnOffset(blk, r);
          int64_t half = isA ? r / 2 : r;
          Value ptr = flip ? at(mn, mnDelta, k[half], kk * instrK)
                           : at(mn, mnDelta, t, frag.kOffset(kk, r));
          loaded[r] = LLVM::LoadOp::create(b, b.getI32Type(), ptr);
        }
        for (int64_t r = 0; r < perStep; ++r)
          out[(blk * numK + kk) * perStep + r] =
              flip ? Value(arith::SelectOp::create(b, flip, loaded[r ^ halves],
                                                   loaded[r]))
                   : loaded[r];
      }
    return out;
  }
  if (!kContiguous && tile.elemBytes == 1) {
    // Lane (g, t) holds elements (g, 4t + [0, 4)) of each matrix.
    Value mn = add(warpMN, laneDiv(4)), k = scaled(laneRem(4), 4);
    auto quadType = VectorType::get({4}, b.getI8Type());
    for (int64_t blk = 0; blk < numMN; ++blk)
      for (int64_t kk = kLo; kk < kHi; ++kk)
        for (int64_t r = 0; r < perStep; ++r) {
          int64_t mnDelta = frag.mnOffset(blk, r);
          int64_t kDelta = frag.kOffset(kk, r);
          SmallVector<Value, 4> bytes;
          for (int64_t e = 0; e < 4; ++e)
            bytes.push_back(LLVM::LoadOp::create(
                b, b.getI8Type(), at(mn, mnDelta, k, kDelta + e)));
          Value quad = vector::FromElementsOp::create(b, quadType, bytes);
          out[(blk * numK + kk) * perStep + r] =
              LLVM::BitcastOp::create(b, b.getI32Type(), quad);
        }
    return out;
  }

  // ldmatrix: lane l gives the address of row l % 8 of matrix l / 8.
  auto ldmatrix = [&](Value ptr, unsigned num) {
    SmallVector<Type> regs(num, b.getI32Type());
    Type resultType =
        num == 1 ? b.getI32Type()
                 : Type(LLVM::LLVMStructType::getLiteral(b.getContext(), regs));
    Value v = NVVM::LdMatrixOp::create(
        b, resultType, ptr, num,
        kContiguous ? NVVM::MMALayout::row : NVVM::MMALayout::col,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    Slots result;
    for (unsigned r = 0; r < num; ++r)
      result.push_back(asFragment(
          b, b.getLoc(), elemType,
          num == 1 ? v : Value(LLVM::ExtractValueOp::create(b, v, r))));
    return result;
  };
  // The lane's address for matrices starting at (mn, k): its row is the
  // stored row l % 8 further.
  Value row = laneRem(8);
  auto laneAddress = [&](Value mn, Value k, int64_t mnDelta, int64_t kDelta) {
    return kContiguous ? at(add(mn, row), mnDelta, k, kDelta)
                       : at(mn, mnDelta, add(k, row), kDelta);
  };
  Value matrix = laneDiv(8);
  Value low = arith::RemUIOp::create(b, matrix, l.i32(2));
  Value high = arith::DivUIOp::create(b, matrix, l.i32(2));
  if (isA) {
    // Matrix i of an x4: rows half i % 2, k half i / 2 (registers 0..3).
    Value mn = add(warpMN, scaled(low, halfStride)), k = scaled(high, kHalf);
    for (int64_t blk = 0; blk < numMN; ++blk)
      for (int64_t kk = kLo; kk < kHi; ++kk) {
        Slots regs =
            ldmatrix(laneAddress(mn, k, blk * blockStride, kk * instrK), 4);
        for (int r = 0; r < 4; ++r)
          out[(blk * numK + kk) * 4 + r] = regs[r];
      }
    return out;
  }
  // B: matrix i of an x4 is block blk + i / 2, k half i % 2 (the fragments
  // of blocks blk and blk + 1); of an x2 (a last, odd block), k half i.
  Value pairMN = add(warpMN, scaled(high, blockStride));
  Value k = scaled(low, kHalf);
  for (int64_t blk = 0; blk < numMN; blk += 2) {
    bool pair = blk + 1 < numMN;
    for (int64_t kk = kLo; kk < kHi; ++kk) {
      Slots regs = ldmatrix(laneAddress(pair ? pairMN : warpMN, k,
                                        blk * blockStride, kk * instrK),
                            pair ? 4 : 2);
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
  // Stored along the source's fastest dimension, so the stores vectorize.
  auto operand = cast<DotOperandEncodingAttr>(type.getEncoding());
  ArrayRef<unsigned> order = from->getLayout().getOrder();
  SwizzledTile tile = SwizzledTile::get(
      SharedEncodingAttr::getSwizzled(b.getContext(), type.getShape(),
                                      type.getElementType(), order,
                                      order[0] == operand.getOpIdx()),
      type.getShape(), type.getElementType());
  Value buffer = l.sharedPointer(0, tile.rows * tile.cols * tile.elemBytes);
  storeSwizzled(l, l.lookup(src), *from, tile, buffer);
  gpu::BarrierOp::create(b);
  l.map(result, loadMmaFragments(l, type, tile, buffer));
  gpu::BarrierOp::create(b);
  return success();
}

bool tile::isAccumulatorAsA(ConvertLayoutOp op) {
  RankedTensorType type = op.getType();
  auto to = dyn_cast<DotOperandEncodingAttr>(type.getEncoding());
  auto from = dyn_cast_or_null<BlockedEncodingAttr>(
      op.getSrc().getType().getEncoding());
  Type elem = type.getElementType();
  if (!to || !from || to.getOpIdx() != 0 || !from.isMmaAccumulator() ||
      from != to.getParent() || from.getWarpsPerCTA()[1] != 1 ||
      !(elem.isF16() || elem.isBF16()))
    return false;
  return type.getDimSize(0) % (16 * from.getWarpsPerCTA()[0]) == 0 &&
         type.getDimSize(1) % 16 == 0;
}

/// The accumulator re-packed as A fragments in registers (FlashAttention-2's
/// P in P·V): A's m16 block i is the accumulator's local rows 2i and 2i+1
/// (the same row mapping), and its k16 step kk the two n8 blocks 2kk and
/// 2kk+1, whose element pairs are the halves of registers (0, 1), (2, 3).
static LogicalResult lowerAccumulatorAsA(ConvertLayoutOp op,
                                         LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  RankedTensorType type = op.getType();
  Distribution from = *Distribution::get(op.getSrc().getType());
  int64_t wm = from.getLayout().getWarpsPerCTA()[0];
  int64_t numM = type.getDimSize(0) / (16 * wm);
  int64_t numK = type.getDimSize(1) / 16;
  assert(from.getExtent(0) == 2 * numM && from.getExtent(1) == 4 * numK &&
         "isAccumulatorAsA checked that the layout tiles the operand");
  Type elem = type.getElementType();
  auto pairType = VectorType::get({2}, elem);
  Slots src = l.lookup(op.getSrc());
  Slots out(numM * numK * 4);
  for (int64_t i = 0; i < numM; ++i)
    for (int64_t kk = 0; kk < numK; ++kk)
      for (int64_t r = 0; r < 4; ++r) {
        int64_t row = 2 * i + r % 2, col = 2 * (2 * kk + r / 2);
        Value pair = vector::FromElementsOp::create(
            b, pairType,
            ValueRange{src[from.getSlot({row, col})],
                       src[from.getSlot({row, col + 1})]});
        out[(i * numK + kk) * 4 + r] = asFragment(b, b.getLoc(), elem, pair);
      }
  l.map(op.getResult(), out);
  return success();
}

/// One m16n8k32 mma.sync of 8-bit floats (`type`: e4m3 or e5m2) with f32
/// sums: `a` four and `b` two registers of four elements, `c` four f32.
/// Inline PTX: NVVM's mma op (LLVM 22) does not accept 8-bit float
/// multiplicands. The module must ask for PTX ISA 8.4 (lowerMmaDot).
static Value float8Mma(ImplicitLocOpBuilder &b, Type resultType, ValueRange a,
                       ValueRange bv, ValueRange c, StringRef type) {
  SmallVector<Value> operands(a.begin(), a.end());
  llvm::append_range(operands, bv);
  llvm::append_range(operands, c);
  std::string text =
      ("mma.sync.aligned.m16n8k32.row.col.f32." + type + "." + type +
       ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
       "{$10, $11, $12, $13};")
          .str();
  auto mma = LLVM::InlineAsmOp::create(
      b, resultType, operands, text, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return mma.getResult(0);
}

static LogicalResult lowerMmaDot(DotOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto aType = op.getA().getType();
  auto cType = op.getType();
  auto cDist = *Distribution::get(cType);
  BlockedEncodingAttr layout = cDist.getLayout();
  Type in = aType.getElementType(), accType = cType.getElementType();
  int64_t instrK = 32 / (in.getIntOrFloatBitWidth() / 8);
  int64_t wm = layout.getWarpsPerCTA()[0], wn = layout.getWarpsPerCTA()[1];
  int64_t numM = cType.getDimSize(0) / (16 * wm);
  int64_t numN = cType.getDimSize(1) / (8 * wn);
  int64_t numK = aType.getDimSize(1) / instrK;
  if (cDist.getExtent(0) != 2 * numM || cDist.getExtent(1) != 2 * numN)
    return op.emitError("the mma layout does not tile the result");
  // Operands read from a pipeline stage are loaded one k step at a time,
  // just before that step's mmas.
  std::optional<LoweringContext::Stage> aDeferred = l.deferredStage(op.getA());
  std::optional<LoweringContext::Stage> bDeferred = l.deferredStage(op.getB());
  Slots aRegs = aDeferred ? Slots(numM * numK * 4) : l.lookup(op.getA());
  Slots bRegs = bDeferred ? Slots(numN * numK * 2) : l.lookup(op.getB());
  auto loadStep = [&](Slots &regs, const LoweringContext::Stage &stage,
                      RankedTensorType type, int64_t kk) {
    Slots step = loadMmaFragments(l, type, stage.tile, stage.pointer, kk);
    for (size_t r = 0; r < step.size(); ++r)
      if (step[r])
        regs[r] = step[r];
  };
  Slots acc = l.lookup(op.getAcc());
  NVVM::MMATypes ptxType = in.isF16()                  ? NVVM::MMATypes::f16
                           : in.isBF16()               ? NVVM::MMATypes::bf16
                           : in.isInteger(8)           ? NVVM::MMATypes::s8
                           : isa<Float8E4M3FNType>(in) ? NVVM::MMATypes::e4m3
                           : isa<Float8E5M2Type>(in)   ? NVVM::MMATypes::e5m2
                                                       : NVVM::MMATypes::tf32;
  // PTX ISA 8.4 is the first with mma.sync of 8-bit floats
  // (lib/Target/PTX.cpp reads this).
  if (isFloat8(in))
    b.getInsertionBlock()
        ->getParentOp()
        ->getParentOfType<gpu::GPUModuleOp>()
        ->setAttr(kMinPtxVersionAttrName, b.getI32IntegerAttr(84));
  // Integer sums wrap, as the interpreter's do.
  std::optional<NVVM::MMAIntOverflow> overflow;
  if (in.isInteger(8))
    overflow = NVVM::MMAIntOverflow::wrapped;
  bool halfAcc = accType.isF16();
  auto halfPair = VectorType::get({2}, accType);
  Type resultType =
      halfAcc ? LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {halfPair, halfPair})
              : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(4, accType));
  for (int64_t kk = 0; kk < numK; ++kk) {
    if (aDeferred)
      loadStep(aRegs, *aDeferred, aType, kk);
    if (bDeferred)
      loadStep(bRegs, *bDeferred, op.getB().getType(), kk);
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
        Value d =
            isFloat8(in)
                ? float8Mma(b, resultType, a, bv, c,
                            NVVM::stringifyMMATypes(ptxType))
                : Value(NVVM::MmaOp::create(
                      b, resultType, a, bv, c, {16, 8, instrK}, std::nullopt,
                      overflow, std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                     NVVM::MMALayout::col}));
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
  l.map(op,
        loadMmaFragments(l, op.getType(), SwizzledTile::forLoad(op), stage));
  return success();
}

void tile::populateMmaLowerings(LoweringPatternSet &patterns) {
  patterns.add(
      lowerMmaDot, /*benefit=*/1,
      +[](DotOp op) { return isDotOperand(op.getA().getType()); });
  patterns.add(
      lowerToDotOperand, /*benefit=*/2,
      +[](ConvertLayoutOp op) { return isDotOperand(op.getType()); });
  patterns.add(lowerAccumulatorAsA, /*benefit=*/3, isAccumulatorAsA);
  patterns.add(
      lowerSharedLoad, /*benefit=*/1,
      +[](SharedLoadOp op) { return isDotOperand(op.getType()); });
}
