//===- DecomposeCells.cpp - recurrent cells into tp ops -------------------===//
//
// rnn_cell, gru_cell and lstm_cell as tensorplay's CPU cells compute them
// (aten's RNNCell / GRUCell / LSTMCell on the CPU): two linears, the gates
// as slices of their results, the activations and the state update, each
// op in the cell's dtype (under autocast the cell's inputs are cast once,
// and every step runs in that dtype, as in eager).
//
//===----------------------------------------------------------------------===//

#include "DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// The two gate products of a cell: linear(x, w_ih, b_ih) and
/// linear(h, w_hh, b_hh).
template <typename CellOp>
std::pair<Value, Value> gateProducts(PatternRewriter &rewriter, CellOp op) {
  Location loc = op.getLoc();
  return {linear(rewriter, loc, op.getInput(), op.getWIh(), op.getBIh()),
          linear(rewriter, loc, op.getHx(), op.getWHh(), op.getBHh())};
}

/// Gate `k` (of hidden size) of gates [..., G * hidden].
Value gate(PatternRewriter &rewriter, Location loc, Value gates, int64_t k,
           int64_t hidden) {
  return slice(rewriter, loc, gates, rankOf(gates) - 1, k * hidden,
               (k + 1) * hidden);
}

/// rnn_cell: act(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh)).
struct DecomposeRnnCell : public OpRewritePattern<RnnCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RnnCellOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value gi, gh;
    std::tie(gi, gh) = gateProducts(rewriter, op);
    Value sum = build<AddOp>(rewriter, loc, {gi, gh});
    Value h = op.getNonlinearity() == "relu"
                  ? build<ReluOp>(rewriter, loc, sum)
                  : build<TanhOp>(rewriter, loc, sum);
    rewriter.replaceOp(op, h);
    return success();
  }
};

/// gru_cell (aten's GRUCell), gates r, z, n:
///   r = sigmoid(h_r + i_r), z = sigmoid(h_z + i_z),
///   n = tanh(i_n + h_n * r), h' = (h - n) * z + n.
struct DecomposeGruCell : public OpRewritePattern<GruCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GruCellOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value h = op.getHx();
    int64_t hidden = shapeOf(h).back();
    Value gi, gh;
    std::tie(gi, gh) = gateProducts(rewriter, op);
    auto sigmoidOfSum = [&](int64_t k) {
      return build<SigmoidOp>(
          rewriter, loc,
          build<AddOp>(rewriter, loc,
                       {gate(rewriter, loc, gh, k, hidden),
                        gate(rewriter, loc, gi, k, hidden)}));
    };
    Value r = sigmoidOfSum(0), z = sigmoidOfSum(1);
    Value hn =
        build<MulOp>(rewriter, loc, {gate(rewriter, loc, gh, 2, hidden), r});
    Value n = build<TanhOp>(
        rewriter, loc,
        build<AddOp>(rewriter, loc, {gate(rewriter, loc, gi, 2, hidden), hn}));
    Value hy = build<AddOp>(
        rewriter, loc,
        {build<MulOp>(rewriter, loc, {build<SubOp>(rewriter, loc, {h, n}), z}),
         n});
    rewriter.replaceOp(op, hy);
    return success();
  }
};

/// lstm_cell (aten's LSTMCell), gates i, f, g, o of
/// linear(h, w_hh, b_hh) + linear(x, w_ih, b_ih):
///   c' = sigmoid(f) * c + sigmoid(i) * tanh(g), h' = sigmoid(o) * tanh(c').
struct DecomposeLstmCell : public OpRewritePattern<LstmCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LstmCellOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    int64_t hidden = shapeOf(op.getHx()).back();
    Value gi, gh;
    std::tie(gi, gh) = gateProducts(rewriter, op);
    Value gates = build<AddOp>(rewriter, loc, {gh, gi});
    auto act = [&](int64_t k, bool tanh) {
      Value g = gate(rewriter, loc, gates, k, hidden);
      return tanh ? build<TanhOp>(rewriter, loc, g)
                  : build<SigmoidOp>(rewriter, loc, g);
    };
    Value in = act(0, false), forget = act(1, false), cell = act(2, true),
          out = act(3, false);
    Value cy = build<AddOp>(rewriter, loc,
                            {build<MulOp>(rewriter, loc, {forget, op.getCx()}),
                             build<MulOp>(rewriter, loc, {in, cell})});
    Value hy =
        build<MulOp>(rewriter, loc, {out, build<TanhOp>(rewriter, loc, cy)});
    if (hy.getType() != op.getHy().getType() ||
        cy.getType() != op.getCy().getType())
      return op.emitOpError("decomposition produced ")
             << hy.getType() << " and " << cy.getType() << " instead of "
             << op.getHy().getType() << " and " << op.getCy().getType();
    rewriter.replaceOp(op, {hy, cy});
    return success();
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeCellPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeRnnCell, DecomposeGruCell, DecomposeLstmCell>(
      patterns.getContext());
}
