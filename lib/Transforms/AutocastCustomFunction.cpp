//===- AutocastCustomFunction.cpp - custom_fwd / custom_bwd ---------------===//
//
// tp.custom_function under autocast, with tensorplay.amp's decorator
// semantics (torch.amp.custom_fwd / custom_bwd):
//   custom_fwd(device_type, cast_inputs=T): when autocast is enabled for
//     device_type at the op, floating inputs are cast to T and the forward
//     runs with autocast disabled; otherwise the forward runs under the
//     surrounding state;
//   custom_bwd(device_type): the backward runs with autocast enabled iff
//     the forward used it (not after cast_inputs), in the forward's dtype;
//   no custom_bwd: the backward runs with autocast disabled, with a
//     warning when the forward ran under autocast.
//
//===----------------------------------------------------------------------===//

#include "AutocastRewriter.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

LogicalResult AutocastRewriter::processCustomFunction(
    CustomFunctionOp op, const AutocastContext &outer, Operation *scope) {
  handledExits.insert(op.getForwardYield());
  handledExits.insert(op.getBackwardYield());
  // The forward: cast_inputs in an enabled region casts and disables.
  if (Type castTo = outer.castInputsAt(op))
    for (OpOperand &operand : op->getOpOperands())
      if (isa<FloatType>(elementTypeOf(operand.get())))
        castOperandTo(operand, castTo, scope, /*shared=*/true);
  Block &fwd = op.getForward().front();
  for (auto [arg, input] : llvm::zip(fwd.getArguments(), op.getInputs()))
    retype(arg, input.getType());
  AutocastContext forward = outer.enterForward(op);
  if (failed(processBlock(fwd, forward, op)))
    return failure();
  for (auto [result, yielded] :
       llvm::zip(op.getResults(), op.getForwardYield().getValues()))
    retype(result, yielded.getType());

  // The backward: the forward's state with custom_bwd, else autocast off
  // (forwardUsesAutocast is whether `state` is enabled).
  AutocastState state = forward.current();
  if (!op.getBackwardDevice() && state.enabled)
    op.emitWarning("tp-autocast: the forward of this tp.custom_function "
                   "runs under autocast (")
        << state.tag()
        << ") but it has no custom_bwd, so its backward region runs with "
           "autocast disabled and its ops may compute in other dtypes "
           "than the forward's; add custom_bwd = {device_type = \""
        << stringifyDeviceType(*state.device)
        << "\"} to run it under the forward's autocast state";
  Block &bwd = op.getBackward().front();
  unsigned n = op.getInputs().size(), m = op.getNumResults();
  for (unsigned i = 0; i < n; ++i)
    retype(bwd.getArgument(i), op.getInputs()[i].getType());
  for (unsigned j = 0; j < m; ++j) {
    retype(bwd.getArgument(n + j), op.getResult(j).getType());
    retype(bwd.getArgument(n + m + j), op.getResult(j).getType());
  }
  return processBlock(bwd, outer.enterBackward(op), op);
}
