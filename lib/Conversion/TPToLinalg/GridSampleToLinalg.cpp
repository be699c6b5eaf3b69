//===- GridSampleToLinalg.cpp - grid_sample and the grid_sampler ops ------===//
//
// tp.grid_sample (string modes) and aten's grid_sampler, grid_sampler_2d,
// _grid_sampler_2d_cpu_fallback and grid_sampler_3d (integer modes) as
// tensorplay's CPU kernel (GridSampler.cpp) computes them: one
// linalg.generic over the output (N, C, grid positions) reading the grid's
// normalized coordinates (x for the last input dimension, then y, z),
// unnormalized to the input's pixel space (align_corners: -1 and 1 are the
// corner pixels' centres; otherwise their outer edges), moved by the
// padding mode (border: clipped; reflection: reflected by the borders, then
// clipped) and interpolated: bilinear / trilinear (the 2^n neighbours, each
// in bounds added with its weight, x fastest), nearest (round half to
// even) or bicubic (2-D: the 4 x 4 neighbours with aten's cubic convolution
// coefficients, A = -0.75, each neighbour's position moved by the padding
// mode). Out-of-bounds neighbours read zero. f16 / bf16 compute in f32.
// A NaN or far-away coordinate reads nothing (zeros), where tensorplay's
// integer conversion is undefined.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/CubicConvolution.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

enum class Interpolation { Bilinear = 0, Nearest = 1, Bicubic = 2 };
enum class Padding { Zeros = 0, Border = 1, Reflection = 2 };

/// Float arithmetic in the compute type inside the generic's body.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type t;
  Value c(double v) { return scalarConstant(b, loc, t, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// aten's clip_coordinates: min(size - 1, max(x, 0)).
  Value clip(Value x, int64_t size) {
    Value lo = select(cmp(arith::CmpFPredicate::OLT, x, c(0)), c(0), x);
    return select(cmp(arith::CmpFPredicate::OGT, lo, c(size - 1)), c(size - 1),
                  lo);
  }
  /// aten's reflect_coordinates with the bounds given twice.
  Value reflect(Value x, int64_t twiceLow, int64_t twiceHigh) {
    if (twiceLow == twiceHigh)
      return c(0);
    double min = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
    Value in = math::AbsFOp::create(b, loc, sub(x, c(min)));
    Value extra = arith::RemFOp::create(b, loc, in, c(span));
    Value flips = floor(div(in, c(span)));
    Value even = cmp(arith::CmpFPredicate::OEQ,
                     arith::RemFOp::create(b, loc, flips, c(2)), c(0));
    return select(even, add(extra, c(min)), add(sub(c(span), extra), c(min)));
  }
  /// grid_sampler_unnormalize.
  Value unnormalize(Value coord, int64_t size, bool alignCorners) {
    if (alignCorners)
      return mul(div(add(coord, c(1)), c(2)), c(size - 1));
    return div(sub(mul(add(coord, c(1)), c(size)), c(1)), c(2));
  }
  /// compute_coordinates: the padding mode's move.
  Value pad(Value x, int64_t size, Padding padding, bool alignCorners) {
    if (padding == Padding::Border)
      return clip(x, size);
    if (padding == Padding::Reflection) {
      x = alignCorners ? reflect(x, 0, 2 * (size - 1))
                       : reflect(x, -1, 2 * size - 1);
      return clip(x, size);
    }
    return x;
  }
};

struct Spec {
  Interpolation mode;
  Padding padding;
  bool alignCorners;
};

/// An integer position from a float one already floored or rounded: values
/// outside [-2, size + 1] (and NaN) become -2, which every bounds check
/// rejects, so the conversion is always defined.
Value toIndex(FloatMath &f, Value x, int64_t size) {
  Value ok = arith::AndIOp::create(
      f.b, f.loc, f.cmp(arith::CmpFPredicate::OGE, x, f.c(-2)),
      f.cmp(arith::CmpFPredicate::OLE, x, f.c(size + 1)));
  Value safe = f.select(ok, x, f.c(-2));
  return arith::FPToSIOp::create(f.b, f.loc, f.b.getI64Type(), safe);
}

/// The input value at integer spatial position `at` of plane (n, c), and
/// whether it lies in the input (the value is read at the clamped position).
std::pair<Value, Value> readAt(FloatMath &f, Value input, Value n, Value c,
                               ArrayRef<Value> at, ArrayRef<int64_t> sizes) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  Type i64 = b.getI64Type();
  Value inside;
  SmallVector<Value> indices = {n, c};
  for (auto [i, size] : llvm::zip(at, sizes)) {
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                     scalarConstant(b, loc, i64, 0));
    Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                     scalarConstant(b, loc, i64, size));
    Value ok = arith::AndIOp::create(b, loc, lo, hi);
    inside =
        inside ? arith::AndIOp::create(b, loc, inside, ok).getResult() : ok;
    Value clamped =
        arith::MaxSIOp::create(b, loc, i, scalarConstant(b, loc, i64, 0));
    clamped = arith::MinSIOp::create(b, loc, clamped,
                                     scalarConstant(b, loc, i64, size - 1));
    indices.push_back(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), clamped));
  }
  Value v = convertScalar(
      b, loc, tensor::ExtractOp::create(b, loc, input, indices), f.t);
  return {v, inside};
}

Value lowerGridSample(OpBuilder &b, Location loc, Value input, Value grid,
                      RankedTensorType resultType, Spec spec) {
  ArrayRef<int64_t> inShape = shapeOf(input);
  int64_t n = inShape.size() - 2;
  SmallVector<int64_t> sizes(inShape.drop_front(2));
  Type elem = resultType.getElementType();
  Type ct = computeTypeFor(elem);
  Value init = emptyTensor(b, loc, resultType.getShape(), elem);
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location l, ValueRange) {
        FloatMath f{nb, l, ct};
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(linalg::IndexOp::create(nb, l, d));
        // The grid's coordinates at (n, positions...): x, y[, z].
        SmallVector<Value> coords;
        for (int64_t k = 0; k < n; ++k) {
          SmallVector<Value> at = {idx[0]};
          at.append(idx.begin() + 2, idx.end());
          at.push_back(arith::ConstantIndexOp::create(nb, l, k));
          coords.push_back(convertScalar(
              nb, l, tensor::ExtractOp::create(nb, l, grid, at), ct));
        }
        // src[d]: input spatial dimension d takes coordinate n - 1 - d.
        SmallVector<Value> src;
        for (int64_t d = 0; d < n; ++d) {
          Value x =
              f.unnormalize(coords[n - 1 - d], sizes[d], spec.alignCorners);
          if (spec.mode != Interpolation::Bicubic)
            x = f.pad(x, sizes[d], spec.padding, spec.alignCorners);
          src.push_back(x);
        }
        Value result = f.c(0);
        if (spec.mode == Interpolation::Nearest) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < n; ++d)
            at.push_back(
                toIndex(f, math::RoundEvenOp::create(nb, l, src[d]), sizes[d]));
          auto [v, inside] = readAt(f, input, idx[0], idx[1], at, sizes);
          result = f.select(inside, v, f.c(0));
        } else if (spec.mode == Interpolation::Bilinear) {
          SmallVector<Value> lo, w0, w1;
          for (int64_t d = 0; d < n; ++d) {
            Value fl = f.floor(src[d]);
            lo.push_back(toIndex(f, fl, sizes[d]));
            w0.push_back(f.sub(f.add(fl, f.c(1)), src[d]));
            w1.push_back(f.sub(src[d], fl));
          }
          Type i64 = nb.getI64Type();
          for (int64_t corner = 0; corner < (1 << n); ++corner) {
            SmallVector<Value> at(n);
            Value weight;
            // Bit k of corner: +1 along coordinate k (x first).
            for (int64_t k = 0; k < n; ++k) {
              int64_t d = n - 1 - k;
              bool up = corner >> k & 1;
              at[d] = up ? arith::AddIOp::create(nb, l, lo[d],
                                                 scalarConstant(nb, l, i64, 1))
                               .getResult()
                         : lo[d];
              Value w = up ? w1[d] : w0[d];
              weight = weight ? f.mul(weight, w) : w;
            }
            auto [v, inside] = readAt(f, input, idx[0], idx[1], at, sizes);
            result = f.select(inside, f.add(result, f.mul(v, weight)), result);
          }
        } else {
          // Bicubic (2-D): rows y - 1 .. y + 2 of columns x - 1 .. x + 2.
          Value fx = f.floor(src[1]), fy = f.floor(src[0]);
          SmallVector<Value> cx = cubicConvolutionCoefficients(
                                 f, f.sub(src[1], fx)),
                             cy = cubicConvolutionCoefficients(
                                 f, f.sub(src[0], fy));
          Value rowsSum;
          for (int64_t j = 0; j < 4; ++j) {
            Value row;
            for (int64_t i = 0; i < 4; ++i) {
              Value px = f.pad(f.add(fx, f.c(i - 1)), sizes[1], spec.padding,
                               spec.alignCorners);
              Value py = f.pad(f.add(fy, f.c(j - 1)), sizes[0], spec.padding,
                               spec.alignCorners);
              // static_cast<int64_t>: truncation (the moved positions are
              // whole or clipped into the input).
              Value ix = toIndex(f, math::TruncOp::create(nb, l, px), sizes[1]);
              Value iy = toIndex(f, math::TruncOp::create(nb, l, py), sizes[0]);
              auto [v, inside] =
                  readAt(f, input, idx[0], idx[1], {iy, ix}, sizes);
              Value term = f.mul(f.select(inside, v, f.c(0)), cx[i]);
              row = row ? f.add(row, term) : term;
            }
            Value term = f.mul(row, cy[j]);
            rowsSum = rowsSum ? f.add(rowsSum, term) : term;
          }
          result = rowsSum;
        }
        linalg::YieldOp::create(nb, l, convertScalar(nb, l, result, elem));
      });
  return generic.getResult(0);
}

LogicalResult checkGridOperands(Operation *op, Value input, Value grid,
                                Spec spec) {
  Type elem = elementTypeOf(input);
  if (!isa<FloatType>(elem))
    return emitUnsupported(op, "has no CPU lowering for ")
           << elem << " inputs (tensorplay samples floating tensors)";
  if (elementTypeOf(grid) != elem) // (the pass refuses mixed dtypes first)
    return failure();
  if (spec.mode == Interpolation::Bicubic && rankOf(input) != 4)
    return emitUnsupported(op, "bicubic interpolation is supported only for "
                               "4-D input (as tensorplay's)");
  if (!cast<ShapedType>(input.getType()).hasStaticShape() ||
      !cast<ShapedType>(grid.getType()).hasStaticShape())
    return failure();
  return success();
}

/// Replaces `op` (operands input, grid) by its sampling with `spec`.
LogicalResult replaceBySampling(Operation *op, Value input, Value grid,
                                Spec spec,
                                ConversionPatternRewriter &rewriter) {
  if (failed(checkGridOperands(op, input, grid, spec)))
    return failure();
  rewriter.replaceOp(
      op, lowerGridSample(rewriter, op->getLoc(), input, grid,
                          cast<RankedTensorType>(op->getResult(0).getType()),
                          spec));
  return success();
}

struct GridSampleLowering : public OpConversionPattern<GridSampleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef mode = op.getMode(), padding = op.getPaddingMode();
    std::optional<Interpolation> m =
        mode == "bilinear"  ? std::optional(Interpolation::Bilinear)
        : mode == "nearest" ? std::optional(Interpolation::Nearest)
        : mode == "bicubic" ? std::optional(Interpolation::Bicubic)
                            : std::nullopt;
    std::optional<Padding> p =
        padding == "zeros"        ? std::optional(Padding::Zeros)
        : padding == "border"     ? std::optional(Padding::Border)
        : padding == "reflection" ? std::optional(Padding::Reflection)
                                  : std::nullopt;
    if (!m || !p) // the verifier's check
      return failure();
    Spec spec{*m, *p, op.getAlignCorners()};
    return replaceBySampling(op, adaptor.getInput(), adaptor.getGrid(), spec,
                             rewriter);
  }
};

/// aten::grid_sampler* with integer modes (0 bilinear, 1 nearest, 2
/// bicubic; padding 0 zeros, 1 border, 2 reflection).
template <typename OpTy>
struct GridSamplerLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mode = (int64_t)op.getInterpolationMode();
    auto padding = (int64_t)op.getPaddingMode();
    if (mode < 0 || mode > 2 || padding < 0 || padding > 2)
      return failure(); // the verifier's check
    Spec spec{static_cast<Interpolation>(mode), static_cast<Padding>(padding),
              op.getAlignCorners()};
    return replaceBySampling(op, adaptor.getInput(), adaptor.getGrid(), spec,
                             rewriter);
  }
};

} // namespace

void mlir::tp::populateGridSampleToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GridSampleLowering, GridSamplerLowering<GridSamplerOp>,
               GridSamplerLowering<GridSampler2dOp>,
               GridSamplerLowering<GridSampler2dCpuFallbackOp>,
               GridSamplerLowering<GridSampler3dOp>>(patterns.getContext());
}
