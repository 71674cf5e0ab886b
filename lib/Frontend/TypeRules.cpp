//===- TypeRules.cpp - typing rules of the .tile language -----------------===//
#include "tile/Frontend/TypeRules.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

std::optional<SmallVector<int64_t>>
tile::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the right; missing leading dimensions count as 1.
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[rank - 1 - i] = da == 1 ? db : da;
  }
  return result;
}

Type tile::promoteTypes(Type a, Type b) {
  if (!a.isIntOrFloat() || !b.isIntOrFloat())
    return {};
  if (a == b)
    return a;
  auto fa = dyn_cast<FloatType>(a), fb = dyn_cast<FloatType>(b);
  if (fa && fb) {
    if (fa.getWidth() == fb.getWidth()) // f16 with bf16
      return Float32Type::get(a.getContext());
    return fa.getWidth() > fb.getWidth() ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  // Integers follow C's usual arithmetic conversions: the wider type; of
  // one width, the unsigned one; an unsigned type at least as wide as the
  // signed one wins.
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  bool ua = a.isUnsignedInteger(), ub = b.isUnsignedInteger();
  if (ua == ub)
    return wa >= wb ? a : b;
  if (ua)
    return wa >= wb ? a : b;
  return wb >= wa ? b : a;
}

Type tile::signlessType(Type type) {
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType().isUnsignedInteger()
               ? PointerType::get(type.getContext(),
                                  signlessType(ptr.getPointeeType()))
               : type;
  if (type.isUnsignedInteger())
    return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
  return type;
}

Type tile::scalarTypeFromName(MLIRContext *context, StringRef name) {
  Builder b(context);
  return llvm::StringSwitch<Type>(name)
      .Case("i1", b.getI1Type())
      .Case("i8", b.getI8Type())
      .Case("i16", b.getI16Type())
      .Case("i32", b.getI32Type())
      .Case("i64", b.getI64Type())
      .Case("u8", IntegerType::get(context, 8, IntegerType::Unsigned))
      .Case("u16", IntegerType::get(context, 16, IntegerType::Unsigned))
      .Case("u32", IntegerType::get(context, 32, IntegerType::Unsigned))
      .Case("u64", IntegerType::get(context, 64, IntegerType::Unsigned))
      .Case("f16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("f32", b.getF32Type())
      .Case("f64", b.getF64Type())
      .Case("f8e4m3", b.getType<Float8E4M3FNType>())
      .Case("f8e5m2", b.getType<Float8E5M2Type>())
      .Default(Type());
}

std::string tile::scalarTypeName(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (auto ptr = dyn_cast<PointerType>(type))
    return "ptr<" + scalarTypeName(ptr.getPointeeType()) + ">";
  if (type.isUnsignedInteger())
    return "u" + std::to_string(type.getIntOrFloatBitWidth());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

std::string tile::formatType(Type elementType, ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!elementType)
    os << "void";
  else
    os << scalarTypeName(elementType);
  if (!shape.empty())
    os << formatShape(shape);
  return s;
}

std::string tile::formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os);
  os << "]";
  return s;
}
