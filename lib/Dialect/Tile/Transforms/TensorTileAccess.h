//===- TensorTileAccess.h - loads of whole tiles of a 2-D tensor -*- C++
//-*-===//
//
// A 2-D load that reads the tile of a strided tensor starting at scalar
// coordinates, masked by exactly the tensor's bounds:
//
//   ptr  = base + (start0 + i) * stride0 + (start1 + j) * stride1
//   mask = (start0 + i < bound0) & (start1 + j < bound1)
//
// as tile programs write it (`a + rm[:, None] * lda + rk[None, :]` with
// `rm = pid * BM + range(0, BM)`), so that the Tensor Memory Accelerator can
// copy it from a tensor map over (base, bounds, strides). A dimension whose
// indices are `range(0, W)` may go unmasked (its bound is then W). The base
// may be offset by whole slices of a packed 3-D tensor,
//
//   base = arg + slice * bound_row * stride_row
//
// as attention's `k + head + ...` with `head = program_id(1) * N * D` reads
// one head of a [B*H, N, D] tensor: the copy then reads slice `slice`.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_TENSORTILEACCESS_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_TENSORTILEACCESS_H

#include "mlir/IR/Value.h"

#include <optional>

namespace tile {

/// A scalar i32 `value + constant` (`value` may be null: the constant).
struct ScalarTerm {
  mlir::Value value;
  int64_t constant = 0;
  bool operator==(const ScalarTerm &other) const {
    return value == other.value && constant == other.constant;
  }
};

/// The tensor a load reads a tile of, and where the tile starts.
struct TensorTileAccess {
  /// The scalar pointer the tensor starts at.
  mlir::Value base;
  /// First index of the tile along each dimension.
  ScalarTerm starts[2];
  /// Elements between consecutive indices along each dimension: `value`
  /// alone (constant 0) or `constant` alone.
  ScalarTerm strides[2];
  /// Elements along each dimension: `value` or `constant` alone.
  ScalarTerm bounds[2];
  /// The dimension whose stride is the constant 1.
  unsigned contiguousDim = 1;
  /// The slice of a packed 3-D tensor the tile lies in (slices
  /// `bounds[row] * strides[row]` elements apart), when `sliced`.
  ScalarTerm slice;
  bool sliced = false;
};

/// The tensor tile `ptr` (a 2-D tile of pointers) reads under `mask`, when
/// both have the shape above; std::nullopt otherwise.
std::optional<TensorTileAccess> matchTensorTileAccess(mlir::Value ptr,
                                                      mlir::Value mask);

} // namespace tile

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_TENSORTILEACCESS_H
