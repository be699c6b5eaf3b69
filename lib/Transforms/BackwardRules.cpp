//===- BackwardRules.cpp - Reverse-mode rules of tp ops -------------------===//
//
// Each rule reads the forward op (its operands are the saved activations,
// its results the saved outputs) and the gradient of its result, and builds
// the gradient contributions of its operands as tp ops in the forward's
// dtypes. A contribution whose dtype differs from its operand's (a promoted
// binary op, an explicit dtype=) is cast back by the accumulation.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// BackwardBuilder
//===----------------------------------------------------------------------===//

Value BackwardBuilder::create(Operation *forward, StringRef name,
                              ValueRange operands,
                              ArrayRef<NamedAttribute> attrs) {
  Operation *op =
      createWithInferredResultTypes(builder, loc, name, operands, attrs);
  if (!op) {
    forward->emitOpError("internal error: tp-autodiff could not build ")
        << name << " for its backward";
    hadError = true;
    return {};
  }
  ++numCreated;
  return op->getResult(0);
}

Value mlir::tp::createFloatSplat(OpBuilder &builder, Location loc,
                                 RankedTensorType type, double value) {
  return ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(
          type, builder.getFloatAttr(type.getElementType(), value)));
}

Value BackwardBuilder::scalar(Value like, double value) {
  ++numCreated;
  return createFloatSplat(
      builder, loc, RankedTensorType::get({}, elementTypeOf(like)), value);
}

Value BackwardBuilder::unbroadcast(Operation *forward, Value grad,
                                   Value target) {
  ArrayRef<int64_t> from = shapeOf(grad), to = shapeOf(target);
  if (from == to)
    return grad;
  SmallVector<int64_t> dims;
  size_t lead = from.size() - to.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (d < lead || (to[d - lead] == 1 && from[d] != 1))
      dims.push_back(static_cast<int64_t>(d));
  Value summed = grad;
  if (!dims.empty())
    summed =
        create(forward, "tp.sum", grad,
               {builder.getNamedAttr("dim", builder.getDenseI64ArrayAttr(dims)),
                builder.getNamedAttr("keepdim", builder.getBoolAttr(true))});
  if (!summed || shapeOf(summed) == to)
    return summed;
  return create(
      forward, "tp.reshape", summed,
      {builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(to))});
}

//===----------------------------------------------------------------------===//
// Rule
//===----------------------------------------------------------------------===//

Value Rule::make(StringRef name, ValueRange operands,
                 ArrayRef<NamedAttribute> attrs) {
  for (Value v : operands)
    if (!v)
      return {};
  return b.create(op, name, operands, attrs);
}

Value Rule::scalar(Value like, double value) {
  if (!like)
    return {};
  return b.scalar(like, value);
}

Value Rule::scale(Value x, double value) {
  if (value == 1.0)
    return x;
  return mul(x, scalar(x, value));
}

Value Rule::transpose(Value x, int64_t dim0, int64_t dim1) {
  return make("tp.transpose", x,
              {attr("dim0", b.builder.getI64IntegerAttr(dim0)),
               attr("dim1", b.builder.getI64IntegerAttr(dim1))});
}

Value Rule::transposeLast(Value x) {
  if (!x)
    return {};
  int64_t rank = rankOf(x);
  return transpose(x, rank - 2, rank - 1);
}

Value Rule::reshape(Value x, ArrayRef<int64_t> shape) {
  if (!x || shapeOf(x) == shape)
    return x;
  return make("tp.reshape", x,
              {attr("shape", b.builder.getDenseI64ArrayAttr(shape))});
}

Value Rule::expand(Value x, ArrayRef<int64_t> shape) {
  if (!x || shapeOf(x) == shape)
    return x;
  return make("tp.expand", x,
              {attr("size", b.builder.getDenseI64ArrayAttr(shape))});
}

Value Rule::sumAlong(Value x, ArrayRef<int64_t> dims, bool keepdim) {
  return make("tp.sum", x,
              {attr("dim", b.builder.getDenseI64ArrayAttr(dims)),
               attr("keepdim", b.builder.getBoolAttr(keepdim))});
}

Value Rule::meanAlong(Value x, ArrayRef<int64_t> dims, bool keepdim) {
  return make("tp.mean", x,
              {attr("dim", b.builder.getDenseI64ArrayAttr(dims)),
               attr("keepdim", b.builder.getBoolAttr(keepdim))});
}

Value Rule::castTo(Value x, Type element) {
  if (!x || elementTypeOf(x) == element)
    return x;
  ++b.numCreated;
  return CastOp::create(b.builder, b.loc,
                        cast<RankedTensorType>(x.getType()).clone(element), x);
}

Value Rule::passAbove(Value g, Value self, double threshold) {
  return make("tp.threshold_backward", {g, self},
              {attr("threshold", b.builder.getF64FloatAttr(threshold))});
}

void Rule::give(Value operand, Value contribution) {
  if (!contribution || !active(operand))
    return;
  if (Value v = b.unbroadcast(op, contribution, operand))
    b.add(operand, v);
}

Value mlir::tp::expandReduced(Rule &r, Value grad, Value input,
                              ArrayRef<int64_t> dims, bool keepdim) {
  SmallVector<int64_t> kept(shapeOf(input));
  for (int64_t d : dims)
    kept[d] = 1;
  Value g = keepdim ? grad : r.reshape(grad, kept);
  return r.expand(g, shapeOf(input));
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult mlir::tp::applyBackwardRule(Operation *op,
                                          ArrayRef<Value> resultGrads,
                                          BackwardBuilder &b) {
  if (isa<ConstantOp>(op))
    return success();
  if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
    if (compute.isInplaceOrOut())
      return op->emitOpError(
          "tp-autodiff: in-place and out= forms are not differentiated; use "
          "the plain form");
  }
  Rule r{op, resultGrads.empty() ? Value() : resultGrads[0], b};
  if (!r.grad)
    return success();
  if (auto cast = dyn_cast<CastOp>(op)) {
    // The cast is reversed: the gradient goes back to the source dtype.
    r.give(cast.getInput(), r.grad);
    return success();
  }
  std::optional<LogicalResult> result;
  for (auto family : {applyElementwiseRule, applyProductRule,
                      applyReductionRule, applyNormalizationRule,
                      applyConvolutionRule, applyLossRule})
    if ((result = family(r)))
      break;
  if (!result)
    return op->emitOpError("tp-autodiff: no backward rule for '")
           << op->getName()
           << "' yet (it is on the path from a differentiated argument to "
              "the loss)";
  // A backward op that could not be built was diagnosed where it failed.
  return success(succeeded(*result) && !b.hadError);
}
