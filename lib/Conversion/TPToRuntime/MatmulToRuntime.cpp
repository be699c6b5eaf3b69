//===- MatmulToRuntime.cpp - tp matrix products to oneDNN calls -----------===//
//
// mm, bmm, matmul, linear, addmm, baddbmm and addbmm on f32 or bf16
// operands become one tp_rt_dnnl_matmul_* call each. Operands are brought to
// one rank (torch.matmul's rules: 1-D operands get a unit dimension, a 2-D
// weight lets the batch fold into M, otherwise batch dimensions broadcast in
// oneDNN); linear's weight is passed as a transposed strided view and its
// bias to oneDNN, so the product is rounded once. The addmm family
// accumulates into an f32 buffer and leaves alpha/beta to an elementwise
// epilogue that rounds once and fuses with its consumers.
//
// A bf16 product whose 2-D B operand (linear's weight, mm/matmul/addmm's
// second matrix) is a tp.cast f32 -> bf16 used by nothing else (autocast's
// weight casts) takes the f32 tensor instead: tp_rt_dnnl_matmul_cast_*
// rounds it to bf16 while writing the layout oneDNN computes on, so the
// cast's bf16 tensor is never materialized.
//
// With ProductLibrary::CublasLt (tp-lower-to-nvvm) the same products become
// tp_rt_cublaslt_matmul_* calls of the GPU runtime instead: f32, f16 or
// bf16 operands (f32 accumulation), contiguous operands (a transposed 2-D
// weight is a cuBLASLt transpose flag), batch dimensions equal or folded
// into M, relu and tanh-GELU epilogues (cuBLASLt has no erf GELU); the cast
// fusion and permuted views are oneDNN's only.
//
// A product whose only user is tp.relu or tp.gelu hands it to oneDNN as an
// epilogue (a post-op on the f32 accumulator, after the bias): the
// activation costs no pass of its own, and a bf16 result is rounded once,
// after the activation, instead of before and after it.
//
// An f32 product whose only user is a tp.add of it and another f32 tensor
// of its type is computed into that tensor (C += A @ B, oneDNN's sum
// post-op: the same f32 additions, bit for bit). A gradient summed over
// the steps of an unrolled recurrence (sum_t dg_t^T h_t) then stays in
// cache, where every product was written out and one long fused sum read
// them all back.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Runtime/Codegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;
namespace rc = mlir::tp::runtime_call;

namespace {

/// The suffix of element type `t` in product calls ("f32", "bf16", "f16"),
/// or "".
StringRef productSuffix(Type t) {
  return t.isF16() ? StringRef("f16") : rc::dtypeSuffix(t);
}

/// The common element type of `operands` when `library` can take it (all
/// f32 or all bf16, and for cuBLASLt all f16; static shapes, no empty
/// tensor).
std::optional<Type> runtimeElementType(ProductLibrary library,
                                       ValueRange operands) {
  Type common;
  for (Value v : operands) {
    if (!v)
      continue;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0)
      return std::nullopt;
    if (common && type.getElementType() != common)
      return std::nullopt;
    common = type.getElementType();
  }
  if (!common || productSuffix(common).empty() ||
      (common.isF16() && library != ProductLibrary::CublasLt))
    return std::nullopt;
  return common;
}

/// The output element type of a call with inputs of `in` producing `out`.
bool supportedOutput(Type in, Type out) {
  return (in.isF32() && out.isF32()) ||
         ((in.isBF16() || in.isF16()) && (out == in || out.isF32()));
}

/// The prefix of `library`'s product calls.
StringRef callPrefix(ProductLibrary library) {
  return library == ProductLibrary::CublasLt ? "tp_rt_cublaslt_matmul_"
                                             : "tp_rt_dnnl_matmul_";
}

/// The permutation `t` applies to its input when it is a tp.permute or a
/// tp.transpose (result dim i is input dim perm[i]), with that input.
std::optional<std::pair<Value, SmallVector<int64_t>>> layoutChange(Value t) {
  SmallVector<int64_t> perm;
  if (auto permute = t.getDefiningOp<PermuteOp>()) {
    int64_t rank = shapeOf(permute.getInput()).size();
    for (int64_t d : permute.getDims())
      perm.push_back(normalizeDim(d, rank));
    return std::make_pair(permute.getInput(), perm);
  }
  if (auto transpose = t.getDefiningOp<TransposeOp>()) {
    int64_t rank = shapeOf(transpose.getInput()).size();
    for (int64_t d = 0; d < rank; ++d)
      perm.push_back(d);
    if (rank > 0)
      std::swap(perm[normalizeDim((int64_t)transpose.getDim0(), rank)],
                perm[normalizeDim((int64_t)transpose.getDim1(), rank)]);
    return std::make_pair(transpose.getInput(), perm);
  }
  return std::nullopt;
}

/// Operand `t` of a call; when `t` is a chain of tp.permute / tp.transpose
/// ops, the tensor at its root seen through their composed permutation
/// (oneDNN reads strided operands, so the copies disappear when nothing
/// else uses them). Only where the root's contiguous dimension stays one
/// of the two matrix dimensions: a matrix whose rows and columns are both
/// strided sends oneDNN to its reference kernels.
rc::Argument operandArgument(ProductLibrary library, Value t) {
  if (library == ProductLibrary::CublasLt)
    return rc::input(t);
  Value source = t;
  SmallVector<int64_t> perm;
  for (int64_t d = 0, e = shapeOf(t).size(); d < e; ++d)
    perm.push_back(d);
  while (auto change = layoutChange(source)) {
    if (elementTypeOf(change->first) != elementTypeOf(t))
      break;
    // The view of the view: dim i of t is dim perm[i] of `source`, which is
    // dim change->second[perm[i]] of its input.
    for (int64_t &d : perm)
      d = change->second[d];
    source = change->first;
  }
  int64_t rank = perm.size();
  bool identity = llvm::equal(perm, llvm::seq<int64_t>(0, rank));
  if (source == t || identity)
    return rc::input(source);
  if (rank >= 2 && perm[rank - 1] != rank - 1 && perm[rank - 2] != rank - 1)
    return rc::input(t);
  return rc::input(source, perm);
}

/// The f32 tensor that `operand` casts to bf16, when `operand` is a tp.cast
/// f32 -> bf16 with no other use than this one (the product then takes the
/// f32 tensor and rounds it itself); null otherwise.
Value fusibleCastSource(Value operand) {
  auto cast = operand.getDefiningOp<CastOp>();
  if (!cast || !operand.hasOneUse() || !elementTypeOf(operand).isBF16() ||
      !elementTypeOf(cast.getInput()).isF32())
    return nullptr;
  return cast.getInput();
}

/// What the library applies to a product's result before anything else
/// sees it: an elementwise activation, or the addition of another tensor
/// (TP_RT_EPILOGUE_ACCUMULATE: C starts as `into`).
struct Epilogue {
  Operation *op = nullptr; // the tp.relu / tp.gelu / tp.add it replaces
  int64_t code = TP_RT_EPILOGUE_NONE;
  Value into; // ACCUMULATE: the tensor the product is added to
};

/// The epilogue `product` (of `inType` operands) can absorb: its single
/// user, when that is a plain (not in-place, no out=) tp.relu or tp.gelu of
/// the same type (tanh GELU only for cuBLASLt), or, with oneDNN and f32
/// operands and result, a plain sum of it and another tensor.
Epilogue fusibleEpilogue(ProductLibrary library, Type inType,
                         Operation *product) {
  if (product->getNumResults() != 1 || !product->hasOneUse())
    return {};
  Operation *user = *product->getUsers().begin();
  auto compute = dyn_cast<ComputeOpInterface>(user);
  if (!compute || compute.isInplaceOrOut() || user->getNumResults() != 1 ||
      user->getResult(0).getType() != product->getResult(0).getType())
    return {};
  if (isa<ReluOp>(user))
    return {user, TP_RT_EPILOGUE_RELU, {}};
  if (auto gelu = dyn_cast<GeluOp>(user)) {
    switch (gelu.getApproximate()) {
    case GeluApproximation::None:
      if (library == ProductLibrary::CublasLt)
        return {};
      return {user, TP_RT_EPILOGUE_GELU_ERF, {}};
    case GeluApproximation::Tanh:
      return {user, TP_RT_EPILOGUE_GELU_TANH, {}};
    }
  }
  if (auto add = dyn_cast<AddOp>(user)) {
    Value result = product->getResult(0);
    if (library != ProductLibrary::OneDNN || !inType.isF32() ||
        !elementTypeOf(result).isF32() || !isPlainSum(add))
      return {};
    return {user, TP_RT_EPILOGUE_ACCUMULATE,
            add.getLhs() == result ? add.getRhs() : add.getLhs()};
  }
  return {};
}

/// Replaces `product` and the epilogue op it absorbed (if any) by `value`.
void replaceWithEpilogue(PatternRewriter &rewriter, Operation *product,
                         const Epilogue &epilogue, Value value) {
  if (!epilogue.op) {
    rewriter.replaceOp(product, value);
    return;
  }
  rewriter.replaceOp(epilogue.op, value);
  rewriter.eraseOp(product);
}

/// C = A @ op(B) (+ bias) through oneDNN. `a` and `b` have one rank; with
/// `transposeB`, `b` holds op(B)^T. Returns the tensor C of element type
/// `outType`. With `dstPermutation`, C is written through a strided view
/// into a buffer holding C permuted by it, and that permuted tensor is
/// returned (the consumer's tp.permute becomes free). With `bF32`, the f32
/// tensor `bTensor` is a tp.cast of (same shape): the call takes it and
/// rounds it to bf16 itself (tp_rt_dnnl_matmul_cast_*). `epilogue` is a
/// TP_RT_EPILOGUE_* code applied to C. With `accumulator` (of C's element
/// count, f32; `epilogue` TP_RT_EPILOGUE_ACCUMULATE, no permutation), C is
/// that tensor plus the product.
Value emitMatmul(ProductLibrary library, OpBuilder &b, Location loc,
                 Operation *anchor, Value a, Value bTensor, bool transposeB,
                 Value bias, Type outType,
                 ArrayRef<int64_t> dstPermutation = {}, Value bF32 = {},
                 int64_t epilogue = TP_RT_EPILOGUE_NONE,
                 Value accumulator = {}) {
  Type inType = elementTypeOf(a);
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(bTensor);
  int64_t rank = as.size();
  int64_t m = as[rank - 2];
  int64_t n = transposeB ? bs[rank - 2] : bs[rank - 1];
  SmallVector<int64_t> cShape =
      *broadcastShapes(as.drop_back(2), bs.drop_back(2));
  cShape.append({m, n});
  rc::Argument aArg = operandArgument(library, a);
  rc::Argument bArg = operandArgument(library, bF32 ? bF32 : bTensor);
  if (transposeB)
    bArg = rc::transposeLast2(bArg);
  Value biasTensor = bias ? bias : rc::emptyTensor(b, loc, inType);
  rc::Argument cArg;
  if (accumulator) {
    assert(dstPermutation.empty() && epilogue == TP_RT_EPILOGUE_ACCUMULATE &&
           "an accumulated product has no permutation");
    cArg = rc::update(reshapeTo(b, loc, accumulator, cShape));
  } else if (!dstPermutation.empty()) {
    SmallVector<int64_t> permuted, inverse(dstPermutation.size());
    for (size_t i = 0; i < dstPermutation.size(); ++i) {
      permuted.push_back(cShape[dstPermutation[i]]);
      inverse[dstPermutation[i]] = i;
    }
    cArg = rc::output(b, loc, permuted, outType, inverse);
  } else {
    cArg = rc::output(b, loc, cShape, outType);
  }
  std::string name = ((bF32 ? "tp_rt_dnnl_matmul_cast_" : callPrefix(library)) +
                      productSuffix(inType) + "_" + productSuffix(outType))
                         .str();
  Value epilogueCode = arith::ConstantIntOp::create(b, loc, epilogue, 64);
  return rc::emitCall(
             b, loc, anchor, name,
             {aArg, bArg, rc::input(biasTensor), cArg, rc::input(epilogueCode)})
      .front();
}

/// torch.matmul of `a` and `b` through oneDNN, in the result shape torch
/// gives; std::nullopt (nothing emitted) when the ranks do not fit.
std::optional<Value> emitTorchMatmul(ProductLibrary library, OpBuilder &builder,
                                     Location loc, Operation *anchor, Value a,
                                     Value b, Type outType,
                                     int64_t epilogue = TP_RT_EPILOGUE_NONE,
                                     Value accumulator = {}) {
  bool aVec = shapeOf(a).size() == 1, bVec = shapeOf(b).size() == 1;
  SmallVector<int64_t> as(shapeOf(a)), bs(shapeOf(b));
  if (aVec)
    as.insert(as.begin(), 1);
  if (bVec)
    bs.push_back(1);
  int64_t m = as[as.size() - 2], n = bs.back();
  SmallVector<int64_t> batch;
  SmallVector<int64_t> aShape, bShape;
  if (bs.size() == 2) {
    // The batch of A folds into M.
    batch.assign(as.begin(), as.end() - 2);
    aShape = {numElements(as) / as.back(), as.back()};
    bShape = bs;
  } else {
    auto common = broadcastShapes(ArrayRef<int64_t>(as).drop_back(2),
                                  ArrayRef<int64_t>(bs).drop_back(2));
    if (!common)
      return std::nullopt;
    batch = *common;
    size_t rank = batch.size() + 2;
    aShape.assign(rank - as.size(), 1);
    aShape.append(as.begin(), as.end());
    bShape.assign(rank - bs.size(), 1);
    bShape.append(bs.begin(), bs.end());
  }
  if (aShape.size() > 6)
    return std::nullopt;
  // cuBLASLt's batches are one strided dimension: no broadcasting.
  if (library == ProductLibrary::CublasLt && bShape.size() > 2 &&
      ArrayRef<int64_t>(aShape).drop_back(2) !=
          ArrayRef<int64_t>(bShape).drop_back(2))
    return std::nullopt;
  Value a2 = reshapeTo(builder, loc, a, aShape);
  Value b2 = reshapeTo(builder, loc, b, bShape);
  // A 2-D B (a weight) that is a bf16 cast of f32: fused into the call.
  Value bF32 = library == ProductLibrary::OneDNN && b2 == b &&
                       bShape.size() == 2 && elementTypeOf(b).isBF16()
                   ? fusibleCastSource(b)
                   : nullptr;
  Value c = emitMatmul(library, builder, loc, anchor, a2, b2,
                       /*transposeB=*/false, nullptr, outType, {}, bF32,
                       epilogue, accumulator);
  SmallVector<int64_t> resultShape(batch);
  if (!aVec)
    resultShape.push_back(m);
  if (!bVec)
    resultShape.push_back(n);
  return reshapeTo(builder, loc, c, resultShape);
}

/// mm, bmm, matmul.
template <typename OpTy>
struct ProductToRuntime : public OpRewritePattern<OpTy> {
  ProductToRuntime(MLIRContext *ctx, ProductLibrary library)
      : OpRewritePattern<OpTy>(ctx), library(library) {}
  ProductLibrary library;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value a = op->getOperand(0), b = op->getOperand(1);
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<Type> in = runtimeElementType(library, {a, b});
    if (!in || !supportedOutput(*in, resultType.getElementType()) ||
        !resultType.hasStaticShape())
      return failure();
    // A batched product whose only use is a tp.permute: oneDNN writes the
    // permuted layout directly.
    if (library == ProductLibrary::OneDNN && op->hasOneUse() &&
        resultType.getRank() >= 3 && shapeOf(a).size() == shapeOf(b).size() &&
        shapeOf(a).drop_back(2) == shapeOf(b).drop_back(2))
      if (auto permute = dyn_cast<PermuteOp>(*op->getUsers().begin())) {
        int64_t rank = resultType.getRank();
        SmallVector<int64_t> perm;
        for (int64_t d : permute.getDims())
          perm.push_back(normalizeDim(d, rank));
        Value lhs = a, rhs = b;
        if (perm.back() == rank - 2) {
          // The permuted layout stores C's columns contiguously, which
          // oneDNN writes with its reference kernels: compute C^T = B^T A^T
          // instead (the transposes are views), whose rows are contiguous
          // there.
          auto transposeLast = [&](Value v) -> Value {
            return TransposeOp::create(
                rewriter, op.getLoc(), v, rewriter.getI64IntegerAttr(rank - 2),
                rewriter.getI64IntegerAttr(rank - 1), UnitAttr(), ValueRange());
          };
          lhs = transposeLast(b);
          rhs = transposeLast(a);
          for (int64_t &d : perm)
            d = d == rank - 2 ? rank - 1 : d == rank - 1 ? rank - 2 : d;
        }
        if (perm.back() == rank - 1) {
          Value c =
              emitMatmul(library, rewriter, op.getLoc(), op, lhs, rhs, false,
                         nullptr, resultType.getElementType(), perm);
          rewriter.replaceOp(permute, c);
          rewriter.eraseOp(op);
          return success();
        }
      }
    Epilogue epilogue = fusibleEpilogue(library, *in, op);
    // An accumulated product is emitted at the add, where the tensor it is
    // added to is defined too.
    if (epilogue.into)
      rewriter.setInsertionPoint(epilogue.op);
    std::optional<Value> c = emitTorchMatmul(library, rewriter, op.getLoc(), op,
                                             a, b, resultType.getElementType(),
                                             epilogue.code, epilogue.into);
    if (!c)
      return failure();
    replaceWithEpilogue(rewriter, op, epilogue, *c);
    return success();
  }
};

/// linear: x @ W^T + bias with W as a transposed view and the bias fused.
struct LinearToRuntime : public OpRewritePattern<LinearOp> {
  LinearToRuntime(MLIRContext *ctx, ProductLibrary library)
      : OpRewritePattern(ctx), library(library) {}
  ProductLibrary library;
  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput(), w = op.getWeight(), bias = op.getBias();
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<Type> in = runtimeElementType(library, {x, w, bias});
    if (!in || !supportedOutput(*in, resultType.getElementType()) ||
        shapeOf(w).size() != 2 || (bias && shapeOf(bias).size() != 1))
      return failure();
    Epilogue epilogue = fusibleEpilogue(library, *in, op);
    // An accumulated product is emitted at the add, where the tensor it is
    // added to is defined too.
    if (epilogue.into)
      rewriter.setInsertionPoint(epilogue.op);
    int64_t k = shapeOf(x).back();
    Value x2 = reshapeTo(rewriter, loc, x, {numElements(shapeOf(x)) / k, k});
    Value wF32 = library == ProductLibrary::OneDNN && in->isBF16()
                     ? fusibleCastSource(w)
                     : nullptr;
    Value c = emitMatmul(library, rewriter, loc, op, x2, w,
                         /*transposeB=*/true, bias, resultType.getElementType(),
                         {}, wF32, epilogue.code, epilogue.into);
    replaceWithEpilogue(rewriter, op, epilogue,
                        reshapeTo(rewriter, loc, c, resultType.getShape()));
    return success();
  }
};

/// addmm, baddbmm: an f32 product, then beta * input + alpha * product.
template <typename OpTy>
struct AddProductToRuntime : public OpRewritePattern<OpTy> {
  AddProductToRuntime(MLIRContext *ctx, ProductLibrary library)
      : OpRewritePattern<OpTy>(ctx), library(library) {}
  ProductLibrary library;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = op->getOperand(1), b = op->getOperand(2);
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<Type> in = runtimeElementType(library, {a, b});
    if (!in || !resultType.hasStaticShape() ||
        !supportedOutput(*in, resultType.getElementType()))
      return failure();
    std::optional<Value> acc = emitTorchMatmul(library, rewriter, loc, op, a, b,
                                               rewriter.getF32Type());
    if (!acc)
      return failure();
    rewriter.replaceOp(
        op, buildAlphaBetaEpilogue(rewriter, loc, *acc, op.getInput(),
                                   op.getAlpha().convertToDouble(),
                                   op.getBeta().convertToDouble(), resultType));
    return success();
  }
};

/// addbmm: the batch folds into the contraction, [M, B*K] @ [B*K, N].
struct AddbmmToRuntime : public OpRewritePattern<AddbmmOp> {
  AddbmmToRuntime(MLIRContext *ctx, ProductLibrary library)
      : OpRewritePattern(ctx), library(library) {}
  ProductLibrary library;
  LogicalResult matchAndRewrite(AddbmmOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value b1 = op.getBatch1(), b2 = op.getBatch2();
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<Type> in = runtimeElementType(library, {b1, b2});
    if (!in || !resultType.hasStaticShape() ||
        !supportedOutput(*in, resultType.getElementType()))
      return failure();
    ArrayRef<int64_t> s1 = shapeOf(b1), s2 = shapeOf(b2);
    int64_t batch = s1[0], m = s1[1], k = s1[2], n = s2[2];
    Value a =
        reshapeTo(rewriter, loc, transposeTensor(rewriter, loc, b1, {1, 0, 2}),
                  {m, batch * k});
    Value b = reshapeTo(rewriter, loc, b2, {batch * k, n});
    Value acc = emitMatmul(library, rewriter, loc, op, a, b, false, nullptr,
                           rewriter.getF32Type());
    rewriter.replaceOp(
        op, buildAlphaBetaEpilogue(rewriter, loc, acc, op.getInput(),
                                   op.getAlpha().convertToDouble(),
                                   op.getBeta().convertToDouble(), resultType));
    return success();
  }
};

} // namespace

void mlir::tp::populateMatmulToRuntimePatterns(RewritePatternSet &patterns,
                                               ProductLibrary library) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ProductToRuntime<MmOp>, ProductToRuntime<BmmOp>,
               ProductToRuntime<MatmulOp>, LinearToRuntime,
               AddProductToRuntime<AddmmOp>, AddProductToRuntime<BaddbmmOp>,
               AddbmmToRuntime>(ctx, library);
}
