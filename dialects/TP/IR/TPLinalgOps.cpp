//===- TPLinalgOps.cpp - tp linear algebra, FFT, complex ------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPLinalgOps.cpp.inc"

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
static constexpr int64_t kAnyRank = std::numeric_limits<int64_t>::max();

static LogicalResult expectMatrix(RuleContext &op, Value v, StringRef what,
                                  bool square) {
  if (failed(expectRank(op, v, what, 2, kAnyRank)))
    return failure();
  ArrayRef<int64_t> s = shapeOf(v);
  if (square)
    return expectDimsMatch(op, s[s.size() - 2], s.back(),
                           what + Twine(" must be square"));
  return success();
}

/// The reflectors (*, rows, cols) and tau (*, k) of orgqr /
/// householder_product (`other` null: rows >= cols >= k) or ormqr (other
/// (*, m, n): rows = m (left) or n (right), k <= cols and k <= rows):
/// tensorplay's checks, batches equal to the reflectors'.
static LogicalResult householderShapes(RuleContext &op, Value input, Value tau,
                                       Value other, bool left) {
  if (failed(expectMatrix(op, input, "the reflectors", false)) ||
      failed(expectRank(op, tau, "tau", 1, kAnyRank)) ||
      (other && failed(expectMatrix(op, other, "other", false))))
    return failure();
  ArrayRef<int64_t> a = shapeOf(input), t = shapeOf(tau);
  int64_t rows = a.end()[-2], cols = a.back(), k = t.back();
  auto known = [](int64_t x, int64_t y) { return !isDyn(x) && !isDyn(y); };
  auto sameBatch = [&](ArrayRef<int64_t> batch,
                       StringRef what) -> LogicalResult {
    ArrayRef<int64_t> mine = a.drop_back(2);
    if (batch.size() == mine.size() &&
        llvm::equal(batch, mine, [](int64_t x, int64_t y) {
          return isDyn(x) || isDyn(y) || x == y;
        }))
      return success();
    auto text = [](ArrayRef<int64_t> b) {
      return b.empty() ? std::string("none") : formatShape(b);
    };
    return op.emitOpError("expected the batch dimensions of ")
           << what << " (" << text(batch)
           << ") to equal those of the reflectors (" << text(mine) << ")";
  };
  if (failed(sameBatch(t.drop_back(), "tau")))
    return failure();
  if (!other) {
    if (known(rows, cols) && rows < cols)
      return op.emitOpError("the reflectors must have at least as many rows "
                            "as columns, got ")
             << formatShape(a);
    if (known(cols, k) && cols < k)
      return op.emitOpError("tau must have at most as many entries as the "
                            "reflectors have columns, got ")
             << k << " for " << formatShape(a);
    return success();
  }
  ArrayRef<int64_t> c = shapeOf(other);
  if (failed(sameBatch(c.drop_back(2), "other")))
    return failure();
  int64_t side = left ? c.end()[-2] : c.back();
  if (known(rows, side) && rows != side)
    return op.emitOpError("the reflectors must have ")
           << side << " rows (other's " << (left ? "rows" : "columns")
           << "), got " << formatShape(a);
  if (known(k, std::min(rows, cols)) && k > std::min(rows, cols))
    return op.emitOpError("tau must have at most min(rows, columns) = ")
           << std::min(rows, cols) << " entries, got " << k;
  return success();
}

/// Shape of the solution of a system whose matrix is `a` and rhs is `b`.
static LogicalResult solveShape(RuleContext &op, Value a, Value b, bool left,
                                SmallVectorImpl<int64_t> &shape) {
  if (failed(expectMatrix(op, a, "the coefficient matrix", true)) ||
      failed(expectRank(op, b, "the right-hand side", 1, kAnyRank)))
    return failure();
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  int64_t n = as.back();
  bool vector = bs.size() == 1 || (bs.size() == as.size() - 1 &&
                                   bs.drop_back() == as.drop_back(2));
  if (vector) {
    if (failed(expectDimsMatch(op, bs.back(), n,
                               "right-hand side size must match the matrix")))
      return failure();
    shape.assign(bs.begin(), bs.end());
    return success();
  }
  int64_t rows = left ? bs[bs.size() - 2] : bs.back();
  if (failed(expectDimsMatch(op, rows, n,
                             "right-hand side rows must match the matrix")))
    return failure();
  SmallVector<int64_t> batch;
  if (failed(broadcastShapes({as.drop_back(2), bs.drop_back(2)}, batch)))
    return op.emitOpError("batch dimensions are not broadcastable");
  shape.assign(batch.begin(), batch.end());
  shape.append(bs.end() - 2, bs.end());
  return success();
}

/// min(a, b) of two sizes, dynamic when either is.
static int64_t minDim(int64_t a, int64_t b) {
  return isDyn(a) || isDyn(b) ? ShapedType::kDynamic : std::min(a, b);
}

/// A batch shape followed by `dims`.
static SmallVector<int64_t> batchThen(ArrayRef<int64_t> batch,
                                      ArrayRef<int64_t> dims) {
  SmallVector<int64_t> shape(batch);
  shape.append(dims.begin(), dims.end());
  return shape;
}

/// The results of the multi-result factorizations, as PyTorch shapes them
/// for an input (..., m, n) with k = min(m, n).
static LogicalResult factorShapes(RuleContext &op, Value a) {
  bool square =
      op.isa<LinalgCholeskyExOp, LinalgInvExOp, LinalgEigOp, LinalgEighOp>();
  if (failed(expectMatrix(op, a, "the input", square)))
    return failure();
  ArrayRef<int64_t> s = shapeOf(a);
  ArrayRef<int64_t> batch = s.drop_back(2);
  int64_t m = s[s.size() - 2], n = s.back(), k = minDim(m, n);
  if (op.isa<LinalgCholeskyExOp, LinalgInvExOp>()) {
    (void)op.setResultShape(0, s);
    return op.setResultShape(1, batch);
  }
  if (op.isa<LinalgEigOp, LinalgEighOp>()) {
    (void)op.setResultShape(0, batchThen(batch, {n}));
    return op.setResultShape(1, s);
  }
  if (auto qr = op.dynAs<LinalgQrOp>()) {
    StringRef mode = qr->getMode();
    if (mode == "complete") {
      (void)op.setResultShape(0, batchThen(batch, {m, m}));
      return op.setResultShape(1, s);
    }
    // mode "r" returns an empty Q.
    (void)op.setResultShape(0, mode == "r" ? SmallVector<int64_t>{0}
                                           : batchThen(batch, {m, k}));
    return op.setResultShape(1, batchThen(batch, {k, n}));
  }
  if (auto svd = op.dynAs<LinalgSvdOp>()) {
    bool full = svd->getFullMatrices();
    (void)op.setResultShape(0, batchThen(batch, {m, full ? m : k}));
    (void)op.setResultShape(1, batchThen(batch, {k}));
    return op.setResultShape(2, batchThen(batch, {full ? n : k, n}));
  }
  if (auto svd = op.dynAs<SvdOp>()) {
    // torch.svd: V, not Vh; without compute_uv, zero-filled square U and V.
    bool reduced = svd->getSome() && svd->getComputeUv();
    (void)op.setResultShape(0, batchThen(batch, {m, reduced ? k : m}));
    (void)op.setResultShape(1, batchThen(batch, {k}));
    return op.setResultShape(2, batchThen(batch, {n, reduced ? k : n}));
  }
  if (op.isa<GeqrfOp>()) {
    (void)op.setResultShape(0, s);
    return op.setResultShape(1, batchThen(batch, {k}));
  }
  if (op.isa<LinalgLstsqOp>()) {
    // solution (..., n, k), rank (...; empty for gels), singular values
    // (..., k) for the gelsd/gelss drivers and empty otherwise. The residuals'
    // shape depends on whether every matrix has full rank (data): results need
    // explicit types to build one.
    Value b = op.getOperand(1);
    if (failed(expectMatrix(op, b, "the right-hand side", false)) ||
        failed(expectDimsMatch(op, shapeOf(b)[rankOf(b) - 2], m,
                               "right-hand side rows must match the matrix")))
      return failure();
    SmallVector<int64_t> common;
    if (failed(broadcastShapes({batch, shapeOf(b).drop_back(2)}, common)))
      return op.emitOpError("batch dimensions are not broadcastable");
    std::optional<StringRef> driver = op.as<LinalgLstsqOp>().getDriver();
    if (driver &&
        !llvm::is_contained({"gels", "gelsy", "gelsd", "gelss"}, *driver))
      return op.emitOpError("driver must be one of gels, gelsy, gelsd, "
                            "gelss, got '")
             << *driver << "'";
    (void)op.setResultShape(0, batchThen(common, {n, shapeOf(b).back()}));
    // gels computes no rank: an empty tensor, as tensorplay's.
    bool gels = driver && *driver == "gels";
    (void)op.setResultShape(2, gels ? SmallVector<int64_t>{0} : common);
    bool singular = driver && (*driver == "gelsd" || *driver == "gelss");
    return op.setResultShape(3, singular ? batchThen(common, {k})
                                         : SmallVector<int64_t>{0});
  }
  if (op.isa<TriangularSolveOp>()) {
    // The first operand is the right-hand side, the second the matrix.
    Value matrix = op.getOperand(1);
    SmallVector<int64_t> solution;
    if (failed(solveShape(op, matrix, a, /*left=*/true, solution)))
      return failure();
    (void)op.setResultShape(0, solution);
    ArrayRef<int64_t> ms = shapeOf(matrix);
    SmallVector<int64_t> common;
    (void)broadcastShapes({batch, ms.drop_back(2)}, common);
    return op.setResultShape(1, batchThen(common, ms.take_back(2)));
  }
  if (op.isa<LuWithInfoOp>()) {
    (void)op.setResultShape(0, s);
    (void)op.setResultShape(1, batchThen(batch, {k}));
    return op.setResultShape(2, batch);
  }
  return success();
}

/// tensorinv (the input's trailing dims, then its `ind` leading ones) and
/// tensorsolve (the coefficient tensor's dims after the right-hand side's,
/// once `dims` moved to the end).
static LogicalResult tensorInverseShape(RuleContext &op, Value a) {
  ArrayRef<int64_t> s = shapeOf(a);
  if (auto inv = op.dynAs<LinalgTensorinvOp>()) {
    int64_t ind = inv->getInd();
    if (ind <= 0 || ind > static_cast<int64_t>(s.size()))
      return op.emitOpError("ind must be in [1, ")
             << s.size() << "], got " << ind;
    ArrayRef<int64_t> lead = s.take_front(ind), rest = s.drop_front(ind);
    if (failed(expectDimsMatch(op, numElementsOrDynamic(lead),
                               numElementsOrDynamic(rest),
                               "the dims before and after ind must hold "
                               "equally many elements")))
      return failure();
    return op.setResultShape(0, batchThen(rest, lead));
  }
  Value b = op.getOperand(1);
  SmallVector<int64_t> moved(s);
  if (std::optional<ArrayRef<int64_t>> dims =
          op.as<LinalgTensorsolveOp>().getDims()) {
    SmallVector<int64_t> kept, last;
    SmallVector<bool> isMoved(s.size(), false);
    for (int64_t d : *dims) {
      FailureOr<int64_t> dim = normalizeDim(op, d, s.size(), "dims entry");
      if (failed(dim))
        return failure();
      if (isMoved[*dim])
        return op.emitOpError("dims names dimension ")
               << *dim << " more than once";
      isMoved[*dim] = true;
      last.push_back(s[*dim]);
    }
    for (auto [i, d] : llvm::enumerate(s))
      if (!isMoved[i])
        kept.push_back(d);
    moved = batchThen(kept, last);
  }
  if (failed(expectRank(op, a, "a coefficient tensor", rankOf(b), kAnyRank)))
    return failure();
  // The coefficients reshape to a square matrix of the right-hand side's
  // size (torch.linalg.tensorsolve's requirement).
  ArrayRef<int64_t> solution = ArrayRef<int64_t>(moved).drop_front(rankOf(b));
  int64_t rhs = numElementsOrDynamic(shapeOf(b));
  if (failed(expectDimsMatch(op, numElementsOrDynamic(solution), rhs,
                             "the solution's dims must hold as many elements "
                             "as the right-hand side")) ||
      failed(expectDimsMatch(
          op,
          numElementsOrDynamic(ArrayRef<int64_t>(moved).take_front(rankOf(b))),
          rhs,
          "the coefficient tensor's leading dims must hold as many elements "
          "as the right-hand side")))
    return failure();
  return op.setResultShape(0, solution);
}

LogicalResult mlir::tp::inferMatrixOpShape(RuleContext &op, MatrixKind kind) {
  ValueRange operands = op.getComputeOperands();
  Value a = operands[0];
  if (!isFloatingOrComplex(elementTypeOf(a)))
    return op.emitOpError("expected a floating or complex input, got ")
           << a.getType();
  if (auto uplo = op.getAttrOfType<StringAttr>("UPLO"))
    if (uplo.getValue() != "L" && uplo.getValue() != "U")
      return op.emitOpError("UPLO must be 'L' or 'U', got '")
             << uplo.getValue() << "'";
  if (auto qr = op.dynAs<LinalgQrOp>())
    if (!llvm::is_contained({"reduced", "complete", "r"}, qr->getMode()))
      return op.emitOpError("mode must be 'reduced', 'complete' or 'r', got '")
             << qr->getMode() << "'";
  ArrayRef<int64_t> s = shapeOf(a);
  SmallVector<int64_t> shape;
  switch (kind) {
  case MatrixKind::Square:
    if (failed(expectMatrix(op, a, "the input", true)))
      return failure();
    return op.setResultShape(0, s);
  case MatrixKind::Transposed:
    if (failed(expectMatrix(op, a, "the input", false)))
      return failure();
    shape.assign(s.begin(), s.end());
    std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
    return op.setResultShape(0, shape);
  case MatrixKind::TensorInverse:
    return tensorInverseShape(op, a);
  case MatrixKind::BatchScalar:
  case MatrixKind::BatchVector:
  case MatrixKind::BatchVectorMin:
    if (failed(
            expectMatrix(op, a, "the input", kind == MatrixKind::BatchVector)))
      return failure();
    shape.assign(s.begin(), s.end() - 2);
    if (kind == MatrixKind::BatchVector)
      shape.push_back(s.back());
    if (kind == MatrixKind::BatchVectorMin) {
      int64_t m = s[s.size() - 2], n = s.back();
      shape.push_back(isDyn(m) || isDyn(n) ? ShapedType::kDynamic
                                           : std::min(m, n));
    }
    return op.setResultShape(0, shape);
  case MatrixKind::Solve: {
    bool left = true;
    if (auto solve = op.dynAs<LinalgSolveOp>())
      left = solve->getLeft();
    if (failed(solveShape(op, operands[0], operands[1], left, shape)))
      return failure();
    return op.setResultShape(0, shape);
  }
  case MatrixKind::SolveRhsFirst:
    if (failed(expectMatrix(op, operands[0], "the right-hand side", false)) ||
        failed(solveShape(op, operands[1], operands[0], true, shape)))
      return failure();
    if (op.isa<LuSolveOp>()) {
      Type pivots = elementTypeOf(operands[2]);
      if (!pivots.isInteger(32) && !pivots.isInteger(64))
        return op.emitOpError("LU_pivots must be an integer tensor");
    }
    return op.setResultShape(0, shape);
  case MatrixKind::Same:
    if (op.isa<OrgqrOp>() || op.isa<LinalgHouseholderProductOp>())
      if (failed(
              householderShapes(op, operands[0], operands[1], Value(), true)))
        return failure();
    return op.setResultShape(0, s);
  case MatrixKind::ThirdOperand:
    if (auto ormqr = op.dynAs<OrmqrOp>())
      if (failed(householderShapes(op, operands[0], operands[1], operands[2],
                                   ormqr->getLeft())))
        return failure();
    return op.setResultShape(0, shapeOf(operands[2]));
  case MatrixKind::Factor:
    return factorShapes(op, a);
  }
  llvm_unreachable("unknown matrix kind");
}

SmallVector<int64_t> mlir::tp::fftDims(StringRef name, IntegerAttr dim,
                                       DenseI64ArrayAttr dimList,
                                       DenseI64ArrayAttr s, int64_t rank) {
  if (dim)
    return {dim.getInt()};
  if (dimList)
    return SmallVector<int64_t>(dimList.asArrayRef());
  if (name.ends_with("2"))
    return {-2, -1};
  if (name.ends_with("n")) {
    SmallVector<int64_t> dims;
    int64_t count = s ? static_cast<int64_t>(s.size()) : rank;
    for (int64_t i = rank - count; i < rank; ++i)
      dims.push_back(i);
    return dims;
  }
  return {-1};
}

LogicalResult mlir::tp::inferFftShape(RuleContext &op) {
  Value input = op.getOperand(0);
  if (failed(expectRank(op, input, "an input", 1, kAnyRank)))
    return failure();
  StringRef name = op.getName().stripDialect().drop_front(4); // drop "fft_"
  bool isReal = name.starts_with("rfft") || name.starts_with("ihfft");
  bool toReal = name.starts_with("irfft") || name.starts_with("hfft");
  if (isReal && isa<ComplexType>(elementTypeOf(input)))
    return op.emitOpError("expects a real input tensor, got ")
           << input.getType();
  if (auto norm = op.getAttrOfType<StringAttr>("norm"))
    if (!llvm::is_contained({"backward", "forward", "ortho"}, norm.getValue()))
      return op.emitOpError("norm must be backward, forward or ortho");

  ArrayRef<int64_t> x = shapeOf(input);
  int64_t rank = x.size();
  // The transformed dimensions and their signal sizes.
  SmallVector<int64_t> dims =
      fftDims(name, op.getAttrOfType<IntegerAttr>("dim"),
              op.getAttrOfType<DenseI64ArrayAttr>("dim"),
              op.getAttrOfType<DenseI64ArrayAttr>("s"), rank);
  SmallVector<int64_t> sizes;
  if (auto n = op.getAttrOfType<IntegerAttr>("n")) {
    sizes.push_back(n.getInt());
  }
  if (auto s = op.getAttrOfType<DenseI64ArrayAttr>("s")) {
    sizes.assign(s.asArrayRef().begin(), s.asArrayRef().end());
    if (sizes.size() != dims.size())
      return op.emitOpError("s and dim must have the same length");
  }
  SmallVector<int64_t> shape(x);
  for (auto [i, d] : llvm::enumerate(dims)) {
    FailureOr<int64_t> dim = normalizeDim(op, d, rank);
    if (failed(dim))
      return failure();
    bool last = i + 1 == dims.size();
    int64_t in = x[*dim];
    std::optional<int64_t> given =
        i < sizes.size() ? std::optional<int64_t>(sizes[i]) : std::nullopt;
    if (given && *given <= 0)
      return op.emitOpError("signal sizes must be positive, got ") << *given;
    int64_t out = given ? *given : in;
    if (last && toReal && !given)
      out = isDyn(in) ? in : 2 * (in - 1);
    else if (last && isReal)
      out = isDyn(out) ? out : out / 2 + 1;
    shape[*dim] = out;
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferStftShape(RuleContext &op) {
  auto stft = op.as<StftOp>();
  Value input = stft.getInput();
  if (failed(expectRank(op, input, "a 1-D or 2-D signal", 1, 2)))
    return failure();
  int64_t nFft = stft.getNFft();
  int64_t hop = stft.getHopLength().value_or(nFft / 4);
  int64_t win = stft.getWinLength().value_or(nFft);
  if (nFft <= 0 || hop <= 0 || win <= 0 || win > nFft)
    return op.emitOpError("expected 0 < win_length <= n_fft and a positive "
                          "hop_length");
  if (stft.getReturnComplex() == false)
    return op.emitOpError("return_complex=false (real output) is not "
                          "supported: use the complex result");
  if (Value window = stft.getWindow())
    if (failed(expectRank(op, window, "a 1-D window", 1, 1)) ||
        failed(expectDimsMatch(op, shapeOf(window)[0], win,
                               "window size must equal win_length")))
      return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  int64_t len = x.back();
  bool complexInput =
      isa<ComplexType>(elementTypeOf(input)) ||
      (stft.getWindow() && isa<ComplexType>(elementTypeOf(stft.getWindow())));
  if (complexInput && stft.getOnesided() == true)
    return op.emitOpError("cannot have a onesided output when the signal or "
                          "the window is complex");
  bool onesided = stft.getOnesided().value_or(!complexInput);
  SmallVector<int64_t> shape(x.drop_back());
  shape.push_back(onesided ? nFft / 2 + 1 : nFft);
  if (isDyn(len)) {
    shape.push_back(ShapedType::kDynamic);
  } else {
    if (len < nFft)
      return op.emitOpError("signal length ")
             << len << " is shorter than n_fft " << nFft;
    shape.push_back(1 + (len - nFft) / hop);
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferViewAsComplexShape(RuleContext &op) {
  Value input = op.getOperand(0);
  Type element = elementTypeOf(input);
  if (!element.isF32() && !element.isF64())
    return op.emitOpError("expects an f32 or f64 input, got ")
           << input.getType();
  if (failed(expectRank(op, input, "an input", 1, kAnyRank)) ||
      failed(expectDimsMatch(op, shapeOf(input).back(), 2,
                             "the last dimension must have size 2")))
    return failure();
  return op.setResultShape(0, shapeOf(input).drop_back());
}

LogicalResult mlir::tp::inferViewAsRealShape(RuleContext &op) {
  Value input = op.getOperand(0);
  auto complex = dyn_cast<ComplexType>(elementTypeOf(input));
  if (!complex ||
      !(complex.getElementType().isF32() || complex.getElementType().isF64()))
    return op.emitOpError("expects a complex<f32> or complex<f64> input, got ")
           << input.getType();
  SmallVector<int64_t> shape(shapeOf(input));
  shape.push_back(2);
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferFakeQuantizeShape(RuleContext &op) {
  auto fq = op.as<FakeQuantizePerTensorAffineOp>();
  Value input = fq.getInput();
  if (!isa<FloatType>(elementTypeOf(input)))
    return op.emitOpError("expects a floating input (as tensorplay's "
                          "fake_quantize_per_tensor_affine), got ")
           << input.getType();
  // I64Attr reads back unsigned: the bounds may be negative.
  auto lo = (int64_t)fq.getQuantMin(), hi = (int64_t)fq.getQuantMax(),
       zeroPoint = (int64_t)fq.getZeroPoint();
  double scale = fq.getScale().convertToDouble();
  if (!(scale > 0.0) || std::isinf(scale))
    return op.emitOpError("scale must be positive and finite, got ") << scale;
  if (lo > hi)
    return op.emitOpError("quant_min (")
           << lo << ") must not exceed quant_max (" << hi << ")";
  if (zeroPoint < lo || zeroPoint > hi)
    return op.emitOpError("zero_point (")
           << zeroPoint << ") must lie in [quant_min, quant_max] = [" << lo
           << ", " << hi << "]";
  return op.setResultShape(0, shapeOf(input));
}
