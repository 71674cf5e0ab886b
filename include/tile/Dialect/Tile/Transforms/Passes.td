//===- Passes.td - tile dialect passes ---------------------*- tablegen -*-===//
#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCoalesce : Pass<"tile-coalesce", "::mlir::ModuleOp"> {
  let summary = "Give tiles blocked layouts in which memory accesses coalesce";
  let description = [{
    Uses the axis analysis (contiguity, divisibility) of each load's and
    store's pointers to choose, per tensor rank, a blocked layout in which
    each thread owns as many contiguous elements as one 16-byte access can
    move and a warp's threads touch consecutive addresses. Every tile of that
    rank gets the layout; `expand_dims` operands and `reduce` results get the
    matching slice layouts, with `convert_layout` where a layout changes. The
    kernel records the number of warps in `tile.num_warps`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program instance (a power of two)">
  ];
  let dependentDialects = ["::tile::TileDialect"];
}

def TileRemoveLayoutConversions : Pass<"tile-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Drop layout conversions that need no data movement";
  let description = [{
    Removes `convert_layout` ops whose result the source already is, folds
    chains of conversions, and rematerializes cheap producers (`splat`,
    `make_range`, splat constants, and elementwise arith ops whose operands
    are all such) directly in the converted-to layout, so that the values
    are computed where they are needed instead of moved through shared
    memory.
  }];
  let dependentDialects = ["::tile::TileDialect"];
}

def TileTestPrintAxisInfo : Pass<"tile-test-print-axis-info", "::mlir::ModuleOp"> {
  let summary = "Report the axis analysis of every value as remarks (testing)";
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
