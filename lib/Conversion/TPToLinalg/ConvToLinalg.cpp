//===- ConvToLinalg.cpp - tp convolutions to linalg -----------------------===//
//
// N-D (grouped, dilated, strided, padded) convolutions as an im2col gather
// (a linalg.generic whose input map is the convolution's affine index
// o * stride + k * dilation) followed by one linalg.batch_matmul over the
// groups, which the CPU pipeline tiles and vectorizes. Transposed
// convolutions become direct ones on the stride-dilated, padded input with
// the spatially flipped, transposed weight. The weight gradient of
// convolution_backward is the product of the output gradient with the
// transposed im2col of the input, per group. Used when oneDNN is not
// available or for dtypes it does not take.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/ConvolutionUtils.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/ConvAttributes.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// The im2col gather of a convolution of `input` [N, Cin, S...] with a
/// kernel of spatial sizes `kernel`: col [G, Cin/G * K, N * O] and the
/// output sizes O.
struct Im2col {
  Value col;
  SmallVector<int64_t> outputSizes;
};

Im2col buildIm2col(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                   ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                   int64_t groups) {
  MLIRContext *ctx = b.getContext();
  int64_t r = stride.size();
  SmallVector<int64_t> lo = {0, 0}, hi = {0, 0};
  for (int64_t i = 0; i < r; ++i) {
    lo.push_back(padding[i]);
    hi.push_back(padding[i]);
  }
  Value padded = padOrCrop(b, loc, input, lo, hi, 0.0);
  ArrayRef<int64_t> ps = shapeOf(padded);
  int64_t n = ps[0], cin = ps[1];
  int64_t cg = cin / groups;
  SmallVector<int64_t> k(kernel), o;
  for (int64_t i = 0; i < r; ++i)
    o.push_back((ps[2 + i] - dilation[i] * (k[i] - 1) - 1) / stride[i] + 1);
  // col[g, c, k..., n, o...] = padded[n, g*cg + c, o*s + k*d].
  // Loops: g, c, k_0..k_{r-1}, n, o_0..o_{r-1}.
  int64_t loops = 3 + 2 * r;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs = {dim(2 + r), dim(0) * cg + dim(1)};
  for (int64_t i = 0; i < r; ++i)
    inExprs.push_back(dim(3 + r + i) * stride[i] + dim(2 + i) * dilation[i]);
  SmallVector<int64_t> colShape = {groups, cg};
  colShape.append(k.begin(), k.end());
  colShape.push_back(n);
  colShape.append(o.begin(), o.end());
  Value colInit = emptyTensor(b, loc, colShape, elementTypeOf(input));
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, inExprs, ctx),
                                 AffineMap::getMultiDimIdentityMap(loops, ctx)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  Value col = linalg::GenericOp::create(
                  b, loc, TypeRange{colInit.getType()}, ValueRange{padded},
                  ValueRange{colInit}, maps, iterators,
                  [](OpBuilder &nb, Location nloc, ValueRange args) {
                    linalg::YieldOp::create(nb, nloc, args[0]);
                  })
                  .getResult(0);
  int64_t kk = numElements(k), oo = numElements(o);
  return {reshapeTo(b, loc, col, {groups, cg * kk, n * oo}), o};
}

/// out[N, Cout, O...] (accType) of a direct convolution of `input` [N, Cin,
/// S...] with `weight` [Cout, Cin/G, K...].
Value buildDirectConv(OpBuilder &b, Location loc, Value input, Value weight,
                      ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                      ArrayRef<int64_t> dilation, int64_t groups,
                      Type accType) {
  int64_t r = stride.size();
  ArrayRef<int64_t> ws = shapeOf(weight);
  Im2col im2col = buildIm2col(b, loc, input, ws.drop_front(2), stride, padding,
                              dilation, groups);
  ArrayRef<int64_t> o = im2col.outputSizes;
  int64_t n = shapeOf(input)[0], cout = ws[0], og = cout / groups;
  int64_t ck = shapeOf(im2col.col)[1], oo = numElements(o);
  Value w = reshapeTo(b, loc, weight, {groups, og, ck});
  Value init = filledTensor(b, loc, {groups, og, n * oo}, accType, 0.0);
  Value acc =
      linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                    ValueRange{w, im2col.col}, ValueRange{init})
          .getResult(0);
  // [G, Og, N, O...] -> [N, G, Og, O...] -> [N, Cout, O...].
  SmallVector<int64_t> split = {groups, og, n};
  split.append(o.begin(), o.end());
  acc = reshapeTo(b, loc, acc, split);
  SmallVector<int64_t> perm = {2, 0, 1};
  for (int64_t i = 0; i < r; ++i)
    perm.push_back(3 + i);
  acc = transposeTensor(b, loc, acc, perm);
  SmallVector<int64_t> outShape = {n, cout};
  outShape.append(o.begin(), o.end());
  return reshapeTo(b, loc, acc, outShape);
}

/// The weight gradient [Cout, Cin/G, K...] (accType) of the convolution
/// that takes `input` [N, Cin, S...] to an output whose gradient is
/// `gradOut` [N, Cout, O...]: per group, gradOut [Og, N O] times the
/// im2col of the input [Cin/G K, N O] transposed.
Value buildConvWeightGrad(OpBuilder &b, Location loc, Value input,
                          Value gradOut, ArrayRef<int64_t> weightShape,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation, int64_t groups,
                          Type accType) {
  int64_t r = stride.size();
  Im2col im2col = buildIm2col(b, loc, input, weightShape.drop_front(2), stride,
                              padding, dilation, groups);
  ArrayRef<int64_t> gs = shapeOf(gradOut);
  int64_t n = gs[0], cout = gs[1], og = cout / groups;
  int64_t ck = shapeOf(im2col.col)[1], no = shapeOf(im2col.col)[2];
  // [N, Cout, O...] -> [Cout, N, O...] -> [G, Og, N O].
  SmallVector<int64_t> perm = {1, 0};
  for (int64_t i = 0; i < r; ++i)
    perm.push_back(2 + i);
  Value g = reshapeTo(b, loc, transposeTensor(b, loc, gradOut, perm),
                      {groups, og, n * (no / n)});
  Value colT = transposeTensor(b, loc, im2col.col, {0, 2, 1});
  Value init = filledTensor(b, loc, {groups, og, ck}, accType, 0.0);
  Value acc =
      linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                    ValueRange{g, colT}, ValueRange{init})
          .getResult(0);
  return reshapeTo(b, loc, acc, weightShape);
}

/// The direct-convolution weight [Cout, Cin/G, K...] equivalent to the
/// transposed-convolution weight [Cin, Cout/G, K...]: flipped spatially,
/// in/out swapped per group.
Value flipTransposedWeight(OpBuilder &b, Location loc, Value weight,
                           int64_t groups) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> ws = shapeOf(weight);
  int64_t r = ws.size() - 2;
  int64_t cin = ws[0], og = ws[1], cig = cin / groups;
  // Loops: g, o, ci, k...; out[g, o, ci, k] = w[g*cig + ci, o, K-1-k], as a
  // gather (a reversed affine map would not tile).
  int64_t loops = 3 + r;
  SmallVector<int64_t> outShape = {groups, og, cig};
  for (int64_t i = 0; i < r; ++i)
    outShape.push_back(ws[2 + i]);
  Value init = emptyTensor(b, loc, outShape, elementTypeOf(weight));
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(loops, ctx)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  Value flipped =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
          maps, iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange) {
            auto c = [&](int64_t v) {
              return arith::ConstantIndexOp::create(nb, nloc, v);
            };
            auto idx = [&](int64_t d) {
              return linalg::IndexOp::create(nb, nloc, d);
            };
            SmallVector<Value> indices = {
                arith::AddIOp::create(
                    nb, nloc, arith::MulIOp::create(nb, nloc, idx(0), c(cig)),
                    idx(2)),
                idx(1)};
            for (int64_t i = 0; i < r; ++i)
              indices.push_back(arith::SubIOp::create(
                  nb, nloc, c(ws[2 + i] - 1), idx(3 + i)));
            Value v = tensor::ExtractOp::create(nb, nloc, weight, indices);
            linalg::YieldOp::create(nb, nloc, v);
          })
          .getResult(0);
  SmallVector<int64_t> shape = {groups * og, cig};
  shape.append(ws.begin() + 2, ws.end());
  return reshapeTo(b, loc, flipped, shape);
}

/// Every tp convolution op.
class ConvOpLowering : public ConversionPattern {
public:
  ConvOpLowering(MLIRContext *ctx, StringRef name)
      : ConversionPattern(name, /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " convolutions";
    FailureOr<ConvParams> params = getConvParams(op);
    if (failed(params))
      return failure();
    Type accType = computeTypeFor(resultElem);
    Value input = operands[0], weight = operands[1];
    Value bias =
        op->getNumOperands() > 2 &&
                cast<ComputeOpInterface>(op).getComputeOperands().size() > 2
            ? operands[2]
            : Value();
    int64_t r = params->spatialRank;
    if (!params->batched) {
      SmallVector<int64_t> s = {1};
      s.append(shapeOf(input).begin(), shapeOf(input).end());
      input = reshapeTo(rewriter, loc, input, s);
    }
    Value acc;
    if (!params->transposed) {
      acc = buildDirectConv(rewriter, loc, input, weight, params->stride,
                            params->padding, params->dilation, params->groups,
                            accType);
    } else {
      // Dilate the input by the stride, pad by d*(K-1) - p (+ output
      // padding on the high side), then a stride-1 convolution.
      ArrayRef<int64_t> is = shapeOf(input), ws = shapeOf(weight);
      SmallVector<int64_t> dilatedShape = {is[0], is[1]};
      for (int64_t i = 0; i < r; ++i)
        dilatedShape.push_back((is[2 + i] - 1) * params->stride[i] + 1);
      Value dilated = input;
      if (llvm::any_of(params->stride, [](int64_t s) { return s != 1; })) {
        Value zeros = filledTensor(rewriter, loc, dilatedShape,
                                   elementTypeOf(input), 0.0);
        SmallVector<OpFoldResult> offsets(r + 2, rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes,
            strides = {rewriter.getIndexAttr(1), rewriter.getIndexAttr(1)};
        for (int64_t s : is)
          sizes.push_back(rewriter.getIndexAttr(s));
        for (int64_t i = 0; i < r; ++i)
          strides.push_back(rewriter.getIndexAttr(params->stride[i]));
        dilated = tensor::InsertSliceOp::create(rewriter, loc, input, zeros,
                                                offsets, sizes, strides);
      }
      SmallVector<int64_t> lo = {0, 0}, hi = {0, 0};
      for (int64_t i = 0; i < r; ++i) {
        int64_t edge =
            params->dilation[i] * (ws[2 + i] - 1) - params->padding[i];
        lo.push_back(edge);
        hi.push_back(edge + params->outputPadding[i]);
      }
      Value padded = padOrCrop(rewriter, loc, dilated, lo, hi, 0.0);
      Value w = flipTransposedWeight(rewriter, loc, weight, params->groups);
      SmallVector<int64_t> ones(r, 1), zeros(r, 0);
      acc = buildDirectConv(rewriter, loc, padded, w, ones, zeros,
                            params->dilation, params->groups, accType);
    }
    SmallVector<Value> epilogueOperands = {acc};
    if (bias) {
      SmallVector<int64_t> s = {shapeOf(bias)[0]};
      for (int64_t i = 0; i < r; ++i)
        s.push_back(1);
      epilogueOperands.push_back(reshapeTo(rewriter, loc, bias, s));
    }
    auto outType =
        RankedTensorType::get(shapeOf(acc), resultType.getElementType());
    Value result = buildElementwise(
        rewriter, loc, outType, epilogueOperands,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value v = args[0];
          if (args.size() > 1)
            v = arith::AddFOp::create(
                b, nloc, v,
                convertToCompute(b, nloc, args[1], resultElem, accType));
          return convertScalar(b, nloc, v, resultElem);
        });
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, result, resultType.getShape()));
    return success();
  }
};

/// tp.convolution_backward: the input gradient as a tp.convolution and
/// the bias gradient as a tp.sum (legalized by this conversion), the
/// weight gradient as an im2col product accumulated in f32 for f16/bf16.
/// Results without uses are not computed.
class ConvBackwardLowering : public OpConversionPattern<ConvolutionBackwardOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvolutionBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = elementTypeOf(op.getGradWeight());
    if (!isa<FloatType>(elem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << elem << " convolutions";
    ValueRange operands = adaptor.getOperands().take_front(3);
    SmallVector<Value> results(3);
    if (!op.getGradInput().use_empty() &&
        !(results[0] = buildConvolutionInputGradient(rewriter, op, operands)))
      return rewriter.notifyMatchFailure(op, "cannot build the input gradient");
    if (!op.getGradWeight().use_empty()) {
      ConvParams p = *getConvParams(op);
      Value in = operands[1], out = operands[0];
      if (p.transposed) // the convolution that takes g to x
        std::swap(in, out);
      Value acc = buildConvWeightGrad(
          rewriter, loc, in, out, shapeOf(operands[2]), p.stride, p.padding,
          p.dilation, p.groups, computeTypeFor(elem));
      results[1] = convertTensor(rewriter, loc, acc, elem);
    }
    if (!op.getGradBias().use_empty() &&
        !(results[2] = buildConvolutionBiasGradient(rewriter, op, operands)))
      return rewriter.notifyMatchFailure(op, "cannot build the bias gradient");
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tp::populateConvToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name :
       {Conv1dOp::getOperationName(), Conv2dOp::getOperationName(),
        Conv3dOp::getOperationName(), ConvTranspose1dOp::getOperationName(),
        ConvTranspose2dOp::getOperationName(),
        ConvTranspose3dOp::getOperationName(),
        ConvolutionOp::getOperationName()})
    patterns.add<ConvOpLowering>(ctx, name);
  patterns.add<ConvBackwardLowering>(ctx);
}
