//===- TPTrainingOps.td - GradScaler and fused optimizer ops -*- tablegen -*-===//
//
// The ops of a compiled train step (tp-train-step): the GradScaler's
// inf/NaN check and scale update, and one fused SGD or AdamW step per
// parameter. They have value semantics (each returns the updated state) and
// lower to calls of the runtime's kernels (tensorplay/Runtime/CAPI.h), which
// bufferization runs in place. They are not compute ops: autocast leaves
// them alone, and tp-autodiff does not differentiate through them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPTRAININGOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPTRAININGOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TP_ScalarF32 : 0DTensorOf<[F32]>;
def TP_ScalarI32 : 0DTensorOf<[I32]>;
def TP_ScalarI64 : 0DTensorOf<[I64]>;

class TP_TrainingOp<string mnemonic, list<Trait> traits = []>
    : TP_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  let hasVerifier = 1;
}

def TP_AmpCheckFiniteOp : TP_TrainingOp<"amp_check_finite"> {
  let summary = "found_inf of a GradScaler step: 1 when a gradient holds an "
                "inf or a NaN";
  let description = [{
    The check half of `torch._amp_foreach_non_finite_check_and_unscale_`:
    the result is 1.0 when any element of any of `grads` is inf or NaN and
    0.0 otherwise. The unscaling itself happens in the fused optimizer step
    (its `grad_scale`), as with torch's fused optimizers. f16 gradients are
    accepted (only the unscale of a non-fused step refuses them). A gradient
    that is an exact widening `tp.cast` (bf16 or f16 to f32) is checked
    before the cast (canonicalization): the widening keeps every inf and
    NaN and makes no new one.

    Example:

    ```mlir
    %found = tp.amp_check_finite %g0, %g1 : tensor<64x10xf32>, tensor<10xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<TP_FloatTensor>:$grads);
  let results = (outs TP_ScalarF32:$found_inf);
  let assemblyFormat =
      "$grads attr-dict `:` type($grads) `->` type($found_inf)";
  let hasCanonicalizer = 1;
}

def TP_AmpUpdateScaleOp : TP_TrainingOp<"amp_update_scale"> {
  let summary = "GradScaler.update(): the next scale and growth tracker "
                "(torch._amp_update_scale_)";
  let description = [{
    When `found_inf` is non-zero the scale is multiplied by
    `backoff_factor` and the tracker reset to 0; otherwise the tracker
    counts the step, and when it reaches `growth_interval` the scale is
    multiplied by `growth_factor` (kept only if finite) and the tracker
    reset. Requires `growth_factor > 1`, `0 < backoff_factor < 1` and
    `1 <= growth_interval <= 2^31 - 1`.

    Example:

    ```mlir
    %s1, %t1 = tp.amp_update_scale %s, %t, %found : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
    ```
  }];
  let arguments = (ins TP_ScalarF32:$scale, TP_ScalarI32:$growth_tracker,
                       TP_ScalarF32:$found_inf,
                       DefaultValuedAttr<F64Attr, "2.0">:$growth_factor,
                       DefaultValuedAttr<F64Attr, "0.5">:$backoff_factor,
                       DefaultValuedAttr<I64Attr, "2000">:$growth_interval);
  let results = (outs TP_ScalarF32:$new_scale,
                      TP_ScalarI32:$new_growth_tracker);
  let assemblyFormat = "$scale `,` $growth_tracker `,` $found_inf attr-dict "
                       "`:` functional-type(operands, results)";
}

/// The operands both fused optimizers end with: the step counter and the
/// GradScaler's scale and found_inf (both or neither).
defvar TP_OptimizerStepArgs = (ins TP_ScalarI64:$step,
                                   Optional<TP_ScalarF32>:$grad_scale,
                                   Optional<TP_ScalarF32>:$found_inf);
defvar TP_OptimizerStepFormat =
    "`step` `(` $step `)` (`grad_scale` `(` $grad_scale^ `)`)? "
    "(`found_inf` `(` $found_inf^ `)`)? attr-dict `:` "
    "functional-type(operands, results)";

def TP_FusedSgdOp : TP_TrainingOp<"fused_sgd", [AttrSizedOperandSegments]> {
  let summary = "One fused torch.optim.SGD step of one parameter "
                "(torch._fused_sgd_)";
  let description = [{
    Returns the updated parameter, momentum buffer (present iff
    `momentum != 0`), parameter copy (present iff `param_copy` is) and step
    counter. With `grad_scale` the gradient is
    divided by it first (the fused GradScaler path: for power-of-two scales
    bit-identical to `unscale_` followed by the step); with `found_inf`
    non-zero nothing changes (the step is skipped and the counter kept).
    The step counter tells the first step, which initialises the momentum
    buffer from the gradient. Parameter, gradient and buffer share one
    shape and one floating element type, except that the gradient of an f32
    parameter may be bf16 or f16: it is widened exactly as it is read, so a
    mixed-precision step's `tp.cast` of a gradient up to its f32 master
    weight folds into the optimizer (canonicalization) with the same bits.
    `param_copy`, a bf16 or f16 tensor of an f32 parameter's shape, asks for
    the updated parameter rounded to its type (the low-precision weight the
    next step's forward reads; tp-train-step `param-copies`): the result is
    `tp.cast` of the new parameter, also when the step is skipped; the
    operand's value is not read, it is the buffer the copy is written into.
    Bit-identical to torch's `fused=True` CPU kernel (docs/Runtime.md).

    Example:

    ```mlir
    %p1, %m1, %n1 = tp.fused_sgd %p, %g momentum_buffer(%m) step(%n) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<i64>) -> (tensor<10xf32>, tensor<10xf32>, tensor<i64>)
    ```
  }];
  let arguments = !con((ins TP_FloatTensor:$param, TP_FloatTensor:$grad,
                            Optional<TP_FloatTensor>:$momentum_buffer,
                            Optional<TP_FloatTensor>:$param_copy),
                       TP_OptimizerStepArgs,
                       (ins F64Attr:$lr,
                            DefaultValuedAttr<F64Attr, "0.0">:$momentum,
                            DefaultValuedAttr<F64Attr, "0.0">:$dampening,
                            DefaultValuedAttr<F64Attr, "0.0">:$weight_decay,
                            DefaultValuedAttr<BoolAttr, "false">:$nesterov,
                            DefaultValuedAttr<BoolAttr, "false">:$maximize));
  // The momentum buffer and the copy, each when present.
  let results = (outs TP_FloatTensor:$new_param,
                      Variadic<TP_FloatTensor>:$new_state,
                      TP_ScalarI64:$new_step);
  let assemblyFormat = !strconcat("$param `,` $grad "
      "(`momentum_buffer` `(` $momentum_buffer^ `)`)? "
      "(`param_copy` `(` $param_copy^ `)`)? ", TP_OptimizerStepFormat);
  let extraClassDeclaration = [{
    /// The updated momentum buffer, or null without momentum.
    Value getNewMomentumBuffer() {
      return getMomentumBuffer() ? getNewState().front() : Value();
    }
    /// The updated parameter copy, or null without one.
    Value getNewParamCopy() {
      return getParamCopy() ? getNewState().back() : Value();
    }
  }];
  let hasCanonicalizer = 1;
}

def TP_FusedAdamwOp : TP_TrainingOp<"fused_adamw", [AttrSizedOperandSegments]> {
  let summary = "One fused torch.optim.AdamW step of one parameter "
                "(torch._fused_adamw_)";
  let description = [{
    Returns the updated parameter, first and second moments, the running
    maximum of the second moment (present iff `amsgrad`) and the step
    counter, which counts applied steps (bias correction uses it after the
    increment). `grad_scale`, `found_inf`, the gradient's type and
    `param_copy` (its result comes before the step counter) as for
    `tp.fused_sgd`.
    Bit-identical to torch's `fused=True` CPU kernel.

    Example:

    ```mlir
    %p1, %m1, %v1, %n1 = tp.fused_adamw %p, %g, %m, %v step(%n) {lr = 0.001 : f64} : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<i64>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<i64>)
    ```
  }];
  let arguments = !con((ins TP_FloatTensor:$param, TP_FloatTensor:$grad,
                            TP_FloatTensor:$exp_avg, TP_FloatTensor:$exp_avg_sq,
                            Optional<TP_FloatTensor>:$max_exp_avg_sq,
                            Optional<TP_FloatTensor>:$param_copy),
                       TP_OptimizerStepArgs,
                       (ins F64Attr:$lr,
                            DefaultValuedAttr<F64Attr, "0.9">:$beta1,
                            DefaultValuedAttr<F64Attr, "0.999">:$beta2,
                            DefaultValuedAttr<F64Attr, "1e-08">:$eps,
                            DefaultValuedAttr<F64Attr, "0.01">:$weight_decay,
                            DefaultValuedAttr<BoolAttr, "false">:$amsgrad,
                            DefaultValuedAttr<BoolAttr, "false">:$maximize));
  // The running maximum and the copy, each when present.
  let results = (outs TP_FloatTensor:$new_param, TP_FloatTensor:$new_exp_avg,
                      TP_FloatTensor:$new_exp_avg_sq,
                      Variadic<TP_FloatTensor>:$new_state,
                      TP_ScalarI64:$new_step);
  let assemblyFormat = !strconcat("$param `,` $grad `,` $exp_avg `,` $exp_avg_sq "
      "(`max_exp_avg_sq` `(` $max_exp_avg_sq^ `)`)? "
      "(`param_copy` `(` $param_copy^ `)`)? ", TP_OptimizerStepFormat);
  let extraClassDeclaration = [{
    /// The updated running maximum, or null without amsgrad.
    Value getNewMaxExpAvgSq() {
      return getMaxExpAvgSq() ? getNewState().front() : Value();
    }
    /// The updated parameter copy, or null without one.
    Value getNewParamCopy() {
      return getParamCopy() ? getNewState().back() : Value();
    }
  }];
  let hasCanonicalizer = 1;
}

def TP_AllReduceOp : TP_Op<"all_reduce", [InferTypeOpAdaptor]> {
  let summary = "Data-parallel all-reduce: each tensor summed (or its "
                "maximum taken) over the ranks of MPI_COMM_WORLD";
  let description = [{
    Every result is its operand reduced element by element over all the
    ranks of the MPI job (`MPI_COMM_WORLD`): their sum (`kind = "sum"`) or
    their maximum (`"max"`). The operands travel in one collective: they are
    packed into one contiguous buffer, reduced by one `MPI_Allreduce`
    (`mpi.allreduce`, MPI's own algorithms: every rank receives the same
    bits) and unpacked, so a flag may ride along with the gradients it
    belongs to. Operands share one element type (f32, f64, i32 or i64).

    A data-parallel train step (`tp-train-step` with `world-size > 1`)
    reduces its gradients, the loss and the GradScaler's found_inf flag
    with it. The op has side effects (communication): it is never removed,
    merged or moved, and every rank must reach it, in the same order, with
    the same types. It lowers (convert-tp-to-linalg) to the `mpi` dialect,
    and the CPU pipeline to calls of the MPI library the tools link; the
    program must run under MPI (`tp-train --distributed`).

    With `overlap` the collective only starts at the op: the program goes
    on, and waits for it just before the first op that reads a result. The
    `mpi` dialect has no non-blocking all-reduce, so this form lowers to
    calls of `tp_mpi_allreduce_start_<type>` / `tp_mpi_allreduce_wait_<type>`
    (the process running the program provides them: tp-train runs the
    reductions on a communication thread).

    Example:

    ```mlir
    %flag, %g = tp.all_reduce "sum" %f, %g0 : tensor<f32>, tensor<64x10xf32>
    %h = tp.all_reduce "sum" overlap %g1 : tensor<128xf32>
    ```
  }];
  let arguments = (ins Variadic<RankedTensorOf<[F32, F64, I32, I64]>>:$values,
                       StrAttr:$kind, UnitAttr:$overlap);
  let results = (outs Variadic<RankedTensorOf<[F32, F64, I32, I64]>>:$results);
  let assemblyFormat =
      "$kind (`overlap` $overlap^)? $values attr-dict `:` type($values)";
  let hasVerifier = 1;
}

#endif // TENSORPLAY_DIALECT_TP_IR_TPTRAININGOPS_TD
