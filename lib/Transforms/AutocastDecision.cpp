//===- AutocastDecision.cpp - What dtype an op gets, and why --------------===//
//
// The eligibility rules and cast policies of tensorplay.amp:
//  - in-place variants and out= forms never autocast;
//  - binary_cross_entropy raises in enabled cuda/xpu regions (it is on the
//    banned list there);
//  - an explicit dtype= makes the op ineligible;
//  - an f64 operand, or no floating operand, makes the op ineligible;
//  - lower-precision list: floating operands that are not the autocast dtype
//    are cast to it; fp32 list: to f32, or dtype=f32 for the set-dtype ops;
//    promote list: to the widest floating operand type.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/AutocastDecision.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tp;

StringRef mlir::tp::describeReason(AutocastReason reason) {
  switch (reason) {
  case AutocastReason::LowerPrecision:
    return "lower-precision list";
  case AutocastReason::Fp32:
    return "fp32 list";
  case AutocastReason::Fp32SetDtype:
    return "fp32 list: dtype=f32";
  case AutocastReason::Promote:
    return "promote list: widest input type";
  case AutocastReason::Unlisted:
    return "unlisted: runs in its input types";
  case AutocastReason::Banned:
    return "banned in autocast";
  case AutocastReason::InplaceForm:
    return "ineligible: in-place form";
  case AutocastReason::OutForm:
    return "ineligible: out= form";
  case AutocastReason::ExplicitDtype:
    return "explicit dtype";
  case AutocastReason::F64Operand:
    return "ineligible: f64 operand";
  case AutocastReason::NoFloatOperand:
    return "ineligible: no floating operand";
  case AutocastReason::Disabled:
    return "disabled region";
  case AutocastReason::AutocastOff:
    return "autocast off";
  case AutocastReason::DeviceMismatch:
    return "device mismatch";
  case AutocastReason::ExplicitCast:
    return "explicit cast";
  }
  llvm_unreachable("unknown autocast reason");
}

static bool isLowFloat(Type t) { return t.isF16() || t.isBF16(); }

AutocastDecision mlir::tp::decideAutocast(Operation *op,
                                          ArrayRef<Type> operandElementTypes,
                                          const AutocastState &state,
                                          const AutocastPolicy *policy,
                                          bool functionDeviceMismatch) {
  AutocastDecision decision;
  decision.castTo.assign(operandElementTypes.size(), Type());
  StringRef name = op->getName().stripDialect();
  if (policy)
    decision.list = policy->lookup(op->getName());

  auto leave = [&](AutocastReason reason) {
    decision.reason = reason;
    return decision;
  };
  if (functionDeviceMismatch)
    return leave(AutocastReason::DeviceMismatch);
  if (!state.enabled)
    return leave(state.device && policy ? AutocastReason::Disabled
                                        : AutocastReason::AutocastOff);
  if (state.device && !policy)
    return leave(AutocastReason::AutocastOff);

  auto compute = cast<ComputeOpInterface>(op);
  if (compute.isInplace())
    return leave(AutocastReason::InplaceForm);
  if (compute.isInplaceOrOut())
    return leave(AutocastReason::OutForm);
  if (decision.list == PolicyList::Banned)
    return leave(AutocastReason::Banned);
  if (compute.getExplicitDtype())
    return leave(AutocastReason::ExplicitDtype);
  bool anyFloat = false;
  for (Type t : operandElementTypes) {
    if (t.isF64())
      return leave(AutocastReason::F64Operand);
    anyFloat |= isa<FloatType>(t);
  }
  if (!anyFloat)
    return leave(AutocastReason::NoFloatOperand);

  MLIRContext *ctx = op->getContext();
  Type target;
  switch (decision.list) {
  case PolicyList::LowerPrecision:
    decision.reason = AutocastReason::LowerPrecision;
    target = state.dtype;
    break;
  case PolicyList::Fp32:
    if (policy->isSetDtype(name)) {
      // fp32_set_opt_dtype: only when the first operand is a floating tensor
      // (not f64, checked above); f32 inputs need nothing.
      decision.reason = AutocastReason::Fp32SetDtype;
      Type first = operandElementTypes.front();
      decision.setDtypeF32 = isa<FloatType>(first) && !first.isF32();
      return decision;
    }
    decision.reason = AutocastReason::Fp32;
    target = Float32Type::get(ctx);
    break;
  case PolicyList::Promote:
    decision.reason = AutocastReason::Promote;
    for (Type t : operandElementTypes)
      if (isa<FloatType>(t))
        target = target ? widestFloatType(target, t) : t;
    break;
  case PolicyList::Unlisted:
  case PolicyList::Banned:
    decision.reason = AutocastReason::Unlisted;
    return decision;
  }
  for (auto [i, t] : llvm::enumerate(operandElementTypes))
    if (isa<FloatType>(t) && t != target &&
        (target.isF32() || isLowFloat(target) || target.isF64()))
      decision.castTo[i] = target;
  return decision;
}

Type mlir::tp::getComputeDtype(Operation *op) {
  if (isa<CastOp, ConstantOp>(op))
    return elementTypeOf(op->getResult(0));
  auto compute = dyn_cast<ComputeOpInterface>(op);
  if (!compute)
    return {};
  // What the op computes in, not what its first result holds (an argmax
  // computing in f32 returns i64, an fft of f32 is complex).
  return compute.getComputeElementType();
}
