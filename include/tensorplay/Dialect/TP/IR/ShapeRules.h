//===- ShapeRules.h - Shape rules of the tp op families ---------*- C++ -*-===//
//
// One shape rule per op family: a function of the op's operands and
// attributes (seen through a RuleContext) that checks them and records the
// result shapes they imply. The generated verify() of every compute op runs
// verifyFormArgs, its family's rule, RuleContext::verifyResultShapes and
// verifyResultElementTypes; its inferReturnTypes (InferTypeOpInterface) runs
// the same rule and the dtype rule to build the op from operands and
// attributes alone. Shapes may have dynamic dimensions: a dynamic dimension
// is compatible with anything.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_SHAPERULES_H
#define TENSORPLAY_DIALECT_TP_IR_SHAPERULES_H

#include "tensorplay/Dialect/TP/IR/DtypeRules.h"
#include "tensorplay/Dialect/TP/IR/RuleContext.h"
#include "tensorplay/Dialect/TP/IR/TPEnums.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir {
namespace tp {

//===----------------------------------------------------------------------===//
// Shape utilities (used by the rules and by the transforms and lowerings)
//===----------------------------------------------------------------------===//

/// Type of a ranked tensor value.
inline RankedTensorType tensorTypeOf(Value value) {
  return llvm::cast<RankedTensorType>(value.getType());
}
/// Shape of a ranked tensor value.
inline ArrayRef<int64_t> shapeOf(Value value) {
  return tensorTypeOf(value).getShape();
}
/// Rank of a ranked tensor value.
inline int64_t rankOf(Value value) { return tensorTypeOf(value).getRank(); }
/// Element type of a ranked tensor value.
inline Type elementTypeOf(Value value) {
  return tensorTypeOf(value).getElementType();
}

/// The number of elements of `shape`, or kDynamic when a size is dynamic.
inline int64_t numElementsOrDynamic(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t size : shape) {
    if (ShapedType::isDynamic(size))
      return ShapedType::kDynamic;
    n *= size;
  }
  return n;
}

/// Broadcasts `shapes` numpy-style into `result` (upstream's
/// OpTrait::util::getBroadcastedShape, folded over the list); fails when
/// they are incompatible.
LogicalResult broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                              SmallVectorImpl<int64_t> &result);

/// The broadcast of two shapes, or std::nullopt when they are incompatible.
inline std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  SmallVector<int64_t> result;
  if (failed(broadcastShapes({a, b}, result)))
    return std::nullopt;
  return result;
}

/// Whether a tensor of shape `from` broadcasts to shape `to` (torch's
/// expand rule: `from` has at most `to`'s rank and each of its trailing
/// dimensions is 1 or equals `to`'s; a dynamic size on either side may).
bool broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to);

/// A valid, possibly negative dimension index of a tensor of `rank` made
/// non-negative (scalars accept 0 and -1).
inline int64_t normalizeDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + std::max<int64_t>(rank, 1) : dim;
}

/// The sorted, normalized, distinct dimensions a reduction over `dims`
/// reduces (all of `rank` when `dims` is absent or empty).
SmallVector<int64_t> reductionDims(std::optional<ArrayRef<int64_t>> dims,
                                   int64_t rank);

/// Checks and normalizes a possibly negative dimension index for a tensor of
/// `rank`; emits "dim D is out of range for a tensor of rank R" and fails
/// when invalid.
FailureOr<int64_t> normalizeDim(const RuleContext &op, int64_t dim,
                                int64_t rank, StringRef what = "dim");

/// Checks that `value` has rank in [minRank, maxRank]; `what` names it.
LogicalResult expectRank(const RuleContext &op, Value value, StringRef what,
                         int64_t minRank, int64_t maxRank);

/// Checks that two dimension sizes agree (dynamic matches any).
LogicalResult expectDimsMatch(const RuleContext &op, int64_t a, int64_t b,
                              const Twine &message);

/// Formats a shape as 4x?x8 (or "scalar" for rank 0).
std::string formatShape(ArrayRef<int64_t> shape);

/// Checks that a backward op's `grad` has the shape `expected` of the
/// forward's `whose` ("output", "input").
LogicalResult expectGradShape(const RuleContext &op, Value grad,
                              ArrayRef<int64_t> expected, StringRef whose);

/// A list of dimensions to reduce: absent means all.
struct DimList {
  DimList(std::nullopt_t) {}
  DimList(std::optional<ArrayRef<int64_t>> dims) {
    if (dims)
      values.emplace(dims->begin(), dims->end());
  }
  DimList(ArrayRef<int64_t> dims) : values(SmallVector<int64_t>(dims)) {}
  DimList(std::optional<int64_t> dim) {
    if (dim)
      values.emplace(SmallVector<int64_t>{*dim});
  }
  std::optional<SmallVector<int64_t>> values;
};
inline DimList optionalDims(std::optional<int64_t> dim) { return DimList(dim); }
inline DimList optionalDims(int64_t dim) {
  return DimList(std::optional<int64_t>(dim));
}

//===----------------------------------------------------------------------===//
// Common to every compute op
//===----------------------------------------------------------------------===//

/// In-place and out= forms: `inplace` and `out` are exclusive, `out` has one
/// destination per result with the result's type, and an in-place op's
/// result has the type of its first operand.
LogicalResult verifyFormArgs(Operation *op);

/// Checks the declared result element types against the op's dtype rule.
LogicalResult verifyResultElementTypes(Operation *op);

/// The explicit dtype= an op accepts (tensorplay's rules): softmax,
/// log_softmax and softmin need a floating dtype, mean and norm a floating or
/// complex one; sum, prod, cumsum and cumprod accept integral dtypes too.
enum class DtypeKind { Any, Floating, FloatingOrComplex };

/// Checks the op's explicit dtype=, if any, against `kind`.
LogicalResult verifyExplicitDtype(const RuleContext &op, DtypeKind kind);

//===----------------------------------------------------------------------===//
// Building ops from operands and attributes
//===----------------------------------------------------------------------===//

/// The result types of the tp compute op `name` built from `operands` and
/// `attributes`: shapes from its family's shape rule, element types from its
/// dtype rule (in-place and out= forms: their destinations' types), through
/// the op's InferTypeOpInterface. Fails (reporting nothing) for invalid
/// operands, for inherent attributes of the wrong kind (a StringAttr where
/// the op takes an enum attribute) and for results whose shape does not
/// follow from them.
FailureOr<SmallVector<Type>>
inferResultTypes(MLIRContext *context, StringRef name, ValueRange operands,
                 ArrayRef<NamedAttribute> attributes);

/// Creates the op `name` (e.g. "tp.mm") with inferred result types; returns
/// null (creating nothing, reporting nothing) when they cannot be inferred.
/// Ops with several optional operands need their operandSegmentSizes in
/// `attributes`. Typed callers use the generated builders instead
/// (`MmOp::create(builder, loc, a, b)`), which infer the same way.
Operation *createWithInferredResultTypes(OpBuilder &builder, Location loc,
                                         StringRef name, ValueRange operands,
                                         ArrayRef<NamedAttribute> attributes);

/// The attributes of the compute op `op` (its inherent ones included) for
/// building it with `numOut` out= destinations: the out= segment (the last)
/// of its operandSegmentSizes, where it has them, set to `numOut`.
NamedAttrList attributesWithOutSegment(Operation *op, int32_t numOut);

//===----------------------------------------------------------------------===//
// Family shape rules
//===----------------------------------------------------------------------===//

// Elementwise.
LogicalResult inferElementwiseShape(RuleContext &op, ArrayRef<Value> inputs);
LogicalResult inferDropoutShape(RuleContext &op);
/// topk: 0 <= k <= the size along dim; values and indices have the input's
/// shape with k along dim.
LogicalResult inferTopkShape(RuleContext &op);
LogicalResult inferPowShape(RuleContext &op);
LogicalResult inferWhereShape(RuleContext &op);
LogicalResult inferClampShape(RuleContext &op);
LogicalResult inferMaskedFillShape(RuleContext &op);

// Matrix products.
enum class MatmulKind { Mm, Bmm, Matmul, Mv, Dot, Addbmm, Outer, MultiDot };
LogicalResult inferProductShape(RuleContext &op, MatmulKind kind, Value self,
                                Value lhs, Value rhs);
LogicalResult inferChainShape(RuleContext &op, ValueRange tensors,
                              MatmulKind kind);
LogicalResult inferLinearShape(RuleContext &op);
LogicalResult inferBilinearShape(RuleContext &op);
LogicalResult inferTensordotShape(RuleContext &op);
LogicalResult inferVecdotShape(RuleContext &op);
LogicalResult inferPreluShape(RuleContext &op);
LogicalResult inferCrossShape(RuleContext &op);
/// fake_quantize_per_tensor_affine: a floating input, scale > 0,
/// quant_min <= zero_point <= quant_max; the input's shape.
LogicalResult inferFakeQuantizeShape(RuleContext &op);

// Convolutions.
LogicalResult inferConvolutionShape(
    RuleContext &op, int64_t spatialRank, bool transposed, Value input,
    Value weight, Value bias, std::optional<ArrayRef<int64_t>> stride,
    std::optional<ArrayRef<int64_t>> padding,
    std::optional<ArrayRef<int64_t>> dilation,
    std::optional<ArrayRef<int64_t>> outputPadding, int64_t groups);
LogicalResult inferConvTbcShape(RuleContext &op);
LogicalResult inferConvolutionBackwardShape(RuleContext &op);

// Recurrent cells and attention.
LogicalResult inferRecurrentCellShape(RuleContext &op, int64_t gates,
                                      Value input, ArrayRef<Value> states,
                                      Value wIh, Value wHh, Value bIh,
                                      Value bHh);
LogicalResult inferMkldnnRnnLayerShape(RuleContext &op);
LogicalResult inferAttentionShape(RuleContext &op);
LogicalResult inferNativeMultiHeadAttentionShape(RuleContext &op);

// Reductions and normalization.
LogicalResult inferReductionShape(RuleContext &op, Value input, DimList dims,
                                  bool keepdim);
LogicalResult inferAlongDimShape(RuleContext &op, Value input, int64_t dim);
/// softmax_backward / log_softmax_backward: floating grad_output and output
/// of one shape, dim in range; the result has that shape.
LogicalResult inferSoftmaxBackwardShape(RuleContext &op);
/// layer_norm_backward: the forward's checks, grad_output of the input's
/// shape; results of the input's and of normalized_shape's shapes.
LogicalResult inferLayerNormBackwardShape(RuleContext &op);
/// group_norm_backward: the forward's checks, grad_output of the input's
/// shape; results of the input's shape and (C).
LogicalResult inferGroupNormBackwardShape(RuleContext &op);
LogicalResult inferLayerNormShape(RuleContext &op);
LogicalResult inferGroupNormShape(RuleContext &op);
LogicalResult inferBatchNormShape(RuleContext &op);
LogicalResult inferBatchNormBackwardShape(RuleContext &op);
LogicalResult inferDistShape(RuleContext &op);
LogicalResult inferCdistShape(RuleContext &op);
LogicalResult inferPdistShape(RuleContext &op);
LogicalResult inferCosineSimilarityShape(RuleContext &op);
LogicalResult inferTraceShape(RuleContext &op);
LogicalResult inferQuantileShape(RuleContext &op);

// Losses.
enum class LossKind {
  Elementwise,  ///< target (and other inputs) broadcast with input
  PerRow,       ///< (N, D) inputs, per-sample loss of shape (N)
  ClassIndex,   ///< (N, C) or (C) input, integer (N) or () target
  ClassIndex2d, ///< (N, C, H, W) input, integer (N, H, W) target
  CrossEntropy, ///< ClassIndex with extra dims, or probabilities of input shape
  MultiLabel,   ///< (N, C) input and integer (N, C) target
  Ctc,          ///< (T, N, C) log-probs, integer targets and lengths
};
LogicalResult inferLossShape(RuleContext &op, LossKind kind,
                             Reduction reduction);
/// ctc_loss_backward: grad_output one value per sample (ctc_loss's checks
/// on the other operands); the result has log_probs' shape.
LogicalResult inferCtcLossBackwardShape(RuleContext &op);
/// nll_loss_backward: the input's shape, for targets and a grad_output of
/// the loss's shapes.
LogicalResult inferNllLossBackwardShape(RuleContext &op, Value weight,
                                        Reduction reduction);

// Layout, indexing, pooling, sampling.
enum class LayoutKind {
  Transpose,
  Permute,
  Reshape,
  Expand,
  Unsqueeze,
  Squeeze,
  Flatten
};
LogicalResult inferLayoutShape(RuleContext &op, LayoutKind kind);
LogicalResult inferJoinShape(RuleContext &op, bool stack);
/// slice (the input's shape with the sliced length) and slice_backward
/// (grad_output of that shape for an input of `input_sizes`).
LogicalResult inferSliceShape(RuleContext &op, bool backward);
/// The [start, start + length * step) range a slice of `size` elements
/// takes (aten's clamping); `size` must be static.
struct SliceRange {
  int64_t start, length;
};
SliceRange sliceRange(int64_t size, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step);
/// As above, for a slice op's optional `start` / `end` attributes (null:
/// absent).
SliceRange sliceRange(int64_t size, IntegerAttr start, IntegerAttr end,
                      int64_t step);
LogicalResult inferIndexedShape(RuleContext &op, Value input, Value index,
                                Value source);
/// gather: index of self's rank, no larger than self but along dim; the
/// result has index's shape.
LogicalResult inferGatherShape(RuleContext &op);
LogicalResult inferIndexPutShape(RuleContext &op);
LogicalResult inferEmbeddingShape(RuleContext &op);
LogicalResult inferEmbeddingDenseBackwardShape(RuleContext &op);
LogicalResult inferPadShape(RuleContext &op, int64_t spatialRank);
LogicalResult inferPoolShape(RuleContext &op, int64_t spatialRank,
                             ArrayRef<int64_t> kernel,
                             std::optional<ArrayRef<int64_t>> stride,
                             std::optional<ArrayRef<int64_t>> padding,
                             std::optional<ArrayRef<int64_t>> dilation,
                             bool ceilMode);
/// A pool backward: grad_output of the pool's output shape (and indices of
/// it, for max pools); the result has the input's shape.
LogicalResult inferPoolBackwardShape(RuleContext &op, int64_t spatialRank,
                                     ArrayRef<int64_t> kernel,
                                     std::optional<ArrayRef<int64_t>> stride,
                                     std::optional<ArrayRef<int64_t>> padding,
                                     std::optional<ArrayRef<int64_t>> dilation,
                                     bool ceilMode);
LogicalResult inferAdaptivePoolBackwardShape(RuleContext &op,
                                             int64_t spatialRank);
LogicalResult inferUnpoolShape(RuleContext &op, int64_t spatialRank);
LogicalResult inferAdaptivePoolShape(RuleContext &op, int64_t spatialRank,
                                     ArrayRef<int64_t> outputSize);
LogicalResult inferGridSampleShape(RuleContext &op, int64_t spatialRank);

// Linear algebra, FFT, complex views.
enum class MatrixKind {
  Square,         ///< (..., n, n) -> same shape
  Transposed,     ///< (..., m, n) -> (..., n, m)
  TensorInverse,  ///< tensorinv and tensorsolve (tensordot inverses)
  BatchScalar,    ///< (..., m, n) -> (...)
  BatchVector,    ///< (..., n, n) -> (..., n)
  BatchVectorMin, ///< (..., m, n) -> (..., min(m, n))
  Solve,          ///< A (..., n, n), B (..., n, k) or (..., n) -> shape of B
  SolveRhsFirst,  ///< B first, then the (..., n, n) factor -> shape of B
  Same,           ///< result has the first operand's shape
  ThirdOperand,   ///< result has the third operand's shape
  Factor,         ///< multi-result factorizations (QR, SVD, eig, LU, ...)
};
LogicalResult inferMatrixOpShape(RuleContext &op, MatrixKind kind);
/// The dimensions an fft op (`name` without "fft_": "rfft2", "ifftn", ...)
/// transforms, in order, as given (possibly negative): `dim` (1-D forms),
/// `dimList`, or the defaults: the last two (the 2-D forms), the last
/// `s.size()` or all (the n-D forms), the last.
SmallVector<int64_t> fftDims(StringRef name, IntegerAttr dim,
                             DenseI64ArrayAttr dimList, DenseI64ArrayAttr s,
                             int64_t rank);
LogicalResult inferFftShape(RuleContext &op);
LogicalResult inferStftShape(RuleContext &op);
LogicalResult inferViewAsComplexShape(RuleContext &op);
LogicalResult inferViewAsRealShape(RuleContext &op);

//===----------------------------------------------------------------------===//
// The generated verify() and inferReturnTypes() of every compute op
//===----------------------------------------------------------------------===//

/// The operand-count trait of `OpTy` (AtLeastNOperands<N>: every compute op
/// ends with the variadic `out=` operands) or AttrSizedOperandSegments,
/// checked on `op` before its generated invariants index the operands.
template <typename OpTy, unsigned N = 0>
LogicalResult verifyDeclaredOperandCount(Operation *op) {
  if constexpr (OpTy::template hasTrait<OpTrait::AttrSizedOperandSegments>()) {
    return OpTrait::AttrSizedOperandSegments<OpTy>::verifyTrait(op);
  } else if constexpr (N > 32) {
    return success();
  } else if constexpr (OpTy::template hasTrait<
                           OpTrait::AtLeastNOperands<N>::template Impl>()) {
    return OpTrait::impl::verifyAtLeastNOperands(op, N);
  } else {
    return verifyDeclaredOperandCount<OpTy, N + 1>(op);
  }
}

/// verify(): the form, the shape rule against the declared shapes, the dtype
/// rule against the declared element types.
template <typename OpTy>
LogicalResult verifyComputeOp(OpTy op) {
  if (failed(verifyFormArgs(op)))
    return failure();
  RuleContext context(op.getOperation());
  if (failed(OpTy::inferResultShapes(context, typename OpTy::Adaptor(op))) ||
      failed(context.verifyResultShapes()))
    return failure();
  return verifyResultElementTypes(op);
}

/// Result types from the recorded shapes and the dtype rule; in-place and
/// out= forms take their destinations' types.
LogicalResult inferComputeResultTypes(RuleContext &context, OperandRule rule,
                                      ArrayRef<ResultKind> kinds, bool inplace,
                                      ValueRange out,
                                      SmallVectorImpl<Type> &types);

/// inferReturnTypes(): the shape rule and the dtype rule from the operands
/// and attributes of `adaptor`.
template <typename OpTy>
LogicalResult inferComputeOpTypes(MLIRContext *context,
                                  std::optional<Location> location,
                                  typename OpTy::Adaptor adaptor,
                                  SmallVectorImpl<Type> &types) {
  // The properties as the op will have them: inherent attributes that the
  // caller passed as attributes (the generic builders) moved in, defaults
  // filled in.
  typename OpTy::Properties properties = adaptor.getProperties();
  OperationName name(OpTy::getOperationName(), context);
  RuleContext rules(context, location, name, adaptor.getOperands(),
                    adaptor.getAttributes(), OpaqueProperties(&properties),
                    DictionaryAttr(), /*regions=*/{},
                    OpTy::getResultKinds().size(), 0);
  if (DictionaryAttr attributes = adaptor.getAttributes())
    if (failed(OpTy::setPropertiesFromAttr(
            properties, attributes, [&] { return rules.emitOpError(); })))
      return failure();
  OpTy::populateDefaultProperties(name, properties);
  typename OpTy::Adaptor complete(adaptor.getOperands(),
                                  adaptor.getAttributes(), properties);
  rules.setInherentAttributes(
      llvm::dyn_cast_or_null<DictionaryAttr>(
          OpTy::getPropertiesAsAttr(context, properties)),
      complete.getOut().size());
  if (failed(OpTy::inferResultShapes(rules, complete)))
    return failure();
  return inferComputeResultTypes(rules, OpTy::getOperandRule(),
                                 OpTy::getResultKinds(), complete.getInplace(),
                                 complete.getOut(), types);
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_SHAPERULES_H
