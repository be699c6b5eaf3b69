//===- TPElementwiseOps.cpp - tp elementwise ops --------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPElementwiseOps.cpp.inc"

LogicalResult mlir::tp::inferElementwiseShape(RuleContext &op,
                                              ArrayRef<Value> inputs) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value input : inputs)
    shapes.push_back(shapeOf(input));
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(shapes, shape))) {
    InFlightDiagnostic diag =
        op.emitOpError("operand shapes are not broadcastable: ");
    llvm::interleaveComma(shapes, diag,
                          [&](ArrayRef<int64_t> s) { diag << formatShape(s); });
    return diag;
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferDropoutShape(RuleContext &op) {
  double p = op.as<DropoutOp>().getP().convertToDouble();
  if (p < 0.0 || p > 1.0)
    return op.emitOpError("dropout probability has to be between 0 and 1, "
                          "but got ")
           << p;
  return inferElementwiseShape(op, {op.as<DropoutOp>().getInput()});
}

LogicalResult mlir::tp::inferPowShape(RuleContext &op) {
  auto pow = op.as<PowOp>();
  bool hasTensor = static_cast<bool>(pow.getExponent());
  bool hasScalar = pow.getScalarExponent().has_value();
  if (hasTensor == hasScalar)
    return op.emitOpError("expects exactly one exponent: a tensor operand or "
                          "the scalar_exponent attribute");
  if (hasTensor)
    return inferElementwiseShape(op, {pow.getInput(), pow.getExponent()});
  return inferElementwiseShape(op, {pow.getInput()});
}

/// Checks that `value` (the op's `what`) is an i1 tensor.
static LogicalResult expectBoolTensor(RuleContext &op, Value value,
                                      StringRef what) {
  if (elementTypeOf(value).isInteger(1))
    return success();
  return op.emitOpError() << what << " must be a tensor of i1, got "
                          << value.getType();
}

LogicalResult mlir::tp::inferWhereShape(RuleContext &op) {
  auto where = op.as<WhereOp>();
  if (failed(expectBoolTensor(op, where.getCondition(), "condition")))
    return failure();
  return inferElementwiseShape(
      op, {where.getCondition(), where.getInput(), where.getOther()});
}

LogicalResult mlir::tp::inferClampShape(RuleContext &op) {
  auto clamp = op.as<ClampOp>();
  std::optional<APFloat> lo = clamp.getMin(), hi = clamp.getMax();
  if (!lo && !hi)
    return op.emitOpError("expects at least one of min and max");
  Type element = elementTypeOf(clamp.getInput());
  if (isa<IntegerType>(element)) {
    for (const std::optional<APFloat> &bound : {lo, hi}) {
      if (!bound)
        continue;
      double v = bound->convertToDouble();
      if (v != std::trunc(v))
        return op.emitOpError("bound ")
               << v << " is not integral for an input of " << element
               << " (tensorplay would promote the result to float: cast the "
                  "input first)";
    }
  }
  return inferElementwiseShape(op, {clamp.getInput()});
}

LogicalResult mlir::tp::inferMaskedFillShape(RuleContext &op) {
  auto fill = op.as<MaskedFillOp>();
  if (failed(expectBoolTensor(op, fill.getMask(), "mask")))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(fill.getInput());
  if (!broadcastsTo(shapeOf(fill.getMask()), shape))
    return op.emitOpError("mask ")
           << fill.getMask().getType() << " does not broadcast to the input "
           << fill.getInput().getType();
  return op.setResultShape(0, shape);
}
