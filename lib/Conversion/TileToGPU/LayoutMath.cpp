//===- LayoutMath.cpp - tile layouts as thread and memory positions -------===//
#include "tile/Conversion/TileToGPU/LayoutMath.h"

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
    int64_t cta = dist.layout.getCTATileShape()[d];
    // Smaller than one thread's chunk: the distinct elements only; smaller
    // than the block's tile: one chunk; larger: one chunk per repetition.
    int64_t e = shape[d] < spt    ? shape[d]
                : shape[d] <= cta ? spt
                                  : spt * (shape[d] / cta);
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
  int64_t cta = layout.getCTATileShape()[dim];
  return (local / spt) * cta + local % spt;
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
  int64_t perWarp =
      int64_t(layout.getSizePerThread()[dim]) * layout.getThreadsPerWarp()[dim];
  return std::min<int64_t>(layout.getWarpsPerCTA()[dim],
                           std::max<int64_t>(1, shape[dim] / perWarp));
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
