//===- TPLinalgOps.cpp - tp linear algebra, FFT, complex ------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPLinalgOps.cpp.inc"

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
static constexpr int64_t kAnyRank = std::numeric_limits<int64_t>::max();

static LogicalResult expectMatrix(Operation *op, Value v, StringRef what,
                                  bool square) {
  if (failed(expectRank(op, v, what, 2, kAnyRank)))
    return failure();
  ArrayRef<int64_t> s = shapeOf(v);
  if (square)
    return expectDimsMatch(op, s[s.size() - 2], s.back(),
                           what + Twine(" must be square"));
  return success();
}

/// Shape of the solution of a system whose matrix is `a` and rhs is `b`.
static LogicalResult solveShape(Operation *op, Value a, Value b, bool left,
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
    return op->emitOpError("batch dimensions are not broadcastable");
  shape.assign(batch.begin(), batch.end());
  shape.append(bs.end() - 2, bs.end());
  return success();
}

LogicalResult mlir::tp::verifyMatrixOp(Operation *op, MatrixKind kind) {
  ValueRange operands = cast<ComputeOpInterface>(op).getComputeOperands();
  Value a = operands[0];
  if (!isFloatingOrComplex(elementTypeOf(a)))
    return op->emitOpError("expected a floating or complex input, got ")
           << a.getType();
  ArrayRef<int64_t> s = shapeOf(a);
  SmallVector<int64_t> shape;
  switch (kind) {
  case MatrixKind::Square:
    if (failed(expectMatrix(op, a, "the input", true)))
      return failure();
    return expectResultShape(op, 0, s);
  case MatrixKind::Transposed:
    if (failed(expectMatrix(op, a, "the input", false)))
      return failure();
    shape.assign(s.begin(), s.end());
    std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
    return expectResultShape(op, 0, shape);
  case MatrixKind::Any:
    return success();
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
    return expectResultShape(op, 0, shape);
  case MatrixKind::Solve: {
    bool left = true;
    if (auto solve = dyn_cast<LinalgSolveOp>(op))
      left = solve.getLeft();
    if (failed(solveShape(op, operands[0], operands[1], left, shape)))
      return failure();
    return expectResultShape(op, 0, shape);
  }
  case MatrixKind::SolveRhsFirst:
    if (failed(expectMatrix(op, operands[0], "the right-hand side", false)) ||
        failed(solveShape(op, operands[1], operands[0], true, shape)))
      return failure();
    if (isa<LuSolveOp>(op)) {
      Type pivots = elementTypeOf(operands[2]);
      if (!pivots.isInteger(32) && !pivots.isInteger(64))
        return op->emitOpError("LU_pivots must be an integer tensor");
    }
    return expectResultShape(op, 0, shape);
  case MatrixKind::Same:
    return expectResultShape(op, 0, s);
  case MatrixKind::ThirdOperand:
    return expectResultShape(op, 0, shapeOf(operands[2]));
  case MatrixKind::Factor:
    return expectMatrix(op, a, "the input", false);
  }
  llvm_unreachable("unknown matrix kind");
}

LogicalResult mlir::tp::verifyFft(Operation *op) {
  Value input = op->getOperand(0);
  if (failed(expectRank(op, input, "an input", 1, kAnyRank)))
    return failure();
  StringRef name = op->getName().stripDialect().drop_front(4); // drop "fft_"
  bool isReal = name.starts_with("rfft") || name.starts_with("ihfft");
  bool toReal = name.starts_with("irfft") || name.starts_with("hfft");
  if (isReal && isa<ComplexType>(elementTypeOf(input)))
    return op->emitOpError("expects a real input tensor, got ")
           << input.getType();
  if (auto norm = op->getAttrOfType<StringAttr>("norm"))
    if (!llvm::is_contained({"backward", "forward", "ortho"}, norm.getValue()))
      return op->emitOpError("norm must be backward, forward or ortho");

  ArrayRef<int64_t> x = shapeOf(input);
  int64_t rank = x.size();
  // The transformed dimensions and their signal sizes.
  SmallVector<int64_t> dims, sizes;
  if (auto n = op->getAttrOfType<IntegerAttr>("n")) {
    sizes.push_back(n.getInt());
  }
  if (auto dim = op->getAttrOfType<IntegerAttr>("dim")) {
    dims.push_back(dim.getInt());
  } else if (auto dimList = op->getAttrOfType<DenseI64ArrayAttr>("dim")) {
    dims.assign(dimList.asArrayRef().begin(), dimList.asArrayRef().end());
  } else if (name.ends_with("2")) {
    dims = {-2, -1};
  } else if (name.ends_with("n")) {
    auto s = op->getAttrOfType<DenseI64ArrayAttr>("s");
    int64_t count = s ? static_cast<int64_t>(s.size()) : rank;
    for (int64_t i = rank - count; i < rank; ++i)
      dims.push_back(i);
  } else {
    dims = {-1};
  }
  if (auto s = op->getAttrOfType<DenseI64ArrayAttr>("s")) {
    sizes.assign(s.asArrayRef().begin(), s.asArrayRef().end());
    if (sizes.size() != dims.size())
      return op->emitOpError("s and dim must have the same length");
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
      return op->emitOpError("signal sizes must be positive, got ") << *given;
    int64_t out = given ? *given : in;
    if (last && toReal && !given)
      out = isDyn(in) ? in : 2 * (in - 1);
    else if (last && isReal)
      out = isDyn(out) ? out : out / 2 + 1;
    shape[*dim] = out;
  }
  return expectResultShape(op, 0, shape);
}

LogicalResult mlir::tp::verifyStft(Operation *op) {
  auto stft = cast<StftOp>(op);
  Value input = stft.getInput();
  if (failed(expectRank(op, input, "a 1-D or 2-D signal", 1, 2)))
    return failure();
  int64_t nFft = stft.getNFft();
  int64_t hop = stft.getHopLength().value_or(nFft / 4);
  int64_t win = stft.getWinLength().value_or(nFft);
  if (nFft <= 0 || hop <= 0 || win <= 0 || win > nFft)
    return op->emitOpError("expected 0 < win_length <= n_fft and a positive "
                           "hop_length");
  if (stft.getReturnComplex() == false)
    return op->emitOpError("return_complex=false (real output) is not "
                           "supported: use the complex result");
  if (Value window = stft.getWindow())
    if (failed(expectRank(op, window, "a 1-D window", 1, 1)) ||
        failed(expectDimsMatch(op, shapeOf(window)[0], win,
                               "window size must equal win_length")))
      return failure();
  ArrayRef<int64_t> x = shapeOf(input);
  int64_t len = x.back();
  bool complexInput = isa<ComplexType>(elementTypeOf(input));
  bool onesided = stft.getOnesided().value_or(!complexInput);
  SmallVector<int64_t> shape(x.drop_back());
  shape.push_back(onesided ? nFft / 2 + 1 : nFft);
  if (isDyn(len)) {
    shape.push_back(ShapedType::kDynamic);
  } else {
    if (len < nFft)
      return op->emitOpError("signal length ")
             << len << " is shorter than n_fft " << nFft;
    shape.push_back(1 + (len - nFft) / hop);
  }
  return expectResultShape(op, 0, shape);
}

LogicalResult mlir::tp::verifyViewAsComplex(Operation *op) {
  Value input = op->getOperand(0);
  Type element = elementTypeOf(input);
  if (!element.isF32() && !element.isF64())
    return op->emitOpError("expects an f32 or f64 input, got ")
           << input.getType();
  if (failed(expectRank(op, input, "an input", 1, kAnyRank)) ||
      failed(expectDimsMatch(op, shapeOf(input).back(), 2,
                             "the last dimension must have size 2")))
    return failure();
  return expectResultShape(op, 0, shapeOf(input).drop_back());
}
