//===- TPRecurrentOps.cpp - tp RNN cells and attention --------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPRecurrentOps.cpp.inc"

static int64_t mulDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? a : a * b;
}

LogicalResult mlir::tp::inferRecurrentCellShape(RuleContext &op, int64_t gates,
                                                Value input,
                                                ArrayRef<Value> states,
                                                Value wIh, Value wHh, Value bIh,
                                                Value bHh) {
  if (failed(expectRank(op, input, "an input", 1, 2)))
    return failure();
  bool batched = rankOf(input) == 2;
  ArrayRef<int64_t> x = shapeOf(input);
  for (Value state : states) {
    if (rankOf(state) != rankOf(input))
      return op.emitOpError("hidden state must be ")
             << (batched ? "2-D for a 2-D input" : "1-D for a 1-D input")
             << ", got rank " << rankOf(state);
    if (state.getType() != states.front().getType())
      return op.emitOpError("hidden and cell states must have one type");
  }
  ArrayRef<int64_t> h = shapeOf(states.front());
  int64_t hidden = h.back();
  if (batched && failed(expectDimsMatch(op, x[0], h[0],
                                        "input and hidden batch sizes differ")))
    return failure();
  if (failed(expectRank(op, wIh, "a 2-D w_ih", 2, 2)) ||
      failed(expectRank(op, wHh, "a 2-D w_hh", 2, 2)))
    return failure();
  ArrayRef<int64_t> wi = shapeOf(wIh), wh = shapeOf(wHh);
  int64_t gateRows = mulDim(hidden, gates);
  if (failed(expectDimsMatch(op, wi[0], gateRows,
                             "w_ih must have " + std::to_string(gates) +
                                 " x hidden_size rows")) ||
      failed(expectDimsMatch(op, wi[1], x.back(),
                             "w_ih columns must equal input features")) ||
      failed(expectDimsMatch(op, wh[0], gateRows,
                             "w_hh must have " + std::to_string(gates) +
                                 " x hidden_size rows")) ||
      failed(expectDimsMatch(op, wh[1], hidden,
                             "w_hh columns must equal hidden_size")))
    return failure();
  for (Value b : {bIh, bHh}) {
    if (!b)
      continue;
    if (failed(expectRank(op, b, "a 1-D bias", 1, 1)) ||
        failed(expectDimsMatch(op, shapeOf(b)[0], gateRows,
                               "bias size must equal gates x hidden_size")))
      return failure();
  }
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    if (failed(op.setResultShape(i, h)))
      return failure();
  return success();
}

LogicalResult mlir::tp::inferMkldnnRnnLayerShape(RuleContext &op) {
  auto rnn = op.as<MkldnnRnnLayerOp>();
  if (failed(expectRank(op, rnn.getInput(), "a 3-D input", 3, 3)) ||
      failed(expectRank(op, rnn.getHx(), "a 2-D hx", 2, 2)) ||
      failed(expectRank(op, rnn.getCx(), "a 2-D cx", 2, 2)))
    return failure();
  int64_t hidden = rnn.getHiddenSize();
  if (hidden <= 0)
    return op.emitOpError("hidden_size must be positive, got ") << hidden;
  if (failed(expectDimsMatch(op, shapeOf(rnn.getHx())[1], hidden,
                             "hx last dimension must equal hidden_size")))
    return failure();
  ArrayRef<int64_t> x = shapeOf(rnn.getInput());
  // The weights of one step's cell, as the recurrent cells' rule checks
  // them (mode: 0 RNN_RELU, 1 RNN_TANH, 2 LSTM, 3 GRU).
  int64_t mode = rnn.getMode();
  if (mode < 0 || mode > 3)
    return op.emitOpError("mode must be 0 (RNN_RELU), 1 (RNN_TANH), 2 (LSTM) "
                          "or 3 (GRU), got ")
           << mode;
  int64_t gateRows = hidden * (mode == 2 ? 4 : mode == 3 ? 3 : 1);
  ArrayRef<int64_t> hx = shapeOf(rnn.getHx());
  if (shapeOf(rnn.getCx()) != hx)
    return op.emitOpError("cx must have hx's shape ")
           << formatShape(hx) << ", got " << formatShape(shapeOf(rnn.getCx()));
  if (failed(expectDimsMatch(op, x[rnn.getBatchFirst() ? 0 : 1], hx[0],
                             "input and hx batch sizes differ")) ||
      failed(expectRank(op, rnn.getWeight0(), "a 2-D weight0", 2, 2)) ||
      failed(expectRank(op, rnn.getWeight1(), "a 2-D weight1", 2, 2)))
    return failure();
  ArrayRef<int64_t> w0 = shapeOf(rnn.getWeight0()),
                    w1 = shapeOf(rnn.getWeight1());
  if (failed(expectDimsMatch(op, w0[0], gateRows,
                             "weight0 must have gates x hidden_size rows")) ||
      failed(expectDimsMatch(op, w0[1], x[2],
                             "weight0 columns must equal input features")) ||
      failed(expectDimsMatch(op, w1[0], gateRows,
                             "weight1 must have gates x hidden_size rows")) ||
      failed(expectDimsMatch(op, w1[1], hidden,
                             "weight1 columns must equal hidden_size")))
    return failure();
  if (rnn.getHasBiases())
    for (Value b : {rnn.getWeight2(), rnn.getWeight3()})
      if (failed(expectRank(op, b, "1-D biases (weight2, weight3)", 1, 1)) ||
          failed(expectDimsMatch(op, shapeOf(b)[0], gateRows,
                                 "biases must have gates x hidden_size "
                                 "elements")))
        return failure();
  (void)op.setResultShape(0, {x[0], x[1], hidden});
  (void)op.setResultShape(1, hx);
  (void)op.setResultShape(2, hx);
  // The workspace's size is oneDNN's choice: only its rank is the dialect's.
  if (Value workspace = op.getDeclaredResult(3))
    return expectRank(op, workspace, "a 1-D workspace", 1, 1);
  return success();
}

LogicalResult mlir::tp::inferAttentionShape(RuleContext &op) {
  auto sdpa = op.as<ScaledDotProductAttentionOp>();
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  Value q = sdpa.getQuery(), k = sdpa.getKey(), v = sdpa.getValue();
  if (failed(expectRank(op, q, "a query", 2, kAny)) ||
      failed(expectRank(op, k, "a key", 2, kAny)) ||
      failed(expectRank(op, v, "a value", 2, kAny)))
    return failure();
  ArrayRef<int64_t> qs = shapeOf(q), ks = shapeOf(k), vs = shapeOf(v);
  if (failed(expectDimsMatch(op, qs.back(), ks.back(),
                             "query and key embedding sizes differ")) ||
      failed(expectDimsMatch(op, ks[ks.size() - 2], vs[vs.size() - 2],
                             "key and value sequence lengths differ")))
    return failure();
  if (sdpa.getEnableGqa() && qs.size() >= 3 && ks.size() >= 3 &&
      vs.size() >= 3) {
    int64_t hq = qs[qs.size() - 3], hk = ks[ks.size() - 3],
            hv = vs[vs.size() - 3];
    bool known = !ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hk) &&
                 !ShapedType::isDynamic(hv);
    if (known && (hk <= 0 || hq % hk != 0 || hv != hk))
      return op.emitOpError("enable_gqa needs the query's head count (")
             << hq << ") to be a multiple of the key's (" << hk
             << ") and the value's (" << hv << ") to equal the key's";
  }
  double p = sdpa.getDropoutP().convertToDouble();
  if (p < 0.0 || p >= 1.0)
    return op.emitOpError("dropout_p must be in [0, 1), got ") << p;
  // The batch dimensions broadcast as the two products' (q @ k^T, then
  // probabilities @ v) do; with enable_gqa the key's and value's heads count
  // as the query's (they are repeated to it).
  SmallVector<int64_t> kb(ks.drop_back(2)), vb(vs.drop_back(2));
  if (sdpa.getEnableGqa() && qs.size() >= 3 && ks.size() >= 3 &&
      vs.size() >= 3) {
    kb.back() = qs[qs.size() - 3];
    vb.back() = qs[qs.size() - 3];
  }
  std::optional<SmallVector<int64_t>> scoresBatch =
      broadcastShapes(qs.drop_back(2), ArrayRef<int64_t>(kb));
  if (!scoresBatch)
    return op.emitOpError("the query's batch dimensions ")
           << formatShape(qs.drop_back(2)) << " and the key's "
           << formatShape(kb) << " do not broadcast";
  std::optional<SmallVector<int64_t>> outBatch =
      broadcastShapes(ArrayRef<int64_t>(*scoresBatch), ArrayRef<int64_t>(vb));
  if (!outBatch)
    return op.emitOpError("the batch dimensions of query and key ")
           << formatShape(*scoresBatch) << " and the value's "
           << formatShape(vb) << " do not broadcast";
  int64_t l = qs[qs.size() - 2], s = ks[ks.size() - 2];
  if (Value mask = sdpa.getAttnMask()) {
    if (sdpa.getIsCausal())
      return op.emitOpError("an explicit attn_mask cannot be combined with "
                            "is_causal");
    SmallVector<int64_t> target(*scoresBatch);
    target.append({l, s});
    if (!broadcastsTo(shapeOf(mask), target))
      return op.emitOpError("attn_mask of shape ")
             << formatShape(shapeOf(mask)) << " does not broadcast to "
             << formatShape(target);
  }
  SmallVector<int64_t> shape(*outBatch);
  shape.append({l, vs.back()});
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferNativeMultiHeadAttentionShape(RuleContext &op) {
  auto mha = op.as<NativeMultiHeadAttentionOp>();
  int64_t e = mha.getEmbedDim(), heads = mha.getNumHead();
  if (e <= 0 || heads <= 0 || e % heads != 0)
    return op.emitOpError("embed_dim (")
           << e << ") must be a positive multiple of num_head (" << heads
           << ")";
  Value q = mha.getQuery(), k = mha.getKey();
  if (failed(expectRank(op, q, "a 3-D query", 3, 3)) ||
      failed(expectRank(op, k, "a 3-D key", 3, 3)) ||
      failed(expectRank(op, mha.getValue(), "a 3-D value", 3, 3)) ||
      failed(expectRank(op, mha.getQkvWeight(), "a 2-D qkv_weight", 2, 2)) ||
      failed(expectRank(op, mha.getProjWeight(), "a 2-D proj_weight", 2, 2)))
    return failure();
  if (failed(expectRank(op, mha.getQkvBias(), "a 1-D qkv_bias", 1, 1)) ||
      failed(expectRank(op, mha.getProjBias(), "a 1-D proj_bias", 1, 1)))
    return failure();
  ArrayRef<int64_t> qs = shapeOf(q), ks = shapeOf(k),
                    vs = shapeOf(mha.getValue()),
                    qw = shapeOf(mha.getQkvWeight()),
                    pw = shapeOf(mha.getProjWeight());
  if (failed(expectDimsMatch(op, qs[2], e,
                             "query features must equal "
                             "embed_dim")) ||
      failed(expectDimsMatch(op, qw[0], 3 * e,
                             "qkv_weight must have 3 x embed_dim rows")) ||
      failed(expectDimsMatch(op, qw[1], e,
                             "qkv_weight must have embed_dim columns")) ||
      failed(expectDimsMatch(op, shapeOf(mha.getQkvBias())[0], 3 * e,
                             "qkv_bias must have 3 x embed_dim elements")) ||
      failed(expectDimsMatch(op, pw[0], e,
                             "proj_weight must have embed_dim rows")) ||
      failed(expectDimsMatch(op, pw[1], e,
                             "proj_weight must have embed_dim columns")) ||
      failed(expectDimsMatch(op, shapeOf(mha.getProjBias())[0], e,
                             "proj_bias must have embed_dim elements")))
    return failure();
  // Key and value: [batch, S, embed_dim], the query's batch.
  auto agree = [](int64_t a, int64_t b) {
    return a == b || ShapedType::isDynamic(a) || ShapedType::isDynamic(b);
  };
  if (!agree(ks[0], qs[0]) || !agree(ks[2], e) || !agree(vs[0], ks[0]) ||
      !agree(vs[1], ks[1]) || !agree(vs[2], e))
    return op.emitOpError("key and value must both be [batch, S, "
                          "embed_dim] with the query's batch (")
           << formatShape(qs) << "), got " << formatShape(ks) << " and "
           << formatShape(vs);
  if (Value mask = mha.getMask()) {
    if (!elementTypeOf(mask).isInteger(1))
      return op.emitOpError("mask must be boolean (true where masked), got ")
             << mask.getType();
    ArrayRef<int64_t> ms = shapeOf(mask);
    if (mha.getMaskType() && *mha.getMaskType() == 1) {
      if (ms.size() != 2 || !agree(ms[0], qs[0]) || !agree(ms[1], ks[1]))
        return op.emitOpError("a key padding mask (mask_type 1) must be "
                              "[batch, S] = ")
               << formatShape({qs[0], ks[1]}) << ", got " << formatShape(ms);
    } else if (!broadcastsTo(ms, {qs[0], heads, qs[1], ks[1]})) {
      return op.emitOpError("mask of shape ")
             << formatShape(ms) << " does not broadcast to the scores' "
             << formatShape({qs[0], heads, qs[1], ks[1]});
    }
  }
  if (failed(op.setResultShape(0, qs)))
    return failure();
  if (!mha.getNeedWeights())
    return success();
  if (mha.getAverageAttnWeights())
    return op.setResultShape(1, {qs[0], qs[1], ks[1]});
  return op.setResultShape(1, {qs[0], heads, qs[1], ks[1]});
}
