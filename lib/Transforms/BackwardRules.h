//===- BackwardRules.h - Reverse-mode rules of tp ops ------------*- C++
//-*-===//
//
// The backward rule of each differentiable tp op, written as tp ops: given
// the gradient of an op's results, the contributions to the gradients of
// its operands. Private to tp-autodiff (Autodiff.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULES_H
#define TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <functional>

namespace mlir {
namespace tp {

/// A tp.constant of floating `type` holding `value` in every element.
Value createFloatSplat(OpBuilder &builder, Location loc, RankedTensorType type,
                       double value);

/// Zeros of floating or complex `type` (a complex one as the view_as_complex
/// of real zeros).
Value createZeros(OpBuilder &builder, Location loc, RankedTensorType type);

/// True for the tensors that carry gradients: floating and complex ones.
bool isDifferentiable(Type type);

/// The real part of the complex tensor `z` (view_as_real, sliced).
Value realPartOf(OpBuilder &builder, Location loc, Value z);

/// Builds backward ops at one insertion point and hands each operand's
/// gradient contribution to `accumulate`.
class BackwardBuilder {
public:
  BackwardBuilder(OpBuilder &builder, Location loc,
                  std::function<void(Value, Value)> accumulate,
                  std::function<bool(Value)> needsGradient)
      : builder(builder), loc(loc), accumulate(std::move(accumulate)),
        needsGradient(std::move(needsGradient)) {}

  /// The tp op `OpTy` built from `operands` and `attrs` with inferred
  /// result types; its first result, or null (after emitting at `forward`)
  /// when the op cannot be built or an attribute is not one of OpTy's.
  template <typename OpTy>
  Value create(Operation *forward, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    Operation *op =
        createNamedOp(forward, OpTy::getOperationName(), operands, attrs);
    return op ? op->getResult(0) : Value();
  }
  /// As create, for helpers shared by several ops: `name` is the
  /// getOperationName() of a tp op class. The op itself (null when it
  /// cannot be built), for ops of several results.
  Operation *createNamedOp(Operation *forward, StringRef name,
                           ValueRange operands,
                           ArrayRef<NamedAttribute> attrs = {});
  /// A 0-d constant `value` of `like`'s element type.
  Value scalar(Value like, double value);
  /// `grad` summed down to the shape of `target` (the inverse of the
  /// broadcast that took `target` to `grad`'s shape).
  Value unbroadcast(Operation *forward, Value grad, Value target);
  /// Adds `grad` to the gradient of `value` (casting it to `value`'s type).
  void add(Value value, Value grad) { accumulate(value, grad); }
  /// True when `value` depends on a differentiated argument.
  bool isActive(Value value) const { return needsGradient(value); }

  OpBuilder &builder;
  Location loc;
  /// Ops created (for the pass statistic).
  unsigned numCreated = 0;
  /// Set when a backward op could not be built (diagnosed at the forward).
  bool hadError = false;

private:
  std::function<void(Value, Value)> accumulate;
  std::function<bool(Value)> needsGradient;
};

/// Applies the backward rule of `op` given the gradients of its results
/// (null where a result has none). Fails with a diagnostic at `op` when tp
/// has no rule for it.
LogicalResult applyBackwardRule(Operation *op, ArrayRef<Value> resultGrads,
                                BackwardBuilder &b);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULES_H
