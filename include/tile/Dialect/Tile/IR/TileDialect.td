//===- TileDialect.td - tile dialect definition ------------*- tablegen -*-===//
#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tile";
  let summary = "Block-level GPU programs over tiles";
  let description = [{
    The `tile` dialect models programs in the Triton programming model: each
    program instance of a grid operates on fixed-shape tiles, represented as
    ranked tensors of scalars or of `!tile.ptr` pointers. Arithmetic and math
    are expressed with upstream `arith` and `math` ops on tensors, control
    flow with `scf`. Tensor types may carry a layout encoding that the
    layout passes fill in.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect"
  ];
  // Attributes the passes and the driver put on ops of other dialects too.
  let discardableAttrs = (ins
      // On a kernel: warps per program instance (tile-coalesce).
      "::mlir::IntegerAttr":$num_warps,
      // On a kernel argument: it is divisible by this (a pointer: aligned to
      // this many bytes) in the compiled variant (tile-specialize).
      "::mlir::IntegerAttr":$divisibility,
      // On a kernel argument: compiled for the value 1 (tile-specialize).
      "::mlir::UnitAttr":$equal_to_one,
      // On a kernel argument: its type in the source where the IR's differs
      // (an unsigned integer or a pointer to one; the IR's is signless).
      "::mlir::TypeAttr":$source_type,
      // On a kernel's shared-memory global: the bytes the kernel needs
      // (convert-tile-to-gpu).
      "::mlir::IntegerAttr":$shared_bytes);
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
