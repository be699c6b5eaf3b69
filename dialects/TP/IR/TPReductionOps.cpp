//===- TPReductionOps.cpp - tp reductions and normalizations --------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/SmallSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPReductionOps.cpp.inc"

/// Integral inputs need an explicit floating dtype for these ops.
static LogicalResult expectFloatingInput(RuleContext &op, Value input) {
  Type dtype = op.getExplicitDtype();
  if (isFloatingOrComplex(elementTypeOf(input)) ||
      (dtype && isFloatingOrComplex(dtype)))
    return success();
  return op.emitOpError("expected a floating or complex input (or a floating "
                        "dtype=), got ")
         << input.getType();
}

/// The ops whose integral inputs tensorplay rejects.
static bool needsFloatingInput(RuleContext &op) {
  return op
      .isa<MeanOp, NormOp, SoftmaxOp, LogSoftmaxOp, SoftminOp, NormalizeOp,
           RenormOp, LayerNormOp, GroupNormOp, BatchNormOp, CdistOp, PdistOp,
           DistOp, CosineSimilarityOp, QuantileOp, NanquantileOp>();
}

/// Whether `op` has no value over an empty set (max, amax, argmax,
/// max_dim, and the norms with p = +-inf, whose identity PyTorch refuses).
static bool needsNonEmptyReduction(RuleContext &op) {
  if (op.isa<MaxOp, AmaxOp, ArgmaxOp, MaxDimOp>())
    return true;
  if (auto norm = op.dynAs<NormOp>())
    return norm->getP() && std::isinf(norm->getP()->convertToDouble());
  return false;
}

/// Refuses a reduction of `op` over an empty set of elements when it has no
/// value there: a reduced dimension of size 0 (`explicitDims`), or an empty
/// input reduced whole.
static LogicalResult
expectNonEmptyReduction(RuleContext &op, ArrayRef<int64_t> shape,
                        const llvm::SmallSet<int64_t, 4> &reduced,
                        bool explicitDims) {
  if (!needsNonEmptyReduction(op))
    return success();
  for (int64_t d = 0; d < (int64_t)shape.size(); ++d) {
    if (!reduced.count(d) || shape[d] != 0)
      continue;
    if (explicitDims)
      return op.emitOpError("expected reduction dim ")
             << d << " to have non-zero size";
    return op.emitOpError(
        "expected a non-empty input when reducing over every dimension");
  }
  return success();
}

LogicalResult mlir::tp::inferReductionShape(RuleContext &op, Value input,
                                            DimList dims, bool keepdim) {
  if (needsFloatingInput(op) && failed(expectFloatingInput(op, input)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  int64_t rank = x.size();
  llvm::SmallSet<int64_t, 4> reduced;
  if (dims.values && !dims.values->empty()) {
    for (int64_t d : *dims.values) {
      FailureOr<int64_t> dim = normalizeDim(op, d, rank);
      if (failed(dim))
        return failure();
      if (!reduced.insert(*dim).second)
        return op.emitOpError("dim ") << d << " appears more than once";
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      reduced.insert(i);
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced.count(i))
      shape.push_back(x[i]);
    else if (keepdim)
      shape.push_back(1);
  }
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    if (failed(op.setResultShape(i, shape)))
      return failure();
  // A maximum (or an infinity norm) of nothing has no value: PyTorch raises.
  if (failed(expectNonEmptyReduction(op, x, reduced,
                                     dims.values && !dims.values->empty())))
    return failure();
  return success();
}

LogicalResult mlir::tp::inferAlongDimShape(RuleContext &op, Value input,
                                           int64_t dim) {
  if (needsFloatingInput(op) && failed(expectFloatingInput(op, input)))
    return failure();
  if (failed(normalizeDim(op, dim, rankOf(input))))
    return failure();
  if (auto renorm = op.dynAs<RenormOp>()) {
    if (renorm->getMaxnorm().convertToDouble() < 0.0 ||
        renorm->getP().convertToDouble() <= 0.0)
      return op.emitOpError("renorm needs p > 0 and maxnorm >= 0");
    if (rankOf(input) < 2)
      return op.emitOpError("renorm needs an input of at least 2 "
                            "dimensions (as tensorplay's), got ")
             << input.getType();
  }
  return op.setResultShape(0, shapeOf(input));
}

LogicalResult mlir::tp::inferTopkShape(RuleContext &op) {
  auto topk = op.as<TopkOp>();
  Value input = topk.getInput();
  FailureOr<int64_t> dim = normalizeDim(op, topk.getDim(), rankOf(input));
  if (failed(dim))
    return failure();
  Type elem = elementTypeOf(input);
  if (isa<ComplexType>(elem) || elem.isInteger(1))
    return op.emitOpError("expected a real, non-bool input (as tensorplay's "
                          "topk), got ")
           << input.getType();
  SmallVector<int64_t> shape(shapeOf(input));
  int64_t size = shape.empty() ? 1 : shape[*dim];
  int64_t k = topk.getK();
  if (k < 0 || (!ShapedType::isDynamic(size) && k > size))
    return op.emitOpError("k (")
           << k << ") must be in [0, " << size << "], the size along dim";
  if (!shape.empty())
    shape[*dim] = k;
  if (failed(op.setResultShape(0, shape)))
    return failure();
  return op.setResultShape(1, shape);
}

LogicalResult mlir::tp::inferSoftmaxBackwardShape(RuleContext &op) {
  Value grad = op.getOperand(0), output = op.getOperand(1);
  for (Value v : {grad, output})
    if (!isa<FloatType>(elementTypeOf(v)))
      return op.emitOpError("expected floating grad_output and output, got ")
             << v.getType();
  ArrayRef<int64_t> y = shapeOf(output);
  if (failed(expectGradShape(op, grad, y, "output")))
    return failure();
  int64_t dim = op.getAttrOfType<IntegerAttr>("dim").getInt();
  if (failed(normalizeDim(op, dim, rankOf(output))))
    return failure();
  return op.setResultShape(0, y);
}

/// Checks an optional per-feature parameter (weight, bias, running stats).
static LogicalResult expectParam(RuleContext &op, Value param, StringRef name,
                                 ArrayRef<int64_t> expected) {
  if (!param || shapeOf(param) == expected)
    return success();
  bool compatible = shapeOf(param).size() == expected.size();
  for (auto [a, b] : llvm::zip(shapeOf(param), expected))
    compatible &=
        ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  if (compatible)
    return success();
  return op.emitOpError() << name << " must have shape "
                          << formatShape(expected) << ", got "
                          << formatShape(shapeOf(param));
}

/// Checks that `normalized` is the trailing dims of the input shape `x`.
static LogicalResult expectNormalizedShape(RuleContext &op, ArrayRef<int64_t> x,
                                           ArrayRef<int64_t> normalized) {
  if (normalized.size() <= x.size() &&
      llvm::equal(x.take_back(normalized.size()), normalized,
                  [](int64_t a, int64_t b) {
                    return ShapedType::isDynamic(a) || a == b;
                  }))
    return success();
  return op.emitOpError("normalized_shape ")
         << formatShape(normalized) << " must match the trailing dimensions "
         << "of the input shape " << formatShape(x);
}

LogicalResult mlir::tp::inferLayerNormShape(RuleContext &op) {
  auto ln = op.as<LayerNormOp>();
  if (failed(expectFloatingInput(op, ln.getInput())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(ln.getInput()),
                    normalized = ln.getNormalizedShape();
  if (failed(expectNormalizedShape(op, x, normalized)) ||
      failed(expectParam(op, ln.getWeight(), "weight", normalized)) ||
      failed(expectParam(op, ln.getBias(), "bias", normalized)))
    return failure();
  return op.setResultShape(0, x);
}

LogicalResult mlir::tp::inferLayerNormBackwardShape(RuleContext &op) {
  auto ln = op.as<LayerNormBackwardOp>();
  Value input = ln.getInput();
  if (failed(expectFloatingInput(op, input)) ||
      failed(expectFloatingInput(op, ln.getGradOutput())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input), normalized = ln.getNormalizedShape();
  if (failed(expectNormalizedShape(op, x, normalized)) ||
      failed(expectParam(op, ln.getWeight(), "weight", normalized)) ||
      failed(expectGradShape(op, ln.getGradOutput(), x, "input")))
    return failure();
  if (failed(op.setResultShape(0, x)) ||
      failed(op.setResultShape(1, normalized)))
    return failure();
  return op.setResultShape(2, normalized);
}

/// The checks of group_norm and its backward on `input` and `weight`.
static LogicalResult expectGroupNormOperands(RuleContext &op, Value input,
                                             Value weight, int64_t groups) {
  if (failed(expectFloatingInput(op, input)) ||
      failed(expectRank(op, input, "an (N, C, ...) input", 2,
                        std::numeric_limits<int64_t>::max())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  if (groups <= 0 || (!ShapedType::isDynamic(x[1]) && x[1] % groups != 0))
    return op.emitOpError("expected the number of channels (")
           << x[1] << ") to be divisible by num_groups (" << groups << ")";
  return expectParam(op, weight, "weight", {x[1]});
}

LogicalResult mlir::tp::inferGroupNormShape(RuleContext &op) {
  auto gn = op.as<GroupNormOp>();
  ArrayRef<int64_t> x = shapeOf(gn.getInput());
  if (failed(expectGroupNormOperands(op, gn.getInput(), gn.getWeight(),
                                     gn.getNumGroups())) ||
      failed(expectParam(op, gn.getBias(), "bias", {x[1]})))
    return failure();
  return op.setResultShape(0, x);
}

/// The results of a channel normalization's backward (group_norm,
/// batch_norm): grad_input of the input's shape `x`, the weight and bias
/// gradients of shape (C).
static LogicalResult setChannelGradientShapes(RuleContext &op,
                                              ArrayRef<int64_t> x) {
  if (failed(op.setResultShape(0, x)) || failed(op.setResultShape(1, {x[1]})))
    return failure();
  return op.setResultShape(2, {x[1]});
}

/// batch_norm's (and its backward's) floating (N, C, ...) input.
static LogicalResult expectBatchNormInput(RuleContext &op, Value input) {
  if (failed(expectFloatingInput(op, input)) ||
      failed(expectRank(op, input, "an (N, C, ...) input", 2,
                        std::numeric_limits<int64_t>::max())))
    return failure();
  return success();
}

LogicalResult mlir::tp::inferGroupNormBackwardShape(RuleContext &op) {
  auto gn = op.as<GroupNormBackwardOp>();
  ArrayRef<int64_t> x = shapeOf(gn.getInput());
  if (failed(expectGroupNormOperands(op, gn.getInput(), gn.getWeight(),
                                     gn.getNumGroups())) ||
      failed(expectFloatingInput(op, gn.getGradOutput())) ||
      failed(expectGradShape(op, gn.getGradOutput(), x, "input")))
    return failure();
  return setChannelGradientShapes(op, x);
}

LogicalResult mlir::tp::inferBatchNormShape(RuleContext &op) {
  auto bn = op.as<BatchNormOp>();
  if (failed(expectBatchNormInput(op, bn.getInput())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(bn.getInput());
  if (!bn.getTraining() && (!bn.getRunningMean() || !bn.getRunningVar()))
    return op.emitOpError("running_mean and running_var are required when "
                          "not training");
  for (auto [param, name] : {std::pair{bn.getWeight(), "weight"},
                             {bn.getBias(), "bias"},
                             {bn.getRunningMean(), "running_mean"},
                             {bn.getRunningVar(), "running_var"}})
    if (failed(expectParam(op, param, name, {x[1]})))
      return failure();
  return op.setResultShape(0, x);
}

LogicalResult mlir::tp::inferBatchNormBackwardShape(RuleContext &op) {
  auto bn = op.as<BatchNormBackwardOp>();
  if (failed(expectBatchNormInput(op, bn.getInput())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(bn.getInput());
  if (failed(expectParam(op, bn.getWeight(), "weight", {x[1]})) ||
      failed(expectFloatingInput(op, bn.getGradOutput())) ||
      failed(expectGradShape(op, bn.getGradOutput(), x, "input")))
    return failure();
  return setChannelGradientShapes(op, x);
}

LogicalResult mlir::tp::inferDistShape(RuleContext &op) {
  auto dist = op.as<DistOp>();
  if (failed(expectFloatingInput(op, dist.getInput())))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(
          {shapeOf(dist.getInput()), shapeOf(dist.getOther())}, shape)))
    return op.emitOpError("operands are not broadcastable");
  return op.setResultShape(0, {});
}

LogicalResult mlir::tp::inferCdistShape(RuleContext &op) {
  auto cdist = op.as<CdistOp>();
  if (failed(expectFloatingInput(op, cdist.getX1())))
    return failure();
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  if (failed(expectRank(op, cdist.getX1(), "x1", 2, kAny)) ||
      failed(expectRank(op, cdist.getX2(), "x2", 2, kAny)))
    return failure();
  if (cdist.getP().convertToDouble() < 0.0)
    return op.emitOpError("p must be non-negative");
  ArrayRef<int64_t> a = shapeOf(cdist.getX1()), b = shapeOf(cdist.getX2());
  if (failed(expectDimsMatch(op, a.back(), b.back(),
                             "x1 and x2 must have the same number of "
                             "columns")))
    return failure();
  SmallVector<int64_t> batch;
  if (failed(broadcastShapes({a.drop_back(2), b.drop_back(2)}, batch)))
    return op.emitOpError("batch dimensions are not broadcastable");
  batch.append({a[a.size() - 2], b[b.size() - 2]});
  return op.setResultShape(0, batch);
}

LogicalResult mlir::tp::inferPdistShape(RuleContext &op) {
  auto pdist = op.as<PdistOp>();
  if (failed(expectFloatingInput(op, pdist.getInput())) ||
      failed(expectRank(op, pdist.getInput(), "a 2-D input", 2, 2)))
    return failure();
  int64_t n = shapeOf(pdist.getInput())[0];
  int64_t pairs = ShapedType::isDynamic(n) ? n : n * (n - 1) / 2;
  return op.setResultShape(0, {pairs});
}

LogicalResult mlir::tp::inferCosineSimilarityShape(RuleContext &op) {
  auto cs = op.as<CosineSimilarityOp>();
  if (failed(expectFloatingInput(op, cs.getX1())))
    return failure();
  SmallVector<int64_t> shape;
  if (failed(
          broadcastShapes({shapeOf(cs.getX1()), shapeOf(cs.getX2())}, shape)))
    return op.emitOpError("x1 and x2 are not broadcastable");
  FailureOr<int64_t> dim = normalizeDim(op, cs.getDim(), shape.size());
  if (failed(dim))
    return failure();
  if (!shape.empty())
    shape.erase(shape.begin() + *dim);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferTraceShape(RuleContext &op) {
  if (failed(expectRank(op, op.getOperand(0), "a 2-D input", 2, 2)))
    return failure();
  return op.setResultShape(0, {});
}

template <typename QuantileLikeOp>
static LogicalResult inferQuantileLikeShape(RuleContext &op) {
  typename QuantileLikeOp::Adaptor quantile = op.as<QuantileLikeOp>();
  Value input = quantile.getInput(), q = quantile.getQ();
  if (failed(expectFloatingInput(op, input)) ||
      failed(expectRank(op, q, "q", 0, 1)))
    return failure();
  StringRef mode = quantile.getInterpolation();
  if (!llvm::is_contained({"linear", "lower", "higher", "midpoint", "nearest"},
                          mode))
    return op.emitOpError("interpolation must be one of linear, lower, "
                          "higher, midpoint, nearest, got '")
           << mode << "'";
  ArrayRef<int64_t> x = shapeOf(input);
  bool keepdim = quantile.getKeepdim();
  SmallVector<int64_t> shape;
  if (rankOf(q) == 1)
    shape.push_back(shapeOf(q)[0]);
  if (std::optional<int64_t> dimAttr = quantile.getDim()) {
    FailureOr<int64_t> dim = normalizeDim(op, *dimAttr, x.size());
    if (failed(dim))
      return failure();
    for (int64_t i = 0; i < static_cast<int64_t>(x.size()); ++i)
      if (i != *dim)
        shape.push_back(x[i]);
      else if (keepdim)
        shape.push_back(1);
  } else if (keepdim) {
    shape.append(x.size(), 1);
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferQuantileShape(RuleContext &op) {
  if (op.isa<QuantileOp>())
    return inferQuantileLikeShape<QuantileOp>(op);
  return inferQuantileLikeShape<NanquantileOp>(op);
}
