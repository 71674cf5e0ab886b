//===- KernelSignature.h - what a compiled kernel expects -------*- C++ -*-===//
//
// The compiler records each kernel's parameters (names, types, the
// divisibility facts of its specialization), its warps (those it launches
// with: a producer warpgroup's included) and shared memory; the runtime
// checks launches against it. In a PTX file the record is a
// comment line per kernel:
//
//   // tile.kernel vector_add warps=4 shared=0 x:ptr<f32>:16 n:i32:1
//
// where the last field of a parameter is what the code assumes of it: its
// divisibility (16: divisible by 16, for a pointer: a 16-byte-aligned
// address; 1: nothing), or `eq1`: the integer is 1 (compiled as a constant).
// A kernel that loads through the Tensor Memory Accelerator takes, after
// its parameters, one CUtensorMap per `tmap=` field, which the launch
// encodes from the arguments it names:
//
//   tmap=a:f16:K,M:lda:64x8:128
//
// a 2-D tensor of f16 at parameter `a`, K elements along its contiguous
// dimension and M rows lda elements apart, read in boxes of 64 x 8
// elements with the 128-byte swizzle (sizes and pitch: parameter names
// or decimal constants). A trailing `:slices` makes it the first of the
// slices of a packed 3-D tensor, M * lda elements apart, unbounded in
// number (2^31: the program names the slice it reads; boxes one slice
// deep):
//
//   tmap=k:f16:128,N:128:64x64:128:slices
//
//===----------------------------------------------------------------------===//
#ifndef TILE_SUPPORT_KERNELSIGNATURE_H
#define TILE_SUPPORT_KERNELSIGNATURE_H

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tile {

/// One kernel parameter.
struct ParamInfo {
  enum class Kind { Pointer, Int, Float };
  std::string name;
  /// Source spelling: "ptr<f32>", "i32", "f16", ...
  std::string type;
  /// The pointee of a pointer ("f32"); the type itself for a scalar.
  std::string elementType;
  Kind kind = Kind::Int;
  /// Size of the value passed at launch (pointers: 64).
  unsigned bits = 32;
  /// An unsigned integer (u8 ... u64): its range is [0, 2^bits).
  bool isUnsigned = false;
  /// Divisibility the compiled code assumes (1: none, 16: by 16).
  unsigned divisibility = 1;
  /// The code was compiled for this integer being 1.
  bool equalToOne = false;
};

/// A tensor map a kernel takes after its parameters (see the file comment).
struct TensorMapInfo {
  /// The pointer parameter the tensor starts at.
  std::string pointer;
  /// Element type spelling: f16, bf16, f32, or i8 for any 8-bit type.
  std::string elementType;
  /// Elements along the contiguous dimension, then rows: parameter names
  /// or decimal constants.
  std::string sizes[2];
  /// Elements between rows: a parameter name or a decimal constant.
  std::string pitch;
  /// Box extents, contiguous dimension first.
  unsigned box[2] = {0, 0};
  /// 32, 64 or 128; 0 for none.
  unsigned swizzleBytes = 0;
  /// A third dimension: slices `sizes[1] * pitch` elements apart, with no
  /// bound of their own.
  bool slices = false;
};

/// The `tmap=` field of `map` (without a leading space).
std::string formatTensorMap(const TensorMapInfo &map);
/// Parses a `tmap=` field; std::nullopt when malformed.
std::optional<TensorMapInfo> parseTensorMap(std::string_view field);

/// One compiled kernel.
struct KernelInfo {
  std::string name;
  std::vector<ParamInfo> params;
  unsigned numWarps = 4;
  long sharedBytes = 0;
  /// The const parameters' values (defaults or overrides) as source text, in
  /// declaration order; known when compiled from source (not recorded in
  /// PTX signature lines).
  std::vector<std::pair<std::string, std::string>> constants;
  /// The tensor maps the kernel takes after its parameters, in order.
  std::vector<TensorMapInfo> tensorMaps;
};

/// Parses a type spelling into `param.kind` and `param.bits`; false if
/// the spelling is not a kernel parameter type.
bool setParamType(ParamInfo &param, std::string_view type);

/// The comment line that records `kernel` (with a trailing newline).
std::string formatSignature(const KernelInfo &kernel);

/// Every signature line in `ptx`; std::nullopt with `error` set when a line
/// is malformed.
std::optional<std::vector<KernelInfo>> parseSignatures(std::string_view ptx,
                                                       std::string &error);

} // namespace tile

#endif // TILE_SUPPORT_KERNELSIGNATURE_H
