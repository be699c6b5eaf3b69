//===- TPElementwiseOps.td - tp elementwise ops ------------*- tablegen -*-===//
//
// Unary math, binary ops with native type promotion, ops with a scalar
// operand, activations and dropout.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPELEMENTWISEOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPELEMENTWISEOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// Unary elementwise op: the result has the input's shape.
class TP_UnaryOp<string mnemonic, string summaryText,
                 TP_DtypeRule rule = TP_DtypeRule<"Float">, dag attrs = (ins)>
    : TP_SingleResultOp<mnemonic, summaryText, rule,
        !con((ins TP_Tensor:$input), attrs), "$input",
        "%r = tp." # mnemonic # " %x : (tensor<4x8xf32>) -> tensor<4x8xf32>",
        [], "::mlir::tp::inferElementwiseShape(op, adaptor.getInput())"> {
  let familyDescription =
      "Applies the function to every element; the result has the input's "
      "shape.";
}

// Unary math in the fp32 lists.
def TP_AcosOp : TP_UnaryOp<"acos", "Elementwise arc cosine">;
def TP_AsinOp : TP_UnaryOp<"asin", "Elementwise arc sine">;
def TP_CoshOp : TP_UnaryOp<"cosh", "Elementwise hyperbolic cosine">;
def TP_SinhOp : TP_UnaryOp<"sinh", "Elementwise hyperbolic sine">;
def TP_TanOp : TP_UnaryOp<"tan", "Elementwise tangent">;
def TP_ErfinvOp : TP_UnaryOp<"erfinv", "Elementwise inverse error function">;
def TP_ExpOp : TP_UnaryOp<"exp", "Elementwise exponential">;
def TP_Expm1Op : TP_UnaryOp<"expm1", "Elementwise exp(x) - 1">;
def TP_LogOp : TP_UnaryOp<"log", "Elementwise natural logarithm">;
def TP_Log10Op : TP_UnaryOp<"log10", "Elementwise base-10 logarithm">;
def TP_Log1pOp : TP_UnaryOp<"log1p", "Elementwise log(1 + x)">;
def TP_Log2Op : TP_UnaryOp<"log2", "Elementwise base-2 logarithm">;
def TP_ReciprocalOp : TP_UnaryOp<"reciprocal", "Elementwise 1 / x">;
def TP_RsqrtOp : TP_UnaryOp<"rsqrt", "Elementwise 1 / sqrt(x)">;
def TP_SoftplusOp : TP_UnaryOp<"softplus",
    "Softplus: log(1 + exp(beta * x)) / beta, linear above threshold",
    TP_DtypeRule<"Float">,
    (ins DefaultValuedAttr<F64Attr, "1.0">:$beta,
         DefaultValuedAttr<F64Attr, "20.0">:$threshold)>;

// Everyday unary ops.
def TP_SqrtOp : TP_UnaryOp<"sqrt", "Elementwise square root">;
def TP_SinOp : TP_UnaryOp<"sin", "Elementwise sine">;
def TP_AtanOp : TP_UnaryOp<"atan", "Elementwise arc tangent">;
def TP_AsinhOp : TP_UnaryOp<"asinh", "Elementwise inverse hyperbolic sine">;
def TP_AcoshOp : TP_UnaryOp<"acosh", "Elementwise inverse hyperbolic cosine">;
def TP_AtanhOp : TP_UnaryOp<"atanh",
    "Elementwise inverse hyperbolic tangent">;
def TP_CosOp : TP_UnaryOp<"cos", "Elementwise cosine">;
def TP_ErfOp : TP_UnaryOp<"erf", "Elementwise error function">;
def TP_SigmoidOp : TP_UnaryOp<"sigmoid", "Elementwise logistic sigmoid">;
def TP_TanhOp : TP_UnaryOp<"tanh", "Elementwise hyperbolic tangent">;
def TP_SiluOp : TP_UnaryOp<"silu", "Elementwise x * sigmoid(x)">;
def TP_GeluOp : TP_UnaryOp<"gelu", "Gaussian error linear unit",
    TP_DtypeRule<"Float">,
    (ins DefaultValuedAttr<TP_GeluApproximationAttr,
                           "::mlir::tp::GeluApproximation::None">:$approximate)>;
def TP_NegOp : TP_UnaryOp<"neg", "Elementwise negation", TP_DtypeRule<"First">>;
def TP_AbsOp : TP_UnaryOp<"abs",
    "Elementwise absolute value (the real magnitude of a complex input)",
    TP_DtypeRule<"First", ["Real"]>>;
def TP_ReluOp : TP_UnaryOp<"relu", "Rectified linear unit: max(x, 0)",
    TP_DtypeRule<"First">>;
def TP_LeakyReluOp : TP_UnaryOp<"leaky_relu",
    "Leaky ReLU: x where x > 0, else negative_slope * x",
    TP_DtypeRule<"First">,
    (ins DefaultValuedAttr<F64Attr, "0.01">:$negative_slope)>;
def TP_HardswishOp : TP_UnaryOp<"hardswish",
    "Hard swish: x * min(max(x + 3, 0), 6) / 6", TP_DtypeRule<"First">>;
def TP_EluOp : TP_UnaryOp<"elu",
    "ELU: scale * x above 0, else scale * alpha * (exp(input_scale * x) - 1) "
    "(selu and celu are its parameters)",
    TP_DtypeRule<"Float">,
    (ins DefaultValuedAttr<F64Attr, "1.0">:$alpha,
         DefaultValuedAttr<F64Attr, "1.0">:$scale,
         DefaultValuedAttr<F64Attr, "1.0">:$input_scale)>;
def TP_MishOp : TP_UnaryOp<"mish", "Mish: x * tanh(log(1 + exp(x)))">;
def TP_LogSigmoidOp : TP_UnaryOp<"log_sigmoid",
    "log(sigmoid(x)), as min(x, 0) - log(1 + exp(-|x|))">;

/// clamp(self, min, max) with Python-scalar bounds (at least one): NaN
/// propagates, and min > max gives max everywhere, as in tensorplay.
def TP_ClampOp : TP_SingleResultOp<"clamp",
    "Elementwise min(max(x, min), max) with scalar bounds",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, OptionalAttr<F64Attr>:$min,
         OptionalAttr<F64Attr>:$max),
    "$input",
    "%r = tp.clamp %x {max = 6.0 : f64, min = 0.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferClampShape(op)"> {
  let familyDescription =
      "Clamps every element into [min, max]; either bound may be absent, not "
      "both. An integer input needs integral bounds (tensorplay would "
      "promote it to float; cast it first). The result has the input's "
      "shape.";
}

/// Backward of an activation: the gradient of its input from the gradient
/// of its output and the forward's input (aten's *_backward ops).
class TP_ActivationBackwardOp<string mnemonic, string summaryText,
                              dag attrs = (ins)>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Promote">,
        !con((ins TP_Tensor:$grad_output, TP_Tensor:$self), attrs),
        "$grad_output `,` $self",
        "%r = tp." # mnemonic # " %g, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>",
        [], "::mlir::tp::inferElementwiseShape(op, {adaptor.getGradOutput(), adaptor.getSelf()})"> {
  let familyDescription =
      "The gradient of an activation's input, elementwise from the gradient "
      "of its output (`grad_output`) and the forward's input (`self`), "
      "which broadcast together as for a binary op.";
}

def TP_ThresholdBackwardOp : TP_ActivationBackwardOp<"threshold_backward",
    "grad_output where self > threshold, else 0 (relu's backward with "
    "threshold 0)",
    (ins DefaultValuedAttr<F64Attr, "0.0">:$threshold)>;
def TP_GeluBackwardOp : TP_ActivationBackwardOp<"gelu_backward",
    "grad_output times gelu's derivative at self (erf or tanh form)",
    (ins DefaultValuedAttr<TP_GeluApproximationAttr,
                           "::mlir::tp::GeluApproximation::None">:$approximate)>;

/// Dropout: zeroes elements with probability `p` and scales the rest by
/// 1 / (1 - p) when `train` is set. Not Pure: it draws random numbers.
def TP_DropoutOp : TP_ComputeOp<"dropout",
    "Randomly zero elements with probability p during training",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, DefaultValuedAttr<F64Attr, "0.5">:$p,
         DefaultValuedAttr<BoolAttr, "true">:$train,
         OptionalAttr<I64Attr>:$stream), "$input",
    "%r = tp.dropout %x {p = 1.000000e-01 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferDropoutShape(op)"> {
  let results = (outs TP_Tensor:$result);
  let description = [{
    In training form each element is kept (scaled by 1 / (1 - p)) or zeroed
    by a counter-based generator: the CPU lowering hashes the pipeline's
    seed, the op's stream and the element's position. The stream is the
    op's position among the function's dropout ops unless `stream` names
    it: tp-autodiff gives a dropout and the mask it rebuilds in the
    backward (a dropout of ones) the same stream, so both draw the same
    mask.
  }];
}

/// Binary elementwise op with broadcasting and native type promotion.
class TP_BinaryOp<string mnemonic, string summaryText,
                  TP_DtypeRule rule = TP_DtypeRule<"Promote">,
                  dag attrs = (ins)>
    : TP_SingleResultOp<mnemonic, summaryText, rule,
        !con((ins TP_Tensor:$lhs, TP_Tensor:$rhs), attrs), "$lhs `,` $rhs",
        "%r = tp." # mnemonic # " %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>",
        [], "::mlir::tp::inferElementwiseShape(op, {adaptor.getLhs(), adaptor.getRhs()})"> {
  let familyDescription =
      "Combines `lhs` and `rhs` element by element after broadcasting them "
      "numpy-style; the result has the broadcast shape.";
}

def TP_AddOp : TP_BinaryOp<"add", "Elementwise lhs + alpha * rhs",
    TP_DtypeRule<"Promote">, (ins DefaultValuedAttr<F64Attr, "1.0">:$alpha)>;
def TP_SubOp : TP_BinaryOp<"sub", "Elementwise lhs - alpha * rhs",
    TP_DtypeRule<"Promote">, (ins DefaultValuedAttr<F64Attr, "1.0">:$alpha)>;
def TP_MulOp : TP_BinaryOp<"mul", "Elementwise product">;
def TP_DivOp : TP_BinaryOp<"div",
    "Elementwise true division (or floor/trunc with rounding_mode)",
    TP_DtypeRule<"Float">, (ins OptionalAttr<StrAttr>:$rounding_mode)>;
def TP_MaximumOp : TP_BinaryOp<"maximum", "Elementwise maximum">;
def TP_MinimumOp : TP_BinaryOp<"minimum", "Elementwise minimum">;
def TP_Atan2Op : TP_BinaryOp<"atan2", "Elementwise atan(lhs / rhs) by quadrant",
    TP_DtypeRule<"Float">>;

/// pow(self, exponent): a tensor exponent, or a scalar one as an attribute.
def TP_PowOp : TP_SingleResultOp<"pow", "Elementwise power self ** exponent",
    TP_DtypeRule<"Promote">,
    (ins TP_Tensor:$input, Optional<TP_Tensor>:$exponent,
         OptionalAttr<F64Attr>:$scalar_exponent),
    "$input (`,` $exponent^)?",
    "%r = tp.pow %x {scalar_exponent = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>",
    [AttrSizedOperandSegments], "::mlir::tp::inferPowShape(op)">;

/// Ops whose other operand is a Python scalar (an attribute).
class TP_ScalarLhsOp<string mnemonic, string summaryText, string scalarName>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Float">,
        !con((ins TP_Tensor:$input), !dag(ins, [F64Attr], [scalarName])),
        "$input",
        "%r = tp." # mnemonic # " %x {" # scalarName #
            " = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>",
        [], "::mlir::tp::inferElementwiseShape(op, adaptor.getInput())"> {
  let familyDescription =
      "Combines every element with a Python-scalar operand held as an "
      "attribute; the result has the input's shape.";
}

def TP_RdivOp : TP_ScalarLhsOp<"rdiv", "Reflected division: other / self",
                               "other">;
def TP_RtruedivOp : TP_ScalarLhsOp<"rtruediv",
    "Reflected true division: other / self", "other">;
def TP_RpowOp : TP_ScalarLhsOp<"rpow",
    "Reflected power: base ** self (the scalar base is an attribute)", "base">;

/// addcmul / addcdiv: self + value * tensor1 (op) tensor2.
class TP_AddcOp<string mnemonic, string summaryText>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Promote">,
        (ins TP_Tensor:$input, TP_Tensor:$tensor1, TP_Tensor:$tensor2,
             DefaultValuedAttr<F64Attr, "1.0">:$value),
        "$input `,` $tensor1 `,` $tensor2",
        "%r = tp." # mnemonic # " %s, %a, %b : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
        [], "::mlir::tp::inferElementwiseShape(op, {adaptor.getInput(), adaptor.getTensor1(), adaptor.getTensor2()})"> {
  let familyDescription =
      "Combines the three operands element by element after broadcasting "
      "them; the result has the broadcast shape.";
}

def TP_AddcdivOp : TP_AddcOp<"addcdiv", "self + value * tensor1 / tensor2">;
def TP_AddcmulOp : TP_AddcOp<"addcmul", "self + value * tensor1 * tensor2">;

/// Comparison ops: native promotion of the operands, an i1 result.
class TP_ComparisonOp<string mnemonic, string summaryText>
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Promote", ["Bool"]>,
        (ins TP_Tensor:$lhs, TP_Tensor:$rhs), "$lhs `,` $rhs",
        "%r = tp." # mnemonic # " %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>",
        [], "::mlir::tp::inferElementwiseShape(op, {adaptor.getLhs(), adaptor.getRhs()})"> {
  let familyDescription =
      "Compares `lhs` and `rhs` element by element after broadcasting them "
      "numpy-style, in their promoted dtype (a bf16 tensor against a 0-d f32 "
      "scalar compares in bf16); the result is an i1 tensor of the "
      "broadcast shape. A NaN compares unequal to everything, itself "
      "included (only `ne` holds).";
}

def TP_EqOp : TP_ComparisonOp<"eq", "Elementwise lhs == rhs">;
def TP_NeOp : TP_ComparisonOp<"ne", "Elementwise lhs != rhs">;
def TP_LtOp : TP_ComparisonOp<"lt", "Elementwise lhs < rhs">;
def TP_LeOp : TP_ComparisonOp<"le", "Elementwise lhs <= rhs">;
def TP_GtOp : TP_ComparisonOp<"gt", "Elementwise lhs > rhs">;
def TP_GeOp : TP_ComparisonOp<"ge", "Elementwise lhs >= rhs">;

/// masked_fill(self, mask, value) with a Python-scalar value.
def TP_MaskedFillOp : TP_SingleResultOp<"masked_fill",
    "Elements of self, replaced by value where mask holds",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, TP_Tensor:$mask, F64Attr:$value),
    "$input `,` $mask",
    "%r = tp.masked_fill %x, %m {value = 0.0 : f64} : (tensor<4x8xf32>, tensor<8xi1>) -> tensor<4x8xf32>",
    [], "::mlir::tp::inferMaskedFillShape(op)"> {
  let familyDescription =
      "Replaces the elements of `input` where the i1 `mask` (broadcast to "
      "the input's shape) holds by `value`, converted to the input's dtype "
      "(truncated for integers); the result has the input's shape.";
}

def TP_WhereOp : TP_SingleResultOp<"where",
    "Select elements of self where condition holds, else of other",
    TP_DtypeRule<"Promote">,
    (ins TP_Tensor:$condition, TP_Tensor:$input, TP_Tensor:$other),
    "$condition `,` $input `,` $other",
    "%r = tp.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferWhereShape(op)">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPELEMENTWISEOPS_TD
