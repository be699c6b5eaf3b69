//===- TPCoreOps.td - tp structural ops --------------------*- tablegen -*-===//
//
// tp.cast, tp.constant and the autocast region op with its terminator.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPCOREOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPCOREOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"
include "mlir/Interfaces/CastInterfaces.td"

def TP_CastOp : TP_Op<"cast", [Pure, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<CastOpInterface>]> {
  let summary = "Change the element type of a tensor (tensor.to(dtype))";
  let description = [{
    The one op that changes an element type on purpose. The autocast pass
    inserts it; programs may also contain it (explicit `.to(dtype)`). A cast to
    the operand's own type folds away, and a cast of a lossless widening cast
    (f16 -> f32 -> f16) folds to the original value or to one cast.

    It is also the only op on the OCP 8-bit floats `f8E4M3FN` and `f8E5M2`
    (to and from any real type), with tensorplay's `.to(float8_*)`
    semantics: rounding to nearest even from the exact value; NaN becomes
    S.1111.111; a value beyond the largest finite (448, 57344), infinities
    included, becomes the largest finite of its sign in E4M3FN (OCP's
    saturating conversion; the format has no infinity) and infinity in
    E5M2. With `saturate` (allowed only for an f8 result) E5M2 saturates too.

    Example:

    ```mlir
    %h = tp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
    %g = "tp.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf16>
    %q = tp.cast %x {saturate} : tensor<4x8xf32> to tensor<4x8xf8E4M3FN>
    ```
  }];
  let arguments = (ins TP_CastTensor:$input, UnitAttr:$saturate);
  let results = (outs TP_CastTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let hasVerifier = 1;
}

def TP_ConstantOp : TP_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    A tensor constant given by a dense or splat elements attribute.

    Example:

    ```mlir
    %c = tp.constant dense<1.0> : tensor<4xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TP_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def TP_AutocastOp : TP_Op<"autocast", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "A region run under an autocast state (tensorplay.autocast)";
  let description = [{
    The compile-time form of `with tensorplay.autocast(device_type, dtype,
    enabled, cache_enabled):`. Ops in the region (and in functions called from
    it) run under this autocast state; regions nest like the eager context
    manager: an inner `enabled = false` region switches autocast off, an inner
    region with another dtype overrides it, a region for another device
    changes nothing for ops of the function's device, and leaving the region
    restores the outer state. `dtype` defaults to the device's default (cuda
    and xpu: f16, cpu: bf16). The region yields the op's results.

    Example:

    ```mlir
    %r = tp.autocast "cuda" dtype(f16) -> tensor<4x16xf32> {
      %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
      tp.yield %m : tensor<4x16xf32>
    } attributes {enabled = false}
    ```
  }];
  let arguments = (ins TP_DeviceTypeAttr:$device_type,
                       OptionalAttr<TypeAttr>:$dtype,
                       DefaultValuedAttr<BoolAttr, "true">:$enabled,
                       DefaultValuedAttr<BoolAttr, "true">:$cache_enabled);
  let results = (outs Variadic<TP_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<DeviceName>($device_type) (`dtype` `(` $dtype^ `)`)?
    (`->` type($results)^)? $body
    attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The dtype of the region: the explicit one or the device's default.
    ::mlir::Type getEffectiveDtype();
    /// The yield terminating the body.
    YieldOp getYield();
  }];
}

def TP_CustomFunctionOp : TP_Op<"custom_function", [
    RecursiveMemoryEffects]> {
  let summary = "A function with its own backward (torch.autograd.Function "
                "with tensorplay.amp's custom_fwd / custom_bwd)";
  let description = [{
    The `forward` region computes the results from the operands (its block
    takes one argument per operand); the `backward` region computes the
    gradient of every operand from the operands, the results and the
    results' gradients (its block takes operands, then results, then
    their gradients, and yields one gradient per operand, of its shape).
    tp-autodiff uses the backward region instead of differentiating the
    forward one; the lowering runs the forward region in place.

    `custom_fwd = {device_type = "cuda", cast_inputs = f32}` and
    `custom_bwd = {device_type = "cuda"}` (both optional) are
    tensorplay.amp's decorators: with `cast_inputs` in an enabled autocast
    region of that device, floating operands are cast to it and the forward
    region runs with autocast disabled; otherwise the forward runs under
    the surrounding state. With `custom_bwd` the backward region runs under
    the autocast state the forward ran under (disabled after
    `cast_inputs`); without it the backward runs with autocast disabled,
    and tp-autocast warns when the forward ran under autocast.

    Example:

    ```mlir
    %y = tp.custom_function(%x) {custom_fwd = {device_type = "cuda", cast_inputs = f32}} : (tensor<4xf32>) -> tensor<4xf32>
    forward {
    ^bb0(%a: tensor<4xf32>):
      %e = tp.exp %a : (tensor<4xf32>) -> tensor<4xf32>
      tp.yield %e : tensor<4xf32>
    } backward {
    ^bb0(%a: tensor<4xf32>, %e: tensor<4xf32>, %g: tensor<4xf32>):
      %d = tp.mul %g, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      tp.yield %d : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<TP_Tensor>:$inputs,
                       OptionalAttr<DictionaryAttr>:$custom_fwd,
                       OptionalAttr<DictionaryAttr>:$custom_bwd);
  let results = (outs Variadic<TP_Tensor>:$results);
  let regions = (region SizedRegion<1>:$forward, SizedRegion<1>:$backward);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    `forward` $forward `backward` $backward
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    YieldOp getForwardYield();
    YieldOp getBackwardYield();
    /// custom_fwd's device, cast_inputs (null when absent), custom_bwd's
    /// device.
    std::optional<DeviceType> getForwardDevice();
    ::mlir::Type getCastInputs();
    std::optional<DeviceType> getBackwardDevice();
  }];
}

def TP_YieldOp : TP_Op<"yield", [Pure, Terminator,
    ParentOneOf<["AutocastOp", "CustomFunctionOp"]>]> {
  let summary = "Terminator of tp.autocast and of tp.custom_function's "
                "regions: yields the region's values";
  let description = [{
    Example:

    ```mlir
    tp.yield %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<TP_Tensor>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TENSORPLAY_DIALECT_TP_IR_TPCOREOPS_TD
