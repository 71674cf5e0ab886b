//===- HostBuffer.cpp - the interpreter's scalar kinds and host arrays ---===//
//
// The element types the interpreter knows (ScalarKind) and the host arrays
// that hold a tile's or a kernel argument's elements, stored as the type's
// bytes: floats rounded to their kind on every store (f16, bf16 and the
// 8-bit floats through their formats), integers wrapped to their width.
//
//===----------------------------------------------------------------------===//
#include "InterpreterImpl.h"

#include "tile/Support/Float8.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tile;
using namespace tile::interp;
using namespace tile::interp::detail;

FailureOr<ScalarKind> interp::scalarKindOf(Type type) {
  if (type.isInteger(1))
    return ScalarKind::I1;
  if (type.isInteger(8))
    return ScalarKind::I8;
  if (type.isInteger(16))
    return ScalarKind::I16;
  if (type.isInteger(32))
    return ScalarKind::I32;
  if (type.isInteger(64))
    return ScalarKind::I64;
  if (type.isF16())
    return ScalarKind::F16;
  if (type.isBF16())
    return ScalarKind::BF16;
  if (type.isF32())
    return ScalarKind::F32;
  if (type.isF64())
    return ScalarKind::F64;
  if (isa<Float8E4M3FNType>(type))
    return ScalarKind::F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return ScalarKind::F8E5M2;
  return failure();
}

bool interp::isFloatKind(ScalarKind kind) {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64 ||
         kind == ScalarKind::F8E4M3 || kind == ScalarKind::F8E5M2;
}

const char *interp::scalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return "i1";
  case ScalarKind::I8:
    return "i8";
  case ScalarKind::I16:
    return "i16";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::I64:
    return "i64";
  case ScalarKind::F16:
    return "f16";
  case ScalarKind::BF16:
    return "bf16";
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  case ScalarKind::F8E4M3:
    return "f8e4m3";
  case ScalarKind::F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

static unsigned intWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return 1;
  case ScalarKind::I8:
    return 8;
  case ScalarKind::I16:
    return 16;
  case ScalarKind::I32:
    return 32;
  default:
    return 64;
  }
}

double interp::roundToFloatKind(double v, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F64:
    return v;
  case ScalarKind::F32:
    return static_cast<double>(static_cast<float>(v));
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    llvm::APFloat f(v);
    bool lost;
    f.convert(kind == ScalarKind::F16 ? llvm::APFloat::IEEEhalf()
                                      : llvm::APFloat::BFloat(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return roundToFloat8(v, kind == ScalarKind::F8E5M2);
  default:
    return v;
  }
}

size_t interp::scalarKindBytes(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
  case ScalarKind::I8:
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return 1;
  case ScalarKind::I16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 2;
  case ScalarKind::I32:
  case ScalarKind::F32:
    return 4;
  case ScalarKind::I64:
  case ScalarKind::F64:
    return 8;
  }
  return 8;
}

HostBuffer::HostBuffer(ScalarKind kind, size_t size)
    : elemKind(kind), count(size), bytes(size * scalarKindBytes(kind), 0) {}

/// The semantics of a 16-bit float kind.
static const llvm::fltSemantics &halfSemantics(ScalarKind kind) {
  return kind == ScalarKind::F16 ? llvm::APFloat::IEEEhalf()
                                 : llvm::APFloat::BFloat();
}

double HostBuffer::getFloat(size_t i) const {
  const uint8_t *p = bytes.data() + i * scalarKindBytes(elemKind);
  switch (elemKind) {
  case ScalarKind::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case ScalarKind::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    llvm::APFloat f(halfSemantics(elemKind), llvm::APInt(16, v));
    bool lost;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    return float8Value(*p, elemKind == ScalarKind::F8E5M2);
  default:
    return static_cast<double>(getInt(i));
  }
}

uint64_t HostBuffer::getUnsigned(size_t i) const {
  size_t bits = elemKind == ScalarKind::I1 ? 1 : 8 * scalarKindBytes(elemKind);
  return toUnsigned(getInt(i), bits);
}

int64_t HostBuffer::getInt(size_t i) const {
  if (isFloat())
    return saturatingFloatToInt(getFloat(i), 64);
  const uint8_t *p = bytes.data() + i * scalarKindBytes(elemKind);
  switch (elemKind) {
  case ScalarKind::I1:
    return *p & 1;
  case ScalarKind::I8:
    return static_cast<int8_t>(*p);
  case ScalarKind::I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case ScalarKind::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  default: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

void HostBuffer::setFloat(size_t i, double v) {
  uint8_t *p = bytes.data() + i * scalarKindBytes(elemKind);
  switch (elemKind) {
  case ScalarKind::F64:
    std::memcpy(p, &v, 8);
    return;
  case ScalarKind::F32: {
    float f = static_cast<float>(v);
    std::memcpy(p, &f, 4);
    return;
  }
  case ScalarKind::F16:
  case ScalarKind::BF16: {
    llvm::APFloat f(v);
    bool lost;
    f.convert(halfSemantics(elemKind), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    uint16_t h = static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue());
    std::memcpy(p, &h, 2);
    return;
  }
  case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2:
    *p = float8Bits(v, elemKind == ScalarKind::F8E5M2);
    return;
  default:
    setInt(i, saturatingFloatToInt(v, 64));
  }
}

void HostBuffer::setInt(size_t i, int64_t v) {
  if (isFloat())
    return setFloat(i, static_cast<double>(v));
  uint8_t *p = bytes.data() + i * scalarKindBytes(elemKind);
  int64_t wrapped = wrapInt(v, intWidth(elemKind));
  // Little-endian: the low bytes of the two's complement value.
  for (size_t b = 0; b < scalarKindBytes(elemKind); ++b)
    p[b] = static_cast<uint8_t>(static_cast<uint64_t>(wrapped) >> (8 * b));
}

void HostBuffer::fill(double v) {
  if (!isFloat() && std::isnan(v)) {
    std::fill(bytes.begin(), bytes.end(),
              elemKind == ScalarKind::I1 ? 1 : 0xFF);
    return;
  }
  for (size_t i = 0; i < size(); ++i)
    setFloat(i, v);
}
