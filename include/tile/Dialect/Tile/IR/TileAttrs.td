//===- TileAttrs.td - layout encodings of tile tensors -----*- tablegen -*-===//
#ifndef TILE_DIALECT_TILE_IR_TILEATTRS_TD
#define TILE_DIALECT_TILE_IR_TILEATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_BlockedEncodingAttr : AttrDef<Tile_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
  let summary = "How a tile's elements are distributed to the threads of a block";
  let description = [{
    A blocked layout tiles a tensor with one "CTA tile" of shape
    `sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d]` per dimension `d`:
    each thread owns `sizePerThread` contiguous elements, the 32 threads of a
    warp are spread as `threadsPerWarp`, the warps as `warpsPerCTA`, and
    `order` lists dimensions from fastest-varying (order[0]) to slowest. A
    tensor larger than the CTA tile repeats it (each thread owns several
    chunks); a smaller one is replicated across threads. Layouts are
    shape-independent: every tensor of a rank can share one.

    ```mlir
    #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                   warpsPerCTA = [4], order = [0]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    /// Number of warps the layout spreads over.
    unsigned getNumWarps() const;
    /// Elements of a CTA tile along each dimension.
    ::llvm::SmallVector<int64_t> getCTATileShape() const;
  }];
}

def Tile_SliceEncodingAttr : AttrDef<Tile_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "A parent layout with one dimension removed";
  let description = [{
    The layout of a tensor whose elements are the parent layout's with
    dimension `dim` squeezed out: the result of reducing along `dim`, and the
    operand of `expand_dims` that inserts `dim`.

    ```mlir
    #tile.slice<{dim = 1, parent = #tile.blocked<{...}>}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::tile::BlockedEncodingAttr":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
