//===- TPElementwiseOps.cpp - tp elementwise ops --------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

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

LogicalResult mlir::tp::inferWhereShape(RuleContext &op) {
  auto where = op.as<WhereOp>();
  if (!elementTypeOf(where.getCondition()).isInteger(1))
    return op.emitOpError("condition must be a tensor of i1, got ")
           << where.getCondition().getType();
  return inferElementwiseShape(
      op, {where.getCondition(), where.getInput(), where.getOther()});
}
