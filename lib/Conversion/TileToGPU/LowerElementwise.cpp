//===- LowerElementwise.cpp - values, control flow, elementwise math ---===//
//
// Ops that each thread computes from its own slots: constants, ranges,
// splats, broadcasts, pointer arithmetic, program ids, scf.for/if (with the
// slots of their values flattened into iteration arguments and results),
// and arith/math ops slot by slot, with f32 math on the approximate units
// and fmod and f64 exp/log in software (SoftMath.cpp).
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"
#include "MathFunctions.h"
#include "SoftMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tile;

static LogicalResult lowerReturn(tile::ReturnOp op, LoweringContext &l) {
  gpu::ReturnOp::create(l.builder());
  return success();
}

/// program_id (GPUOp: gpu.block_id) and num_programs (gpu.grid_dim).
template <typename OpTy, typename GPUOp>
static LogicalResult lowerGridQuery(OpTy op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  Value v = GPUOp::create(b, static_cast<gpu::Dimension>(op.getAxis()));
  l.map(op, {arith::IndexCastUIOp::create(b, b.getI32Type(), v)});
  return success();
}

static LogicalResult lowerSplat(SplatOp op, LoweringContext &l) {
  auto dist = Distribution::get(op.getType());
  if (failed(dist))
    return op.emitError("a splat into a dot-operand layout is not "
                        "supported; splat in a blocked layout and convert");
  l.map(op, Slots(dist->getNumSlots(), l.lookupScalar(op.getSrc())));
  return success();
}

static LogicalResult lowerAddPtr(AddPtrOp op, LoweringContext &l) {
  Type elem =
      l.memoryType(getElementTypeOrSelf(getPointeeLikeType(op.getType())));
  const Slots &ptrs = l.lookup(op.getPtr());
  const Slots &offs = l.lookup(op.getOffset());
  Slots out;
  for (auto [p, o] : llvm::zip(ptrs, offs))
    out.push_back(LLVM::GEPOp::create(l.builder(), l.globalPtrType(), elem, p,
                                      ValueRange{o}));
  l.map(op, out);
  return success();
}

/// An 8-bit float constant as its bits (the register form of f8 values).
static TypedAttr registerConstant(ImplicitLocOpBuilder &b, TypedAttr value) {
  auto f = dyn_cast<FloatAttr>(value);
  if (!f || !isFloat8(f.getType()))
    return value;
  return b.getI8IntegerAttr(f.getValue().bitcastToAPInt().getZExtValue());
}

static LogicalResult lowerConstant(arith::ConstantOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto dist = *Distribution::get(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense) {
    l.map(op, {arith::ConstantOp::create(
                  b, registerConstant(b, cast<TypedAttr>(op.getValue())))});
    return success();
  }
  if (!dense.isSplat())
    return op.emitError("a non-uniform tile constant is not supported by "
                        "convert-tile-to-gpu");
  Value scalar = arith::ConstantOp::create(
      b, registerConstant(b, dense.getSplatValue<TypedAttr>()));
  l.map(op, Slots(dist.getNumSlots(), scalar));
  return success();
}

static LogicalResult lowerMakeRange(MakeRangeOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  auto dist = *Distribution::get(op.getType());
  // The range's one dimension, in the layout's rank: the one a slice layout
  // does not remove.
  unsigned dim = dist.getSlicedDim() == 0u ? 1 : 0;
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    Value c = l.coordinates(dist, slot)[dim];
    out.push_back(op.getStart() == 0
                      ? c
                      : arith::AddIOp::create(b, c, l.i32(op.getStart())));
  }
  l.map(op, out);
  return success();
}

static LogicalResult lowerBroadcast(BroadcastOp op, LoweringContext &l) {
  auto src = *Distribution::get(op.getSrc().getType());
  auto dst = *Distribution::get(op.getType());
  if (src.getLayout() != dst.getLayout())
    return op.emitError("broadcast between different layouts is not "
                        "supported by convert-tile-to-gpu");
  const Slots &in = l.lookup(op.getSrc());
  Slots out;
  for (unsigned slot = 0; slot < dst.getNumSlots(); ++slot) {
    SmallVector<int64_t> local = dst.getLocalIndex(slot);
    for (unsigned d = 0; d < local.size(); ++d)
      if (src.getShape()[d] == 1)
        local[d] = 0;
    out.push_back(in[src.getSlot(local)]);
  }
  l.map(op, out);
  return success();
}

/// True when the slots of a value of `type` (`slots` of them) cross
/// control flow (loop-carried, yielded, branch results) in pairs, as
/// vector<2 x f16> (bf16): a 16-bit float tile in a distributed layout.
/// Attention's P, rounded to f16 in one iteration and re-packed as MMA
/// fragments in the next, then crosses the loop as the pairs the
/// conversion makes and the fragments take (cvt.rn.f16x2.f32, no moves to
/// pack them again), not as 16-bit scalars. Dot-operand tiles hold
/// fragment registers already.
static bool crossesInPairs(Type type, unsigned slots) {
  Type elem = getElementTypeOrSelf(type);
  return (elem.isF16() || elem.isBF16()) && slots % 2 == 0 &&
         !isDotOperand(type);
}

/// Flattens the slots of `values` into one list (pairs of 16-bit floats as
/// vectors: crossesInPairs), recording each one's slot count.
static SmallVector<Value> flatten(LoweringContext &lowering, ValueRange values,
                                  SmallVectorImpl<unsigned> &counts) {
  ImplicitLocOpBuilder &b = lowering.builder();
  SmallVector<Value> flat;
  for (Value v : values) {
    const Slots &slots = lowering.lookup(v);
    counts.push_back(slots.size());
    if (!crossesInPairs(v.getType(), slots.size())) {
      flat.append(slots.begin(), slots.end());
      continue;
    }
    auto pair = VectorType::get({2}, getElementTypeOrSelf(v.getType()));
    for (size_t i = 0; i < slots.size(); i += 2)
      flat.push_back(vector::FromElementsOp::create(
          b, pair, ValueRange{slots[i], slots[i + 1]}));
  }
  return flat;
}

/// Maps each of `values` to its run of `flat`, as `counts` gives their
/// slots (pairs taken apart at the builder's insertion point).
static void unflatten(LoweringContext &lowering, ValueRange values,
                      ValueRange flat, ArrayRef<unsigned> counts) {
  ImplicitLocOpBuilder &b = lowering.builder();
  unsigned pos = 0;
  for (auto [v, n] : llvm::zip(values, counts)) {
    if (!crossesInPairs(v.getType(), n)) {
      lowering.map(v, Slots(flat.begin() + pos, flat.begin() + pos + n));
      pos += n;
      continue;
    }
    Slots slots;
    for (unsigned i = 0; i < n / 2; ++i)
      for (int64_t half : {0, 1})
        slots.push_back(vector::ExtractOp::create(b, flat[pos + i],
                                                  ArrayRef<int64_t>{half}));
    lowering.map(v, slots);
    pos += n / 2;
  }
}

/// The types `flatten` gives the slots of values of `types`.
static SmallVector<Type> flatTypes(LoweringContext &lowering, TypeRange types) {
  SmallVector<Type> flat;
  for (Type t : types) {
    unsigned slots = Distribution::get(t)->getNumSlots();
    Type elem = getElementTypeOrSelf(t);
    if (isa<PointerType>(elem))
      elem = lowering.globalPtrType();
    if (crossesInPairs(t, slots))
      flat.append(slots / 2, VectorType::get({2}, elem));
    else
      flat.append(slots, elem);
  }
  return flat;
}

static LogicalResult lowerFor(scf::ForOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<unsigned> counts;
  SmallVector<Value> inits = flatten(l, op.getInitArgs(), counts);
  auto newFor = scf::ForOp::create(b, l.lookupScalar(op.getLowerBound()),
                                   l.lookupScalar(op.getUpperBound()),
                                   l.lookupScalar(op.getStep()), inits);
  newFor.setUnsignedCmp(op.getUnsignedCmp());
  l.map(op.getInductionVar(), {newFor.getInductionVar()});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(newFor.getBody());
    unflatten(l, op.getRegionIterArgs(), newFor.getRegionIterArgs(), counts);
  }
  if (failed(l.lowerBlockInto(*op.getBody(), newFor.getBody())))
    return failure();
  unflatten(l, op.getResults(), newFor.getResults(), counts);
  return success();
}

/// A while loop over the carried values' slots: the condition block and
/// the body lowered into blocks whose arguments are those slots.
static LogicalResult lowerWhile(scf::WhileOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<unsigned> counts;
  SmallVector<Value> inits = flatten(l, op.getInits(), counts);
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  auto newWhile = scf::WhileOp::create(b, types, inits);
  SmallVector<Location> locs(types.size(), op.getLoc());
  Block *before = b.createBlock(&newWhile.getBefore(), {}, types, locs);
  Block *after = b.createBlock(&newWhile.getAfter(), {}, types, locs);
  b.setInsertionPointToStart(before);
  unflatten(l, op.getBeforeArguments(), before->getArguments(), counts);
  b.setInsertionPointToStart(after);
  unflatten(l, op.getAfterArguments(), after->getArguments(), counts);
  b.setInsertionPointAfter(newWhile);
  if (failed(l.lowerBlockInto(op.getBefore().front(), before)) ||
      failed(l.lowerBlockInto(op.getAfter().front(), after)))
    return failure();
  unflatten(l, op.getResults(), newWhile.getResults(), counts);
  return success();
}

static LogicalResult lowerCondition(scf::ConditionOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<unsigned> counts;
  scf::ConditionOp::create(b, l.lookupScalar(op.getCondition()),
                           flatten(l, op.getArgs(), counts));
  return success();
}

static LogicalResult lowerIf(scf::IfOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<Type> types = flatTypes(l, op.getResultTypes());
  SmallVector<unsigned> counts;
  for (Type t : op.getResultTypes())
    counts.push_back(Distribution::get(t)->getNumSlots());
  bool hasElse = !op.getElseRegion().empty();
  auto newIf = scf::IfOp::create(b, types, l.lookupScalar(op.getCondition()),
                                 /*addThenBlock=*/true, hasElse);
  if (failed(l.lowerBlockInto(*op.thenBlock(), newIf.thenBlock())) ||
      (hasElse && failed(l.lowerBlockInto(*op.elseBlock(), newIf.elseBlock()))))
    return failure();
  unflatten(l, op.getResults(), newIf.getResults(), counts);
  return success();
}

static LogicalResult lowerYield(scf::YieldOp op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  SmallVector<unsigned> counts;
  scf::YieldOp::create(b, flatten(l, op.getOperands(), counts));
  return success();
}

static FailureOr<Value> emitMath(LoweringContext &l, Operation *op, Value x) {
  ImplicitLocOpBuilder &b = l.builder();
  Type type = x.getType();
  Type f32 = b.getF32Type();
  auto unsupported = [&]() -> FailureOr<Value> {
    return op->emitError("'") << op->getName() << "' on " << type
                              << " is not supported by convert-tile-to-gpu";
  };
  if (type.isF16() || type.isBF16()) {
    // Half-precision math computes in f32 and rounds once.
    Value wide = arith::ExtFOp::create(b, f32, x);
    FailureOr<Value> r = emitMath(l, op, wide);
    if (failed(r))
      return failure();
    return Value(arith::TruncFOp::create(b, type, *r));
  }
  // Intrinsics are called by name: convert-gpu-to-nvvm would turn the
  // llvm.intr ops into libdevice calls, which need the CUDA toolkit.
  auto intrinsic = [&](StringRef name, Value v,
                       LLVM::FastmathFlags flags = {}) -> Value {
    return LLVM::CallIntrinsicOp::create(
               b, type, b.getStringAttr(name), ValueRange{v},
               LLVM::FastmathFlagsAttr::get(b.getContext(), flags))
        .getResult(0);
  };
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, b.getFloatAttr(type, v));
  };
  std::string suffix = type.isF64() ? ".f64" : ".f32";
  if (isa<math::FloorOp>(op))
    return intrinsic("llvm.floor" + suffix, x);
  if (isa<math::CeilOp>(op))
    return intrinsic("llvm.ceil" + suffix, x);
  if (isa<math::TanhOp>(op))
    return emitTanh(b, x);
  if (isa<math::SinOp, math::CosOp>(op)) {
    if (type.isF64())
      return emitSinCosF64(b, x, isa<math::CosOp>(op));
    Value wide = arith::ExtFOp::create(b, b.getF64Type(), x);
    return Value(arith::TruncFOp::create(
        b, type, emitSinCosF64(b, wide, isa<math::CosOp>(op))));
  }
  if (isa<math::ErfOp>(op) && type.isF32())
    return emitErfF32(b, x);
  if (isa<math::SqrtOp>(op))
    return intrinsic("llvm.sqrt" + suffix, x);
  if (isa<math::AbsFOp>(op))
    return intrinsic("llvm.fabs" + suffix, x);
  if (isa<math::RsqrtOp>(op)) {
    if (type.isF64())
      return Value(arith::DivFOp::create(b, constant(1.0),
                                         intrinsic("llvm.sqrt.f64", x)));
    return intrinsic("llvm.nvvm.rsqrt.approx.f", x);
  }
  if (type.isF64() &&
      isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op>(op))
    return emitF64Math(b, op->getName().stripDialect(), x);
  if (!type.isF32())
    return unsupported();
  // exp(x) = 2^(x log2 e) and log(x) = log2(x) ln 2, on the approximate
  // ex2/lg2 units (relative error about 2^-22), as Triton does. ex2 flushes
  // results below 2^-126 to zero (.ftz, as Triton): without it ptxas wraps
  // each ex2 in a compare and two multiplies to scale subnormals.
  auto ex2 = [&](Value v) {
    return intrinsic("llvm.nvvm.ex2.approx.ftz.f32", v);
  };
  if (isa<math::ExpOp>(op)) {
    // x log2(e) = t + lo, lo the product's rounding error (by fma) plus x
    // times log2(e)'s low part: 2^t (1 + lo ln 2) keeps ex2.approx's error at
    // every |x|, where 2^t alone would be off by |t| 2^-24 (26 ulp at -28).
    Value log2e = constant(1.4426950216293335);
    Value t = arith::MulFOp::create(b, x, log2e);
    Value lo = arith::AddFOp::create(
        b,
        LLVM::CallIntrinsicOp::create(
            b, type, b.getStringAttr("llvm.fma.f32"),
            ValueRange{x, log2e, arith::NegFOp::create(b, t)})
            .getResult(0),
        arith::MulFOp::create(b, x, constant(1.9259629911266175e-08)));
    Value e = ex2(t);
    Value r =
        LLVM::CallIntrinsicOp::create(
            b, type, b.getStringAttr("llvm.fma.f32"),
            ValueRange{
                e, arith::MulFOp::create(b, lo, constant(0.6931471805599453)),
                e})
            .getResult(0);
    // Where 2^t is infinite (lo is NaN, or 0 times inf), it is the answer.
    Value failed = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, r, r);
    return Value(arith::SelectOp::create(b, failed, e, r));
  }
  if (isa<math::Exp2Op>(op))
    return ex2(x);
  if (isa<math::LogOp>(op))
    return Value(arith::MulFOp::create(b,
                                       intrinsic("llvm.nvvm.lg2.approx.f", x),
                                       constant(0.6931471805599453)));
  if (isa<math::Log2Op>(op))
    return intrinsic("llvm.nvvm.lg2.approx.f", x);
  return unsupported();
}

/// `<<` and `>>` as the language defines them for every amount: an amount
/// outside [0, width) gives 0 (`<<`) or the sign (`>>`), where LLVM's shifts
/// would be poison. A constant amount in range needs no check.
static Value emitShift(ImplicitLocOpBuilder &b, Operation *op, Value x,
                       Value amount) {
  unsigned width = x.getType().getIntOrFloatBitWidth();
  APInt constant;
  if (matchPattern(amount, m_ConstantInt(&constant)) && constant.ult(width)) {
    OperationState state(b.getLoc(), op->getName(), {x, amount}, {x.getType()});
    return b.create(state)->getResult(0);
  }
  Value last = arith::ConstantIntOp::create(b, x.getType(), width - 1);
  if (isa<arith::ShRSIOp>(op)) {
    // Unsigned clamp: negative amounts are huge unsigned ones.
    Value clamped = arith::MinUIOp::create(b, amount, last);
    return arith::ShRSIOp::create(b, x, clamped);
  }
  Value inRange =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ule, amount, last);
  Value safe = arith::SelectOp::create(b, inRange, amount, last);
  Value zero = arith::ConstantIntOp::create(b, x.getType(), 0);
  Value shifted = isa<arith::ShLIOp>(op)
                      ? Value(arith::ShLIOp::create(b, x, safe))
                      : Value(arith::ShRUIOp::create(b, x, safe));
  return arith::SelectOp::create(b, inRange, shifted, zero);
}

/// Signed `/`, `%` and `cdiv` defined for every input, as the interpreter
/// computes them: `MIN / -1` wraps to MIN, `MIN % -1` is 0; a zero divisor
/// (an error in the interpreter) gives 0 instead of LLVM's undefined
/// behaviour. Constant divisors fold the checks away.
static Value emitDivision(ImplicitLocOpBuilder &b, Operation *op, Value x,
                          Value y) {
  Type type = x.getType();
  Value zero = arith::ConstantIntOp::create(b, type, 0);
  Value one = arith::ConstantIntOp::create(b, type, 1);
  Value minusOne = arith::ConstantIntOp::create(b, type, -1);
  Value byZero = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, y, zero);
  Value byMinusOne =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, y, minusOne);
  Value safe = arith::SelectOp::create(
      b, arith::OrIOp::create(b, byZero, byMinusOne), one, y);
  if (isa<arith::RemSIOp>(op))
    return arith::RemSIOp::create(b, x, safe);
  Value quotient =
      arith::SelectOp::create(b, byMinusOne, arith::SubIOp::create(b, zero, x),
                              arith::DivSIOp::create(b, x, safe));
  quotient = arith::SelectOp::create(b, byZero, zero, quotient);
  if (isa<arith::DivSIOp>(op))
    return quotient;
  // cdiv: one more where the division was inexact and the signs agree.
  Value remainder = arith::RemSIOp::create(b, x, safe);
  Value inexact =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ne, remainder, zero);
  Value sameSign = arith::CmpIOp::create(b, arith::CmpIPredicate::sge,
                                         arith::XOrIOp::create(b, x, y), zero);
  Value up = arith::AndIOp::create(b, inexact, sameSign);
  return arith::AddIOp::create(b, quotient,
                               arith::ExtUIOp::create(b, type, up));
}

/// The f32 values of two 8-bit floats (`type`) given by their bits: the
/// hardware's pair conversion to f16 (exact), widened.
static std::pair<Value, Value> decodeFloat8Pair(ImplicitLocOpBuilder &b,
                                                Value lo, Value hi, Type type) {
  Value pair = vector::FromElementsOp::create(
      b, VectorType::get({2}, b.getI8Type()), ValueRange{lo, hi});
  Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
      b, VectorType::get({2}, b.getF16Type()), pair, b.getBoolAttr(false),
      TypeAttr::get(type));
  auto element = [&](int64_t i) -> Value {
    Value half = vector::ExtractOp::create(b, halves, ArrayRef<int64_t>{i});
    return arith::ExtFOp::create(b, b.getF32Type(), half);
  };
  return {element(0), element(1)};
}

/// The bits of two f32 values rounded to the 8-bit float `type`: to
/// nearest, saturating to the largest finite value (cvt.rn.satfinite), as
/// the language defines it (tile/Support/Float8.h).
static std::pair<Value, Value> encodeFloat8Pair(ImplicitLocOpBuilder &b,
                                                Value lo, Value hi, Type type) {
  // The first operand lands in the high byte.
  Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
      b, b.getI16Type(), hi, lo, NVVM::FPRoundingMode::RN,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false, type);
  Value high = arith::ShRUIOp::create(
      b, packed, arith::ConstantIntOp::create(b, b.getI16Type(), 8));
  return {arith::TruncIOp::create(b, b.getI8Type(), packed),
          arith::TruncIOp::create(b, b.getI8Type(), high)};
}

/// Whether `op` converts to or from an 8-bit float (not a bitcast).
static bool isFloat8Conversion(Operation *op) {
  return (isa<arith::ExtFOp>(op) &&
          isFloat8(getElementTypeOrSelf(op->getOperand(0).getType()))) ||
         (isa<arith::TruncFOp>(op) &&
          isFloat8(getElementTypeOrSelf(op->getResult(0).getType())));
}

/// Conversions to and from 8-bit floats, whose registers hold their bits:
/// two slots per conversion instruction (the hardware converts pairs).
static LogicalResult lowerFloat8Conversion(Operation *op, LoweringContext &l) {
  ImplicitLocOpBuilder &b = l.builder();
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  Slots in = l.lookup(op->getOperand(0)), out;
  // An odd slot pairs with itself.
  for (size_t i = 0; i < in.size(); i += 2) {
    Value lo = in[i], hi = in[std::min(i + 1, in.size() - 1)];
    std::pair<Value, Value> r;
    if (isa<arith::ExtFOp>(op)) {
      r = decodeFloat8Pair(b, lo, hi, from);
      auto fromF32 = [&](Value x) -> Value {
        if (to.isF32())
          return x;
        if (to.isF64())
          return arith::ExtFOp::create(b, to, x);
        return arith::TruncFOp::create(b, to, x); // exact: f16, bf16
      };
      r = {fromF32(r.first), fromF32(r.second)};
    } else {
      auto toF32 = [&](Value x) -> Value {
        if (x.getType().getIntOrFloatBitWidth() < 32)
          return arith::ExtFOp::create(b, b.getF32Type(), x);
        if (x.getType().isF64())
          return arith::TruncFOp::create(b, b.getF32Type(), x);
        return x;
      };
      r = encodeFloat8Pair(b, toF32(lo), toF32(hi), to);
    }
    out.push_back(r.first);
    if (i + 1 < in.size())
      out.push_back(r.second);
  }
  l.map(op->getResult(0), out);
  return success();
}

/// A bitcast between i8 and an 8-bit float: the same register.
static Value emitFloat8Bitcast(Operation *op, ValueRange operands) {
  if (!isa<arith::BitcastOp>(op))
    return Value();
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  return isFloat8(from) || isFloat8(to) ? operands[0] : Value();
}

static FailureOr<Value> emitScalarOp(LoweringContext &l, Operation *op,
                                     ValueRange operands, Type resultType) {
  ImplicitLocOpBuilder &b = l.builder();
  if (Value v = emitFloat8Bitcast(op, operands))
    return v;
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op))
    return emitShift(b, op, operands[0], operands[1]);
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp>(op))
    return emitDivision(b, op, operands[0], operands[1]);
  if (isa<math::PowFOp>(op)) {
    // In f64 for every type, rounded once to the result type.
    Type f64 = b.getF64Type();
    auto widen = [&](Value v) -> Value {
      return v.getType() == f64 ? v : arith::ExtFOp::create(b, f64, v);
    };
    Value r = emitPowF64(b, widen(operands[0]), widen(operands[1]));
    return resultType == f64 ? r : arith::TruncFOp::create(b, resultType, r);
  }
  if (isa<math::FmaOp>(op)) {
    // f16 and bf16 as an f32 fma rounded to the type, as the interpreter.
    Type type = resultType.isF64() ? resultType : b.getF32Type();
    SmallVector<Value> args;
    for (Value v : operands)
      args.push_back(
          v.getType() == type ? v : Value(arith::ExtFOp::create(b, type, v)));
    Value r =
        LLVM::CallIntrinsicOp::create(
            b, type,
            b.getStringAttr(type.isF64() ? "llvm.fma.f64" : "llvm.fma.f32"),
            args)
            .getResult(0);
    return type == resultType
               ? r
               : Value(arith::TruncFOp::create(b, resultType, r));
  }
  if (isa<math::MathDialect>(op->getDialect()) && operands.size() == 1 &&
      isa<FloatType>(resultType))
    return emitMath(l, op, operands[0]);
  if (isa<arith::RemFOp>(op))
    return emitExactRemainder(b, operands[0], operands[1]);
  if (isa<arith::FPToSIOp>(op)) {
    // Saturating, NaN to 0 (cvt.rzi.sat), as the language defines it: LLVM's
    // fptosi is poison out of range.
    Value x = operands[0];
    if (x.getType().getIntOrFloatBitWidth() < 32)
      x = arith::ExtFOp::create(b, b.getF32Type(), x);
    std::string name = "llvm.fptosi.sat.i" +
                       std::to_string(resultType.getIntOrFloatBitWidth()) +
                       (x.getType().isF64() ? ".f64" : ".f32");
    return LLVM::CallIntrinsicOp::create(b, resultType, b.getStringAttr(name),
                                         ValueRange{x})
        .getResult(0);
  }
  if (isa<math::AbsIOp>(op)) {
    // select(x < 0, 0 - x, x): math.absi would become a libdevice call.
    Value x = operands[0];
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(resultType));
    Value negative =
        arith::CmpIOp::create(b, arith::CmpIPredicate::slt, x, zero);
    return Value(arith::SelectOp::create(b, negative,
                                         arith::SubIOp::create(b, zero, x), x));
  }
  OperationState state(b.getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(op->getAttrs());
  return b.create(state)->getResult(0);
}

static LogicalResult lowerElementwise(Operation *op, LoweringContext &l) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return op->emitError("'")
           << op->getName() << "' is not supported by convert-tile-to-gpu";
  if (isFloat8Conversion(op))
    return lowerFloat8Conversion(op, l);
  Value result = op->getResult(0);
  auto dist = *Distribution::get(result.getType());
  Type elemType = getElementTypeOrSelf(result.getType());
  // Pointers (a select of them) are global LLVM pointers in the thread;
  // 8-bit floats are their bits.
  if (isa<PointerType>(elemType))
    elemType = l.globalPtrType();
  else if (isFloat8(elemType))
    elemType = l.builder().getI8Type();
  Slots out;
  for (unsigned slot = 0; slot < dist.getNumSlots(); ++slot) {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      const Slots &slots = l.lookup(operand);
      operands.push_back(slots.size() == 1 ? slots[0] : slots[slot]);
    }
    FailureOr<Value> v = emitScalarOp(l, op, operands, elemType);
    if (failed(v))
      return failure();
    out.push_back(*v);
  }
  l.map(result, out);
  return success();
}

/// A hint is a fact for the analysis; the value is its operand.
static LogicalResult lowerHint(HintOp op, LoweringContext &l) {
  l.map(op, l.lookup(op.getSrc()));
  return success();
}

void tile::populateElementwiseLowerings(LoweringPatternSet &patterns) {
  patterns.add(lowerHint);
  patterns.add(lowerReturn);
  patterns.add(lowerGridQuery<ProgramIdOp, gpu::BlockIdOp>);
  patterns.add(lowerGridQuery<NumProgramsOp, gpu::GridDimOp>);
  patterns.add(lowerSplat);
  patterns.add(lowerAddPtr);
  patterns.add(lowerMakeRange);
  patterns.add(lowerBroadcast);
  patterns.add(lowerConstant);
  patterns.add(lowerFor);
  patterns.add(lowerIf);
  patterns.add(lowerWhile);
  patterns.add(lowerCondition);
  patterns.add(lowerYield);
  patterns.addDialect(arith::ArithDialect::getDialectNamespace(),
                      lowerElementwise);
  patterns.addDialect(math::MathDialect::getDialectNamespace(),
                      lowerElementwise);
}
