//===- AutocastDecision.h - What dtype an op gets, and why ------*- C++ -*-===//
//
// The one place that decides how autocast treats a tp op: the autocast state
// the op runs under (its function's context, the enclosing tp.autocast
// regions, the pass option), which policy list it matched, which dtype each
// floating operand is cast to, whether the op gets dtype=f32, and the reason.
// The autocast pass applies these decisions; the report prints them; the
// backward rules ask the same question of a backward op's forward op.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H
#define TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H

#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
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

class AutocastOp;
class CustomFunctionOp;

/// What the autocast state depends on besides the IR: the pass option.
struct AutocastOptions {
  /// `--autocast=<device>[:<dtype>]`: every function of that device (or
  /// without tp.device) runs as one enabled autocast region. Unset: only
  /// explicit tp.autocast regions enable autocast.
  std::optional<AutocastTarget> target;
};

/// The autocast states of all devices at a program point (eager autocast
/// keeps one per device type) and the device the code there runs on. A
/// tp.autocast region sets the state of its own device only; ops see the
/// state of their device; a callee on another device sees that device's
/// state at its call site.
class AutocastContext {
public:
  /// The context a function starts in when no call site or recorded state
  /// says otherwise: with a target, the target's device is enabled with its
  /// dtype and the others are off; without one, all are off. `device` is the
  /// device the function runs on (none when unknown).
  static AutocastContext initial(MLIRContext *context,
                                 const AutocastOptions &options,
                                 std::optional<Device> device);

  std::optional<Device> getDevice() const { return device; }
  /// The state of `d` (its `device` is `d`).
  const AutocastState &get(Device d) const {
    return states[static_cast<unsigned>(d)];
  }
  void set(const AutocastState &state) {
    states[static_cast<unsigned>(*state.device)] = state;
  }
  /// The state the ops of this context run under: that of its device (off,
  /// with no device, when the device is unknown).
  AutocastState current() const;
  /// The context inside `region`: the region sets its device's state; code
  /// of unknown device takes the region's device.
  AutocastContext enter(AutocastOp region) const;
  /// For a tp.custom_function at this point (custom_fwd / custom_bwd): the
  /// dtype its floating inputs are cast to (null when cast_inputs is absent
  /// or autocast is off for custom_fwd's device here), the context inside
  /// its forward region (autocast disabled after cast_inputs), whether the
  /// forward region's ops run under autocast (on their device), and the context
  /// inside its backward region (the forward's state with custom_bwd, else
  /// autocast off everywhere).
  Type castInputsAt(CustomFunctionOp op) const;
  AutocastContext enterForward(CustomFunctionOp op) const;
  bool forwardUsesAutocast(CustomFunctionOp op) const;
  AutocastContext enterBackward(CustomFunctionOp op) const;
  /// The same per-device states, for code running on `d`.
  AutocastContext on(std::optional<Device> d) const {
    AutocastContext result = *this;
    result.device = d;
    return result;
  }

  bool operator==(const AutocastContext &other) const {
    return device == other.device && states == other.states;
  }
  bool operator!=(const AutocastContext &other) const {
    return !(*this == other);
  }
  /// A string that tells contexts apart (equal contexts, equal keys).
  std::string key() const;

private:
  std::optional<Device> device;
  std::array<AutocastState, 3> states;
};

/// The attribute recording the context a specialized function was made for:
/// `device_type`, `dtype`, `enabled` and `cache_enabled` of the state of its
/// device, plus one entry per other device whose state differs from the
/// initial one (e.g. `cpu = {cache_enabled = true, dtype = bf16, enabled =
/// true}`). The dialect verifies its form
/// (TPDialect::verifyOperationAttribute).
constexpr StringLiteral kAutocastStateAttrName =
    TPDialect::kAutocastStateAttrName;

/// The device a function declares with tp.device, if any. These functions
/// read tp.device and tp.autocast_state as the dialect verified them
/// (TPDialect::verifyOperationAttribute): they expect verified IR.
std::optional<Device> getDeclaredDevice(Operation *func);

/// The context a function's body starts in when it is entered without a
/// call site (or from a call site of the same context): its recorded
/// tp.autocast_state, else the initial context for its tp.device or, without
/// one, the option's device.
AutocastContext getFunctionAutocastContext(Operation *func,
                                           const AutocastOptions &options);

/// Makes `func` start in `context`: records it as tp.autocast_state, or
/// removes that attribute when tp.device and the options imply `context`.
void setFunctionAutocastContext(Operation *func, const AutocastContext &context,
                                const AutocastOptions &options);

/// The autocast state `op` runs under: the context of its function entered
/// into each tp.autocast region around `op`. After the autocast pass every
/// function starts in the context of its call sites (callees are
/// specialized per context), so this answers for any op of the module; the
/// backward rules ask it of a backward op's forward op.
AutocastState autocastStateAt(Operation *op, const AutocastOptions &options);

/// True when `state` is off because the option enables autocast for another
/// device than the one the state's ops run on (report reason "device
/// mismatch").
bool isDeviceMismatch(const AutocastState &state,
                      const AutocastOptions &options);

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
  ExplicitCast,   ///< a tp.cast of the input program (not the pass's own)
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

/// Decides how `op` (a tp compute op) runs under `state` (e.g.
/// autocastStateAt(op)), given the element types its computation operands
/// have now (`operandElementTypes`, in the order of
/// ComputeOpInterface::getComputeOperands). `policy` is the policy of
/// `state.device`, or null when the state names no device. Set
/// `functionDeviceMismatch` when isDeviceMismatch(state) holds.
AutocastDecision decideAutocast(Operation *op,
                                ArrayRef<Type> operandElementTypes,
                                const AutocastState &state,
                                const AutocastPolicy *policy,
                                bool functionDeviceMismatch = false);

/// The dtype `op` computes in with its current operands and attributes: the
/// dtype= it carries, else its dtype rule's computation dtype (an argmax or
/// matrix_rank computing in f32 reports f32, not its i64 result; an fft of
/// f32 reports f32); the result's for tp.cast and tp.constant. Null when
/// unknown.
Type getComputeDtype(Operation *op);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_AUTOCASTDECISION_H
