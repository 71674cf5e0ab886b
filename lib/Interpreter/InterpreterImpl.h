//===- InterpreterImpl.h - internals of the tile interpreter -----*- C++
//-*-===//
//
// Shared by Interpreter.cpp (values, control flow, tile ops),
// InterpreterArith.cpp (arith and math ops) and InterpreterReduce.cpp
// (reductions and scans).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_INTERPRETER_INTERPRETERIMPL_H
#define TILE_LIB_INTERPRETER_INTERPRETERIMPL_H

#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tile::interp::detail {
using namespace mlir;

/// Wraps `v` to a signed integer of `width` bits (i1 is 0 or 1).
inline int64_t wrapInt(int64_t v, unsigned width) {
  if (width == 1)
    return v & 1;
  if (width >= 64)
    return v;
  return llvm::SignExtend64(static_cast<uint64_t>(v), width);
}

/// `v` truncated toward zero to a signed integer of `width` bits, saturating
/// at the type's limits, NaN to 0 (the GPU's cvt.rzi.sat).
inline int64_t saturatingFloatToInt(double v, unsigned width) {
  if (std::isnan(v))
    return 0;
  // +-2^(width-1) are exact doubles; the limits themselves may not be.
  double limit = std::ldexp(1.0, width - 1);
  if (v >= limit)
    return llvm::maxIntN(width);
  if (v <= -limit)
    return llvm::minIntN(width);
  return static_cast<int64_t>(std::trunc(v));
}

/// The bits of the `width`-bit integer `a` (held sign-extended) as unsigned.
inline uint64_t toUnsigned(int64_t a, unsigned width) {
  return width >= 64 ? uint64_t(a) : uint64_t(a) & ((uint64_t(1) << width) - 1);
}

/// Converts `v` to an unsigned integer of `width` bits as the GPU's
/// `cvt.rzi.u*` does: toward zero, saturating (negatives to 0), NaN to 0;
/// the result's bits as an int64_t.
inline int64_t saturatingFloatToUnsigned(double v, unsigned width) {
  if (std::isnan(v) || v <= 0)
    return 0;
  if (v >= std::ldexp(1.0, width))
    return static_cast<int64_t>(llvm::maxUIntN(width));
  return static_cast<int64_t>(static_cast<uint64_t>(std::trunc(v)));
}

} // namespace tile::interp::detail

namespace tile::interp::detail {

/// An element of a pointer tile: an element offset into a kernel argument's
/// buffer.
struct Ptr {
  int32_t buffer = -1;
  int64_t offset = 0;
};

/// A scalar or tile value; exactly one of the vectors is used, by type.
struct RtValue {
  SmallVector<int64_t, 2> shape;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<Ptr> ptrs;

  size_t size() const {
    return std::max({ints.size(), floats.size(), ptrs.size()});
  }
};

enum class ElemClass { Int, Float, Ptr };

inline Type elementType(Type t) { return getElementTypeOrSelf(t); }

inline ElemClass classOf(Type t) {
  Type e = elementType(t);
  if (isa<PointerType>(e))
    return ElemClass::Ptr;
  return isa<FloatType>(e) ? ElemClass::Float : ElemClass::Int;
}

inline SmallVector<int64_t, 2> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t, 2>(tensor.getShape());
  return {};
}

inline int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// A value of type `t` with every element default-initialized.
/// The error for an op the interpreter cannot execute.
inline LogicalResult unsupported(Operation &op) {
  return op.emitError("the interpreter does not support '")
         << op.getName() << "'";
}

inline RtValue makeValue(Type t) {
  RtValue v;
  v.shape = shapeOf(t);
  size_t n = numElements(v.shape);
  switch (classOf(t)) {
  case ElemClass::Int:
    v.ints.assign(n, 0);
    break;
  case ElemClass::Float:
    v.floats.assign(n, 0.0);
    break;
  case ElemClass::Ptr:
    v.ptrs.assign(n, Ptr());
    break;
  }
  return v;
}

/// Rounds or wraps a computed element to the element type of `t`.
struct ElemType {
  explicit ElemType(Type t) {
    Type e = elementType(t);
    if (auto i = dyn_cast<IntegerType>(e))
      width = i.getWidth();
    else if (isa<FloatType>(e))
      kind = *scalarKindOf(e);
  }
  int64_t wrap(int64_t v) const { return wrapInt(v, width); }
  double round(double v) const { return roundToFloatKind(v, kind); }
  unsigned width = 64;
  ScalarKind kind = ScalarKind::F64;
};

class Interpreter {
public:
  Interpreter(KernelOp kernel, ArrayRef<HostBuffer *> buffers)
      : kernel(kernel), buffers(buffers) {}

  LogicalResult runProgram(std::array<int64_t, 3> pid,
                           std::array<int64_t, 3> grid,
                           ArrayRef<RtValue> args) {
    this->pid = pid;
    this->grid = grid;
    values.clear();
    Block &entry = kernel.getBody().front();
    for (auto [arg, value] : llvm::zip(entry.getArguments(), args))
      values[arg] = value;
    return runBlock(entry, nullptr);
  }

private:
  LogicalResult runBlock(Block &block, SmallVectorImpl<RtValue> *yielded);
  LogicalResult runOp(Operation &op);
  LogicalResult runFor(scf::ForOp op);
  LogicalResult runIf(scf::IfOp op);
  LogicalResult runWhile(scf::WhileOp op);
  LogicalResult runArith(Operation &op);
  LogicalResult runTileOp(Operation &op);
  LogicalResult runMemory(Operation &op);
  LogicalResult runDot(DotOp op);
  LogicalResult runReduce(ReduceOp op);
  LogicalResult runScan(ScanOp op);
  LogicalResult runHint(HintOp op);
  /// generic_reduce (in order along the axis) and generic_scan.
  LogicalResult runGenericReduce(GenericReduceOp op);
  LogicalResult runGenericScan(GenericScanOp op);
  /// The combiner region applied to the scalars `a` and `b`.
  FailureOr<RtValue> combine(Region &combiner, RtValue a, RtValue b);
  /// print (to stdout) and device_assert (an error where it fails).
  LogicalResult runDebug(Operation &op);

  const RtValue &get(Value v) { return values[v]; }
  void set(Value v, RtValue r) { values[v] = std::move(r); }

  KernelOp kernel;
  ArrayRef<HostBuffer *> buffers;
  std::array<int64_t, 3> pid{}, grid{};
  DenseMap<Value, RtValue> values;
};

} // namespace tile::interp::detail


#endif // TILE_LIB_INTERPRETER_INTERPRETERIMPL_H
