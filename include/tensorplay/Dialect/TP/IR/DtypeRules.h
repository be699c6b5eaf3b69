//===- DtypeRules.h - How tp op dtypes follow from operands -----*- C++ -*-===//
//
// Every tp compute op carries a DtypeRuleTrait naming how its computation
// dtype follows from its operands (OperandRule) and what each result holds
// (ResultKind). One function, inferResultElementTypes, turns the rule into
// result element types; the verifier checks the declared results against it
// and the autocast pass re-infers results with it after changing operands.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_DTYPERULES_H
#define TENSORPLAY_DIALECT_TP_IR_DTYPERULES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace tp {

class RuleContext;

/// How the computation dtype follows from the tensor operands.
enum class OperandRule {
  /// All floating (and complex) operands must have one element type; the op
  /// computes in it. Integral operands (indices, targets) do not take part.
  Same,
  /// tensorplay's result_type over the tensor operands (native promotion).
  Promote,
  /// As Promote, but an integral or bool result type becomes f32 (unary math).
  Float,
  /// The element type of the first operand.
  First,
  /// As First, but integral and bool inputs accumulate in i64 (sum, prod,
  /// cumsum, cumprod, trace).
  Accumulate,
};

/// What one result holds, relative to the computation dtype.
/// Weight: the element type of the third operand where there is one (a
/// normalization backward's weight), else the computation dtype.
enum class ResultKind { Value, Complex, Real, I64, I32, U8, Bool, Weight };

/// Returns the dtype tensorplay's native type promotion (torch.result_type)
/// gives for tensors of these types and ranks: dimensioned tensors take
/// precedence over zero-dimensional ones within a category (bool < integer <
/// floating < complex), and a higher category always wins. Returns null for
/// an empty list.
Type promoteTypes(ArrayRef<Type> elementTypes, ArrayRef<int64_t> ranks);

/// Returns the widest floating type of `a` and `b` (f16 and bf16 meet at f32).
Type widestFloatType(Type a, Type b);

/// True when every value of element type `from` is exactly representable in
/// `to` (f16/bf16 -> f32 -> f64, narrower -> wider signless integers).
bool isLosslessConversion(Type from, Type to);

/// True for f16, bf16, f32, f64 and complex element types.
bool isFloatingOrComplex(Type elementType);

/// True when `rule` requires one floating dtype (Same) and the floating
/// operands among `operands` have several: a program captured under eager
/// autocast before autocast is applied (`tp.dot` of f16 and f32). The
/// verifier accepts the functional form of such an op with any floating
/// result dtype; tp-autocast resolves it (or reports it, as eager autocast
/// fails on it); the lowerings refuse it.
bool hasMixedFloatingOperands(OperandRule rule, ValueRange operands);

/// The computation dtype of `op` under `rule` from `operands` (the
/// computation operands), `explicitDtype` overriding it when set. On
/// failure emits at the op when `emit` is set.
FailureOr<Type> computeElementType(const RuleContext &op, OperandRule rule,
                                   ValueRange operands, Type explicitDtype,
                                   bool emit);

/// Computes the result element types of `op` from its rule. `operands` are
/// the computation operands (no `out=` destinations); `explicitDtype`, when
/// set, is the op's dtype= attribute and overrides the computation dtype.
/// On failure emits at the op when `emit` is set.
LogicalResult inferResultElementTypes(const RuleContext &op, OperandRule rule,
                                      ArrayRef<ResultKind> kinds,
                                      ValueRange operands, Type explicitDtype,
                                      SmallVectorImpl<Type> &types, bool emit);

/// Trait carrying the rule (generated from TP_DtypeRule in TPBase.td).
template <OperandRule Rule, ResultKind... Kinds>
struct DtypeRuleTrait {
  template <typename ConcreteType>
  class Impl : public OpTrait::TraitBase<ConcreteType, Impl> {
  public:
    static OperandRule getOperandRule() { return Rule; }
    static ArrayRef<ResultKind> getResultKinds() {
      static const ResultKind kinds[] = {Kinds...};
      return kinds;
    }
  };
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_DTYPERULES_H
