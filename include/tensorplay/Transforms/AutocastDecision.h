//===- AutocastDecision.h - What dtype an op gets, and why ------*- C++ -*-===//
//
// The one place that decides how autocast treats a tp op: which policy list
// it matched, which dtype each floating operand is cast to, whether the op
// gets dtype=f32, and the reason. The autocast pass applies these decisions;
// the report prints them; the backward rules ask the same question of a
// backward op's forward op.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H
#define TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H

#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace tp {

/// The autocast state ops run under (the eager context-manager state).
struct AutocastState {
  /// The device the code runs on; unset when neither a tp.device attribute
  /// nor the autocast option names one.
  std::optional<Device> device;
  bool enabled = false;
  /// The lower-precision dtype (f16 or bf16) while enabled.
  Type dtype;
  bool cacheEnabled = true;

  bool operator==(const AutocastState &other) const {
    return device == other.device && enabled == other.enabled &&
           (!enabled || dtype == other.dtype) &&
           cacheEnabled == other.cacheEnabled;
  }
  bool operator!=(const AutocastState &other) const {
    return !(*this == other);
  }
  /// A short tag such as "cuda_f16" or "off", for names and reports.
  std::string tag() const;
};

/// Why an op got the dtype it runs in.
enum class AutocastReason {
  LowerPrecision, ///< on the lower-precision list: cast to the autocast dtype
  Fp32,           ///< on the fp32 list: cast to f32
  Fp32SetDtype,   ///< on the fp32 list: runs in f32 through dtype=f32
  Promote,        ///< on the promote list: cast to the widest input type
  Unlisted,       ///< not on any list: runs in its input types
  Banned,         ///< binary_cross_entropy in an enabled cuda/xpu region
  InplaceForm,    ///< ineligible: in-place variant
  OutForm,        ///< ineligible: explicit out= destination
  ExplicitDtype,  ///< ineligible: explicit dtype=
  F64Operand,     ///< ineligible: an f64 operand
  NoFloatOperand, ///< ineligible: no floating operand
  Disabled,       ///< inside an enabled=false region
  AutocastOff,    ///< no autocast state applies
  DeviceMismatch, ///< the function runs on another device than the option's
};

/// A human-readable reason, e.g. "ineligible: f64 operand".
StringRef describeReason(AutocastReason reason);

/// The decision for one op.
struct AutocastDecision {
  PolicyList list = PolicyList::Unlisted;
  AutocastReason reason = AutocastReason::AutocastOff;
  /// Per computation operand: the dtype to cast it to, or null to leave it.
  SmallVector<Type> castTo;
  /// Set dtype=f32 on the op instead of casting its inputs.
  bool setDtypeF32 = false;

  bool castsAnything() const {
    return llvm::any_of(castTo, [](Type t) { return static_cast<bool>(t); });
  }
};

/// Decides how `op` (a tp compute op) runs under `state`, given the element
/// types its computation operands have now (`operandElementTypes`, in the
/// order of ComputeOpInterface::getComputeOperands). `policy` is the policy
/// of `state.device`, or null when the state names no device. When
/// `functionDeviceMismatch` is set, the op's function runs on another device
/// than the autocast option's.
AutocastDecision decideAutocast(Operation *op,
                                ArrayRef<Type> operandElementTypes,
                                const AutocastState &state,
                                const AutocastPolicy *policy,
                                bool functionDeviceMismatch = false);

/// The dtype `op` computes in with its current operands and attributes: the
/// dtype= it carries, else what its dtype rule infers for its first result
/// of kind Value (a tp compute op's "runs in" dtype). Null when unknown.
Type getComputeDtype(Operation *op);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H
