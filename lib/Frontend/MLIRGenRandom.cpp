//===- MLIRGenRandom.cpp - randint, rand, randn and umulhi ----------------===//
//
// Counter-based random numbers as Triton's tl.randint/tl.rand/tl.randn:
// Philox 4x32 with 10 rounds (Salmon et al., SC'11), the counter
// (offset, offset >> 32, 0, 0) and the key (seed, seed >> 32). The rounds are
// plain 32-bit integer ops (the high product through a 64-bit multiply), so
// the interpreter and the GPU compute the same bits, and the same bits as
// Triton for the same seed and offsets.
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

namespace {

enum class RandomBuiltin { RandInt, Rand, RandN, UMulHi, None };

RandomBuiltin randomBuiltinFromName(StringRef name) {
  return llvm::StringSwitch<RandomBuiltin>(name)
      .Case("randint", RandomBuiltin::RandInt)
      .Case("rand", RandomBuiltin::Rand)
      .Case("randn", RandomBuiltin::RandN)
      .Case("umulhi", RandomBuiltin::UMulHi)
      .Default(RandomBuiltin::None);
}

/// Integer arithmetic on values of one shape (a tile or a scalar).
struct IntOps {
  OpBuilder &b;
  Location loc;
  ArrayRef<int64_t> shape;

  Type type(unsigned width) {
    Type elem = b.getIntegerType(width);
    return shape.empty() ? elem : RankedTensorType::get(shape, elem);
  }
  Value constant(unsigned width, uint64_t v) {
    Type t = type(width);
    APInt bits(width, v);
    if (shape.empty())
      return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, bits));
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(cast<ShapedType>(t), bits));
  }
  Value trunc32(Value v) {
    return arith::TruncIOp::create(b, loc, type(32), v);
  }
  Value shiftRight32(Value v) {
    return arith::ShRUIOp::create(b, loc, v, constant(64, 32));
  }
  /// The high 32 bits of the unsigned 64-bit product of two i32 values.
  Value mulHi(Value x, Value y) {
    Value wide = arith::MulIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, type(64), x),
        arith::ExtUIOp::create(b, loc, type(64), y));
    return trunc32(shiftRight32(wide));
  }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value xor3(Value x, Value y, Value z) {
    return arith::XOrIOp::create(b, loc, arith::XOrIOp::create(b, loc, x, y),
                                 z);
  }
};

} // namespace

std::optional<FailureOr<TValue>>
MLIRGenImpl::genRandomBuiltin(const CallExpr &call) {
  RandomBuiltin kind = randomBuiltinFromName(call.callee);
  if (kind == RandomBuiltin::None)
    return genShapeBuiltin(call);
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };
  std::string what = "'" + call.callee + "'";
  bool isUMulHi = kind == RandomBuiltin::UMulHi;
  SmallVector<StringRef> names =
      isUMulHi ? SmallVector<StringRef>{"a", "b"}
               : SmallVector<StringRef>{"seed", "offsets"};
  if (failed(args.check(2, names)))
    return fail();
  FailureOr<TValue> first = args.value(0);
  if (failed(first))
    return fail();
  FailureOr<TValue> second = args.value(1);
  if (failed(second))
    return fail();
  for (const TValue *v : {&*first, &*second}) {
    auto integer = dyn_cast<IntegerType>(v->elemType);
    bool ok = integer &&
              (isUMulHi ? integer.getWidth() == 32
                        : integer.getWidth() == 32 || integer.getWidth() == 64);
    if (!ok)
      return FailureOr<TValue>(error(at)
                               << what
                               << (isUMulHi ? " needs i32 or u32 operands, got "
                                            : " needs i32 or i64 seed and "
                                              "offsets, got ")
                               << typeName(*v));
  }
  if (isUMulHi) {
    if (failed(unify(*first, *second, at, what)))
      return fail();
    IntOps ops{builder, l, first->shape};
    return FailureOr<TValue>(
        makeRuntime(ops.mulHi(materialize(*first, at).value,
                              materialize(*second, at).value),
                    first->elemType));
  }

  // The seed takes the offsets' shape.
  TValue offsets = materialize(*second, at);
  TValue seed = *first;
  if (!seed.shape.empty() && seed.shape != offsets.shape)
    return FailureOr<TValue>(error(at)
                             << "the seed of " << what
                             << " must be a scalar or have the "
                                "offsets' shape, got "
                             << typeName(seed) << " and " << typeName(offsets));
  FailureOr<TValue> seed64 = convert(seed, builder.getI64Type(), at);
  if (failed(seed64))
    return fail();
  FailureOr<TValue> seedTile =
      broadcastTo(materialize(*seed64, at), offsets.shape, at);
  if (failed(seedTile))
    return fail();
  IntOps ops{builder, l, offsets.shape};
  Value k0 = ops.trunc32(seedTile->value);
  Value k1 = ops.trunc32(ops.shiftRight32(seedTile->value));
  Value c0 = offsets.value, c1 = ops.constant(32, 0);
  if (offsets.elemType.isInteger(64)) {
    c0 = ops.trunc32(offsets.value);
    c1 = ops.trunc32(ops.shiftRight32(offsets.value));
  }
  Value c2 = ops.constant(32, 0), c3 = ops.constant(32, 0);
  Value m0 = ops.constant(32, 0xD2511F53), m1 = ops.constant(32, 0xCD9E8D57);
  Value w0 = ops.constant(32, 0x9E3779B9), w1 = ops.constant(32, 0xBB67AE85);
  for (int round = 0; round < 10; ++round) {
    Value old0 = c0, old2 = c2;
    c0 = ops.xor3(ops.mulHi(m1, old2), c1, k0);
    c2 = ops.xor3(ops.mulHi(m0, old0), c3, k1);
    c1 = ops.mul(m1, old2);
    c3 = ops.mul(m0, old0);
    k0 = ops.add(k0, w0);
    k1 = ops.add(k1, w1);
  }
  if (kind == RandomBuiltin::RandInt)
    return FailureOr<TValue>(makeRuntime(c0));

  // Uniform in [0, 1) as Triton: the bits as i32, negatives mirrored
  // (-x - 1), times 4.6566127342e-10 (just below 2^-31) in f32.
  Type f32 = builder.getF32Type();
  auto uniform = [&](Value bits) -> FailureOr<TValue> {
    TValue x = makeRuntime(bits);
    TValue zero = makeIntConst(0, builder.getI32Type(), /*weak=*/true);
    FailureOr<TValue> negative = genBinaryOp(Tok::Lt, x, zero, at);
    FailureOr<TValue> mirrored = genBinaryOp(
        Tok::Minus, makeIntConst(-1, builder.getI32Type(), /*weak=*/true), x,
        at);
    if (failed(negative) || failed(mirrored))
      return failure();
    Value magnitude = arith::SelectOp::create(builder, l, negative->value,
                                              mirrored->value, bits);
    FailureOr<TValue> asFloat = convert(makeRuntime(magnitude), f32, at);
    if (failed(asFloat))
      return failure();
    return genBinaryOp(Tok::Star, *asFloat,
                       makeFloatConst(4.6566127342e-10, f32, /*weak=*/true),
                       at);
  };
  FailureOr<TValue> u1 = uniform(c0);
  if (failed(u1) || kind == RandomBuiltin::Rand)
    return u1;

  // Box-Muller on the first two words, as Triton's randn.
  FailureOr<TValue> u2 = uniform(c1);
  if (failed(u2))
    return fail();
  FailureOr<TValue> smallest = broadcastTo(
      materialize(makeFloatConst(1.0e-7, f32), at), offsets.shape, at);
  if (failed(smallest))
    return fail();
  Value clamped =
      arith::MaximumFOp::create(builder, l, smallest->value, u1->value);
  Value logU = math::LogOp::create(builder, l, clamped);
  FailureOr<TValue> radiusSquared =
      genBinaryOp(Tok::Star, makeFloatConst(-2.0, f32, /*weak=*/true),
                  makeRuntime(logU), at);
  FailureOr<TValue> angle = genBinaryOp(
      Tok::Star, makeFloatConst(6.283185307179586, f32, /*weak=*/true), *u2,
      at);
  if (failed(radiusSquared) || failed(angle))
    return fail();
  Value radius = math::SqrtOp::create(builder, l, radiusSquared->value);
  Value cosine = math::CosOp::create(builder, l, angle->value);
  return FailureOr<TValue>(
      makeRuntime(arith::MulFOp::create(builder, l, radius, cosine)));
}

bool tile::isRandomBuiltinName(StringRef name) {
  return randomBuiltinFromName(name) != RandomBuiltin::None;
}
