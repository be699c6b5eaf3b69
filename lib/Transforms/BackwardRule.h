//===- BackwardRule.h - The context of one backward rule --------*- C++ -*-===//
//
// What the backward rules of each op family share: the forward op, the
// gradient of its result, and builders of the tp ops a rule is written in.
// Private to the BackwardRules*.cpp files.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULE_H
#define TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULE_H

#include "BackwardRules.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir {
namespace tp {

/// The context of one rule: the forward op, the gradient of its (first)
/// result, and builders for the backward ops. Every builder returns null
/// when one of its operands is null (a failed earlier step), so that a
/// rule can be written as straight-line code.
struct Rule {
  Operation *op;
  Value grad;
  BackwardBuilder &b;
  /// The gradients of all of op's results (null where one has none);
  /// grads[0] is `grad`. Only the rules of multi-result ops read them.
  ArrayRef<Value> grads = {};

  /// The tp op `OpTy` built from `operands` and `attrs` (names of OpTy's
  /// attributes; any other is an internal error) with inferred result
  /// types; its first result, or null on a failed step.
  template <typename OpTy>
  Value make(ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return makeNamed(OpTy::getOperationName(), operands, attrs);
  }
  /// As make, but the op (null on a failed step), for ops of several
  /// results.
  template <typename OpTy>
  Operation *makeOp(ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
    return makeNamedOp(OpTy::getOperationName(), operands, attrs);
  }
  /// As make and makeOp, for helpers shared by several ops: `name` is the
  /// getOperationName() of a tp op class.
  Value makeNamed(StringRef name, ValueRange operands,
                  ArrayRef<NamedAttribute> attrs = {});
  Operation *makeNamedOp(StringRef name, ValueRange operands,
                         ArrayRef<NamedAttribute> attrs = {});
  NamedAttribute attr(StringRef name, Attribute value) {
    return b.builder.getNamedAttr(name, value);
  }
  Value add(Value x, Value y) { return make<AddOp>({x, y}); }
  Value sub(Value x, Value y) { return make<SubOp>({x, y}); }
  Value mul(Value x, Value y) { return make<MulOp>({x, y}); }
  Value div(Value x, Value y) { return make<DivOp>({x, y}); }
  Value neg(Value x) { return make<NegOp>(x); }
  /// `x * value` with `value` a 0-d constant of x's element type.
  Value scale(Value x, double value);
  /// A 0-d constant `value` of `like`'s element type.
  Value scalar(Value like, double value);
  Value transpose(Value x, int64_t dim0, int64_t dim1);
  /// The transpose of the last two dimensions.
  Value transposeLast(Value x);
  Value reshape(Value x, ArrayRef<int64_t> shape);
  /// tp.permute of `x` by `dims` (x itself for the identity).
  Value permute(Value x, ArrayRef<int64_t> dims);
  Value expand(Value x, ArrayRef<int64_t> shape);
  Value sumAlong(Value x, ArrayRef<int64_t> dims, bool keepdim);
  Value meanAlong(Value x, ArrayRef<int64_t> dims, bool keepdim);
  /// `x` cast to element type `element` (x itself when it has it).
  Value castTo(Value x, Type element);
  /// tp.softmax_backward (or tp.log_softmax_backward when `log`) of the
  /// gradient `g` of the softmax `y` along `dim`.
  Value softmaxBackward(Value g, Value y, int64_t dim, bool log);
  /// threshold_backward(g, self, t): g where self > t, else 0.
  Value passAbove(Value g, Value self, double threshold);
  /// 1 where `x` is zero, else 0 (in x's element type and shape).
  Value isZero(Value x);
  /// -1, 0 or 1 by the sign of `x` (0 for zeros and NaN).
  Value sign(Value x);
  /// pow(x, e) with a scalar exponent.
  Value power(Value x, double e);
  /// `values` concatenated along `dim`.
  Value cat(ValueRange values, int64_t dim);
  /// 1 where the integer tensors `a` and `b` (broadcast together) are
  /// equal, else 0, in `element` type: distinct integers stay distinct in
  /// any float type.
  Value equalIndices(Value a, Value b, Type element);
  /// tp.where(condition, x, y).
  Value where(Value condition, Value x, Value y) {
    return make<WhereOp>({condition, x, y});
  }
  /// The i1 comparison `CompareOp` (LtOp, GeOp, ...) of `x` with the 0-d
  /// constant `value` of x's element type.
  template <typename CompareOp>
  Value compare(Value x, double value) {
    return make<CompareOp>({x, scalar(x, value)});
  }
  /// `x` clamped to [lo, hi] (maximum / minimum with 0-d constants).
  Value clamp(Value x, double lo, double hi);
  /// A constant of `shape` holding `values`, in `element` type (i64 or a
  /// float type).
  Value constant(ArrayRef<int64_t> shape, Type element,
                 ArrayRef<double> values);
  /// The entries of `v` at `indices` along `dim`, in that order (a gather
  /// of rows by tp.embedding).
  Value gatherAlong(Value v, int64_t dim, ArrayRef<int64_t> indices);
  /// The `size` entries of `v` from `start` along `dim` (tp.slice).
  Value sliceAlong(Value v, int64_t dim, int64_t start, int64_t size);
  /// The adjoint of a gather along `dim`: the result has `size` entries
  /// along `dim`, entry j the sum of the entries i of `g` with
  /// `target[i] == j` (a sum of gathers from `g` with a zero entry added).
  Value scatterAlong(Value g, int64_t dim, ArrayRef<int64_t> target,
                     int64_t size);
  /// tp.scatter_add of `src` at `index` along `dim` into zeros of `shape`
  /// (src's element type): the adjoint of tp.gather.
  Value scatterIntoZeros(ArrayRef<int64_t> shape, int64_t dim, Value index,
                         Value src);
  /// tp.gather of `v` at `index` along `dim`.
  Value gather(Value v, int64_t dim, Value index);
  /// Adds `contribution`, summed to `operand`'s shape, to its gradient.
  void give(Value operand, Value contribution);
  /// True when `value` needs a gradient.
  bool active(Value value) const { return value && b.isActive(value); }
};

/// The gradient of a reduction's input: `grad` with the reduced `dims` back
/// (size 1, unless `keepdim`), expanded to `input`'s shape.
Value expandReduced(Rule &r, Value grad, Value input, ArrayRef<int64_t> dims,
                    bool keepdim);

/// The gradient of x from that of its p-norm `y` over `dims` (`grad`, of
/// y's shape, `keepdim` as the norm's): p = 2: x g / n; p = 1: sign(x) g;
/// p = +-inf: g shared evenly between the entries of the largest (smallest)
/// magnitude, times their sign; other p >= 1: sign(x) |x|^(p-1) g /
/// n^(p-1), zero where n = 0; p < 1: sign(x) |x|^(p-1) n^(1-p) g, zero
/// where x = 0, as PyTorch. Null for p = 0 (a count: nothing to give).
Value pnormGradient(Rule &r, Value x, Value y, Value grad, double p,
                    ArrayRef<int64_t> dims, bool keepdim);

/// `g` shared evenly among the entries of `values` equal to `extreme` (its
/// maximum or minimum over `dims`, expanded to values' shape): g / (the
/// number of ties) there, 0 elsewhere; `g` broadcasts against the keepdim
/// reduction. The gradient of amax, max and the +-inf norms, as PyTorch.
Value shareAmongTies(Rule &r, Value values, Value extreme, Value g,
                     ArrayRef<int64_t> dims);

/// The gradients of x and y from that (`g`) of maximum(x, y) or minimum(x,
/// y): g where the operand wins, g / 2 each on ties, as PyTorch.
std::pair<Value, Value> extremumGradients(Rule &r, Value x, Value y, Value g,
                                          bool isMaximum);

// The rules of each op family: nullopt when `r.op` is not of the family.
std::optional<LogicalResult> applyElementwiseRule(Rule &r);
std::optional<LogicalResult> applyProductRule(Rule &r);
std::optional<LogicalResult> applyReductionRule(Rule &r);
std::optional<LogicalResult> applyNormalizationRule(Rule &r);
std::optional<LogicalResult> applyConvolutionRule(Rule &r);
std::optional<LogicalResult> applyLossRule(Rule &r);
std::optional<LogicalResult> applyExtremaRule(Rule &r);
std::optional<LogicalResult> applyIndexingRule(Rule &r);
std::optional<LogicalResult> applyPoolingRule(Rule &r);
std::optional<LogicalResult> applyLinalgRule(Rule &r);
/// linalg_eig and linalg_eigvals (BackwardRulesEig.cpp).
std::optional<LogicalResult> applyEigRule(Rule &r);
/// The complex and FFT rules; an error for any other op on complex tensors
/// whose real rule would be wrong for them.
std::optional<LogicalResult> applyComplexRule(Rule &r);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_BACKWARDRULE_H
