//===- BackwardRulesProducts.cpp - Rules of the matrix products -----------===//
//
// The backward of mm, bmm, matmul (any ranks, broadcast batch dimensions,
// 1-D operands), mv, dot, linear, linalg_vecdot and the add-product forms
// (addmm, baddbmm, addbmm, addmv, addr), tensordot and bilinear: each
// operand's gradient is a product of the result's gradient with the other
// operand, in the forward's dtype, summed over the dimensions the forward
// broadcast.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// The product x @ y, as the plainest op that computes it (mm for
/// matrices, bmm for equal batches of matrices, matmul otherwise).
Value product(Rule &r, Value x, Value y) {
  if (!x || !y)
    return {};
  int64_t rx = rankOf(x), ry = rankOf(y);
  if (rx == 2 && ry == 2)
    return r.make<MmOp>({x, y});
  if (rx == 3 && ry == 3 && shapeOf(x)[0] == shapeOf(y)[0])
    return r.make<BmmOp>({x, y});
  return r.make<MatmulOp>({x, y});
}

/// The gradients of a and b in g = alpha * (a @ b) with torch.matmul's
/// rank rules: 1-D operands are promoted to matrices (and g gets the
/// dropped dimension back), batch dimensions are summed back to each
/// operand's own.
void giveMatmul(Rule &r, Value a, Value b, Value g, double alpha) {
  int64_t ra = rankOf(a), rb = rankOf(b);
  Value a2 = ra == 1 ? r.reshape(a, {1, shapeOf(a)[0]}) : a;
  Value b2 = rb == 1 ? r.reshape(b, {shapeOf(b)[0], 1}) : b;
  SmallVector<int64_t> gShape(shapeOf(g));
  if (rb == 1)
    gShape.push_back(1);
  if (ra == 1)
    gShape.insert(gShape.end() - 1, 1);
  Value g2 = r.reshape(r.scale(g, alpha), gShape);
  if (r.active(a)) {
    Value da = product(r, g2, r.transposeLast(b2));
    if (da && ra == 1)
      da = r.reshape(r.b.unbroadcast(r.op, da, a2), shapeOf(a));
    r.give(a, da);
  }
  if (r.active(b)) {
    Value db = product(r, r.transposeLast(a2), g2);
    if (db && rb == 1)
      db = r.reshape(r.b.unbroadcast(r.op, db, b2), shapeOf(b));
    r.give(b, db);
  }
}

LogicalResult linearRule(Rule &r, LinearOp linear) {
  Value x = linear.getInput(), w = linear.getWeight(), g = r.grad;
  ArrayRef<int64_t> xs = shapeOf(x);
  if (rankOf(w) != 2)
    return linear.emitOpError("tp-autodiff: the backward of tp.linear is "
                              "implemented for a 2-D weight only so far");
  int64_t out = shapeOf(w)[0], in = shapeOf(w)[1];
  int64_t rows = 1;
  for (int64_t d : xs.drop_back())
    rows *= d;
  // y = x w^T + b over flattened rows: dx = g w, dw = g^T x, db = sum g.
  Value g2 = r.reshape(g, {rows, out});
  Value x2 = r.reshape(x, {rows, in});
  if (r.active(x))
    r.give(x, r.reshape(r.make<MmOp>({g2, w}), xs));
  if (r.active(w))
    r.give(w, r.make<MmOp>({r.transposeLast(g2), x2}));
  if (Value bias = linear.getBias())
    r.give(bias, r.sumAlong(g2, {0}, /*keepdim=*/false));
  return success();
}

/// addbmm: beta * input + alpha * sum_i batch1[i] @ batch2[i]. Each batch
/// entry gets the same result gradient.
void giveAddbmm(Rule &r, Value b1, Value b2, double alpha) {
  int64_t batch = shapeOf(b1)[0];
  ArrayRef<int64_t> gs = shapeOf(r.grad);
  Value g3 = r.expand(r.reshape(r.scale(r.grad, alpha), {1, gs[0], gs[1]}),
                      {batch, gs[0], gs[1]});
  if (r.active(b1))
    r.give(b1, product(r, g3, r.transposeLast(b2)));
  if (r.active(b2))
    r.give(b2, product(r, r.transposeLast(b1), g3));
}

LogicalResult addProductRule(Rule &r) {
  Operation *op = r.op;
  Value input = op->getOperand(0), x = op->getOperand(1),
        y = op->getOperand(2);
  double beta =
      op->getAttrOfType<FloatAttr>("beta").getValue().convertToDouble();
  double alpha =
      op->getAttrOfType<FloatAttr>("alpha").getValue().convertToDouble();
  // beta = 0 ignores the input (PyTorch gives it a zero gradient).
  if (beta != 0.0)
    r.give(input, r.scale(r.grad, beta));
  if (isa<AddbmmOp>(op)) {
    giveAddbmm(r, x, y, alpha);
  } else if (isa<AddrOp>(op)) {
    // outer(u, v): du = g v, dv = g^T u.
    Value g = r.scale(r.grad, alpha);
    r.give(x, r.make<MvOp>({g, y}));
    r.give(y, r.make<MvOp>({r.transposeLast(g), x}));
  } else {
    giveMatmul(r, x, y, r.grad, alpha);
  }
  return success();
}

/// linalg_vecdot(x, y, dim) = sum(x * y, dim) after broadcasting.
LogicalResult vecdotRule(Rule &r, LinalgVecdotOp vecdot) {
  Value x = vecdot.getX(), y = vecdot.getY();
  SmallVector<int64_t> kept(shapeOf(r.grad));
  int64_t rank = static_cast<int64_t>(kept.size()) + 1;
  // (I64Attr getters return unsigned values.)
  auto dim = static_cast<int64_t>(vecdot.getDim());
  if (dim < 0)
    dim += rank;
  kept.insert(kept.begin() + dim, 1);
  Value g = r.reshape(r.grad, kept);
  r.give(x, r.mul(g, y));
  r.give(y, r.mul(g, x));
  return success();
}
/// tensordot: the result's dims are a's free dims, then b's. da is the
/// contraction of g's b-part with b's free dims, permuted back to a's order
/// (its remaining dims come in b's order); db likewise.
LogicalResult tensordotRule(Rule &r, TensordotOp dot) {
  Value a = dot.getInput(), b = dot.getOther(), g = r.grad;
  int64_t ra = rankOf(a), rb = rankOf(b);
  SmallVector<int64_t> ca, cb;
  for (int64_t d : dot.getDimsSelf())
    ca.push_back(normalizeDim(d, ra));
  for (int64_t d : dot.getDimsOther())
    cb.push_back(normalizeDim(d, rb));
  auto freeDims = [](int64_t rank, ArrayRef<int64_t> contracted) {
    SmallVector<int64_t> free;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(contracted, d))
        free.push_back(d);
    return free;
  };
  SmallVector<int64_t> fa = freeDims(ra, ca), fb = freeDims(rb, cb);
  auto nfa = static_cast<int64_t>(fa.size());
  OpBuilder &builder = r.b.builder;
  auto contract = [&](Value x, Value y, ArrayRef<int64_t> dx,
                      ArrayRef<int64_t> dy) {
    return r.make<TensordotOp>(
        {x, y}, {r.attr("dims_self", builder.getDenseI64ArrayAttr(dx)),
                 r.attr("dims_other", builder.getDenseI64ArrayAttr(dy))});
  };
  // The permutation taking `result` (dims `order`, each an operand dim) to
  // the operand's own order.
  auto toOrder = [&](Value result, ArrayRef<int64_t> order) {
    return r.permute(result, invertPermutationVector(order));
  };
  auto position = [](ArrayRef<int64_t> list, int64_t v) {
    return static_cast<size_t>(llvm::find(list, v) - list.begin());
  };
  if (r.active(a)) {
    SmallVector<int64_t> gDims;
    for (size_t j = 0; j < fb.size(); ++j)
      gDims.push_back(nfa + static_cast<int64_t>(j));
    // Result dims: fa, then b's contracted dims in b's order.
    SmallVector<int64_t> order(fa);
    SmallVector<int64_t> sortedCb(cb);
    llvm::sort(sortedCb);
    for (int64_t d : sortedCb)
      order.push_back(ca[position(cb, d)]);
    r.give(a, toOrder(contract(g, b, gDims, fb), order));
  }
  if (r.active(b)) {
    SmallVector<int64_t> gDims;
    for (int64_t j = 0; j < nfa; ++j)
      gDims.push_back(j);
    // Result dims: a's contracted dims in a's order, then fb.
    SmallVector<int64_t> order;
    SmallVector<int64_t> sortedCa(ca);
    llvm::sort(sortedCa);
    for (int64_t d : sortedCa)
      order.push_back(cb[position(ca, d)]);
    order.append(fb.begin(), fb.end());
    r.give(b, toOrder(contract(a, g, fa, gDims), order));
  }
  return success();
}

/// bilinear: y[n, o] = x1[n, i] W[o, i, j] x2[n, j] + b[o] over flattened
/// leading dims n: dx1 = g[n, o] (x2 W^T)[n, o, i], dx2 likewise, dW =
/// g^T (x1 outer x2), db = sum(g).
LogicalResult bilinearRule(Rule &r, BilinearOp bl) {
  Value x1 = bl.getInput1(), x2 = bl.getInput2(), w = bl.getWeight(),
        bias = bl.getBias();
  ArrayRef<int64_t> ws = shapeOf(w);
  int64_t outs = ws[0], in1 = ws[1], in2 = ws[2];
  int64_t n = numElementsOrDynamic(shapeOf(x1)) / in1;
  Value a = r.reshape(x1, {n, in1}), c = r.reshape(x2, {n, in2});
  Value g = r.reshape(r.grad, {n, outs});
  Value g3 = r.reshape(g, {n, 1, outs});
  if (r.active(x1)) {
    Value u =
        r.make<MmOp>({c, r.transposeLast(r.reshape(w, {outs * in1, in2}))});
    Value d = r.make<BmmOp>({g3, r.reshape(u, {n, outs, in1})});
    r.give(x1, r.reshape(d, shapeOf(x1)));
  }
  if (r.active(x2)) {
    Value wt = r.reshape(r.transposeLast(w), {outs * in2, in1});
    Value v = r.make<MmOp>({a, r.transposeLast(wt)});
    Value d = r.make<BmmOp>({g3, r.reshape(v, {n, outs, in2})});
    r.give(x2, r.reshape(d, shapeOf(x2)));
  }
  if (r.active(w)) {
    Value outer = r.mul(r.reshape(a, {n, in1, 1}), r.reshape(c, {n, 1, in2}));
    Value d =
        r.make<MmOp>({r.transposeLast(g), r.reshape(outer, {n, in1 * in2})});
    r.give(w, r.reshape(d, ws));
  }
  if (bias && r.active(bias))
    r.give(bias, r.sumAlong(g, {0}, /*keepdim=*/false));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyProductRule(Rule &r) {
  Operation *op = r.op;
  if (isa<MmOp, BmmOp, MatmulOp, MvOp, DotOp>(op)) {
    giveMatmul(r, op->getOperand(0), op->getOperand(1), r.grad, 1.0);
    return success();
  }
  if (auto linear = dyn_cast<LinearOp>(op))
    return linearRule(r, linear);
  if (auto dot = dyn_cast<TensordotOp>(op))
    return tensordotRule(r, dot);
  if (auto bl = dyn_cast<BilinearOp>(op))
    return bilinearRule(r, bl);
  if (isa<AddmmOp, BaddbmmOp, AddbmmOp, AddmvOp, AddrOp>(op))
    return addProductRule(r);
  if (auto vecdot = dyn_cast<LinalgVecdotOp>(op))
    return vecdotRule(r, vecdot);
  return std::nullopt;
}
