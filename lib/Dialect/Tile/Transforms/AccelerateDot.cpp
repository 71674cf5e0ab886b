//===- AccelerateDot.cpp - tensor-core layouts for dot --------------------===//
//
// Gives each `dot` that tensor cores can compute the `mma.sync` accumulator
// layout (for sm_90a warpgroup MMAs, all warps along M, each warp's rows
// those of an m64 instruction: repsPerWarp [2, 1]) and its operands the
// matching dot-operand layouts, with explicit `convert_layout` ops around it;
// tile-fuse and tile-remove-layout-conversions then move the accumulator's
// layout through the K loop and into the epilogue. A tf32 dot whose B is
// given along N, which warpgroup MMAs cannot read, is computed transposed
// (Cᵀ = Bᵀ Aᵀ) where that makes it one they can; so is an FMA dot whose A
// is given along M and B along K, which then reads its stages as NN does.
//
//===----------------------------------------------------------------------===//
#include "DefaultLayout.h"
#include "Rematerialize.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace tile {
#define GEN_PASS_DEF_TILEACCELERATEDOT
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

namespace {

/// K of one `mma.sync` instruction for inputs of `type` (0: no tensor-core
/// instruction applies).
int64_t instructionK(Type type, InputPrecision precision) {
  if (type.isF16() || type.isBF16())
    return 16;
  if (type.isInteger(8) || isFloat8(type))
    return 32;
  if (type.isF32() && precision == InputPrecision::tf32)
    return 8;
  return 0;
}

/// Splits `numWarps` over an M x N result of m16n8 instructions, keeping the
/// warp tiles as square as the shape allows; nullopt when the warps cannot
/// all get distinct instruction tiles.
std::optional<std::pair<unsigned, unsigned>> warpGrid(int64_t m, int64_t n,
                                                      unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool canM = m % (16 * wm * 2) == 0, canN = n % (8 * wn * 2) == 0;
    if (canM && (m / wm >= n / wn || !canN))
      wm *= 2;
    else if (canN)
      wn *= 2;
    else
      return std::nullopt;
  }
  return std::make_pair(wm, wn);
}

/// Adds to `dots` the dots that `value` is computed from through
/// elementwise ops and layout conversions (attention's P = exp2(S - m) fed
/// to the next dot).
void collectProducerDots(Value value, llvm::DenseSet<Operation *> &visited,
                         llvm::DenseSet<Operation *> &dots) {
  Operation *def = value.getDefiningOp();
  if (!def || !visited.insert(def).second)
    return;
  if (isa<DotOp>(def)) {
    dots.insert(def);
    return;
  }
  if (!isElementwise(def) && !isa<ConvertLayoutOp, BroadcastOp>(def))
    return;
  for (Value operand : def->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      collectProducerDots(operand, visited, dots);
}

/// The blocked layout of the 2-D load `operand` is computed from through
/// layout conversions and `trans`, and whether an odd number of `trans`
/// lies between; a null layout when it is no such load.
std::pair<BlockedEncodingAttr, bool> loadedLayout(Value operand) {
  bool transposed = false;
  while (true) {
    if (auto cvt = operand.getDefiningOp<ConvertLayoutOp>()) {
      operand = cvt.getSrc();
    } else if (auto trans = operand.getDefiningOp<TransOp>()) {
      transposed = !transposed;
      operand = trans.getSrc();
    } else {
      break;
    }
  }
  auto load = operand.getDefiningOp<LoadOp>();
  auto type = load ? dyn_cast<RankedTensorType>(load.getType()) : nullptr;
  auto layout = type ? dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding())
                     : nullptr;
  if (!layout || layout.getRank() != 2)
    return {nullptr, false};
  return {layout, transposed};
}

/// Whether the load `operand` (A: 0, B: 1) is computed from, through
/// layout conversions and `trans`, is contiguous along K; nullopt when it
/// is no load.
std::optional<bool> loadedKMajor(Value operand, unsigned opIdx) {
  auto [layout, transposed] = loadedLayout(operand);
  if (!layout)
    return std::nullopt;
  unsigned fastest =
      transposed ? 1 - layout.getOrder()[0] : layout.getOrder()[0];
  return fastest == 1 - opIdx;
}

struct AccelerateDot : tile::impl::TileAccelerateDotBase<AccelerateDot> {
  using TileAccelerateDotBase::TileAccelerateDotBase;

  /// Dots in a chain (one's result computes the next one's A): their warps
  /// all go along M, so each warp holds whole rows of the first result,
  /// which are the A fragments of the second, and A needs no shared memory.
  llvm::DenseSet<Operation *> chained;

  void runOnOperation() override {
    getOperation().walk([&](DotOp dot) {
      llvm::DenseSet<Operation *> visited, producers;
      collectProducerDots(dot.getA(), visited, producers);
      if (producers.empty())
        return;
      chained.insert(producers.begin(), producers.end());
      chained.insert(dot);
    });
    getOperation().walk([&](DotOp dot) { accelerate(dot); });
  }

  /// An 8-bit float dot that stays on CUDA cores computes on f16 copies of
  /// its operands (every 8-bit float is an f16, so the products and sums
  /// are the same); the FMA lowering has no 8-bit arithmetic.
  void widenFloat8(DotOp dot) {
    Type in = dot.getA().getType().getElementType();
    if (!isFloat8(in))
      return;
    OpBuilder b(dot);
    auto widen = [&](Value v) -> Value {
      auto type = cast<RankedTensorType>(v.getType());
      return arith::ExtFOp::create(b, dot.getLoc(), type.clone(b.getF16Type()),
                                   v);
    };
    dot.getAMutable().assign(widen(dot.getA()));
    dot.getBMutable().assign(widen(dot.getB()));
  }

  /// An FMA dot of float operands that tile-promote-shared stores
  /// transposed (A with M contiguous: [k][m]; B with K contiguous: [n][k])
  /// gets an accumulator layout that reads them as vectors: with A stored
  /// [k][m], each thread's rows consecutive (A's rows at one k are whole
  /// chunks); with B stored [n][k], one column per lane, so that the
  /// lanes' columns are consecutive rows of the stage, which the swizzle
  /// puts in different banks. Rows of an A stored [m][k] stay as they were
  /// (interleaved: the lanes' rows in different banks). The thread, warp
  /// and register counts stay those of the original layout, and so does an
  /// NN dot's layout. With both (TT) the dot is computed transposed instead
  /// (computeFmaTransposed).
  void layOutFmaDot(DotOp dot) {
    auto cType = dot.getType();
    auto layout = dyn_cast_or_null<BlockedEncodingAttr>(cType.getEncoding());
    if (!layout || layout.getRank() != 2 || layout.isMmaAccumulator() ||
        layout.getOrder()[0] != 1 || !layout.getRepsPerWarp().empty() ||
        !isa<FloatType>(dot.getA().getType().getElementType()))
      return;
    bool aMContiguous = loadedKMajor(dot.getA(), 0) == std::optional(false);
    bool bKContiguous = loadedKMajor(dot.getB(), 1) == std::optional(true);
    if (!aMContiguous && !bKContiguous)
      return;
    if (aMContiguous && bKContiguous)
      return computeFmaTransposed(dot, layout.getNumWarps());
    ArrayRef<unsigned> threads = layout.getThreadsPerWarp(),
                       warps = layout.getWarpsPerCTA();
    int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
    int64_t rowsPerCta = threads[0] * warps[0];
    int64_t rowsPerThread =
        aMContiguous ? m / rowsPerCta : layout.getSizePerThread()[0];
    int64_t colsPerThread = bKContiguous ? 1 : layout.getSizePerThread()[1];
    // Tiles smaller than the layout's (wrapping) keep it.
    if (rowsPerThread == 0 || m % (rowsPerThread * rowsPerCta) != 0 ||
        n % (colsPerThread * threads[1] * warps[1]) != 0)
      return;
    auto fma = BlockedEncodingAttr::get(&getContext(),
                                        {static_cast<unsigned>(rowsPerThread),
                                         static_cast<unsigned>(colsPerThread)},
                                        threads, warps, layout.getOrder());
    if (fma == layout)
      return;
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    Value c = ConvertLayoutOp::create(b, loc, cType.cloneWithEncoding(fma),
                                      dot.getAcc());
    auto laidOut =
        DotOp::create(b, loc, cType.cloneWithEncoding(fma), dot.getA(),
                      dot.getB(), c, dot.getPrecisionAttr());
    Value back = ConvertLayoutOp::create(b, loc, cType, laidOut);
    dot.replaceAllUsesWith(back);
    dot.erase();
  }

  /// Replaces `dot` by trans(dot(trans(B), trans(A), trans(C))), every
  /// `trans` into the transposed layout (free: each thread keeps its
  /// elements), C first converted to `accLayout` where one is given, and
  /// returns the inner dot, whose accumulator layout is `accLayout`'s
  /// transpose (else C's).
  DotOp transposeDot(DotOp dot, BlockedEncodingAttr accLayout = {}) {
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    auto trans = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      auto layout = cast<BlockedEncodingAttr>(type.getEncoding());
      return TransOp::create(
          b, loc,
          RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                type.getElementType(), layout.getTransposed()),
          value);
    };
    Value acc = dot.getAcc();
    if (accLayout)
      acc = ConvertLayoutOp::create(
          b, loc, dot.getType().cloneWithEncoding(accLayout), acc);
    // One statement each: the order of the ops must not depend on the
    // compiler's order of evaluating arguments.
    Value c = trans(acc);
    Value a = trans(dot.getA());
    Value bt = trans(dot.getB());
    auto transposed =
        DotOp::create(b, loc, c.getType(), bt, a, c, dot.getPrecisionAttr());
    Value result = trans(transposed);
    if (accLayout)
      result = ConvertLayoutOp::create(b, loc, dot.getType(), result);
    dot.replaceAllUsesWith(result);
    dot.erase();
    return transposed;
  }

  /// Computes `dot` as Cᵀ = Bᵀ Aᵀ (see transposeDot) and accelerates the
  /// inner dot.
  void computeTransposed(DotOp dot) { accelerate(transposeDot(dot)); }

  /// An FMA dot with A stored [k][m] and B stored [n][k] (TT) computed as
  /// Cᵀ = Bᵀ Aᵀ, which reads Bᵀ stored [n][k] as its A and Aᵀ stored [k][m]
  /// as its B: an NN dot, on the layout tile-coalesce gives an NN kernel's
  /// dot (that of its A's load, K-contiguous, as wide as B's here). TT's own
  /// layout (consecutive rows, one column per lane) ran 0.83x of NN
  /// (bench/NOTES.md v35b).
  /// `numWarps`: the kernel's, which its accumulator layout spans.
  void computeFmaTransposed(DotOp dot, unsigned numWarps) {
    // B is loaded along K (the caller's check), so it comes from a load.
    BlockedEncodingAttr bLayout = loadedLayout(dot.getB()).first;
    int64_t n = dot.getType().getDimSize(1),
            k = dot.getA().getType().getDimSize(1);
    unsigned vec = bLayout.getSizePerThread()[bLayout.getOrder()[0]];
    BlockedEncodingAttr nnLayout =
        defaultBlocked(&getContext(), {n, k}, {1, vec}, {1, 0}, numWarps);
    transposeDot(dot, nnLayout.getTransposed());
  }

  void accelerate(DotOp dot) {
    auto aType = dot.getA().getType(), bType = dot.getB().getType();
    auto cType = dot.getType();
    auto cLayout = dyn_cast_or_null<BlockedEncodingAttr>(cType.getEncoding());
    if (!cLayout || cLayout.isMmaAccumulator() ||
        !isa_and_nonnull<BlockedEncodingAttr>(aType.getEncoding()) ||
        !isa_and_nonnull<BlockedEncodingAttr>(bType.getEncoding()))
      return;
    Type in = aType.getElementType(), acc = cType.getElementType();
    int64_t k = aType.getDimSize(1), m = cType.getDimSize(0),
            n = cType.getDimSize(1);
    int64_t instrK = instructionK(in, dot.getPrecision());
    bool accOk = in.isInteger(8) ? acc.isInteger(32)
                                 : acc.isF32() || (acc.isF16() && in.isF16());
    if (!instrK || !accOk || m % 16 != 0 || n % 8 != 0 || k % instrK != 0) {
      widenFloat8(dot);
      return layOutFmaDot(dot);
    }
    auto kernel = dot->getParentOfType<KernelOp>();
    auto numWarps = kernel->getAttrOfType<IntegerAttr>(
        TileDialect::NumWarpsAttrHelper::getNameStr());
    if (!numWarps)
      return;
    unsigned warps = numWarps.getInt();
    std::optional<std::pair<unsigned, unsigned>> grid;
    // Warpgroup MMAs need A as loaded (before the conversions tile-coalesce
    // adds) to be a blocked tile that tile-promote-shared can stage.
    Value aSource = dot.getA();
    while (auto cvt = aSource.getDefiningOp<ConvertLayoutOp>())
      aSource = cvt.getSrc();
    bool aBlocked = isa_and_nonnull<BlockedEncodingAttr>(
        cast<RankedTensorType>(aSource.getType()).getEncoding());
    std::optional<bool> aKMajor = loadedKMajor(dot.getA(), 0);
    std::optional<bool> bKMajor = loadedKMajor(dot.getB(), 1);
    bool wgmmaOrder = isWgmmaOperandOrder(in, aKMajor.value_or(false),
                                          bKMajor.value_or(false));
    // Warpgroup MMAs read no 32-bit B stored along N; as Cᵀ = Bᵀ Aᵀ, Bᵀ
    // is an A they read in registers and a K-major A the K-major B.
    if (wgmma && aBlocked && !wgmmaOrder && !chained.contains(dot) &&
        bKMajor == std::optional(false) &&
        isWgmmaOperandOrder(in, false, aKMajor.value_or(false)) &&
        fitsWgmma(n, m, k, in, acc, warps))
      return computeTransposed(dot);
    // TN: tile-promote-shared stores B K-major through registers.
    bool copiedOrder =
        aKMajor && bKMajor &&
        isWgmmaOrderByTransposingCopy(in, *aKMajor, *bKMajor, k, n, warps);
    if ((chained.contains(dot) && m % (16 * warps) == 0) ||
        (wgmma && aBlocked && (wgmmaOrder || copiedOrder) &&
         fitsWgmma(m, n, k, in, acc, warps)))
      grid = std::make_pair(warps, 1u);
    else
      grid = warpGrid(m, n, warps);
    if (!grid) {
      widenFloat8(dot);
      return layOutFmaDot(dot);
    }
    MLIRContext *ctx = &getContext();
    // For warpgroup MMAs, each warp's rows are the 16 an m64 instruction
    // gives it (repsPerWarp [2, 1]), so that A is read in order.
    SmallVector<unsigned> reps;
    if (wgmma && grid->second == 1 && m % (16 * warps) == 0)
      reps = {2, 1};
    auto mma = BlockedEncodingAttr::get(
        ctx, {1, 2}, {8, 4}, {grid->first, grid->second}, {1, 0}, reps);
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    Value a = ConvertLayoutOp::create(
        b, loc,
        aType.cloneWithEncoding(DotOperandEncodingAttr::get(ctx, 0, mma)),
        dot.getA());
    Value bv = ConvertLayoutOp::create(
        b, loc,
        bType.cloneWithEncoding(DotOperandEncodingAttr::get(ctx, 1, mma)),
        dot.getB());
    Value c = ConvertLayoutOp::create(b, loc, cType.cloneWithEncoding(mma),
                                      dot.getAcc());
    auto fast = DotOp::create(b, loc, cType.cloneWithEncoding(mma), a, bv, c,
                              dot.getPrecisionAttr());
    Value back = ConvertLayoutOp::create(b, loc, cType, fast);
    dot.replaceAllUsesWith(back);
    dot.erase();
  }
};

} // namespace
