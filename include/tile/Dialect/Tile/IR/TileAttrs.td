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

    The optional `repsPerWarp` repeats each warp's tile (`sizePerThread *
    threadsPerWarp`) `repsPerWarp[d]` times along `d` before the next warp's
    begins, so a warp tile is `sizePerThread * threadsPerWarp * repsPerWarp`
    and a thread's chunks along `d` are `sizePerThread * threadsPerWarp`
    apart within it. It is omitted when every entry is 1. A warpgroup MMA's
    accumulator (sm_90a) is such a layout: `repsPerWarp = [2, 1]` gives warp
    w rows 16w + [0, 16) of each 16 * warps rows, the rows an m64
    instruction gives warp w % 4 of its warpgroup.

    ```mlir
    #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                   warpsPerCTA = [4], order = [0]}>
    #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4],
                   warpsPerCTA = [8, 1], order = [1, 0],
                   repsPerWarp = [2, 1]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
      ArrayRefParameter<"unsigned">:$threadsPerWarp,
      ArrayRefParameter<"unsigned">:$warpsPerCTA,
      ArrayRefParameter<"unsigned">:$order,
      OptionalArrayRefParameter<"unsigned">:$repsPerWarp);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]`
            (`,` `repsPerWarp` `=` `[` $repsPerWarp^ `]`)? `}` `>`
  }];
  let builders = [AttrBuilder<(ins "::llvm::ArrayRef<unsigned>":$sizePerThread,
                                  "::llvm::ArrayRef<unsigned>":$threadsPerWarp,
                                  "::llvm::ArrayRef<unsigned>":$warpsPerCTA,
                                  "::llvm::ArrayRef<unsigned>":$order),
                              [{
      return $_get($_ctxt, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ::llvm::ArrayRef<unsigned>());
    }]>];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    /// Number of warps the layout spreads over.
    unsigned getNumWarps() const;
    /// Repetitions of a warp's thread tile along `dim` (1 unless
    /// repsPerWarp says otherwise).
    int64_t getWarpReps(unsigned dim) const;
    /// Elements of one warp's tile along `dim`: sizePerThread *
    /// threadsPerWarp * repsPerWarp.
    int64_t getWarpTileSize(unsigned dim) const;
    /// Elements of a CTA tile along each dimension.
    ::llvm::SmallVector<int64_t> getCTATileShape() const;
    /// Offset along `dim` of a thread's chunk `chunk` (of sizePerThread
    /// elements) from its first: the chunks of one warp tile, then the
    /// CTA tile's repetitions.
    int64_t getChunkOffset(unsigned dim, int64_t chunk) const;
    /// True for the layout of an `mma.sync` m16n8 accumulator fragment:
    /// sizePerThread [1, 2], threadsPerWarp [8, 4], order [1, 0]. Lane
    /// `l` holds row `l / 4` and columns `2 (l % 4) + {0, 1}` of each 8x8
    /// block; an m16 instruction pairs local rows 2i and 2i+1 (8 warps
    /// along M apart, or adjacent with repsPerWarp [2, 1]).
    bool isMmaAccumulator() const;
    /// The 2-D layout that gives each thread element (j, i) of a tile
    /// where this one gives it (i, j): every per-dimension list swapped,
    /// the order mapped (what a `trans` of a tile in this layout keeps).
    BlockedEncodingAttr getTransposed() const;
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

def Tile_SharedEncodingAttr : AttrDef<Tile_Dialect, "SharedEncoding"> {
  let mnemonic = "shared";
  let summary = "How a 2-D tile is stored in shared memory: order and swizzle";
  let description = [{
    The tile is stored as a row-major matrix whose rows run along dimension
    `order[0]` (the contiguous one) and follow each other along `order[1]`:
    with `order = [1, 0]` stored row r is tensor row r, with `order = [0, 1]`
    it is tensor column r (the tile is stored transposed). Each stored row is
    cut into chunks of `vec` elements, and chunk `c` of stored row `r` is kept
    at chunk `c ^ (r / perPhase % maxPhase)`, so that the 8 rows one
    `ldmatrix` (or a warp's vector accesses) reads fall in different banks.
    `tile-promote-shared` gives each staged operand the order of the global
    load that fills it, so copies move 16-byte chunks along memory order.

    Operands of a warpgroup MMA (`wgmma`, sm_90a) are stored as its matrix
    descriptors read them. A nonzero `panel` cuts each stored row into
    panels of `panel` elements (one swizzle atom: 32, 64 or 128 bytes,
    `vec * maxPhase` elements) and stores the panels one after another,
    each holding that slice of every row; the swizzle within a panel is then
    the hardware's. Rows are stored in order for either operand and
    either major: the accumulator of a wgmma dot is in the instructions'
    row order (`repsPerWarp` of `#tile.blocked`).

    ```mlir
    #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
    #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0],
                  panel = 64}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
      "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order,
      DefaultValuedParameter<"unsigned", "0">:$panel);
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,`
            `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]`
            (`,` `panel` `=` $panel^)? `}` `>`
  }];
  let builders = [AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase,
                                  "unsigned":$maxPhase,
                                  "::llvm::ArrayRef<unsigned>":$order),
                              [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, 0);
    }]>];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The swizzle for a tile of `shape` and `elemType` stored in `order`:
    /// 16-byte chunks (32 bytes where `elementReads`: 4-byte operands read
    /// one element per lane, 4 stored rows of 8 elements per warp access),
    /// as many rows per phase as fill 128 bytes, and as many phases as
    /// chunks in 128 bytes.
    static SharedEncodingAttr getSwizzled(::mlir::MLIRContext *context,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          ::mlir::Type elemType,
                                          ::llvm::ArrayRef<unsigned> order,
                                          bool elementReads);
    /// The swizzle a wgmma descriptor reads for a tile of `shape` and
    /// `elemType` stored in `order`: rows cut into panels of one swizzle
    /// atom (the row itself where shorter than 128 bytes). Null where the
    /// rows are not 32, 64 or a multiple of 128 bytes.
    static SharedEncodingAttr getForWgmma(::mlir::MLIRContext *context,
                                          ::llvm::ArrayRef<int64_t> shape,
                                          ::mlir::Type elemType,
                                          ::llvm::ArrayRef<unsigned> order);
    /// True when the tile is stored transposed (order [0, 1]).
    bool isTransposed() const { return getOrder()[0] == 0; }
  }];
}

#endif // TILE_DIALECT_TILE_IR_TILEATTRS_TD
