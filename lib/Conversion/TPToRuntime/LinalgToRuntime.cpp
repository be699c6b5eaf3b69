//===- LinalgToRuntime.cpp - Linear algebra to LAPACK calls ---------------===//
//
// The tp linear-algebra ops PyTorch computes with one LAPACK routine become
// tp_rt.call ops of the runtime's tp_rt_lapack_* wrappers (Codegen.h,
// runtime/calls/LapackCalls.cpp) on f32 and f64 tensors: inverse,
// linalg_inv(_ex), linalg_cholesky(_ex), cholesky_solve, cholesky_inverse,
// linalg_solve, triangular_solve, lu_with_info, lu_solve, linalg_eigh,
// linalg_eigvalsh, linalg_eig, linalg_eigvals (geev), linalg_svd, svd,
// linalg_svdvals, geqrf, linalg_qr,
// orgqr, linalg_householder_product, ormqr and linalg_lstsq. Other element
// types are an error (PyTorch has no such kernels either); so are the
// options PyTorch's CPU kernels reject (an SVD driver, LU without pivoting)
// and residuals tensorplay would not return.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;

static Type elementOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

/// "f32" or "f64": the suffix of the wrappers; "" for other element types.
static StringRef lapackSuffix(Value value) {
  Type t = elementOf(value);
  return t.isF32() ? "f32" : t.isF64() ? "f64" : "";
}

static rc::Argument flag(OpBuilder &b, Location loc, int64_t value) {
  return rc::input(
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value)));
}

/// A new tensor of `value`'s type for the call to write.
static rc::Argument outputLike(OpBuilder &b, Location loc, Value value,
                               ArrayRef<int64_t> view = {}) {
  auto type = cast<RankedTensorType>(value.getType());
  return rc::output(b, loc, type.getShape(), type.getElementType(), view);
}

/// A zero-element i32 tensor: "info not wanted".
static rc::Argument noInfo(OpBuilder &b, Location loc) {
  return rc::input(rc::emptyTensor(b, loc, b.getI32Type()));
}

/// A zero-element tensor of `like`'s element type: "not computed".
static rc::Argument none(OpBuilder &b, Location loc, Value like) {
  return rc::input(rc::emptyTensor(b, loc, elementOf(like)));
}

/// Zeros of `type` (results PyTorch fills with zeros).
static Value zeros(OpBuilder &b, Location loc, Type type) {
  auto tensorType = cast<RankedTensorType>(type);
  Value init = tensor::EmptyOp::create(b, loc, tensorType.getShape(),
                                       tensorType.getElementType());
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(tensorType.getElementType()));
  return linalg::FillOp::create(b, loc, zero, init).getResult(0);
}

/// `value` with a unit dimension inserted at `position` (from the end:
/// -1 appends, -2 inserts before the last).
static Value insertUnitDim(OpBuilder &b, Location loc, Value value,
                           int64_t position) {
  ArrayRef<int64_t> shape = shapeOf(value);
  int64_t rank = shape.size(), at = rank + 1 + position;
  SmallVector<int64_t> expanded(shape);
  expanded.insert(expanded.begin() + at, 1);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    groups.push_back({d});
  // The unit dimension joins a neighbour's group.
  if (at == rank)
    groups.back().push_back(rank);
  else
    for (int64_t d = at; d < rank; ++d) {
      if (d == at)
        groups[d] = {d, d + 1};
      else
        groups[d] = {d + 1};
    }
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(expanded, elementOf(value)), value, groups);
}

/// `value` without the unit dimension at `position` (as insertUnitDim).
static Value dropUnitDim(OpBuilder &b, Location loc, Value value,
                         Type resultType) {
  int64_t rank = shapeOf(value).size(), out = rank - 1;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < out; ++d)
    groups.push_back({d});
  // Every dimension but the dropped unit one keeps its place; the unit
  // one joins the last group (its position is one of the last two).
  groups.back().push_back(rank - 1);
  return tensor::CollapseShapeOp::create(
      b, loc, cast<RankedTensorType>(resultType), value, groups);
}

namespace {

/// The common part of every pattern: the op's out= form is not taken and
/// its element type must be f32 or f64 (the pass reports the others).
template <typename OpTy>
struct LapackPattern : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    StringRef suffix = lapackSuffix(op->getOperand(0));
    if (suffix.empty())
      return failure();
    return lower(op, rewriter,
                 ("tp_rt_lapack_" + kind(op) + "_" + suffix).str());
  }
  virtual std::string kind(OpTy op) const = 0;
  virtual LogicalResult lower(OpTy op, PatternRewriter &rewriter,
                              const std::string &callee) const = 0;
};

template <typename OpTy>
struct InverseToLapack : public LapackPattern<OpTy> {
  using LapackPattern<OpTy>::LapackPattern;
  std::string kind(OpTy) const override { return "inv"; }
  LogicalResult lower(OpTy op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value result = op->getResult(0);
    SmallVector<rc::Argument> args = {rc::input(op.getInput()),
                                      outputLike(rewriter, loc, result)};
    if constexpr (std::is_same_v<OpTy, LinalgInvExOp>) {
      args.push_back(outputLike(rewriter, loc, op.getInfo()));
      args.push_back(flag(rewriter, loc, op.getCheckErrors()));
    } else {
      args.push_back(noInfo(rewriter, loc));
      args.push_back(flag(rewriter, loc, 1));
    }
    rewriter.replaceOp(op, rc::emitCall(rewriter, loc, op, callee, args));
    return success();
  }
};

template <typename OpTy>
struct CholeskyToLapack : public LapackPattern<OpTy> {
  using LapackPattern<OpTy>::LapackPattern;
  std::string kind(OpTy) const override { return "cholesky"; }
  LogicalResult lower(OpTy op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    SmallVector<rc::Argument> args = {
        rc::input(op.getInput()), outputLike(rewriter, loc, op->getResult(0))};
    if constexpr (std::is_same_v<OpTy, LinalgCholeskyExOp>) {
      args.push_back(outputLike(rewriter, loc, op.getInfo()));
      args.push_back(flag(rewriter, loc, op.getUpper()));
      args.push_back(flag(rewriter, loc, op.getCheckErrors()));
    } else {
      args.push_back(noInfo(rewriter, loc));
      args.push_back(flag(rewriter, loc, op.getUpper()));
      args.push_back(flag(rewriter, loc, 1));
    }
    rewriter.replaceOp(op, rc::emitCall(rewriter, loc, op, callee, args));
    return success();
  }
};

struct CholeskySolveToLapack : public LapackPattern<CholeskySolveOp> {
  using LapackPattern::LapackPattern;
  std::string kind(CholeskySolveOp) const override { return "cholesky_solve"; }
  LogicalResult lower(CholeskySolveOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()), rc::input(op.getInput2()),
                          outputLike(rewriter, loc, op.getResult()),
                          flag(rewriter, loc, op.getUpper())}));
    return success();
  }
};

struct CholeskyInverseToLapack : public LapackPattern<CholeskyInverseOp> {
  using LapackPattern::LapackPattern;
  std::string kind(CholeskyInverseOp) const override {
    return "cholesky_inverse";
  }
  LogicalResult lower(CholeskyInverseOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       rc::emitCall(rewriter, loc, op, callee,
                                    {rc::input(op.getInput()),
                                     outputLike(rewriter, loc, op.getResult()),
                                     flag(rewriter, loc, op.getUpper())}));
    return success();
  }
};

/// linalg_solve: a vector B (PyTorch's rule: 1-D, or A's shape without its
/// last dimension) is solved as a one-column (left) or one-row matrix.
struct SolveToLapack : public LapackPattern<LinalgSolveOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LinalgSolveOp) const override { return "solve"; }
  LogicalResult lower(LinalgSolveOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value a = op.getA(), b = op.getB();
    ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
    bool vector =
        bs.size() == 1 || (bs.size() + 1 == as.size() && bs == as.drop_back());
    bool left = op.getLeft();
    Type resultType = op.getResult().getType();
    SmallVector<int64_t> shape(shapeOf(op.getResult()));
    if (vector) {
      b = insertUnitDim(rewriter, loc, b, left ? -1 : -2);
      shape.insert(shape.end() - (left ? 0 : 1), 1);
    }
    Value solved = rc::emitCall(rewriter, loc, op, callee,
                                {rc::input(a), rc::input(b),
                                 rc::output(rewriter, loc, shape, elementOf(a)),
                                 flag(rewriter, loc, left)})[0];
    if (vector)
      solved = dropUnitDim(rewriter, loc, solved, resultType);
    rewriter.replaceOp(op, solved);
    return success();
  }
};

struct TriangularSolveToLapack : public LapackPattern<TriangularSolveOp> {
  using LapackPattern::LapackPattern;
  std::string kind(TriangularSolveOp) const override {
    return "triangular_solve";
  }
  LogicalResult lower(TriangularSolveOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value x = rc::emitCall(rewriter, loc, op, callee,
                           {rc::input(op.getInput()), rc::input(op.getA()),
                            outputLike(rewriter, loc, op.getSolution()),
                            flag(rewriter, loc, op.getUpper()),
                            flag(rewriter, loc, op.getTranspose()),
                            flag(rewriter, loc, op.getUnitriangular())})[0];
    // cloned_coefficient: A, broadcast to the solution's batch.
    Value clone = op.getA();
    if (clone.getType() != op.getClonedCoefficient().getType()) {
      OperationState state(loc, ExpandOp::getOperationName());
      state.addOperands(clone);
      state.addAttribute("size", rewriter.getDenseI64ArrayAttr(
                                     shapeOf(op.getClonedCoefficient())));
      state.addTypes(op.getClonedCoefficient().getType());
      clone = rewriter.create(state)->getResult(0);
    }
    rewriter.replaceOp(op, {x, clone});
    return success();
  }
};

struct LuToLapack : public LapackPattern<LuWithInfoOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LuWithInfoOp) const override { return "lu"; }
  LogicalResult lower(LuWithInfoOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()),
                          outputLike(rewriter, loc, op.getLU()),
                          outputLike(rewriter, loc, op.getPivots()),
                          outputLike(rewriter, loc, op.getInfos())}));
    return success();
  }
};

struct LuSolveToLapack : public LapackPattern<LuSolveOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LuSolveOp) const override { return "lu_solve"; }
  LogicalResult lower(LuSolveOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    // LAPACK's pivots are i32 (lu_with_info's); i64 ones are narrowed.
    Value pivots = op.getLUPivots();
    if (!elementOf(pivots).isInteger(32)) {
      OperationState state(loc, CastOp::getOperationName());
      state.addOperands(pivots);
      state.addTypes(
          RankedTensorType::get(shapeOf(pivots), rewriter.getI32Type()));
      pivots = rewriter.create(state)->getResult(0);
    }
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()), rc::input(op.getLUData()),
                          rc::input(pivots),
                          outputLike(rewriter, loc, op.getResult())}));
    return success();
  }
};

/// linalg_eigh, linalg_eigvalsh (syevd, with UPLO) and linalg_eig,
/// linalg_eigvals (geev): the eigenvalues, and the eigenvectors or a
/// zero-element tensor (not wanted) for the *vals forms.
template <typename OpTy>
struct EigenToLapack : public LapackPattern<OpTy> {
  using LapackPattern<OpTy>::LapackPattern;
  static constexpr bool hermitian = std::is_same_v<OpTy, LinalgEighOp> ||
                                    std::is_same_v<OpTy, LinalgEigvalshOp>;
  static constexpr bool vectors =
      std::is_same_v<OpTy, LinalgEighOp> || std::is_same_v<OpTy, LinalgEigOp>;
  std::string kind(OpTy) const override { return hermitian ? "eigh" : "eig"; }
  LogicalResult lower(OpTy op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value w = op->getResult(0);
    SmallVector<rc::Argument> args = {rc::input(op->getOperand(0)),
                                      outputLike(rewriter, loc, w)};
    if constexpr (vectors)
      args.push_back(outputLike(rewriter, loc, op.getEigenvectors()));
    else
      args.push_back(none(rewriter, loc, w));
    if constexpr (hermitian)
      args.push_back(flag(rewriter, loc, op.getUPLO() == "U"));
    SmallVector<Value> results = rc::emitCall(rewriter, loc, op, callee, args);
    if (!vectors)
      results.resize(1);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SvdvalsToLapack : public LapackPattern<LinalgSvdvalsOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LinalgSvdvalsOp) const override { return "svd"; }
  LogicalResult lower(LinalgSvdvalsOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value s = op.getResult();
    SmallVector<Value> results =
        rc::emitCall(rewriter, loc, op, callee,
                     {rc::input(op.getInput()), none(rewriter, loc, s),
                      outputLike(rewriter, loc, s), none(rewriter, loc, s),
                      flag(rewriter, loc, 0)});
    rewriter.replaceOp(op, results[0]);
    return success();
  }
};

struct LinalgSvdToLapack : public LapackPattern<LinalgSvdOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LinalgSvdOp) const override { return "svd"; }
  LogicalResult lower(LinalgSvdOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()),
                          outputLike(rewriter, loc, op.getU()),
                          outputLike(rewriter, loc, op.getS()),
                          outputLike(rewriter, loc, op.getVh()),
                          flag(rewriter, loc, op.getFullMatrices() ? 2 : 1)}));
    return success();
  }
};

/// torch.svd: V (not Vh), written by the call as Vh through a transposed
/// view; without compute_uv, U and V are zeros.
struct SvdToLapack : public LapackPattern<SvdOp> {
  using LapackPattern::LapackPattern;
  std::string kind(SvdOp) const override { return "svd"; }
  LogicalResult lower(SvdOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    Value s = op.getS();
    if (!op.getComputeUv()) {
      Value values =
          rc::emitCall(rewriter, loc, op, callee,
                       {rc::input(op.getInput()), none(rewriter, loc, s),
                        outputLike(rewriter, loc, s), none(rewriter, loc, s),
                        flag(rewriter, loc, 0)})[0];
      rewriter.replaceOp(op, {zeros(rewriter, loc, op.getU().getType()), values,
                              zeros(rewriter, loc, op.getV().getType())});
      return success();
    }
    rc::Argument v = rc::transposeLast2(outputLike(rewriter, loc, op.getV()));
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()),
                          outputLike(rewriter, loc, op.getU()),
                          outputLike(rewriter, loc, s), v,
                          flag(rewriter, loc, op.getSome() ? 1 : 2)}));
    return success();
  }
};

struct GeqrfToLapack : public LapackPattern<GeqrfOp> {
  using LapackPattern::LapackPattern;
  std::string kind(GeqrfOp) const override { return "geqrf"; }
  LogicalResult lower(GeqrfOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       rc::emitCall(rewriter, loc, op, callee,
                                    {rc::input(op.getInput()),
                                     outputLike(rewriter, loc, op.getA()),
                                     outputLike(rewriter, loc, op.getTau())}));
    return success();
  }
};

struct QrToLapack : public LapackPattern<LinalgQrOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LinalgQrOp) const override { return "qr"; }
  LogicalResult lower(LinalgQrOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    StringRef mode = op.getMode();
    int64_t code = mode == "reduced" ? 0 : mode == "complete" ? 1 : 2;
    Location loc = op.getLoc();
    SmallVector<Value> results = rc::emitCall(
        rewriter, loc, op, callee,
        {rc::input(op.getInput()),
         code == 2 ? none(rewriter, loc, op.getQ())
                   : outputLike(rewriter, loc, op.getQ()),
         outputLike(rewriter, loc, op.getR()), flag(rewriter, loc, code)});
    if (code == 2) // Q: the empty tensor PyTorch returns.
      results.insert(results.begin(),
                     zeros(rewriter, loc, op.getQ().getType()));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// orgqr and linalg_householder_product (operands: reflectors, tau).
template <typename OpTy>
struct OrgqrToLapack : public LapackPattern<OpTy> {
  using LapackPattern<OpTy>::LapackPattern;
  std::string kind(OpTy) const override { return "orgqr"; }
  LogicalResult lower(OpTy op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op->getOperand(0)),
                          rc::input(op->getOperand(1)),
                          outputLike(rewriter, loc, op.getResult())}));
    return success();
  }
};

struct OrmqrToLapack : public LapackPattern<OrmqrOp> {
  using LapackPattern::LapackPattern;
  std::string kind(OrmqrOp) const override { return "ormqr"; }
  LogicalResult lower(OrmqrOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, rc::emitCall(rewriter, loc, op, callee,
                         {rc::input(op.getInput()), rc::input(op.getInput2()),
                          rc::input(op.getInput3()),
                          outputLike(rewriter, loc, op.getResult()),
                          flag(rewriter, loc, op.getLeft()),
                          flag(rewriter, loc, op.getTranspose())}));
    return success();
  }
};

/// linalg_lstsq (driver gelsy by default, rcond eps * max(m, n) by
/// default, as tensorplay's CPU kernel).
struct LstsqToLapack : public LapackPattern<LinalgLstsqOp> {
  using LapackPattern::LapackPattern;
  std::string kind(LinalgLstsqOp) const override { return "lstsq"; }
  LogicalResult lower(LinalgLstsqOp op, PatternRewriter &rewriter,
                      const std::string &callee) const override {
    Location loc = op.getLoc();
    StringRef driver = op.getDriver().value_or("gelsy");
    int64_t code = driver == "gels"    ? 0
                   : driver == "gelsy" ? 1
                   : driver == "gelsd" ? 2
                                       : 3;
    ArrayRef<int64_t> s = shapeOf(op.getInput());
    Type elem = elementOf(op.getInput());
    double eps = elem.isF64() ? std::numeric_limits<double>::epsilon()
                              : std::numeric_limits<float>::epsilon();
    double rcond = op.getRcond()
                       ? op.getRcond()->convertToDouble()
                       : eps * (double)std::max(s[s.size() - 2], s.back());
    SmallVector<Value> results =
        rc::emitCall(rewriter, loc, op, callee,
                     {rc::input(op.getInput()), rc::input(op.getOther()),
                      outputLike(rewriter, loc, op.getSolution()),
                      outputLike(rewriter, loc, op.getResiduals()),
                      outputLike(rewriter, loc, op.getRank()),
                      outputLike(rewriter, loc, op.getSingularValues()),
                      flag(rewriter, loc, code),
                      rc::input(arith::ConstantOp::create(
                          rewriter, loc, rewriter.getF64FloatAttr(rcond)))});
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tp::populateLinalgToRuntimePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<InverseToLapack<InverseOp>, InverseToLapack<LinalgInvOp>,
           InverseToLapack<LinalgInvExOp>, CholeskyToLapack<LinalgCholeskyOp>,
           CholeskyToLapack<LinalgCholeskyExOp>, CholeskySolveToLapack,
           CholeskyInverseToLapack, SolveToLapack, TriangularSolveToLapack,
           LuToLapack, LuSolveToLapack, EigenToLapack<LinalgEighOp>,
           EigenToLapack<LinalgEigvalshOp>, EigenToLapack<LinalgEigOp>,
           EigenToLapack<LinalgEigvalsOp>, SvdvalsToLapack, LinalgSvdToLapack,
           SvdToLapack, GeqrfToLapack, QrToLapack, OrgqrToLapack<OrgqrOp>,
           OrgqrToLapack<LinalgHouseholderProductOp>, OrmqrToLapack,
           LstsqToLapack>(ctx);
}

LogicalResult mlir::tp::checkLapackOp(Operation *op) {
  if (!isLapackOp(op))
    return success();
  Value input = op->getOperand(0);
  if (lapackSuffix(input).empty())
    return op->emitOpError("runs through LAPACK on f32 and f64 tensors, got ")
           << input.getType()
           << " (tensorplay has no such kernel either; under autocast these "
              "ops run in f32)";
  // PyTorch's CPU SVD has one driver (gesdd): naming one is an error.
  auto driver = op->getAttrOfType<StringAttr>("driver");
  if (driver && isa<LinalgSvdOp, LinalgSvdvalsOp>(op))
    return op->emitOpError("keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend (as "
                           "tensorplay's); the CPU computes with gesdd, got "
                           "driver '")
           << driver.getValue() << "'";
  // linalg_lstsq's residuals exist where tensorplay computes them: m > n,
  // a driver other than gelsy (then, for gelsd / gelss, full rank, checked
  // at run time), shape (..., k).
  if (auto lstsq = dyn_cast<LinalgLstsqOp>(op)) {
    ArrayRef<int64_t> r = shapeOf(lstsq.getResiduals()),
                      a = shapeOf(lstsq.getInput()),
                      x = shapeOf(lstsq.getSolution());
    bool empty = r.size() == 1 && r[0] == 0;
    StringRef driver = lstsq.getDriver().value_or("gelsy");
    if (!empty) {
      SmallVector<int64_t> expected(x.drop_back(2));
      expected.push_back(x.back());
      if (r != ArrayRef<int64_t>(expected))
        return op->emitOpError("residuals must have shape 0 or ")
               << formatShape(expected) << ", got " << formatShape(r);
      if (a[a.size() - 2] <= a.back() || driver == "gelsy")
        return op->emitOpError("tensorplay computes no residuals for ")
               << (driver == "gelsy" ? "the gelsy driver"
                                     : "matrices with m <= n")
               << ": their type must have shape 0";
    }
  }
  if (auto lu = dyn_cast<LuWithInfoOp>(op); lu && !lu.getPivot())
    return op->emitOpError("LU without pivoting is not implemented on the "
                           "CPU (as tensorplay's)");
  return success();
}

bool mlir::tp::isLapackOp(Operation *op) {
  return isa<InverseOp, LinalgInvOp, LinalgInvExOp, LinalgCholeskyOp,
             LinalgCholeskyExOp, CholeskySolveOp, CholeskyInverseOp,
             LinalgSolveOp, TriangularSolveOp, LuWithInfoOp, LuSolveOp,
             LinalgEighOp, LinalgEigvalshOp, LinalgEigOp, LinalgEigvalsOp,
             LinalgSvdvalsOp, LinalgSvdOp, SvdOp, GeqrfOp, LinalgQrOp, OrgqrOp,
             LinalgHouseholderProductOp, OrmqrOp, LinalgLstsqOp>(op);
}
