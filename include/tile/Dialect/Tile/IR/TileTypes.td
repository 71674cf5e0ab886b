//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//
#ifndef TILE_DIALECT_TILE_IR_TILETYPES_TD
#define TILE_DIALECT_TILE_IR_TILETYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_PointerType : TypeDef<Tile_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "Pointer to a scalar in global memory";
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tile_Float
    : AnyTypeOf<[F8E4M3FN, F8E5M2, F16, BF16, F32, F64], "floating-point">;
def Tile_Ptr : Type<CPred<"::mlir::isa<::tile::PointerType>($_self)">,
                    "tile pointer", "::tile::PointerType">;
def Tile_Scalar : AnyTypeOf<[Tile_Int, Tile_Float, Tile_Ptr]>;

def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;
def Tile_FloatTensor : RankedTensorOf<[Tile_Float]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_Tensor : RankedTensorOf<[Tile_Int, Tile_Float, Tile_Ptr]>;

def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_BoolTensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILE_DIALECT_TILE_IR_TILETYPES_TD
