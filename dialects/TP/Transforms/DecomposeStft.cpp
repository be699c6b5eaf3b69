//===- DecomposeStft.cpp - stft as frames and a Fourier transform ---------===//
//
// stft (tensorplay's torch.stft without centering, the form the op has) of
// a real (L) or (B, L) signal: the frames x[f * hop : f * hop + n_fft]
// gathered as (.., F, n_fft), times the window (win_length values, ones by
// default, zero-padded to n_fft on both sides as tensorplay pads it: left
// (n_fft - win_length) / 2), then rfft (one-sided) or fft over each frame
// with norm "ortho" when `normalized` (tensorplay's frame_length^-0.5),
// transposed to (.., freq, F). A complex signal (or window) takes the
// two-sided fft.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

struct DecomposeStft : public OpRewritePattern<StftOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StftOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getInput();
    Type elem = elementTypeOf(x);
    if (auto complex = dyn_cast<ComplexType>(elem))
      elem = complex.getElementType();
    if (!isa<FloatType>(elem))
      return op.emitOpError("has a CPU lowering for floating and complex "
                            "signals only, got ")
             << x.getType();
    bool unbatched = rankOf(x) == 1;
    if (unbatched)
      x = unsqueeze(rewriter, loc, x, 0);
    int64_t batch = shapeOf(x)[0], length = shapeOf(x)[1];
    int64_t nFft = op.getNFft();
    int64_t hop = op.getHopLength().value_or(nFft / 4);
    int64_t win = op.getWinLength().value_or(nFft);
    int64_t frames = 1 + (length - nFft) / hop;

    // The frames: one gather of every frame's positions.
    SmallVector<int64_t> positions;
    for (int64_t f = 0; f < frames; ++f)
      for (int64_t j = 0; j < nFft; ++j)
        positions.push_back(f * hop + j);
    Value index = build<ExpandOp>(
        rewriter, loc,
        {reshape(rewriter, loc, indexTensor(rewriter, loc, positions),
                 {1, frames * nFft})},
        {rewriter.getNamedAttr(
            "size", rewriter.getDenseI64ArrayAttr({batch, frames * nFft}))});
    Value framed = reshape(rewriter, loc,
                           build<GatherOp>(rewriter, loc, {x, index},
                                           {i64Attr(rewriter, "dim", 1)}),
                           {batch, frames, nFft});

    // The window, zero-padded to n_fft.
    int64_t left = (nFft - win) / 2, right = nFft - win - left;
    Value window = op.getWindow();
    if (!window && win < nFft) {
      auto type = RankedTensorType::get({nFft}, elem);
      SmallVector<Attribute> values;
      for (int64_t j = 0; j < nFft; ++j)
        values.push_back(rewriter.getFloatAttr(
            elem, j >= left && j < left + win ? 1.0 : 0.0));
      window = makeOp<ConstantOp>(
          rewriter, loc, type, {},
          {rewriter.getNamedAttr("value",
                                 DenseElementsAttr::get(type, values))});
    } else if (window && win < nFft) {
      SmallVector<Value> parts;
      Type wElem = elementTypeOf(window);
      if (left)
        parts.push_back(
            zerosOf(rewriter, loc, RankedTensorType::get({left}, wElem)));
      parts.push_back(window);
      if (right)
        parts.push_back(
            zerosOf(rewriter, loc, RankedTensorType::get({right}, wElem)));
      window = build<CatOp>(rewriter, loc, parts,
                            {segments(rewriter, {(int32_t)parts.size(), 0}),
                             i64Attr(rewriter, "dim", 0)});
    }
    if (window)
      framed = build<MulOp>(rewriter, loc, {framed, window});

    // One transform per frame, then (.., freq, F).
    bool complexInput =
        isa<ComplexType>(elementTypeOf(op.getInput())) ||
        (op.getWindow() && isa<ComplexType>(elementTypeOf(op.getWindow())));
    bool onesided = op.getOnesided().value_or(!complexInput);
    SmallVector<NamedAttribute> attrs = {i64Attr(rewriter, "dim", -1)};
    if (op.getNormalized())
      attrs.push_back(
          rewriter.getNamedAttr("norm", rewriter.getStringAttr("ortho")));
    Value spectrum = onesided ? build<FftRfftOp>(rewriter, loc, framed, attrs)
                              : build<FftFftOp>(rewriter, loc, framed, attrs);
    Value result = transposeLast2(rewriter, loc, spectrum);
    if (unbatched)
      result = reshape(rewriter, loc, result, shapeOf(op.getResult()));
    if (result.getType() != op.getResult().getType())
      return op.emitOpError("decomposition produced ")
             << result.getType() << " instead of " << op.getResult().getType();
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void decompose::populateDecomposeStftPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeStft>(patterns.getContext());
}
