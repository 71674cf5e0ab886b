//===- TileOps.cpp - tile dialect operations ------------------------------===//
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace tile;

/// Shape of a tensor type, or the empty shape of a scalar.
static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Formats a shape as `[a, b]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     FunctionType type, DictionaryAttr constants) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  if (constants && !constants.empty())
    state.addAttribute(getConstantsAttrName(state.name), constants);
  Region *body = state.addRegion();
  Block *entry = new Block();
  body->push_back(entry);
  for (Type input : type.getInputs())
    entry->addArgument(input, state.location);
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitOpError("kernels return no values");
  for (auto [i, type] : llvm::enumerate(getFunctionType().getInputs()))
    if (!type.isIntOrFloat() && !isa<PointerType>(type))
      return emitOpError("parameter ") << i << " must be a scalar or "
                                       << "!tile.ptr, got " << type;
  if (DictionaryAttr constants = getConstantsAttr())
    for (NamedAttribute constant : constants)
      if (!isa<IntegerAttr, FloatAttr>(constant.getValue()))
        return emitOpError("constant '")
               << constant.getName().getValue()
               << "' must be an integer or float attribute";
  return success();
}

//===----------------------------------------------------------------------===//
// MakeRangeOp
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("end (")
           << end << ") must be greater than start (" << start << ")";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError("result must be a 1-D tile of ")
           << end - start << " elements, got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto value = dyn_cast_if_present<TypedAttr>(adaptor.getSrc());
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getType(), value);
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int64_t> dst = getType().getShape();
  if (src.size() != dst.size())
    return emitOpError("source rank ")
           << src.size() << " differs from result rank " << dst.size();
  for (auto [i, dims] : llvm::enumerate(llvm::zip(src, dst))) {
    auto [s, d] = dims;
    if (s != d && s != 1)
      return emitOpError("dimension ")
             << i << " of size " << s << " cannot broadcast to " << d;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// broadcast(splat(x)) -> splat(x); broadcast(broadcast(x)) -> broadcast(x).
struct FoldBroadcastProducer : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (auto splat = dyn_cast_if_present<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto inner = dyn_cast_if_present<BroadcastOp>(def)) {
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                               inner.getSrc());
      return success();
    }
    return failure();
  }
};

/// expand_dims(splat(x)) -> splat(x).
struct FoldExpandDimsOfSplat : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<FoldBroadcastProducer>(context);
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  int64_t axis = getAxis();
  if (axis < 0 || axis > static_cast<int64_t>(src.size()))
    return emitOpError("axis ")
           << axis << " out of range [0, " << src.size() << "]";
  SmallVector<int64_t> expected(src);
  expected.insert(expected.begin() + axis, 1);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be ") << formatShape(expected);
  return success();
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<FoldExpandDimsOfSplat>(context);
}

//===----------------------------------------------------------------------===//
// TransOp
//===----------------------------------------------------------------------===//

LogicalResult TransOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  if (src.size() != 2)
    return emitOpError("expects a 2-D tile, got rank ") << src.size();
  ArrayRef<int64_t> dst = getType().getShape();
  if (dst.size() != 2 || dst[0] != src[1] || dst[1] != src[0])
    return emitOpError("result shape must be ")
           << formatShape({src[1], src[0]});
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp, PermuteOp, JoinOp, SplitOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError("result must have as many elements as the source (")
           << getSrc().getType().getNumElements() << "), got "
           << getType().getNumElements();
  return success();
}

LogicalResult PermuteOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int32_t> order = getOrder();
  SmallVector<bool> seen(src.size(), false);
  SmallVector<int64_t> want;
  bool isPermutation = order.size() == src.size();
  for (int32_t d : order) {
    isPermutation &= d >= 0 && d < int32_t(src.size()) && !seen[d];
    if (!isPermutation)
      break;
    seen[d] = true;
    want.push_back(src[d]);
  }
  if (!isPermutation)
    return emitOpError("order must name each of the ")
           << src.size() << " dimensions once";
  if (getType().getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape must be ") << formatShape(want);
  return success();
}

/// The shape of `type` (empty for a scalar) with a last dimension of 2.
static SmallVector<int64_t> joinedShape(Type type) {
  SmallVector<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    shape.append(tensor.getShape().begin(), tensor.getShape().end());
  shape.push_back(2);
  return shape;
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> want = joinedShape(getLhs().getType());
  if (getType().getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape must be ") << formatShape(want);
  return success();
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  if (src.back() != 2)
    return emitOpError("expects a last dimension of 2, got ") << src.back();
  SmallVector<int64_t> want = joinedShape(getLhs().getType());
  if (ArrayRef<int64_t>(want) != src)
    return emitOpError("results must be the source without its last "
                       "dimension");
  return success();
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// AddPtrOp
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  bool ptrIsTile = isa<RankedTensorType>(getPtr().getType());
  bool offsetIsTile = isa<RankedTensorType>(getOffset().getType());
  if (ptrIsTile != offsetIsTile)
    return emitOpError("pointer and offset must both be scalars or both tiles");
  if (shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("offset shape ")
           << formatShape(shapeOf(getOffset().getType()))
           << " differs from pointer shape "
           << formatShape(shapeOf(getPtr().getType()));
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a mask");
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType();
  auto accType = getAcc().getType();
  int64_t rank = aType.getRank();
  if ((rank != 2 && rank != 3) || bType.getRank() != rank ||
      accType.getRank() != rank)
    return emitOpError("operands must be 2-D tiles, or 3-D (batched) ones");
  // A batched dot: one product per index of the leading dimension.
  SmallVector<int64_t> batch(aType.getShape().drop_back(2));
  if (rank == 3 && bType.getDimSize(0) != batch[0])
    return emitOpError("batch dimensions differ: a is ")
           << formatShape(aType.getShape()) << ", b is "
           << formatShape(bType.getShape());
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1);
  int64_t n = bType.getDimSize(rank - 1);
  if (bType.getDimSize(rank - 2) != k)
    return emitOpError("inner dimensions differ: a is ")
           << formatShape(aType.getShape()) << ", b is "
           << formatShape(bType.getShape());
  SmallVector<int64_t> accShape(batch);
  accShape.append({m, n});
  if (accType.getShape() != ArrayRef<int64_t>(accShape))
    return emitOpError("accumulator shape must be ") << formatShape(accShape);
  Type in = aType.getElementType();
  if (in != bType.getElementType())
    return emitOpError("a and b element types differ: ")
           << in << " vs " << bType.getElementType();
  if (!isa<FloatType>(in) && !in.isInteger(8))
    return emitOpError("operands must be floating-point or i8, got ") << in;
  Type acc = accType.getElementType();
  bool accOk = in.isInteger(8) ? acc.isInteger(32)
               : in.isF64()    ? acc.isF64()
               : in.isF32()    ? acc.isF32()
               : in.isF16()    ? (acc.isF32() || acc.isF16())
                               : acc.isF32();
  if (!accOk)
    return emitOpError("accumulator type ")
           << acc << " is not supported for " << in << " inputs";
  if (getPrecision() == InputPrecision::tf32 && !in.isF32())
    return emitOpError("tf32 precision requires f32 inputs");
  // Tensor-core operands: both in the dot-operand layouts of the result's.
  auto aOperand = dyn_cast_or_null<DotOperandEncodingAttr>(aType.getEncoding());
  auto bOperand = dyn_cast_or_null<DotOperandEncodingAttr>(bType.getEncoding());
  if (aOperand || bOperand) {
    auto result = dyn_cast_or_null<BlockedEncodingAttr>(accType.getEncoding());
    if (!aOperand || !bOperand || aOperand.getOpIdx() != 0 ||
        bOperand.getOpIdx() != 1 || aOperand.getParent() != result ||
        bOperand.getParent() != result)
      return emitOpError("tensor-core operands must have the layouts "
                         "#tile.dot_operand<{opIdx = 0|1}> of the result's "
                         "mma layout");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// Checks that a `tile` of `shape`/`elemType` is one stage of `buffer`.
static LogicalResult checkStage(Operation *op, MemRefType buffer,
                                ArrayRef<int64_t> shape, Type elemType) {
  if (buffer.getShape().drop_front() != shape ||
      buffer.getElementType() != elemType)
    return op->emitOpError("tile ")
           << formatShape(shape) << " of " << elemType
           << " is not one stage of the buffer " << buffer;
  return success();
}

LogicalResult SharedAllocOp::verify() {
  MemRefType type = getType();
  if (!type.hasStaticShape() || type.getMemorySpaceAsInt() != 3 ||
      type.getElementTypeBitWidth() < 8)
    return emitOpError("needs a static memref of 8-, 16- or 32-bit elements in "
                       "memory space 3, got ")
           << type;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrType = getPtr().getType();
  if (getMask().getType().getShape() != ptrType.getShape())
    return emitOpError("mask shape ")
           << formatShape(getMask().getType().getShape())
           << " differs from the pointers' " << formatShape(ptrType.getShape());
  return checkStage(*this, getBuffer().getType(), ptrType.getShape(),
                    cast<PointerType>(ptrType.getElementType()).getPointeeType());
}

LogicalResult ProducerOp::verify() {
  if (getGroups() <= 0)
    return emitOpError("needs at least one group, got ") << getGroups();
  if (getWarps() <= 0 || getWarps() * getGroups() % 4 != 0)
    return emitOpError("runs on whole warpgroups: warps times groups must be "
                       "a positive multiple of 4, got ")
           << getWarps() << " x " << getGroups();
  if (getRegisters() < 24 || getRegisters() > 256 || getRegisters() % 8 != 0)
    return emitOpError("keeps a multiple of 8 from 24 to 256 registers, got ")
           << getRegisters();
  if (!isa<KernelOp>((*this)->getParentOp()))
    return emitOpError("must be in a kernel's body");
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 ||
      !body.getArgument(0).getType().isInteger(32))
    return emitOpError("body takes the group's index (one i32 argument)");
  // Tiles from above are computed by the kernel's own warps; constants
  // (which canonicalization hoists) are the same in every thread.
  WalkResult outside = getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !getBody().isAncestor(operand.getParentRegion()) &&
          !matchPattern(operand, m_Constant()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return emitOpError("uses a tile defined outside its body");
  return success();
}

LogicalResult SharedStoreOp::verify() {
  auto type = getValue().getType();
  auto layout = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  if (!layout || layout.getRank() != 2)
    return emitOpError("stores a 2-D blocked tile, got ") << type;
  return checkStage(*this, getBuffer().getType(), type.getShape(),
                    type.getElementType());
}

LogicalResult BarrierAllocOp::verify() {
  MemRefType type = getType();
  if (!type.hasStaticShape() || type.getMemorySpaceAsInt() != 3)
    return emitOpError("needs a static memref in memory space 3, got ") << type;
  if (getArrivals() < 1)
    return emitOpError("needs at least one arrival per phase, got ")
           << getArrivals();
  return success();
}

LogicalResult TmaCopyOp::verify() {
  if (getStarts().size() != 2 || getBounds().size() != 2)
    return emitOpError("copies 2-D tiles: expected 2 starts and 2 bounds, "
                       "got ")
           << getStarts().size() << " and " << getBounds().size();
  MemRefType buffer = getBuffer().getType();
  if (buffer.getElementType() != getBase().getType().getPointeeType())
    return emitOpError("buffer of ")
           << buffer.getElementType() << " filled from a pointer to "
           << getBase().getType().getPointeeType();
  auto encoding = getBuffer().getDefiningOp<SharedAllocOp>()
                      ? getBuffer().getDefiningOp<SharedAllocOp>().getEncoding()
                      : SharedEncodingAttr();
  if (!encoding || encoding.getPanel() == 0)
    return emitOpError("fills stages stored with the hardware's swizzle (a "
                       "tile.shared_alloc with panels)");
  return success();
}

LogicalResult DotWaitOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

LogicalResult DotWaitOp::verify() {
  for (Type type : getAccs().getTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    Type elem = tensor.getElementType();
    bool registerA =
        isa_and_nonnull<DotOperandEncodingAttr>(tensor.getEncoding()) &&
        isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() == 16;
    if (!elem.isF32() && !elem.isInteger(32) && !registerA)
      return emitOpError("waits for warpgroup MMA accumulators, which are "
                         "f32 or i32, or their 16-bit A in registers; got ")
             << type;
  }
  return success();
}

LogicalResult SharedLoadOp::verify() {
  auto type = getType();
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding());
  if (!isa_and_nonnull<DotOperandEncodingAttr>(type.getEncoding()) &&
      !(blocked && blocked.getRank() == 2))
    return emitOpError(
        "result must have a #tile.dot_operand or 2-D #tile.blocked layout");
  SmallVector<int64_t> shape(type.getShape());
  if (getTransposed())
    std::reverse(shape.begin(), shape.end());
  return checkStage(*this, getBuffer().getType(), shape,
                    type.getElementType());
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// `axis` names a dimension of `src`.
static LogicalResult verifyAxis(Operation *op, RankedTensorType src,
                                int64_t axis) {
  int64_t rank = src.getRank();
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " out of range for rank " << rank;
  return success();
}

/// A reduction of `src` along `axis` to `result`: the axis in range and the
/// result's shape `src`'s without it (a scalar for a 1-D source).
static LogicalResult verifyReducedShape(Operation *op, RankedTensorType src,
                                        int64_t axis, Type result) {
  if (failed(verifyAxis(op, src, axis)))
    return failure();
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  if (shapeOf(result) != ArrayRef<int64_t>(expected) ||
      (expected.empty() && isa<RankedTensorType>(result)))
    return op->emitOpError("result shape must be ")
           << (expected.empty() ? std::string("scalar")
                                : formatShape(expected));
  return success();
}

LogicalResult ReduceOp::verify() {
  auto srcType = getSrc().getType();
  bool isArg =
      getKind() == ReduceKind::argmax || getKind() == ReduceKind::argmin;
  Type wantElem =
      isArg ? IntegerType::get(getContext(), 32) : srcType.getElementType();
  if (getElementTypeOrSelf(getType()) != wantElem)
    return emitOpError("result element type must be ") << wantElem;
  if (isa<PointerType>(srcType.getElementType()))
    return emitOpError("cannot reduce a tile of pointers");
  return verifyReducedShape(*this, srcType, getAxis(), getType());
}

//===----------------------------------------------------------------------===//
// GenericReduceOp, GenericScanOp
//===----------------------------------------------------------------------===//

/// The combiner of a generic reduce or scan: (elem, elem) -> elem, on
/// scalars only and without memory effects.
static LogicalResult verifyCombiner(Operation *op, Region &combiner,
                                    Type elem) {
  if (isa<PointerType>(elem))
    return op->emitOpError("combines numbers, not ") << elem;
  Block &body = combiner.front();
  if (body.getNumArguments() != 2 ||
      llvm::any_of(body.getArgumentTypes(), [&](Type t) { return t != elem; }))
    return op->emitOpError("combiner must take two ") << elem << " values";
  auto yield = dyn_cast<CombineYieldOp>(body.getTerminator());
  if (!yield || yield.getValue().getType() != elem)
    return op->emitOpError("combiner must yield one ") << elem;
  WalkResult result = combiner.walk([&](Operation *inner) {
    for (Value v : inner->getResults())
      if (isa<ShapedType>(v.getType())) {
        inner->emitOpError("computes a tile inside a combiner, which "
                           "computes on scalars");
        return WalkResult::interrupt();
      }
    if (!isMemoryEffectFree(inner)) {
      inner->emitOpError("has memory effects inside a combiner");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

std::optional<unsigned> tile::getReducedAxis(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getAxis();
  if (auto reduce = dyn_cast<GenericReduceOp>(op))
    return reduce.getAxis();
  return std::nullopt;
}

LogicalResult GenericReduceOp::verify() {
  auto srcType = getSrc().getType();
  if (getElementTypeOrSelf(getType()) != srcType.getElementType())
    return emitOpError("result element type must be ")
           << srcType.getElementType();
  if (failed(verifyReducedShape(*this, srcType, getAxis(), getType())))
    return failure();
  return verifyCombiner(*this, getCombiner(), srcType.getElementType());
}

LogicalResult GenericScanOp::verify() {
  if (failed(verifyAxis(*this, getSrc().getType(), getAxis())))
    return failure();
  return verifyCombiner(*this, getCombiner(),
                        getSrc().getType().getElementType());
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
  if (failed(verifyAxis(*this, getSrc().getType(), getAxis())))
    return failure();
  if (getKind() != ReduceKind::sum && getKind() != ReduceKind::prod)
    return emitOpError("scans sum or prod, not ")
           << stringifyReduceKind(getKind());
  Type elem = getSrc().getType().getElementType();
  if (isa<PointerType>(elem) || elem.isInteger(1))
    return emitOpError("scans numbers, not ") << elem;
  return success();
}

//===----------------------------------------------------------------------===//
// HintOp
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  size_t rank = std::max<size_t>(1, shapeOf(getType()).size());
  if (getMultipleOf().size() != rank || getMaxContiguous().size() != rank)
    return emitOpError("needs one multiple_of and one max_contiguous value "
                       "per dimension (")
           << rank << ")";
  for (int64_t m : getMultipleOf())
    if (m < 1 || (m & (m - 1)) != 0)
      return emitOpError("multiple_of values must be powers of two, got ") << m;
  ArrayRef<int64_t> shape = shapeOf(getType());
  for (auto [d, c] : llvm::enumerate(getMaxContiguous()))
    if (c < 1 || (!shape.empty() && c > shape[d]))
      return emitOpError("max_contiguous along dimension ")
             << d << " must be in [1, " << (shape.empty() ? 1 : shape[d])
             << "], got " << c;
  return success();
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getValue().getType());
  bool isInt = elem.isInteger(32) || elem.isInteger(64);
  bool isFloat = elem.isF32() || elem.isF64();
  bool isHalf = elem.isF16() || elem.isBF16();
  bool ok = false;
  switch (getKind()) {
  case AtomicKind::add:
    ok = isInt || isFloat || isHalf;
    break;
  case AtomicKind::max:
  case AtomicKind::min:
  case AtomicKind::xchg:
    ok = isInt || isFloat;
    break;
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor:
  case AtomicKind::umax:
  case AtomicKind::umin:
    ok = isInt;
    break;
  }
  if (!ok)
    return emitOpError("atomic ")
           << stringifyAtomicKind(getKind()) << " does not support " << elem;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type elem = getElementTypeOrSelf(getValue().getType());
  if (!elem.isInteger(32) && !elem.isInteger(64))
    return emitOpError("atomic compare-and-swap needs i32 or i64, not ")
           << elem;
  return success();
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
