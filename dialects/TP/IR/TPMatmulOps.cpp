//===- TPMatmulOps.cpp - tp matrix-product ops ----------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPMatmulOps.cpp.inc"

static constexpr int64_t kAnyRank = std::numeric_limits<int64_t>::max();

/// Computes the shape of the product of `lhs` and `rhs` under `kind`.
static LogicalResult productShape(RuleContext &op, MatmulKind kind, Value lhs,
                                  Value rhs, SmallVectorImpl<int64_t> &shape) {
  ArrayRef<int64_t> a = shapeOf(lhs), b = shapeOf(rhs);
  auto contract = [&](int64_t x, int64_t y) {
    return expectDimsMatch(op, x, y,
                           "contracting dimensions of the operands differ");
  };
  switch (kind) {
  case MatmulKind::Mm:
    if (failed(expectRank(op, lhs, "a 2-D first matrix", 2, 2)) ||
        failed(expectRank(op, rhs, "a 2-D second matrix", 2, 2)) ||
        failed(contract(a[1], b[0])))
      return failure();
    shape.assign({a[0], b[1]});
    return success();
  case MatmulKind::Bmm:
  case MatmulKind::Addbmm:
    if (failed(expectRank(op, lhs, "a 3-D first batch", 3, 3)) ||
        failed(expectRank(op, rhs, "a 3-D second batch", 3, 3)) ||
        failed(expectDimsMatch(op, a[0], b[0], "batch sizes differ")) ||
        failed(contract(a[2], b[1])))
      return failure();
    if (kind == MatmulKind::Bmm)
      shape.assign({a[0], a[1], b[2]});
    else
      shape.assign({a[1], b[2]});
    return success();
  case MatmulKind::Mv:
    if (failed(expectRank(op, lhs, "a 2-D matrix", 2, 2)) ||
        failed(expectRank(op, rhs, "a 1-D vector", 1, 1)) ||
        failed(contract(a[1], b[0])))
      return failure();
    shape.assign({a[0]});
    return success();
  case MatmulKind::Dot:
    if (failed(expectRank(op, lhs, "a 1-D first vector", 1, 1)) ||
        failed(expectRank(op, rhs, "a 1-D second vector", 1, 1)) ||
        failed(contract(a[0], b[0])))
      return failure();
    shape.clear();
    return success();
  case MatmulKind::Outer:
    if (failed(expectRank(op, lhs, "a 1-D first vector", 1, 1)) ||
        failed(expectRank(op, rhs, "a 1-D second vector", 1, 1)))
      return failure();
    shape.assign({a[0], b[0]});
    return success();
  case MatmulKind::Matmul:
  case MatmulKind::MultiDot: {
    if (failed(expectRank(op, lhs, "a first operand", 1, kAnyRank)) ||
        failed(expectRank(op, rhs, "a second operand", 1, kAnyRank)))
      return failure();
    // Promote 1-D operands to matrices and drop the added dimension after.
    SmallVector<int64_t> l(a), r(b);
    bool lhsVector = l.size() == 1, rhsVector = r.size() == 1;
    if (lhsVector)
      l.insert(l.begin(), 1);
    if (rhsVector)
      r.push_back(1);
    if (failed(contract(l.back(), r[r.size() - 2])))
      return failure();
    SmallVector<int64_t> batch;
    ArrayRef<int64_t> lb = ArrayRef(l).drop_back(2),
                      rb = ArrayRef(r).drop_back(2);
    if (failed(broadcastShapes({lb, rb}, batch)))
      return op.emitOpError("batch dimensions ")
             << formatShape(lb) << " and " << formatShape(rb)
             << " are not broadcastable";
    shape.assign(batch.begin(), batch.end());
    if (!lhsVector)
      shape.push_back(l[l.size() - 2]);
    if (!rhsVector)
      shape.push_back(r.back());
    return success();
  }
  }
  llvm_unreachable("unknown matmul kind");
}

LogicalResult mlir::tp::inferProductShape(RuleContext &op, MatmulKind kind,
                                          Value self, Value lhs, Value rhs) {
  SmallVector<int64_t> shape;
  if (failed(productShape(op, kind, lhs, rhs, shape)))
    return failure();
  if (self) {
    if (!broadcastsTo(shapeOf(self), shape))
      return op.emitOpError("self of shape ")
             << formatShape(shapeOf(self))
             << " does not broadcast to the product shape "
             << formatShape(shape);
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferChainShape(RuleContext &op, ValueRange tensors,
                                        MatmulKind kind) {
  if (tensors.empty() || (kind == MatmulKind::MultiDot && tensors.size() < 2))
    return op.emitOpError("expected ")
           << (kind == MatmulKind::MultiDot ? "at least 2 tensors"
                                            : "at least 1 tensor");
  for (auto [i, t] : llvm::enumerate(tensors)) {
    bool end = i == 0 || i + 1 == tensors.size();
    int64_t minRank = kind == MatmulKind::MultiDot && end ? 1 : 2;
    if (failed(expectRank(
            op, t, "chain operand " + std::to_string(i) + " to be a matrix",
            minRank, 2)))
      return failure();
  }
  SmallVector<int64_t> shape(shapeOf(tensors.front()));
  bool firstVector = shape.size() == 1;
  if (firstVector)
    shape.insert(shape.begin(), 1);
  for (Value t : tensors.drop_front()) {
    SmallVector<int64_t> next(shapeOf(t));
    bool vector = next.size() == 1;
    if (vector)
      next.push_back(1);
    if (failed(expectDimsMatch(op, shape[1], next[0],
                               "chained matrices do not line up")))
      return failure();
    shape = {shape[0], next[1]};
    if (vector)
      shape.pop_back();
  }
  if (firstVector)
    shape.erase(shape.begin());
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferLinearShape(RuleContext &op) {
  auto linear = op.as<LinearOp>();
  Value input = linear.getInput(), weight = linear.getWeight();
  if (failed(expectRank(op, input, "an input", 1, kAnyRank)) ||
      failed(expectRank(op, weight, "a weight", 1, 2)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(input), w = shapeOf(weight);
  if (failed(expectDimsMatch(op, x.back(), w.back(),
                             "input features and weight columns differ")))
    return failure();
  SmallVector<int64_t> shape(x.drop_back());
  if (w.size() == 2)
    shape.push_back(w[0]);
  if (Value bias = linear.getBias()) {
    if (!broadcastsTo(shapeOf(bias), shape))
      return op.emitOpError("bias of shape ")
             << formatShape(shapeOf(bias)) << " does not broadcast to "
             << formatShape(shape);
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferBilinearShape(RuleContext &op) {
  auto bilinear = op.as<BilinearOp>();
  Value x1 = bilinear.getInput1(), x2 = bilinear.getInput2(),
        w = bilinear.getWeight();
  if (failed(expectRank(op, x1, "input1", 1, kAnyRank)) ||
      failed(expectRank(op, x2, "input2", 1, kAnyRank)) ||
      failed(expectRank(op, w, "a 3-D weight", 3, 3)))
    return failure();
  ArrayRef<int64_t> a = shapeOf(x1), b = shapeOf(x2), ws = shapeOf(w);
  if (failed(expectDimsMatch(op, a.back(), ws[1],
                             "input1 features and weight dim 1 differ")) ||
      failed(expectDimsMatch(op, b.back(), ws[2],
                             "input2 features and weight dim 2 differ")))
    return failure();
  if (a.drop_back() != b.drop_back())
    return op.emitOpError("input1 and input2 batch shapes differ: ")
           << formatShape(a.drop_back()) << " vs "
           << formatShape(b.drop_back());
  if (Value bias = bilinear.getBias())
    if (failed(expectRank(op, bias, "a 1-D bias", 1, 1)) ||
        failed(expectDimsMatch(op, shapeOf(bias)[0], ws[0],
                               "bias size and output features differ")))
      return failure();
  SmallVector<int64_t> shape(a.drop_back());
  shape.push_back(ws[0]);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferTensordotShape(RuleContext &op) {
  auto td = op.as<TensordotOp>();
  ArrayRef<int64_t> a = shapeOf(td.getInput()), b = shapeOf(td.getOther());
  ArrayRef<int64_t> da = td.getDimsSelf(), db = td.getDimsOther();
  if (da.size() != db.size())
    return op.emitOpError("dims_self and dims_other must have the same "
                          "length, got ")
           << da.size() << " and " << db.size();
  llvm::SmallSet<int64_t, 4> usedA, usedB;
  for (auto [x, y] : llvm::zip_equal(da, db)) {
    FailureOr<int64_t> i = normalizeDim(op, x, a.size(), "dims_self entry");
    FailureOr<int64_t> j = normalizeDim(op, y, b.size(), "dims_other entry");
    if (failed(i) || failed(j))
      return failure();
    if (!usedA.insert(*i).second || !usedB.insert(*j).second)
      return op.emitOpError("contracted dimensions must be distinct");
    if (failed(expectDimsMatch(op, a[*i], b[*j],
                               "contracted dimensions differ in size")))
      return failure();
  }
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(a))
    if (!usedA.count(i))
      shape.push_back(d);
  for (auto [j, d] : llvm::enumerate(b))
    if (!usedB.count(j))
      shape.push_back(d);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferVecdotShape(RuleContext &op) {
  auto vd = op.as<LinalgVecdotOp>();
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes({shapeOf(vd.getX()), shapeOf(vd.getY())}, shape)))
    return op.emitOpError("x and y are not broadcastable");
  FailureOr<int64_t> dim = normalizeDim(op, vd.getDim(), shape.size());
  if (failed(dim) || shape.empty())
    return shape.empty() ? op.emitOpError("expected operands of rank >= 1")
                         : failure();
  shape.erase(shape.begin() + *dim);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferPreluShape(RuleContext &op) {
  auto prelu = op.as<PreluOp>();
  Value input = prelu.getInput(), weight = prelu.getWeight();
  if (failed(expectRank(op, weight, "a weight", 0, 1)))
    return failure();
  int64_t numWeights = rankOf(weight) == 0 ? 1 : shapeOf(weight)[0];
  if (numWeights != 1 && !ShapedType::isDynamic(numWeights)) {
    ArrayRef<int64_t> x = shapeOf(input);
    int64_t channels = x.size() >= 2 ? x[1] : (x.size() == 1 ? x[0] : 1);
    if (failed(expectDimsMatch(op, numWeights, channels,
                               "number of weights must be 1 or the number "
                               "of input channels")))
      return failure();
  }
  return op.setResultShape(0, shapeOf(input));
}

LogicalResult mlir::tp::inferCrossShape(RuleContext &op) {
  auto cross = op.as<CrossOp>();
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(
          {shapeOf(cross.getInput()), shapeOf(cross.getOther())}, shape)))
    return op.emitOpError("input and other are not broadcastable");
  int64_t rank = shape.size();
  std::optional<int64_t> dim;
  if (std::optional<int64_t> given = cross.getDim()) {
    FailureOr<int64_t> d = normalizeDim(op, *given, rank);
    if (failed(d))
      return failure();
    dim = *d;
  } else {
    for (int64_t i = 0; i < rank && !dim; ++i)
      if (shape[i] == 3)
        dim = i;
  }
  if (!dim || (shape[*dim] != 3 && !ShapedType::isDynamic(shape[*dim])))
    return op.emitOpError("expected a dimension of size 3 to take the cross "
                          "product along");
  // Only the other dimensions broadcast: both operands have size 3 there.
  for (Value operand : {cross.getInput(), cross.getOther()}) {
    ArrayRef<int64_t> own = shapeOf(operand);
    int64_t at = (int64_t)own.size() - (rank - *dim);
    if (at < 0 || (own[at] != 3 && !ShapedType::isDynamic(own[at])))
      return op.emitOpError("expected both operands to have size 3 along "
                            "dim ")
             << *dim << ", got " << operand.getType();
  }
  return op.setResultShape(0, shape);
}
