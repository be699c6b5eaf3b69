//===- TPTrainingOps.cpp - GradScaler and fused optimizer ops -------------===//
//
// Result types (the updated state has the type of the state it updates) and
// the checks the runtime's kernels would otherwise make at run time: the
// hyper-parameter ranges of torch.optim.SGD / AdamW and GradScaler, and
// matching parameter, gradient and state tensors; the canonicalization that
// lets the optimizers and the inf/NaN check read narrow gradients directly.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPTrainingOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Result types
//===----------------------------------------------------------------------===//

LogicalResult AmpCheckFiniteOp::inferReturnTypes(MLIRContext *context,
                                                 std::optional<Location>,
                                                 Adaptor,
                                                 SmallVectorImpl<Type> &types) {
  types.push_back(RankedTensorType::get({}, Float32Type::get(context)));
  return success();
}

LogicalResult AmpUpdateScaleOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location>,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getScale().getType());
  types.push_back(adaptor.getGrowthTracker().getType());
  return success();
}

LogicalResult FusedSgdOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getParam().getType());
  if (Value buffer = adaptor.getMomentumBuffer())
    types.push_back(buffer.getType());
  if (Value copy = adaptor.getParamCopy())
    types.push_back(copy.getType());
  types.push_back(adaptor.getStep().getType());
  return success();
}

LogicalResult FusedAdamwOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location>,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getParam().getType());
  types.push_back(adaptor.getExpAvg().getType());
  types.push_back(adaptor.getExpAvgSq().getType());
  if (Value max = adaptor.getMaxExpAvgSq())
    types.push_back(max.getType());
  if (Value copy = adaptor.getParamCopy())
    types.push_back(copy.getType());
  types.push_back(adaptor.getStep().getType());
  return success();
}

LogicalResult AllReduceOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  llvm::append_range(types, adaptor.getValues().getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// `v` as written in the IR's attributes (0.1, 1, 1e-08).
static std::string formatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

LogicalResult AmpCheckFiniteOp::verify() {
  if (getGrads().empty())
    return emitOpError("expected at least one gradient");
  return success();
}

LogicalResult AmpUpdateScaleOp::verify() {
  double growth = getGrowthFactor().convertToDouble();
  double backoff = getBackoffFactor().convertToDouble();
  if (!(growth > 1.0) || !std::isfinite(growth))
    return emitOpError("growth_factor must be a finite number > 1, got ")
           << formatNumber(growth);
  if (!(backoff > 0.0 && backoff < 1.0))
    return emitOpError("backoff_factor must lie in (0, 1), got ")
           << formatNumber(backoff);
  int64_t interval = getGrowthInterval();
  if (interval < 1 || interval > INT32_MAX)
    return emitOpError("growth_interval must lie in [1, 2^31 - 1] (the "
                       "tracker is an i32), got ")
           << interval;
  return success();
}

/// Whether `grad` may be the gradient of `param`: the parameter's type, or
/// for an f32 parameter the same shape in bf16 or f16.
static bool isGradientTypeOf(Type grad, Type param) {
  if (grad == param)
    return true;
  auto g = cast<RankedTensorType>(grad), p = cast<RankedTensorType>(param);
  return p.getElementType().isF32() && g.getShape() == p.getShape() &&
         (g.getElementType().isBF16() || g.getElementType().isF16());
}

/// The checks both optimizers share: the types of the gradient and the
/// parameter copy, every state tensor has the parameter's type, and the
/// GradScaler operands come together.
static LogicalResult
verifyOptimizerOperands(Operation *op, Value param, Value grad, Value copy,
                        ArrayRef<std::pair<Value, StringRef>> state,
                        Value gradScale, Value foundInf) {
  if (!isGradientTypeOf(grad.getType(), param.getType()))
    return op->emitOpError("expected grad to have the parameter's type ")
           << param.getType()
           << " (or, for an f32 parameter, its shape in bf16 or f16), got "
           << grad.getType();
  if (copy && (copy.getType() == param.getType() ||
               !isGradientTypeOf(copy.getType(), param.getType())))
    return op->emitOpError("expected param_copy to be a bf16 or f16 tensor "
                           "of an f32 parameter's shape, got ")
           << copy.getType() << " for a parameter of type " << param.getType();
  for (auto [value, name] : state)
    if (value && value.getType() != param.getType())
      return op->emitOpError("expected ")
             << name << " to have the parameter's type " << param.getType()
             << ", got " << value.getType();
  if (!gradScale != !foundInf)
    return op->emitOpError(
        "expected grad_scale and found_inf together (the GradScaler's "
        "operands) or neither");
  return success();
}

/// A hyper-parameter that must be finite and >= 0.
static LogicalResult expectNonNegative(Operation *op, StringRef name,
                                       APFloat value) {
  double v = value.convertToDouble();
  if (!(v >= 0.0) || !std::isfinite(v))
    return op->emitOpError("invalid ") << name << " " << formatNumber(v)
                                       << ": expected a finite value >= 0";
  return success();
}

LogicalResult FusedSgdOp::verify() {
  if (failed(verifyOptimizerOperands(*this, getParam(), getGrad(),
                                     getParamCopy(),
                                     {{getMomentumBuffer(), "momentum_buffer"}},
                                     getGradScale(), getFoundInf())))
    return failure();
  for (auto [name, value] : {std::pair<StringRef, APFloat>{"lr", getLr()},
                             {"momentum", getMomentum()},
                             {"dampening", getDampening()},
                             {"weight_decay", getWeightDecay()}})
    if (failed(expectNonNegative(*this, name, value)))
      return failure();
  bool momentum = !getMomentum().isZero();
  if (momentum != static_cast<bool>(getMomentumBuffer()))
    return emitOpError(momentum ? "expected a momentum_buffer for momentum "
                                  "!= 0"
                                : "a momentum_buffer needs momentum != 0");
  if (getNesterov() && (!momentum || !getDampening().isZero()))
    return emitOpError("nesterov momentum requires a momentum and zero "
                       "dampening");
  return success();
}

LogicalResult FusedAdamwOp::verify() {
  if (failed(verifyOptimizerOperands(*this, getParam(), getGrad(),
                                     getParamCopy(),
                                     {{getExpAvg(), "exp_avg"},
                                      {getExpAvgSq(), "exp_avg_sq"},
                                      {getMaxExpAvgSq(), "max_exp_avg_sq"}},
                                     getGradScale(), getFoundInf())))
    return failure();
  for (auto [name, value] : {std::pair<StringRef, APFloat>{"lr", getLr()},
                             {"eps", getEps()},
                             {"weight_decay", getWeightDecay()}})
    if (failed(expectNonNegative(*this, name, value)))
      return failure();
  for (auto [name, value] : {std::pair<StringRef, APFloat>{"beta1", getBeta1()},
                             {"beta2", getBeta2()}}) {
    double v = value.convertToDouble();
    if (!(v >= 0.0 && v < 1.0))
      return emitOpError("invalid ") << name << " " << formatNumber(v)
                                     << ": expected a value in [0, 1)";
  }
  if (getAmsgrad() != static_cast<bool>(getMaxExpAvgSq()))
    return emitOpError(getAmsgrad() ? "expected a max_exp_avg_sq for amsgrad"
                                    : "a max_exp_avg_sq needs amsgrad");
  return success();
}

//===----------------------------------------------------------------------===//
// Canonicalization: exact gradient up-casts fold into their consumers
//===----------------------------------------------------------------------===//

/// The bf16 or f16 source of `grad` when it is a tp.cast widening it to f32
/// (exact), else null.
static Value narrowSourceOf(Value grad) {
  auto cast = grad.getDefiningOp<CastOp>();
  if (!cast)
    return {};
  Type from = getElementTypeOrSelf(cast.getInput().getType());
  Type to = getElementTypeOrSelf(cast.getType());
  if (!to.isF32() || !(from.isBF16() || from.isF16()))
    return {};
  return cast.getInput();
}

namespace {

/// fused_sgd / fused_adamw %p, (tp.cast %g : bf16|f16 -> f32): the
/// optimizer reads %g and widens it itself, with the same values.
template <typename OpTy>
struct FoldGradientUpcast : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value narrow = narrowSourceOf(op.getGrad());
    if (!narrow)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getGradMutable().assign(narrow); });
    return success();
  }
};

/// amp_check_finite (tp.cast %g : bf16|f16 -> f32): checks %g instead.
struct FoldCheckedUpcast : public OpRewritePattern<AmpCheckFiniteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AmpCheckFiniteOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    SmallVector<Value> grads;
    for (Value grad : op.getGrads()) {
      Value narrow = narrowSourceOf(grad);
      changed |= static_cast<bool>(narrow);
      grads.push_back(narrow ? narrow : grad);
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getGradsMutable().assign(grads); });
    return success();
  }
};

} // namespace

void AmpCheckFiniteOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<FoldCheckedUpcast>(context);
}

void FusedSgdOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldGradientUpcast<FusedSgdOp>>(context);
}

void FusedAdamwOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<FoldGradientUpcast<FusedAdamwOp>>(context);
}

LogicalResult AllReduceOp::verify() {
  if (getKind() != "sum" && getKind() != "max")
    return emitOpError("kind must be \"sum\" or \"max\", got \"")
           << getKind() << "\"";
  if (getValues().empty())
    return emitOpError("needs at least one tensor to reduce");
  Type element = getElementTypeOrSelf(getValues().front().getType());
  int64_t total = 0;
  for (Value v : getValues()) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() != element)
      return emitOpError("reduces its tensors in one buffer: they must share "
                         "one element type, got ")
             << element << " and " << type.getElementType();
    if (!type.hasStaticShape())
      return emitOpError("needs static shapes, got ") << type;
    total += type.getNumElements();
  }
  // One MPI call counts its elements in an int.
  if (total > std::numeric_limits<int32_t>::max())
    return emitOpError("packs ")
           << total
           << " elements into one MPI call, which takes at most 2^31 - 1 "
              "(split the tensors over several all-reduces)";
  return success();
}
