//===- DecomposeCells.cpp - recurrent cells into tp ops -------------------===//
//
// rnn_cell, gru_cell and lstm_cell as tensorplay's CPU cells compute them
// (aten's RNNCell / GRUCell / LSTMCell on the CPU): two linears, the gates
// as slices of their results, the activations and the state update, each
// op in the cell's dtype (under autocast the cell's inputs are cast once,
// and every step runs in that dtype, as in eager); mkldnn_rnn_layer (an
// LSTM layer) as one lstm_cell per time step.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

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

namespace {

/// aten::mkldnn_rnn_layer for an LSTM (mode 2, the form tensorplay's CPU
/// LSTM calls): one lstm_cell per time step, forward or (reverse) from the
/// last step, with weight0 / weight1 the input and hidden weights and
/// weight2 / weight3 their biases (has_biases); the output holds each
/// step's h at its time position. The workspace (oneDNN's training state,
/// read by no tp op) is zeros of its declared type.
struct DecomposeMkldnnRnnLayer : public OpRewritePattern<MkldnnRnnLayerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MkldnnRnnLayerOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    if ((int64_t)op.getMode() != 2)
      return op.emitOpError("has no CPU lowering for mode ")
             << (int64_t)op.getMode()
             << ": tensorplay's CPU calls mkldnn_rnn_layer for LSTMs (mode 2)";
    if (!op.getBatchSizes().empty())
      return op.emitOpError("has no CPU lowering for packed sequences "
                            "(batch_sizes)");
    Location loc = op.getLoc();
    Value x = op.getInput();
    if (op.getBatchFirst())
      x = build<TransposeOp>(
          rewriter, loc, x,
          {i64Attr(rewriter, "dim0", 0), i64Attr(rewriter, "dim1", 1)});
    ArrayRef<int64_t> xs = shapeOf(x);
    int64_t steps = xs[0];
    if (ShapedType::isDynamic(steps))
      return failure();
    bool biases = op.getHasBiases();
    Value h = op.getHx(), c = op.getCx();
    SmallVector<Value> outputs(steps);
    for (int64_t i = 0; i < steps; ++i) {
      int64_t t = op.getReverse() ? steps - 1 - i : i;
      Value xt = reshape(rewriter, loc, slice(rewriter, loc, x, 0, t, t + 1),
                         xs.drop_front());
      SmallVector<Value> operands = {xt, h, c, op.getWeight0(),
                                     op.getWeight1()};
      if (biases)
        operands.append({op.getWeight2(), op.getWeight3()});
      Operation *cell =
          LstmCellOp::create(rewriter, loc, operands,
                             {segments(rewriter, {1, 1, 1, 1, 1, biases ? 1 : 0,
                                                  biases ? 1 : 0, 0})});
      h = cell->getResult(0);
      c = cell->getResult(1);
      outputs[t] = h;
    }
    Value output = build<StackOp>(
        rewriter, loc, outputs,
        {segments(rewriter, {(int32_t)steps, 0}), i64Attr(rewriter, "dim", 0)});
    if (op.getBatchFirst())
      output = build<TransposeOp>(
          rewriter, loc, output,
          {i64Attr(rewriter, "dim0", 0), i64Attr(rewriter, "dim1", 1)});
    Value workspace = zerosOf(
        rewriter, loc, cast<RankedTensorType>(op.getWorkspace().getType()));
    if (output.getType() != op.getOutput().getType() ||
        h.getType() != op.getHy().getType() ||
        c.getType() != op.getCy().getType())
      return op.emitOpError("decomposition produced ")
             << output.getType() << ", " << h.getType() << " and "
             << c.getType() << " instead of the op's result types";
    rewriter.replaceOp(op, {output, h, c, workspace});
    return success();
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeCellPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeRnnCell, DecomposeGruCell, DecomposeLstmCell,
               DecomposeMkldnnRnnLayer>(patterns.getContext());
}
