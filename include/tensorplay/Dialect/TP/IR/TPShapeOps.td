//===- TPShapeOps.td - tp data movement, indexing, pooling -*- tablegen -*-===//
//
// Views and reshapes, concatenation, indexed updates, embedding, padding,
// pooling and grid sampling.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPSHAPEOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPSHAPEOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// An op that rearranges the elements of its input (shape rule `kind`).
class TP_LayoutOp<string mnemonic, string summaryText, dag attrs, string kind,
                  string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"First">,
        !con((ins TP_Tensor:$input), attrs), "$input", example, [],
        "::mlir::tp::inferLayoutShape(op, ::mlir::tp::LayoutKind::" # kind # ")"> {
  let familyDescription =
      "Rearranges or reinterprets the input's elements without computing on "
      "them; the result shape follows from the input shape and the op's "
      "attributes (dims, shape, sizes), checked as tensorplay checks them.";
}

def TP_TransposeOp : TP_LayoutOp<"transpose", "Swap two dimensions",
    (ins I64Attr:$dim0, I64Attr:$dim1), "Transpose",
    "%r = tp.transpose %x {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>">;
def TP_PermuteOp : TP_LayoutOp<"permute", "Permute the dimensions",
    (ins DenseI64ArrayAttr:$dims), "Permute",
    "%r = tp.permute %x {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>">;
def TP_ReshapeOp : TP_LayoutOp<"reshape",
    "Reshape to `shape` (one entry may be -1)", (ins DenseI64ArrayAttr:$shape),
    "Reshape",
    "%r = tp.reshape %x {shape = array<i64: 8, -1>} : (tensor<4x8xf32>) -> tensor<8x4xf32>">;
def TP_ExpandOp : TP_LayoutOp<"expand",
    "Broadcast to `size` (-1 keeps a dimension)", (ins DenseI64ArrayAttr:$size),
    "Expand",
    "%r = tp.expand %x {size = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x8xf32>">;
def TP_UnsqueezeOp : TP_LayoutOp<"unsqueeze",
    "Insert a dimension of size one at dim", (ins I64Attr:$dim), "Unsqueeze",
    "%r = tp.unsqueeze %x {dim = 0 : i64} : (tensor<8xf32>) -> tensor<1x8xf32>">;
def TP_SqueezeOp : TP_LayoutOp<"squeeze",
    "Remove size-one dimensions (only `dim` when given)",
    (ins OptionalAttr<DenseI64ArrayAttr>:$dim), "Squeeze",
    "%r = tp.squeeze %x : (tensor<1x8xf32>) -> tensor<8xf32>">;
def TP_FlattenOp : TP_LayoutOp<"flatten",
    "Flatten dimensions start_dim..end_dim into one",
    (ins DefaultValuedAttr<I64Attr, "0">:$start_dim,
         DefaultValuedAttr<I64Attr, "-1">:$end_dim), "Flatten",
    "%r = tp.flatten %x {start_dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>">;

/// aten::slice.Tensor and its backward.
def TP_SliceOp : TP_SingleResultOp<"slice",
    "Elements start, start + step, ... before end along dim (x[a:b:s])",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DefaultValuedAttr<I64Attr, "0">:$dim,
         OptionalAttr<I64Attr>:$start, OptionalAttr<I64Attr>:$end,
         DefaultValuedAttr<I64Attr, "1">:$step),
    "$input",
    "%r = tp.slice %x {dim = 1 : i64, end = -1 : i64, start = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x5xf32>",
    [], "::mlir::tp::inferSliceShape(op, /*backward=*/false)"> {
  let familyDescription =
      "Python's slicing along `dim`: a negative `start` or `end` counts from "
      "the end, both are clamped into the dimension (absent: its start and "
      "its end), `step` must be positive, and an empty range gives a "
      "zero-size dimension, as tensorplay's `slice`.";
}
def TP_SliceBackwardOp : TP_SingleResultOp<"slice_backward",
    "aten::slice_backward: slice's input gradient (zeros outside the slice)",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$grad_output, DenseI64ArrayAttr:$input_sizes,
         DefaultValuedAttr<I64Attr, "0">:$dim, OptionalAttr<I64Attr>:$start,
         OptionalAttr<I64Attr>:$end, DefaultValuedAttr<I64Attr, "1">:$step),
    "$grad_output",
    "%r = tp.slice_backward %g {dim = 1 : i64, end = -1 : i64, input_sizes = array<i64: 4, 8>, start = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferSliceShape(op, /*backward=*/true)"> {
  let familyDescription =
      "A tensor of `input_sizes` holding grad_output (of the slice's result "
      "shape) where the slice with these attributes took its elements, and "
      "zeros elsewhere.";
}

/// Concatenation of a list of tensors along dim.
class TP_JoinOp<string mnemonic, string summaryText, string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Promote">,
        (ins Variadic<TP_Tensor>:$tensors, DefaultValuedAttr<I64Attr, "0">:$dim),
        "` ` `[` $tensors `]`", example, [AttrSizedOperandSegments],
        "::mlir::tp::inferJoinShape(op, /*stack=*/" #
        !if(!eq(mnemonic, "stack"), "true", "false") # ")"> {
  let familyDescription =
      "Joins a list of tensors along `dim`: `cat` concatenates (all other "
      "sizes agree), `stack` inserts a new dimension (all shapes agree); "
      "element types promote natively.";
}

def TP_CatOp : TP_JoinOp<"cat", "Concatenate tensors along an existing dim",
    "%r = tp.cat [%a, %b] {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>">;
def TP_StackOp : TP_JoinOp<"stack", "Stack tensors along a new dim",
    "%r = tp.stack [%a, %b] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>">;

def TP_IndexCopyOp : TP_SingleResultOp<"index_copy",
    "Copy rows of source into self at index along dim", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, I64Attr:$dim, TP_Tensor:$index, TP_Tensor:$source),
    "$input `,` $index `,` $source",
    "%r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>",
    [], "::mlir::tp::inferIndexedShape(op, adaptor.getInput(), adaptor.getIndex(), adaptor.getSource())">;

def TP_ScatterAddOp : TP_SingleResultOp<"scatter_add",
    "Add src into self at index along dim", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, I64Attr:$dim, TP_Tensor:$index, TP_Tensor:$src),
    "$input `,` $index `,` $src",
    "%r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>",
    [], "::mlir::tp::inferIndexedShape(op, adaptor.getInput(), adaptor.getIndex(), adaptor.getSrc())">;

/// torch.gather(self, dim, index): result[i] = self[i with i[dim] replaced
/// by index[i]].
def TP_GatherOp : TP_SingleResultOp<"gather",
    "Gather self's elements at index along dim", TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, I64Attr:$dim, TP_Tensor:$index),
    "$input `,` $index",
    "%r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>",
    [], "::mlir::tp::inferGatherShape(op)"> {
  let familyDescription =
      "Reads `input` at the positions `index` names along `dim`: the result "
      "(index's shape) holds input[i_0, ..., index[i], ..., i_n] at i. `index` "
      "has input's rank and is no larger than input in the other "
      "dimensions; an index outside [0, size) is clamped into it by the CPU "
      "lowering (eager tensorplay raises).";
}

def TP_IndexPutOp : TP_SingleResultOp<"index_put",
    "Put values into self at the given index tensors (accumulate: add)",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, Variadic<TP_Tensor>:$indices, TP_Tensor:$values,
         DefaultValuedAttr<BoolAttr, "false">:$accumulate),
    "$input `[` $indices `]` `,` $values",
    "%r = tp.index_put %x[%i], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferIndexPutShape(op)">;

def TP_EmbeddingOp : TP_SingleResultOp<"embedding",
    "Look up rows of weight by integer indices", TP_DtypeRule<"First">,
    (ins TP_Tensor:$weight, TP_Tensor:$indices,
         DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
         DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq,
         DefaultValuedAttr<BoolAttr, "false">:$sparse),
    "$weight `,` $indices",
    "%r = tp.embedding %w, %i : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<4x7x16xf32>",
    [], "::mlir::tp::inferEmbeddingShape(op)">;

/// aten::embedding_dense_backward: what tp-autodiff builds for embedding's
/// weight.
def TP_EmbeddingDenseBackwardOp : TP_SingleResultOp<"embedding_dense_backward",
    "aten::embedding_dense_backward: embedding's weight gradient, a "
    "scatter-add of grad_output's rows", TP_DtypeRule<"First">,
    (ins TP_Tensor:$grad_output, TP_Tensor:$indices, I64Attr:$num_weights,
         DefaultValuedAttr<I64Attr, "-1">:$padding_idx,
         DefaultValuedAttr<BoolAttr, "false">:$scale_grad_by_freq),
    "$grad_output `,` $indices",
    "%r = tp.embedding_dense_backward %g, %i {num_weights = 100 : i64} : (tensor<4x7x16xf32>, tensor<4x7xi64>) -> tensor<100x16xf32>",
    [], "::mlir::tp::inferEmbeddingDenseBackwardShape(op)"> {
  let familyDescription =
      "The gradient of `tp.embedding`'s (num_weights, D) weight given the "
      "gradient `grad_output` (the indices' shape, then D) of its result: "
      "row v is the sum of the rows of grad_output whose index is v; the row "
      "of `padding_idx` (when it is not -1) gets nothing, and with "
      "`scale_grad_by_freq` each row is divided by its index's count. "
      "Indices outside [0, num_weights) are clamped into it, as the CPU "
      "lowering of `tp.embedding` clamps them (this op is its adjoint). "
      "Lowered to a loop over the rows of grad_output that adds each into "
      "its weight row (f32 accumulation for f16 and bf16).";
}

/// Padding of the last N dimensions: padding = (left, right, top, bottom, ...).
class TP_PadOp<string mnemonic, string summaryText, int n, string example>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"First">,
        (ins TP_Tensor:$input, DenseI64ArrayAttr:$padding), "$input", example,
        [], "::mlir::tp::inferPadShape(op, " # n # ")"> {
  let familyDescription =
      "Pads the trailing spatial dimensions by (left, right) amounts per "
      "dimension, last dimension first, as torch.nn.functional.pad.";
}

def TP_ReflectionPad1dOp : TP_PadOp<"reflection_pad1d",
    "Pad the last dimension by reflection", 1,
    "%r = tp.reflection_pad1d %x {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>">;
def TP_ReflectionPad2dOp : TP_PadOp<"reflection_pad2d",
    "Pad the last two dimensions by reflection", 2,
    "%r = tp.reflection_pad2d %x {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>">;
def TP_ReplicationPad1dOp : TP_PadOp<"replication_pad1d",
    "Pad the last dimension by replicating the border", 1,
    "%r = tp.replication_pad1d %x {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>">;
def TP_ReplicationPad2dOp : TP_PadOp<"replication_pad2d",
    "Pad the last two dimensions by replicating the border", 2,
    "%r = tp.replication_pad2d %x {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>">;
def TP_ReplicationPad3dOp : TP_PadOp<"replication_pad3d",
    "Pad the last three dimensions by replicating the border", 3,
    "%r = tp.replication_pad3d %x {padding = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x6x6x6xf32>">;

def TP_MaxUnpool2dOp : TP_SingleResultOp<"max_unpool2d",
    "Partial inverse of max_pool2d from its indices", TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, TP_Tensor:$indices, DenseI64ArrayAttr:$output_size),
    "$input `,` $indices",
    "%r = tp.max_unpool2d %x, %i {output_size = array<i64: 4, 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>",
    [], "::mlir::tp::inferUnpoolShape(op, 2)">;
def TP_MaxUnpool3dOp : TP_SingleResultOp<"max_unpool3d",
    "Partial inverse of max_pool3d from its indices", TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, TP_Tensor:$indices, DenseI64ArrayAttr:$output_size,
         DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding),
    "$input `,` $indices",
    "%r = tp.max_unpool3d %x, %i {output_size = array<i64: 4, 4, 4>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>",
    [], "::mlir::tp::inferUnpoolShape(op, 3)">;

//===----------------------------------------------------------------------===//
// Pooling over the trailing n spatial dimensions of an (N, C, ...) or
// (C, ...) input, and aten's backward ops of each pool
//===----------------------------------------------------------------------===//

defvar TP_AvgPoolAttrs = (ins DenseI64ArrayAttr:$kernel_size,
    OptionalAttr<DenseI64ArrayAttr>:$stride,
    OptionalAttr<DenseI64ArrayAttr>:$padding,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
    DefaultValuedAttr<BoolAttr, "true">:$count_include_pad,
    OptionalAttr<I64Attr>:$divisor_override);
defvar TP_MaxPoolAttrs = (ins DenseI64ArrayAttr:$kernel_size,
    OptionalAttr<DenseI64ArrayAttr>:$stride,
    OptionalAttr<DenseI64ArrayAttr>:$padding,
    OptionalAttr<DenseI64ArrayAttr>:$dilation,
    DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);
defvar TP_PoolWindowText =
    "Windows start at `o * stride - padding`; `kernel_size`, `stride` "
    "(default: the kernel size), `padding` and `dilation` take one value or "
    "one per spatial dimension, and `ceil_mode` adds a last partial window "
    "where it starts inside the input or its left padding, as tensorplay.";

class TP_AvgPoolOp<int n, string example>
    : TP_SingleResultOp<"avg_pool" # n # "d", n # "-D average pooling",
        TP_DtypeRule<"First">, !con((ins TP_Tensor:$input), TP_AvgPoolAttrs),
        "$input", example, [],
        "::mlir::tp::inferPoolShape(op, " # n # ", " # "adaptor.getKernelSize(), adaptor.getStride(), "
        "adaptor.getPadding(), std::nullopt, adaptor.getCeilMode())"> {
  let familyDescription = TP_PoolWindowText # " Each output is its window's "
      "sum divided by the window's size counting the padding "
      "(`count_include_pad`, the default) or not, or by `divisor_override`.";
}
def TP_AvgPool2dOp : TP_AvgPoolOp<2,
    "%r = tp.avg_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>">;
def TP_AvgPool3dOp : TP_AvgPoolOp<3,
    "%r = tp.avg_pool3d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>">;

class TP_MaxPoolOp<int n, string example>
    : TP_SingleResultOp<"max_pool" # n # "d", n # "-D max pooling",
        TP_DtypeRule<"First">, !con((ins TP_Tensor:$input), TP_MaxPoolAttrs),
        "$input", example, [],
        "::mlir::tp::inferPoolShape(op, " # n # ", " # "adaptor.getKernelSize(), adaptor.getStride(), "
        "adaptor.getPadding(), adaptor.getDilation(), adaptor.getCeilMode())"> {
  let familyDescription = TP_PoolWindowText # " Each output is its window's "
      "largest element; a NaN in the window makes it NaN.";
}
def TP_MaxPool2dOp : TP_MaxPoolOp<2,
    "%r = tp.max_pool2d %x {kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>">;
def TP_MaxPool3dOp : TP_MaxPoolOp<3,
    "%r = tp.max_pool3d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>">;

class TP_MaxPoolWithIndicesOp<int n, string example>
    : TP_ComputeOp<"max_pool" # n # "d_with_indices",
        n # "-D max pooling: returns (output, indices)",
        TP_DtypeRule<"First", ["Value", "I64"]>,
        !con((ins TP_Tensor:$input), TP_MaxPoolAttrs), "$input", example,
        [Pure],
        "::mlir::tp::inferPoolShape(op, " # n # ", " # "adaptor.getKernelSize(), adaptor.getStride(), "
        "adaptor.getPadding(), adaptor.getDilation(), adaptor.getCeilMode())"> {
  let familyDescription = TP_PoolWindowText # " Returns max_pool's output "
      "and, for each output, the flat index over the spatial dimensions of "
      "the element it took (the first of equal maxima, the last NaN), which "
      "max_pool" # n # "d_with_indices_backward and max_unpool take.";
  let results = (outs TP_Tensor:$output, TP_Tensor:$indices);
}
def TP_MaxPool2dWithIndicesOp : TP_MaxPoolWithIndicesOp<2,
    "%r, %i = tp.max_pool2d_with_indices %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)">;
def TP_MaxPool3dWithIndicesOp : TP_MaxPoolWithIndicesOp<3,
    "%r, %i = tp.max_pool3d_with_indices %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>)">;

class TP_AdaptiveAvgPoolOp<int n, string example>
    : TP_SingleResultOp<"adaptive_avg_pool" # n # "d",
        n # "-D average pooling to a fixed output size",
        TP_DtypeRule<"First">,
        (ins TP_Tensor:$input, DenseI64ArrayAttr:$output_size), "$input",
        example, [],
        "::mlir::tp::inferAdaptivePoolShape(op, " # n # ", adaptor.getOutputSize())"> {
  let familyDescription =
      "Output `o` of a spatial dimension of size `I` averages the input "
      "from floor(o * I / O) up to ceil((o + 1) * I / O), as tensorplay's "
      "adaptive pooling.";
}
def TP_AdaptiveAvgPool2dOp : TP_AdaptiveAvgPoolOp<2,
    "%r = tp.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>">;
def TP_AdaptiveAvgPool3dOp : TP_AdaptiveAvgPoolOp<3,
    "%r = tp.adaptive_avg_pool3d %x {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>">;

/// Pooling ops that also return the argmax indices.
class TP_PoolWithIndicesOp<string mnemonic, string summaryText, dag attrs,
                           int n, string example>
    : TP_ComputeOp<mnemonic, summaryText, TP_DtypeRule<"First", ["Value", "I64"]>,
        !con((ins TP_Tensor:$input), attrs), "$input", example, [Pure],
        "::mlir::tp::inferAdaptivePoolShape(op, " # n # ", adaptor.getOutputSize())"> {
  let familyDescription =
      "Pooling over the trailing spatial dimensions returning the values and "
      "the (i64) flat indices of the chosen elements.";
  let results = (outs TP_Tensor:$output, TP_Tensor:$indices);
}

def TP_AdaptiveMaxPool3dOp : TP_PoolWithIndicesOp<"adaptive_max_pool3d",
    "3-D max pooling to a fixed output size: returns (output, indices)",
    (ins DenseI64ArrayAttr:$output_size), 3,
    "%r, %i = tp.adaptive_max_pool3d %x {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x1xi64>)">;

/// The input gradient of a pool (tp-autodiff's backward of the pools): the
/// gradient of the output, the forward's input, and for max pools the
/// forward's indices.
class TP_PoolBackwardOp<string mnemonic, string summaryText, dag operands,
                        dag attrs, string format, string example, code rule>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        !con((ins TP_Tensor:$grad_output, TP_Tensor:$input), operands, attrs),
        format, example, [], rule> {
  let familyDescription =
      "The gradient of a pool's input from the gradient of its output "
      "(`grad_output`, of the pool's output shape), with the forward's "
      "attributes: each input element gets the sum, over the windows that "
      "hold it, of its share of each window's gradient (the window's "
      "gradient over its divisor for average pools; all of it for the "
      "element a max pool's `indices` name). The result has the input's "
      "shape.";
}
class TP_AvgPoolBackwardOp<int n, string example>
    : TP_PoolBackwardOp<"avg_pool" # n # "d_backward",
        "aten::avg_pool" # n # "d_backward: avg_pool" # n # "d's input gradient",
        (ins), TP_AvgPoolAttrs, "$grad_output `,` $input", example,
        "::mlir::tp::inferPoolBackwardShape(op, " # n # ", " # "adaptor.getKernelSize(), adaptor.getStride(), "
        "adaptor.getPadding(), std::nullopt, adaptor.getCeilMode())">;
def TP_AvgPool2dBackwardOp : TP_AvgPoolBackwardOp<2,
    "%r = tp.avg_pool2d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>">;
def TP_AvgPool3dBackwardOp : TP_AvgPoolBackwardOp<3,
    "%r = tp.avg_pool3d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>">;

class TP_MaxPoolBackwardOp<int n, string example>
    : TP_PoolBackwardOp<"max_pool" # n # "d_with_indices_backward",
        "aten::max_pool" # n # "d_with_indices_backward: max_pool" # n #
        "d's input gradient",
        (ins TP_Tensor:$indices), TP_MaxPoolAttrs,
        "$grad_output `,` $input `,` $indices", example,
        "::mlir::tp::inferPoolBackwardShape(op, " # n # ", " # "adaptor.getKernelSize(), adaptor.getStride(), "
        "adaptor.getPadding(), adaptor.getDilation(), adaptor.getCeilMode())">;
def TP_MaxPool2dWithIndicesBackwardOp : TP_MaxPoolBackwardOp<2,
    "%r = tp.max_pool2d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>">;
def TP_MaxPool3dWithIndicesBackwardOp : TP_MaxPoolBackwardOp<3,
    "%r = tp.max_pool3d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>">;

class TP_AdaptiveAvgPoolBackwardOp<int n, string example>
    : TP_PoolBackwardOp<"adaptive_avg_pool" # n # "d_backward",
        "aten::_adaptive_avg_pool" # n # "d_backward: adaptive_avg_pool" # n #
        "d's input gradient (the output size is grad_output's)",
        (ins), (ins), "$grad_output `,` $input", example,
        "::mlir::tp::inferAdaptivePoolBackwardShape(op, " # n # ")">;
def TP_AdaptiveAvgPool2dBackwardOp : TP_AdaptiveAvgPoolBackwardOp<2,
    "%r = tp.adaptive_avg_pool2d_backward %g, %x : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>">;
def TP_AdaptiveAvgPool3dBackwardOp : TP_AdaptiveAvgPoolBackwardOp<3,
    "%r = tp.adaptive_avg_pool3d_backward %g, %x : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>">;
def TP_AdaptiveMaxPool3dBackwardOp : TP_PoolBackwardOp<
    "adaptive_max_pool3d_backward",
    "aten::adaptive_max_pool3d_backward: adaptive_max_pool3d's input gradient",
    (ins TP_Tensor:$indices), (ins), "$grad_output `,` $input `,` $indices",
    "%r = tp.adaptive_max_pool3d_backward %g, %x, %i : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x1xi64>) -> tensor<1x2x4x4x4xf32>",
    "::mlir::tp::inferAdaptivePoolBackwardShape(op, 3)">;

class TP_FractionalMaxPoolOp<string mnemonic, int n, string example>
    : TP_ComputeOp<mnemonic,
        !cast<string>(n) # "-D fractional max pooling: returns (output, indices)",
        TP_DtypeRule<"Same", ["Value", "I64"]>,
        (ins TP_Tensor:$input, DenseI64ArrayAttr:$kernel_size,
             DenseI64ArrayAttr:$output_size, TP_Tensor:$random_samples),
        "$input `,` $random_samples", example, [Pure],
        "::mlir::tp::inferAdaptivePoolShape(op, " # n # ", adaptor.getOutputSize())"> {
  let familyDescription =
      "Fractional max pooling: the windows' positions come from "
      "`random_samples`; returns values and (i64) indices of the output size.";
  let results = (outs TP_Tensor:$output, TP_Tensor:$indices);
}

def TP_FractionalMaxPool2dOp : TP_FractionalMaxPoolOp<"fractional_max_pool2d", 2,
    "%r, %i = tp.fractional_max_pool2d %x, %s {kernel_size = array<i64: 2, 2>, output_size = array<i64: 3, 3>} : (tensor<1x2x8x8xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)">;
def TP_FractionalMaxPool3dOp : TP_FractionalMaxPoolOp<"fractional_max_pool3d", 3,
    "%r, %i = tp.fractional_max_pool3d %x, %s {kernel_size = array<i64: 2, 2, 2>, output_size = array<i64: 3, 3, 3>} : (tensor<1x2x8x8x8xf32>, tensor<1x2x3xf32>) -> (tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xi64>)">;

def TP_GridSampleOp : TP_SingleResultOp<"grid_sample",
    "Sample input at the (x, y[, z]) locations of grid", TP_DtypeRule<"Same">,
    (ins TP_Tensor:$input, TP_Tensor:$grid,
         DefaultValuedStrAttr<StrAttr, "bilinear">:$mode,
         DefaultValuedStrAttr<StrAttr, "zeros">:$padding_mode,
         DefaultValuedAttr<BoolAttr, "false">:$align_corners),
    "$input `,` $grid",
    "%r = tp.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>",
    [], "::mlir::tp::inferGridSampleShape(op, 0)">;

/// aten::grid_sampler*: integer interpolation and padding modes.
class TP_GridSamplerOp<string mnemonic, string summaryText, int n>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        (ins TP_Tensor:$input, TP_Tensor:$grid, I64Attr:$interpolation_mode,
             I64Attr:$padding_mode, BoolAttr:$align_corners),
        "$input `,` $grid",
        "%r = tp." # mnemonic # " %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : " #
        !if(!eq(n, 3),
            "(tensor<1x3x4x8x8xf32>, tensor<1x2x4x4x3xf32>) -> tensor<1x3x2x4x4xf32>",
            "(tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>"),
        [], "::mlir::tp::inferGridSampleShape(op, " # n # ")"> {
  let familyDescription =
      "Samples the input at the normalized coordinates of `grid` (last "
      "dimension: the spatial coordinates); the result has the input's batch "
      "and channels and the grid's spatial shape.";
}

def TP_GridSamplerOp : TP_GridSamplerOp<"grid_sampler",
    "aten::grid_sampler (2-D or 3-D by the input's rank)", 0>;
def TP_GridSampler2dOp : TP_GridSamplerOp<"grid_sampler_2d",
    "aten::grid_sampler_2d", 2>;
def TP_GridSampler2dCpuFallbackOp : TP_GridSamplerOp<
    "grid_sampler_2d_cpu_fallback", "aten::_grid_sampler_2d_cpu_fallback", 2>;
def TP_GridSampler3dOp : TP_GridSamplerOp<"grid_sampler_3d",
    "aten::grid_sampler_3d", 3>;

#endif // TENSORPLAY_DIALECT_TP_IR_TPSHAPEOPS_TD
