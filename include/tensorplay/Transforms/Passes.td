//===- Passes.td - tensorplay transformation passes --------*- tablegen -*-===//

#ifndef TENSORPLAY_TRANSFORMS_PASSES_TD
#define TENSORPLAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutocastPass : Pass<"tp-autocast", "::mlir::ModuleOp"> {
  let summary = "Rewrite tp programs into mixed precision (tensorplay.amp)";
  let description = [{
    Compile-time automatic mixed precision with the semantics of
    tensorplay.amp. With a `target` (`<device>[:<dtype>]`, device cuda|xpu|cpu,
    dtype fp16|bf16; defaults cuda:fp16, xpu:fp16, cpu:bf16), every function
    whose `tp.device` is absent or names that device runs as one enabled
    autocast region. Explicit `tp.autocast` regions are always honoured and
    nest like the eager context manager.

    Ops on the device's lower-precision list cast their floating operands to
    the autocast dtype; fp32-list ops cast to f32 (softmax, log_softmax, sum,
    prod, cumsum, cumprod and norm get dtype=f32 instead); promote-list ops
    cast to the widest floating operand type; ineligible ops (f64 operand, no
    floating operand, in-place or out= form, explicit dtype) are left as they
    are; every other op runs in its (re-inferred) input types.
    binary_cross_entropy in an enabled cuda/xpu region is an error. Casts are
    `tp.cast`, one per (value, dtype, region), placed right after the value's
    definition or at region entry and shared by all users. A callee runs on
    its own device (its tp.device, else its caller's) and sees that device's
    autocast state at the call site (functions are specialized per state).
    Functions of nested modules are processed too. The report is written
    also when the pass fails on a banned op. A gradient function tp-autodiff
    built earlier (`tp.gradient_of`) is not decided from the tables but
    built again from its autocast forward function (docs/Autodiff.md,
    "Order independence").

    `tp-opt --autocast=cuda:fp16` runs this pass with that target;
    `--autocast-report` and `--autocast-policy` set `report` and `policy`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Enable autocast for functions of <device>[:<dtype>] "
           "(cuda|xpu|cpu, fp16|bf16); empty: only explicit tp.autocast "
           "regions">,
    Option<"keepIoTypes", "keep-io-types", "bool", /*default=*/"false",
           "Cast function results back to their original types instead of "
           "letting them take the new types">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the decision report: a JSON file path, or - for a table "
           "on stdout">,
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "JSON file adding op names to or removing them from the policy "
           "lists of any device">,
  ];
  let statistics = [
    Statistic<"numCastsInserted", "casts-inserted",
              "tp.cast ops inserted (after sharing and folding)">,
    Statistic<"numDynamicCasts", "dynamic-casts",
              "inserted casts of dynamically shaped values">,
    Statistic<"numBytesCast", "bytes-cast",
              "bytes read by the inserted casts of static shapes">,
  ];
  let dependentDialects = ["::mlir::tp::TPDialect"];
}

def AutodiffPass : Pass<"tp-autodiff", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode differentiation of tp functions";
  let description = [{
    For each selected function `@f` adds a public `@f_grad` with the same
    arguments that returns `@f`'s results followed by the gradient of its
    first result (a 0-d floating tensor) with respect to each `wrt`
    argument, each in that argument's own type: an f32 argument gets an f32
    gradient whatever dtype the forward ran in (the gradient passes back
    through the forward's casts, reversed).

    Backward ops are tp ops in the dtypes of the forward values they
    differentiate: run after tp-autocast, the backward of an f16 product is
    two f16 products, and the gradient reaching an f32 weight is cast back
    to f32 where the forward cast it down. Saved activations are the
    forward's values.

    `@f_grad` carries `tp.gradient_of = {function = @f, wrt = ...}`: a later
    tp-autocast builds it again from the autocast `@f`, so that running
    tp-autodiff before or after tp-autocast gives the same program.

    A tp.custom_function contributes its own backward region instead of
    its forward's derivative. Supported so far: straight-line functions
    (one block; tp.autocast regions are differentiated through) of tp.cast, tp.constant, the
    elementwise arithmetic (add, sub, mul, div, neg), exp, log, sqrt, sin,
    cos, tanh, sigmoid, relu and gelu (tp.threshold_backward,
    tp.gelu_backward), mm, 2-d matmul, linear, sum, mean, reshape,
    transpose, permute, softmax, log_softmax, mse_loss,
    binary_cross_entropy_with_logits, and nll_loss and cross_entropy of
    class indices (tp.nll_loss_backward). Any other op on
    the path from the arguments to the loss is an error naming it.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to differentiate (default: every public function "
               "whose first result is a 0-d floating tensor)">,
    ListOption<"wrt", "wrt", "unsigned",
               "Argument indices to differentiate with respect to (default: "
               "every floating or complex argument)">,
  ];
  let statistics = [
    Statistic<"numBackwardOps", "backward-ops",
              "tp ops created for the backward passes">,
  ];
  let dependentDialects = ["::mlir::tp::TPDialect",
                           "::mlir::func::FuncDialect"];
}

def CastArgumentsPass : Pass<"tp-cast-arguments", "::mlir::ModuleOp"> {
  let summary = "Retype f32 arguments that are only cast down to the cast's "
                "type";
  let description = [{
    In each function of `functions`, each argument among `args` (0-based;
    all when empty) that is an f32 tensor whose every use is a `tp.cast` to
    one bf16 or f16 tensor type becomes an argument of that type, and the
    casts are erased: the caller passes the value the casts computed (the
    argument rounded to nearest even). An autocast forward then converts
    no weight; the Python backend passes copies it keeps between calls
    while a parameter is unchanged. Functions must be public and have a
    body; arguments with other uses, or casts to two types, stay.

    Each function records the retyped arguments in its
    `tp.cast_arguments` attribute (an array of argument numbers), which
    callers read to know which arguments to pass rounded.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The functions whose arguments to retype">,
    ListOption<"args", "args", "unsigned",
               "The candidate arguments (default: all)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def SpecializeShapesPass : Pass<"tp-specialize-shapes", "::mlir::ModuleOp"> {
  let summary = "Give dynamic dimensions their sizes and re-infer every "
                "type";
  let description = [{
    How dynamic shapes run on the CPU (the pipelines compile static
    shapes): each public function of `functions` (default: every one with
    a dynamic argument dimension) gets the sizes `sizes` for its `?`
    argument dimensions, taken in order over its arguments (one size:
    every `?`), and every op's result types are inferred again from its
    operands, so the function, its casts and its region ops become
    static. An op whose shape rules refuse the new shapes (a reshape to a
    fixed size, a broadcast that no longer matches) is an error at the op
    saying which sizes were given. tp-run specializes a module to the
    shapes of its inputs (`--dynamic-size` for generated ones) before
    compiling it; `tp::specializeShapes` is the C++ form.
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "The functions to specialize (default: those with dynamic "
               "argument dimensions)">,
    ListOption<"sizes", "sizes", "int64_t",
               "The sizes of the ? argument dimensions, in order (one: all)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TrainStepPass : Pass<"tp-train-step", "::mlir::ModuleOp"> {
  let summary = "Turn a loss function into one train step: forward, "
                "backward, GradScaler and a fused optimizer step";
  let description = [{
    For the loss function `@f` adds a public `@f_train_step` that runs, in
    one function, the forward and backward of `@f` (tp-autodiff;
    tp-autocast before or after this pass makes it mixed precision), the
    GradScaler (`grad-scaler`:
    the loss is multiplied by the scale before the backward,
    `tp.amp_check_finite` sets found_inf from the gradients, the optimizer
    unscales them and skips the step on found_inf, and `tp.amp_update_scale`
    computes the next scale) and one fused SGD or AdamW step per parameter
    (`tp.fused_sgd`, `tp.fused_adamw`, bit-identical to torch's fused CPU
    kernels).

    The first `num-inputs` arguments of `@f` are the batch; every later
    argument is a parameter and must be a floating tensor. `@f_train_step`
    takes `@f`'s arguments, then each parameter's optimizer state in
    parameter order (SGD: the momentum buffer when momentum != 0, then the
    step counter; AdamW: exp_avg, exp_avg_sq, max_exp_avg_sq with amsgrad,
    then the step counter, a `tensor<i64>`), then with `grad-scaler` the
    scale (`tensor<f32>`) and the growth tracker (`tensor<i32>`). It returns
    the (unscaled) loss, the updated parameters, the updated states in the
    order of the arguments, and with `grad-scaler` the next scale, the next
    tracker and found_inf. The function's `tp.train_step` attribute records
    this layout for tools (tp-train) and the options, with which a later
    tp-autocast builds the step again from the autocast loss function. Values are functional: a caller keeps
    the state by passing each result back as the next step's argument.

    With `param-copies`, each f32 parameter that the forward casts down
    (`tp.cast` to bf16 or f16, one type per parameter: an autocast step's
    weights) keeps that cast as state: the step takes it as an argument
    after the GradScaler state (or after the optimizer state without one),
    reads it instead of casting, and the optimizer writes the next one as
    it updates the parameter (`param_copy` of `tp.fused_sgd` /
    `tp.fused_adamw`), returned before found_inf. The values are the same
    bits as without the option provided each copy argument is its
    parameter rounded to the copy's type, which the step keeps true (also
    on a skipped step); the caller makes it true for the first step.
    `tp.train_step` lists those parameters as `param_copies` (0-based
    parameter numbers). Together with the gradients' up-casts, which fold
    into the optimizer, a mixed-precision step then converts no weight.

    With `world-size` N > 1 (data parallel, one copy of the step per MPI
    rank, each on its own part of the global batch) the gradients are
    summed over the ranks by `tp.all_reduce` and divided by N (their mean
    over the global batch, as DistributedDataParallel computes it) before
    the optimizer, in buckets of at most `bucket-bytes` from the last
    parameter back. The last bucket (the first parameters', which the
    backward makes last) also carries the loss (the step
    returns its mean over the ranks) and, with `grad-scaler`, this rank's
    found_inf flag: found_inf is then set when any rank's flag was or the
    averaged gradients hold an inf or NaN, values every rank receives
    identically, so all ranks skip the same steps and keep the same scale.
    The parameters must then all be f32 (or all f64). With `overlap`, each
    all-reduce is placed right after the last of its gradients and marked
    `overlap`: it starts there and the backward goes on while it runs; the
    means are taken before the optimizer.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "The loss function (default: the module's only public function "
           "whose first result is a 0-d floating tensor)">,
    Option<"numInputs", "num-inputs", "unsigned", /*default=*/"1",
           "Leading arguments that are the batch (data, labels); the rest "
           "are parameters">,
    Option<"optimizer", "optimizer", "std::string", /*default=*/"\"sgd\"",
           "sgd or adamw">,
    Option<"lr", "lr", "double", /*default=*/"1e-3", "Learning rate">,
    Option<"momentum", "momentum", "double", /*default=*/"0.0",
           "SGD momentum">,
    Option<"dampening", "dampening", "double", /*default=*/"0.0",
           "SGD dampening">,
    Option<"nesterov", "nesterov", "bool", /*default=*/"false",
           "SGD Nesterov momentum">,
    Option<"weightDecay", "weight-decay", "double", /*default=*/"-1.0",
           "Weight decay (default: 0 for sgd, 0.01 for adamw)">,
    Option<"beta1", "beta1", "double", /*default=*/"0.9", "AdamW beta1">,
    Option<"beta2", "beta2", "double", /*default=*/"0.999", "AdamW beta2">,
    Option<"eps", "eps", "double", /*default=*/"1e-8", "AdamW epsilon">,
    Option<"amsgrad", "amsgrad", "bool", /*default=*/"false",
           "AdamW with the AMSGrad maximum">,
    Option<"maximize", "maximize", "bool", /*default=*/"false",
           "Maximize the loss instead">,
    Option<"gradScaler", "grad-scaler", "bool", /*default=*/"false",
           "Dynamic loss scaling (torch.amp.GradScaler)">,
    Option<"growthFactor", "growth-factor", "double", /*default=*/"2.0",
           "GradScaler growth factor">,
    Option<"backoffFactor", "backoff-factor", "double", /*default=*/"0.5",
           "GradScaler backoff factor">,
    Option<"growthInterval", "growth-interval", "int64_t",
           /*default=*/"2000", "GradScaler growth interval (steps)">,
    Option<"paramCopies", "param-copies", "bool", /*default=*/"false",
           "Keep the bf16/f16 casts of f32 parameters as optimizer state, "
           "written by the optimizer step instead of cast by the forward">,
    Option<"worldSize", "world-size", "int64_t", /*default=*/"1",
           "Data-parallel ranks (MPI): > 1 averages the gradients over them "
           "with tp.all_reduce before the optimizer, the loss and found_inf "
           "riding along">,
    Option<"bucketBytes", "bucket-bytes", "int64_t",
           /*default=*/"25 * 1024 * 1024",
           "With world-size > 1: the most gradient bytes one all-reduce "
           "carries">,
    Option<"overlap", "overlap", "bool", /*default=*/"false",
           "With world-size > 1: start each bucket's all-reduce as soon as "
           "the backward has made its gradients, and wait for it only "
           "before the optimizer (tp.all_reduce with `overlap`)">,
  ];
  let dependentDialects = ["::mlir::tp::TPDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TENSORPLAY_TRANSFORMS_PASSES_TD
