//===- LoweringContext.h - convert-tile-to-gpu's units and state -*- C++
//-*-===//
//
// convert-tile-to-gpu lowers one tile.kernel at a time into a gpu.func in
// which every tile is the scalars one thread holds (its slots, in the order
// Distribution defines). The op lowerings come in topic units that each
// register theirs in a LoweringPatternSet (the populate functions below, one
// per file); a new lowering, such as another dot instruction, is a new unit.
// The LoweringContext is what the units share: the slots of each lowered
// value, the builder, the thread's coordinates and the kernel's shared
// memory.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_CONVERSION_TILETOGPU_LOWERINGCONTEXT_H
#define TILE_LIB_CONVERSION_TILETOGPU_LOWERINGCONTEXT_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToGPU/LayoutMath.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

namespace tile {

/// The per-thread values of one tile (one per slot).
using Slots = llvm::SmallVector<mlir::Value, 4>;

/// True for tiles held as mma fragments (a `#tile.dot_operand` layout).
inline bool isDotOperand(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor &&
         llvm::isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding());
}

class LoweringContext;
/// Emits the code one thread runs for an op.
using LowerFn =
    std::function<mlir::LogicalResult(mlir::Operation *, LoweringContext &)>;

/// One way to lower ops of one name, where `match` holds.
struct OpLowering {
  std::function<bool(mlir::Operation *)> match;
  LowerFn lower;
  unsigned benefit;
};

/// The lowerings of convert-tile-to-gpu, by op name; arith and math ops
/// without one of their own fall back to their dialect's.
class LoweringPatternSet {
public:
  /// Lowers OpTy with `lower` where `match` holds (always when null); of the
  /// lowerings that match an op, the highest benefit wins.
  template <typename OpTy>
  void add(mlir::LogicalResult (*lower)(OpTy, LoweringContext &),
           unsigned benefit = 1, bool (*match)(OpTy) = nullptr) {
    auto &list = byName[OpTy::getOperationName()];
    list.push_back({[match](mlir::Operation *op) {
                      return !match || match(llvm::cast<OpTy>(op));
                    },
                    [lower](mlir::Operation *op, LoweringContext &l) {
                      return lower(llvm::cast<OpTy>(op), l);
                    },
                    benefit});
    llvm::stable_sort(list, [](const OpLowering &x, const OpLowering &y) {
      return x.benefit > y.benefit;
    });
  }
  /// Lowers the ops of `dialect` that have no lowering by name.
  void addDialect(llvm::StringRef dialect,
                  mlir::LogicalResult (*lower)(mlir::Operation *,
                                               LoweringContext &)) {
    byDialect[dialect] = lower;
  }
  /// The lowering of `op`; null when none applies.
  const LowerFn *find(mlir::Operation *op) const;

private:
  llvm::StringMap<llvm::SmallVector<OpLowering, 1>> byName;
  llvm::StringMap<LowerFn> byDialect;
};

/// Constants, ranges, splats, broadcasts, pointer arithmetic, program ids,
/// control flow and elementwise arith/math (LowerElementwise.cpp).
void populateElementwiseLowerings(LoweringPatternSet &patterns);
/// Loads, stores, and the shared-memory pipeline ops of tile-promote-shared
/// (LowerMemory.cpp).
void populateMemoryLowerings(LoweringPatternSet &patterns);
/// Reductions, layout conversions, expand_dims and transposes: data other
/// threads hold (LowerCommunication.cpp).
void populateCommunicationLowerings(LoweringPatternSet &patterns);
/// `dot` on blocked layouts with FMAs (LowerFmaDot.cpp).
void populateFmaDotLowerings(LoweringPatternSet &patterns);
/// `dot` on `mma.sync` fragments, and the conversions and shared loads into
/// them (LowerMma.cpp).
void populateMmaLowerings(LoweringPatternSet &patterns);
/// True for a conversion of a 16-bit mma accumulator tile into the A
/// operand of a dot whose warps are the same and all along M: each thread
/// already holds the elements of its A fragments, which are re-packed in
/// registers (LowerMma.cpp).
bool isAccumulatorAsA(ConvertLayoutOp op);
/// `dot` on sm_90a warpgroup MMAs from stages stored for them
/// (LowerWgmma.cpp).
void populateWgmmaLowerings(LoweringPatternSet &patterns);
/// The Tensor Memory Accelerator's copies and their mbarriers
/// (LowerTma.cpp).
void populateTmaLowerings(LoweringPatternSet &patterns);

/// Named barriers (`bar.sync id, threads`) besides the block's (id 0): the
/// kernel's own warps after a producer's branch, and two warpgroups taking
/// turns over their MMAs (ids kTurnBarrier + 0 and + 1, kTurnThreads
/// threads: both warpgroups).
constexpr int64_t kTurnBarrier = 1, kKernelWarpsBarrier = 3, kTurnThreads = 256;

/// Makes the block barriers after `branch` (the branch a producer's warps
/// take, which never return) and in its other arm barriers of the
/// kernel's `threads` own threads (kKernelWarpsBarrier): a block barrier
/// would wait for the producer's threads, which may be waiting for the
/// kernel's warps to release a stage (LowerTma.cpp).
void nameBarriersAfterProducer(mlir::Operation *branch, int64_t threads);

/// Where the dots of a kernel's loops take turns (two warpgroups issuing
/// their runs of MMAs one after the other), lets warpgroup 1 arrive on
/// warpgroup 0's barrier so that 0 takes the first turn; nothing
/// otherwise (LowerWgmma.cpp).
void beginTurns(LoweringContext &l);

/// The state of lowering one kernel, shared by the units.
class LoweringContext {
public:
  LoweringContext(KernelOp kernel, mlir::gpu::GPUFuncOp func,
                  const ModuleAxisInfo &axisInfo,
                  const LoweringPatternSet &patterns);

  /// Lowers the kernel's body into the gpu.func; reports errors on the
  /// offending op.
  mlir::LogicalResult run();
  /// Lowers the ops of `from` (a region's body) at the end of `to`, in place
  /// of its terminator.
  mlir::LogicalResult lowerBlockInto(mlir::Block &from, mlir::Block *to);
  /// The combiner region of a generic reduce or scan applied to the
  /// scalars `x` and `y`: its ops lowered at the insertion point with its
  /// arguments bound to them.
  mlir::FailureOr<mlir::Value> applyCombiner(mlir::Region &combiner,
                                             mlir::Value x, mlir::Value y);
  /// Bytes of shared memory the kernel needs.
  int64_t getSharedBytes() const { return sharedBytes; }

  /// The builder, at the location of the op being lowered.
  mlir::ImplicitLocOpBuilder &builder() { return b; }
  const ModuleAxisInfo &getAxisInfo() const { return axisInfo; }
  /// The gpu.func being built and the kernel it lowers.
  mlir::gpu::GPUFuncOp getFunc() const { return func; }
  KernelOp getKernel() const { return kernel; }
  mlir::Value getLaneId() const { return laneId; }

  mlir::Value i32(int64_t value);
  mlir::Value lookupScalar(mlir::Value value);
  const Slots &lookup(mlir::Value value);
  void map(mlir::Value value, Slots slots);

  /// The thread's position along each dimension of `dist`'s layout (the
  /// coordinate of local index 0 before wrapping).
  llvm::ArrayRef<mlir::Value> threadBase(const Distribution &dist);
  /// The lane's (warp's) coordinate along each dimension of `layout`.
  llvm::ArrayRef<mlir::Value> laneCoords(BlockedEncodingAttr layout);
  llvm::ArrayRef<mlir::Value> warpCoords(BlockedEncodingAttr layout);
  /// The tensor coordinate (i32) that `slot` holds along each dimension.
  llvm::SmallVector<mlir::Value> coordinates(const Distribution &dist,
                                             unsigned slot);
  /// i1 that is true in exactly one thread per element of `dist` (the
  /// thread whose coordinates do not wrap); null when every thread is.
  mlir::Value ownerPredicate(const Distribution &dist);

  /// A pointer into the kernel's shared scratch space, `bytes` in; grows
  /// it to `bytes + size`. Scratch follows the tile.shared_alloc buffers
  /// live at the kernel-body op being lowered (after a pipelined loop, the
  /// epilogue's scratch takes its stages' bytes).
  mlir::Value sharedPointer(int64_t bytes, int64_t size);
  /// A pointer `bytes` into the kernel's shared memory.
  mlir::Value rawSharedPointer(int64_t bytes);
  /// Offset of the buffer of a tile.shared_alloc in shared memory.
  int64_t bufferOffset(mlir::Operation *alloc) const {
    return bufferOffsets.lookup(alloc);
  }
  /// Stage `stage` of the shared buffer `buffer` (a tile.shared_alloc).
  mlir::Value stagePointer(mlir::Value buffer, mlir::Value stage);
  /// A stage of a pipeline buffer: where it is and how it is stored.
  struct Stage {
    mlir::Value pointer;
    SwizzledTile tile;
  };
  /// A shared_load result whose only user is a dot: the dot reads it from
  /// `stage` itself (an mma dot one k step just before that step's mmas,
  /// so fewer fragment registers are live; an FMA dot instead of staging it).
  void deferOperand(mlir::Value operand, Stage stage) {
    deferredOperands.try_emplace(operand, stage);
  }
  /// The stage a deferred operand is read from; none if not deferred.
  std::optional<Stage> deferredStage(mlir::Value operand) const {
    auto it = deferredOperands.find(operand);
    if (it == deferredOperands.end())
      return std::nullopt;
    return it->second;
  }

  /// The kernel parameter that holds the tensor map `map` (a generic
  /// pointer to it); the first request for a map appends the parameter.
  mlir::Value tensorMapParam(const TensorMapInfo &map);
  /// The tensor maps the kernel takes after its parameters, in order.
  llvm::ArrayRef<TensorMapInfo> getTensorMaps() const { return tensorMaps; }
  /// i1 that is true in thread 0 of the block.
  mlir::Value isFirstThread();
  /// The thread's index in the block (i32).
  mlir::Value thread() const { return threadId; }

  /// Lowers `body` (a `tile.producer`'s) at the insertion point for threads
  /// whose index among the producer's warps is `thread`: thread, lane and
  /// warp indices, and the thread coordinates computed from them, are the
  /// producer's while it is lowered.
  mlir::LogicalResult lowerProducerBody(mlir::Block &body, mlir::Value thread);
  /// Records the branch a producer's warps take (lowerProducer), whose
  /// other arm and what follows run on the kernel's `threads` threads.
  void setProducerBranch(mlir::Operation *branch, int64_t threads) {
    producerBranch = branch;
    kernelThreads = threads;
  }
  /// Makes this thread's shared-memory writes through the generic proxy
  /// (st.shared, cp.async) visible to the async proxy (wgmma, TMA).
  void fenceSharedForAsyncProxy();
  /// Emits `body` under `cond` (unconditionally when cond is null).
  void emitIf(mlir::Value cond, llvm::function_ref<void()> body);
  mlir::LLVM::LLVMPointerType globalPtrType();
  /// The type an element of `elemType` has in memory (booleans are bytes,
  /// 8-bit floats their bits as i8, also in registers).
  mlir::Type memoryType(mlir::Type elemType);

private:
  mlir::LogicalResult lowerBlock(mlir::Block &block);
  mlir::LogicalResult lowerOp(mlir::Operation *op);
  /// Splits `id` into per-dimension coordinates of extents `counts`,
  /// `order[0]` fastest, once per layout (cached in `coords`), at the top of
  /// the kernel.
  llvm::ArrayRef<mlir::Value> decompose(mlir::Value id,
                                        llvm::ArrayRef<unsigned> counts,
                                        llvm::ArrayRef<unsigned> order,
                                        llvm::SmallVector<mlir::Value> &coords);

  KernelOp kernel;
  mlir::gpu::GPUFuncOp func;
  const ModuleAxisInfo &axisInfo;
  const LoweringPatternSet &patterns;
  mlir::ImplicitLocOpBuilder b;
  llvm::DenseMap<mlir::Value, Slots> values;
  mlir::Value threadId, laneId, warpId;
  llvm::DenseMap<mlir::Attribute, llvm::SmallVector<mlir::Value>> laneCache,
      warpCache, baseCache;
  /// Thread-invariant values (thread coordinates) are emitted before this
  /// op at the top of the kernel, so that every region can use them.
  mlir::Operation *prologueAnchor = nullptr;
  int64_t sharedBytes = 0;
  /// Gives each shared_alloc an offset; buffers that are never live at the
  /// same time share bytes. Scratch goes after those live where it is used.
  void placeSharedBuffers();
  /// Bytes of shared memory the tile.shared_alloc buffers take, and each
  /// buffer's offset.
  int64_t scratchBase = 0;
  /// Each placed buffer's live range, in kernel-body op positions, and
  /// bytes; the position of the kernel-body op being lowered (-1: none).
  struct PlacedBuffer {
    /// Live range in the kernel body's top-level ops.
    int64_t first, last, offset, bytes;
    /// Where the buffer is allocated in a nested block (a persistent
    /// grid's loop over tiles) and every use is in it: that block and the
    /// live range in its ops, so that two buffers of one tile in turn share
    /// bytes. Null otherwise.
    mlir::Block *block = nullptr;
    int64_t blockFirst = 0, blockLast = 0;
    /// True when the two live ranges meet.
    bool overlaps(const PlacedBuffer &other) const {
      if (block && block == other.block)
        return blockFirst <= other.blockLast && other.blockFirst <= blockLast;
      return first <= other.last && other.first <= last;
    }
  };
  llvm::SmallVector<PlacedBuffer> placedBuffers;
  int64_t bodyPosition = -1;
  /// The op being lowered (sharedPointer's position in a nested block).
  mlir::Operation *loweredOp = nullptr;
  llvm::DenseMap<mlir::Operation *, int64_t> bufferOffsets;
  llvm::DenseMap<mlir::Value, Stage> deferredOperands;
  std::vector<TensorMapInfo> tensorMaps;
  std::string sharedSymbol;
  mlir::Operation *producerBranch = nullptr;
  int64_t kernelThreads = 0;
};

//===--- Shared-memory tiles, used by several units -----------------------===//
// Row-major buffers for layout conversions and reductions; swizzled tiles
// (16-byte chunk c of row r at chunk c ^ phase(r)) for dot operands, so that
// the rows one ldmatrix or vector load reads fall in different banks.

/// Bytes one element of `type` takes in shared memory.
int64_t sharedElementBytes(mlir::Type type);
/// `v` as a value of its memory type `memType` (a boolean as a byte).
mlir::Value toMemory(mlir::ImplicitLocOpBuilder &b, mlir::Value v,
                     mlir::Type memType);
/// A value read from memory as a register of element type `elemType` (a
/// byte as a boolean; other types, 8-bit floats included, as they are).
mlir::Value fromMemory(mlir::ImplicitLocOpBuilder &b, mlir::Value v,
                       mlir::Type elemType);
/// Row-major linear index of `coords` in `shape`, permuted by `perm`.
mlir::Value linearIndex(LoweringContext &l, llvm::ArrayRef<mlir::Value> coords,
                        llvm::ArrayRef<int64_t> shape,
                        llvm::ArrayRef<unsigned> perm);
/// Writes the elements of `slots` (distributed as `dist`) to shared memory
/// at `base` (bytes), row-major over the tensor shape with dimensions
/// permuted by `perm` (identity when empty), row-major index i at element
/// `interleave` i + `lane` (join's halves); one writer per element.
void storeShared(LoweringContext &l, const Slots &slots,
                 const Distribution &dist, int64_t base,
                 llvm::ArrayRef<unsigned> perm = {}, int64_t interleave = 1,
                 int64_t lane = 0);
/// Reads the elements `dist` gives this thread from a row-major buffer at
/// `base`, row-major index i from element `interleave` i + `lane`.
Slots loadShared(LoweringContext &l, const Distribution &dist,
                 mlir::Type elemType, int64_t base, int64_t interleave = 1,
                 int64_t lane = 0);
/// Element offset (i32) of (row, col) in `tile`.
mlir::Value swizzledOffset(LoweringContext &l, const SwizzledTile &tile,
                           mlir::Value row, mlir::Value col);
/// Anchors of swizzledPointer: by buffer, row, column and the residues of
/// the deltas.
using SwizzleAnchors = llvm::DenseMap<
    std::tuple<mlir::Value, mlir::Value, mlir::Value, int64_t, int64_t>,
    mlir::Value>;
/// Pointer to element (row + rowDelta, col + colDelta) of `tile` at
/// `buffer`. Deltas that are whole swizzle periods (rows: perPhase *
/// maxPhase; columns: vec * maxPhase elements, or whole panels of a tile
/// stored in panels) keep the phase, so they are
/// a constant offset from one anchor per residue, kept in `anchors`: one
/// register per anchor rather than one per address (the offsets are often
/// loop invariant, and LICM would keep each across the loop).
mlir::Value swizzledPointer(LoweringContext &l, const SwizzledTile &tile,
                            mlir::Value buffer, mlir::Type elemType,
                            mlir::Value row, int64_t rowDelta, mlir::Value col,
                            int64_t colDelta, SwizzleAnchors &anchors);
/// Pointer to the element of slot `slot` of `dist` (2-D blocked) in `tile`
/// at `buffer`: from `anchors` (swizzledPointer: the thread's base plus
/// constants) where given and `dist` does not wrap, else from the slot's
/// whole coordinates.
mlir::Value slotPointer(LoweringContext &l, const Distribution &dist,
                        unsigned slot, const SwizzledTile &tile,
                        mlir::Value buffer, mlir::Type elemType,
                        SwizzleAnchors *anchors = nullptr);
/// Writes the elements of `slots` (a 2-D blocked tile) to `tile` at
/// `buffer` (a shared-memory pointer).
void storeSwizzled(LoweringContext &l, const Slots &slots,
                   const Distribution &dist, const SwizzledTile &tile,
                   mlir::Value buffer);
/// Reads the elements `dist` (2-D blocked) gives this thread from `tile` at
/// `buffer`.
Slots loadSwizzled(LoweringContext &l, const Distribution &dist,
                   mlir::Type elemType, const SwizzledTile &tile,
                   mlir::Value buffer);
/// The mma.sync fragments of a tile of `type` (a dot-operand layout) read
/// from `tile` at `buffer` (ldmatrix, with .trans for MN-contiguous rows);
/// A registers of block `blk` and k step `kk` at (blk * numK + kk) * 4.
/// With `onlyK` >= 0 only those of that k step (the other slots are null).
Slots loadMmaFragments(LoweringContext &l, mlir::RankedTensorType type,
                       const SwizzledTile &tile, mlir::Value buffer,
                       int64_t onlyK = -1);
/// `src` (in `op`) moved into `result`'s layout through shared memory, its
/// dimensions permuted by `perm` (result dimension i is src dimension
/// perm[i]; identity when empty) and its row-major order kept (a reshape
/// when the shapes differ); no code when the distributions are equal.
mlir::LogicalResult lowerThroughShared(LoweringContext &l, mlir::Operation *op,
                                       mlir::Value src, mlir::Value result,
                                       llvm::ArrayRef<unsigned> perm = {});

} // namespace tile

#endif // TILE_LIB_CONVERSION_TILETOGPU_LOWERINGCONTEXT_H
