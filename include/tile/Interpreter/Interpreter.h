//===- Interpreter.h - run tile kernels on the CPU --------------*- C++ -*-===//
//
// Executes a `tile.kernel` (tile dialect before layouts) for every program
// id of a grid, against host buffers. Lets users debug kernels without a GPU
// (`tilec --run`) and lets CI check what every kernel computes.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_INTERPRETER_INTERPRETER_H
#define TILE_INTERPRETER_INTERPRETER_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tile::interp {

/// Element types a host buffer can hold.
enum class ScalarKind {
  I1,
  I8,
  I16,
  I32,
  I64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3,
  F8E5M2
};

/// The kind of an MLIR scalar type; fails for other types.
mlir::FailureOr<ScalarKind> scalarKindOf(mlir::Type type);
/// Whether the kind is a floating-point type.
bool isFloatKind(ScalarKind kind);
/// The name of the kind, e.g. "f32".
const char *scalarKindName(ScalarKind kind);

/// Bytes per element of a kind (i1 takes one byte, 0 or 1).
size_t scalarKindBytes(ScalarKind kind);

/// A host buffer a pointer parameter points to. Elements are held in the
/// buffer's own type, laid out as on the GPU (little-endian, i1 as a byte),
/// and read and written as double or int64.
class HostBuffer {
public:
  HostBuffer(ScalarKind kind, size_t size);

  ScalarKind kind() const { return elemKind; }
  size_t size() const { return count; }
  /// Whether the integers are unsigned (`ptr<u32>`): they are stored, loaded
  /// and computed with as the same bits; only printing and .npy files
  /// (`<u4`) read them differently.
  bool isUnsigned() const { return unsignedInts; }
  void setUnsigned(bool isUnsigned) { unsignedInts = isUnsigned; }
  /// Element `i` of an integer buffer as an unsigned number of its width.
  uint64_t getUnsigned(size_t i) const;
  bool isFloat() const { return isFloatKind(elemKind); }
  /// The elements' bytes: size() * scalarKindBytes(kind()) of them.
  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }
  size_t byteSize() const { return bytes.size(); }

  /// Element `i` as a double (integers are converted).
  double getFloat(size_t i) const;
  /// Element `i` as an integer (floats are truncated; NaN reads as 0).
  int64_t getInt(size_t i) const;
  /// Sets element `i`, rounding/wrapping to the buffer's type.
  void setFloat(size_t i, double v);
  void setInt(size_t i, int64_t v);
  /// Fills every element with `v`; NaN (to poison an output) sets every bit
  /// of an integer buffer.
  void fill(double v);

private:
  ScalarKind elemKind;
  size_t count;
  bool unsignedInts = false;
  std::vector<uint8_t> bytes;
};

/// One kernel argument: an integer or float scalar, or a buffer for a
/// pointer parameter.
struct KernelArg {
  enum class Kind { Int, Float, Buffer } kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0.0;
  HostBuffer *buffer = nullptr;

  static KernelArg ofInt(int64_t v) { return {Kind::Int, v, 0.0, nullptr}; }
  static KernelArg ofFloat(double v) { return {Kind::Float, 0, v, nullptr}; }
  static KernelArg ofBuffer(HostBuffer &b) { return {Kind::Buffer, 0, 0.0, &b}; }
};

/// Runs `kernel` once for every program id of `grid` (x, y, z), in order.
/// Arguments are checked against the kernel's parameters. Errors (a bad
/// argument, an out-of-bounds unmasked access, an unsupported op) are emitted
/// as diagnostics at the offending op's location and return failure.
mlir::LogicalResult runKernel(KernelOp kernel, std::array<int64_t, 3> grid,
                              llvm::ArrayRef<KernelArg> args);

/// The source name of kernel parameter `i` (from its NameLoc), or "#i".
std::string kernelParamName(KernelOp kernel, unsigned i);

/// Rounds `v` to the nearest value of a float kind (f16, bf16, f32, f64).
double roundToFloatKind(double v, ScalarKind kind);

} // namespace tile::interp

#endif // TILE_INTERPRETER_INTERPRETER_H
