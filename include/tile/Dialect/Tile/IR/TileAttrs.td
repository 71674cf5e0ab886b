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
    /// True for the layout of an `mma.sync` m16n8 accumulator fragment:
    /// sizePerThread [1, 2], threadsPerWarp [8, 4], order [1, 0]. Lane
    /// `l` holds row `l / 4` and columns `2 (l % 4) + {0, 1}` of each 8x8
    /// block; an m16 instruction pairs local rows 2i and 2i+1.
    bool isMmaAccumulator() const;
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

def Tile_DotOperandEncodingAttr : AttrDef<Tile_Dialect, "DotOperandEncoding"> {
  let mnemonic = "dot_operand";
  let summary = "Operand `opIdx` of a tensor-core dot, as mma fragments";
  let description = [{
    The registers an `mma.sync` instruction takes as its A (`opIdx = 0`) or B
    (`opIdx = 1`) operand, for a dot whose result has the accumulator layout
    `parent` (a blocked layout for which `isMmaAccumulator` holds). Warps
    along M (N) of the parent hold the rows of A (columns of B) that their
    accumulator rows (columns) need, for the whole K extent. Tiles in this
    layout are made by `convert_layout` or `shared_load` and used by `dot`.

    ```mlir
    #tile.dot_operand<{opIdx = 0, parent = #tile.blocked<{...}>}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::tile::BlockedEncodingAttr":$parent);
  let assemblyFormat = "`<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
