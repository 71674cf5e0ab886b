//===- LayoutMath.cpp - tile layouts as thread and memory positions -------===//
#include "tile/Conversion/TileToGPU/LayoutMath.h"

#include "llvm/ADT/STLExtras.h"

#include <array>

using namespace mlir;
using namespace tile;

FailureOr<Distribution> Distribution::get(Type type) {
  Distribution dist;
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return dist;
  Attribute encoding = tensor.getEncoding();
  SmallVector<int64_t> shape(tensor.getShape());
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    dist.layout = slice.getParent();
    dist.slicedDim = slice.getDim();
    shape.insert(shape.begin() + slice.getDim(), 1);
  } else if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding)) {
    dist.layout = blocked;
  } else {
    return failure();
  }
  if (dist.layout.getRank() != shape.size())
    return failure();
  dist.shape = shape;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t spt = dist.layout.getSizePerThread()[d];
    int64_t lanesTile = spt * dist.layout.getThreadsPerWarp()[d];
    int64_t reps = dist.layout.getWarpReps(d);
    int64_t cta = dist.layout.getCTATileShape()[d];
    // Smaller than one thread's chunk: the distinct elements only; than the
    // lanes' tile: one chunk; than the block's tile: one chunk per warp
    // repetition it reaches; larger: every chunk of every repetition.
    int64_t e = shape[d] < spt          ? shape[d]
                : shape[d] <= lanesTile ? spt
                : shape[d] <= cta ? spt * std::min(reps, shape[d] / lanesTile)
                                  : spt * reps * (shape[d] / cta);
    dist.extent.push_back(e);
  }
  return dist;
}

unsigned Distribution::getNumSlots() const {
  unsigned n = 1;
  for (int64_t e : extent)
    n *= e;
  return n;
}

SmallVector<int64_t> Distribution::getLocalIndex(unsigned slot) const {
  SmallVector<int64_t> local(getRank(), 0);
  if (isScalar())
    return local;
  for (unsigned d : layout.getOrder()) {
    local[d] = slot % extent[d];
    slot /= extent[d];
  }
  return local;
}

unsigned Distribution::getSlot(ArrayRef<int64_t> local) const {
  if (isScalar())
    return 0;
  unsigned slot = 0, stride = 1;
  for (unsigned d : layout.getOrder()) {
    slot += local[d] * stride;
    stride *= extent[d];
  }
  return slot;
}

int64_t Distribution::getConstantOffset(unsigned dim, int64_t local) const {
  int64_t spt = layout.getSizePerThread()[dim];
  return layout.getChunkOffset(dim, local / spt) + local % spt;
}

bool Distribution::wraps(unsigned dim) const {
  return layout && layout.getCTATileShape()[dim] > shape[dim];
}

bool Distribution::isUnique() const {
  if (isScalar())
    return false;
  for (unsigned d = 0; d < getRank(); ++d)
    if (wraps(d))
      return false;
  return true;
}

int64_t Distribution::getDistinctLanes(unsigned dim) const {
  int64_t spt = layout.getSizePerThread()[dim];
  return std::min<int64_t>(layout.getThreadsPerWarp()[dim],
                           std::max<int64_t>(1, shape[dim] / spt));
}

int64_t Distribution::getDistinctWarps(unsigned dim) const {
  return std::min<int64_t>(
      layout.getWarpsPerCTA()[dim],
      std::max<int64_t>(1, shape[dim] / layout.getWarpTileSize(dim)));
}

bool Distribution::isEquivalent(const Distribution &other) const {
  return layout == other.layout && shape == other.shape;
}

SwizzledTile SwizzledTile::get(SharedEncodingAttr encoding,
                               ArrayRef<int64_t> shape, Type elemType) {
  SwizzledTile tile;
  tile.transposed = encoding.isTransposed();
  tile.rows = shape[tile.transposed ? 1 : 0];
  tile.cols = shape[tile.transposed ? 0 : 1];
  tile.elemBytes = std::max(1u, elemType.getIntOrFloatBitWidth() / 8);
  tile.vec = encoding.getVec();
  tile.perPhase = encoding.getPerPhase();
  tile.maxPhase = encoding.getMaxPhase();
  tile.panel = encoding.getPanel();
  return tile;
}

SwizzledTile SwizzledTile::get(RankedTensorType type) {
  // A tf32 B fragment register holds B[k][n] for lanes (n = l / 4, k =
  // l % 4): 4 rows of 8 consecutive columns per load, so 32-byte chunks.
  auto operand = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
  bool elementReads = operand && operand.getOpIdx() == 1;
  auto encoding = SharedEncodingAttr::getSwizzled(
      type.getContext(), type.getShape(), type.getElementType(), {1, 0},
      elementReads);
  return get(encoding, type.getShape(), type.getElementType());
}

int64_t SwizzledTile::runLength(const Distribution &dist) const {
  BlockedEncodingAttr layout = dist.getLayout();
  unsigned dim = contiguousDim();
  if (layout.getOrder()[0] != dim)
    return 1;
  return std::min<int64_t>(
      {layout.getSizePerThread()[dim], dist.getExtent(dim), accessElems()});
}

SwizzledTile SwizzledTile::forBuffer(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto alloc = buffer.getDefiningOp<SharedAllocOp>();
  auto stage = RankedTensorType::get(type.getShape().drop_front(),
                                     type.getElementType());
  // A buffer not from a shared_alloc (hand-written IR): row-major.
  if (!alloc)
    return get(stage);
  return get(alloc.getEncoding(), stage.getShape(), stage.getElementType());
}

SwizzledTile SwizzledTile::forLoad(SharedLoadOp load) {
  SwizzledTile tile = forBuffer(load.getBuffer());
  if (load.getTransposed())
    tile.transposed = !tile.transposed;
  return tile;
}

/// Coordinates of `id` in a grid of `counts`, order[0] varying fastest: the
/// lowering's decompose.
static SmallVector<int64_t> decompose(int64_t id, ArrayRef<unsigned> counts,
                                      ArrayRef<unsigned> order) {
  SmallVector<int64_t> coords(counts.size(), 0);
  for (unsigned d : order) {
    coords[d] = id % counts[d];
    id /= counts[d];
  }
  return coords;
}

/// The elements of a blocked or slice layout: LoweringContext::coordinates
/// for every thread.
static void addDistributedElements(const Distribution &dist, unsigned numWarps,
                                   SmallVectorImpl<HeldElement> &held) {
  BlockedEncodingAttr layout = dist.getLayout();
  for (unsigned thread = 0; thread < numWarps * 32; ++thread) {
    SmallVector<int64_t> lanes =
        decompose(thread % 32, layout.getThreadsPerWarp(), layout.getOrder());
    SmallVector<int64_t> warps =
        decompose(thread / 32, layout.getWarpsPerCTA(), layout.getOrder());
    for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
      SmallVector<int64_t> local = dist.getLocalIndex(slot);
      HeldElement element{{}, thread, slot, 0};
      for (unsigned d = 0; d < dist.getRank(); ++d) {
        if (d == dist.getSlicedDim())
          continue;
        int64_t extent = dist.getShape()[d];
        int64_t spt = layout.getSizePerThread()[d];
        int64_t c = warps[d] * layout.getWarpTileSize(d) + lanes[d] * spt +
                    dist.getConstantOffset(d, local[d]);
        if (extent == 1)
          c = 0;
        else if (dist.wraps(d))
          c &= extent - 1;
        element.coords.push_back(c);
      }
      held.push_back(element);
    }
  }
}

MmaFragments MmaFragments::get(RankedTensorType type) {
  auto operand = cast<DotOperandEncodingAttr>(type.getEncoding());
  BlockedEncodingAttr parent = operand.getParent();
  MmaFragments f;
  f.isA = operand.getOpIdx() == 0;
  f.mnDim = f.isA ? 0 : 1;
  int64_t elemBytes =
      std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t wm = parent.getWarpsPerCTA()[0], wn = parent.getWarpsPerCTA()[1];
  f.instrK = 32 / elemBytes;
  f.kHalf = f.instrK / 2;
  f.numK = type.getDimSize(f.isA ? 1 : 0) / f.instrK;
  f.numMN =
      f.isA ? type.getDimSize(0) / (16 * wm) : type.getDimSize(1) / (8 * wn);
  f.perStep = f.isA ? 4 : 2;
  // An A block is 16 rows, the parent's local rows 2 blk and 2 blk + 1: 8
  // at the warp's offset, 8 more wm * 8 further (8 with repsPerWarp).
  f.blockStride = f.isA ? parent.getChunkOffset(0, 2) : 8 * wn;
  f.halfStride = parent.getChunkOffset(0, 1);
  f.warpStride = parent.getWarpTileSize(f.mnDim);
  return f;
}

int64_t MmaFragments::elementLoadWavefronts(const SwizzledTile &tile,
                                            int64_t warps, int flipBit) const {
  int64_t total = 0;
  int64_t halves = isA ? 2 : 1; // the k half's bit in r
  for (int64_t w = 0; w < warps; ++w)
    for (int64_t blk = 0; blk < numMN; ++blk)
      for (int64_t kk = 0; kk < numK; ++kk)
        for (int64_t r = 0; r < perStep; ++r) {
          // Each bank serves one word per wavefront: the most distinct
          // words any bank holds, counted over (bank, word) sorted.
          std::array<std::pair<int64_t, int64_t>, 32> reads;
          for (int64_t lane = 0; lane < 32; ++lane) {
            bool flip = flipBit >= 0 && (lane >> flipBit) & 1;
            int64_t read = flip ? r ^ halves : r;
            int64_t mn = w * warpStride + lane / 4 + mnOffset(blk, read);
            int64_t k = lane % 4 + kOffset(kk, read);
            int64_t word = (isA ? tile.offset(mn, k) : tile.offset(k, mn)) *
                           tile.elemBytes / 4;
            reads[lane] = {word % 32, word};
          }
          llvm::sort(reads);
          int64_t most = 0, run = 0;
          for (size_t i = 0; i < reads.size(); ++i) {
            if (i > 0 && reads[i] == reads[i - 1])
              continue;
            run = i > 0 && reads[i].first == reads[i - 1].first ? run + 1 : 1;
            most = std::max(most, run);
          }
          total += most;
        }
  return total;
}

int MmaFragments::bestElementFlip(const SwizzledTile &tile,
                                  int64_t warps) const {
  // No load takes fewer than one wavefront: stop at the first order that
  // reaches it.
  int64_t ideal = warps * numMN * numK * perStep;
  int best = -1;
  int64_t fewest = elementLoadWavefronts(tile, warps, -1);
  for (int bit = 0; bit < 5 && fewest > ideal; ++bit)
    if (int64_t count = elementLoadWavefronts(tile, warps, bit);
        count < fewest) {
      fewest = count;
      best = bit;
    }
  return best;
}

/// The elements of an mma.sync operand, as loadMmaFragments reads
/// them: register (blk * numK + kk) * perStep + r of lane (g, t) = (l / 4,
/// l % 4) holds the fragment row g (A: of row half r % 2, k half r / 2; B:
/// k half r) and k column 2t + half (16-bit) or t (tf32).
static void addFragmentElements(RankedTensorType type,
                                DotOperandEncodingAttr operand,
                                unsigned numWarps,
                                SmallVectorImpl<HeldElement> &held) {
  BlockedEncodingAttr parent = operand.getParent();
  MmaFragments frag = MmaFragments::get(type);
  int64_t elemBytes =
      std::max(1u, type.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t halves = elemBytes == 2 ? 2 : 1;
  for (unsigned thread = 0; thread < numWarps * 32; ++thread) {
    SmallVector<int64_t> warps =
        decompose(thread / 32, parent.getWarpsPerCTA(), parent.getOrder());
    int64_t lane = thread % 32, g = lane / 4, t = lane % 4;
    int64_t warpMN = warps[frag.mnDim] * frag.warpStride;
    for (int64_t blk = 0; blk < frag.numMN; ++blk)
      for (int64_t kk = 0; kk < frag.numK; ++kk)
        for (int64_t r = 0; r < frag.perStep; ++r)
          for (int64_t h = 0; h < halves; ++h) {
            int64_t mn = warpMN + g + frag.mnOffset(blk, r);
            int64_t k = frag.kOffset(kk, r) + t * halves + h;
            unsigned reg = (blk * frag.numK + kk) * frag.perStep + r;
            held.push_back({frag.isA ? SmallVector<int64_t, 2>{mn, k}
                                     : SmallVector<int64_t, 2>{k, mn},
                            thread, reg, unsigned(h)});
          }
  }
}

FailureOr<SmallVector<HeldElement>> tile::getHeldElements(RankedTensorType type,
                                                          unsigned numWarps) {
  SmallVector<HeldElement> held;
  if (auto operand =
          dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding())) {
    if (type.getRank() != 2)
      return failure();
    addFragmentElements(type, operand, numWarps, held);
    return held;
  }
  FailureOr<Distribution> dist = Distribution::get(type);
  if (failed(dist) || dist->isScalar())
    return failure();
  addDistributedElements(*dist, numWarps, held);
  return held;
}
