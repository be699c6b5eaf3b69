//===- Verifiers.h - Shape and dtype checks of tp ops -----------*- C++ -*-===//
//
// The checks behind each op family's verify(). Each takes the op (for
// diagnostics) and the operands or attributes it checks; the generated
// verify() of every op calls verifyFormArgs, then its family's check, then
// verifyResultElementTypes. Shapes may have dynamic dimensions: a dynamic
// dimension is compatible with anything.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_VERIFIERS_H
#define TENSORPLAY_DIALECT_TP_IR_VERIFIERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir {
namespace tp {

//===----------------------------------------------------------------------===//
// Shape utilities
//===----------------------------------------------------------------------===//

/// Shape of a ranked tensor value.
ArrayRef<int64_t> shapeOf(Value value);
/// Rank of a ranked tensor value.
int64_t rankOf(Value value);
/// Element type of a ranked tensor value.
Type elementTypeOf(Value value);

/// Broadcasts `shapes` numpy-style into `result`; fails when incompatible.
LogicalResult broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                              SmallVectorImpl<int64_t> &result);

/// Whether a tensor of shape `from` broadcasts to shape `to` (torch's
/// expand rule: `from` has at most `to`'s rank and each of its trailing
/// dimensions is 1 or equals `to`'s; a dynamic size on either side may).
bool broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to);

/// Normalizes a possibly negative dimension index for a tensor of `rank`;
/// emits "dim D is out of range for rank R" at `op` and fails when invalid.
FailureOr<int64_t> normalizeDim(Operation *op, int64_t dim, int64_t rank,
                                StringRef what = "dim");

/// Checks that result `index` has shape `expected` (dynamic dims match any).
LogicalResult expectResultShape(Operation *op, unsigned index,
                                ArrayRef<int64_t> expected);

/// Checks that `value` has rank in [minRank, maxRank]; `what` names it.
LogicalResult expectRank(Operation *op, Value value, StringRef what,
                         int64_t minRank, int64_t maxRank);

/// Checks that two dimension sizes agree (dynamic matches any).
LogicalResult expectDimsMatch(Operation *op, int64_t a, int64_t b,
                              const Twine &message);

/// Formats a shape as 4x?x8 (or "scalar" for rank 0).
std::string formatShape(ArrayRef<int64_t> shape);

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
LogicalResult verifyExplicitDtype(Operation *op, DtypeKind kind);

//===----------------------------------------------------------------------===//
// Result-type inference
//===----------------------------------------------------------------------===//

/// The result types of a tp compute op as its operands and attributes imply
/// them: shapes from its family's shape rules, element types from its dtype
/// rule (in-place and out= forms: their destinations' types). Fails for
/// invalid operands and for ops whose result shapes do not follow from the
/// operands (e.g. linalg_svd, fft with data-dependent sizes): those need
/// explicit result types. The op's current result types are ignored.
FailureOr<SmallVector<Type>> inferResultTypes(Operation *op);

/// Creates the op `name` (e.g. "tp.mm") with `numResults` results whose
/// types are inferred; returns null (creating nothing) when they cannot be.
/// Ops with several optional operands need their operandSegmentSizes in
/// `attributes`.
Operation *createWithInferredResultTypes(OpBuilder &builder, Location loc,
                                         StringRef name, ValueRange operands,
                                         ArrayRef<NamedAttribute> attributes,
                                         unsigned numResults = 1);

//===----------------------------------------------------------------------===//
// Family checks
//===----------------------------------------------------------------------===//

// Elementwise.
LogicalResult verifyElementwise(Operation *op, ArrayRef<Value> inputs);
LogicalResult verifyDropout(Operation *op);
LogicalResult verifyPow(Operation *op);
LogicalResult verifyWhere(Operation *op);

// Matrix products.
enum class MatmulKind { Mm, Bmm, Matmul, Mv, Dot, Addbmm, Outer, MultiDot };
LogicalResult verifyProduct(Operation *op, MatmulKind kind, Value self,
                            Value lhs, Value rhs);
LogicalResult verifyChain(Operation *op, ValueRange tensors, MatmulKind kind);
LogicalResult verifyLinear(Operation *op);
LogicalResult verifyBilinear(Operation *op);
LogicalResult verifyTensordot(Operation *op);
LogicalResult verifyVecdot(Operation *op);
LogicalResult verifyPrelu(Operation *op);
LogicalResult verifyCross(Operation *op);

// Convolutions.
LogicalResult verifyConvolution(Operation *op, int64_t spatialRank,
                                bool transposed, Value input, Value weight,
                                Value bias,
                                std::optional<ArrayRef<int64_t>> stride,
                                std::optional<ArrayRef<int64_t>> padding,
                                std::optional<ArrayRef<int64_t>> dilation,
                                std::optional<ArrayRef<int64_t>> outputPadding,
                                int64_t groups);
LogicalResult verifyConvTbc(Operation *op);

// Recurrent cells and attention.
LogicalResult verifyRecurrentCell(Operation *op, int64_t gates, Value input,
                                  ArrayRef<Value> states, Value wIh, Value wHh,
                                  Value bIh, Value bHh);
LogicalResult verifyMkldnnRnnLayer(Operation *op);
LogicalResult verifyAttention(Operation *op);
LogicalResult verifyNativeMultiHeadAttention(Operation *op);

// Reductions and normalization.
LogicalResult verifyReduction(Operation *op, Value input, DimList dims,
                              bool keepdim);
LogicalResult verifyAlongDim(Operation *op, Value input, int64_t dim);
LogicalResult verifyLayerNorm(Operation *op);
LogicalResult verifyGroupNorm(Operation *op);
LogicalResult verifyBatchNorm(Operation *op);
LogicalResult verifyDist(Operation *op);
LogicalResult verifyCdist(Operation *op);
LogicalResult verifyPdist(Operation *op);
LogicalResult verifyCosineSimilarity(Operation *op);
LogicalResult verifyTrace(Operation *op);
LogicalResult verifyQuantile(Operation *op);

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
LogicalResult verifyLoss(Operation *op, LossKind kind, StringRef reduction);

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
LogicalResult verifyLayout(Operation *op, LayoutKind kind);
LogicalResult verifyJoin(Operation *op, bool stack);
LogicalResult verifyIndexed(Operation *op, Value input, Value index,
                            Value source);
LogicalResult verifyIndexPut(Operation *op);
LogicalResult verifyEmbedding(Operation *op);
LogicalResult verifyPad(Operation *op, int64_t spatialRank);
LogicalResult verifyPool(Operation *op, int64_t spatialRank,
                         ArrayRef<int64_t> kernel,
                         std::optional<ArrayRef<int64_t>> stride,
                         std::optional<ArrayRef<int64_t>> padding,
                         std::optional<ArrayRef<int64_t>> dilation,
                         bool ceilMode);
LogicalResult verifyUnpool(Operation *op, int64_t spatialRank);
LogicalResult verifyAdaptivePool(Operation *op, int64_t spatialRank,
                                 ArrayRef<int64_t> outputSize);
LogicalResult verifyGridSample(Operation *op, int64_t spatialRank);

// Linear algebra, FFT, complex views.
enum class MatrixKind {
  Square,         ///< (..., n, n) -> same shape
  Transposed,     ///< (..., m, n) -> (..., n, m)
  Any,            ///< shapes not derivable from the operands alone
  BatchScalar,    ///< (..., m, n) -> (...)
  BatchVector,    ///< (..., n, n) -> (..., n)
  BatchVectorMin, ///< (..., m, n) -> (..., min(m, n))
  Solve,          ///< A (..., n, n), B (..., n, k) or (..., n) -> shape of B
  SolveRhsFirst,  ///< B first, then the (..., n, n) factor -> shape of B
  Same,           ///< result has the first operand's shape
  ThirdOperand,   ///< result has the third operand's shape
  Factor,         ///< multi-result factorization; matrices of rank >= 2
};
LogicalResult verifyMatrixOp(Operation *op, MatrixKind kind);
LogicalResult verifyFft(Operation *op);
LogicalResult verifyStft(Operation *op);
LogicalResult verifyViewAsComplex(Operation *op);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_VERIFIERS_H
