//===- TPReductionOps.td - tp reductions and normalizations -*- tablegen -*-=//
//
// Reductions (sum, prod, mean, max, cumsum, ...), softmax family, norms,
// distances, layer/group/batch normalization, quantiles.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPREDUCTIONOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPREDUCTIONOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// Prefixes the C++ verifier expression `verifier` with the check of the
/// op's explicit dtype= against `kind` (DtypeKind in C++: Any, Floating or
/// FloatingOrComplex).
class TP_CheckDtype<string kind, string verifier> {
  string result = "::mlir::failed(::mlir::tp::verifyExplicitDtype(op, "
      "::mlir::tp::DtypeKind::" # kind # ")) ? ::mlir::failure() : " #
      verifier;
}

/// Reduction over `dim` (all dimensions when absent) with an optional dtype=
/// of kind `dtypeKind`.
class TP_ReduceOp<string mnemonic, string summaryText, TP_DtypeRule rule,
                  dag dimAttr, string dimExpr, string dtypeKind = "Any">
    : TP_SingleResultOp<mnemonic, summaryText, rule,
        !con((ins TP_Tensor:$input), dimAttr,
             (ins DefaultValuedAttr<BoolAttr, "false">:$keepdim,
                  OptionalAttr<TypeAttr>:$dtype)),
        "$input",
        "%r = tp." # mnemonic # " %x {dim = " # !if(!eq(dimExpr, "list"),
            "array<i64: 1>", "1 : i64") #
            "} : (tensor<4x8xf16>) -> tensor<4xf16>",
        [], TP_CheckDtype<dtypeKind,
            "::mlir::tp::inferReductionShape(op, adaptor.getInput(), " #
            !if(!eq(dimExpr, "list"), "adaptor.getDim()",
                "::mlir::tp::optionalDims(adaptor.getDim())") #
            ", adaptor.getKeepdim())">.result> {
  let familyDescription =
      "Reduces `input` over `dim` (every dimension when absent); `keepdim` "
      "keeps the reduced dimensions with size 1. Reductions with no value "
      "over an empty set (max, amax, argmax, inf-norms) refuse reducing a "
      "dimension of size 0.";
}

def TP_SumOp : TP_ReduceOp<"sum", "Sum over dimensions",
    TP_DtypeRule<"Accumulate">,
    (ins OptionalAttr<DenseI64ArrayAttr>:$dim), "list">;
def TP_MeanOp : TP_ReduceOp<"mean", "Arithmetic mean over dimensions",
    TP_DtypeRule<"First">,
    (ins OptionalAttr<DenseI64ArrayAttr>:$dim), "list", "FloatingOrComplex">;
def TP_ProdOp : TP_ReduceOp<"prod", "Product over one dimension or all",
    TP_DtypeRule<"Accumulate">, (ins OptionalAttr<I64Attr>:$dim), "int">;

def TP_NormOp : TP_SingleResultOp<"norm",
    "p-norm over dimensions (all when absent); real for complex input",
    TP_DtypeRule<"First", ["Real"]>,
    (ins TP_Tensor:$input, OptionalAttr<F64Attr>:$p,
         OptionalAttr<DenseI64ArrayAttr>:$dim,
         DefaultValuedAttr<BoolAttr, "false">:$keepdim,
         OptionalAttr<TypeAttr>:$dtype),
    "$input",
    "%r = tp.norm %x {p = 2.0 : f64} : (tensor<4x8xf32>) -> tensor<f32>",
    [], TP_CheckDtype<"FloatingOrComplex",
        "::mlir::tp::inferReductionShape(op, adaptor.getInput(), adaptor.getDim(), "
        "adaptor.getKeepdim())">.result>;

/// Full reduction to the maximum (torch.max(input)).
def TP_MaxOp : TP_SingleResultOp<"max", "Maximum of all elements",
    TP_DtypeRule<"First">, (ins TP_Tensor:$input), "$input",
    "%r = tp.max %x : (tensor<4x8xf32>) -> tensor<f32>",
    [], "::mlir::tp::inferReductionShape(op, adaptor.getInput(), std::nullopt, false)">;

def TP_AmaxOp : TP_SingleResultOp<"amax", "Maximum over dimensions",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DenseI64ArrayAttr:$dim,
         DefaultValuedAttr<BoolAttr, "false">:$keepdim),
    "$input",
    "%r = tp.amax %x {dim = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferReductionShape(op, adaptor.getInput(), adaptor.getDim(), adaptor.getKeepdim())">;

def TP_LogsumexpOp : TP_SingleResultOp<"logsumexp",
    "log(sum(exp(input))) over dimensions, computed from the maximum",
    TP_DtypeRule<"Float">,
    (ins TP_Tensor:$input, DenseI64ArrayAttr:$dim,
         DefaultValuedAttr<BoolAttr, "false">:$keepdim),
    "$input",
    "%r = tp.logsumexp %x {dim = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferReductionShape(op, adaptor.getInput(), adaptor.getDim(), adaptor.getKeepdim())"> {
  let description = [{
    As tensorplay computes it: m = amax(input) over `dim` (0 where it is
    infinite), then log(sum(exp(input - m))) + m; the CPU pipeline rewrites
    it into those ops (tp-decompose-composite-ops), after autocast, which
    leaves it in its input's type (the tables do not list it).
  }];
}

def TP_ArgmaxOp : TP_SingleResultOp<"argmax",
    "Index of the maximum over dim (flattened when absent)",
    TP_DtypeRule<"First", ["I64"]>,
    (ins TP_Tensor:$input, OptionalAttr<I64Attr>:$dim,
         DefaultValuedAttr<BoolAttr, "false">:$keepdim),
    "$input",
    "%r = tp.argmax %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>",
    [], "::mlir::tp::inferReductionShape(op, adaptor.getInput(), "
        "::mlir::tp::optionalDims(adaptor.getDim()), adaptor.getKeepdim())">;

/// torch.max(input, dim): (values, indices).
def TP_MaxDimOp : TP_ComputeOp<"max_dim",
    "Maximum over one dimension with its indices: returns (values, indices)",
    TP_DtypeRule<"First", ["Value", "I64"]>,
    (ins TP_Tensor:$input, I64Attr:$dim,
         DefaultValuedAttr<BoolAttr, "false">:$keepdim),
    "$input",
    "%v, %i = tp.max_dim %x {dim = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>)",
    [Pure], "::mlir::tp::inferReductionShape(op, adaptor.getInput(), "
        "::mlir::tp::optionalDims(adaptor.getDim()), adaptor.getKeepdim())"> {
  let results = (outs TP_Tensor:$values, TP_Tensor:$indices);
}

/// torch.topk(input, k, dim, largest, sorted): (values, indices).
def TP_TopkOp : TP_ComputeOp<"topk",
    "The k largest (or smallest) elements along dim with their indices",
    TP_DtypeRule<"First", ["Value", "I64"]>,
    (ins TP_Tensor:$input, I64Attr:$k, DefaultValuedAttr<I64Attr, "-1">:$dim,
         DefaultValuedAttr<BoolAttr, "true">:$largest,
         DefaultValuedAttr<BoolAttr, "true">:$sorted),
    "$input",
    "%v, %i = tp.topk %x {k = 3 : i64} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)",
    [Pure], "::mlir::tp::inferTopkShape(op)"> {
  let familyDescription =
      "Selects along `dim` the `k` largest elements (`largest`, the default) "
      "or the k smallest, and returns them with their positions along dim; "
      "the results have the input's shape with k along dim. NaN counts as "
      "larger than every number (as in tensorplay). The CPU lowering always "
      "returns them sorted (best first, equal values by position), which "
      "`sorted = false` permits.";
  let results = (outs TP_Tensor:$values, TP_Tensor:$indices);
}

/// Ops along one dimension that keep the input's shape, with a dtype= of
/// kind `dtypeKind`.
class TP_AlongDimOp<string mnemonic, string summaryText, TP_DtypeRule rule,
                    string dtypeKind = "Any">
    : TP_SingleResultOp<mnemonic, summaryText, rule,
        (ins TP_Tensor:$input, I64Attr:$dim, OptionalAttr<TypeAttr>:$dtype),
        "$input",
        "%r = tp." # mnemonic # " %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>",
        [], TP_CheckDtype<dtypeKind,
            "::mlir::tp::inferAlongDimShape(op, adaptor.getInput(), adaptor.getDim())">.result> {
  let familyDescription =
      "Computes along one dimension `dim` (negative values count from the "
      "end); the result has the input's shape.";
}

def TP_CumsumOp : TP_AlongDimOp<"cumsum", "Cumulative sum along dim",
    TP_DtypeRule<"Accumulate">>;
def TP_CumprodOp : TP_AlongDimOp<"cumprod", "Cumulative product along dim",
    TP_DtypeRule<"Accumulate">>;
def TP_SoftmaxOp : TP_AlongDimOp<"softmax", "Softmax along dim",
    TP_DtypeRule<"First">, "Floating">;
def TP_LogSoftmaxOp : TP_AlongDimOp<"log_softmax", "Log of softmax along dim",
    TP_DtypeRule<"First">, "Floating">;
def TP_SoftminOp : TP_AlongDimOp<"softmin", "Softmin (softmax of -x) along dim",
    TP_DtypeRule<"First">, "Floating">;

/// aten::_softmax_backward_data and _log_softmax_backward_data: what
/// tp-autodiff builds for softmax, log_softmax, softmin and cross_entropy.
class TP_SoftmaxBackwardOp<string mnemonic, string summaryText,
                           string formula>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"First">,
        (ins TP_Tensor:$grad_output, TP_Tensor:$output, I64Attr:$dim),
        "$grad_output `,` $output",
        "%r = tp." # mnemonic # " %g, %y {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>",
        [], "::mlir::tp::inferSoftmaxBackwardShape(op)"> {
  let familyDescription =
      "The gradient of the input of a softmax along `dim` (negative values "
      "count from the end) from the gradient `grad_output` of its result and "
      "the result itself (`output`, of the same shape, floating): " #
      formula # ". Lowered to one reduction along dim and one elementwise "
      "loop; f16 and bf16 compute in f32 and round once.";
}
def TP_SoftmaxBackwardOp : TP_SoftmaxBackwardOp<"softmax_backward",
    "aten::_softmax_backward_data: softmax's input gradient",
    "output * (grad_output - sum(grad_output * output, dim))">;
def TP_LogSoftmaxBackwardOp : TP_SoftmaxBackwardOp<"log_softmax_backward",
    "aten::_log_softmax_backward_data: log_softmax's input gradient",
    "grad_output - exp(output) * sum(grad_output, dim)">;

def TP_NormalizeOp : TP_SingleResultOp<"normalize",
    "Lp-normalize along dim: x / max(||x||_p, eps)", TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DefaultValuedAttr<F64Attr, "2.0">:$p,
         DefaultValuedAttr<I64Attr, "1">:$dim,
         DefaultValuedAttr<F64Attr, "1e-12">:$eps),
    "$input",
    "%r = tp.normalize %x : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferAlongDimShape(op, adaptor.getInput(), adaptor.getDim())">;

def TP_RenormOp : TP_SingleResultOp<"renorm",
    "Rescale sub-tensors along dim whose p-norm exceeds maxnorm",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, F64Attr:$p, I64Attr:$dim, F64Attr:$maxnorm),
    "$input",
    "%r = tp.renorm %x {dim = 0 : i64, maxnorm = 1.0 : f64, p = 2.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferAlongDimShape(op, adaptor.getInput(), adaptor.getDim())">;

def TP_LayerNormOp : TP_SingleResultOp<"layer_norm",
    "Layer normalization over the trailing normalized_shape dimensions",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DenseI64ArrayAttr:$normalized_shape,
         Optional<TP_Tensor>:$weight, Optional<TP_Tensor>:$bias,
         DefaultValuedAttr<F64Attr, "1e-05">:$eps,
         DefaultValuedAttr<BoolAttr, "true">:$cudnn_enable),
    "$input (`weight` `(` $weight^ `)`)? (`bias` `(` $bias^ `)`)?",
    "%r = tp.layer_norm %x weight(%g) bias(%b) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferLayerNormShape(op)">;

/// aten::native_layer_norm_backward, with the statistics recomputed from
/// the input: what tp-autodiff builds for layer_norm.
def TP_LayerNormBackwardOp : TP_ComputeOp<"layer_norm_backward",
    "aten::native_layer_norm_backward: layer_norm's input, weight and bias "
    "gradients",
    TP_DtypeRule<"First", ["Value", "Weight", "Weight"]>,
    (ins TP_Tensor:$grad_output, TP_Tensor:$input,
         Optional<TP_Tensor>:$weight, DenseI64ArrayAttr:$normalized_shape,
         DefaultValuedAttr<F64Attr, "1e-05">:$eps),
    "$grad_output `,` $input (`weight` `(` $weight^ `)`)?",
    "%gx, %gw, %gb = tp.layer_norm_backward %g, %x weight(%w) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)",
    [AttrSizedOperandSegments, Pure],
    "::mlir::tp::inferLayerNormBackwardShape(op)"> {
  let familyDescription =
      "The gradients of `tp.layer_norm` over the trailing `normalized_shape` "
      "dims of `input` (with `eps`) with respect to its input, weight and "
      "bias, given the gradient `grad_output` (the input's shape) of its "
      "result and the forward's `input` and optional `weight` (the bias "
      "takes no part). The mean and the biased variance are recomputed from "
      "the input with the forward's two-pass formula (exact), xhat = (x - "
      "mean) rstd, gw = grad_output weight: grad_input = rstd (gw - mean(gw) "
      "- xhat mean(gw xhat)), grad_weight = sum(grad_output xhat) and "
      "grad_bias = sum(grad_output) over the leading dims. Results without "
      "uses are not computed. Lowered to three reductions and two "
      "elementwise loops; f16 and bf16 compute in f32 and round once, the "
      "parameter gradients to the weight's dtype (f32 for an f32 weight).";
  let results = (outs TP_Tensor:$grad_input, TP_Tensor:$grad_weight,
                      TP_Tensor:$grad_bias);
}

def TP_GroupNormOp : TP_SingleResultOp<"group_norm",
    "Group normalization over groups of channels", TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, I64Attr:$num_groups, Optional<TP_Tensor>:$weight,
         Optional<TP_Tensor>:$bias, DefaultValuedAttr<F64Attr, "1e-05">:$eps,
         DefaultValuedAttr<BoolAttr, "true">:$cudnn_enabled),
    "$input (`weight` `(` $weight^ `)`)? (`bias` `(` $bias^ `)`)?",
    "%r = tp.group_norm %x {num_groups = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferGroupNormShape(op)">;

/// aten::native_group_norm_backward, with the statistics recomputed from
/// the input: what tp-autodiff builds for group_norm.
def TP_GroupNormBackwardOp : TP_ComputeOp<"group_norm_backward",
    "aten::native_group_norm_backward: group_norm's input, weight and bias "
    "gradients",
    TP_DtypeRule<"First", ["Value", "Weight", "Weight"]>,
    (ins TP_Tensor:$grad_output, TP_Tensor:$input,
         Optional<TP_Tensor>:$weight, I64Attr:$num_groups,
         DefaultValuedAttr<F64Attr, "1e-05">:$eps),
    "$grad_output `,` $input (`weight` `(` $weight^ `)`)?",
    "%gx, %gw, %gb = tp.group_norm_backward %g, %x weight(%w) {num_groups = 2 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>)",
    [AttrSizedOperandSegments, Pure],
    "::mlir::tp::inferGroupNormBackwardShape(op)"> {
  let familyDescription =
      "The gradients of `tp.group_norm` of an (N, C, ...) `input` in "
      "`num_groups` groups of channels (with `eps`) with respect to its "
      "input, its (C) weight and its (C) bias, given the gradient "
      "`grad_output` (the input's shape) of its result and the forward's "
      "`input` and optional `weight`. Per sample and group the statistics "
      "are recomputed from the input (exact), and grad_input = rstd (gw - "
      "mean(gw) - xhat mean(gw xhat)) with gw = grad_output weight; "
      "grad_weight = sum(grad_output xhat) and grad_bias = sum(grad_output) "
      "over the samples and the spatial dims. Results without uses are not "
      "computed; f16 and bf16 compute in f32 and round once, the parameter "
      "gradients to the weight's dtype (f32 for an f32 weight).";
  let results = (outs TP_Tensor:$grad_input, TP_Tensor:$grad_weight,
                      TP_Tensor:$grad_bias);
}

def TP_BatchNormOp : TP_SingleResultOp<"batch_norm",
    "Batch normalization over the channel dimension (dim 1)",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, Optional<TP_Tensor>:$weight,
         Optional<TP_Tensor>:$bias, Optional<TP_Tensor>:$running_mean,
         Optional<TP_Tensor>:$running_var,
         DefaultValuedAttr<BoolAttr, "false">:$training,
         DefaultValuedAttr<F64Attr, "0.1">:$momentum,
         DefaultValuedAttr<F64Attr, "1e-05">:$eps,
         DefaultValuedAttr<BoolAttr, "true">:$cudnn_enabled),
    "$input (`weight` `(` $weight^ `)`)? (`bias` `(` $bias^ `)`)? "
    "(`running_mean` `(` $running_mean^ `)`)? "
    "(`running_var` `(` $running_var^ `)`)?",
    "%r = tp.batch_norm %x running_mean(%m) running_var(%v) : (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferBatchNormShape(op)">;

/// aten::native_batch_norm_backward with batch statistics (training form),
/// recomputed from the input: what tp-autodiff builds for batch_norm with
/// training = true or without running statistics.
def TP_BatchNormBackwardOp : TP_ComputeOp<"batch_norm_backward",
    "aten::native_batch_norm_backward (batch statistics): batch_norm's "
    "input, weight and bias gradients",
    TP_DtypeRule<"First", ["Value", "Weight", "Weight"]>,
    (ins TP_Tensor:$grad_output, TP_Tensor:$input,
         Optional<TP_Tensor>:$weight,
         DefaultValuedAttr<F64Attr, "1e-05">:$eps),
    "$grad_output `,` $input (`weight` `(` $weight^ `)`)?",
    "%gx, %gw, %gb = tp.batch_norm_backward %g, %x weight(%w) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>)",
    [AttrSizedOperandSegments, Pure],
    "::mlir::tp::inferBatchNormBackwardShape(op)"> {
  let familyDescription =
      "The gradients of `tp.batch_norm` normalizing with the batch's "
      "statistics (training form) an (N, C, ...) `input` (with `eps`) with "
      "respect to its input, its (C) weight and its (C) bias, given the "
      "gradient `grad_output` (the input's shape) of its result and the "
      "forward's `input` and optional `weight`. Per channel the mean and "
      "the biased variance are recomputed from the input over the batch and "
      "the spatial dims (exact), and grad_input = rstd (gw - mean(gw) - "
      "xhat mean(gw xhat)) with gw = grad_output weight; grad_weight = "
      "sum(grad_output xhat) and grad_bias = sum(grad_output) over the same "
      "dims. The running statistics take no part (they get no gradient). "
      "Results without uses are not computed; f16 and bf16 compute in f32 "
      "and round once, the parameter gradients to the weight's dtype (f32 "
      "for an f32 weight).";
  let results = (outs TP_Tensor:$grad_input, TP_Tensor:$grad_weight,
                      TP_Tensor:$grad_bias);
}

def TP_DistOp : TP_SingleResultOp<"dist", "p-norm of (self - other)",
    TP_DtypeRule<"Promote">,
    (ins TP_Tensor:$input, TP_Tensor:$other,
         DefaultValuedAttr<F64Attr, "2.0">:$p),
    "$input `,` $other",
    "%r = tp.dist %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>",
    [], "::mlir::tp::inferDistShape(op)">;

def TP_CdistOp : TP_SingleResultOp<"cdist",
    "Batched p-norm distance between each pair of row vectors",
    TP_DtypeRule<"Same">,
    (ins TP_Tensor:$x1, TP_Tensor:$x2, DefaultValuedAttr<F64Attr, "2.0">:$p,
         OptionalAttr<I64Attr>:$compute_mode),
    "$x1 `,` $x2",
    "%r = tp.cdist %a, %b : (tensor<5x3xf32>, tensor<7x3xf32>) -> tensor<5x7xf32>",
    [], "::mlir::tp::inferCdistShape(op)">;

def TP_PdistOp : TP_SingleResultOp<"pdist",
    "p-norm distance between every pair of rows (upper triangle)",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DefaultValuedAttr<F64Attr, "2.0">:$p), "$input",
    "%r = tp.pdist %x : (tensor<5x3xf32>) -> tensor<10xf32>",
    [], "::mlir::tp::inferPdistShape(op)">;

def TP_CosineSimilarityOp : TP_SingleResultOp<"cosine_similarity",
    "Cosine similarity of x1 and x2 along dim", TP_DtypeRule<"Promote">,
    (ins TP_Tensor:$x1, TP_Tensor:$x2, DefaultValuedAttr<I64Attr, "1">:$dim,
         DefaultValuedAttr<F64Attr, "1e-08">:$eps),
    "$x1 `,` $x2",
    "%r = tp.cosine_similarity %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferCosineSimilarityShape(op)">;

def TP_TraceOp : TP_SingleResultOp<"trace",
    "Sum of the main diagonal of a 2-D tensor", TP_DtypeRule<"Accumulate">,
    (ins TP_Tensor:$input), "$input",
    "%r = tp.trace %x : (tensor<4x4xf32>) -> tensor<f32>",
    [], "::mlir::tp::inferTraceShape(op)">;

class TP_QuantileOp<string mnemonic, string summaryText>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Same">,
        (ins TP_Tensor:$input, TP_Tensor:$q, OptionalAttr<I64Attr>:$dim,
             DefaultValuedAttr<BoolAttr, "false">:$keepdim,
             DefaultValuedStrAttr<StrAttr, "linear">:$interpolation),
        "$input `,` $q",
        "%r = tp." # mnemonic # " %x, %q {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>",
        [], "::mlir::tp::inferQuantileShape(op)"> {
  let familyDescription =
      "The q-th quantiles (q a scalar or a 1-D tensor) along `dim`, or of the "
      "flattened input; with a 1-D q the result has a leading dimension of "
      "q's size. `interpolation` is linear, lower, higher, midpoint or "
      "nearest.";
}

def TP_QuantileOp : TP_QuantileOp<"quantile", "q-th quantiles along dim">;
def TP_NanquantileOp : TP_QuantileOp<"nanquantile",
    "q-th quantiles along dim, ignoring NaN">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPREDUCTIONOPS_TD
