//===- FractionalPoolToLinalg.cpp - fractional max pooling ----------------===//
//
// fractional_max_pool2d/3d as tensorplay's CPU kernel computes them: per
// (batch, channel) plane and spatial dimension, the window starts of
// generate_intervals from that plane's random sample u: alpha = (in -
// pool) / (out - 1), start(i) = int((i + u) alpha) - int(u alpha) for i <
// out - 1 and in - pool for the last window, in the input's element type
// (each step rounded to bf16 / f16 as the kernel's scalar_t arithmetic
// rounds). One linalg.generic over the output computes both results: the
// window's maximum, scanned row-major (a later element wins when greater
// or NaN), and its flat index in the input plane. The samples are read in
// the kernel's order: (w, h) for 2-D, (t, h, w) for 3-D.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

template <typename OpTy>
struct FractionalMaxPoolLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput(), samples = adaptor.getRandomSamples();
    auto valuesType = cast<RankedTensorType>(op.getOutput().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    if (!cast<ShapedType>(x.getType()).hasStaticShape() ||
        !cast<ShapedType>(samples.getType()).hasStaticShape() ||
        !valuesType.hasStaticShape())
      return failure();
    Type elem = elementTypeOf(x);
    if (!isa<FloatType>(elem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << elem << " inputs (tensorplay pools floating tensors)";
    ArrayRef<int64_t> kernel = op.getKernelSize(), out = op.getOutputSize();
    ArrayRef<int64_t> inShape = shapeOf(x);
    int64_t n = out.size(), rank = inShape.size(), lead = rank - n;
    if ((int64_t)kernel.size() != n)
      return emitUnsupported(op, "expects ")
             << n << " kernel sizes, got " << kernel.size();
    SmallVector<int64_t> sizes(inShape.drop_front(lead));
    for (int64_t d = 0; d < n; ++d)
      if (kernel[d] <= 0 || kernel[d] + out[d] - 1 > sizes[d])
        return emitUnsupported(op, "needs pool size + output size - 1 <= "
                                   "input size along each spatial dimension "
                                   "(as tensorplay's), got ")
               << kernel[d] << " + " << out[d] << " - 1 > " << sizes[d]
               << " along dimension " << (lead + d);
    int64_t batch = lead == 2 ? inShape[0] : 1, channels = inShape[lead - 1];
    SmallVector<int64_t> expected = {batch, channels, n};
    if (shapeOf(samples) != ArrayRef<int64_t>(expected) ||
        elementTypeOf(samples) != elem)
      return emitUnsupported(op, "expects random_samples of type ")
             << RankedTensorType::get(expected, elem) << ", got "
             << samples.getType();

    Location loc = op.getLoc();
    Type ct = computeTypeFor(elem), i64 = rewriter.getI64Type();
    bool low = isLowPrecisionFloat(elem);
    int64_t outRank = valuesType.getRank();
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(outRank));
    SmallVector<utils::IteratorType> iterators(outRank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valuesType, indicesType}, ValueRange{},
        ValueRange{emptyTensor(rewriter, loc, valuesType.getShape(), elem),
                   emptyTensor(rewriter, loc, indicesType.getShape(), i64)},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange) {
          auto cf = [&](double v) { return scalarConstant(b, l, ct, v); };
          auto ci = [&](int64_t v) { return scalarConstant(b, l, i64, v); };
          // The kernel's scalar_t arithmetic: rounded to elem each step.
          auto round = [&](Value v) {
            return low ? convertScalar(b, l, convertScalar(b, l, v, elem), ct)
                       : v;
          };
          SmallVector<Value> idx;
          for (int64_t d = 0; d < outRank; ++d)
            idx.push_back(linalg::IndexOp::create(b, l, d));
          Value batchIdx =
              lead == 2 ? idx[0]
                        : arith::ConstantIndexOp::create(b, l, 0).getResult();
          Value plane = idx[lead - 1];
          SmallVector<Value> starts;
          for (int64_t d = 0; d < n; ++d) {
            int64_t k = n == 2 ? 1 - d : d; // 2-D samples are (w, h)
            Value u = convertScalar(
                b, l,
                tensor::ExtractOp::create(
                    b, l, samples,
                    ValueRange{batchIdx, plane,
                               arith::ConstantIndexOp::create(b, l, k)}),
                ct);
            Value last = ci(sizes[d] - kernel[d]);
            if (out[d] == 1) {
              starts.push_back(last);
              continue;
            }
            Value alpha = round(arith::DivFOp::create(
                b, l, round(cf((double)(sizes[d] - kernel[d]))),
                round(cf((double)(out[d] - 1)))));
            Value i = convertScalar(
                b, l, arith::IndexCastOp::create(b, l, i64, idx[lead + d]), ct);
            Value a = round(arith::MulFOp::create(
                b, l, round(arith::AddFOp::create(b, l, i, u)), alpha));
            Value c = round(arith::MulFOp::create(b, l, u, alpha));
            Value start = arith::SubIOp::create(
                b, l, arith::FPToSIOp::create(b, l, i64, a),
                arith::FPToSIOp::create(b, l, i64, c));
            Value isLast = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, idx[lead + d],
                arith::ConstantIndexOp::create(b, l, out[d] - 1));
            starts.push_back(
                arith::SelectOp::create(b, l, isLast, last, start));
          }
          // The flat index of a spatial position in the input plane.
          auto flat = [&](OpBuilder &nb, ArrayRef<Value> at) {
            Value f = at[0];
            for (int64_t d = 1; d < n; ++d)
              f = arith::AddIOp::create(
                  nb, l, arith::MulIOp::create(nb, l, f, ci(sizes[d])), at[d]);
            return f;
          };
          Value best = extremeConstant(b, l, ct, /*negative=*/true);
          Value bestIdx = flat(b, starts);
          // Nested loops over the window, row-major.
          std::function<std::pair<Value, Value>(
              OpBuilder &, int64_t, SmallVector<Value>, Value, Value)>
              scan = [&](OpBuilder &nb, int64_t d, SmallVector<Value> at,
                         Value v, Value vi) -> std::pair<Value, Value> {
            if (d == n) {
              SmallVector<Value> indices(idx.begin(), idx.begin() + lead);
              for (Value p : at)
                indices.push_back(
                    arith::IndexCastOp::create(nb, l, nb.getIndexType(), p));
              Value e = convertScalar(
                  nb, l, tensor::ExtractOp::create(nb, l, x, indices), ct);
              Value greater =
                  arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, e, v);
              Value nan =
                  arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, e, e);
              Value take = arith::OrIOp::create(nb, l, greater, nan);
              return {arith::SelectOp::create(nb, l, take, e, v),
                      arith::SelectOp::create(nb, l, take, flat(nb, at), vi)};
            }
            auto loop = scf::ForOp::create(
                nb, l, ci(0), ci(kernel[d]), ci(1), ValueRange{v, vi},
                [&](OpBuilder &lb, Location, Value off, ValueRange iter) {
                  SmallVector<Value> next(at);
                  next.push_back(arith::AddIOp::create(lb, l, starts[d], off));
                  auto [nv, ni] = scan(lb, d + 1, next, iter[0], iter[1]);
                  scf::YieldOp::create(lb, l, ValueRange{nv, ni});
                });
            return {loop.getResult(0), loop.getResult(1)};
          };
          auto [value, index] = scan(b, 0, {}, best, bestIdx);
          linalg::YieldOp::create(
              b, l, ValueRange{convertScalar(b, l, value, elem), index});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void mlir::tp::populateFractionalPoolToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FractionalMaxPoolLowering<FractionalMaxPool2dOp>,
               FractionalMaxPoolLowering<FractionalMaxPool3dOp>>(
      patterns.getContext());
}
