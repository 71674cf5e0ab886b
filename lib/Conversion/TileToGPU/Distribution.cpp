//===- Distribution.cpp - which elements of a tile each thread holds ------===//
#include "Distribution.h"

#include "mlir/IR/BuiltinTypes.h"

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
