//===- TPMatmulOps.td - tp matrix-product ops --------------*- tablegen -*-===//
//
// The matmul family: mm, bmm, matmul, mv, dot, the add* forms, chains,
// linear, bilinear, tensordot, vecdot and prelu. All require one floating
// dtype across their floating operands, as tensorplay does.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPMATMULOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPMATMULOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// A product of two tensors whose shape rule is `kind` (MatmulKind in C++).
class TP_ProductOp<string mnemonic, string summaryText, string lhsName,
                   string rhsName, string kind, string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        !dag(ins, [TP_Tensor, TP_Tensor], [lhsName, rhsName]),
        "$" # lhsName # " `,` $" # rhsName, example, [],
        "::mlir::tp::inferProductShape(op, ::mlir::tp::MatmulKind::" # kind #
        ", {}, op.getOperand(0), op.getOperand(1))"> {
  let familyDescription =
      "A matrix product with torch.matmul's rank rules for its kind: "
      "contracting dimensions must agree, batch dimensions (matmul) "
      "broadcast, 1-D operands of matmul are promoted to matrices and the "
      "added dimension dropped from the result.";
}

def TP_MmOp : TP_ProductOp<"mm", "Matrix product of two 2-D tensors",
    "input", "mat2", "Mm",
    "%r = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>">;
def TP_BmmOp : TP_ProductOp<"bmm", "Batched matrix product of 3-D tensors",
    "input", "mat2", "Bmm",
    "%r = tp.bmm %a, %b : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>">;
def TP_MatmulOp : TP_ProductOp<"matmul",
    "Matrix product with broadcasting (also the @ operator, __matmul__)",
    "input", "other", "Matmul",
    "%r = tp.matmul %a, %b : (tensor<3x4x8xf32>, tensor<8x16xf32>) -> tensor<3x4x16xf32>">;
def TP_MvOp : TP_ProductOp<"mv", "Matrix-vector product", "input", "vec", "Mv",
    "%r = tp.mv %a, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>">;
def TP_DotOp : TP_ProductOp<"dot", "Inner product of two 1-D tensors",
    "input", "tensor", "Dot",
    "%r = tp.dot %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>">;

/// beta * self + alpha * (product of the two other operands).
class TP_AddProductOp<string mnemonic, string summaryText, string lhsName,
                      string rhsName, string kind, string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        !con((ins TP_Tensor:$input),
             !dag(ins, [TP_Tensor, TP_Tensor], [lhsName, rhsName]),
             (ins DefaultValuedAttr<F64Attr, "1.0">:$beta,
                  DefaultValuedAttr<F64Attr, "1.0">:$alpha)),
        "$input `,` $" # lhsName # " `,` $" # rhsName, example, [],
        "::mlir::tp::inferProductShape(op, ::mlir::tp::MatmulKind::" # kind #
        ", adaptor.getInput(), op.getOperand(1), op.getOperand(2))"> {
  let familyDescription =
      "beta * input + alpha * (product of the two matrix operands); `input` "
      "broadcasts to the product's shape, which is the result's.";
}

def TP_AddmmOp : TP_AddProductOp<"addmm", "beta * self + alpha * (mat1 @ mat2)",
    "mat1", "mat2", "Mm",
    "%r = tp.addmm %c, %a, %b : (tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>">;
def TP_AddbmmOp : TP_AddProductOp<"addbmm",
    "beta * self + alpha * sum over the batch of batch1 @ batch2",
    "batch1", "batch2", "Addbmm",
    "%r = tp.addbmm %c, %a, %b : (tensor<4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<4x16xf32>">;
def TP_BaddbmmOp : TP_AddProductOp<"baddbmm",
    "beta * self + alpha * (batch1 @ batch2), batched",
    "batch1", "batch2", "Bmm",
    "%r = tp.baddbmm %c, %a, %b : (tensor<2x4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>">;
def TP_AddmvOp : TP_AddProductOp<"addmv", "beta * self + alpha * (mat @ vec)",
    "mat", "vec", "Mv",
    "%r = tp.addmv %c, %a, %v : (tensor<4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>">;
def TP_AddrOp : TP_AddProductOp<"addr",
    "beta * self + alpha * outer(vec1, vec2)", "vec1", "vec2", "Outer",
    "%r = tp.addr %c, %u, %v : (tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<4x8xf32>">;

/// Chained products of a list of tensors.
class TP_ChainOp<string mnemonic, string summaryText, string kind,
                 string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        (ins Variadic<TP_Tensor>:$tensors), "` ` `[` $tensors `]`", example,
        [AttrSizedOperandSegments],
        "::mlir::tp::inferChainShape(op, adaptor.getTensors(), ::mlir::tp::MatmulKind::" #
        kind # ")"> {
  let familyDescription =
      "The product of a list of matrices, associated in the order that is "
      "cheapest; each matrix's columns must equal the next one's rows "
      "(multi_dot accepts 1-D first and last operands as in NumPy).";
}

def TP_ChainMatmulOp : TP_ChainOp<"chain_matmul",
    "Product of a chain of 2-D matrices", "Mm",
    "%r = tp.chain_matmul [%a, %b, %c] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>">;
def TP_MultiDotOp : TP_ChainOp<"multi_dot",
    "linalg.multi_dot: chain product; the first and last may be 1-D",
    "MultiDot",
    "%r = tp.multi_dot [%v, %b, %c] : (tensor<8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<5xf32>">;

def TP_LinearOp : TP_SingleResultOp<"linear",
    "input @ weight^T + bias", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, TP_Tensor:$weight, Optional<TP_Tensor>:$bias),
    "$input `,` $weight (`bias` `(` $bias^ `)`)?",
    "%r = tp.linear %x, %w bias(%b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferLinearShape(op)">;

def TP_BilinearOp : TP_SingleResultOp<"bilinear",
    "y = x1^T A x2 + b over the last dimension", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input1, TP_Tensor:$input2, TP_Tensor:$weight,
         Optional<TP_Tensor>:$bias),
    "$input1 `,` $input2 `,` $weight (`bias` `(` $bias^ `)`)?",
    "%r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferBilinearShape(op)">;

def TP_TensordotOp : TP_SingleResultOp<"tensordot",
    "Contraction of dims_self of self with dims_other of other",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, TP_Tensor:$other, DenseI64ArrayAttr:$dims_self,
         DenseI64ArrayAttr:$dims_other),
    "$input `,` $other",
    "%r = tp.tensordot %a, %b {dims_other = array<i64: 0>, dims_self = array<i64: 1>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>",
    [], "::mlir::tp::inferTensordotShape(op)">;

def TP_LinalgVecdotOp : TP_SingleResultOp<"linalg_vecdot",
    "Batched vector dot product along dim", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$x, TP_Tensor:$y, DefaultValuedAttr<I64Attr, "-1">:$dim),
    "$x `,` $y",
    "%r = tp.linalg_vecdot %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferVecdotShape(op)">;

def TP_CrossOp : TP_SingleResultOp<"cross",
    "Cross product of 3-vectors along dim (the first size-3 dim when absent)",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, TP_Tensor:$other, OptionalAttr<I64Attr>:$dim),
    "$input `,` $other",
    "%r = tp.cross %a, %b {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>",
    [], "::mlir::tp::inferCrossShape(op)">;

def TP_PreluOp : TP_SingleResultOp<"prelu",
    "Parametric ReLU: max(0, x) + weight * min(0, x), weight per channel",
    TP_DtypeRule<"Same">, (ins TP_Tensor:$input, TP_Tensor:$weight),
    "$input `,` $weight",
    "%r = tp.prelu %x, %w : (tensor<2x3x8xf32>, tensor<3xf32>) -> tensor<2x3x8xf32>",
    [], "::mlir::tp::inferPreluShape(op)">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPMATMULOPS_TD
