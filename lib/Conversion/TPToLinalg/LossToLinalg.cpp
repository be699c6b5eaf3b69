//===- LossToLinalg.cpp - tp loss functions to linalg ---------------------===//
//
// Elementwise losses (a table of per-element bodies) followed by the
// `reduction` ("none", "mean", "sum"); class-index losses (nll_loss,
// nll_loss2d, cross_entropy) as a gather generic over the targets; the
// row-wise losses (cosine_embedding, triplet_margin). Everything computes in
// f32 for f16/bf16 operands and rounds once to the result dtype; where
// tensorplay rounds an intermediate (cross_entropy's log_softmax output) the
// lowering rounds it too.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// The type a loss with a floating result computes in; fails, diagnosing at
/// `op`, for any other result element type.
FailureOr<Type> lossComputeType(Operation *op) {
  Type resultElem = elementTypeOf(op->getResult(0));
  if (!isa<FloatType>(resultElem))
    return emitUnsupported(op, "has no CPU lowering for ")
           << resultElem << " results";
  return computeTypeFor(resultElem);
}

/// The sum of every element of `value`, as a 0-d tensor of `accType`.
Value buildSumAll(OpBuilder &b, Location loc, Value value, Type accType) {
  return buildSum(b, loc, value,
                  reductionDims(std::nullopt, shapeOf(value).size()), accType);
}

Value cst(OpBuilder &b, Location loc, Value like, double v) {
  return scalarConstant(b, loc, like.getType(), v);
}

/// Applies `reduction` to per-element losses `loss` (accType) and converts
/// to `resultType`. `count` overrides the mean's divisor.
Value reduceLoss(OpBuilder &b, Location loc, Value loss, Reduction reduction,
                 RankedTensorType resultType, Type accType,
                 Value divisor = nullptr) {
  if (reduction == Reduction::None) {
    Value v = convertTensor(b, loc, loss, resultType.getElementType());
    return reshapeTo(b, loc, v, resultType.getShape());
  }
  Value sum = buildSumAll(b, loc, loss, accType);
  if (reduction == Reduction::Mean) {
    auto scalarType = RankedTensorType::get({}, accType);
    SmallVector<Value> operands = {sum};
    if (divisor)
      operands.push_back(divisor);
    double count = (double)numElements(shapeOf(loss));
    sum = buildElementwise(
        b, loc, scalarType, operands,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value d =
              divisor ? args[1] : scalarConstant(nb, nloc, accType, count);
          return (Value)arith::DivFOp::create(nb, nloc, args[0], d);
        });
  }
  return convertTensor(b, loc, sum, resultType.getElementType());
}

//===----------------------------------------------------------------------===//
// Elementwise losses
//===----------------------------------------------------------------------===//

/// Per-element loss of (input, target[, third]) already in the compute type.
using LossFn = Value (*)(OpBuilder &, Location, ValueRange, Operation *);

struct LossBody {
  StringLiteral name;
  LossFn fn;
};

Value absDiff(OpBuilder &b, Location loc, ValueRange a) {
  return math::AbsFOp::create(b, loc,
                              arith::SubFOp::create(b, loc, a[0], a[1]));
}

Value smoothL1(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  double beta = cast<SmoothL1LossOp>(op).getBeta().convertToDouble();
  Value z = absDiff(b, loc, a);
  if (beta == 0.0)
    return z;
  Value quad = arith::DivFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, cst(b, loc, z, 0.5),
                            arith::MulFOp::create(b, loc, z, z)),
      cst(b, loc, z, beta));
  Value lin = arith::SubFOp::create(b, loc, z, cst(b, loc, z, 0.5 * beta));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, z,
                                      cst(b, loc, z, beta));
  return arith::SelectOp::create(b, loc, small, quad, lin);
}

Value huber(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  double delta = cast<HuberLossOp>(op).getDelta().convertToDouble();
  Value z = absDiff(b, loc, a);
  Value quad = arith::MulFOp::create(b, loc, cst(b, loc, z, 0.5),
                                     arith::MulFOp::create(b, loc, z, z));
  Value lin = arith::MulFOp::create(
      b, loc, cst(b, loc, z, delta),
      arith::SubFOp::create(b, loc, z, cst(b, loc, z, 0.5 * delta)));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, z,
                                      cst(b, loc, z, delta));
  return arith::SelectOp::create(b, loc, small, quad, lin);
}

/// xlogy(t, t) - t * x, or exp(t) * (t - x) with log targets.
Value klDiv(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  Value x = a[0], t = a[1];
  if (cast<KlDivOp>(op).getLogTarget())
    return arith::MulFOp::create(b, loc, math::ExpOp::create(b, loc, t),
                                 arith::SubFOp::create(b, loc, t, x));
  Value zero = cst(b, loc, t, 0.0);
  Value xlogy =
      arith::MulFOp::create(b, loc, t, math::LogOp::create(b, loc, t));
  Value isZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, t, zero);
  xlogy = arith::SelectOp::create(b, loc, isZero, zero, xlogy);
  return arith::SubFOp::create(b, loc, xlogy,
                               arith::MulFOp::create(b, loc, t, x));
}

Value poissonNll(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  auto pnll = cast<PoissonNllLossOp>(op);
  Value x = a[0], t = a[1];
  Value loss;
  if (pnll.getLogInput())
    loss = arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                                 arith::MulFOp::create(b, loc, t, x));
  else
    loss = arith::SubFOp::create(
        b, loc, x,
        arith::MulFOp::create(
            b, loc, t,
            math::LogOp::create(
                b, loc,
                arith::AddFOp::create(
                    b, loc, x,
                    cst(b, loc, x, pnll.getEps().convertToDouble())))));
  if (!pnll.getFull())
    return loss;
  // Stirling term t log t - t + 0.5 log(2 pi t), for t > 1.
  Value stirling = arith::AddFOp::create(
      b, loc,
      arith::SubFOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, t, math::LogOp::create(b, loc, t)), t),
      arith::MulFOp::create(
          b, loc, cst(b, loc, t, 0.5),
          math::LogOp::create(
              b, loc,
              arith::MulFOp::create(b, loc, cst(b, loc, t, 2 * M_PI), t))));
  Value gt1 = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, t,
                                    cst(b, loc, t, 1.0));
  stirling =
      arith::SelectOp::create(b, loc, gt1, stirling, cst(b, loc, t, 0.0));
  return arith::AddFOp::create(b, loc, loss, stirling);
}

Value hingeEmbedding(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  double margin = cast<HingeEmbeddingLossOp>(op).getMargin().convertToDouble();
  Value x = a[0], t = a[1];
  Value zero = cst(b, loc, x, 0.0);
  Value marginTerm = arith::MaximumFOp::create(
      b, loc, arith::SubFOp::create(b, loc, cst(b, loc, x, margin), x), zero);
  Value notOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, t,
                                       cst(b, loc, t, 1.0));
  Value notMinusOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                            t, cst(b, loc, t, -1.0));
  return arith::AddFOp::create(
      b, loc, arith::SelectOp::create(b, loc, notOne, marginTerm, zero),
      arith::SelectOp::create(b, loc, notMinusOne, x, zero));
}

Value marginRanking(OpBuilder &b, Location loc, ValueRange a, Operation *op) {
  double margin = cast<MarginRankingLossOp>(op).getMargin().convertToDouble();
  // max(0, -y * (x1 - x2) + margin)
  Value d = arith::SubFOp::create(b, loc, a[0], a[1]);
  Value v = arith::AddFOp::create(
      b, loc,
      arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, a[2], d)),
      cst(b, loc, d, margin));
  return arith::MaximumFOp::create(b, loc, v, cst(b, loc, d, 0.0));
}

#define LOSS_FN(expr)                                                          \
  [](OpBuilder &b, Location loc, ValueRange a, Operation *op) -> Value {       \
    (void)op;                                                                  \
    return expr;                                                               \
  }

const LossBody kLossKinds[] = {
    {MseLossOp::getOperationName(), LOSS_FN(([&] {
       Value d = arith::SubFOp::create(b, loc, a[0], a[1]);
       return (Value)arith::MulFOp::create(b, loc, d, d);
     }()))},
    {L1LossOp::getOperationName(), LOSS_FN(absDiff(b, loc, a))},
    {SmoothL1LossOp::getOperationName(), LOSS_FN(smoothL1(b, loc, a, op))},
    {HuberLossOp::getOperationName(), LOSS_FN(huber(b, loc, a, op))},
    {SoftMarginLossOp::getOperationName(),
     LOSS_FN(buildSoftplus(
         b, loc,
         arith::NegFOp::create(b, loc,
                               arith::MulFOp::create(b, loc, a[1], a[0]))))},
    {HingeEmbeddingLossOp::getOperationName(),
     LOSS_FN(hingeEmbedding(b, loc, a, op))},
    {KlDivOp::getOperationName(), LOSS_FN(klDiv(b, loc, a, op))},
    {PoissonNllLossOp::getOperationName(), LOSS_FN(poissonNll(b, loc, a, op))},
    {MarginRankingLossOp::getOperationName(),
     LOSS_FN(marginRanking(b, loc, a, op))},
};

#undef LOSS_FN

/// Lowers the ops of kLossKinds: per-element loss over the broadcast of the
/// operands, then the reduction.
class ElementwiseLossLowering : public ConversionPattern {
public:
  ElementwiseLossLowering(MLIRContext *ctx, const LossBody &kind)
      : ConversionPattern(kind.name, /*benefit=*/1, ctx), kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    auto iface = cast<ComputeOpInterface>(op);
    size_t numInputs = iface.getComputeOperands().size();
    SmallVector<Value> inputs(operands.begin(), operands.begin() + numInputs);
    SmallVector<int64_t> shape(shapeOf(inputs[0]));
    for (Value v : ArrayRef<Value>(inputs).drop_front()) {
      auto s = broadcastShapes(shape, shapeOf(v));
      if (!s)
        return emitUnsupported(op, "operands do not broadcast");
      shape = *s;
    }
    Value loss = buildElementwise(
        rewriter, loc, RankedTensorType::get(shape, accType), inputs,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          SmallVector<Value> a;
          for (Value v : args)
            a.push_back(convertToCompute(b, nloc, v, resultElem, accType));
          return kind.fn(b, nloc, a, op);
        });
    Reduction reduction =
        op->getAttrOfType<ReductionAttr>("reduction").getValue();
    rewriter.replaceOp(
        op, reduceLoss(rewriter, loc, loss, reduction, resultType, accType));
    return success();
  }

private:
  const LossBody &kind;
};

/// binary_cross_entropy: -w (t log x + (1 - t) log(1 - x)), logs >= -100.
struct BinaryCrossEntropyOpLowering
    : public OpConversionPattern<BinaryCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BinaryCrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    SmallVector<Value> inputs = {adaptor.getInput(), adaptor.getTarget()};
    if (adaptor.getWeight())
      inputs.push_back(adaptor.getWeight());
    SmallVector<int64_t> shape(shapeOf(inputs[0]));
    Value loss = buildElementwise(
        rewriter, loc, RankedTensorType::get(shape, accType), inputs,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
          Value t = convertToCompute(b, nloc, args[1], resultElem, accType);
          Value lo = cst(b, nloc, x, -100.0);
          Value logX = arith::MaximumFOp::create(
              b, nloc, math::LogOp::create(b, nloc, x), lo);
          Value log1mX = arith::MaximumFOp::create(
              b, nloc,
              math::LogOp::create(
                  b, nloc,
                  arith::SubFOp::create(b, nloc, cst(b, nloc, x, 1.0), x)),
              lo);
          // (t - 1) log(1 - x) - t log x
          Value l = arith::SubFOp::create(
              b, nloc,
              arith::MulFOp::create(
                  b, nloc,
                  arith::SubFOp::create(b, nloc, t, cst(b, nloc, t, 1.0)),
                  log1mX),
              arith::MulFOp::create(b, nloc, t, logX));
          if (args.size() > 2)
            l = arith::MulFOp::create(
                b, nloc, l,
                convertToCompute(b, nloc, args[2], resultElem, accType));
          return l;
        });
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, op.getReduction(),
                                      resultType, accType));
    return success();
  }
};

/// binary_cross_entropy_with_logits, tensorplay's stable form:
/// (1 - t) x + (1 + (pw - 1) t) (log1p(exp(-|x|)) + max(-x, 0)), times w.
struct BinaryCrossEntropyWithLogitsOpLowering
    : public OpConversionPattern<BinaryCrossEntropyWithLogitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BinaryCrossEntropyWithLogitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    SmallVector<Value> inputs = {adaptor.getInput(), adaptor.getTarget()};
    bool hasWeight = (bool)adaptor.getWeight();
    bool hasPosWeight = (bool)adaptor.getPosWeight();
    if (hasWeight)
      inputs.push_back(adaptor.getWeight());
    if (hasPosWeight)
      inputs.push_back(adaptor.getPosWeight());
    SmallVector<int64_t> shape(shapeOf(inputs[0]));
    Value loss = buildElementwise(
        rewriter, loc, RankedTensorType::get(shape, accType), inputs,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          auto in = [&](unsigned i) {
            return convertToCompute(b, nloc, args[i], resultElem, accType);
          };
          Value x = in(0), t = in(1);
          Value one = cst(b, nloc, x, 1.0);
          Value zero = cst(b, nloc, x, 0.0);
          Value negX = arith::NegFOp::create(b, nloc, x);
          Value logSig = arith::AddFOp::create(
              b, nloc,
              math::Log1pOp::create(
                  b, nloc,
                  math::ExpOp::create(
                      b, nloc,
                      arith::NegFOp::create(b, nloc,
                                            math::AbsFOp::create(b, nloc, x)))),
              arith::MaximumFOp::create(b, nloc, negX, zero));
          Value coeff = one;
          if (hasPosWeight) {
            Value pw = in(hasWeight ? 3 : 2);
            coeff = arith::AddFOp::create(
                b, nloc, one,
                arith::MulFOp::create(
                    b, nloc, arith::SubFOp::create(b, nloc, pw, one), t));
          }
          Value l = arith::AddFOp::create(
              b, nloc,
              arith::MulFOp::create(b, nloc,
                                    arith::SubFOp::create(b, nloc, one, t), x),
              arith::MulFOp::create(b, nloc, coeff, logSig));
          if (hasWeight)
            l = arith::MulFOp::create(b, nloc, l, in(2));
          return l;
        });
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, op.getReduction(),
                                      resultType, accType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Class-index losses
//===----------------------------------------------------------------------===//

/// Per-target negative log-likelihood of log-probabilities `logp` ([N, C,
/// d...] in accType) against class indices `target` ([N, d...]): returns
/// (loss, weight) tensors of the target's shape; ignored targets give 0 for
/// both.
std::pair<Value, Value> buildNll(OpBuilder &b, Location loc, Value logp,
                                 Value target, Value weight,
                                 int64_t ignoreIndex, Type accType) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> tShape = shapeOf(target);
  int64_t rank = tShape.size();
  int64_t numClasses = shapeOf(logp)[1];
  SmallVector<AffineMap> maps(3, AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value lossInit = emptyTensor(b, loc, tShape, accType);
  Value wInit = emptyTensor(b, loc, tShape, accType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{lossInit.getType(), wInit.getType()},
      ValueRange{target}, ValueRange{lossInit, wInit}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value t = convertScalar(nb, nloc, args[0], nb.getI64Type());
        Value valid = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::ne, t,
            scalarConstant(nb, nloc, nb.getI64Type(), (double)ignoreIndex));
        Value c = arith::MinSIOp::create(
            nb, nloc,
            arith::MaxSIOp::create(
                nb, nloc, t, scalarConstant(nb, nloc, nb.getI64Type(), 0)),
            scalarConstant(nb, nloc, nb.getI64Type(), numClasses - 1));
        Value ci = arith::IndexCastOp::create(nb, nloc, nb.getIndexType(), c);
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d) {
          if (d == 1)
            idx.push_back(ci);
          idx.push_back(linalg::IndexOp::create(nb, nloc, d));
        }
        if (rank <= 1 && idx.size() == (size_t)rank)
          idx.push_back(ci);
        Value x = convertScalar(
            nb, nloc, tensor::ExtractOp::create(nb, nloc, logp, idx), accType);
        Value w = scalarConstant(nb, nloc, accType, 1.0);
        if (weight)
          w = convertScalar(
              nb, nloc,
              tensor::ExtractOp::create(nb, nloc, weight, ValueRange{ci}),
              accType);
        Value zero = scalarConstant(nb, nloc, accType, 0.0);
        w = arith::SelectOp::create(nb, nloc, valid, w, zero);
        Value loss = arith::NegFOp::create(
            nb, nloc, arith::MulFOp::create(nb, nloc, w, x));
        linalg::YieldOp::create(nb, nloc, ValueRange{loss, w});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// Brings (input, target) to the [N, C, d...] / [N, d...] layout (a 1-D
/// input is one sample).
void normalizeClassLayout(OpBuilder &b, Location loc, Value &input,
                          Value &target) {
  if (shapeOf(input).size() == 1) {
    input = reshapeTo(b, loc, input, {1, shapeOf(input)[0]});
    target = reshapeTo(b, loc, target, {1});
  }
}

/// nll_loss / nll_loss2d.
template <typename OpTy>
struct NllLossOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    Value input = adaptor.getInput(), target = adaptor.getTarget();
    normalizeClassLayout(rewriter, loc, input, target);
    auto [loss, w] = buildNll(rewriter, loc, input, target, adaptor.getWeight(),
                              (int64_t)op.getIgnoreIndex(), accType);
    Value divisor;
    if (op.getReduction() == Reduction::Mean)
      divisor = buildSumAll(rewriter, loc, w, accType);
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, op.getReduction(),
                                      resultType, accType, divisor));
    return success();
  }
};

/// nll_loss_backward: -grad * weight[t] at each sample's target class t
/// (0 elsewhere and for ignored targets), divided by the total weight of the
/// non-ignored targets for mean.
struct NllLossBackwardOpLowering
    : public OpConversionPattern<NllLossBackwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NllLossBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    Value input = adaptor.getInput(), target = adaptor.getTarget();
    Value grad = adaptor.getGradOutput(), weight = adaptor.getWeight();
    bool perSample = op.getReduction() == Reduction::None;
    normalizeClassLayout(rewriter, loc, input, target);
    if (perSample)
      grad = reshapeTo(rewriter, loc, grad, shapeOf(target));
    int64_t ignoreIndex = op.getIgnoreIndex();
    Value total;
    if (op.getReduction() == Reduction::Mean) {
      Value w =
          buildNll(rewriter, loc, input, target, weight, ignoreIndex, accType)
              .second;
      total = buildSumAll(rewriter, loc, w, accType);
    }
    AffineMap sample = AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
    AffineMap scalar = AffineMap::get(2, 0, {}, ctx);
    SmallVector<Value> inputs = {target, grad};
    SmallVector<AffineMap> maps = {sample, perSample ? sample : scalar};
    if (total) {
      inputs.push_back(total);
      maps.push_back(scalar);
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
    ArrayRef<int64_t> shape = shapeOf(input);
    Value init = emptyTensor(rewriter, loc, shape, resultElem);
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, inputs, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Type i64 = b.getI64Type();
          Value t = convertScalar(b, l, args[0], i64);
          Value g = convertScalar(b, l, args[1], accType);
          Value classIndex = linalg::IndexOp::create(b, l, 1);
          Value c = arith::IndexCastOp::create(b, l, i64, classIndex);
          Value hit = arith::AndIOp::create(
              b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, c, t),
              arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::ne, t,
                  scalarConstant(b, l, i64, (double)ignoreIndex)));
          Value w = scalarConstant(b, l, accType, 1.0);
          if (weight)
            w = convertScalar(
                b, l,
                tensor::ExtractOp::create(b, l, weight, ValueRange{classIndex}),
                accType);
          Value v =
              arith::NegFOp::create(b, l, arith::MulFOp::create(b, l, g, w));
          if (total)
            v = arith::DivFOp::create(b, l, v, args[2]);
          v = arith::SelectOp::create(b, l, hit, v,
                                      scalarConstant(b, l, accType, 0.0));
          linalg::YieldOp::create(b, l, convertScalar(b, l, v, resultElem));
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, generic.getResult(0),
                                     resultType.getShape()));
    return success();
  }
};

/// cross_entropy / cross_entropy_loss: log_softmax over the class dim
/// (rounded to the op's dtype, as tensorplay's composite does), then
/// nll_loss for class indices or -sum(t * logp) for class probabilities;
/// label smoothing mixes in the uniform distribution.
template <typename OpTy>
struct CrossEntropyOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    Value input = adaptor.getInput(), target = adaptor.getTarget();
    Value weight = adaptor.getWeight();
    double smoothing = op.getLabelSmoothing().convertToDouble();
    Reduction reduction = op.getReduction();
    bool probabilities = isa<FloatType>(elementTypeOf(target));
    if (shapeOf(input).size() == 1) {
      input = reshapeTo(rewriter, loc, input, {1, shapeOf(input)[0]});
      target =
          reshapeTo(rewriter, loc, target,
                    probabilities ? ArrayRef<int64_t>{1, shapeOf(target)[0]}
                                  : ArrayRef<int64_t>{1});
    }
    ArrayRef<int64_t> shape = shapeOf(input);
    int64_t numClasses = shape[1];
    Value logp = buildSoftmax(rewriter, loc, input, 1, resultElem, accType,
                              /*log=*/true);
    logp = convertTensor(
        rewriter, loc, convertTensor(rewriter, loc, logp, resultElem), accType);
    Value weightB;
    if (weight)
      weightB = reshapeTo(rewriter, loc,
                          convertTensor(rewriter, loc, weight, accType), [&] {
                            SmallVector<int64_t> s = {numClasses};
                            for (size_t d = 2; d < shape.size(); ++d)
                              s.push_back(1);
                            return s;
                          }());
    SmallVector<int64_t> classDim = {1};
    if (probabilities) {
      // -sum_c w_c t_c logp_c, t smoothed.
      auto accTensor = RankedTensorType::get(shape, accType);
      SmallVector<Value> operands = {logp, target};
      if (weightB)
        operands.push_back(weightB);
      Value prod = buildElementwise(
          rewriter, loc, accTensor, operands,
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            Value t = convertToCompute(b, nloc, args[1], resultElem, accType);
            if (smoothing > 0.0)
              t = arith::AddFOp::create(
                  b, nloc,
                  arith::MulFOp::create(b, nloc, t,
                                        cst(b, nloc, t, 1.0 - smoothing)),
                  cst(b, nloc, t, smoothing / numClasses));
            Value v = arith::MulFOp::create(b, nloc, args[0], t);
            if (weightB)
              v = arith::MulFOp::create(b, nloc, v, args[2]);
            return (Value)arith::NegFOp::create(b, nloc, v);
          });
      Value loss = buildSum(rewriter, loc, prod, classDim, accType);
      rewriter.replaceOp(
          op, reduceLoss(rewriter, loc, loss, reduction, resultType, accType));
      return success();
    }
    auto [nll, w] = buildNll(rewriter, loc, logp, target, weight,
                             (int64_t)op.getIgnoreIndex(), accType);
    Value loss = nll;
    if (smoothing > 0.0) {
      // smooth_n = -sum_c w_c logp_nc (0 where ignored);
      // loss = (1 - eps) nll + eps / C * smooth.
      SmallVector<Value> operands = {logp};
      if (weightB)
        operands.push_back(weightB);
      auto accTensor = RankedTensorType::get(shape, accType);
      Value wl =
          buildElementwise(rewriter, loc, accTensor, operands,
                           [&](OpBuilder &b, Location nloc, ValueRange args) {
                             Value v = args[0];
                             if (weightB)
                               v = arith::MulFOp::create(b, nloc, v, args[1]);
                             return (Value)arith::NegFOp::create(b, nloc, v);
                           });
      Value smooth = buildSum(rewriter, loc, wl, classDim, accType);
      int64_t ignore = (int64_t)op.getIgnoreIndex();
      loss = buildElementwise(
          rewriter, loc, cast<RankedTensorType>(nll.getType()),
          {nll, smooth, target},
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            Value t = convertScalar(b, nloc, args[2], b.getI64Type());
            Value valid = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::ne, t,
                scalarConstant(b, nloc, b.getI64Type(), (double)ignore));
            Value s = arith::SelectOp::create(b, nloc, valid, args[1],
                                              cst(b, nloc, args[1], 0.0));
            return (Value)arith::AddFOp::create(
                b, nloc,
                arith::MulFOp::create(b, nloc, args[0],
                                      cst(b, nloc, args[0], 1.0 - smoothing)),
                arith::MulFOp::create(b, nloc, s,
                                      cst(b, nloc, s, smoothing / numClasses)));
          });
    }
    Value divisor;
    if (reduction == Reduction::Mean)
      divisor = buildSumAll(rewriter, loc, w, accType);
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, reduction,
                                      resultType, accType, divisor));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Row-wise losses
//===----------------------------------------------------------------------===//

/// cosine_embedding_loss: cos along the last dim with tensorplay's
/// EPSILON = 1e-12 in the squared magnitudes; 1 - cos for y = 1,
/// max(0, cos - margin) for y = -1.
struct CosineEmbeddingLossOpLowering
    : public OpConversionPattern<CosineEmbeddingLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CosineEmbeddingLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    Value x1 = adaptor.getInput1(), x2 = adaptor.getInput2();
    int64_t rank = shapeOf(x1).size();
    int64_t dim = rank - 1;
    auto accTensor = RankedTensorType::get(shapeOf(x1), accType);
    auto product = [&](Value a, Value c) {
      Value p = buildElementwise(
          rewriter, loc, accTensor, {a, c},
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            return (Value)arith::MulFOp::create(
                b, nloc,
                convertToCompute(b, nloc, args[0], resultElem, accType),
                convertToCompute(b, nloc, args[1], resultElem, accType));
          });
      return buildSum(rewriter, loc, p, {dim}, accType);
    };
    Value prod = product(x1, x2), m1 = product(x1, x1), m2 = product(x2, x2);
    double margin = op.getMargin().convertToDouble();
    Value target = adaptor.getTarget();
    auto rowType = cast<RankedTensorType>(prod.getType());
    Value loss = buildElementwise(
        rewriter, loc, rowType, {prod, m1, m2, target},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value eps = cst(b, nloc, args[0], 1e-12);
          Value denom = math::SqrtOp::create(
              b, nloc,
              arith::MulFOp::create(
                  b, nloc, arith::AddFOp::create(b, nloc, args[1], eps),
                  arith::AddFOp::create(b, nloc, args[2], eps)));
          Value cos = arith::DivFOp::create(b, nloc, args[0], denom);
          Value t = convertToCompute(b, nloc, args[3], resultElem, accType);
          Value zero = cst(b, nloc, cos, 0.0);
          Value pos =
              arith::SubFOp::create(b, nloc, cst(b, nloc, cos, 1.0), cos);
          Value neg = arith::MaximumFOp::create(
              b, nloc,
              arith::SubFOp::create(b, nloc, cos, cst(b, nloc, cos, margin)),
              zero);
          Value isPos = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::OEQ, t, cst(b, nloc, t, 1.0));
          Value isNeg = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::OEQ, t, cst(b, nloc, t, -1.0));
          return (Value)arith::AddFOp::create(
              b, nloc, arith::SelectOp::create(b, nloc, isPos, pos, zero),
              arith::SelectOp::create(b, nloc, isNeg, neg, zero));
        });
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, op.getReduction(),
                                      resultType, accType));
    return success();
  }
};

/// triplet_margin_loss with pairwise_distance(a, b) = ||a - b + eps||_p.
struct TripletMarginLossOpLowering
    : public OpConversionPattern<TripletMarginLossOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TripletMarginLossOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    FailureOr<Type> computeType = lossComputeType(op);
    if (failed(computeType))
      return failure();
    Type accType = *computeType;
    double p = op.getP().convertToDouble();
    double eps = op.getEps().convertToDouble();
    auto shape = broadcastShapes(shapeOf(adaptor.getAnchor()),
                                 shapeOf(adaptor.getPositive()));
    if (!shape)
      return emitUnsupported(op, "operands do not broadcast");
    shape = broadcastShapes(*shape, shapeOf(adaptor.getNegative()));
    if (!shape)
      return emitUnsupported(op, "operands do not broadcast");
    int64_t dim = shape->size() - 1;
    auto accTensor = RankedTensorType::get(*shape, accType);
    auto distance = [&](Value a, Value c) {
      Value d = buildElementwise(
          rewriter, loc, accTensor, {a, c},
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
            Value y = convertToCompute(b, nloc, args[1], resultElem, accType);
            return (Value)arith::AddFOp::create(
                b, nloc, arith::SubFOp::create(b, nloc, x, y),
                cst(b, nloc, x, eps));
          });
      return buildNorm(rewriter, loc, d, {dim}, accType, accType, p);
    };
    Value dap = distance(adaptor.getAnchor(), adaptor.getPositive());
    Value dan = distance(adaptor.getAnchor(), adaptor.getNegative());
    SmallVector<Value> operands = {dap, dan};
    if (op.getSwap())
      operands.push_back(
          distance(adaptor.getPositive(), adaptor.getNegative()));
    double margin = op.getMargin().convertToDouble();
    Value loss = buildElementwise(
        rewriter, loc, cast<RankedTensorType>(dap.getType()), operands,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value an = args[1];
          if (args.size() > 2)
            an = arith::MinimumFOp::create(b, nloc, an, args[2]);
          Value v = arith::AddFOp::create(
              b, nloc, arith::SubFOp::create(b, nloc, args[0], an),
              cst(b, nloc, an, margin));
          return (Value)arith::MaximumFOp::create(b, nloc, v,
                                                  cst(b, nloc, v, 0.0));
        });
    rewriter.replaceOp(op, reduceLoss(rewriter, loc, loss, op.getReduction(),
                                      resultType, accType));
    return success();
  }
};

} // namespace

void mlir::tp::populateLossToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (const LossBody &kind : kLossKinds)
    patterns.add<ElementwiseLossLowering>(ctx, kind);
  patterns
      .add<BinaryCrossEntropyOpLowering, BinaryCrossEntropyWithLogitsOpLowering,
           NllLossOpLowering<NllLossOp>, NllLossOpLowering<NllLoss2dOp>,
           NllLossBackwardOpLowering, CrossEntropyOpLowering<CrossEntropyOp>,
           CrossEntropyOpLowering<CrossEntropyLossOp>,
           CosineEmbeddingLossOpLowering, TripletMarginLossOpLowering>(ctx);
}
