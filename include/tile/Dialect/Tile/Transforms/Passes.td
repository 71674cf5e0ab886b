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
    rank gets the layout, except a load or store whose pointers are
    contiguous along another dimension (a transposed access), or a load
    that only feeds dots whose own layout would give each thread more than
    8 rows to copy while a warp spans more than one 128-byte line per row
    (its lanes then cover one line per row), or that copies less than a
    word at once (elements of rows aligned only to the element; also 4-byte
    f32 copies along the K of an f32 dot on FMA units), which then takes the
    shortest run of accesses a thread along the row, up to 16 bytes, that
    leaves at most 8 rows: it gets its
    own layout with `convert_layout`s around it, which
    `tile-remove-layout-conversions` folds into the address computation.
    `expand_dims` operands and `reduce` results get the matching slice
    layouts, with `convert_layout` where a layout changes. The
    kernel records the number of warps in `tile.num_warps`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program instance (a power of two)">
  ];
  let dependentDialects = ["::tile::TileDialect"];
}

def TileSpecialize : Pass<"tile-specialize", "::mlir::ModuleOp"> {
  let summary = "Compile kernels for facts about their arguments";
  let description = [{
    Records what a compiled variant may assume of the kernel arguments it
    names (by their source names, the `NameLoc`s the frontend gives them),
    for the axis analysis and for the signature the launch checks:
    `divisible` arguments (and, with `pointers-divisible`, every pointer)
    get `tile.divisibility = 16` (a pointer: 16-byte aligned), or D for an
    entry `NAME:D` (D = 2, 4, 8: an f16 row stride divisible by 8 still makes
    16-byte rows); `equal-to-one`
    integer arguments get `tile.equal_to_one` and their uses become the
    constant 1, so a unit stride makes accesses contiguous. A name that no
    kernel parameter has, or `equal-to-one` of a non-integer, is an error.
    Runs on frontend output, before the layout passes.
  }];
  let options = [
    ListOption<"divisible", "divisible", "std::string",
               "Arguments divisible by 16 (pointers: 16-byte aligned); "
               "NAME:D for divisible by D (2, 4, 8 or 16)">,
    Option<"pointersDivisible", "pointers-divisible", "bool",
           /*default=*/"false", "Every pointer argument is 16-byte aligned">,
    ListOption<"equalToOne", "equal-to-one", "std::string",
               "Integer arguments equal to 1">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
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

def TileDecomposeBatchedDot
    : Pass<"tile-decompose-batched-dot", "::mlir::ModuleOp"> {
  let summary = "Compute a batched (3-D) dot as one 2-D dot per batch";
  let description = [{
    Runs before the layout passes, which lay out 2-D dots only. A `dot` of
    [B, M, K] and [B, K, N] tiles (accumulator [B, M, N]) becomes B dots of
    [M, K] and [K, N] tiles. Batch i of an operand computed from the batch
    index through constants, `splat`, `make_range`, `expand_dims`,
    `broadcast` and elementwise ops (`arith`, `addptr`, `load`) is computed
    again with the index fixed, each op right after the one it repeats;
    batch i of any other operand is taken out by selecting it and summing
    over dimension 0 on the values' bits (exact). The results are selected
    back into the [B, M, N] tile by batch index. The 2-D dots then take the
    tensor-core or FMA path as any other.
  }];
  let dependentDialects = ["::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileAccelerateDot : Pass<"tile-accelerate-dot", "::mlir::ModuleOp"> {
  let summary = "Give dots that tensor cores can compute mma layouts";
  let description = [{
    A `dot` with f16 or bf16 inputs (f32 or, for f16, f16 accumulation), or
    f32 inputs with `precision = tf32`, whose shape is a multiple of the
    `mma.sync` instruction (M by 16, N by 8, K by 16, or 8 for tf32) gets
    the accumulator layout of `mma.sync` m16n8 (a blocked layout with
    sizePerThread [1, 2], threadsPerWarp [8, 4], the kernel's warps split
    over M and N so that each warp's tile is as square as the shape allows),
    and its operands the matching `#tile.dot_operand` layouts, all through
    explicit `convert_layout` ops. Other dots (f32 `ieee`, f64, shapes that
    do not divide) stay on the FMA path; where such a float dot's A is
    loaded along M or its B along K (tile-promote-shared stores them
    transposed), its accumulator gets each thread's rows consecutive where
    A is along M, and one column per lane where B is along K (the same
    threads, warps and registers per thread), so that the lowering reads
    both stages as 16-byte vectors. Where both are (TT), the dot is computed
    transposed instead, `trans(dot(trans(B), trans(A), trans(C)))`: an NN
    dot, on the layout tile-coalesce gives an NN kernel's dot (that of a
    K-contiguous load of B's width), with C converted into its transpose.

    With `wgmma` (sm_90a), a 16-bit dot that warpgroup MMAs can compute
    (the kernel's warps a multiple of 4, M a multiple of 16 per warp, N a
    multiple of 8 up to 256, K of 16, f32 accumulation; 8-bit inputs) puts
    all warps along M, the layout `wgmma` accumulates in once
    tile-promote-shared stores its operands for it. With `wgmma`, every
    dot whose warps all go along M (M a multiple of 16 per warp: those,
    dots chained through their A operand like attention's P, narrow ones)
    gets `repsPerWarp = [2, 1]`: warp w holds rows 16w + [0, 16) of each
    16 * warps, the rows an m64 instruction gives it (mma.sync computes
    any row assignment the same way). Warpgroup MMAs read a tf32 B only
    K-major (A K-major or in registers): a tf32 dot whose B is loaded along
    N and whose A is loaded along K (NN) is computed transposed instead,
    `trans(dot(trans(B), trans(A), trans(C)))`, every `trans` into the
    transposed layout (`getTransposed`: free in registers, a stage view for
    the loads), where the shapes fit with M and N swapped. A tf32 dot with
    both operands loaded along M/N (TN), which that does not help, gets
    the warpgroup layout where B's K x N tile takes a thread at most 32
    registers (`isWgmmaOrderByTransposingCopy`): tile-promote-shared then
    stores B K-major through registers.
  }];
  let options = [
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "Lay out dots that sm_90a warpgroup MMAs can compute for them">
  ];
  let dependentDialects = ["::tile::TileDialect"];
}

def TilePromoteShared : Pass<"tile-promote-shared", "::mlir::ModuleOp"> {
  let summary = "Stage dot operands global -> shared memory with cp.async, pipelined over the K loop";
  let description = [{
    A dot operand that a K loop loads from global memory and converts to a
    dot-operand layout is copied directly into a `num-stages`-deep shared
    buffer (`async_copy`, i.e. `cp.async`) `num-stages - 1` iterations ahead
    of its use and read into mma fragments with `shared_load` (`ldmatrix`
    from the swizzled layout, no bank conflicts). A load whose conversion
    several dots read (identical conversions are merged first) is staged
    once, each dot reading it through a `shared_load` of its own; for
    wgmma every such dot must ask for the same encoding. Each buffer's
    `#tile.shared` encoding stores the stage in its load's memory order, so
    copies move 16-byte chunks for every operand order; a `trans` between
    the load and the dot becomes `shared_load ... transposed`, a view of the
    stage. One `async_wait` per
    iteration waits for that iteration's copies and is a block barrier,
    which also makes the stage about to be overwritten free. The stages
    are capped by `max-shared-bytes` (the pipeline passes the target's
    limit on one block's shared memory), less the operands the pass copies
    once that stay live through the loop. A float operand of an FMA dot
    (blocked layouts: f32 `ieee`) is staged the same way; its `shared_load`
    keeps the blocked layout and the dot reads the stage directly. Loads
    whose addresses depend on loop-carried values, or whose `other` is not
    zero, are left alone.

    With `wgmma`, a dot whose B is staged (A staged too, or in registers)
    and whose layout tile-accelerate-dot chose for warpgroup MMAs (all warps
    along M, `repsPerWarp = [2, 1]`) gets stages in the encoding `wgmma`
    descriptors read (`panel`), for either major of 16-bit operands,
    K-major 8-bit ones, and tf32 ones with B K-major; the lowering then
    computes it with `wgmma.mma_async` straight from the stages (a tf32 A
    stored MN-major is read into registers first). A tf32 B loaded along N
    beside an A loaded along M (TN; tile-accelerate-dot's
    `isWgmmaOrderByTransposingCopy`) gets a K-major stage filled through
    registers instead of cp.async: `tile.load` in a layout of four k per
    thread (lanes along N), one iteration before its `shared_store`
    (16-byte vectors, distinct banks), the loop carrying the registers; the
    stores go to the stage the copies refill, before the next load. With
    `tma` and `warp-specialize`, where A is a TMA copy, the dot's MMAs
    stay in flight, the loop is in the kernel's body (its kernel has no
    producer yet, nothing before the loop writes memory), the dot's warps are 4 or 8 and B's tile has at most
    4096 elements, a `tile.producer` fills every stage instead (two groups taking
    alternate iterations, of 4 warps beside 4 warps of MMAs, of 2 beside
    8): per iteration it loads B, waits on the stage's "empty" mbarrier
    (`tma_wait unsynchronized`), issues A's `tma_copy`, stores B with
    `shared_store` and arrives on the stage's "full" mbarrier
    (`barrier_arrive publish_shared`); the loop
    waits on "full", and after the dot's `dot_wait pending = 1` each warp
    releases the previous iteration's stage (`barrier_arrive per_warp`).
    With `tma` and `warp-specialize`, a loop whose staged operands are all
    TMA copies, whose MMAs all end within the iteration (no dot's stay in
    flight) and whose body holds two or more warpgroup-MMA dots, all on 8
    warps (attention's S = Q Kᵀ and P V), in the kernel's body without a
    producer yet and after nothing that writes memory (the producer's
    warps branch off at the loop and run what precedes it as copies of
    the first warps), gets a `tile.producer` of one warpgroup keeping 40
    registers that only waits for a stage's release ("empty", one arrival
    per kernel warp) and issues its `tma_copy`s ("full"); at the top of each
    iteration every warp releases the previous iteration's stage
    (`barrier_arrive per_warp`), then waits on "full" (`tma_wait
    unsynchronized`): no block barrier in the loop. A later loop of the
    kernel's body that qualifies the same way (one dot or more), whose
    copies read tensors of the ring's buffers in their shapes and encodings
    and whose bounds and addresses the producer can compute (from values
    before it, or side-effect free ops after its branch that it computes
    again), continues its ring (attention's masked loop, and the last
    block's P V reading V alone: the buffers it does not read get a copy of
    a tile it reads, completing each stage's "full"): the producer fills
    its iterations after the earlier loop's. A loop of one such dot begins
    a ring where a later loop of its block has two or more (attention's
    first key block, S alone); a tensor the later loop reads that the ring
    has no buffer for gets one, which the earlier loops' fills fill with a
    tile of the same shape, where the stages still fit in shared memory.
    Such loops may sit in the body of a loop in the kernel's body (a loop
    over tiles) whose bounds and copy addresses are side-effect free
    functions of its induction variable and of values from before it: the
    producer is created before that loop and runs a copy of it (those ops
    cloned), both copies carrying the ring's iteration count across tiles;
    each tile's last stage is released after its last loop. A 16-bit tile
    that loop's body loads (a TMA copy from addresses the producer
    computes) only for the A of dots in those loops is copied by the
    producer too, into two slots of its own (one, or none, where shared
    memory is short), before the fill loop of its first reader; the MMA
    warps wait for it there and load it into registers, handing the slot
    back at once (through descriptors, the slot back after its last reader,
    where it would take a thread 64 registers or more). Only innermost
    loops are pipelined; other loads in a loop around loops are staged as a
    kernel body's (one-stage buffers, waited for where their dot is).
    With four or
    more stages, such a dot whose result is only its own accumulator in the
    next iteration and whose A is read through descriptors (or is
    loop-invariant) leaves its MMAs in flight while the loop turns: a
    `dot_wait pending = 1` follows it, a `dot_wait pending = 0` ends the
    loop's result, and its copies run `num-stages - 2` iterations ahead.

    With `tma` too, when every staged operand of a loop is stored for wgmma
    (panels of one swizzle atom; one box per panel) and its load reads a whole
    tile of a strided 2-D tensor (pointers
    `base + index0 * stride0 + index1 * stride1` with one stride 1, each
    index a scalar plus a range, the mask exactly `index < bound` along
    each dimension that has one, a dimension without indexed by
    `range(0, W)`, along the contiguous one only beside a constant row
    stride of at least W; base, bounds and the other stride kernel
    arguments or constants, the base 16-byte aligned and rows 16-byte
    multiples by the kernel's divisibility facts; the base may be an
    argument plus `slice * bound * stride` of the rows: one slice of a
    packed 3-D tensor), the stages are filled by the Tensor Memory
    Accelerator instead: one `barrier_alloc` with an mbarrier per stage,
    `tma_copy` (issued by one thread, announcing its bytes on the stage's
    barrier; with the slice as `slice`) in place of each `async_copy`, at
    the top of each iteration `tma_wait` (a block barrier, then the wait
    for the stage's barrier phase) in place of `async_wait`, and the copies
    after the body's first dot (behind the in-flight dot's wait where
    MMAs stay in flight).

    With `wgmma`, the loaded operands of a dot outside innermost loops that
    gets the wgmma encoding are copied once into one-stage buffers where
    they were loaded, after a producer's branch (after a block barrier
    unless one just passed or nothing but register arithmetic ran since the
    kernel's start; one `async_commit`; `async_wait pending = 0` where the
    dot is), so that its MMAs read them through descriptors; an `async_wait pending = 0` after the dot (a barrier)
    ends every warp's MMAs before the bytes are reused. A 16-bit A loaded
    before loops whose warpgroup-MMA dots read it every iteration
    (attention's Q) is staged once the same way when it would take each
    thread 64 registers or more, read where each dot is, with a barrier
    after each loop that does not end with one.
  }];
  let options =
      [Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
              "Buffer stages of the software pipeline (< 2: no pipelining)">,
       Option<"wgmma", "wgmma", "bool", /*default=*/"false",
              "Store the operands of dots laid out for warpgroup MMAs as wgmma "
              "descriptors read them">,
       Option<"tma", "tma", "bool", /*default=*/"false",
              "Fill wgmma stages of whole-tile loads with the Tensor Memory "
              "Accelerator (needs wgmma)">,
       Option<"maxSharedBytes", "max-shared-bytes", "int64_t",
              /*default=*/"::tile::kSm90MaxSharedBytes",
              "Shared memory the buffers of one loop may take; fewer stages "
              "are used when num-stages would not fit (none below 2)">,
       Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
              "Give a TMA pipeline with a transposing copy, or one of two or "
              "more dots on two warpgroups, a producer warpgroup that fills "
              "its stages (needs tma)">];
  let dependentDialects = ["::tile::TileDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePrefetchLoads : Pass<"tile-prefetch-loads", "::mlir::ModuleOp"> {
  let summary = "Issue a loop's global loads one iteration ahead";
  let description = [{
    Runs after tile-promote-shared, on `scf.for` loops (outside producer
    regions) whose bodies, nested regions included, write no memory and
    issue no `dot`: tile-promote-shared pipelines dot operands itself, and
    a store could write what a later iteration loads. A `load` directly in
    such a body whose pointers, mask and `other` are computed, through ops
    without memory effects or regions, from the induction variable, values
    defined above the loop and loop-carried values whose next value the
    body computes from themselves alone (pointers advanced as `p = p + BK`)
    is issued for iteration i + 1 at the top of iteration i (the carried
    values advanced there as the yield advances them), and the loop
    carries its value: its bytes are in flight while iteration i computes,
    where the loop as written waits for them before it computes and
    computes before it loads again. The first iteration's loads go before
    the loop, masked off when it runs none. Past the loop's end and where the induction variable would wrap,
    an early load computed from the induction variable alone reads the
    current iteration's addresses again (a scalar select instead of a mask
    on every element), and one from carried pointers is masked off, so the
    early loads read nothing the loop does not.
    Loads are taken in body order while their tiles come to at most 256
    bytes a thread (elements over the kernel's threads), the registers the
    carried values cost. The pipeline runs it when `num-stages` is 2 or
    more.
  }];
  let dependentDialects = ["::tile::TileDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileDeferDotWaits : Pass<"tile-defer-dot-waits", "::mlir::ModuleOp"> {
  let summary =
      "Wait for a dot's warpgroup MMAs where its result is first read";
  let description = [{
    Runs after tile-promote-shared, on dots that convert-tile-to-gpu lowers
    to warpgroup MMAs (`wgmma`: B, and A unless it is in registers, read
    from a stage stored for wgmma) and that would wait for their MMAs at
    once (no `dot_wait` uses them yet). Such a dot gets a `dot_wait` just
    before the first op of its block that reads its result, `pending` being
    the number of warpgroup-MMA dots issued in between, so that its MMAs run
    beside the ops in between: two dots written one after the other run
    back to back, and the ops that read the first dot's result run while
    the second dot's MMAs do (attention with its query rows in two halves,
    each half's softmax beside the other half's MMAs). An A in registers
    (a computed P) is waited for too: the MMAs read its registers until
    they end. Only ops that cannot touch what the MMAs read or write are
    passed over: ops without memory effects or regions, other dots, global
    loads, `shared_load`s, and the pipeline's copies into other stages; a
    wait for copies or an op with regions ends the search, and a dot whose
    result is read at once is left as it is.
  }];
  let dependentDialects = ["::tile::TileDialect"];
}

def TileFuse : Pass<"tile-fuse", "::mlir::ModuleOp"> {
  let summary = "Keep a dot's accumulator in its mma layout through loops and the epilogue";
  let description = [{
    The accumulator layouts are those tile-accelerate-dot gave dots: the
    mma layouts, and an FMA dot's that is not its A operand's (a dot left
    in its operands' layout keeps the conversions of its consumers, such
    as a store with a coalesced layout of its own).
    Loop-carried accumulators stay in the mma layout across iterations
    instead of being converted both ways each time, and the elementwise
    consumers of a dot (ReLU as `maximum`, casts, bias adds, `select`) and
    its `store` are rewritten to run in the mma layout, on the registers the
    mma instructions wrote; their other operands are converted instead
    (tile-remove-layout-conversions recomputes ranges, splats and constants
    in place). Vertical fusion of elementwise chains and reductions needs no
    pass: convert-tile-to-gpu keeps every tile in registers.

    With `store-through-shared` (the sm_90a pipelines), a store outside
    loops of 16-bit values from an mma accumulator, whose own layout writes
    16-byte vectors, keeps its conversion when the tile is at most 64 KiB:
    the conversion goes through shared memory (after a pipelined loop, into
    its stages' bytes) and the store writes 16 contiguous bytes per thread
    instead of the accumulator's 4 (warpgroup-MMA matmuls: 6% faster on
    the H100).
  }];
  let options = [Option<
      "storeThroughShared", "store-through-shared", "bool",
      /*default=*/"false",
      "Keep the conversion of an accumulator into a store's 16-byte "
      "vector layout (through shared memory)">];
  let dependentDialects = ["::tile::TileDialect", "::mlir::scf::SCFDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
