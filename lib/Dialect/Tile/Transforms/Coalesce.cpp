//===- Coalesce.cpp - blocked layouts for coalesced memory access ---------===//
#include "DefaultLayout.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tile {
#define GEN_PASS_DEF_TILECOALESCE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile

using namespace mlir;
using namespace tile;

BlockedEncodingAttr
tile::defaultBlocked(MLIRContext *context, ArrayRef<int64_t> shape,
                     ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> order,
                     unsigned numWarps, unsigned fastestLanes) {
  unsigned rank = shape.size();
  SmallVector<unsigned> threads(rank, 1), warps(rank, 1);
  unsigned lanesLeft = 32, warpsLeft = numWarps;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    unsigned dim = order[i];
    int64_t room = std::max<int64_t>(1, shape[dim] / sizePerThread[dim]);
    unsigned lanes = i == 0 ? std::min(lanesLeft, fastestLanes) : lanesLeft;
    threads[dim] = static_cast<unsigned>(std::clamp<int64_t>(room, 1, lanes));
    room = std::max<int64_t>(1, room / threads[dim]);
    if (i == 0 && fastestLanes < 32)
      room = 1;
    warps[dim] = static_cast<unsigned>(std::clamp<int64_t>(room, 1, warpsLeft));
    lanesLeft /= threads[dim];
    warpsLeft /= warps[dim];
  }
  threads[order[rank - 1]] = lanesLeft;
  warps[order[rank - 1]] = warpsLeft;
  return BlockedEncodingAttr::get(context, sizePerThread, threads, warps, order);
}

namespace {

/// Dimensions from fastest- to slowest-varying for accesses through `ptr`:
/// by decreasing contiguity, the last dimension first among equals.
SmallVector<unsigned> accessOrder(const AxisInfo &info) {
  SmallVector<unsigned> order;
  for (unsigned d = info.getRank(); d-- > 0;)
    order.push_back(d);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.getContiguity(a) > info.getContiguity(b);
  });
  return order;
}

/// True when every use of `v`, followed through `trans`, is a dot's A or B
/// operand for which `accept(dot, operand number, dim)` holds, with `dim`
/// the dimension of the dot's operand that `v`'s dimension `dim` becomes
/// (each `trans` swaps them).
bool allDotOperandUses(Value v, unsigned dim,
                       function_ref<bool(DotOp, unsigned, unsigned)> accept) {
  return llvm::all_of(v.getUses(), [&](OpOperand &use) {
    if (auto trans = dyn_cast<TransOp>(use.getOwner()))
      return allDotOperandUses(trans.getResult(), 1 - dim, accept);
    auto dot = dyn_cast<DotOp>(use.getOwner());
    return dot && use.getOperandNumber() < 2 &&
           accept(dot, use.getOperandNumber(), dim);
  });
}

/// True when `op` is a load whose tile is only an operand of dots (A or B,
/// possibly through `trans`): tile-promote-shared copies it into shared
/// memory, so its layout sets only the width of those copies.
bool onlyFeedsDots(Operation *op) {
  auto load = dyn_cast<LoadOp>(op);
  return load && !load.getResult().use_empty() &&
         allDotOperandUses(load.getResult(), 0,
                           [](DotOp, unsigned, unsigned) { return true; });
}

/// True when `op` (a load that only feeds dots) feeds f32 dots that run on
/// FMA units (precision ieee) and its dimension `dim` is their K: A's
/// dimension 1, B's 0.
bool isFmaReductionDim(Operation *op, unsigned dim) {
  return allDotOperandUses(
      op->getResult(0), dim, [](DotOp dot, unsigned operand, unsigned d) {
        return dot.getPrecision() == InputPrecision::ieee &&
               cast<RankedTensorType>(dot.getA().getType())
                   .getElementType()
                   .isF32() &&
               d == (operand == 0 ? 1u : 0u);
      });
}

struct Coalesce : tile::impl::TileCoalesceBase<Coalesce> {
  using TileCoalesceBase::TileCoalesceBase;

  void runOnOperation() override {
    if (numWarps == 0 || (numWarps & (numWarps - 1)) != 0) {
      getOperation().emitError("num-warps must be a power of two, got ")
          << static_cast<unsigned>(numWarps);
      return signalPassFailure();
    }
    ModuleAxisInfo axisInfo(getOperation());
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      runOnKernel(kernel, axisInfo);
  }

  /// The layout a load or store through `ptr` wants, and how many bits each
  /// thread moves at once.
  std::pair<BlockedEncodingAttr, int64_t>
  layoutFor(Value ptr, const ModuleAxisInfo &info) {
    auto type = cast<RankedTensorType>(ptr.getType());
    AxisInfo facts = info.get(ptr);
    SmallVector<unsigned> order = accessOrder(facts);
    unsigned fastest = order[0];
    auto ptrType = cast<PointerType>(type.getElementType());
    int64_t elemBits = std::max<int64_t>(8, ptrType.getPointeeType().getIntOrFloatBitWidth());
    int64_t elemBytes = elemBits / 8;
    int64_t alignedElems = std::max<int64_t>(1, facts.getDivisibility(fastest) / elemBytes);
    int64_t vec = std::min({facts.getContiguity(fastest), alignedElems,
                            128 / elemBits});
    int64_t perThreadElems = std::max<int64_t>(
        1, type.getNumElements() / (32 * int64_t(numWarps)));
    vec = std::max<int64_t>(1, std::min(vec, perThreadElems));
    SmallVector<unsigned> sizePerThread(type.getRank(), 1);
    sizePerThread[fastest] = static_cast<unsigned>(vec);
    return {defaultBlocked(&getContext(), type.getShape(), sizePerThread, order,
                           numWarps),
            vec * elemBits};
  }

  /// For a dot operand's load (copied into shared memory) whose own layout
  /// `own` (layoutFor's, moving `accessBits` per thread) would give a
  /// thread more than kMaxCopyRows rows: the layout whose warp lanes cover
  /// one 128-byte line per row instead of the whole row, all warps along
  /// rows. The same lines per access, but fewer rows per thread, each
  /// reached at constant offsets from one address (f32 tiles with 64-wide K
  /// kept 16 64-bit row addresses per operand live through the K loop and
  /// spilled). Accesses narrower than a word (8- and 16-bit elements of rows
  /// aligned only to the element) are copied synchronously, and one access
  /// a lane along a row is already a line: those take runs of accesses a
  /// thread along the row instead (elementRunsLayout). 4-byte accesses
  /// (cp.async's smallest) take runs only along the K of an f32 dot on FMA
  /// units (at 4095³: NT 29.1 -> 38.8 TFLOP/s, TT 36.3 -> 37.8, NN
  /// unchanged); elsewhere they keep their lanes along the row: runs
  /// removed tf32's spills but made it 5-20% slower, a warp's copies spread
  /// over more lines, and f32 TN 8% slower (bench/NOTES.md v47). `own`
  /// otherwise.
  BlockedEncodingAttr fewRowsLayout(Operation *op, BlockedEncodingAttr own,
                                    int64_t accessBits,
                                    ArrayRef<int64_t> shape) {
    if (rowsPerThread(own, shape) <= kMaxCopyRows)
      return own;
    if (accessBits < 32 ||
        (accessBits == 32 && isFmaReductionDim(op, own.getOrder()[0])))
      return elementRunsLayout(own, accessBits, shape);
    unsigned lineLanes =
        static_cast<unsigned>(std::max<int64_t>(1, 1024 / accessBits));
    return defaultBlocked(&getContext(), shape, own.getSizePerThread(),
                          own.getOrder(), numWarps, lineLanes);
  }

  /// `own` with the shortest run of elements a thread along the fastest
  /// dimension, up to 16 bytes, that leaves at most kMaxCopyRows rows a
  /// thread. One element a lane, a 128 x 32 f16 tile left each thread 32
  /// rows (32 row addresses) and spilled; longer runs than needed spread a
  /// warp's loads over more sectors: 4095³ f16 x @ W.T, 128x128x32 tiles,
  /// 130 TFLOP/s with runs of 8, 176 with 4; 128x256x64, 175 with 8, 148
  /// with 4 (bench/NOTES.md v47).
  BlockedEncodingAttr elementRunsLayout(BlockedEncodingAttr own,
                                        int64_t accessBits,
                                        ArrayRef<int64_t> shape) {
    unsigned fastest = own.getOrder()[0];
    // Elements of one access (two i8 of a 2-byte-aligned row) times up to
    // 16 bytes of accesses.
    int64_t access = own.getSizePerThread()[fastest];
    int64_t maxRun =
        std::min<int64_t>(access * (128 / accessBits), shape[fastest]);
    BlockedEncodingAttr runs = own;
    for (int64_t run = 2 * access; run <= maxRun; run *= 2) {
      SmallVector<unsigned> sizePerThread(own.getSizePerThread());
      sizePerThread[fastest] = static_cast<unsigned>(run);
      runs = defaultBlocked(&getContext(), shape, sizePerThread, own.getOrder(),
                            numWarps);
      if (rowsPerThread(runs, shape) <= kMaxCopyRows)
        break;
    }
    return runs;
  }

  /// Rows of a copy (positions along every dimension but the fastest) beyond
  /// which a thread's row addresses crowd the registers of a K loop.
  static constexpr int64_t kMaxCopyRows = 8;

  /// How many positions along the dimensions other than the fastest one
  /// thread of `layout` holds in a tile of `shape`.
  static int64_t rowsPerThread(BlockedEncodingAttr layout,
                               ArrayRef<int64_t> shape) {
    int64_t rows = 1;
    for (unsigned d = 1; d < shape.size(); ++d) {
      unsigned dim = layout.getOrder()[d];
      int64_t cover = int64_t(layout.getSizePerThread()[dim]) *
                      layout.getThreadsPerWarp()[dim] *
                      layout.getWarpsPerCTA()[dim];
      rows *= std::max<int64_t>(1, shape[dim] / cover) *
              layout.getSizePerThread()[dim];
    }
    return rows;
  }

  void runOnKernel(KernelOp kernel, const ModuleAxisInfo &info) {
    MLIRContext *context = &getContext();
    kernel->setAttr(TileDialect::NumWarpsAttrHelper::getNameStr(),
                    IntegerAttr::get(IntegerType::get(context, 32), numWarps));

    // 1. Per rank, the layout of the widest memory access of that rank.
    DenseMap<unsigned, std::pair<BlockedEncodingAttr, int64_t>> chosen;
    llvm::MapVector<Operation *, BlockedEncodingAttr> wanted;
    // Dot operands' loads given fewer rows per thread than their own
    // layout would have (fewRowsLayout).
    llvm::SmallPtrSet<Operation *, 4> rowCapped;
    kernel.walk([&](Operation *op) {
      Value ptr;
      if (auto load = dyn_cast<LoadOp>(op))
        ptr = load.getPtr();
      else if (auto store = dyn_cast<StoreOp>(op))
        ptr = store.getPtr();
      // Rank-0 tensors (possible through upstream arith ops) have no layout.
      auto ptrType = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
      if (!ptrType || ptrType.getRank() == 0)
        return;
      auto candidate = layoutFor(ptr, info);
      wanted[op] = candidate.first;
      if (onlyFeedsDots(op)) {
        BlockedEncodingAttr fewRows = fewRowsLayout(
            op, candidate.first, candidate.second, ptrType.getShape());
        if (fewRows != candidate.first) {
          wanted[op] = fewRows;
          rowCapped.insert(op);
        }
      }
      unsigned rank = cast<RankedTensorType>(ptr.getType()).getRank();
      // Among the widest, a row-major access: transposed accesses get
      // layouts of their own below.
      auto rowMajor = [](BlockedEncodingAttr layout) {
        return layout.getOrder()[0] == layout.getRank() - 1;
      };
      auto it = chosen.find(rank);
      if (it == chosen.end() || candidate.second > it->second.second ||
          (candidate.second == it->second.second &&
           rowMajor(candidate.first) && !rowMajor(it->second.first)))
        chosen[rank] = candidate;
    });

    // 2. Ranks without memory accesses: a default layout sized for the
    // largest tile of that rank.
    DenseMap<unsigned, RankedTensorType> largest;
    auto visitType = [&](Type t) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor || tensor.getEncoding() || tensor.getRank() == 0)
        return;
      auto &best = largest[tensor.getRank()];
      if (!best || tensor.getNumElements() > best.getNumElements())
        best = tensor;
    };
    kernel.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        visitType(t);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            visitType(arg.getType());
    });
    for (auto &[rank, type] : largest) {
      if (chosen.count(rank))
        continue;
      SmallVector<unsigned> order;
      for (unsigned d = rank; d-- > 0;)
        order.push_back(d);
      chosen[rank] = {defaultBlocked(context, type.getShape(),
                                     SmallVector<unsigned>(rank, 1), order,
                                     numWarps),
                      0};
    }

    // 3. Every tile of a rank takes that rank's layout.
    auto encode = [&](Value v) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || tensor.getEncoding() || tensor.getRank() == 0)
        return;
      auto newType = tensor.cloneWithEncoding(chosen[tensor.getRank()].first);
      v.setType(newType);
      if (auto constant = v.getDefiningOp<arith::ConstantOp>())
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(newType));
    };
    kernel.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            encode(arg);
      for (Value result : op->getResults())
        encode(result);
    });

    // 4. An access whose memory order differs from its rank's layout (a
    // tile read along columns, such as B given N x K) gets a layout of its
    // own, as in Triton's coalescing: its operands are converted in and a
    // loaded value back out; remove-layout-conversions then computes the
    // addresses in the access's layout rather than moving them. So does a
    // dot operand's load that moves more elements at once in its own layout
    // (i8 operands in a kernel of i32 tiles: 16 per copy, not 4) or whose
    // own layout would leave its threads too many rows (fewRowsLayout;
    // measured: where the cap changes nothing, an f32 A of
    // 256x32 is copied faster in the kernel's layout than in its own).
    OpBuilder builder(context);
    for (auto &[op, layout] : wanted) {
      auto ptrType = cast<RankedTensorType>(op->getOperand(0).getType());
      // Input that already had layouts (not a blocked one here) is kept.
      auto current =
          dyn_cast_or_null<BlockedEncodingAttr>(ptrType.getEncoding());
      if (!current || current.getRank() != layout.getRank())
        continue;
      unsigned fastest = layout.getOrder()[0];
      bool wider = layout.getSizePerThread()[fastest] >
                   current.getSizePerThread()[fastest];
      if (current.getOrder()[0] == fastest && !(wider && onlyFeedsDots(op)) &&
          !(rowCapped.contains(op) && layout != current))
        continue;
      builder.setInsertionPoint(op);
      for (OpOperand &operand : op->getOpOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        if (!type)
          continue;
        operand.set(ConvertLayoutOp::create(builder, op->getLoc(),
                                            type.cloneWithEncoding(layout),
                                            operand.get()));
      }
      builder.setInsertionPointAfter(op);
      for (Value result : op->getResults()) {
        auto type = cast<RankedTensorType>(result.getType());
        result.setType(type.cloneWithEncoding(layout));
        auto back =
            ConvertLayoutOp::create(builder, op->getLoc(), type, result);
        result.replaceAllUsesExcept(back, back);
      }
    }

    // 5. Layout changes at rank changes, made explicit.
    kernel.walk([&](ExpandDimsOp op) {
      auto resultLayout = cast<BlockedEncodingAttr>(op.getType().getEncoding());
      auto srcType = op.getSrc().getType();
      auto want = RankedTensorType::get(
          srcType.getShape(), srcType.getElementType(),
          SliceEncodingAttr::get(context, op.getAxis(), resultLayout));
      if (srcType == want)
        return;
      builder.setInsertionPoint(op);
      Value converted = ConvertLayoutOp::create(builder, op.getLoc(), want, op.getSrc());
      op.getSrcMutable().assign(converted);
    });
    // Reductions (builtin and generic) produce the slice of their source's
    // layout, converted to what their users were given.
    kernel.walk([&](Operation *op) {
      std::optional<unsigned> axis = getReducedAxis(op);
      if (!axis)
        return;
      Value result = op->getResult(0);
      auto resultType = dyn_cast<RankedTensorType>(result.getType());
      if (!resultType)
        return; // A scalar result has no layout.
      auto srcLayout = cast<BlockedEncodingAttr>(
          cast<RankedTensorType>(op->getOperand(0).getType()).getEncoding());
      auto natural = RankedTensorType::get(
          resultType.getShape(), resultType.getElementType(),
          SliceEncodingAttr::get(context, *axis, srcLayout));
      result.setType(natural);
      builder.setInsertionPointAfter(op);
      auto converted =
          ConvertLayoutOp::create(builder, op->getLoc(), resultType, result);
      result.replaceAllUsesExcept(converted, converted);
    });
  }
};

} // namespace
