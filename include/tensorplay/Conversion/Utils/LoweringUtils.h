//===- LoweringUtils.h - Helpers shared by the tp lowerings -----*- C++ -*-===//
//
// Builders for the linalg/tensor idioms every tp lowering needs: scalar
// conversions with tensorplay's semantics, elementwise generics with numpy
// broadcasting, reductions with a chosen accumulator type, reshapes,
// transposes and constants. All shapes are static.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_UTILS_LOWERINGUTILS_H
#define TENSORPLAY_CONVERSION_UTILS_LOWERINGUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir {
namespace tp {
namespace lowering {

/// Number of elements of a static shape.
int64_t numElements(ArrayRef<int64_t> shape);

/// True for f16 and bf16.
bool isLowPrecisionFloat(Type type);
/// The type arithmetic on values of `type` runs in: f32 for f16/bf16 (as
/// tensorplay's CPU kernels do), the type itself otherwise.
Type computeTypeFor(Type type);

/// Converts a scalar to `to` with tensorplay's semantics: float<->float
/// (extf/truncf, round to nearest even), signed integer<->float, integer
/// width changes (sign-extending), bool->number (0/1) and number->bool
/// (!= 0).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to);
/// Converts `v` to `commonType` (the op's dtype), then to `computeType`.
/// Rounds a wider operand to the op's dtype first, as a tensorplay kernel
/// does when it casts every operand to the common dtype.
Value convertToCompute(OpBuilder &b, Location loc, Value v, Type commonType,
                       Type computeType);
/// A scalar constant of integer, float or complex type `type` (a complex
/// one is `value` + 0i).
Value scalarConstant(OpBuilder &b, Location loc, Type type, double value);
/// The largest finite (or, for floats, infinite) value of `type`, negated
/// when `negative`.
Value extremeConstant(OpBuilder &b, Location loc, Type type, bool negative);

/// The function @name of the module around `anchor`, declared there
/// (private, at the top, of `type`) if it is not yet: the callee of a
/// library call that compiled code makes.
Operation *declareExternalFunction(OpBuilder &b, Operation *anchor,
                                   StringRef name, FunctionType type);

/// A new tensor of `shape` x `elementType` (tensor.empty).
Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType);
/// A new tensor filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Type elementType, double value);
/// A new tensor filled with the scalar `value`.
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value value);

/// Body of an elementwise generic: the operands' scalars (in their own
/// element types) to the result scalar.
using ElementwiseBodyFn =
    function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// An elementwise linalg.generic computing a tensor of `resultType` from
/// `operands` broadcast to its shape with numpy rules (trailing dimensions
/// aligned; a size-1 dimension broadcasts; broadcast dimensions are
/// collapsed away so every indexing map is a projected permutation).
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, ElementwiseBodyFn body);
/// As buildElementwise with several results of the same shape.
SmallVector<Value> buildElementwiseMulti(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    TypeRange resultElementTypes, ValueRange operands,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body);

/// `v` with every element converted to `elementType` (v itself if equal).
Value convertTensor(OpBuilder &b, Location loc, Value v, Type elementType);

/// Combiner of a reduction: (element already mapped, accumulator) -> acc.
using CombineFn = function_ref<Value(OpBuilder &, Location, Value, Value)>;
/// Map applied to each input element before combining.
using MapFn = function_ref<Value(OpBuilder &, Location, Value)>;

/// Reductions over at least this many elements that sum (`widenLong`)
/// accumulate f32 in f64: a sequential f32 sum of n terms loses up to n
/// ulps (1.8e-5 relative for 2^20 terms), an f64 one none that f32 shows.
constexpr int64_t kLongReduction = 4096;

/// Reduces `input` over `dims` into a tensor of the remaining dimensions (in
/// order) of element type `accType`, starting from `init` (a scalar of
/// `accType`). Each element is first passed through `map` (default: a
/// conversion to `accType`). With `widenLong`, an f32 reduction over at
/// least kLongReduction elements accumulates in f64 and rounds once (for
/// sums: `combine` must not depend on the accumulator's type).
Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> dims, Type accType, Value init,
                     CombineFn combine, MapFn map = nullptr,
                     bool widenLong = false);
/// Sum of `input` over `dims` in `accType`.
Value buildSum(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
               Type accType);
/// Maximum of `input` over `dims` (NaN propagates), in `accType`.
Value buildMax(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
               Type accType);

/// The p-norm (p = +-inf, 0, 1, 2 or any other real) of `input` over
/// `dims`, elements converted to `commonType` then to `accType`.
Value buildNorm(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims,
                Type commonType, Type accType, double p);
/// softmax (or log_softmax when `log`; of -x when `negate`) of `x` along
/// `dim`, computed in `accType` after converting elements to `commonType`.
/// The result has `x`'s shape and element type `accType`.
Value buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t dim,
                   Type commonType, Type accType, bool log,
                   bool negate = false);

/// `alpha * acc [+ beta * input]` converted to `resultType`: the epilogue of
/// the addmm family (and of linear, with the bias as input). `acc` holds the
/// f32 (or f64) product; beta == 0 ignores `input` entirely, as tensorplay
/// does.
Value buildAlphaBetaEpilogue(OpBuilder &b, Location loc, Value acc, Value input,
                             double alpha, double beta,
                             RankedTensorType resultType);

/// Inserts size-1 dimensions at positions `dims` (sorted, positions in the
/// result): the keepdim form of a reduction.
Value insertUnitDims(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> dims);
/// Reshapes `v` to `shape` (same number of elements, row-major order).
Value reshapeTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape);
/// result.dim(i) = v.dim(perm[i]) (linalg.transpose; v when identity).
Value transposeTensor(OpBuilder &b, Location loc, Value v,
                      ArrayRef<int64_t> perm);
/// Materialises `v` broadcast to `shape` (numpy rules).
Value broadcastTo(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape);
/// Extracts `v[..., offset:offset+size, ...]` along `dim`.
Value sliceAlong(OpBuilder &b, Location loc, Value v, int64_t dim,
                 int64_t offset, int64_t size);
/// Pads every dimension of `v` by low[i] / high[i] with `padValue`; negative
/// amounts crop.
Value padOrCrop(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, double padValue);

/// Emits "'tp.x' op <message>" at `op` and returns failure: the way a
/// lowering pattern reports a form it cannot lower.
InFlightDiagnostic emitUnsupported(Operation *op, const Twine &message);

/// Scalar math helpers on a float `x` of f32/f64 type.
Value buildErf(OpBuilder &b, Location loc, Value x);
Value buildSigmoid(OpBuilder &b, Location loc, Value x);
/// log(1 + exp(x)) computed stably.
Value buildSoftplus(OpBuilder &b, Location loc, Value x);

} // namespace lowering
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_UTILS_LOWERINGUTILS_H
