//===- KernelLowering.h - one tile.kernel to one gpu.func --------*- C++
//-*-===//
//
// Shared state of convert-tile-to-gpu while it lowers one kernel: the map from
// each tile value to the scalar values one thread holds for it (its slots, in
// the order Distribution defines), the thread's coordinates, and the kernel's
// shared-memory scratch buffer. The op lowerings are split by topic:
// KernelLowering.cpp (structure, control flow, elementwise math),
// LowerMemory.cpp (loads and stores), LowerCommunication.cpp (reductions,
// layout conversions, transposes and dot through shared memory).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H
#define TILE_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H

#include "Distribution.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>

namespace tile {

/// The per-thread values of one tile (one per slot).
using Slots = llvm::SmallVector<mlir::Value, 4>;

/// A 2-D tile in shared memory, row-major with chunks swizzled: chunk `c`
/// of row `r` lives at chunk `c ^ (r / perPhase % maxPhase)`, so that
/// eight consecutive rows of one 16-byte column (what `ldmatrix` reads) hit
/// eight different bank groups. Chunks are 16 bytes, 32 for tf32 B
/// fragments (see `get`).
struct SwizzledTile {
  int64_t rows, cols, elemBytes;
  /// Elements per chunk.
  int64_t vec;
  int64_t perPhase, maxPhase;
  /// The swizzle for a tile of `type`'s shape, element type and encoding.
  static SwizzledTile get(mlir::RankedTensorType type);
  /// The swizzle of one stage of a pipeline buffer: that of the fragments
  /// a `shared_load` reads from it.
  static SwizzledTile forBuffer(mlir::Value buffer);
  /// Elements one shared-memory access moves: inside one chunk, at most 16
  /// bytes.
  int64_t accessElems() const {
    return std::min<int64_t>(vec, 16 / elemBytes);
  }
  /// Consecutive slots of `dist` (2-D blocked, over this tile's columns)
  /// that one access moves: the thread's runs along the rows
  /// (sizePerThread[1] elements when dimension 1 is the fastest), up to
  /// accessElems.
  int64_t runLength(const Distribution &dist) const;
  /// Element offset of (row, col): what KernelLowering::swizzledOffset
  /// computes in the kernel (for tests of the bank mapping).
  int64_t offset(int64_t row, int64_t col) const {
    int64_t phase = row / perPhase % maxPhase;
    return row * cols + ((col / vec) ^ phase) * vec + col % vec;
  }
};

class KernelLowering {
public:
  KernelLowering(KernelOp kernel, mlir::gpu::GPUFuncOp func,
                 const ModuleAxisInfo &axisInfo, unsigned numWarps);

  /// Lowers the kernel's body into the gpu.func; reports errors on the
  /// offending op.
  mlir::LogicalResult run();
  /// Bytes of shared memory the kernel needs.
  int64_t getSharedBytes() const { return sharedBytes; }

private:
  // Structure and elementwise ops (KernelLowering.cpp).
  mlir::LogicalResult lowerBlock(mlir::Block &block);
  mlir::LogicalResult lowerOp(mlir::Operation *op);
  mlir::LogicalResult lowerFor(mlir::scf::ForOp op);
  mlir::LogicalResult lowerIf(mlir::scf::IfOp op);
  mlir::LogicalResult lowerYield(mlir::scf::YieldOp op);
  mlir::LogicalResult lowerConstant(mlir::arith::ConstantOp op);
  mlir::LogicalResult lowerMakeRange(MakeRangeOp op);
  mlir::LogicalResult lowerBroadcast(BroadcastOp op);
  mlir::LogicalResult lowerElementwise(mlir::Operation *op);
  /// One slot of an elementwise op on scalars; math on f32 is rewritten to
  /// the GPU's approximate instructions.
  mlir::FailureOr<mlir::Value> emitScalarOp(mlir::Operation *op,
                                            mlir::ValueRange operands,
                                            mlir::Type resultType);
  mlir::FailureOr<mlir::Value> emitMath(mlir::Operation *op, mlir::Value x);

  // Memory (LowerMemory.cpp).
  mlir::LogicalResult lowerLoad(LoadOp op);
  mlir::LogicalResult lowerStore(StoreOp op);
  /// Elements per vector access of a load/store through `ptr`, and whether
  /// `mask` is constant over each such group (otherwise a group moves as a
  /// vector when all its elements are enabled, element by element if not).
  std::pair<unsigned, bool> vectorWidth(mlir::Value ptr, mlir::Value mask,
                                        const Distribution &dist,
                                        mlir::Type elemType);
  /// The predicate of the group of `vec` slots from `first`: the first mask
  /// when the mask is uniform over groups, else the conjunction.
  mlir::Value groupMask(const Slots &masks, unsigned first, unsigned vec,
                        bool uniform);

  // Cross-thread communication (LowerCommunication.cpp).
  mlir::LogicalResult lowerReduce(ReduceOp op);
  mlir::LogicalResult lowerConvertLayout(mlir::Operation *op, mlir::Value src,
                                         mlir::Value result, bool transpose);
  mlir::LogicalResult lowerDot(DotOp op);

  // Tensor cores (LowerMma.cpp).
  mlir::LogicalResult lowerMmaDot(DotOp op);
  /// convert_layout into a dot-operand layout: through swizzled shared
  /// memory into mma fragments.
  mlir::LogicalResult lowerToDotOperand(mlir::Operation *op, mlir::Value src,
                                        mlir::Value result);
  /// Element offset (i32) of (row, col) in `tile`.
  mlir::Value swizzledOffset(const SwizzledTile &tile, mlir::Value row,
                             mlir::Value col);
  /// Anchors of swizzledPointer: by buffer, row, column and the residues of
  /// the deltas.
  using SwizzleAnchors = llvm::DenseMap<
      std::tuple<mlir::Value, mlir::Value, mlir::Value, int64_t, int64_t>,
      mlir::Value>;
  /// Pointer to element (row + rowDelta, col + colDelta) of `tile` at
  /// `buffer`. Deltas that are whole swizzle periods (rows: perPhase *
  /// maxPhase; columns: vec * maxPhase elements) keep the phase, so they are
  /// a constant offset from one anchor per residue, kept in `anchors`: one
  /// register per anchor rather than one per address (the offsets are
  /// often loop invariant, and LICM would keep each across the loop).
  mlir::Value swizzledPointer(const SwizzledTile &tile, mlir::Value buffer,
                              mlir::Type elemType, mlir::Value row,
                              int64_t rowDelta, mlir::Value col,
                              int64_t colDelta, SwizzleAnchors &anchors);
  /// Writes the elements of `slots` (a 2-D blocked tile) to `tile` at
  /// `buffer` (a shared-memory pointer).
  void storeSwizzled(const Slots &slots, const Distribution &dist,
                     const SwizzledTile &tile, mlir::Value buffer);
  /// Reads the elements `dist` (2-D blocked) gives this thread from `tile`
  /// at `buffer`.
  Slots loadSwizzled(const Distribution &dist, mlir::Type elemType,
                     const SwizzledTile &tile, mlir::Value buffer);
  /// Reads the mma fragments of a tile of `type` (a dot-operand layout)
  /// from the swizzled tile at `buffer`; with `onlyK` >= 0 only those of
  /// that k step (the other slots are null).
  Slots loadFragments(mlir::RankedTensorType type, mlir::Value buffer,
                      int64_t onlyK = -1);
  /// Buffers and asynchronous copies made by tile-promote-shared.
  mlir::LogicalResult lowerAsyncCopy(AsyncCopyOp op);
  mlir::LogicalResult lowerSharedLoad(SharedLoadOp op);
  /// Stage `stage` of the shared buffer `buffer` (a tile.shared_alloc).
  mlir::Value stagePointer(mlir::Value buffer, mlir::Value stage);
  mlir::Value combine(ReduceKind kind, mlir::Value lhs, mlir::Value rhs);
  mlir::Value shuffleXor(mlir::Value value, unsigned mask);
  /// Writes the elements of `slots` (distributed as `dist`) to shared memory
  /// at `base` (bytes), row-major over the tensor shape with dimensions
  /// permuted by `perm` (identity when empty); one writer per element.
  void storeShared(const Slots &slots, const Distribution &dist, int64_t base,
                   llvm::ArrayRef<unsigned> perm = {});
  /// Reads the elements `dist` gives this thread from a row-major buffer at
  /// `base`.
  Slots loadShared(const Distribution &dist, mlir::Type elemType, int64_t base);

public:
  // Helpers shared by the lowering files.
  mlir::OpBuilder &builder() { return b; }
  mlir::Value i32(int64_t value);
  mlir::Value idx(int64_t value);
  /// The thread's position along each dimension of `dist`'s layout (the
  /// coordinate of local index 0 before wrapping).
  llvm::ArrayRef<mlir::Value> threadBase(const Distribution &dist);
  /// The lane's (warp's) coordinate along each dimension of `layout`.
  llvm::ArrayRef<mlir::Value> laneCoords(BlockedEncodingAttr layout);
  llvm::ArrayRef<mlir::Value> warpCoords(BlockedEncodingAttr layout);
  /// Splits `id` into per-dimension coordinates of extents `counts`,
  /// `order[0]` fastest, once per layout (cached in `coords`), at the top of
  /// the kernel.
  llvm::ArrayRef<mlir::Value> decompose(mlir::Value id,
                                        llvm::ArrayRef<unsigned> counts,
                                        llvm::ArrayRef<unsigned> order,
                                        llvm::SmallVector<mlir::Value> &coords);
  /// The tensor coordinate (i32) that `slot` holds along each dimension.
  llvm::SmallVector<mlir::Value> coordinates(const Distribution &dist,
                                             unsigned slot);
  /// i1 that is true in exactly one thread per element of `dist` (the
  /// thread whose coordinates do not wrap); null when every thread is.
  mlir::Value ownerPredicate(const Distribution &dist);
  /// A pointer into the kernel's shared scratch space, `bytes` in; grows
  /// it to `bytes + size`. Scratch follows the buffers of
  /// tile.shared_alloc, which live for the whole kernel.
  mlir::Value sharedPointer(int64_t bytes, int64_t size);
  /// A pointer `bytes` into the kernel's shared memory.
  mlir::Value rawSharedPointer(int64_t bytes);
  /// Emits `body` under `cond` (unconditionally when cond is null).
  void emitIf(mlir::Value cond, llvm::function_ref<void()> body);
  mlir::Value lookupScalar(mlir::Value value);
  const Slots &lookup(mlir::Value value);
  void map(mlir::Value value, Slots slots);
  mlir::LLVM::LLVMPointerType globalPtrType();
  mlir::Type memoryType(mlir::Type elemType);

private:
  KernelOp kernel;
  mlir::gpu::GPUFuncOp func;
  const ModuleAxisInfo &axisInfo;
  unsigned numWarps;
  mlir::OpBuilder b;
  mlir::Location loc;
  llvm::DenseMap<mlir::Value, Slots> values;
  mlir::Value threadId, laneId, warpId;
  llvm::DenseMap<mlir::Attribute, llvm::SmallVector<mlir::Value>> laneCache,
      warpCache;
  llvm::DenseMap<mlir::Attribute, llvm::SmallVector<mlir::Value>> baseCache;
  /// Thread-invariant values (thread coordinates) are emitted before this
  /// op at the top of the kernel, so that every region can use them.
  mlir::Operation *prologueAnchor = nullptr;
  int64_t sharedBytes = 0;
  /// Bytes of shared memory the tile.shared_alloc buffers take (scratch
  /// starts there), and each buffer's offset.
  int64_t scratchBase = 0;
  llvm::DenseMap<mlir::Operation *, int64_t> bufferOffsets;
  /// shared_load results whose only user is a dot (as A or B), with their
  /// stage pointers: an mma dot loads each k step's fragments just before
  /// that step's mmas, so fewer fragment registers are live at once; an FMA
  /// dot reads its operand from the stage instead of staging it itself.
  llvm::DenseMap<mlir::Value, mlir::Value> deferredOperands;
  std::string sharedSymbol;
};

} // namespace tile

#endif // TILE_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H
