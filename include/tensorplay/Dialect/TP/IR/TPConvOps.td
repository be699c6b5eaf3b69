//===- TPConvOps.td - tp convolution ops -------------------*- tablegen -*-===//
//
// conv1d/2d/3d, conv_transpose1d/2d/3d, _convolution and conv_tbc. Stride,
// padding, dilation and output_padding take one value per spatial dimension
// or a single value for all (absent: stride 1, padding 0, dilation 1,
// output_padding 0), as in tensorplay.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPCONVOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPCONVOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

defvar TP_ConvOperands = (ins TP_Tensor:$input, TP_Tensor:$weight,
                              Optional<TP_Tensor>:$bias);
defvar TP_ConvOperandsFormat = "$input `,` $weight (`bias` `(` $bias^ `)`)?";

class TP_ConvNdOp<string mnemonic, int rank, string example>
    : TP_SingleResultOp<mnemonic,
        !cast<string>(rank) # "-D convolution over an input of planes",
        TP_DtypeRule<"Same">,
        !con(TP_ConvOperands,
             (ins OptionalAttr<DenseI64ArrayAttr>:$stride,
                  OptionalAttr<DenseI64ArrayAttr>:$padding,
                  OptionalAttr<DenseI64ArrayAttr>:$dilation,
                  DefaultValuedAttr<I64Attr, "1">:$groups)),
        TP_ConvOperandsFormat, example, [AttrSizedOperandSegments],
        "::mlir::tp::inferConvolutionShape(op, " # rank # ", /*transposed=*/false, "
        "adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(), adaptor.getStride(), adaptor.getPadding(), "
        "adaptor.getDilation(), std::nullopt, adaptor.getGroups())"> {
  let familyDescription =
      "A convolution (cross-correlation) over the trailing spatial dimensions "
      "of a batched (N, C_in, ...) or unbatched (C_in, ...) input with a "
      "(C_out, C_in / groups, k...) weight and an optional (C_out) bias. "
      "`stride`, `padding` and `dilation` take one value for every spatial "
      "dimension or one each; each output size is (in + 2 padding - dilation "
      "(k - 1) - 1) / stride + 1.";
}

def TP_Conv1dOp : TP_ConvNdOp<"conv1d", 1,
    "%r = tp.conv1d %x, %w : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>">;
def TP_Conv2dOp : TP_ConvNdOp<"conv2d", 2,
    "%r = tp.conv2d %x, %w bias(%b) {padding = array<i64: 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>">;
def TP_Conv3dOp : TP_ConvNdOp<"conv3d", 3,
    "%r = tp.conv3d %x, %w : (tensor<1x2x4x4x4xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x3x2x2x2xf32>">;

class TP_ConvTransposeNdOp<string mnemonic, int rank, string example>
    : TP_SingleResultOp<mnemonic,
        !cast<string>(rank) # "-D transposed convolution (fractionally-strided)",
        TP_DtypeRule<"Same">,
        !con(TP_ConvOperands,
             (ins OptionalAttr<DenseI64ArrayAttr>:$stride,
                  OptionalAttr<DenseI64ArrayAttr>:$padding,
                  OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                  DefaultValuedAttr<I64Attr, "1">:$groups,
                  OptionalAttr<DenseI64ArrayAttr>:$dilation)),
        TP_ConvOperandsFormat, example, [AttrSizedOperandSegments],
        "::mlir::tp::inferConvolutionShape(op, " # rank # ", /*transposed=*/true, "
        "adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(), adaptor.getStride(), adaptor.getPadding(), "
        "adaptor.getDilation(), adaptor.getOutputPadding(), adaptor.getGroups())"> {
  let familyDescription =
      "A transposed convolution (the gradient of a convolution with respect "
      "to its input) of a batched or unbatched input with a (C_in, C_out / "
      "groups, k...) weight; each output size is (in - 1) stride - 2 padding "
      "+ dilation (k - 1) + output_padding + 1.";
}

def TP_ConvTranspose1dOp : TP_ConvTransposeNdOp<"conv_transpose1d", 1,
    "%r = tp.conv_transpose1d %x, %w : (tensor<2x4x12xf32>, tensor<4x3x5xf32>) -> tensor<2x3x16xf32>">;
def TP_ConvTranspose2dOp : TP_ConvTransposeNdOp<"conv_transpose2d", 2,
    "%r = tp.conv_transpose2d %x, %w {stride = array<i64: 2>} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>">;
def TP_ConvTranspose3dOp : TP_ConvTransposeNdOp<"conv_transpose3d", 3,
    "%r = tp.conv_transpose3d %x, %w : (tensor<1x3x2x2x2xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x2x4x4x4xf32>">;

def TP_ConvolutionOp : TP_SingleResultOp<"convolution",
    "aten::_convolution: the general (transposed) N-D convolution",
    TP_DtypeRule<"Same">,
    !con(TP_ConvOperands,
         (ins DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
              DenseI64ArrayAttr:$dilation, BoolAttr:$transposed,
              DenseI64ArrayAttr:$output_padding, I64Attr:$groups,
              DefaultValuedAttr<BoolAttr, "false">:$benchmark,
              DefaultValuedAttr<BoolAttr, "false">:$deterministic,
              DefaultValuedAttr<BoolAttr, "true">:$cudnn_enabled,
              DefaultValuedAttr<BoolAttr, "true">:$allow_tf32)),
    TP_ConvOperandsFormat,
    "%r = tp.convolution %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>",
    [AttrSizedOperandSegments],
    "::mlir::tp::inferConvolutionShape(op, "
    "::mlir::cast<::mlir::RankedTensorType>(adaptor.getInput().getType()).getRank() - 2, "
    "adaptor.getTransposed(), adaptor.getInput(), adaptor.getWeight(), adaptor.getBias(), adaptor.getStride(), "
    "adaptor.getPadding(), adaptor.getDilation(), adaptor.getOutputPadding(), adaptor.getGroups())">;

/// aten::convolution_backward: the three gradients of one batched
/// convolution. A dedicated op (not its composition) so that the weight
/// gradient reaches oneDNN's backward-weights primitive.
def TP_ConvolutionBackwardOp : TP_ComputeOp<"convolution_backward",
    "aten::convolution_backward: the input, weight and bias gradients of a "
    "convolution",
    TP_DtypeRule<"Same", ["Value", "Value", "Value"]>,
    (ins TP_Tensor:$grad_output, TP_Tensor:$input, TP_Tensor:$weight,
         DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
         DenseI64ArrayAttr:$dilation, BoolAttr:$transposed,
         DenseI64ArrayAttr:$output_padding, I64Attr:$groups),
    "$grad_output `,` $input `,` $weight",
    "%gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x4x12xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)",
    [Pure], "::mlir::tp::inferConvolutionBackwardShape(op)"> {
  let familyDescription =
      "The gradients of `tp.convolution` (batched, without the bias operand: "
      "its gradient needs none) with respect to its input, weight and bias, "
      "given the gradient `grad_output` of its output and the forward's "
      "`input` and `weight`, with the forward's geometry. `grad_output` must "
      "have the forward output's shape; the results have the input's, the "
      "weight's and the (C_out) bias's shapes. Results without uses are not "
      "computed. tp-autodiff builds it for every convolution; the CPU "
      "pipeline computes the weight and bias gradients with oneDNN's "
      "backward-weights primitive (f32, bf16) and elsewhere as one im2col "
      "product per group (the linalg path); the input gradient is the "
      "adjoint tp.convolution.";
  let results = (outs TP_Tensor:$grad_input, TP_Tensor:$grad_weight,
                      TP_Tensor:$grad_bias);
}

def TP_ConvTbcOp : TP_SingleResultOp<"conv_tbc",
    "1-D convolution on a (time, batch, channel) input",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, TP_Tensor:$weight, TP_Tensor:$bias,
         DefaultValuedAttr<I64Attr, "0">:$pad),
    "$input `,` $weight `,` $bias",
    "%r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>",
    [], "::mlir::tp::inferConvTbcShape(op)">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPCONVOPS_TD
