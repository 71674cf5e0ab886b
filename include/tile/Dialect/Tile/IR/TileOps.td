//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_PrecisionIEEE : I32EnumAttrCase<"ieee", 0>;
def Tile_PrecisionTF32 : I32EnumAttrCase<"tf32", 1>;
def Tile_InputPrecisionAttr : I32EnumAttr<"InputPrecision",
    "precision of f32 dot inputs", [Tile_PrecisionIEEE, Tile_PrecisionTF32]> {
  let cppNamespace = "::tile";
}

def Tile_ReduceSum : I32EnumAttrCase<"sum", 0>;
def Tile_ReduceMax : I32EnumAttrCase<"max", 1>;
def Tile_ReduceMin : I32EnumAttrCase<"min", 2>;
def Tile_ReduceProd : I32EnumAttrCase<"prod", 3>;
def Tile_ReduceArgMax : I32EnumAttrCase<"argmax", 4>;
def Tile_ReduceArgMin : I32EnumAttrCase<"argmin", 5>;
def Tile_ReduceKindAttr : I32EnumAttr<"ReduceKind", "reduction combiner",
    [Tile_ReduceSum, Tile_ReduceMax, Tile_ReduceMin, Tile_ReduceProd,
     Tile_ReduceArgMax, Tile_ReduceArgMin]> {
  let cppNamespace = "::tile";
}

def Tile_AtomicAdd : I32EnumAttrCase<"add", 0>;
def Tile_AtomicMax : I32EnumAttrCase<"max", 1>;
def Tile_AtomicMin : I32EnumAttrCase<"min", 2>;
def Tile_AtomicXchg : I32EnumAttrCase<"xchg", 3>;
def Tile_AtomicAnd : I32EnumAttrCase<"And", 4, "and">;
def Tile_AtomicOr : I32EnumAttrCase<"Or", 5, "or">;
def Tile_AtomicXor : I32EnumAttrCase<"Xor", 6, "xor">;
def Tile_AtomicUMax : I32EnumAttrCase<"umax", 7>;
def Tile_AtomicUMin : I32EnumAttrCase<"umin", 8>;
def Tile_AtomicKindAttr
    : I32EnumAttr<"AtomicKind", "atomic read-modify-write",
                  [Tile_AtomicAdd, Tile_AtomicMax, Tile_AtomicMin,
                   Tile_AtomicXchg, Tile_AtomicAnd, Tile_AtomicOr,
                   Tile_AtomicXor, Tile_AtomicUMax, Tile_AtomicUMin]> {
  let cppNamespace = "::tile";
}

def Tile_SemRelaxed : I32EnumAttrCase<"relaxed", 0>;
def Tile_SemAcquire : I32EnumAttrCase<"acquire", 1>;
def Tile_SemRelease : I32EnumAttrCase<"release", 2>;
def Tile_SemAcqRel : I32EnumAttrCase<"acq_rel", 3>;
def Tile_MemSemanticAttr : I32EnumAttr<"MemSemantic", "memory ordering of an atomic",
    [Tile_SemRelaxed, Tile_SemAcquire, Tile_SemRelease, Tile_SemAcqRel]> {
  let cppNamespace = "::tile";
}

def Tile_ScopeGpu : I32EnumAttrCase<"gpu", 0>;
def Tile_ScopeCta : I32EnumAttrCase<"cta", 1>;
def Tile_ScopeSys : I32EnumAttrCase<"sys", 2>;
def Tile_MemScopeAttr : I32EnumAttr<"MemScope", "threads an atomic is ordered with",
    [Tile_ScopeGpu, Tile_ScopeCta, Tile_ScopeSys]> {
  let cppNamespace = "::tile";
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "A launchable kernel: one program instance of a grid";
  let description = [{
    The body runs once per program id of the launch grid. Runtime parameters
    are the block arguments; compile-time `const` parameters were substituted
    by the frontend and their values are recorded in `constants`.

    ```mlir
    tile.kernel @vector_add(%x: !tile.ptr<f32>, %n: i32)
        attributes {constants = {BLOCK = 1024 : i32}} {
      ...
      tile.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<DictionaryAttr>:$constants);
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type,
                                 "::mlir::DictionaryAttr":$constants)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">,
                                       ReturnLike, Terminator]> {
  let summary = "Ends the program instance";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Program indexing
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program instance along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of program instances along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The 1-D tile [start, end) of i32";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar", "result", "src",
                   "::mlir::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A tile whose every element is the scalar operand";
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Repeats a tile along its unit dimensions";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Inserts a unit dimension at `axis`";
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `,` `axis` `=` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Transposes a 2-D tile";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp
    : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "The same elements in row-major order, in another shape";
  let description = [{
    Element `i` in row-major order of the result is element `i` in
    row-major order of `src`; both have the same number of elements.
    Lowered through shared memory when the layouts do not line up.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PermuteOp
    : Tile_Op<"permute", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reorders the dimensions of a tile";
  let description = [{
    Dimension `i` of the result is dimension `order[i]` of `src` (`trans`
    is `order = [1, 0]`); `order` is a permutation of the dimensions.
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `,` `order` `=` $order attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_JoinOp : Tile_Op<"join", [Pure, SameOperandsAndResultElementType,
                                   AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "Two tiles of one shape as a new last dimension of size 2";
  let description = [{
    `result[..., 0] = lhs`, `result[..., 1] = rhs`; two scalars give a
    1-D tile of 2.
  }];
  let arguments = (ins Tile_Value:$lhs, Tile_Value:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplitOp : Tile_Op<"split", [Pure, SameOperandsAndResultElementType,
                                     AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "The two halves of a last dimension of size 2";
  let description = [{
    The inverse of `join`: `lhs = src[..., 0]`, `rhs = src[..., 1]`
    (scalars when `src` is a 1-D tile of 2).
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Value:$lhs, Tile_Value:$rhs);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($lhs)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure, SameOperandsAndResultShape,
                                                      SameOperandsAndResultElementType]> {
  let summary = "Moves a tile's elements into another layout";
  let description = [{
    The value is unchanged; only the distribution of elements to threads (the
    tensor encoding) changes. Explicit so every data movement is visible.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Pointer(s) advanced by an element offset";
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask has ptr's shape", "ptr", "mask",
                   "::tile::getI1LikeType($_self)",
                   "!::llvm::cast<::tile::LoadOp>(&$_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other is the pointee of ptr", "ptr", "other",
                   "::tile::getPointeeLikeType($_self)",
                   "!::llvm::cast<::tile::LoadOp>(&$_op).getOther() || std::equal_to<>()">]> {
  let summary = "Loads from global memory; masked-off elements take `other`";
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<AnyType>:$other);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptr (`,` `mask` $mask^)? (`,` `other` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"value is the pointee of ptr", "ptr", "value",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask has ptr's shape", "ptr", "mask",
                   "::tile::getI1LikeType($_self)",
                   "!::llvm::cast<::tile::StoreOp>(&$_op).getMask() || std::equal_to<>()">]> {
  let summary = "Stores to global memory where `mask` is true";
  let arguments = (ins Tile_PtrLike:$ptr, AnyType:$value, Optional<Tile_BoolLike>:$mask);
  let assemblyFormat = "$ptr `,` $value (`,` `mask` $mask^)? attr-dict `:` type($ptr)";
}

//===----------------------------------------------------------------------===//
// Shared memory and asynchronous copies (made by tile-promote-shared)
//===----------------------------------------------------------------------===//

def Tile_SharedMemRef : MemRefRankOf<[Tile_Int, Tile_Float], [3]>;

def Tile_SharedAllocOp : Tile_Op<"shared_alloc"> {
  let summary = "A multi-stage buffer in shared memory";
  let description = [{
    `memref<S x R x C x T, 3>`: S stages of an R x C tile, each stored as
    `encoding` says (order and swizzle), live for the whole kernel.
  }];
  let arguments = (ins Tile_SharedEncodingAttr:$encoding);
  let results = (outs Tile_SharedMemRef:$result);
  let assemblyFormat = "$encoding attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy"> {
  let summary = "Starts copying a tile from global memory into a buffer stage";
  let description = [{
    Each element of `ptr` is copied to its place in stage `stage` of
    `buffer`, without waiting (`cp.async`); masked-off elements become zero.
    Copies complete at an `async_wait` after the `async_commit` that closes
    their group.
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Tile_BoolTensor:$mask,
                       Tile_SharedMemRef:$buffer, I32:$stage);
  let assemblyFormat = [{
    $ptr `,` `mask` $mask `into` $buffer `[` $stage `]` attr-dict
    `:` type($ptr) `,` type($mask) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_SharedStoreOp : Tile_Op<"shared_store"> {
  let summary = "Writes a tile held in registers into a buffer stage";
  let description = [{
    Each element of `value` (a 2-D blocked tile) is stored at its place in
    stage `stage` of `buffer`, as the buffer's encoding says (`st.shared`;
    a thread's consecutive elements along the stored rows, inside one
    chunk, as one vector). tile-promote-shared stores here what it loaded
    into registers where cp.async would copy slowly: a tf32 B stored along
    N, for a K-major stage. Readers need a block barrier after it (and,
    for warpgroup MMAs, a proxy fence before that barrier), which the
    `async_wait` at the top of each pipelined iteration gives.
  }];
  let arguments = (ins Tile_Tensor:$value, Tile_SharedMemRef:$buffer,
      I32:$stage);
  let assemblyFormat = [{
    $value `into` $buffer `[` $stage `]` attr-dict `:` type($value) `,`
    type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit"> {
  let summary = "Closes the group of this thread's copies issued since the last";
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait"> {
  let summary = "Waits until at most `pending` copy groups are in flight, then a block barrier";
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "`pending` `=` $pending attr-dict";
}

def Tile_DotWaitOp : Tile_Op<"dot_wait",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Waits until at most `pending` warpgroup MMA groups are in flight";
  let description = [{
    Returns its operands, the accumulators that the warpgroup MMAs still in
    flight write, once at most `pending` groups of this thread's MMAs are
    pending. A `dot` lowered to warpgroup MMAs whose only user is a
    `dot_wait` leaves its group in flight for the wait to end. The results
    carry the data dependence that the hardware wait lacks: nothing reads
    an accumulator before the wait that ends its MMAs, and a dot's MMAs may
    run on while the loop turns (`pending = 1`; tile-promote-shared then
    never copies into the stage they read). With `synchronize` every
    thread then passes a block barrier, after which the MMAs of every warp
    beyond the `pending` ones have ended: the stages they read may be
    refilled. An operand may also be a 16-bit A that MMAs in flight read
    from registers (attention's P), which the wait keeps live until they
    end.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$accs, I32Attr:$pending,
      UnitAttr:$synchronize);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let assemblyFormat = "$accs `pending` `=` $pending attr-dict `:` type($accs)";
  let hasVerifier = 1;
}

def Tile_BarrierMemRef : MemRefRankOf<[I64], [1]>;

def Tile_BarrierAllocOp : Tile_Op<"barrier_alloc"> {
  let summary = "One shared-memory mbarrier per pipeline stage";
  let description = [{
    `memref<S x i64, 3>`: S mbarriers, live for the whole kernel, each
    completing a phase once `arrivals` arrivals (one per `tma_copy` that
    fills the stage) and the bytes they announced have landed. Thread 0
    initializes them where the op stands, before a block barrier.
  }];
  let arguments = (ins I32Attr:$arrivals);
  let results = (outs Tile_BarrierMemRef:$result);
  let assemblyFormat = "`arrivals` `=` $arrivals attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_TmaCopyOp : Tile_Op<"tma_copy", [AttrSizedOperandSegments]> {
  let summary = "Starts copying a tile of a 2-D tensor into a buffer stage "
                "with the Tensor Memory Accelerator";
  let description = [{
    The tensor is row-major in global memory: element (i, j) lies at `base`
    + i * `stride` + j for an unpermuted stage, with `bounds` elements along
    each dimension; for a stage stored transposed (order [0, 1]) dimension
    0 is the contiguous one and `stride` steps dimension 1. The copy reads
    the tile whose first element is at `starts` into stage `stage` of
    `buffer`, stored as the buffer's encoding says, and elements outside
    the bounds become zero. Thread 0 announces the tile's bytes on barrier
    `stage` of `barriers` (an arrival) and issues the copies
    (`cp.async.bulk.tensor`); when `pred` is false nothing happens. The
    runtime encodes the tensor map from `base`, `bounds` and `stride`, so
    they must be kernel arguments or constants; the buffer's encoding must
    be one of a wgmma operand (panels of a swizzle atom), which is the
    hardware's swizzle. With `slice`, the tensor is one of a packed 3-D
    tensor's slices: slice `slice` starts `bounds[row] * stride` elements
    after slice `slice - 1` (row: the dimension `stride` steps), and `base`
    is slice 0; nothing bounds the slices but what the program reads.
    With `predicated` the issuing threads' instructions are
    predicated instead of branched around (ptxas serializes the warpgroup
    MMAs of a warpgroup with a divergent path among them).
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I32>:$starts,
      Variadic<I32>:$bounds, I32:$stride, Optional<I32>:$slice,
      Tile_SharedMemRef:$buffer, I32:$stage, Tile_BarrierMemRef:$barriers,
      I1:$pred, UnitAttr:$predicated);
  let assemblyFormat = [{
    $base `[` $starts `]` (`slice` $slice^)? `bounds` `[` $bounds `]` `stride` $stride `into`
    $buffer `[` $stage `]` `barriers` $barriers `if` $pred attr-dict `:`
    type($base) `,` type($buffer) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def Tile_TmaWaitOp : Tile_Op<"tma_wait"> {
  let summary =
      "A block barrier, then waits until a stage's TMA copies have landed";
  let description = [{
    Every thread passes a block barrier (so that no warp still reads the
    stage the copies issued after it refill) and then waits until barrier
    `stage` of `barriers` completes the phase of parity `phase`. With
    `unsynchronized` there is no block barrier: a `dot_wait ... synchronize`
    before the copies guards the stage instead.
  }];
  let arguments = (ins Tile_BarrierMemRef:$barriers, I32:$stage, I32:$phase,
      UnitAttr:$unsynchronized);
  let assemblyFormat = [{
    $barriers `[` $stage `]` `phase` $phase attr-dict `:` type($barriers)
  }];
}

def Tile_BarrierArriveOp : Tile_Op<"barrier_arrive"> {
  let summary = "Threads arrive on a stage's mbarrier";
  let description = [{
    Each thread arrives once on barrier `stage` of `barriers` (only where
    `pred`, when given, holds); with `per_warp` lane 0 arrives for its
    warp instead, so the barrier's `arrivals` counts warps (the warp's
    lanes must all have done what the arrival announces, as after a
    warp-synchronous `dot_wait`). With `publish_shared` each thread first
    makes its shared-memory stores visible to the async proxy (warpgroup
    MMAs, TMA), so that an MMA waiting on the barrier reads them. The
    arrival releases the thread's earlier memory operations to the
    threads that wait for the phase (`tma_wait ... unsynchronized`).
  }];
  let arguments = (ins Tile_BarrierMemRef:$barriers, I32:$stage,
      Optional<I1>:$pred, UnitAttr:$per_warp, UnitAttr:$publish_shared);
  let assemblyFormat = [{
    $barriers `[` $stage `]` (`if` $pred^)? attr-dict `:` type($barriers)
  }];
}

def Tile_ProducerOp : Tile_Op<"producer", [SingleBlock, NoTerminator]> {
  let summary = "Code that extra warps run beside the kernel's own";
  let description = [{
    The kernel gains `groups` groups of `warps` warps (whole warpgroups:
    `warps * groups` a multiple of 4) after its own; each group runs the
    body, whose one
    argument (i32) is the group's index, in which thread and warp indices
    count from the group's first and layouts span `warps` warps, and then
    exits. The
    kernel's own warps skip the body and run the rest of the kernel.
    tile-promote-shared fills a pipeline's stages in such a body (a
    producer warpgroup) while the kernel's warps run the MMAs: the two
    sides meet only through mbarriers (`barrier_arrive`, `tma_wait ...
    unsynchronized`), never a block barrier. The body may use scalars
    and constants defined above it but no other tile: those are computed
    by the kernel's warps. At most one per kernel, in the kernel's body.
    Above 256 threads in all, its threads keep `registers` registers
    (`setmaxnreg`, a multiple of 8 from 24) and the kernel's own get the
    rest.
  }];
  let arguments = (ins I32Attr:$warps, DefaultValuedAttr<I32Attr, "1">:$groups,
      DefaultValuedAttr<I32Attr, "56">:$registers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `warps` `=` $warps (`groups` `=` $groups^)? (`registers` `=` $registers^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Tile_SharedLoadOp : Tile_Op<"shared_load"> {
  let summary = "Reads a buffer stage into mma fragments or a blocked tile";
  let description = [{
    The stage's tile in the result's layout: `mma.sync` operand fragments
    (`#tile.dot_operand`) or, for an FMA dot's operand, a 2-D blocked tile.
    With `transposed` the result is the stage's tile transposed (a view:
    `trans` of a staged load costs nothing). A load whose only user is a
    `dot` in the same block is not materialized: the dot reads the stage
    directly.
  }];
  let arguments = (ins Tile_SharedMemRef:$buffer, I32:$stage,
                       UnitAttr:$transposed);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $stage `]` (`transposed` $transposed^)? attr-dict `:`
    type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Matrix product accumulated into `acc`: a @ b + acc";
  let description = [{
    Float inputs accumulate in a float type the verifier lists (8-bit
    floats in `f32`); `i8` inputs in `i32`, whose sums wrap (two's
    complement), as `mma.sync`'s `s8` form computes them.
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$acc,
      DefaultValuedAttr<Tile_InputPrecisionAttr,
                        "::tile::InputPrecision::ieee">:$precision);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`precision` `=` $precision^)? attr-dict
    `:` type($a) `*` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "Sum, product, max, min, argmax or argmin along one axis";
  let description = [{
    Removes `axis` from the shape; reducing a 1-D tile gives a scalar.
    `argmax` and `argmin` give the `i32` index along `axis` of the first
    largest (smallest) element; a NaN counts as beyond every number, so the
    first NaN wins both.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind $src `,` `axis` `=` $axis attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "Inclusive prefix sum or product along one axis";
  let description = [{
    Element `i` along `axis` of the result combines elements `0..i` of
    `src` (`sum` or `prod`; integers wrap). Lowered as a scan within each
    thread, across lanes with shuffles and across warps through shared
    memory.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $kind $src `,` `axis` `=` $axis attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def Tile_GenericReduceOp
    : Tile_Op<"generic_reduce", [RecursiveMemoryEffects, IsolatedFromAbove]> {
  let summary = "Reduction along one axis with a combine function";
  let description = [{
    Removes `axis` from the shape, combining elements with the `combiner`
    region: its block takes two scalars of the element type and yields
    their combination with `tile.combine_yield`. The order in which
    elements are combined is unspecified, so the combination should be
    associative and commutative (as `reduce` with a `combine_fn` in
    Triton). The region computes on scalars only and has no memory effects.
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Value:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $src `,` `axis` `=` $axis attr-dict `:` type($src) `->` type($result)
    $combiner
  }];
  let hasVerifier = 1;
}

def Tile_GenericScanOp
    : Tile_Op<"generic_scan", [RecursiveMemoryEffects, IsolatedFromAbove,
                               SameOperandsAndResultType]> {
  let summary = "Inclusive scan along one axis with a combine function";
  let description = [{
    Element `i` along `axis` of the result is `c(...c(c(x0, x1), x2)..., xi)`
    for the `combiner` region `c` (two scalars of the element type to one,
    yielded by `tile.combine_yield`). Elements are grouped in another order
    but never reordered: `c` must be associative; it need not be
    commutative. The region computes on scalars only and has no memory
    effects.
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $src `,` `axis` `=` $axis attr-dict `:` type($src) $combiner
  }];
  let hasVerifier = 1;
}

def Tile_CombineYieldOp
    : Tile_Op<"combine_yield", [Pure, Terminator, ReturnLike,
                                ParentOneOf<["GenericReduceOp",
                                             "GenericScanOp"]>]> {
  let summary = "The combination a generic reduce or scan's combiner gives";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Tile_HintOp : Tile_Op<"hint", [Pure, SameOperandsAndResultType]> {
  let summary = "Facts the program states about integers, for the axis analysis";
  let description = [{
    The value itself. `multiple_of[d]` states that the first element of
    each run of consecutive values along `d` (a scalar: the value) is a
    multiple of it, a power of two; `max_contiguous[d]` that runs of that
    many elements along `d` increase by one. The axis analysis takes them as
    facts (vector widths and masks follow); the interpreter checks a
    scalar's divisibility, a tile's first element and the stated runs.
  }];
  let arguments = (ins Tile_IntLike:$src, DenseI64ArrayAttr:$multiple_of,
                       DenseI64ArrayAttr:$max_contiguous);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = [{
    $src `multiple_of` $multiple_of `max_contiguous` $max_contiguous attr-dict
    `:` type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_NumberLike
    : AnyTypeOf<[Tile_Int, Tile_Float, Tile_IntTensor, Tile_FloatTensor]>;

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Prints a value from the device";
  let description = [{
    One line per element of `value` (a scalar: one line per program), from
    the one thread that holds it: `pid (x, y, z) idx (i, j) <prefix><v>`
    (no `idx` for a scalar), the value as C's `%.9g` (`%.17g` for f64,
    `%d`/`%lld` for integers, `%u`/`%llu` with `unsigned`). The GPU prints
    through `vprintf`, lines in no particular order; the interpreter in
    program and element order.
  }];
  let arguments = (ins StrAttr:$prefix, Tile_NumberLike:$value,
      UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    $prefix `,` $value (`unsigned` $is_unsigned^)? attr-dict `:` type($value)
  }];
}

def Tile_DeviceAssertOp
    : Tile_Op<"device_assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stops the kernel where a condition does not hold";
  let description = [{
    Where an element of `cond` is false, the thread that holds it calls
    `__assertfail` (CUDA's device-side assert: the message, the op's file
    and line and the kernel's name are printed, the launch fails with
    CUDA_ERROR_ASSERT and the context is unusable afterwards); the
    interpreter stops with an error naming the program and element.
  }];
  let arguments = (ins Tile_BoolLike:$cond, StrAttr:$message);
  let assemblyFormat = "$cond `,` $message attr-dict `:` type($cond)";
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    TypesMatchWith<"value is the pointee of ptr", "ptr", "value",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask has ptr's shape", "ptr", "mask",
                   "::tile::getI1LikeType($_self)",
                   "!::llvm::cast<::tile::AtomicRMWOp>(&$_op).getMask() || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write of global memory; gives the old values";
  let description = [{
    For each element where `mask` is true (every element without one),
    atomically replaces `*ptr` by `kind(*ptr, value)` and yields the value it
    held; masked-off elements yield 0. Each element is updated once, however
    many threads hold it. `max`/`min` on floats ignore a NaN operand
    (maxnum).
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, Tile_PtrLike:$ptr, AnyType:$value,
                       Optional<Tile_BoolLike>:$mask,
                       Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $value (`,` `mask` $mask^)? `sem` `=` $sem `scope` `=` $scope
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    TypesMatchWith<"value is the pointee of ptr", "ptr", "value",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"cmp is the pointee of ptr", "ptr", "cmp",
                   "::tile::getPointeeLikeType($_self)">,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "::tile::getPointeeLikeType($_self)">]> {
  let summary = "Atomic compare-and-swap of global memory; gives the old values";
  let description = [{
    For each element, atomically stores `value` where `*ptr` equals `cmp`
    (bitwise) and yields the value `*ptr` held.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, AnyType:$cmp, AnyType:$value,
                       Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $value `sem` `=` $sem `scope` `=` $scope attr-dict
    `:` type($ptr)
  }];
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
