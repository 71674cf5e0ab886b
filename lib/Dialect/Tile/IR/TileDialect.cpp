//===- TileDialect.cpp - tile dialect and types ---------------------------===//
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#slice` aliases so IR stays readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (auto blocked = dyn_cast<BlockedEncodingAttr>(attr)) {
      os << (blocked.isMmaAccumulator() ? "mma" : "blocked");
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_operand";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType) {
  if (!pointeeType.isIntOrFloat())
    return emitError() << "pointee must be an integer or float scalar, got "
                       << pointeeType;
  return success();
}

Type tile::getPointeeLikeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
  // Not a pointer: returned unchanged so that parsing malformed IR still
  // resolves operand types and the op's verifier reports the error.
  return ptrLike;
}

std::string tile::getParamName(BlockArgument arg) {
  auto name = dyn_cast<NameLoc>(arg.getLoc());
  return name ? name.getName().str()
              : "arg" + std::to_string(arg.getArgNumber());
}

Type tile::getParamSourceType(BlockArgument arg) {
  auto kernel = cast<KernelOp>(arg.getOwner()->getParentOp());
  if (auto type = kernel.getArgAttrOfType<TypeAttr>(
          arg.getArgNumber(), TileDialect::SourceTypeAttrHelper::getNameStr()))
    return type.getValue();
  return arg.getType();
}

Type tile::getI1LikeType(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

//===----------------------------------------------------------------------===//
// Layout encodings
//===----------------------------------------------------------------------===//

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order,
    ArrayRef<unsigned> repsPerWarp) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must have one entry per dimension";
  unsigned threads = 1;
  for (unsigned t : threadsPerWarp)
    threads *= t;
  if (threads != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << threads;
  if (!repsPerWarp.empty() && repsPerWarp.size() != rank)
    return emitError() << "repsPerWarp must have one entry per dimension";
  if (!repsPerWarp.empty() &&
      llvm::all_of(repsPerWarp, [](unsigned r) { return r == 1; }))
    return emitError() << "repsPerWarp is omitted when every entry is 1";
  for (ArrayRef<unsigned> list :
       {sizePerThread, threadsPerWarp, warpsPerCTA, repsPerWarp})
    for (unsigned v : list)
      if (v == 0 || (v & (v - 1)) != 0)
        return emitError() << "layout sizes must be powers of two, got " << v;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of [0, " << rank
                         << ")";
    seen[d] = true;
  }
  return success();
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned warps = 1;
  for (unsigned w : getWarpsPerCTA())
    warps *= w;
  return warps;
}

int64_t BlockedEncodingAttr::getWarpReps(unsigned dim) const {
  return getRepsPerWarp().empty() ? 1 : getRepsPerWarp()[dim];
}

int64_t BlockedEncodingAttr::getWarpTileSize(unsigned dim) const {
  return int64_t(getSizePerThread()[dim]) * getThreadsPerWarp()[dim] *
         getWarpReps(dim);
}

SmallVector<int64_t> BlockedEncodingAttr::getCTATileShape() const {
  SmallVector<int64_t> shape;
  for (unsigned d = 0; d < getRank(); ++d)
    shape.push_back(getWarpTileSize(d) * getWarpsPerCTA()[d]);
  return shape;
}

int64_t BlockedEncodingAttr::getChunkOffset(unsigned dim, int64_t chunk) const {
  int64_t reps = getWarpReps(dim);
  return chunk % reps * getSizePerThread()[dim] * getThreadsPerWarp()[dim] +
         chunk / reps * getCTATileShape()[dim];
}

bool BlockedEncodingAttr::isMmaAccumulator() const {
  return getRank() == 2 && getSizePerThread() == ArrayRef<unsigned>{1, 2} &&
         getThreadsPerWarp() == ArrayRef<unsigned>{8, 4} &&
         getOrder() == ArrayRef<unsigned>{1, 0} &&
         (getRepsPerWarp().empty() ||
          getRepsPerWarp() == ArrayRef<unsigned>{2, 1});
}

BlockedEncodingAttr BlockedEncodingAttr::getTransposed() const {
  assert(getRank() == 2 && "transposes 2-D layouts");
  auto swapped = [](ArrayRef<unsigned> v) {
    return v.empty() ? SmallVector<unsigned>()
                     : SmallVector<unsigned>{v[1], v[0]};
  };
  SmallVector<unsigned> order{1 - getOrder()[0], 1 - getOrder()[1]};
  return get(getContext(), swapped(getSizePerThread()),
             swapped(getThreadsPerWarp()), swapped(getWarpsPerCTA()), order,
             swapped(getRepsPerWarp()));
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, BlockedEncodingAttr parent) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 or 1, got " << opIdx;
  if (!parent.isMmaAccumulator())
    return emitError() << "a dot operand's parent must be an mma accumulator "
                          "layout (sizePerThread [1, 2], threadsPerWarp "
                          "[8, 4], order [1, 0])";
  return success();
}

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order, unsigned panel) {
  for (unsigned v : {vec, perPhase, maxPhase})
    if (v == 0 || (v & (v - 1)) != 0)
      return emitError() << "vec, perPhase and maxPhase must be powers of "
                            "two, got "
                         << v;
  if (order != ArrayRef<unsigned>{1, 0} && order != ArrayRef<unsigned>{0, 1})
    return emitError() << "a shared tile is 2-D: order must be [1, 0] or "
                          "[0, 1]";
  if (panel != 0 && panel != vec * maxPhase)
    return emitError() << "a panel is one swizzle atom: vec * maxPhase = "
                       << vec * maxPhase << " elements, got " << panel;
  return success();
}

SharedEncodingAttr SharedEncodingAttr::getForWgmma(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   Type elemType,
                                                   ArrayRef<unsigned> order) {
  int64_t elemBytes = std::max(1u, elemType.getIntOrFloatBitWidth() / 8);
  int64_t rowBytes = shape[order[0]] * elemBytes;
  if (shape[order[1]] % 8 != 0 ||
      !(rowBytes == 32 || rowBytes == 64 || rowBytes % 128 == 0))
    return nullptr;
  // The swizzle of one atom: 128-byte rows (or the row), 16-byte chunks.
  int64_t atomBytes = std::min<int64_t>(rowBytes, 128);
  SmallVector<int64_t, 2> atom(shape);
  atom[order[0]] = atomBytes / elemBytes;
  SharedEncodingAttr swizzle =
      getSwizzled(context, atom, elemType, order, /*elementReads=*/false);
  return get(context, swizzle.getVec(), swizzle.getPerPhase(),
             swizzle.getMaxPhase(), order,
             swizzle.getVec() * swizzle.getMaxPhase());
}

SharedEncodingAttr SharedEncodingAttr::getSwizzled(MLIRContext *context,
                                                   ArrayRef<int64_t> shape,
                                                   Type elemType,
                                                   ArrayRef<unsigned> order,
                                                   bool elementReads) {
  int64_t elemBytes = std::max(1u, elemType.getIntOrFloatBitWidth() / 8);
  int64_t chunkBytes = elementReads && elemBytes == 4 ? 32 : 16;
  int64_t vec = std::max<int64_t>(1, chunkBytes / elemBytes);
  int64_t rowBytes = shape[order[0]] * elemBytes;
  int64_t chunks = std::max<int64_t>(1, rowBytes / chunkBytes);
  uint64_t perPhase = llvm::bit_floor<uint64_t>(
      std::max<int64_t>(1, 128 / rowBytes));
  uint64_t maxPhase = llvm::bit_floor<uint64_t>(
      std::max<int64_t>(1, std::min<int64_t>(chunks, 128 / chunkBytes / perPhase)));
  return get(context, vec, perPhase, maxPhase, order);
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, BlockedEncodingAttr parent) {
  if (dim >= parent.getRank())
    return emitError() << "slice dimension " << dim
                       << " out of range for a rank-" << parent.getRank()
                       << " parent";
  if (parent.getRank() < 2)
    return emitError() << "a slice of a rank-1 layout would be a scalar";
  return success();
}
