//===- LowerWgmma.cpp - tensor-core dot: sm_90a warpgroup MMAs ------------===//
//
// A dot whose B (and A, unless A is in registers) is read from pipeline
// stages stored for wgmma (a `#tile.shared` encoding with panels, see
// TileAttrs.td) becomes `wgmma.mma_async` instructions that read the operands
// from shared memory through matrix descriptors; the accumulator stays in
// registers.
//
// The accumulator is tile-accelerate-dot's layout with all W warps along M
// and repsPerWarp [2, 1]: warp w holds rows 16w + [0, 16) of each 16W rows,
// its local rows 2i and 2i + 1 being rows 16w + [0, 8) and 16w + [8, 16) of
// block i. Warpgroup q (warps 4q .. 4q + 3) issues, for each of its m64
// blocks i (rows 16Wi + 64q + [0, 64)), one m64nNk16 instruction per k step
// (k32 for 8-bit types); warp w' of the warpgroup gets instruction rows
// 16w' + [0, 16): the accumulator's rows, with A read in order (K-major or
// MN-major). Register 4j + r of an instruction's result is n8 block j, row
// half r / 2, column r % 2 of the lane's pair: the m16n8 fragment of
// mma.sync, so the accumulator slots are the same.
//
// A descriptor (PTX ISA "matrix descriptor") packs in 16-byte units the
// start address (bits 0-13), the leading-dimension byte offset (16-29:
// between panels along M/N for an MN-major operand; unused, 1, for K-major),
// the stride byte offset (32-45: between 8-row groups) and the swizzle
// (62-63: 1 = 128, 2 = 64, 3 = 32 bytes). Stages start 1024-byte aligned,
// so the hardware's swizzle is the encoding's.
//
// An A that is no stage (loaded before the loop, or computed: attention's
// P re-packed from the previous dot's accumulator), or a tf32 A stored
// MN-major (wgmma reads 32-bit operands K-major only), reaches the MMAs in
// registers: each warp's mma.sync m16 fragments of block i are the
// register-A fragment of the block's instruction for that warp.
//
// The dot then waits for its group (wait_group 0), unless its only user is
// a `dot_wait` (directly or through the `trans` of a dot computed
// transposed), which ends it later; an A read from its stage into
// registers then splits the MMAs into two groups with a wait_group 1
// between them. The waits pass the accumulators through a tied inline-PTX
// wait, so that nothing reads them early.
//
// In a kernel of two warpgroups, a loop body's runs of two or more such
// dots (nothing between them but stage reads and arithmetic that does not
// read their results: FlashAttention-3's order, S_j beside P_{j-1} V_{j-1})
// are issued in turns: warpgroup q waits on named barrier 1 + q before the
// run and arrives on the other's after issuing it, so that one's softmax
// runs while the other's MMAs do (bench/NOTES.md v49).
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tile;

namespace {

/// A dot whose B is read from a stage stored for wgmma; A comes from a
/// wgmma stage, or in registers (from an ldmatrix stage or as computed).
bool isWgmmaDot(DotOp op) {
  return isDotOperand(op.getA().getType()) && wgmmaStage(op, op.getB());
}

/// The runs of dots in `block` (a loop's body) that two warpgroups take
/// turns over: two or more warpgroup-MMA dots of a kernel of 8 warps in a
/// row, with nothing between them but stage reads, register arithmetic and
/// accumulators re-packed as A (attention's P) that read none of their
/// results (no barrier, so that a warpgroup in its turn never waits for
/// the other).
SmallVector<SmallVector<DotOp>> turnRuns(Block &block) {
  SmallVector<SmallVector<DotOp>> runs;
  auto kernel = block.getParentOp()->getParentOfType<KernelOp>();
  auto warps = kernel ? kernel->getAttrOfType<IntegerAttr>(
                            TileDialect::NumWarpsAttrHelper::getNameStr())
                      : IntegerAttr();
  if (!isa<scf::ForOp>(block.getParentOp()) || !warps || warps.getInt() != 8)
    return runs;
  SmallVector<DotOp> run;
  auto close = [&] {
    if (run.size() >= 2)
      runs.push_back(run);
    run.clear();
  };
  auto readsRun = [&](Operation &op) {
    return llvm::any_of(op.getOperands(), [&](Value v) {
      return llvm::is_contained(run, v.getDefiningOp<DotOp>());
    });
  };
  for (Operation &op : block) {
    auto dot = dyn_cast<DotOp>(op);
    if (dot && isWgmmaDot(dot) && hasWgmmaLayout(dot)) {
      if (readsRun(op))
        close();
      run.push_back(dot);
      continue;
    }
    auto cvt = dyn_cast<ConvertLayoutOp>(op);
    bool passable =
        isa<SharedLoadOp>(op) || (cvt && isAccumulatorAsA(cvt)) ||
        isa<arith::ArithDialect, math::MathDialect>(op.getDialect());
    if (!run.empty() && (!passable || readsRun(op)))
      close();
  }
  close();
  return runs;
}

/// Whether `dot` begins and whether it ends a run of turnRuns.
std::pair<bool, bool> turnPlace(DotOp dot) {
  for (const SmallVector<DotOp> &run : turnRuns(*dot->getBlock()))
    if (llvm::is_contained(run, dot))
      return {run.front() == dot, run.back() == dot};
  return {false, false};
}

/// The named barrier of warpgroup `first + (this thread's warpgroup)` mod
/// 2 of the kernel's two: its turn begins when it completes.
Value turnBarrier(LoweringContext &l, int64_t first) {
  ImplicitLocOpBuilder &b = l.builder();
  Value warpgroup = arith::DivUIOp::create(b, l.thread(), l.i32(128));
  Value which = arith::RemUIOp::create(
      b, arith::AddIOp::create(b, warpgroup, l.i32(first)), l.i32(2));
  return arith::AddIOp::create(b, which, l.i32(kTurnBarrier));
}

/// One operand's descriptors: a base for its stage, and the byte offset of
/// each instruction's sub-matrix.
struct OperandDescriptors {
  SwizzledTile tile;
  bool kMajor;
  /// The descriptor of the stage's first byte.
  Value base;

  /// Byte offset of the sub-matrix whose first M (N) index is `mn` (a
  /// stored row for K-major, a panel start for MN-major) and first k `k`.
  int64_t offset(int64_t mn, int64_t k) const {
    int64_t panel = tile.panel, eb = tile.elemBytes;
    int64_t along = kMajor ? k : mn, across = kMajor ? mn : k;
    return (along / panel * tile.rows * panel + across * panel +
            along % panel) *
           eb;
  }
};

OperandDescriptors makeDescriptors(LoweringContext &l, Value stagePointer,
                                   const SwizzledTile &tile, bool kMajor) {
  ImplicitLocOpBuilder &b = l.builder();
  int64_t panelBytes = tile.panel * tile.elemBytes;
  uint64_t swizzle = panelBytes == 128 ? 1 : panelBytes == 64 ? 2 : 3;
  // Between 8-row groups of a panel; between panels along M/N.
  uint64_t strideBytes = 8 * panelBytes;
  uint64_t leadingBytes = kMajor ? 16 : tile.rows * panelBytes;
  uint64_t fields =
      (leadingBytes >> 4) << 16 | (strideBytes >> 4) << 32 | swizzle << 62;
  Value address = LLVM::PtrToIntOp::create(b, b.getI64Type(), stagePointer);
  Value start = arith::ShRUIOp::create(
      b,
      arith::AndIOp::create(b, address,
                            arith::ConstantIntOp::create(b, 0x3ffff, 64)),
      arith::ConstantIntOp::create(b, 4, 64));
  Value base = arith::OrIOp::create(
      b, start, arith::ConstantIntOp::create(b, int64_t(fields), 64));
  return {tile, kMajor, base};
}

/// Waits until at most `pending` of this thread's warpgroup MMA groups are
/// in flight and returns `values` (f32 or i32 accumulators, or 32-bit
/// registers of an A the MMAs read) through the wait. Inline PTX (as
/// wgmmaRegisterA): NVVM's wgmma.wait_group takes no operands, so nothing
/// would keep LLVM from reading an accumulator (or ptxas from seeing it
/// read) before the wait that ends the MMAs writing it, or from giving an
/// A's registers to other values while the MMAs still read them; tying
/// each value as an output of the wait does.
Slots waitForGroups(LoweringContext &l, int64_t pending,
                    ArrayRef<Value> values) {
  ImplicitLocOpBuilder &b = l.builder();
  if (values.empty()) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, b.getI64IntegerAttr(pending));
    return {};
  }
  std::string constraints;
  llvm::raw_string_ostream os(constraints);
  // f32 in f registers; anything else (i32, packed 16-bit pairs) as i32.
  SmallVector<Value> operands;
  for (Value value : values)
    operands.push_back(
        value.getType().isF32() || value.getType().isInteger(32)
            ? value
            : Value(LLVM::BitcastOp::create(b, b.getI32Type(), value)));
  for (size_t i = 0; i < operands.size(); ++i)
    os << (i ? "," : "") << (operands[i].getType().isF32() ? "=f" : "=r");
  for (size_t i = 0; i < operands.size(); ++i)
    os << "," << i;
  os << ",~{memory}";
  SmallVector<Type> types;
  for (Value operand : operands)
    types.push_back(operand.getType());
  Type result = operands.size() == 1
                    ? types.front()
                    : LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  auto wait = LLVM::InlineAsmOp::create(
      b, result, operands,
      ("wgmma.wait_group.sync.aligned " + Twine(pending) + ";").str(),
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  Slots waited;
  for (size_t i = 0; i < operands.size(); ++i) {
    Value out =
        operands.size() == 1
            ? wait.getResult(0)
            : Value(LLVM::ExtractValueOp::create(b, wait.getResult(0), i));
    if (out.getType() != values[i].getType())
      out = LLVM::BitcastOp::create(b, values[i].getType(), out);
    waited.push_back(out);
  }
  return waited;
}

/// One m64nNk16 (f16, bf16) or m64nNk8 (tf32) warpgroup MMA with A from
/// registers (`a`: this warp's four fragment registers, as mma.sync's
/// m16n8k16 or m16n8k8 A) and B through `descB`, accumulating into `acc` (a
/// struct of N / 2 f32; without `accumulate`, A B alone, `acc` not read).
/// Inline PTX: NVVM's wgmma.mma_async takes A only as a descriptor.
Value wgmmaRegisterA(LoweringContext &l, Value acc, ArrayRef<Value> a,
                     Value descB, int64_t n, Type in, bool transposeB,
                     bool accumulate) {
  ImplicitLocOpBuilder &b = l.builder();
  int64_t count = n / 2;
  SmallVector<Value> operands;
  for (int64_t r = 0; r < count; ++r)
    operands.push_back(LLVM::ExtractValueOp::create(b, acc, r));
  for (Value reg : a)
    operands.push_back(
        reg.getType().isInteger(32)
            ? reg
            : Value(LLVM::BitcastOp::create(b, b.getI32Type(), reg)));
  operands.push_back(descB);
  // scale-d is a predicate: true, D = A * B + D; false, D = A * B.
  operands.push_back(l.i32(accumulate ? 1 : 0));
  std::string asmText, constraints;
  llvm::raw_string_ostream text(asmText), cons(constraints);
  StringRef type = in.isF16() ? "f16" : in.isBF16() ? "bf16" : "tf32";
  // Operands: the outputs, their tied inputs, A, B's descriptor, scale-d.
  int64_t aFirst = 2 * count;
  text << "{ .reg .pred p; setp.ne.b32 p, $" << aFirst + 5
       << ", 0; wgmma.mma_async.sync.aligned.m64n" << n
       << (in.isF32() ? "k8" : "k16") << ".f32." << type << "." << type << " {";
  for (int64_t r = 0; r < count; ++r) {
    text << (r ? ", " : "") << "$" << r;
    cons << (r ? "," : "") << "=f";
  }
  text << "}, {$" << aFirst << ", $" << aFirst + 1 << ", $" << aFirst + 2
       << ", $" << aFirst + 3 << "}, $" << aFirst + 4 << ", p, 1, 1";
  // tf32 takes no transpose operand (B is K-major).
  if (!in.isF32())
    text << ", " << (transposeB ? 1 : 0);
  text << "; }";
  for (int64_t r = 0; r < count; ++r)
    cons << "," << r;
  cons << ",r,r,r,r,l,r";
  auto mma = LLVM::InlineAsmOp::create(
      b, acc.getType(), operands, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return mma.getResult(0);
}

LogicalResult lowerWgmmaDot(DotOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  MLIRContext *ctx = b.getContext();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  Distribution cDist = *Distribution::get(cType);
  BlockedEncodingAttr layout = cDist.getLayout();
  int64_t warps = layout.getWarpsPerCTA()[0];
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
  int64_t k = aType.getDimSize(1);
  if (!hasWgmmaLayout(op))
    return op.emitError("the dot's layout does not fit warpgroup MMAs");
  std::optional<LoweringContext::Stage> aStage = l.deferredStage(op.getA());
  std::optional<LoweringContext::Stage> bStage = l.deferredStage(op.getB());
  assert(bStage && "isWgmmaDot's B shared_load is deferred");
  Type in = aType.getElementType();
  unsigned inBits = in.getIntOrFloatBitWidth();
  int64_t warpgroups = warps / 4;
  int64_t blocksM = m / (64 * warpgroups);
  if (aStage && aStage->tile.panel == 0)
    return op.emitError("the A stage is not stored for warpgroup MMAs");
  // An A that is no stage goes to the MMAs in registers: this warp's m16
  // fragments of block i are the rows of the instruction of block i. So
  // does a tf32 A stored MN-major (wgmma reads no 32-bit operand that
  // way), read from its stage as mma.sync's fragments, before the fence
  // (the MMAs must see them written).
  Slots aRegs;
  std::optional<LoweringContext::Stage> aFromStage;
  if (aStage && inBits == 32 && aStage->tile.contiguousDim() != 1) {
    aFromStage = aStage;
    // Four registers per m64 block and k step (8 for tf32).
    aRegs.resize(blocksM * (k / 8) * 4);
    aStage.reset();
  } else if (!aStage) {
    // Loop-invariant or computed after the MMAs it depends on ended
    // (tile-promote-shared leaves no MMAs in flight across a computed A).
    aRegs = l.lookup(op.getA());
  }
  bool aInRegisters = !aStage;
  bool aKMajor = aStage && aStage->tile.contiguousDim() == 1;
  Slots acc = l.lookup(op.getAcc());
  // A zero accumulator (attention's S = Q Kᵀ, each block) is not read: the
  // first k step of each m64 block computes A B alone (scale-d 0), so no
  // register is zeroed first (64 moves a thread an iteration for S).
  bool zeroAcc = isZeroConstant(op.getAcc());
  std::optional<OperandDescriptors> aDesc;
  Value aBase;
  if (!aInRegisters) {
    aDesc = makeDescriptors(l, aStage->pointer, aStage->tile, aKMajor);
    // The warpgroup's A rows start at stored row 64 q of each m64 block.
    Value warpgroup =
        arith::DivUIOp::create(b, l.warpCoords(layout)[0], l.i32(4));
    Value aRows = arith::ExtUIOp::create(
        b, b.getI64Type(),
        arith::MulIOp::create(b, warpgroup, l.i32(aDesc->offset(64, 0) >> 4)));
    aBase = arith::AddIOp::create(b, aDesc->base, aRows);
  }
  bool bKMajor = bStage->tile.contiguousDim() == 0;
  if (inBits != 16 && (!bKMajor || (inBits == 8 && !aKMajor)))
    return op.emitError("warpgroup MMAs read 8-bit operands and tf32 B "
                        "only from K-major stages");
  OperandDescriptors bDesc =
      makeDescriptors(l, bStage->pointer, bStage->tile, bKMajor);
  auto descriptor = [&](Value base, int64_t bytes) -> Value {
    return bytes == 0
               ? base
               : arith::AddIOp::create(
                     b, base, arith::ConstantIntOp::create(b, bytes >> 4, 64));
  };

  NVVM::WGMMATypes inType = in.isF16()                  ? NVVM::WGMMATypes::f16
                            : in.isBF16()               ? NVVM::WGMMATypes::bf16
                            : isa<Float8E4M3FNType>(in) ? NVVM::WGMMATypes::e4m3
                            : isa<Float8E5M2Type>(in)   ? NVVM::WGMMATypes::e5m2
                            : in.isF32()                ? NVVM::WGMMATypes::tf32
                                                        : NVVM::WGMMATypes::s8;
  Type accElem = cType.getElementType();
  NVVM::WGMMATypes accWgmmaType =
      accElem.isF32() ? NVVM::WGMMATypes::f32 : NVVM::WGMMATypes::s32;
  // One instruction's K: 32 bytes.
  int64_t instrK = 32 / (in.getIntOrFloatBitWidth() / 8);
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n / 2, accElem));
  // Accumulator slot of register r of the instruction for m64 block i:
  // n8 block r / 4, as an m16n8 fragment.
  auto slotOf = [&](int64_t i, int64_t r) {
    return cDist.getSlot({2 * i + (r % 4) / 2, 2 * (r / 4) + r % 2});
  };
  SmallVector<Value> accs;
  for (int64_t i = 0; i < blocksM; ++i) {
    Value s = LLVM::UndefOp::create(b, accType);
    for (int64_t r = 0; r < n / 2 && !zeroAcc; ++r)
      s = LLVM::InsertValueOp::create(b, s, acc[slotOf(i, r)], r);
    accs.push_back(s);
  }

  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, n, instrK);
  auto issue = [&](int64_t kk, int64_t i) {
    bool accumulate = !zeroAcc || kk > 0;
    if (aInRegisters) {
      ArrayRef<Value> a =
          ArrayRef<Value>(aRegs).slice((i * (k / instrK) + kk) * 4, 4);
      Value db = descriptor(bDesc.base, bDesc.offset(0, instrK * kk));
      accs[i] = wgmmaRegisterA(l, accs[i], a, db, n, in, !bKMajor, accumulate);
      return;
    }
    Value da =
        descriptor(aBase, aDesc->offset(64 * warpgroups * i, instrK * kk));
    Value db = descriptor(bDesc.base, bDesc.offset(0, instrK * kk));
    accs[i] = NVVM::WgmmaMmaAsyncOp::create(
        b, accType, accs[i], da, db, shape, inType, inType, accWgmmaType,
        accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
        aKMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
        bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        /*satfinite=*/nullptr);
  };
  auto extractAccs = [&] {
    for (int64_t i = 0; i < blocksM; ++i)
      for (int64_t r = 0; r < n / 2; ++r)
        acc[slotOf(i, r)] = LLVM::ExtractValueOp::create(b, accs[i], r);
  };
  // A dot_wait that is the dot's only user (maybe through a `trans` into
  // the transposed layout, which moves no register) ends its group;
  // otherwise the dot waits for it here.
  Operation *user = op->hasOneUse() ? *op->user_begin() : nullptr;
  if (auto trans = dyn_cast_or_null<TransOp>(user);
      trans && trans->hasOneUse() &&
      trans.getType().getEncoding() == layout.getTransposed())
    user = *trans->user_begin();
  bool leftInFlight = isa_and_nonnull<DotWaitOp>(user);
  int64_t steps = k / instrK;
  // A read from its stage each iteration while the previous iteration's
  // MMAs may still run: the k steps go in two groups, each one's fragments
  // loaded after the wait for the group that last read their registers
  // (the previous iteration's same half: at most one group, the other half,
  // stays in flight). With one k step, the MMAs end here.
  int64_t groups = aFromStage && leftInFlight && steps > 1 ? 2 : 1;
  // In turns (turnRuns): a warpgroup's turn begins with the first dot of a
  // run, once the other's ended, and ends after the last dot's MMAs are
  // issued, so that one's softmax runs beside the other's MMAs.
  auto [beginsTurn, endsTurn] = turnPlace(op);
  if (beginsTurn)
    NVVM::BarrierOp::create(b, /*res=*/Type(), turnBarrier(l, 0),
                            l.i32(kTurnThreads), /*reductionOp=*/nullptr,
                            /*reductionPredicate=*/Value());
  for (int64_t g = 0; g < groups; ++g) {
    int64_t first = steps * g / groups, last = steps * (g + 1) / groups;
    if (aFromStage)
      for (int64_t kk = first; kk < last; ++kk) {
        Slots part = loadMmaFragments(l, aType, aFromStage->tile,
                                      aFromStage->pointer, kk);
        for (int64_t i = 0; i < blocksM; ++i)
          for (int64_t r = 0; r < 4; ++r)
            aRegs[(i * steps + kk) * 4 + r] = part[(i * steps + kk) * 4 + r];
      }
    NVVM::WgmmaFenceAlignedOp::create(b);
    for (int64_t kk = first; kk < last; ++kk)
      for (int64_t i = 0; i < blocksM; ++i)
        issue(kk, i);
    NVVM::WgmmaGroupSyncAlignedOp::create(b);
    if (g + 1 == groups)
      break;
    extractAccs();
    acc = waitForGroups(l, 1, acc);
    for (int64_t i = 0; i < blocksM; ++i)
      for (int64_t r = 0; r < n / 2; ++r)
        accs[i] = LLVM::InsertValueOp::create(b, accs[i], acc[slotOf(i, r)], r);
  }
  if (endsTurn)
    NVVM::BarrierArriveOp::create(b, turnBarrier(l, 1), l.i32(kTurnThreads));
  extractAccs();
  if (!leftInFlight || (aFromStage && groups == 1))
    acc = waitForGroups(l, 0, acc);
  l.map(op, acc);
  return success();
}

LogicalResult lowerDotWait(DotWaitOp op, LoweringContext &l) {
  Slots all;
  for (Value acc : op.getAccs())
    llvm::append_range(all, l.lookup(acc));
  Slots waited = waitForGroups(l, op.getPending(), all);
  if (op.getSynchronize())
    gpu::BarrierOp::create(l.builder());
  ArrayRef<Value> rest = waited;
  for (auto [acc, result] : llvm::zip(op.getAccs(), op.getResults())) {
    size_t count = l.lookup(acc).size();
    l.map(result, Slots(rest.take_front(count)));
    rest = rest.drop_front(count);
  }
  return success();
}

} // namespace

void tile::beginTurns(LoweringContext &l) {
  bool turns = false;
  l.getKernel().walk(
      [&](scf::ForOp loop) { turns |= !turnRuns(*loop.getBody()).empty(); });
  if (!turns)
    return;
  // Warpgroup 0 takes the first turn: warpgroup 1 (not a producer's warps)
  // arrives on warpgroup 0's barrier as if it had ended a turn.
  ImplicitLocOpBuilder &b = l.builder();
  Value second = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq,
      arith::DivUIOp::create(b, l.thread(), l.i32(128)), l.i32(1));
  l.emitIf(second, [&] {
    NVVM::BarrierArriveOp::create(b, l.i32(kTurnBarrier), l.i32(kTurnThreads));
  });
}

void tile::populateWgmmaLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerWgmmaDot, /*benefit=*/2, isWgmmaDot);
  patterns.add(lowerDotWait);
}
