//===- DecomposeBuilders.h - building tp ops in rewrites --------*- C++ -*-===//
//
// The small builders the composite-op rewrites (DecomposeComposite.cpp,
// DecomposeCells.cpp, DecomposeDistances.cpp, DecomposeMarginLosses.cpp,
// DecomposeMultiHeadAttention.cpp, DecomposeLinalg.cpp, DecomposeQuantile.cpp,
// DecomposeStft.cpp, DecomposeIndexPutMask.cpp, DecomposeComplexProducts.cpp)
// and the lowerings that emit tp ops around a library call (LossToRuntime.cpp)
// share: each creates one tp op whose result type follows from the op's shape
// and dtype rules, so a decomposition is written as the tensorplay formula it
// mirrors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_TRANSFORMS_DECOMPOSEBUILDERS_H
#define TENSORPLAY_DIALECT_TP_TRANSFORMS_DECOMPOSEBUILDERS_H

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {
namespace decompose {

/// Creates a single-result tp op `OpTy` generically: operands, result type
/// and attributes (inherent ones become properties). For the ops whose
/// result type is the caller's choice (constants, casts).
template <typename OpTy>
Value makeOp(PatternRewriter &rewriter, Location loc, Type resultType,
             ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
  OperationState state(loc, OpTy::getOperationName());
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(attrs);
  return rewriter.create(state)->getResult(0);
}

/// Creates the compute op `OpTy` from operands and attributes: its result
/// type follows from the op's shape and dtype rules (the inferring builder).
template <typename OpTy>
Value build(PatternRewriter &rewriter, Location loc, ValueRange operands,
            ArrayRef<NamedAttribute> attrs = {}) {
  return OpTy::create(rewriter, loc, operands, attrs)->getResult(0);
}

inline NamedAttribute segments(PatternRewriter &rewriter,
                               ArrayRef<int32_t> sizes) {
  return rewriter.getNamedAttr("operandSegmentSizes",
                               rewriter.getDenseI32ArrayAttr(sizes));
}

inline NamedAttribute i64Attr(PatternRewriter &rewriter, StringRef name,
                              int64_t value) {
  return rewriter.getNamedAttr(name, rewriter.getI64IntegerAttr(value));
}

inline NamedAttribute f64Attr(PatternRewriter &rewriter, StringRef name,
                              double value) {
  return rewriter.getNamedAttr(name, rewriter.getF64FloatAttr(value));
}

inline NamedAttribute arrayAttr(PatternRewriter &rewriter, StringRef name,
                                ArrayRef<int64_t> values) {
  return rewriter.getNamedAttr(name, rewriter.getDenseI64ArrayAttr(values));
}

/// A 0-d constant of `elementType` (float, integer or i1).
Value scalarTensor(PatternRewriter &rewriter, Location loc, Type elementType,
                   double value);

/// A 0-d constant holding `value` as a scalar operand of an elementwise op on
/// `like` sees it: in `like`'s element type, f32 for f16 and bf16 (whose
/// elementwise ops compute in f32, as eager's opmath does with a Python
/// scalar). Never f32 for an f64 computation: a scale of 1/sqrt(8) or 0.3
/// rounded to f32 is off by up to 3e-8 relative.
Value scalarFor(PatternRewriter &rewriter, Location loc, Value like,
                double value);

/// A 1-D i64 constant holding `values`.
Value indexTensor(PatternRewriter &rewriter, Location loc,
                  ArrayRef<int64_t> values);

/// A constant of `type` holding zeros.
Value zerosOf(PatternRewriter &rewriter, Location loc, RankedTensorType type);
/// Replaces `op` by `value`, cast to the op's (first) result type where the
/// decomposition's dtype rules gave another element type; an error naming
/// both types when the shapes differ.
LogicalResult replaceWith(PatternRewriter &rewriter, Operation *op,
                          Value value);
/// x cast to `elementType` (x itself when it has that element type).
Value castTo(PatternRewriter &rewriter, Location loc, Value x,
             Type elementType);

/// x^T over the last two dimensions.
Value transposeLast2(PatternRewriter &rewriter, Location loc, Value x);
Value matmul(PatternRewriter &rewriter, Location loc, Value a, Value b);
Value permute(PatternRewriter &rewriter, Location loc, Value x,
              ArrayRef<int64_t> dims);
/// linear(x, w, b) with an optional bias.
Value linear(PatternRewriter &rewriter, Location loc, Value x, Value w,
             Value b);
/// x[..., start:end, ...] along `dim` (non-negative).
Value slice(PatternRewriter &rewriter, Location loc, Value x, int64_t dim,
            int64_t start, int64_t end);
Value unsqueeze(PatternRewriter &rewriter, Location loc, Value x, int64_t dim);
Value reshape(PatternRewriter &rewriter, Location loc, Value x,
              ArrayRef<int64_t> shape);

// The patterns of each file, added by populateDecomposeAttentionPatterns
// (multi-head attention) and populateDecomposeCompositePatterns (the rest).
void populateDecomposeCellPatterns(RewritePatternSet &patterns);
void populateDecomposeMultiHeadAttentionPatterns(RewritePatternSet &patterns);
void populateDecomposeDistancePatterns(RewritePatternSet &patterns);
void populateDecomposeMarginLossPatterns(RewritePatternSet &patterns);
void populateDecomposeLinalgPatterns(RewritePatternSet &patterns);
void populateDecomposeQuantilePatterns(RewritePatternSet &patterns);
void populateDecomposeStftPatterns(RewritePatternSet &patterns);
void populateDecomposeIndexPutMaskPatterns(RewritePatternSet &patterns);
void populateDecomposeComplexProductPatterns(RewritePatternSet &patterns);
void populateDecomposeLogsumexpPatterns(RewritePatternSet &patterns);

} // namespace decompose
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_TRANSFORMS_DECOMPOSEBUILDERS_H
