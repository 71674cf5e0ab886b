//===- LayoutMath.h - tile layouts as thread and memory positions -*- C++
//-*-===//
//
// The layout arithmetic of convert-tile-to-gpu, free of IR building so that
// unit tests can check it: which elements of a tile each thread holds
// (Distribution), and where a swizzled shared-memory tile keeps each element
// (SwizzledTile).
//
// A tile with a blocked or slice layout is held by each thread of a block as
// a fixed list of "slots". This class answers, for a tile type, how many slots
// a thread has and which tensor coordinate each slot holds, as a thread-
// dependent base plus a per-slot constant. Everything is computed in the
// rank of the blocked layout: a slice layout is its parent's distribution of
// a shape with extent 1 in the sliced dimension, so `expand_dims` and
// reductions keep slot numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONVERSION_TILETOGPU_LAYOUTMATH_H
#define TILE_CONVERSION_TILETOGPU_LAYOUTMATH_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

namespace tile {

/// How one tile type is spread over the threads of a block.
class Distribution {
public:
  /// The distribution of `type`: a scalar (one slot, every thread), or a
  /// tensor with a blocked or slice encoding. Fails for a tensor without one.
  static mlir::FailureOr<Distribution> get(mlir::Type type);

  bool isScalar() const { return !layout; }
  /// Rank of the blocked layout (the tensor's rank plus one for a slice).
  unsigned getRank() const { return shape.size(); }
  /// The blocked layout (the parent for a slice layout); null for scalars.
  BlockedEncodingAttr getLayout() const { return layout; }
  /// The dimension a slice layout removes, in the blocked layout's rank.
  std::optional<unsigned> getSlicedDim() const { return slicedDim; }
  /// Shape in the blocked layout's rank (extent 1 in a sliced dimension).
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  /// Number of distinct elements each thread holds along `dim`.
  int64_t getExtent(unsigned dim) const { return extent[dim]; }
  /// Number of slots each thread holds.
  unsigned getNumSlots() const;
  /// Per-dimension local index of `slot` (order[0] varies fastest).
  llvm::SmallVector<int64_t> getLocalIndex(unsigned slot) const;
  /// Inverse of getLocalIndex.
  unsigned getSlot(llvm::ArrayRef<int64_t> localIndex) const;
  /// The constant part of the coordinate along `dim` of local index `local`;
  /// the thread-dependent part is added by the lowering.
  int64_t getConstantOffset(unsigned dim, int64_t local) const;
  /// True where the block's threads cover more than the shape along `dim`,
  /// so coordinates wrap around and several threads hold the same element.
  bool wraps(unsigned dim) const;
  /// True when no element is held by more than one thread.
  bool isUnique() const;
  /// Number of lanes (warps) along `dim` that hold distinct elements.
  int64_t getDistinctLanes(unsigned dim) const;
  int64_t getDistinctWarps(unsigned dim) const;
  /// True when `other` gives every thread the same elements in the same
  /// slots.
  bool isEquivalent(const Distribution &other) const;

private:
  BlockedEncodingAttr layout;
  std::optional<unsigned> slicedDim;
  llvm::SmallVector<int64_t> shape, extent;
};

/// A 2-D tile in shared memory as a `#tile.shared` encoding stores it: a
/// row-major matrix whose rows run along the tile's contiguous dimension
/// (dimension 1, or dimension 0 for a transposed tile), with chunk `c` of
/// stored row `r` at chunk `c ^ (r / perPhase % maxPhase)`, so that eight
/// consecutive rows of one 16-byte column (what `ldmatrix` reads) hit eight
/// different bank groups.
struct SwizzledTile {
  /// Rows and columns of the stored matrix (columns: elements per row).
  int64_t rows, cols, elemBytes;
  /// Elements per chunk.
  int64_t vec;
  int64_t perPhase, maxPhase;
  /// True when stored row r is tile column r (order [0, 1]).
  bool transposed;
  /// Elements per panel when stored rows are cut into panels stored one
  /// after another (wgmma operands); 0 when rows are whole.
  int64_t panel = 0;
  /// The tile of `shape` and `elemType` stored as `encoding` says.
  static SwizzledTile get(SharedEncodingAttr encoding,
                          llvm::ArrayRef<int64_t> shape, mlir::Type elemType);
  /// A tile of `type` stored row-major: a dot operand converted from
  /// registers.
  static SwizzledTile get(mlir::RankedTensorType type);
  /// One stage of a pipeline buffer (a tile.shared_alloc).
  static SwizzledTile forBuffer(mlir::Value buffer);
  /// The tile a shared_load reads: its buffer's stage, viewed transposed
  /// where the load says so.
  static SwizzledTile forLoad(SharedLoadOp load);
  /// The tile dimension the stored rows run along.
  unsigned contiguousDim() const { return transposed ? 0 : 1; }
  /// Elements one shared-memory access moves: inside one chunk, at most 16
  /// bytes.
  int64_t accessElems() const { return std::min<int64_t>(vec, 16 / elemBytes); }
  /// Consecutive slots of `dist` (2-D blocked, over this tile's shape) that
  /// one access moves: the thread's runs along the stored rows (when the
  /// layout's fastest dimension is contiguousDim), up to accessElems.
  int64_t runLength(const Distribution &dist) const;
  /// Element offset of tile element (row, col): what the lowering's
  /// swizzledOffset computes in the kernel.
  int64_t offset(int64_t row, int64_t col) const {
    if (transposed)
      std::swap(row, col);
    int64_t phase = row / perPhase % maxPhase;
    int64_t width = panel ? panel : cols;
    return col / width * rows * width + row * width +
           ((col % width / vec) ^ phase) * vec + col % vec;
  }
};

/// Where the `mma.sync` fragment registers of a dot operand (a
/// `#tile.dot_operand` tile) take their elements from: register
/// `(blk * numK + kk) * perStep + r` of lane (g, t) = (l / 4, l % 4) of a
/// warp holds the M (A) or N (B) index `warp * warpStride + g +
/// mnOffset(blk, r)` (the parent layout's rows or columns) and K indices
/// from `kOffset(kk, r)` on, the lane's own (which depend on t and the
/// element width) after it. loadMmaFragments and getHeldElements both
/// place fragments by it.
struct MmaFragments {
  bool isA;
  /// The operand's M (A) or N (B) dimension.
  unsigned mnDim;
  /// K of one instruction (32 bytes) and of its halves.
  int64_t instrK, kHalf;
  /// k steps and m16 (A) or n8 (B) blocks of the operand.
  int64_t numK, numMN;
  /// Registers per (block, k step): 4 for A, 2 for B.
  int64_t perStep;
  /// M/N offset between consecutive blocks, between an A block's two row
  /// halves (the parent's local rows 2 blk and 2 blk + 1), and between
  /// consecutive warps along M/N.
  int64_t blockStride, halfStride, warpStride;

  static MmaFragments get(mlir::RankedTensorType type);
  /// M/N offset of register r of block blk from the lane's first index.
  int64_t mnOffset(int64_t blk, int64_t r) const {
    return blk * blockStride + (isA ? r % 2 : 0) * halfStride;
  }
  /// First K index of register r of k step kk, before the lane's own.
  int64_t kOffset(int64_t kk, int64_t r) const {
    return kk * instrK + (isA ? r / 2 : r) * kHalf;
  }
  /// Shared-memory wavefronts of the 32-bit loads that read every tf32
  /// fragment register from `tile` (stored MN-contiguous), over `warps`
  /// warps along M (A) or N (B), where lanes whose bit `flipBit` is set
  /// (-1: none) read the two k halves of each step in the other order.
  int64_t elementLoadWavefronts(const SwizzledTile &tile, int64_t warps,
                                int flipBit) const;
  /// The lane bit whose flip (elementLoadWavefronts) needs the fewest
  /// wavefronts, or -1 when no flip needs fewer than none.
  int bestElementFlip(const SwizzledTile &tile, int64_t warps) const;
};

/// One element of a tile held by one thread, and where that thread keeps it.
struct HeldElement {
  /// The element's coordinates in the tensor.
  llvm::SmallVector<int64_t, 2> coords;
  /// Thread of the block: 32 * warp + lane.
  unsigned thread;
  /// The value's slot in the thread (blocked and slice layouts), or its
  /// 32-bit fragment register (dot-operand layouts).
  unsigned reg;
  /// Which 16-bit half of a fragment register (0 otherwise).
  unsigned half;
};

/// Every element each thread of a block of `numWarps` warps holds of a tile
/// of `type` (a blocked, slice or dot-operand layout), in thread and slot
/// order, as convert-tile-to-gpu places them; an element held by several
/// threads appears once per thread. Fails for other encodings.
mlir::FailureOr<llvm::SmallVector<HeldElement>>
getHeldElements(mlir::RankedTensorType type, unsigned numWarps);

} // namespace tile

#endif // TILE_CONVERSION_TILETOGPU_LAYOUTMATH_H
