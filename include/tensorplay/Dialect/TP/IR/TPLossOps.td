//===- TPLossOps.td - tp loss functions --------------------*- tablegen -*-===//
//
// Loss functions. `reduction` is "none", "mean" (the default) or "sum"; with
// "none" the result has the per-element (or per-sample) shape, otherwise it
// is zero-dimensional.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPLOSSOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPLOSSOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// Loss of `input` against a target of the same shape (elementwise losses).
/// `kind` names the shape rule (LossKind in C++).
class TP_LossOp<string mnemonic, string summaryText, dag operands,
                string operandsFormat, dag attrs, string kind,
                list<Trait> traits = [], string example = "">
    : TP_SingleResultOp<mnemonic, summaryText, TP_DtypeRule<"Promote">,
        !con(operands, attrs, (ins TP_ReductionAttr:$reduction)),
        operandsFormat,
        !if(!eq(example, ""),
            "%l = tp." # mnemonic # " %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>",
            example),
        traits,
        "::mlir::tp::inferLossShape(op, ::mlir::tp::LossKind::" # kind #
        ", adaptor.getReduction())"> {
  let familyDescription =
      "A loss of `input` against `target` (and, for some, weights), reduced "
      "by `reduction`: `none` keeps the per-element (or per-sample) losses, "
      "`mean` and `sum` return a 0-d tensor.";
}

defvar TP_InputTarget = (ins TP_Tensor:$input, TP_Tensor:$target);
defvar TP_InputTargetFormat = "$input `,` $target";

def TP_MseLossOp : TP_LossOp<"mse_loss", "Mean squared error",
    TP_InputTarget, TP_InputTargetFormat, (ins), "Elementwise">;
def TP_L1LossOp : TP_LossOp<"l1_loss", "Mean absolute error",
    TP_InputTarget, TP_InputTargetFormat, (ins), "Elementwise">;
def TP_SmoothL1LossOp : TP_LossOp<"smooth_l1_loss",
    "Squared error below beta, absolute error above",
    TP_InputTarget, TP_InputTargetFormat,
    (ins DefaultValuedAttr<F64Attr, "1.0">:$beta), "Elementwise">;
def TP_HuberLossOp : TP_LossOp<"huber_loss",
    "Squared error below delta, delta-scaled absolute error above",
    TP_InputTarget, TP_InputTargetFormat,
    (ins DefaultValuedAttr<F64Attr, "1.0">:$delta), "Elementwise">;
def TP_SoftMarginLossOp : TP_LossOp<"soft_margin_loss",
    "Two-class logistic loss log(1 + exp(-y x))",
    TP_InputTarget, TP_InputTargetFormat, (ins), "Elementwise">;
def TP_HingeEmbeddingLossOp : TP_LossOp<"hinge_embedding_loss",
    "Hinge embedding loss for targets in {1, -1}",
    TP_InputTarget, TP_InputTargetFormat,
    (ins DefaultValuedAttr<F64Attr, "1.0">:$margin), "Elementwise">;
def TP_KlDivOp : TP_LossOp<"kl_div",
    "Kullback-Leibler divergence of target from input (log-probabilities)",
    TP_InputTarget, TP_InputTargetFormat,
    (ins DefaultValuedAttr<BoolAttr, "false">:$log_target), "Elementwise">;
def TP_PoissonNllLossOp : TP_LossOp<"poisson_nll_loss",
    "Negative log likelihood of a Poisson-distributed target",
    TP_InputTarget, TP_InputTargetFormat,
    (ins DefaultValuedAttr<BoolAttr, "true">:$log_input,
         DefaultValuedAttr<BoolAttr, "false">:$full,
         DefaultValuedAttr<F64Attr, "1e-08">:$eps), "Elementwise">;

def TP_BinaryCrossEntropyOp : TP_LossOp<"binary_cross_entropy",
    "Binary cross entropy of probabilities (banned in cuda/xpu autocast)",
    (ins TP_Tensor:$input, TP_Tensor:$target, Optional<TP_Tensor>:$weight),
    "$input `,` $target (`weight` `(` $weight^ `)`)?", (ins), "Elementwise",
    [AttrSizedOperandSegments]>;
def TP_BinaryCrossEntropyWithLogitsOp : TP_LossOp<
    "binary_cross_entropy_with_logits",
    "Sigmoid + binary cross entropy in one numerically stable op",
    (ins TP_Tensor:$input, TP_Tensor:$target, Optional<TP_Tensor>:$weight,
         Optional<TP_Tensor>:$pos_weight),
    "$input `,` $target (`weight` `(` $weight^ `)`)? "
    "(`pos_weight` `(` $pos_weight^ `)`)?", (ins), "Elementwise",
    [AttrSizedOperandSegments]>;

/// Losses of two inputs and a +1/-1 target.
def TP_MarginRankingLossOp : TP_LossOp<"margin_ranking_loss",
    "max(0, -target * (input1 - input2) + margin)",
    (ins TP_Tensor:$input1, TP_Tensor:$input2, TP_Tensor:$target),
    "$input1 `,` $input2 `,` $target",
    (ins DefaultValuedAttr<F64Attr, "0.0">:$margin), "Elementwise", [],
    "%l = tp.margin_ranking_loss %a, %b, %t : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<f32>">;
def TP_CosineEmbeddingLossOp : TP_LossOp<"cosine_embedding_loss",
    "Cosine-similarity based embedding loss for targets in {1, -1}",
    (ins TP_Tensor:$input1, TP_Tensor:$input2, TP_Tensor:$target),
    "$input1 `,` $input2 `,` $target",
    (ins DefaultValuedAttr<F64Attr, "0.0">:$margin), "PerRow", [],
    "%l = tp.cosine_embedding_loss %a, %b, %t : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<f32>">;
def TP_TripletMarginLossOp : TP_LossOp<"triplet_margin_loss",
    "Triplet loss max(d(a, p) - d(a, n) + margin, 0)",
    (ins TP_Tensor:$anchor, TP_Tensor:$positive, TP_Tensor:$negative),
    "$anchor `,` $positive `,` $negative",
    (ins DefaultValuedAttr<F64Attr, "1.0">:$margin,
         DefaultValuedAttr<F64Attr, "2.0">:$p,
         DefaultValuedAttr<F64Attr, "1e-06">:$eps,
         DefaultValuedAttr<BoolAttr, "false">:$swap), "PerRow", [],
    "%l = tp.triplet_margin_loss %a, %p, %n : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>">;

/// Classification losses with integer class targets.
defvar TP_ClassWeight = (ins TP_Tensor:$input, TP_Tensor:$target,
                             Optional<TP_Tensor>:$weight);
defvar TP_ClassWeightFormat = "$input `,` $target (`weight` `(` $weight^ `)`)?";

def TP_NllLossOp : TP_LossOp<"nll_loss",
    "Negative log likelihood of class-index targets",
    TP_ClassWeight, TP_ClassWeightFormat,
    (ins DefaultValuedAttr<I64Attr, "-100">:$ignore_index), "ClassIndex",
    [AttrSizedOperandSegments],
    "%l = tp.nll_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>">;
def TP_NllLoss2dOp : TP_LossOp<"nll_loss2d",
    "Negative log likelihood over an (N, C, H, W) input",
    TP_ClassWeight, TP_ClassWeightFormat,
    (ins DefaultValuedAttr<I64Attr, "-100">:$ignore_index), "ClassIndex2d",
    [AttrSizedOperandSegments],
    "%l = tp.nll_loss2d %x, %t : (tensor<2x10x4x4xf32>, tensor<2x4x4xi64>) -> tensor<f32>">;
def TP_CrossEntropyOp : TP_LossOp<"cross_entropy",
    "Cross entropy of logits against class indices or class probabilities",
    TP_ClassWeight, TP_ClassWeightFormat,
    (ins DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
         DefaultValuedAttr<F64Attr, "0.0">:$label_smoothing), "CrossEntropy",
    [AttrSizedOperandSegments],
    "%l = tp.cross_entropy %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>">;
def TP_CrossEntropyLossOp : TP_LossOp<"cross_entropy_loss",
    "aten::cross_entropy_loss (the op behind cross_entropy)",
    TP_ClassWeight, TP_ClassWeightFormat,
    (ins DefaultValuedAttr<I64Attr, "-100">:$ignore_index,
         DefaultValuedAttr<F64Attr, "0.0">:$label_smoothing), "CrossEntropy",
    [AttrSizedOperandSegments],
    "%l = tp.cross_entropy_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>">;
def TP_MultiMarginLossOp : TP_LossOp<"multi_margin_loss",
    "Multi-class hinge loss of class-index targets",
    TP_ClassWeight, TP_ClassWeightFormat,
    (ins DefaultValuedAttr<I64Attr, "1">:$p,
         DefaultValuedAttr<F64Attr, "1.0">:$margin), "ClassIndex",
    [AttrSizedOperandSegments],
    "%l = tp.multi_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>">;
def TP_MultilabelMarginLossOp : TP_LossOp<"multilabel_margin_loss",
    "Multi-class multi-label hinge loss (targets: class indices, -1 padded)",
    TP_InputTarget, TP_InputTargetFormat, (ins), "MultiLabel", [],
    "%l = tp.multilabel_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4x10xi64>) -> tensor<f32>">;

def TP_MultilabelMarginLossForwardOp : TP_ComputeOp<
    "multilabel_margin_loss_forward",
    "aten::multilabel_margin_loss_forward: returns (output, is_target)",
    TP_DtypeRule<"Promote", ["Value", "Value"]>,
    (ins TP_Tensor:$input, TP_Tensor:$target, TP_ReductionAttr:$reduction),
    TP_InputTargetFormat,
    "%l, %m = tp.multilabel_margin_loss_forward %x, %t : (tensor<4x10xf32>, tensor<4x10xi64>) -> (tensor<f32>, tensor<4x10xf32>)",
    [Pure], "::mlir::tp::inferLossShape(op, ::mlir::tp::LossKind::MultiLabel, "
            "adaptor.getReduction())"> {
  let results = (outs TP_Tensor:$output, TP_Tensor:$is_target);
}

/// aten::nll_loss_backward (tp-autodiff's backward of nll_loss and, after
/// log_softmax's, of cross_entropy).
def TP_NllLossBackwardOp : TP_SingleResultOp<"nll_loss_backward",
    "The gradient of nll_loss's input (log-probabilities) from the gradient "
    "of its output",
    TP_DtypeRule<"Promote">,
    (ins TP_Tensor:$grad_output, TP_Tensor:$input, TP_Tensor:$target,
         Optional<TP_Tensor>:$weight, TP_ReductionAttr:$reduction,
         DefaultValuedAttr<I64Attr, "-100">:$ignore_index),
    "$grad_output `,` $input `,` $target (`weight` `(` $weight^ `)`)?",
    "%r = tp.nll_loss_backward %g, %x, %t : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>",
    [AttrSizedOperandSegments],
    "::mlir::tp::inferNllLossBackwardShape(op, adaptor.getWeight(), "
    "adaptor.getReduction())"> {
  let description = [{
    For class-index targets of an (N, C) or (C) input: the result has the
    input's shape and is `-grad_output * weight[t]` at each sample's target
    class `t` (0 elsewhere and for targets equal to `ignore_index`), divided
    by the total weight of the non-ignored targets for `mean`.
    `grad_output` has the loss's shape: 0-d for `mean` and `sum`, (N) for
    `none`.
  }];
}

def TP_CtcLossOp : TP_LossOp<"ctc_loss",
    "Connectionist temporal classification loss",
    (ins TP_Tensor:$log_probs, TP_Tensor:$targets, TP_Tensor:$input_lengths,
         TP_Tensor:$target_lengths),
    "$log_probs `,` $targets `,` $input_lengths `,` $target_lengths",
    (ins DefaultValuedAttr<I64Attr, "0">:$blank,
         DefaultValuedAttr<BoolAttr, "false">:$zero_infinity), "Ctc", [],
    "%l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>">;

/// aten::_ctc_loss_backward, as tp-autodiff builds it for ctc_loss.
def TP_CtcLossBackwardOp : TP_SingleResultOp<"ctc_loss_backward",
    "The gradient of ctc_loss's log_probs from the gradient of each "
    "sample's negative log-likelihood",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$grad_output, TP_Tensor:$log_probs, TP_Tensor:$targets,
         TP_Tensor:$input_lengths, TP_Tensor:$target_lengths,
         DefaultValuedAttr<I64Attr, "0">:$blank,
         DefaultValuedAttr<BoolAttr, "false">:$zero_infinity),
    "$grad_output `,` $log_probs `,` $targets `,` $input_lengths `,` "
    "$target_lengths",
    "%r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<4xf32>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<50x4x20xf32>",
    [], "::mlir::tp::inferCtcLossBackwardShape(op)"> {
  let description = [{
    `grad_output` holds the gradient of each sample's negative
    log-likelihood ((N), or 0-d for an unbatched (T, C) input); the
    operands after it and the attributes are ctc_loss's, and the result has
    log_probs' shape: the exact derivative of the likelihoods in the
    log-probabilities, zero from each sample's input length on and, with
    `zero_infinity`, for the samples whose loss is infinite. (aten's kernel
    adds exp(log_probs), a term that vanishes through the log_softmax
    that normalizes them.)
  }];
}

#endif // TENSORPLAY_DIALECT_TP_IR_TPLOSSOPS_TD
