//===- TPLossOps.cpp - tp loss functions ----------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPLossOps.cpp.inc"

static LogicalResult expectIntegerTarget(RuleContext &op, Value target,
                                         StringRef name = "target") {
  Type type = elementTypeOf(target);
  if (isa<IntegerType>(type) && !type.isInteger(1))
    return success();
  return op.emitOpError("expected ")
         << name << " to hold integer class indices, got " << target.getType();
}

/// The margin losses' check (aten's multi(label)_margin_loss_shape_check):
/// a class dimension that is not empty.
static LogicalResult expectClasses(RuleContext &op, ArrayRef<int64_t> x) {
  if (x.back() != 0)
    return success();
  return op.emitOpError("expected a non-empty vector or matrix with optional "
                        "0-dim batch size (as tensorplay), got ")
         << formatShape(x);
}

/// ctc_loss's checks of (log_probs, targets, input_lengths,
/// target_lengths); the per-sample shape.
static LogicalResult ctcShape(RuleContext &op, ValueRange operands,
                              SmallVectorImpl<int64_t> &shape) {
  Value input = operands[0], target = operands[1];
  ArrayRef<int64_t> x = shapeOf(input);
  if (failed(expectRank(op, input, "(T, N, C) or (T, C) log_probs", 2, 3)) ||
      failed(expectIntegerTarget(op, target, "targets")) ||
      failed(expectIntegerTarget(op, operands[2], "input_lengths")) ||
      failed(expectIntegerTarget(op, operands[3], "target_lengths")))
    return failure();
  // tensorplay's checks of the shapes (aten's ctc_loss): a blank class
  // index, one length per sample, padded (N, S) targets or concatenated
  // ones (their total length is checked at run time).
  bool batched = x.size() == 3;
  int64_t batch = batched ? x[1] : 1, classes = x.back();
  int64_t blank = 0;
  if (auto attr = op.getAttrOfType<IntegerAttr>("blank"))
    blank = attr.getInt();
  if (!ShapedType::isDynamic(classes) && (blank < 0 || blank >= classes))
    return op.emitOpError("blank must be in label range [0, ")
           << classes << "), got " << blank;
  ArrayRef<int64_t> t = shapeOf(target);
  if (t.empty() || t.size() > 2)
    return op.emitOpError("expected (N, S) padded or 1-D concatenated "
                          "targets, got ")
           << formatShape(t);
  if (t.size() == 2 && !ShapedType::isDynamic(t[0]) &&
      !ShapedType::isDynamic(batch) && t[0] != batch)
    return op.emitOpError("padded targets must have one row per sample (")
           << batch << "), got " << formatShape(t);
  static constexpr StringLiteral lengthNames[] = {"input_lengths",
                                                  "target_lengths"};
  for (auto [index, name] : llvm::enumerate(lengthNames)) {
    ArrayRef<int64_t> l = shapeOf(operands[2 + index]);
    bool ok = batched ? l.size() == 1 &&
                            (ShapedType::isDynamic(l[0]) ||
                             ShapedType::isDynamic(batch) || l[0] == batch)
                      : l.empty() || (l.size() == 1 && l[0] == 1);
    if (!ok)
      return op.emitOpError() << name << " must hold one length per sample ("
                              << (batched ? "shape " + formatShape({batch})
                                          : std::string("0-d or shape 1"))
                              << "), got " << formatShape(l);
  }
  if (batched)
    shape.push_back(x[1]);
  return success();
}

/// Shape of the unreduced loss of each kind (the result for "none").
static LogicalResult lossShape(RuleContext &op, LossKind kind,
                               SmallVectorImpl<int64_t> &shape) {
  ValueRange operands = op.getComputeOperands();
  Value input = operands[0], target = operands[1];
  ArrayRef<int64_t> x = shapeOf(input);
  switch (kind) {
  case LossKind::Elementwise: {
    SmallVector<ArrayRef<int64_t>> shapes;
    for (Value operand : operands)
      shapes.push_back(shapeOf(operand));
    if (failed(broadcastShapes(shapes, shape)))
      return op.emitOpError("input and target shapes are not broadcastable: ")
             << formatShape(x) << " vs " << formatShape(shapeOf(target));
    return success();
  }
  case LossKind::PerRow: {
    if (failed(expectRank(op, input, "inputs", 1, 2)))
      return failure();
    bool cosine = op.isa<CosineEmbeddingLossOp>();
    for (Value other : operands.take_front(cosine ? 2 : 3))
      if (shapeOf(other) != x)
        return op.emitOpError("all inputs must have the shape ")
               << formatShape(x) << ", got " << formatShape(shapeOf(other));
    if (x.size() == 2)
      shape.push_back(x[0]);
    if (cosine && shapeOf(operands[2]) != ArrayRef<int64_t>(shape))
      return op.emitOpError("target must have shape ")
             << formatShape(shape) << ", got "
             << formatShape(shapeOf(operands[2]));
    return success();
  }
  case LossKind::ClassIndex:
  case LossKind::ClassIndex2d:
  case LossKind::CrossEntropy: {
    bool probabilities = kind == LossKind::CrossEntropy &&
                         isFloatingOrComplex(elementTypeOf(target));
    if (kind == LossKind::ClassIndex2d) {
      if (failed(expectRank(op, input, "an (N, C, H, W) input", 4, 4)))
        return failure();
    } else if (failed(expectRank(op, input, "an input", 1,
                                 op.isa<MultiMarginLossOp>()
                                     ? 2
                                     : std::numeric_limits<int64_t>::max()))) {
      return failure();
    }
    if (probabilities) {
      if (shapeOf(target) != x)
        return op.emitOpError("class-probability targets must have the "
                              "input's shape ")
               << formatShape(x) << ", got " << formatShape(shapeOf(target));
    } else if (failed(expectIntegerTarget(op, target))) {
      return failure();
    }
    if (op.isa<MultiMarginLossOp>() && failed(expectClasses(op, x)))
      return failure();
    if (auto margin = op.dynAs<MultiMarginLossOp>())
      if (margin->getP() != 1 && margin->getP() != 2)
        return op.emitOpError("only p == 1 and p == 2 are supported (as "
                              "tensorplay's multi_margin_loss), got p = ")
               << margin->getP();
    int64_t classDim = x.size() == 1 ? 0 : 1;
    shape.assign(x.begin(), x.end());
    shape.erase(shape.begin() + classDim);
    if (!probabilities && shapeOf(target) != ArrayRef<int64_t>(shape))
      return op.emitOpError("target must have shape ")
             << formatShape(shape) << " (the input without its class "
             << "dimension), got " << formatShape(shapeOf(target));
    if (operands.size() > 2) {
      Value weight = operands[2];
      if (rankOf(weight) != 1 ||
          !llvm::equal(shapeOf(weight), ArrayRef{x[classDim]}))
        return op.emitOpError("weight must have one entry per class (")
               << x[classDim] << "), got " << formatShape(shapeOf(weight));
    }
    return success();
  }
  case LossKind::MultiLabel:
    if (failed(expectRank(op, input, "an input", 1, 2)) ||
        failed(expectIntegerTarget(op, target)))
      return failure();
    if (shapeOf(target) != x)
      return op.emitOpError("target must have the input's shape ")
             << formatShape(x) << ", got " << formatShape(shapeOf(target));
    if (failed(expectClasses(op, x)))
      return failure();
    if (x.size() == 2)
      shape.push_back(x[0]);
    return success();
  case LossKind::Ctc:
    return ctcShape(op, operands.take_front(4), shape);
  }
  llvm_unreachable("unknown loss kind");
}

LogicalResult mlir::tp::inferLossShape(RuleContext &op, LossKind kind,
                                       Reduction reduction) {
  SmallVector<int64_t> shape;
  if (failed(lossShape(op, kind, shape)))
    return failure();
  if (reduction != Reduction::None)
    shape.clear();
  if (failed(op.setResultShape(0, shape)))
    return failure();
  if (op.getNumResults() == 2) // multilabel_margin_loss_forward's is_target
    return op.setResultShape(1, shapeOf(op.getOperand(1)));
  return success();
}

LogicalResult mlir::tp::inferNllLossBackwardShape(RuleContext &op, Value weight,
                                                  Reduction reduction) {
  Value grad = op.getOperand(0), input = op.getOperand(1),
        target = op.getOperand(2);
  if (failed(expectRank(op, input, "an input", 1, 2)) ||
      failed(expectIntegerTarget(op, target)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  SmallVector<int64_t> samples(x.begin(), x.end());
  samples.erase(samples.begin() + (x.size() == 1 ? 0 : 1));
  if (shapeOf(target) != ArrayRef<int64_t>(samples))
    return op.emitOpError("class-index targets must have shape ")
           << formatShape(samples) << " (the input without its class "
           << "dimension), got " << formatShape(shapeOf(target));
  ArrayRef<int64_t> loss = reduction == Reduction::None
                               ? ArrayRef<int64_t>(samples)
                               : ArrayRef<int64_t>();
  if (shapeOf(grad) != loss)
    return op.emitOpError("grad_output must have the loss's shape ")
           << formatShape(loss) << ", got " << formatShape(shapeOf(grad));
  if (weight && shapeOf(weight) != x.take_back(1))
    return op.emitOpError("weight must have one entry per class (")
           << x.back() << "), got shape " << formatShape(shapeOf(weight));
  return op.setResultShape(0, x);
}

LogicalResult mlir::tp::inferCtcLossBackwardShape(RuleContext &op) {
  ValueRange operands = op.getComputeOperands();
  Value grad = operands[0], logProbs = operands[1];
  SmallVector<int64_t> samples;
  if (failed(ctcShape(op, operands.drop_front().take_front(4), samples)))
    return failure();
  if (!isa<FloatType>(elementTypeOf(grad)))
    return op.emitOpError("expected a floating grad_output, got ")
           << grad.getType();
  ArrayRef<int64_t> g = shapeOf(grad);
  bool ok = g == ArrayRef<int64_t>(samples) ||
            (samples.empty() && g.size() == 1 && g[0] == 1);
  if (!ok)
    return op.emitOpError("grad_output must hold one value per sample (shape ")
           << formatShape(samples) << "), got " << formatShape(g);
  return op.setResultShape(0, shapeOf(logProbs));
}
