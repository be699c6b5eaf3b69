//===- DecomposeGridSample.cpp - grid_sample as gathers, for tp-autodiff --===//
//
// tp.grid_sample and aten's grid_sampler ops (bilinear / trilinear,
// nearest and bicubic; every padding mode and align_corners) as the tp ops that
// compute what GridSampleToLinalg.cpp computes: the grid's coordinates
// unnormalized (the same operations in the same order), moved by the
// padding mode (border: clamp; reflection: aten's reflect_coordinates
// with abs, floor divisions and a select, then clamp), then per corner the
// input read by tp.gather at the flattened, clamped position, weighted,
// and added where the corner lies in the input. tp-autodiff differentiates
// this form only (the CPU pipeline lowers the ops directly): gather's rule
// scatter-adds the gradient into the input, the weights' and the padding
// moves' rules give the grid its gradient, as aten's grid_sampler backward
// (zero for nearest, whose positions are integers). Bicubic (2-D) reads
// the 4 x 4 taps around the point, each tap's whole position moved by the
// padding mode, weighted by aten's cubic convolution coefficients, whose
// rules give the grid its gradient, as aten's bicubic backward.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"
#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "tensorplay/Dialect/TP/IR/CubicConvolution.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

enum class Padding { Zeros = 0, Border = 1, Reflection = 2 };

/// Elementwise tp ops on tensors of one float type (and i64 indices).
struct Builder {
  PatternRewriter &rw;
  Location loc;
  Type ft;

  Value c(double v) { return scalarTensor(rw, loc, ft, v); }
  Value ci(int64_t v) {
    return scalarTensor(rw, loc, rw.getI64Type(), static_cast<double>(v));
  }
  Value add(Value x, Value y) { return build<AddOp>(rw, loc, {x, y}); }
  Value sub(Value x, Value y) { return build<SubOp>(rw, loc, {x, y}); }
  Value mul(Value x, Value y) { return build<MulOp>(rw, loc, {x, y}); }
  Value div(Value x, Value y) { return build<DivOp>(rw, loc, {x, y}); }
  Value floor(Value x) {
    return build<DivOp>(
        rw, loc, {x, c(1)},
        {rw.getNamedAttr("rounding_mode", rw.getStringAttr("floor"))});
  }
  Value where(Value cond, Value x, Value y) {
    return build<WhereOp>(rw, loc, {cond, x, y});
  }
  Value lt(Value x, Value y) { return build<LtOp>(rw, loc, {x, y}); }
  Value le(Value x, Value y) { return build<LeOp>(rw, loc, {x, y}); }
  Value ge(Value x, Value y) { return build<GeOp>(rw, loc, {x, y}); }
  Value gt(Value x, Value y) { return build<GtOp>(rw, loc, {x, y}); }
  Value eq(Value x, Value y) { return build<EqOp>(rw, loc, {x, y}); }
  Value clamp(Value x, double lo, double hi) {
    return build<ClampOp>(rw, loc, x,
                          {f64Attr(rw, "min", lo), f64Attr(rw, "max", hi)});
  }
  /// x - y floor(x / y): remf for x >= 0 (exact while x / y < 2^p).
  Value mod(Value x, double y) {
    return sub(x, mul(floor(div(x, c(y))), c(y)));
  }

  /// grid_sampler_unnormalize, in GridSampleToLinalg's order.
  Value unnormalize(Value coord, int64_t size, bool alignCorners) {
    if (alignCorners)
      return mul(div(add(coord, c(1)), c(2)), c(size - 1));
    return div(sub(mul(add(coord, c(1)), c(size)), c(1)), c(2));
  }
  /// aten's reflect_coordinates with the bounds given twice.
  Value reflect(Value x, int64_t twiceLow, int64_t twiceHigh) {
    if (twiceLow == twiceHigh)
      return mul(x, c(0));
    double min = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
    Value in = build<AbsOp>(rw, loc, sub(x, c(min)));
    Value extra = mod(in, span);
    Value flips = floor(div(in, c(span)));
    Value even = eq(mod(flips, 2.0), c(0));
    return where(even, add(extra, c(min)), add(sub(c(span), extra), c(min)));
  }
  Value pad(Value x, int64_t size, Padding padding, bool alignCorners) {
    if (padding == Padding::Border)
      return clamp(x, 0, static_cast<double>(size - 1));
    if (padding == Padding::Reflection) {
      x = alignCorners ? reflect(x, 0, 2 * (size - 1))
                       : reflect(x, -1, 2 * size - 1);
      return clamp(x, 0, static_cast<double>(size - 1));
    }
    return x;
  }
  /// A whole-valued position as i64; outside [-2, size + 1] and NaN become
  /// -2, which every bounds check rejects (the lowering's toIndex).
  Value toIndex(Value whole, int64_t size) {
    Value ok =
        where(ge(whole, c(-2)),
              where(le(whole, c(static_cast<double>(size + 1))), whole, c(-2)),
              c(-2));
    return castTo(rw, loc, ok, rw.getI64Type());
  }
  /// round half to even of x: floor(x) + [frac > 1/2] + [frac = 1/2 and
  /// floor(x) odd], the fraction exact.
  Value roundEven(Value x) {
    Value fl = floor(x);
    Value frac = sub(x, fl);
    Value odd = build<NeOp>(rw, loc, {mod(fl, 2.0), c(0)});
    Value up = where(gt(frac, c(0.5)), c(1),
                     where(eq(frac, c(0.5)), where(odd, c(1), c(0)), c(0)));
    return add(fl, up);
  }
};

enum class Mode { Bilinear, Nearest, Bicubic };

struct Spec {
  Mode mode;
  Padding padding;
  bool alignCorners;
};

/// The sampling of input (N, C, S_0..S_n-1) at grid (N, P_0.., n).
Value sample(PatternRewriter &rw, Location loc, Value input, Value grid,
             Spec spec) {
  ArrayRef<int64_t> in = shapeOf(input), gs = shapeOf(grid);
  auto n = static_cast<int64_t>(in.size()) - 2;
  int64_t batch = in[0], channels = in[1], plane = 1, points = 1;
  SmallVector<int64_t> sizes(in.drop_front(2));
  for (int64_t s : sizes)
    plane *= s;
  for (int64_t p : gs.drop_front().drop_back())
    points *= p;
  Builder f{rw, loc, elementTypeOf(input)};
  Value flatGrid = reshape(rw, loc, grid, {batch, 1, points, n});
  // src[d]: input dimension d takes coordinate n - 1 - d, as (N, 1, P).
  SmallVector<Value> src;
  for (int64_t d = 0; d < n; ++d) {
    int64_t k = n - 1 - d;
    Value coord = reshape(rw, loc, slice(rw, loc, flatGrid, 3, k, k + 1),
                          {batch, 1, points});
    Value x = f.unnormalize(coord, sizes[d], spec.alignCorners);
    // Bicubic moves each of its taps by the padding mode instead.
    if (spec.mode != Mode::Bicubic)
      x = f.pad(x, sizes[d], spec.padding, spec.alignCorners);
    src.push_back(x);
  }
  Value values = reshape(rw, loc, input, {batch, channels, plane});
  // The input at integer positions `at` (each (N, 1, P) i64) and whether
  // they all lie in it.
  auto read = [&](ArrayRef<Value> at) -> std::pair<Value, Value> {
    Value flat, count;
    int64_t stride = plane;
    for (int64_t d = 0; d < n; ++d) {
      stride /= sizes[d];
      Value i = at[d];
      Value ok =
          f.where(f.ge(i, f.ci(0)),
                  f.where(f.lt(i, f.ci(sizes[d])), f.ci(1), f.ci(0)), f.ci(0));
      count = count ? f.add(count, ok) : ok;
      Value clamped = build<MinimumOp>(
          rw, loc,
          {build<MaximumOp>(rw, loc, {i, f.ci(0)}), f.ci(sizes[d] - 1)});
      Value term = stride == 1 ? clamped : f.mul(clamped, f.ci(stride));
      flat = flat ? f.add(flat, term) : term;
    }
    Value index = build<ExpandOp>(
        rw, loc, flat, {arrayAttr(rw, "size", {batch, channels, points})});
    Value v =
        build<GatherOp>(rw, loc, {values, index}, {i64Attr(rw, "dim", 2)});
    return {v, f.eq(count, f.ci(n))};
  };
  Value result;
  if (spec.mode == Mode::Bicubic) {
    // Rows y - 1 .. y + 2 of columns x - 1 .. x + 2, each tap moved by the
    // padding (whole positions stay whole), zero outside the input.
    Value fx = f.floor(src[1]), fy = f.floor(src[0]);
    SmallVector<Value, 4> cx = cubicConvolutionCoefficients(f,
                                                            f.sub(src[1], fx)),
                          cy = cubicConvolutionCoefficients(f,
                                                            f.sub(src[0], fy));
    for (int64_t j = 0; j < 4; ++j) {
      Value row;
      Value py = f.pad(f.add(fy, f.c(j - 1)), sizes[0], spec.padding,
                       spec.alignCorners);
      for (int64_t i = 0; i < 4; ++i) {
        Value px = f.pad(f.add(fx, f.c(i - 1)), sizes[1], spec.padding,
                         spec.alignCorners);
        auto [v, inside] =
            read({f.toIndex(py, sizes[0]), f.toIndex(px, sizes[1])});
        Value term = f.mul(f.where(inside, v, f.c(0)), cx[i]);
        row = row ? f.add(row, term) : term;
      }
      Value term = f.mul(row, cy[j]);
      result = result ? f.add(result, term) : term;
    }
  } else if (spec.mode == Mode::Nearest) {
    SmallVector<Value> at;
    for (int64_t d = 0; d < n; ++d)
      at.push_back(f.toIndex(f.roundEven(src[d]), sizes[d]));
    auto [v, inside] = read(at);
    result = f.where(inside, v, f.c(0));
  } else {
    SmallVector<Value> lo, w0, w1;
    for (int64_t d = 0; d < n; ++d) {
      Value fl = f.floor(src[d]);
      lo.push_back(f.toIndex(fl, sizes[d]));
      w0.push_back(f.sub(f.add(fl, f.c(1)), src[d]));
      w1.push_back(f.sub(src[d], fl));
    }
    for (int64_t corner = 0; corner < (1 << n); ++corner) {
      SmallVector<Value> at(n);
      Value weight;
      // Bit k of corner: +1 along coordinate k (x first), as the lowering.
      for (int64_t k = 0; k < n; ++k) {
        int64_t d = n - 1 - k;
        bool up = corner >> k & 1;
        at[d] = up ? f.add(lo[d], f.ci(1)) : lo[d];
        Value w = up ? w1[d] : w0[d];
        weight = weight ? f.mul(weight, w) : w;
      }
      auto [v, inside] = read(at);
      Value term = f.mul(v, weight);
      result = result ? f.where(inside, f.add(result, term), result)
                      : f.where(inside, term, f.c(0));
    }
  }
  SmallVector<int64_t> shape = {batch, channels};
  shape.append(gs.begin() + 1, gs.end() - 1);
  return reshape(rw, loc, result, shape);
}

LogicalResult rewriteSampling(PatternRewriter &rw, Operation *op, Value input,
                              Value grid, std::optional<Spec> spec) {
  if (!spec || (spec->mode == Mode::Bicubic && rankOf(input) != 4) ||
      !isa<FloatType>(elementTypeOf(input)) ||
      elementTypeOf(grid) != elementTypeOf(input) ||
      !cast<ShapedType>(input.getType()).hasStaticShape() ||
      !cast<ShapedType>(grid.getType()).hasStaticShape())
    return failure();
  return replaceWith(rw, op, sample(rw, op->getLoc(), input, grid, *spec));
}

std::optional<Padding> paddingOf(int64_t mode) {
  if (mode < 0 || mode > 2)
    return std::nullopt;
  return static_cast<Padding>(mode);
}

struct DecomposeGridSample : public OpRewritePattern<GridSampleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GridSampleOp op,
                                PatternRewriter &rw) const override {
    StringRef mode = op.getMode(), padding = op.getPaddingMode();
    std::optional<Padding> p = padding == "zeros"        ? paddingOf(0)
                               : padding == "border"     ? paddingOf(1)
                               : padding == "reflection" ? paddingOf(2)
                                                         : std::nullopt;
    std::optional<Mode> m = mode == "bilinear"  ? std::optional(Mode::Bilinear)
                            : mode == "nearest" ? std::optional(Mode::Nearest)
                            : mode == "bicubic" ? std::optional(Mode::Bicubic)
                                                : std::nullopt;
    std::optional<Spec> spec;
    if (m && p)
      spec = Spec{*m, *p, op.getAlignCorners()};
    return rewriteSampling(rw, op, op.getInput(), op.getGrid(), spec);
  }
};

/// aten::grid_sampler*: interpolation 0 bilinear, 1 nearest, 2 bicubic.
template <typename OpTy>
struct DecomposeGridSampler : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rw) const override {
    auto mode = static_cast<int64_t>(op.getInterpolationMode());
    std::optional<Padding> p =
        paddingOf(static_cast<int64_t>(op.getPaddingMode()));
    std::optional<Spec> spec;
    if (mode >= 0 && mode <= 2 && p)
      spec = Spec{static_cast<Mode>(mode), *p, op.getAlignCorners()};
    return rewriteSampling(rw, op, op.getInput(), op.getGrid(), spec);
  }
};

} // namespace

void mlir::tp::populateDecomposeGridSamplePatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeGridSample, DecomposeGridSampler<GridSamplerOp>,
               DecomposeGridSampler<GridSampler2dOp>,
               DecomposeGridSampler<GridSampler2dCpuFallbackOp>,
               DecomposeGridSampler<GridSampler3dOp>>(patterns.getContext());
}
