//===- MLIRGenMemory.cpp - load, store and the atomics ------------------===//
//
// The builtins that read and write global memory through pointer tiles:
// `load` (mask, `other`), `store` (mask) and the atomics (`atomic_add` ...
// `atomic_cas`, with `sem:` and `scope:`), their operands broadcast to one
// shape and converted to the pointee type where a literal allows.
//
//===----------------------------------------------------------------------===//
#include "BuiltinArgs.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tile;
using namespace tile::ast;

namespace {

enum class MemoryBuiltin {
  Load,
  Store,
  AtomicAdd,
  AtomicMax,
  AtomicMin,
  AtomicXchg,
  AtomicAnd,
  AtomicOr,
  AtomicXor,
  AtomicCas,
  None
};

MemoryBuiltin memoryBuiltinFromName(StringRef name) {
  return llvm::StringSwitch<MemoryBuiltin>(name)
      .Case("load", MemoryBuiltin::Load)
      .Case("store", MemoryBuiltin::Store)
      .Case("atomic_add", MemoryBuiltin::AtomicAdd)
      .Case("atomic_max", MemoryBuiltin::AtomicMax)
      .Case("atomic_min", MemoryBuiltin::AtomicMin)
      .Case("atomic_xchg", MemoryBuiltin::AtomicXchg)
      .Case("atomic_and", MemoryBuiltin::AtomicAnd)
      .Case("atomic_or", MemoryBuiltin::AtomicOr)
      .Case("atomic_xor", MemoryBuiltin::AtomicXor)
      .Case("atomic_cas", MemoryBuiltin::AtomicCas)
      .Default(MemoryBuiltin::None);
}

} // namespace

std::optional<FailureOr<TValue>>
MLIRGenImpl::genMemoryBuiltin(const CallExpr &call) {
  MemoryBuiltin kind = memoryBuiltinFromName(call.callee);
  if (kind == MemoryBuiltin::None)
    return genMathBuiltin(call);
  SrcLoc at = call.getLoc();
  Location l = loc(at);
  CallArgs args(*this, call);
  auto fail = [] { return FailureOr<TValue>(failure()); };
  bool isLoad = kind == MemoryBuiltin::Load;
  bool isCas = kind == MemoryBuiltin::AtomicCas;
  bool isAtomic = kind != MemoryBuiltin::Load && kind != MemoryBuiltin::Store;
  SmallVector<StringRef> names = {"ptr", "mask", "other"};
  if (!isLoad)
    names = {"ptr", "value", "mask"};
  if (isAtomic)
    names = {"ptr", "value", "mask", "sem", "scope"};
  if (isCas)
    names = {"ptr", "cmp", "value", "sem", "scope"};
  if (failed(args.check(isCas ? 3 : isLoad ? 1 : 2, names)))
    return fail();
  FailureOr<TValue> ptr = args.value(0);
  if (failed(ptr))
    return fail();
  auto ptrType = dyn_cast<PointerType>(ptr->elemType);
  if (!ptrType)
    return FailureOr<TValue>(error(args.get(0)->getLoc())
                             << "'" << call.callee
                             << "' needs a pointer or a tile of pointers, "
                                "got "
                             << typeName(*ptr));
  Type pointee = ptrType.getPointeeType();
  if (isAtomic) {
    bool isInt = pointee.isInteger(32) || pointee.isInteger(64);
    bool isFloat = pointee.isF32() || pointee.isF64();
    bool isHalf = pointee.isF16() || pointee.isBF16();
    bool bitwise = kind == MemoryBuiltin::AtomicAnd ||
                   kind == MemoryBuiltin::AtomicOr ||
                   kind == MemoryBuiltin::AtomicXor || isCas;
    bool isAdd = kind == MemoryBuiltin::AtomicAdd;
    if (!(isInt || (!bitwise && isFloat) || (isAdd && isHalf)))
      return FailureOr<TValue>(error(args.get(0)->getLoc())
                               << "'" << call.callee << "' does not support "
                               << formatType(ptrType, {}) << " (it takes "
                               << (isAdd ? "i32 i64 u32 u64 f16 bf16 f32 f64"
                                   : bitwise ? "i32 i64 u32 u64"
                                             : "i32 i64 u32 u64 f32 f64")
                               << ")");
  }
  SmallVector<int64_t> shape(ptr->shape.begin(), ptr->shape.end());
  auto join = [&](const TValue &v, const Expr *e) -> LogicalResult {
    std::optional<SmallVector<int64_t>> s = broadcastShapes(shape, v.shape);
    if (!s)
      return error(e->getLoc()) << "shape of " << typeName(v)
                                << " does not broadcast with the pointers' "
                                << formatType(ptr->elemType, shape);
    shape = *s;
    return success();
  };
  std::optional<TValue> mask, other, value, cmp;
  size_t maskIndex = isLoad ? 1 : 2;
  if (const Expr *maskExpr = isCas ? nullptr : args.get(maskIndex)) {
    FailureOr<TValue> m = args.value(maskIndex);
    if (failed(m))
      return fail();
    if (!m->elemType.isInteger(1))
      return FailureOr<TValue>(error(maskExpr->getLoc())
                               << "mask must be i1 (bool), got "
                               << typeName(*m));
    if (failed(join(*m, maskExpr)))
      return fail();
    mask = *m;
  }
  // The operand at `index` converted to the pointee type.
  auto pointeeOperand = [&](size_t index,
                            std::optional<TValue> &into) -> LogicalResult {
    const Expr *valueExpr = args.get(index);
    if (!valueExpr)
      return success();
    if (isLoad && !mask)
      return error(valueExpr->getLoc()) << "'other' needs a mask";
    FailureOr<TValue> v = args.value(index);
    if (failed(v))
      return failure();
    if (v->elemType != pointee) {
      if (!v->weak || (isa<IntegerType>(pointee) && v->floatConst))
        return error(valueExpr->getLoc())
               << (isLoad ? "'other' of type "
                          : "cannot store a value of type ")
               << typeName(*v) << (isLoad ? " does not match " : " through ")
               << formatType(ptrType, {}) << "; convert it with cast(..., "
               << formatType(pointee, {}) << ")";
      v = convert(*v, pointee, valueExpr->getLoc());
      if (failed(v))
        return failure();
    }
    if (failed(join(*v, valueExpr)))
      return failure();
    into = *v;
    return success();
  };
  if (failed(pointeeOperand(isLoad  ? 2
                            : isCas ? 2
                                    : 1,
                            isLoad ? other : value)) ||
      (isCas && failed(pointeeOperand(1, cmp))))
    return fail();
  auto expand = [&](std::optional<TValue> &v) -> Value {
    if (!v)
      return Value();
    FailureOr<TValue> b = broadcastTo(materialize(*v, at), shape, at);
    return succeeded(b) ? b->value : Value();
  };
  std::optional<TValue> ptrOpt = *ptr;
  Value p = expand(ptrOpt), m = expand(mask);
  if (isLoad) {
    Value o = expand(other);
    Type resultType = mlirType(pointee, shape);
    return FailureOr<TValue>(
        makeRuntime(LoadOp::create(builder, l, resultType, p, m, o), pointee));
  }
  if (!isAtomic) {
    StoreOp::create(builder, l, p, expand(value), m);
    return FailureOr<TValue>(TValue());
  }
  FailureOr<std::pair<MemSemantic, MemScope>> order =
      genAtomicOrder(args.get(3), args.get(4));
  if (failed(order))
    return fail();
  if (!isCas && order->second == MemScope::sys)
    return FailureOr<TValue>(
        error(args.get(4)->getLoc())
        << "scope 'sys' is supported by atomic_cas only (LLVM's NVPTX "
           "backend gives other atomics gpu scope)");
  Type resultType = mlirType(pointee, shape);
  if (isCas)
    return FailureOr<TValue>(makeRuntime(
        AtomicCASOp::create(builder, l, resultType, p, expand(cmp),
                            expand(value),
                            MemSemanticAttr::get(&context, order->first),
                            MemScopeAttr::get(&context, order->second)),
        pointee));
  bool isUnsigned = pointee.isUnsignedInteger();
  AtomicKind atomicKind =
      kind == MemoryBuiltin::AtomicAdd ? AtomicKind::add
      : kind == MemoryBuiltin::AtomicMax
          ? (isUnsigned ? AtomicKind::umax : AtomicKind::max)
      : kind == MemoryBuiltin::AtomicMin
          ? (isUnsigned ? AtomicKind::umin : AtomicKind::min)
      : kind == MemoryBuiltin::AtomicXchg ? AtomicKind::xchg
      : kind == MemoryBuiltin::AtomicAnd  ? AtomicKind::And
      : kind == MemoryBuiltin::AtomicOr   ? AtomicKind::Or
                                          : AtomicKind::Xor;
  return FailureOr<TValue>(makeRuntime(
      AtomicRMWOp::create(
          builder, l, resultType, AtomicKindAttr::get(&context, atomicKind), p,
          expand(value), m, MemSemanticAttr::get(&context, order->first),
          MemScopeAttr::get(&context, order->second)),
      pointee));
}

FailureOr<std::pair<MemSemantic, MemScope>>
MLIRGenImpl::genAtomicOrder(const Expr *sem, const Expr *scope) {
  std::pair<MemSemantic, MemScope> order = {MemSemantic::acq_rel,
                                            MemScope::gpu};
  if (sem) {
    auto *name = dyn_cast<NameExpr>(sem);
    std::optional<MemSemantic> s =
        name ? symbolizeMemSemantic(name->name) : std::nullopt;
    if (!s)
      return error(sem->getLoc()) << "sem must be 'relaxed', 'acquire', "
                                     "'release' or 'acq_rel'";
    order.first = *s;
  }
  if (scope) {
    auto *name = dyn_cast<NameExpr>(scope);
    std::optional<MemScope> s =
        name ? symbolizeMemScope(name->name) : std::nullopt;
    if (!s)
      return error(scope->getLoc()) << "scope must be 'gpu', 'cta' or 'sys'";
    order.second = *s;
  }
  return order;
}

bool tile::isMemoryBuiltinName(StringRef name) {
  return memoryBuiltinFromName(name) != MemoryBuiltin::None;
}
