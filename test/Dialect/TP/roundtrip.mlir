// Round trip of every tp op: parse, print, re-parse; and the generic form of
// every op parses back to the same custom form.
// RUN: tp-opt %s | tp-opt | FileCheck %s
// RUN: tp-opt %s --mlir-print-op-generic | tp-opt | FileCheck %s

// CHECK-LABEL: func.func @mm(
// CHECK-NEXT: %{{.*}} = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// CHECK-LABEL: func.func @abs(
// CHECK-NEXT: %{{.*}} = tp.abs %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @abs(%x: tensor<4x8xf32>) {
  %r = tp.abs %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @acos(
// CHECK-NEXT: %{{.*}} = tp.acos %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @acos(%x: tensor<4x8xf32>) {
  %r = tp.acos %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @add(
// CHECK-NEXT: %{{.*}} = tp.add %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @add(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.add %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @addcdiv(
// CHECK-NEXT: %{{.*}} = tp.addcdiv %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @addcdiv(%s: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  %r = tp.addcdiv %s, %a, %b : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @addcmul(
// CHECK-NEXT: %{{.*}} = tp.addcmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @addcmul(%s: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  %r = tp.addcmul %s, %a, %b : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @asin(
// CHECK-NEXT: %{{.*}} = tp.asin %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @asin(%x: tensor<4x8xf32>) {
  %r = tp.asin %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @atan2(
// CHECK-NEXT: %{{.*}} = tp.atan2 %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @atan2(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.atan2 %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @cos(
// CHECK-NEXT: %{{.*}} = tp.cos %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @cos(%x: tensor<4x8xf32>) {
  %r = tp.cos %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @cosh(
// CHECK-NEXT: %{{.*}} = tp.cosh %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @cosh(%x: tensor<4x8xf32>) {
  %r = tp.cosh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @div(
// CHECK-NEXT: %{{.*}} = tp.div %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @div(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.div %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @dropout(
// CHECK-NEXT: %{{.*}} = tp.dropout %{{.*}} {p = 1.000000e-01 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @dropout(%x: tensor<4x8xf32>) {
  %r = tp.dropout %x {p = 1.000000e-01 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @erf(
// CHECK-NEXT: %{{.*}} = tp.erf %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @erf(%x: tensor<4x8xf32>) {
  %r = tp.erf %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @erfinv(
// CHECK-NEXT: %{{.*}} = tp.erfinv %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @erfinv(%x: tensor<4x8xf32>) {
  %r = tp.erfinv %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @exp(
// CHECK-NEXT: %{{.*}} = tp.exp %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @exp(%x: tensor<4x8xf32>) {
  %r = tp.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @expm1(
// CHECK-NEXT: %{{.*}} = tp.expm1 %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @expm1(%x: tensor<4x8xf32>) {
  %r = tp.expm1 %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @gelu(
// CHECK-NEXT: %{{.*}} = tp.gelu %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @gelu(%x: tensor<4x8xf32>) {
  %r = tp.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// The activation backward ops (tp-autodiff's): grad_output and self
// broadcast together; the attributes keep their forms.
// CHECK-LABEL: func.func @activation_backward(
// CHECK-NEXT: %{{.*}} = tp.threshold_backward %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.threshold_backward %{{.*}}, %{{.*}} {threshold = 5.000000e-01 : f64} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.gelu_backward %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.gelu_backward %{{.*}}, %{{.*}} {approximate = #tp.approximate<tanh>} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
func.func @activation_backward(%g: tensor<4x8xf32>, %x: tensor<4x8xf32>, %h: tensor<4x8xf16>, %v: tensor<8xf32>, %b: tensor<4x8xbf16>) {
  %r0 = tp.threshold_backward %g, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r1 = tp.threshold_backward %h, %v {threshold = 0.5 : f64} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  %r2 = tp.gelu_backward %g, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r3 = tp.gelu_backward %b, %b {approximate = #tp.approximate<tanh>} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return
}

// nll_loss_backward: grad_output has the loss's shape, the result the
// input's.
// CHECK-LABEL: func.func @nll_loss_backward(
// CHECK-NEXT: %{{.*}} = tp.nll_loss_backward %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>
// CHECK-NEXT: %{{.*}} = tp.nll_loss_backward %{{.*}}, %{{.*}}, %{{.*}} weight(%{{.*}}) {ignore_index = 0 : i64, reduction = #tp.reduction<none>} : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>, tensor<10xf32>) -> tensor<4x10xf32>
func.func @nll_loss_backward(%g: tensor<f32>, %gn: tensor<4xf32>, %x: tensor<4x10xf32>, %t: tensor<4xi64>, %w: tensor<10xf32>) {
  %r0 = tp.nll_loss_backward %g, %x, %t : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>
  %r1 = tp.nll_loss_backward %gn, %x, %t weight(%w) {reduction = #tp.reduction<none>, ignore_index = 0 : i64} : (tensor<4xf32>, tensor<4x10xf32>, tensor<4xi64>, tensor<10xf32>) -> tensor<4x10xf32>
  return
}

// ctc_loss_backward: a gradient per sample, the result log_probs' shape.
// CHECK-LABEL: func.func @ctc_loss_backward(
// CHECK-NEXT: %{{.*}} = tp.ctc_loss_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {blank = 2 : i64, zero_infinity = true} : (tensor<4xf32>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<50x4x20xf32>
// CHECK-NEXT: %{{.*}} = tp.ctc_loss_backward %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<f64>, tensor<50x20xf64>, tensor<30xi64>, tensor<i64>, tensor<i64>) -> tensor<50x20xf64>
func.func @ctc_loss_backward(%g: tensor<4xf32>, %lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>, %g1: tensor<f64>, %lp1: tensor<50x20xf64>, %t1: tensor<30xi64>, %il1: tensor<i64>, %tl1: tensor<i64>) {
  %r0 = tp.ctc_loss_backward %g, %lp, %t, %il, %tl {blank = 2 : i64, zero_infinity = true} : (tensor<4xf32>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<50x4x20xf32>
  %r1 = tp.ctc_loss_backward %g1, %lp1, %t1, %il1, %tl1 : (tensor<f64>, tensor<50x20xf64>, tensor<30xi64>, tensor<i64>, tensor<i64>) -> tensor<50x20xf64>
  return
}

// CHECK-LABEL: func.func @log10(
// CHECK-NEXT: %{{.*}} = tp.log10 %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @log10(%x: tensor<4x8xf32>) {
  %r = tp.log10 %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @log1p(
// CHECK-NEXT: %{{.*}} = tp.log1p %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @log1p(%x: tensor<4x8xf32>) {
  %r = tp.log1p %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @log2(
// CHECK-NEXT: %{{.*}} = tp.log2 %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @log2(%x: tensor<4x8xf32>) {
  %r = tp.log2 %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @log(
// CHECK-NEXT: %{{.*}} = tp.log %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @log(%x: tensor<4x8xf32>) {
  %r = tp.log %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @maximum(
// CHECK-NEXT: %{{.*}} = tp.maximum %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @maximum(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.maximum %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @minimum(
// CHECK-NEXT: %{{.*}} = tp.minimum %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @minimum(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.minimum %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @mul(
// CHECK-NEXT: %{{.*}} = tp.mul %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @mul(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.mul %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @neg(
// CHECK-NEXT: %{{.*}} = tp.neg %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @neg(%x: tensor<4x8xf32>) {
  %r = tp.neg %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @pow(
// CHECK-NEXT: %{{.*}} = tp.pow %{{.*}} {scalar_exponent = 2.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @pow(%x: tensor<4xf32>) {
  %r = tp.pow %x {scalar_exponent = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @rdiv(
// CHECK-NEXT: %{{.*}} = tp.rdiv %{{.*}} {other = 2.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @rdiv(%x: tensor<4xf32>) {
  %r = tp.rdiv %x {other = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @reciprocal(
// CHECK-NEXT: %{{.*}} = tp.reciprocal %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @reciprocal(%x: tensor<4x8xf32>) {
  %r = tp.reciprocal %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @relu(
// CHECK-NEXT: %{{.*}} = tp.relu %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @relu(%x: tensor<4x8xf32>) {
  %r = tp.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @rpow(
// CHECK-NEXT: %{{.*}} = tp.rpow %{{.*}} {base = 2.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @rpow(%x: tensor<4xf32>) {
  %r = tp.rpow %x {base = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @rsqrt(
// CHECK-NEXT: %{{.*}} = tp.rsqrt %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @rsqrt(%x: tensor<4x8xf32>) {
  %r = tp.rsqrt %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @rtruediv(
// CHECK-NEXT: %{{.*}} = tp.rtruediv %{{.*}} {other = 2.000000e+00 : f64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @rtruediv(%x: tensor<4xf32>) {
  %r = tp.rtruediv %x {other = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @sigmoid(
// CHECK-NEXT: %{{.*}} = tp.sigmoid %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @sigmoid(%x: tensor<4x8xf32>) {
  %r = tp.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @silu(
// CHECK-NEXT: %{{.*}} = tp.silu %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @silu(%x: tensor<4x8xf32>) {
  %r = tp.silu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sin(
// CHECK-NEXT: %{{.*}} = tp.sin %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @sin(%x: tensor<4x8xf32>) {
  %r = tp.sin %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sinh(
// CHECK-NEXT: %{{.*}} = tp.sinh %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @sinh(%x: tensor<4x8xf32>) {
  %r = tp.sinh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @softplus(
// CHECK-NEXT: %{{.*}} = tp.softplus %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @softplus(%x: tensor<4x8xf32>) {
  %r = tp.softplus %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sqrt(
// CHECK-NEXT: %{{.*}} = tp.sqrt %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @sqrt(%x: tensor<4x8xf32>) {
  %r = tp.sqrt %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sub(
// CHECK-NEXT: %{{.*}} = tp.sub %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @sub(%a: tensor<4x8xf16>, %b: tensor<8xf32>) {
  %r = tp.sub %a, %b : (tensor<4x8xf16>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @tan(
// CHECK-NEXT: %{{.*}} = tp.tan %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @tan(%x: tensor<4x8xf32>) {
  %r = tp.tan %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @tanh(
// CHECK-NEXT: %{{.*}} = tp.tanh %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @tanh(%x: tensor<4x8xf32>) {
  %r = tp.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @where(
// CHECK-NEXT: %{{.*}} = tp.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @where(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  %r = tp.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @leaky_relu(
// CHECK-NEXT: %{{.*}} = tp.leaky_relu %{{.*}} {negative_slope = 2.000000e-01 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @leaky_relu(%x: tensor<4x8xf32>) {
  %r = tp.leaky_relu %x {negative_slope = 0.2 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @hardswish(
// CHECK-NEXT: %{{.*}} = tp.hardswish %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @hardswish(%x: tensor<4x8xf32>) {
  %r = tp.hardswish %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @logsumexp(
// CHECK-NEXT: tp.logsumexp %{{.*}} {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
func.func @logsumexp(%x: tensor<4x8xf32>) {
  %r = tp.logsumexp %x {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return
}

// CHECK-LABEL: func.func @inverse_trig(
// CHECK-NEXT: tp.atan
// CHECK-NEXT: tp.asinh
// CHECK-NEXT: tp.acosh
// CHECK-NEXT: tp.atanh %{{.*}} : (tensor<4xf64>) -> tensor<4xf64>
func.func @inverse_trig(%x: tensor<4xf32>, %d: tensor<4xf64>) {
  %a = tp.atan %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = tp.asinh %x : (tensor<4xf32>) -> tensor<4xf32>
  %c = tp.acosh %x : (tensor<4xf32>) -> tensor<4xf32>
  %e = tp.atanh %d : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// CHECK-LABEL: func.func @elu_family(
// CHECK-NEXT: %{{.*}} = tp.elu %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.elu %{{.*}} {alpha = 1.67{{[0-9]*}} : f64, scale = 1.05{{[0-9]*}} : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.mish %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.log_sigmoid %{{.*}} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
func.func @elu_family(%x: tensor<4x8xf32>, %h: tensor<4x8xbf16>) {
  %e = tp.elu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tp.elu %x {alpha = 1.6732632423543772 : f64, scale = 1.0507009873554805 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = tp.mish %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = tp.log_sigmoid %h : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return
}

// CHECK-LABEL: func.func @clamp(
// CHECK-NEXT: %{{.*}} = tp.clamp %{{.*}} {max = 6.000000e+00 : f64, min = -1.000000e+00 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @clamp(%x: tensor<4x8xf32>) {
  %r = tp.clamp %x {min = -1.0 : f64, max = 6.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @eq(
// CHECK-NEXT: %{{.*}} = tp.eq %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @eq(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.eq %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @ne(
// CHECK-NEXT: %{{.*}} = tp.ne %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @ne(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.ne %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @lt(
// CHECK-NEXT: %{{.*}} = tp.lt %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @lt(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.lt %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @le(
// CHECK-NEXT: %{{.*}} = tp.le %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @le(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.le %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @gt(
// CHECK-NEXT: %{{.*}} = tp.gt %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @gt(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.gt %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @ge(
// CHECK-NEXT: %{{.*}} = tp.ge %{{.*}}, %{{.*}} : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
func.func @ge(%a: tensor<4x8xbf16>, %b: tensor<f32>) {
  %r = tp.ge %a, %b : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xi1>
  return
}

// CHECK-LABEL: func.func @masked_fill(
// CHECK-NEXT: %{{.*}} = tp.masked_fill %{{.*}}, %{{.*}} {value = -1.000000e+00 : f64} : (tensor<4x8xf32>, tensor<8xi1>) -> tensor<4x8xf32>
func.func @masked_fill(%x: tensor<4x8xf32>, %m: tensor<8xi1>) {
  %r = tp.masked_fill %x, %m {value = -1.0 : f64} : (tensor<4x8xf32>, tensor<8xi1>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @addbmm(
// CHECK-NEXT: %{{.*}} = tp.addbmm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<4x16xf32>
func.func @addbmm(%c: tensor<4x16xf32>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) {
  %r = tp.addbmm %c, %a, %b : (tensor<4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<4x16xf32>
  return
}

// CHECK-LABEL: func.func @addmm(
// CHECK-NEXT: %{{.*}} = tp.addmm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @addmm(%c: tensor<16xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  %r = tp.addmm %c, %a, %b : (tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// CHECK-LABEL: func.func @addmv(
// CHECK-NEXT: %{{.*}} = tp.addmv %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
func.func @addmv(%c: tensor<4xf32>, %a: tensor<4x8xf32>, %v: tensor<8xf32>) {
  %r = tp.addmv %c, %a, %v : (tensor<4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @addr(
// CHECK-NEXT: %{{.*}} = tp.addr %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @addr(%c: tensor<4x8xf32>, %u: tensor<4xf32>, %v: tensor<8xf32>) {
  %r = tp.addr %c, %u, %v : (tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @baddbmm(
// CHECK-NEXT: %{{.*}} = tp.baddbmm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
func.func @baddbmm(%c: tensor<2x4x16xf32>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) {
  %r = tp.baddbmm %c, %a, %b : (tensor<2x4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// CHECK-LABEL: func.func @bilinear(
// CHECK-NEXT: %{{.*}} = tp.bilinear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
func.func @bilinear(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>) {
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return
}

// CHECK-LABEL: func.func @bmm(
// CHECK-NEXT: %{{.*}} = tp.bmm %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) {
  %r = tp.bmm %a, %b : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// CHECK-LABEL: func.func @chain_matmul(
// CHECK-NEXT: %{{.*}} = tp.chain_matmul [%{{.*}}, %{{.*}}, %{{.*}}] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
func.func @chain_matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x5xf32>) {
  %r = tp.chain_matmul [%a, %b, %c] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @cross(
// CHECK-NEXT: %{{.*}} = tp.cross %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @cross(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) {
  %r = tp.cross %a, %b {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT: %{{.*}} = tp.dot %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
func.func @dot(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  %r = tp.dot %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @linalg_vecdot(
// CHECK-NEXT: %{{.*}} = tp.linalg_vecdot %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
func.func @linalg_vecdot(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  %r = tp.linalg_vecdot %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @linear(
// CHECK-NEXT: %{{.*}} = tp.linear %{{.*}}, %{{.*}} bias(%{{.*}}) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
func.func @linear(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) {
  %r = tp.linear %x, %w bias(%b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return
}

// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT: %{{.*}} = tp.matmul %{{.*}}, %{{.*}} : (tensor<3x4x8xf32>, tensor<8x16xf32>) -> tensor<3x4x16xf32>
func.func @matmul(%a: tensor<3x4x8xf32>, %b: tensor<8x16xf32>) {
  %r = tp.matmul %a, %b : (tensor<3x4x8xf32>, tensor<8x16xf32>) -> tensor<3x4x16xf32>
  return
}

// CHECK-LABEL: func.func @mm_2(
// CHECK-NEXT: %{{.*}} = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @mm_2(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  %r = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// CHECK-LABEL: func.func @multi_dot(
// CHECK-NEXT: %{{.*}} = tp.multi_dot [%{{.*}}, %{{.*}}, %{{.*}}] : (tensor<8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<5xf32>
func.func @multi_dot(%v: tensor<8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x5xf32>) {
  %r = tp.multi_dot [%v, %b, %c] : (tensor<8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<5xf32>
  return
}

// CHECK-LABEL: func.func @mv(
// CHECK-NEXT: %{{.*}} = tp.mv %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
func.func @mv(%a: tensor<4x8xf32>, %v: tensor<8xf32>) {
  %r = tp.mv %a, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @prelu(
// CHECK-NEXT: %{{.*}} = tp.prelu %{{.*}}, %{{.*}} : (tensor<2x3x8xf32>, tensor<3xf32>) -> tensor<2x3x8xf32>
func.func @prelu(%x: tensor<2x3x8xf32>, %w: tensor<3xf32>) {
  %r = tp.prelu %x, %w : (tensor<2x3x8xf32>, tensor<3xf32>) -> tensor<2x3x8xf32>
  return
}

// CHECK-LABEL: func.func @tensordot(
// CHECK-NEXT: %{{.*}} = tp.tensordot %{{.*}}, %{{.*}} {dims_other = array<i64: 0>, dims_self = array<i64: 1>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
func.func @tensordot(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) {
  %r = tp.tensordot %a, %b {dims_other = array<i64: 0>, dims_self = array<i64: 1>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @conv1d(
// CHECK-NEXT: %{{.*}} = tp.conv1d %{{.*}}, %{{.*}} : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>
func.func @conv1d(%x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>) {
  %r = tp.conv1d %x, %w : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>
  return
}

// CHECK-LABEL: func.func @conv2d(
// CHECK-NEXT: %{{.*}} = tp.conv2d %{{.*}}, %{{.*}} bias(%{{.*}}) {padding = array<i64: 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
func.func @conv2d(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  %r = tp.conv2d %x, %w bias(%b) {padding = array<i64: 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  return
}

// CHECK-LABEL: func.func @conv3d(
// CHECK-NEXT: %{{.*}} = tp.conv3d %{{.*}}, %{{.*}} : (tensor<1x2x4x4x4xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x3x2x2x2xf32>
func.func @conv3d(%x: tensor<1x2x4x4x4xf32>, %w: tensor<3x2x3x3x3xf32>) {
  %r = tp.conv3d %x, %w : (tensor<1x2x4x4x4xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x3x2x2x2xf32>
  return
}

// CHECK-LABEL: func.func @conv_tbc(
// CHECK-NEXT: %{{.*}} = tp.conv_tbc %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
func.func @conv_tbc(%x: tensor<10x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) {
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose1d(
// CHECK-NEXT: %{{.*}} = tp.conv_transpose1d %{{.*}}, %{{.*}} : (tensor<2x4x12xf32>, tensor<4x3x5xf32>) -> tensor<2x3x16xf32>
func.func @conv_transpose1d(%x: tensor<2x4x12xf32>, %w: tensor<4x3x5xf32>) {
  %r = tp.conv_transpose1d %x, %w : (tensor<2x4x12xf32>, tensor<4x3x5xf32>) -> tensor<2x3x16xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK-NEXT: %{{.*}} = tp.conv_transpose2d %{{.*}}, %{{.*}} {stride = array<i64: 2>} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>
func.func @conv_transpose2d(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>) {
  %r = tp.conv_transpose2d %x, %w {stride = array<i64: 2>} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose3d(
// CHECK-NEXT: %{{.*}} = tp.conv_transpose3d %{{.*}}, %{{.*}} : (tensor<1x3x2x2x2xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x2x4x4x4xf32>
func.func @conv_transpose3d(%x: tensor<1x3x2x2x2xf32>, %w: tensor<3x2x3x3x3xf32>) {
  %r = tp.conv_transpose3d %x, %w : (tensor<1x3x2x2x2xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @convolution(
// CHECK-NEXT: %{{.*}} = tp.convolution %{{.*}}, %{{.*}} {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>
func.func @convolution(%x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>) {
  %r = tp.convolution %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> tensor<2x4x12xf32>
  return
}

// CHECK-LABEL: func.func @convolution_backward(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.convolution_backward %{{.*}}, %{{.*}}, %{{.*}} {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x4x12xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.convolution_backward %{{.*}}, %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, groups = 2 : i64, output_padding = array<i64: 1, 0>, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>, transposed = true} : (tensor<1x4x8x6xbf16>, tensor<1x4x4x4xbf16>, tensor<4x2x3x3xbf16>) -> (tensor<1x4x4x4xbf16>, tensor<4x2x3x3xbf16>, tensor<4xbf16>)
func.func @convolution_backward(%g: tensor<2x4x12xf32>, %x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>, %tg: tensor<1x4x8x6xbf16>, %tx: tensor<1x4x4x4xbf16>, %tw: tensor<4x2x3x3xbf16>) {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x4x12xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)
  %ti, %tw2, %tb = tp.convolution_backward %tg, %tx, %tw {dilation = array<i64: 1, 1>, groups = 2 : i64, output_padding = array<i64: 1, 0>, padding = array<i64: 1, 0>, stride = array<i64: 2, 1>, transposed = true} : (tensor<1x4x8x6xbf16>, tensor<1x4x4x4xbf16>, tensor<4x2x3x3xbf16>) -> (tensor<1x4x4x4xbf16>, tensor<4x2x3x3xbf16>, tensor<4xbf16>)
  return
}

// CHECK-LABEL: func.func @softmax_backward(
// CHECK-NEXT: %{{.*}} = tp.softmax_backward %{{.*}}, %{{.*}} {dim = -1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = tp.log_softmax_backward %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
func.func @softmax_backward(%g: tensor<4x8xf32>, %y: tensor<4x8xf32>, %h: tensor<4x8xbf16>, %z: tensor<4x8xbf16>) {
  %r = tp.softmax_backward %g, %y {dim = -1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tp.log_softmax_backward %h, %z {dim = 0 : i64} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return
}

// CHECK-LABEL: func.func @layer_norm_backward(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.layer_norm_backward %{{.*}}, %{{.*}} weight(%{{.*}}) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.layer_norm_backward %{{.*}}, %{{.*}} {eps = 1.000000e-03 : f64, normalized_shape = array<i64: 2, 8>} : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>)
func.func @layer_norm_backward(%g: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<8xf32>, %h: tensor<2x8xbf16>, %y: tensor<2x8xbf16>) {
  %a:3 = tp.layer_norm_backward %g, %x weight(%w) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  %b:3 = tp.layer_norm_backward %h, %y {normalized_shape = array<i64: 2, 8>, eps = 1.0e-3 : f64} : (tensor<2x8xbf16>, tensor<2x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xbf16>)
  return
}

// CHECK-LABEL: func.func @group_norm_backward(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.group_norm_backward %{{.*}}, %{{.*}} weight(%{{.*}}) {num_groups = 2 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>)
func.func @group_norm_backward(%g: tensor<2x4x8xf32>, %x: tensor<2x4x8xf32>, %w: tensor<4xf32>) {
  %a:3 = tp.group_norm_backward %g, %x weight(%w) {num_groups = 2 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4xf32>) -> (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// The parameter gradients take the weight's dtype (f32 for the f32 weight
// of a bf16 input); without a weight, the input's.
// CHECK-LABEL: func.func @batch_norm_backward(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.batch_norm_backward %{{.*}}, %{{.*}} weight(%{{.*}}) {eps = 1.000000e-03 : f64} : (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<4xf32>) -> (tensor<2x4x8xbf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.batch_norm_backward %{{.*}}, %{{.*}} : (tensor<5x4xf32>, tensor<5x4xf32>) -> (tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.layer_norm_backward %{{.*}}, %{{.*}} weight(%{{.*}}) {normalized_shape = array<i64: 8>} : (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<8xf32>) -> (tensor<2x4x8xbf16>, tensor<8xf32>, tensor<8xf32>)
func.func @batch_norm_backward(%g: tensor<2x4x8xbf16>, %x: tensor<2x4x8xbf16>, %w: tensor<4xf32>, %h: tensor<5x4xf32>, %lw: tensor<8xf32>) {
  %a:3 = tp.batch_norm_backward %g, %x weight(%w) {eps = 1.0e-3 : f64} : (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<4xf32>) -> (tensor<2x4x8xbf16>, tensor<4xf32>, tensor<4xf32>)
  %b:3 = tp.batch_norm_backward %h, %h : (tensor<5x4xf32>, tensor<5x4xf32>) -> (tensor<5x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %c:3 = tp.layer_norm_backward %g, %x weight(%lw) {normalized_shape = array<i64: 8>} : (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<8xf32>) -> (tensor<2x4x8xbf16>, tensor<8xf32>, tensor<8xf32>)
  return
}

// CHECK-LABEL: func.func @embedding_dense_backward(
// CHECK-NEXT: %{{.*}} = tp.embedding_dense_backward %{{.*}}, %{{.*}} {num_weights = 100 : i64} : (tensor<4x7x16xf32>, tensor<4x7xi64>) -> tensor<100x16xf32>
// CHECK-NEXT: %{{.*}} = tp.embedding_dense_backward %{{.*}}, %{{.*}} {num_weights = 9 : i64, padding_idx = 0 : i64, scale_grad_by_freq = true} : (tensor<3x8xbf16>, tensor<3xi32>) -> tensor<9x8xbf16>
func.func @embedding_dense_backward(%g: tensor<4x7x16xf32>, %i: tensor<4x7xi64>, %h: tensor<3x8xbf16>, %j: tensor<3xi32>) {
  %r = tp.embedding_dense_backward %g, %i {num_weights = 100 : i64} : (tensor<4x7x16xf32>, tensor<4x7xi64>) -> tensor<100x16xf32>
  %s = tp.embedding_dense_backward %h, %j {num_weights = 9 : i64, padding_idx = 0 : i64, scale_grad_by_freq = true} : (tensor<3x8xbf16>, tensor<3xi32>) -> tensor<9x8xbf16>
  return
}

// CHECK-LABEL: func.func @gru_cell(
// CHECK-NEXT: %{{.*}} = tp.gru_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
func.func @gru_cell(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) {
  %h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return
}

// CHECK-LABEL: func.func @lstm_cell(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.lstm_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
func.func @lstm_cell(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>, %wi: tensor<16x8xf32>, %wh: tensor<16x4xf32>) {
  %h, %c = tp.lstm_cell %x, %h0, %c0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// CHECK-LABEL: func.func @rnn_cell(
// CHECK-NEXT: %{{.*}} = tp.rnn_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
func.func @rnn_cell(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>) {
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// CHECK-LABEL: func.func @scaled_dot_product_attention(
// CHECK-NEXT: %{{.*}} = tp.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}} {is_causal = true} : (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>) -> tensor<2x8x16x64xf32>
func.func @scaled_dot_product_attention(%q: tensor<2x8x16x64xf32>, %k: tensor<2x8x16x64xf32>, %v: tensor<2x8x16x64xf32>) {
  %r = tp.scaled_dot_product_attention %q, %k, %v {is_causal = true} : (tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>, tensor<2x8x16x64xf32>) -> tensor<2x8x16x64xf32>
  return
}

// CHECK-LABEL: func.func @amax(
// CHECK-NEXT: %{{.*}} = tp.amax %{{.*}} {dim = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
func.func @amax(%x: tensor<4x8xf32>) {
  %r = tp.amax %x {dim = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @argmax(
// CHECK-NEXT: %{{.*}} = tp.argmax %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
func.func @argmax(%x: tensor<4x8xf32>) {
  %r = tp.argmax %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  return
}

// CHECK-LABEL: func.func @batch_norm(
// CHECK-NEXT: %{{.*}} = tp.batch_norm %{{.*}} running_mean(%{{.*}}) running_var(%{{.*}}) : (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8xf32>
func.func @batch_norm(%x: tensor<2x4x8xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) {
  %r = tp.batch_norm %x running_mean(%m) running_var(%v) : (tensor<2x4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @cdist(
// CHECK-NEXT: %{{.*}} = tp.cdist %{{.*}}, %{{.*}} : (tensor<5x3xf32>, tensor<7x3xf32>) -> tensor<5x7xf32>
func.func @cdist(%a: tensor<5x3xf32>, %b: tensor<7x3xf32>) {
  %r = tp.cdist %a, %b : (tensor<5x3xf32>, tensor<7x3xf32>) -> tensor<5x7xf32>
  return
}

// CHECK-LABEL: func.func @cosine_similarity(
// CHECK-NEXT: %{{.*}} = tp.cosine_similarity %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
func.func @cosine_similarity(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  %r = tp.cosine_similarity %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @cumprod(
// CHECK-NEXT: %{{.*}} = tp.cumprod %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @cumprod(%x: tensor<4x8xf32>) {
  %r = tp.cumprod %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @cumsum(
// CHECK-NEXT: %{{.*}} = tp.cumsum %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @cumsum(%x: tensor<4x8xf32>) {
  %r = tp.cumsum %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @dist(
// CHECK-NEXT: %{{.*}} = tp.dist %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @dist(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  %r = tp.dist %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @group_norm(
// CHECK-NEXT: %{{.*}} = tp.group_norm %{{.*}} {num_groups = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
func.func @group_norm(%x: tensor<2x4x8xf32>) {
  %r = tp.group_norm %x {num_groups = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK-NEXT: %{{.*}} = tp.layer_norm %{{.*}} weight(%{{.*}}) bias(%{{.*}}) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @layer_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) {
  %r = tp.layer_norm %x weight(%g) bias(%b) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK-NEXT: %{{.*}} = tp.log_softmax %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @log_softmax(%x: tensor<4x8xf32>) {
  %r = tp.log_softmax %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @max_dim(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.max_dim %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>)
func.func @max_dim(%x: tensor<4x8xf32>) {
  %v, %i = tp.max_dim %x {dim = 1 : i64} : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>)
  return
}

// CHECK-LABEL: func.func @topk(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.topk %{{.*}} {k = 3 : i64} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.topk %{{.*}} {dim = 0 : i64, k = 2 : i64, largest = false, sorted = false} : (tensor<4x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xi64>)
func.func @topk(%x: tensor<4x8xf32>, %y: tensor<4x8xbf16>) {
  %v, %i = tp.topk %x {k = 3 : i64} : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  %w, %j = tp.topk %y {k = 2 : i64, dim = 0 : i64, largest = false, sorted = false} : (tensor<4x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xi64>)
  return
}

// CHECK-LABEL: func.func @max(
// CHECK-NEXT: %{{.*}} = tp.max %{{.*}} : (tensor<4x8xf32>) -> tensor<f32>
func.func @max(%x: tensor<4x8xf32>) {
  %r = tp.max %x : (tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @mean(
// CHECK-NEXT: %{{.*}} = tp.mean %{{.*}} {dim = array<i64: 1>} : (tensor<4x8xf16>) -> tensor<4xf16>
func.func @mean(%x: tensor<4x8xf16>) {
  %r = tp.mean %x {dim = array<i64: 1>} : (tensor<4x8xf16>) -> tensor<4xf16>
  return
}

// CHECK-LABEL: func.func @nanquantile(
// CHECK-NEXT: %{{.*}} = tp.nanquantile %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>
func.func @nanquantile(%x: tensor<4x8xf32>, %q: tensor<3xf32>) {
  %r = tp.nanquantile %x, %q {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @norm(
// CHECK-NEXT: %{{.*}} = tp.norm %{{.*}} {p = 2.000000e+00 : f64} : (tensor<4x8xf32>) -> tensor<f32>
func.func @norm(%x: tensor<4x8xf32>) {
  %r = tp.norm %x {p = 2.0 : f64} : (tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @normalize(
// CHECK-NEXT: %{{.*}} = tp.normalize %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @normalize(%x: tensor<4x8xf32>) {
  %r = tp.normalize %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @pdist(
// CHECK-NEXT: %{{.*}} = tp.pdist %{{.*}} : (tensor<5x3xf32>) -> tensor<10xf32>
func.func @pdist(%x: tensor<5x3xf32>) {
  %r = tp.pdist %x : (tensor<5x3xf32>) -> tensor<10xf32>
  return
}

// CHECK-LABEL: func.func @prod(
// CHECK-NEXT: %{{.*}} = tp.prod %{{.*}} {dim = 1 : i64} : (tensor<4x8xf16>) -> tensor<4xf16>
func.func @prod(%x: tensor<4x8xf16>) {
  %r = tp.prod %x {dim = 1 : i64} : (tensor<4x8xf16>) -> tensor<4xf16>
  return
}

// CHECK-LABEL: func.func @quantile(
// CHECK-NEXT: %{{.*}} = tp.quantile %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>
func.func @quantile(%x: tensor<4x8xf32>, %q: tensor<3xf32>) {
  %r = tp.quantile %x, %q {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @renorm(
// CHECK-NEXT: %{{.*}} = tp.renorm %{{.*}} {dim = 0 : i64, maxnorm = 1.000000e+00 : f64, p = 2.000000e+00 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @renorm(%x: tensor<4x8xf32>) {
  %r = tp.renorm %x {dim = 0 : i64, maxnorm = 1.0 : f64, p = 2.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT: %{{.*}} = tp.softmax %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @softmax(%x: tensor<4x8xf32>) {
  %r = tp.softmax %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @softmin(
// CHECK-NEXT: %{{.*}} = tp.softmin %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @softmin(%x: tensor<4x8xf32>) {
  %r = tp.softmin %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sum(
// CHECK-NEXT: %{{.*}} = tp.sum %{{.*}} {dim = array<i64: 1>} : (tensor<4x8xf16>) -> tensor<4xf16>
func.func @sum(%x: tensor<4x8xf16>) {
  %r = tp.sum %x {dim = array<i64: 1>} : (tensor<4x8xf16>) -> tensor<4xf16>
  return
}

// CHECK-LABEL: func.func @trace(
// CHECK-NEXT: %{{.*}} = tp.trace %{{.*}} : (tensor<4x4xf32>) -> tensor<f32>
func.func @trace(%x: tensor<4x4xf32>) {
  %r = tp.trace %x : (tensor<4x4xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @binary_cross_entropy(
// CHECK-NEXT: %{{.*}} = tp.binary_cross_entropy %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @binary_cross_entropy(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.binary_cross_entropy %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @binary_cross_entropy_with_logits(
// CHECK-NEXT: %{{.*}} = tp.binary_cross_entropy_with_logits %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @binary_cross_entropy_with_logits(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.binary_cross_entropy_with_logits %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @cosine_embedding_loss(
// CHECK-NEXT: %{{.*}} = tp.cosine_embedding_loss %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<f32>
func.func @cosine_embedding_loss(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %t: tensor<4xf32>) {
  %l = tp.cosine_embedding_loss %a, %b, %t : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @cross_entropy_loss(
// CHECK-NEXT: %{{.*}} = tp.cross_entropy_loss %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
func.func @cross_entropy_loss(%x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  %l = tp.cross_entropy_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @cross_entropy(
// CHECK-NEXT: %{{.*}} = tp.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
func.func @cross_entropy(%x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  %l = tp.cross_entropy %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @ctc_loss(
// CHECK-NEXT: %{{.*}} = tp.ctc_loss %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
func.func @ctc_loss(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @hinge_embedding_loss(
// CHECK-NEXT: %{{.*}} = tp.hinge_embedding_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @hinge_embedding_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.hinge_embedding_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @huber_loss(
// CHECK-NEXT: %{{.*}} = tp.huber_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @huber_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.huber_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @kl_div(
// CHECK-NEXT: %{{.*}} = tp.kl_div %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @kl_div(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.kl_div %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @l1_loss(
// CHECK-NEXT: %{{.*}} = tp.l1_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @l1_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.l1_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @margin_ranking_loss(
// CHECK-NEXT: %{{.*}} = tp.margin_ranking_loss %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
func.func @margin_ranking_loss(%a: tensor<8xf32>, %b: tensor<8xf32>, %t: tensor<8xf32>) {
  %l = tp.margin_ranking_loss %a, %b, %t : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @mse_loss(
// CHECK-NEXT: %{{.*}} = tp.mse_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @mse_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.mse_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @multi_margin_loss(
// CHECK-NEXT: %{{.*}} = tp.multi_margin_loss %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
func.func @multi_margin_loss(%x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  %l = tp.multi_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @multilabel_margin_loss_forward(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.multilabel_margin_loss_forward %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4x10xi64>) -> (tensor<f32>, tensor<4x10xf32>)
func.func @multilabel_margin_loss_forward(%x: tensor<4x10xf32>, %t: tensor<4x10xi64>) {
  %l, %m = tp.multilabel_margin_loss_forward %x, %t : (tensor<4x10xf32>, tensor<4x10xi64>) -> (tensor<f32>, tensor<4x10xf32>)
  return
}

// CHECK-LABEL: func.func @multilabel_margin_loss(
// CHECK-NEXT: %{{.*}} = tp.multilabel_margin_loss %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4x10xi64>) -> tensor<f32>
func.func @multilabel_margin_loss(%x: tensor<4x10xf32>, %t: tensor<4x10xi64>) {
  %l = tp.multilabel_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4x10xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @nll_loss2d(
// CHECK-NEXT: %{{.*}} = tp.nll_loss2d %{{.*}}, %{{.*}} : (tensor<2x10x4x4xf32>, tensor<2x4x4xi64>) -> tensor<f32>
func.func @nll_loss2d(%x: tensor<2x10x4x4xf32>, %t: tensor<2x4x4xi64>) {
  %l = tp.nll_loss2d %x, %t : (tensor<2x10x4x4xf32>, tensor<2x4x4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @nll_loss(
// CHECK-NEXT: %{{.*}} = tp.nll_loss %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
func.func @nll_loss(%x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  %l = tp.nll_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @poisson_nll_loss(
// CHECK-NEXT: %{{.*}} = tp.poisson_nll_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @poisson_nll_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.poisson_nll_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @smooth_l1_loss(
// CHECK-NEXT: %{{.*}} = tp.smooth_l1_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @smooth_l1_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.smooth_l1_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @soft_margin_loss(
// CHECK-NEXT: %{{.*}} = tp.soft_margin_loss %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @soft_margin_loss(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) {
  %l = tp.soft_margin_loss %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @triplet_margin_loss(
// CHECK-NEXT: %{{.*}} = tp.triplet_margin_loss %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
func.func @triplet_margin_loss(%a: tensor<4x8xf32>, %p: tensor<4x8xf32>, %n: tensor<4x8xf32>) {
  %l = tp.triplet_margin_loss %a, %p, %n : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @adaptive_avg_pool3d(
// CHECK-NEXT: %{{.*}} = tp.adaptive_avg_pool3d %{{.*}} {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>
func.func @adaptive_avg_pool3d(%x: tensor<1x2x4x4x4xf32>) {
  %r = tp.adaptive_avg_pool3d %x {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>
  return
}

// CHECK-LABEL: func.func @adaptive_max_pool3d(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.adaptive_max_pool3d %{{.*}} {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x1xi64>)
func.func @adaptive_max_pool3d(%x: tensor<1x2x4x4x4xf32>) {
  %r, %i = tp.adaptive_max_pool3d %x {output_size = array<i64: 1, 1, 1>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x1xi64>)
  return
}

// CHECK-LABEL: func.func @avg_pool3d(
// CHECK-NEXT: %{{.*}} = tp.avg_pool3d %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
func.func @avg_pool3d(%x: tensor<1x2x4x4x4xf32>) {
  %r = tp.avg_pool3d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// CHECK-LABEL: func.func @cat(
// CHECK-NEXT: %{{.*}} = tp.cat [%{{.*}}, %{{.*}}] {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
func.func @cat(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  %r = tp.cat [%a, %b] {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  return
}

// CHECK-LABEL: func.func @embedding(
// CHECK-NEXT: %{{.*}} = tp.embedding %{{.*}}, %{{.*}} : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<4x7x16xf32>
func.func @embedding(%w: tensor<100x16xf32>, %i: tensor<4x7xi64>) {
  %r = tp.embedding %w, %i : (tensor<100x16xf32>, tensor<4x7xi64>) -> tensor<4x7x16xf32>
  return
}

// CHECK-LABEL: func.func @expand(
// CHECK-NEXT: %{{.*}} = tp.expand %{{.*}} {size = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x8xf32>
func.func @expand(%x: tensor<1x8xf32>) {
  %r = tp.expand %x {size = array<i64: 4, 8>} : (tensor<1x8xf32>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @flatten(
// CHECK-NEXT: %{{.*}} = tp.flatten %{{.*}} {start_dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
func.func @flatten(%x: tensor<2x3x4xf32>) {
  %r = tp.flatten %x {start_dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return
}

// CHECK-LABEL: func.func @fractional_max_pool2d(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.fractional_max_pool2d %{{.*}}, %{{.*}} {kernel_size = array<i64: 2, 2>, output_size = array<i64: 3, 3>} : (tensor<1x2x8x8xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
func.func @fractional_max_pool2d(%x: tensor<1x2x8x8xf32>, %s: tensor<1x2x2xf32>) {
  %r, %i = tp.fractional_max_pool2d %x, %s {kernel_size = array<i64: 2, 2>, output_size = array<i64: 3, 3>} : (tensor<1x2x8x8xf32>, tensor<1x2x2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return
}

// CHECK-LABEL: func.func @fractional_max_pool3d(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.fractional_max_pool3d %{{.*}}, %{{.*}} {kernel_size = array<i64: 2, 2, 2>, output_size = array<i64: 3, 3, 3>} : (tensor<1x2x8x8x8xf32>, tensor<1x2x3xf32>) -> (tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xi64>)
func.func @fractional_max_pool3d(%x: tensor<1x2x8x8x8xf32>, %s: tensor<1x2x3xf32>) {
  %r, %i = tp.fractional_max_pool3d %x, %s {kernel_size = array<i64: 2, 2, 2>, output_size = array<i64: 3, 3, 3>} : (tensor<1x2x8x8x8xf32>, tensor<1x2x3xf32>) -> (tensor<1x2x3x3x3xf32>, tensor<1x2x3x3x3xi64>)
  return
}

// CHECK-LABEL: func.func @grid_sample(
// CHECK-NEXT: %{{.*}} = tp.grid_sample %{{.*}}, %{{.*}} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
func.func @grid_sample(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  %r = tp.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @grid_sampler_2d_cpu_fallback(
// CHECK-NEXT: %{{.*}} = tp.grid_sampler_2d_cpu_fallback %{{.*}}, %{{.*}} {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
func.func @grid_sampler_2d_cpu_fallback(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  %r = tp.grid_sampler_2d_cpu_fallback %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @grid_sampler_2d(
// CHECK-NEXT: %{{.*}} = tp.grid_sampler_2d %{{.*}}, %{{.*}} {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
func.func @grid_sampler_2d(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  %r = tp.grid_sampler_2d %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @grid_sampler_3d(
// CHECK-NEXT: %{{.*}} = tp.grid_sampler_3d %{{.*}}, %{{.*}} {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x4x8x8xf32>, tensor<1x2x4x4x3xf32>) -> tensor<1x3x2x4x4xf32>
func.func @grid_sampler_3d(%x: tensor<1x3x4x8x8xf32>, %g: tensor<1x2x4x4x3xf32>) {
  %r = tp.grid_sampler_3d %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x4x8x8xf32>, tensor<1x2x4x4x3xf32>) -> tensor<1x3x2x4x4xf32>
  return
}

// CHECK-LABEL: func.func @grid_sampler(
// CHECK-NEXT: %{{.*}} = tp.grid_sampler %{{.*}}, %{{.*}} {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
func.func @grid_sampler(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  %r = tp.grid_sampler %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// CHECK-LABEL: func.func @index_copy(
// CHECK-NEXT: %{{.*}} = tp.index_copy %{{.*}}, %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
func.func @index_copy(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %s: tensor<2x3xf32>) {
  %r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// CHECK-LABEL: func.func @index_put(
// CHECK-NEXT: %{{.*}} = tp.index_put %{{.*}}[%{{.*}}], %{{.*}} : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
func.func @index_put(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %v: tensor<2x3xf32>) {
  %r = tp.index_put %x[%i], %v : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// CHECK-LABEL: func.func @max_pool3d(
// CHECK-NEXT: %{{.*}} = tp.max_pool3d %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
func.func @max_pool3d(%x: tensor<1x2x4x4x4xf32>) {
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// CHECK-LABEL: func.func @max_unpool2d(
// CHECK-NEXT: %{{.*}} = tp.max_unpool2d %{{.*}}, %{{.*}} {output_size = array<i64: 4, 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>
func.func @max_unpool2d(%x: tensor<1x2x2x2xf32>, %i: tensor<1x2x2x2xi64>) {
  %r = tp.max_unpool2d %x, %i {output_size = array<i64: 4, 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>
  return
}

// CHECK-LABEL: func.func @max_unpool3d(
// CHECK-NEXT: %{{.*}} = tp.max_unpool3d %{{.*}}, %{{.*}} {output_size = array<i64: 4, 4, 4>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>
func.func @max_unpool3d(%x: tensor<1x2x2x2x2xf32>, %i: tensor<1x2x2x2x2xi64>) {
  %r = tp.max_unpool3d %x, %i {output_size = array<i64: 4, 4, 4>, padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @permute(
// CHECK-NEXT: %{{.*}} = tp.permute %{{.*}} {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @permute(%x: tensor<2x3x4xf32>) {
  %r = tp.permute %x {dims = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return
}

// CHECK-LABEL: func.func @reflection_pad1d(
// CHECK-NEXT: %{{.*}} = tp.reflection_pad1d %{{.*}} {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>
func.func @reflection_pad1d(%x: tensor<2x3x8xf32>) {
  %r = tp.reflection_pad1d %x {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>
  return
}

// CHECK-LABEL: func.func @reflection_pad2d(
// CHECK-NEXT: %{{.*}} = tp.reflection_pad2d %{{.*}} {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>
func.func @reflection_pad2d(%x: tensor<1x3x8x8xf32>) {
  %r = tp.reflection_pad2d %x {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>
  return
}

// CHECK-LABEL: func.func @replication_pad1d(
// CHECK-NEXT: %{{.*}} = tp.replication_pad1d %{{.*}} {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>
func.func @replication_pad1d(%x: tensor<2x3x8xf32>) {
  %r = tp.replication_pad1d %x {padding = array<i64: 2, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>
  return
}

// CHECK-LABEL: func.func @replication_pad2d(
// CHECK-NEXT: %{{.*}} = tp.replication_pad2d %{{.*}} {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>
func.func @replication_pad2d(%x: tensor<1x3x8x8xf32>) {
  %r = tp.replication_pad2d %x {padding = array<i64: 1, 1, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x12x10xf32>
  return
}

// CHECK-LABEL: func.func @replication_pad3d(
// CHECK-NEXT: %{{.*}} = tp.replication_pad3d %{{.*}} {padding = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x6x6x6xf32>
func.func @replication_pad3d(%x: tensor<1x1x4x4x4xf32>) {
  %r = tp.replication_pad3d %x {padding = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x6x6x6xf32>
  return
}

// CHECK-LABEL: func.func @reshape(
// CHECK-NEXT: %{{.*}} = tp.reshape %{{.*}} {shape = array<i64: 8, -1>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
func.func @reshape(%x: tensor<4x8xf32>) {
  %r = tp.reshape %x {shape = array<i64: 8, -1>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @scatter_add(
// CHECK-NEXT: %{{.*}} = tp.scatter_add %{{.*}}, %{{.*}}, %{{.*}} {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
func.func @scatter_add(%x: tensor<5x3xf32>, %i: tensor<2x3xi64>, %s: tensor<2x3xf32>) {
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// CHECK-LABEL: func.func @gather(
// CHECK-NEXT: %{{.*}} = tp.gather %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
func.func @gather(%x: tensor<4x8xf32>, %i: tensor<4x3xi64>) {
  %r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @squeeze(
// CHECK-NEXT: %{{.*}} = tp.squeeze %{{.*}} : (tensor<1x8xf32>) -> tensor<8xf32>
func.func @squeeze(%x: tensor<1x8xf32>) {
  %r = tp.squeeze %x : (tensor<1x8xf32>) -> tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @stack(
// CHECK-NEXT: %{{.*}} = tp.stack [%{{.*}}, %{{.*}}] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
func.func @stack(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  %r = tp.stack [%a, %b] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT: %{{.*}} = tp.transpose %{{.*}} {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
func.func @transpose(%x: tensor<4x8xf32>) {
  %r = tp.transpose %x {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @unsqueeze(
// CHECK-NEXT: %{{.*}} = tp.unsqueeze %{{.*}} {dim = 0 : i64} : (tensor<8xf32>) -> tensor<1x8xf32>
func.func @unsqueeze(%x: tensor<8xf32>) {
  %r = tp.unsqueeze %x {dim = 0 : i64} : (tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// CHECK-LABEL: func.func @cholesky_inverse(
// CHECK-NEXT: %{{.*}} = tp.cholesky_inverse %{{.*}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @cholesky_inverse(%a: tensor<4x4xf32>) {
  %r = tp.cholesky_inverse %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// CHECK-LABEL: func.func @cholesky_solve(
// CHECK-NEXT: %{{.*}} = tp.cholesky_solve %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<4x2xf32>
func.func @cholesky_solve(%b: tensor<4x2xf32>, %l: tensor<4x4xf32>) {
  %r = tp.cholesky_solve %b, %l : (tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @fake_quantize_per_tensor_affine(
// CHECK-NEXT: %{{.*}} = tp.fake_quantize_per_tensor_affine %{{.*}} {quant_max = 127 : i64, quant_min = -128 : i64, scale = 1.000000e-01 : f64, zero_point = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @fake_quantize_per_tensor_affine(%x: tensor<4xf32>) {
  %r = tp.fake_quantize_per_tensor_affine %x {quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.1 : f64, zero_point = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @fft_fft2(
// CHECK-NEXT: %{{.*}} = tp.fft_fft2 %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
func.func @fft_fft2(%x: tensor<4x8xf32>) {
  %r = tp.fft_fft2 %x : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_fft(
// CHECK-NEXT: %{{.*}} = tp.fft_fft %{{.*}} : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
func.func @fft_fft(%x: tensor<8xf32>) {
  %r = tp.fft_fft %x : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_fftn(
// CHECK-NEXT: %{{.*}} = tp.fft_fftn %{{.*}} : (tensor<2x4x8xf32>) -> tensor<2x4x8xcomplex<f32>>
func.func @fft_fftn(%x: tensor<2x4x8xf32>) {
  %r = tp.fft_fftn %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_hfft(
// CHECK-NEXT: %{{.*}} = tp.fft_hfft %{{.*}} : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
func.func @fft_hfft(%x: tensor<5xcomplex<f32>>) {
  %r = tp.fft_hfft %x : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @fft_ifft2(
// CHECK-NEXT: %{{.*}} = tp.fft_ifft2 %{{.*}} : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
func.func @fft_ifft2(%x: tensor<4x8xcomplex<f32>>) {
  %r = tp.fft_ifft2 %x : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_ifft(
// CHECK-NEXT: %{{.*}} = tp.fft_ifft %{{.*}} : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
func.func @fft_ifft(%x: tensor<8xcomplex<f32>>) {
  %r = tp.fft_ifft %x : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_ifftn(
// CHECK-NEXT: %{{.*}} = tp.fft_ifftn %{{.*}} : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
func.func @fft_ifftn(%x: tensor<2x4x8xcomplex<f32>>) {
  %r = tp.fft_ifftn %x : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_ihfft(
// CHECK-NEXT: %{{.*}} = tp.fft_ihfft %{{.*}} : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
func.func @fft_ihfft(%x: tensor<8xf32>) {
  %r = tp.fft_ihfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_irfft2(
// CHECK-NEXT: %{{.*}} = tp.fft_irfft2 %{{.*}} : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
func.func @fft_irfft2(%x: tensor<4x5xcomplex<f32>>) {
  %r = tp.fft_irfft2 %x : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @fft_irfft(
// CHECK-NEXT: %{{.*}} = tp.fft_irfft %{{.*}} : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
func.func @fft_irfft(%x: tensor<5xcomplex<f32>>) {
  %r = tp.fft_irfft %x : (tensor<5xcomplex<f32>>) -> tensor<8xf32>
  return
}

// CHECK-LABEL: func.func @fft_irfftn(
// CHECK-NEXT: %{{.*}} = tp.fft_irfftn %{{.*}} : (tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x8xf32>
func.func @fft_irfftn(%x: tensor<2x4x5xcomplex<f32>>) {
  %r = tp.fft_irfftn %x : (tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @fft_rfft2(
// CHECK-NEXT: %{{.*}} = tp.fft_rfft2 %{{.*}} : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
func.func @fft_rfft2(%x: tensor<4x8xf32>) {
  %r = tp.fft_rfft2 %x : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_rfft(
// CHECK-NEXT: %{{.*}} = tp.fft_rfft %{{.*}} : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
func.func @fft_rfft(%x: tensor<8xf32>) {
  %r = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @fft_rfftn(
// CHECK-NEXT: %{{.*}} = tp.fft_rfftn %{{.*}} : (tensor<2x4x8xf32>) -> tensor<2x4x5xcomplex<f32>>
func.func @fft_rfftn(%x: tensor<2x4x8xf32>) {
  %r = tp.fft_rfftn %x : (tensor<2x4x8xf32>) -> tensor<2x4x5xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @geqrf(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.geqrf %{{.*}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
func.func @geqrf(%a: tensor<4x3xf32>) {
  %a2, %t = tp.geqrf %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return
}

// CHECK-LABEL: func.func @inverse(
// CHECK-NEXT: %{{.*}} = tp.inverse %{{.*}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @inverse(%a: tensor<4x4xf32>) {
  %r = tp.inverse %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// CHECK-LABEL: func.func @linalg_cholesky_ex(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.linalg_cholesky_ex %{{.*}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
func.func @linalg_cholesky_ex(%a: tensor<4x4xf32>) {
  %l, %i = tp.linalg_cholesky_ex %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return
}

// CHECK-LABEL: func.func @linalg_cholesky(
// CHECK-NEXT: %{{.*}} = tp.linalg_cholesky %{{.*}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @linalg_cholesky(%a: tensor<4x4xf32>) {
  %r = tp.linalg_cholesky %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// CHECK-LABEL: func.func @linalg_cond(
// CHECK-NEXT: %{{.*}} = tp.linalg_cond %{{.*}} : (tensor<2x4x4xf32>) -> tensor<2xf32>
func.func @linalg_cond(%a: tensor<2x4x4xf32>) {
  %r = tp.linalg_cond %a : (tensor<2x4x4xf32>) -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @linalg_eig(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.linalg_eig %{{.*}} : (tensor<4x4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4x4xcomplex<f32>>)
func.func @linalg_eig(%a: tensor<4x4xf32>) {
  %w, %v = tp.linalg_eig %a : (tensor<4x4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4x4xcomplex<f32>>)
  return
}

// CHECK-LABEL: func.func @linalg_eigh(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.linalg_eigh %{{.*}} : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>)
func.func @linalg_eigh(%a: tensor<4x4xf32>) {
  %w, %v = tp.linalg_eigh %a : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>)
  return
}

// CHECK-LABEL: func.func @linalg_eigvals(
// CHECK-NEXT: %{{.*}} = tp.linalg_eigvals %{{.*}} : (tensor<4x4xf32>) -> tensor<4xcomplex<f32>>
func.func @linalg_eigvals(%a: tensor<4x4xf32>) {
  %r = tp.linalg_eigvals %a : (tensor<4x4xf32>) -> tensor<4xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @linalg_eigvalsh(
// CHECK-NEXT: %{{.*}} = tp.linalg_eigvalsh %{{.*}} : (tensor<4x4xf32>) -> tensor<4xf32>
func.func @linalg_eigvalsh(%a: tensor<4x4xf32>) {
  %r = tp.linalg_eigvalsh %a : (tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @linalg_householder_product(
// CHECK-NEXT: %{{.*}} = tp.linalg_householder_product %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
func.func @linalg_householder_product(%a: tensor<4x3xf32>, %t: tensor<3xf32>) {
  %r = tp.linalg_householder_product %a, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @linalg_inv_ex(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.linalg_inv_ex %{{.*}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
func.func @linalg_inv_ex(%a: tensor<4x4xf32>) {
  %r, %i = tp.linalg_inv_ex %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
  return
}

// CHECK-LABEL: func.func @linalg_inv(
// CHECK-NEXT: %{{.*}} = tp.linalg_inv %{{.*}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @linalg_inv(%a: tensor<4x4xf32>) {
  %r = tp.linalg_inv %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// CHECK-LABEL: func.func @linalg_lstsq(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = tp.linalg_lstsq %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)
func.func @linalg_lstsq(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)
  return
}

// CHECK-LABEL: func.func @linalg_matrix_rank(
// CHECK-NEXT: %{{.*}} = tp.linalg_matrix_rank %{{.*}} : (tensor<2x4x4xf32>) -> tensor<2xi64>
func.func @linalg_matrix_rank(%a: tensor<2x4x4xf32>) {
  %r = tp.linalg_matrix_rank %a : (tensor<2x4x4xf32>) -> tensor<2xi64>
  return
}

// CHECK-LABEL: func.func @linalg_qr(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.linalg_qr %{{.*}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)
func.func @linalg_qr(%a: tensor<4x3xf32>) {
  %q, %r = tp.linalg_qr %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)
  return
}

// CHECK-LABEL: func.func @linalg_solve(
// CHECK-NEXT: %{{.*}} = tp.linalg_solve %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
func.func @linalg_solve(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) {
  %r = tp.linalg_solve %a, %b : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @linalg_svd(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.linalg_svd %{{.*}} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
func.func @linalg_svd(%a: tensor<4x3xf32>) {
  %u, %s, %v = tp.linalg_svd %a : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
  return
}

// CHECK-LABEL: func.func @linalg_svdvals(
// CHECK-NEXT: %{{.*}} = tp.linalg_svdvals %{{.*}} : (tensor<4x3xf32>) -> tensor<3xf32>
func.func @linalg_svdvals(%a: tensor<4x3xf32>) {
  %r = tp.linalg_svdvals %a : (tensor<4x3xf32>) -> tensor<3xf32>
  return
}

// CHECK-LABEL: func.func @linalg_tensorinv(
// CHECK-NEXT: %{{.*}} = tp.linalg_tensorinv %{{.*}} : (tensor<4x6x8x3xf32>) -> tensor<8x3x4x6xf32>
func.func @linalg_tensorinv(%a: tensor<4x6x8x3xf32>) {
  %r = tp.linalg_tensorinv %a : (tensor<4x6x8x3xf32>) -> tensor<8x3x4x6xf32>
  return
}

// CHECK-LABEL: func.func @linalg_tensorsolve(
// CHECK-NEXT: %{{.*}} = tp.linalg_tensorsolve %{{.*}}, %{{.*}} : (tensor<2x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>
func.func @linalg_tensorsolve(%a: tensor<2x3x6xf32>, %b: tensor<2x3xf32>) {
  %r = tp.linalg_tensorsolve %a, %b : (tensor<2x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// CHECK-LABEL: func.func @lu_solve(
// CHECK-NEXT: %{{.*}} = tp.lu_solve %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xi32>) -> tensor<4x2xf32>
func.func @lu_solve(%b: tensor<4x2xf32>, %lu: tensor<4x4xf32>, %p: tensor<4xi32>) {
  %r = tp.lu_solve %b, %lu, %p : (tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @lu_with_info(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.lu_with_info %{{.*}} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)
func.func @lu_with_info(%a: tensor<4x4xf32>) {
  %lu, %p, %i = tp.lu_with_info %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)
  return
}

// CHECK-LABEL: func.func @orgqr(
// CHECK-NEXT: %{{.*}} = tp.orgqr %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
func.func @orgqr(%a: tensor<4x3xf32>, %t: tensor<3xf32>) {
  %r = tp.orgqr %a, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func.func @ormqr(
// CHECK-NEXT: %{{.*}} = tp.ormqr %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
func.func @ormqr(%a: tensor<4x4xf32>, %t: tensor<4xf32>, %c: tensor<4x2xf32>) {
  %r = tp.ormqr %a, %t, %c : (tensor<4x4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @pinverse(
// CHECK-NEXT: %{{.*}} = tp.pinverse %{{.*}} : (tensor<4x3xf32>) -> tensor<3x4xf32>
func.func @pinverse(%a: tensor<4x3xf32>) {
  %r = tp.pinverse %a : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @polar(
// CHECK-NEXT: %{{.*}} = tp.polar %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
func.func @polar(%m: tensor<4xf32>, %a: tensor<4xf32>) {
  %r = tp.polar %m, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @stft(
// CHECK-NEXT: %{{.*}} = tp.stft %{{.*}} {hop_length = 4 : i64, n_fft = 16 : i64} : (tensor<64xf32>) -> tensor<9x13xcomplex<f32>>
func.func @stft(%x: tensor<64xf32>) {
  %r = tp.stft %x {hop_length = 4 : i64, n_fft = 16 : i64} : (tensor<64xf32>) -> tensor<9x13xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @svd(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = tp.svd %{{.*}} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>)
func.func @svd(%a: tensor<4x3xf32>) {
  %u, %s, %v = tp.svd %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>)
  return
}

// CHECK-LABEL: func.func @triangular_solve(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.triangular_solve %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>)
func.func @triangular_solve(%b: tensor<4x2xf32>, %a: tensor<4x4xf32>) {
  %x, %c = tp.triangular_solve %b, %a : (tensor<4x2xf32>, tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>)
  return
}

// CHECK-LABEL: func.func @view_as_complex(
// CHECK-NEXT: %{{.*}} = tp.view_as_complex %{{.*}} : (tensor<4x2xf32>) -> tensor<4xcomplex<f32>>
func.func @view_as_complex(%x: tensor<4x2xf32>) {
  %r = tp.view_as_complex %x : (tensor<4x2xf32>) -> tensor<4xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @view_as_real(
// CHECK-NEXT: %{{.*}} = tp.view_as_real %{{.*}} : (tensor<3x4xcomplex<f64>>) -> tensor<3x4x2xf64>
func.func @view_as_real(%z: tensor<3x4xcomplex<f64>>) {
  %r = tp.view_as_real %z : (tensor<3x4xcomplex<f64>>) -> tensor<3x4x2xf64>
  return
}

// CHECK-LABEL: func.func @mkldnn_rnn_layer(
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = tp.mkldnn_rnn_layer %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0xui8>)
func.func @mkldnn_rnn_layer(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) {
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0xui8>)
  return
}

// CHECK-LABEL: func.func @native_multi_head_attention(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.native_multi_head_attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
func.func @native_multi_head_attention(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// CHECK-LABEL: func.func @inplace_addmm(
// CHECK-NEXT: %{{.*}} = tp.addmm %{{.*}}, %{{.*}}, %{{.*}} {inplace} : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %{{.*}} : tensor<4x16xf32>
// In-place variants and explicit out= destinations.
func.func @inplace_addmm(%c: tensor<4x16xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %r = tp.addmm %c, %a, %b {inplace} : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @out_mm(
// CHECK-NEXT: %{{.*}} = tp.mm %{{.*}}, %{{.*}} out(%{{.*}}) : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %{{.*}} : tensor<4x16xf32>
func.func @out_mm(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %o: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = tp.mm %a, %b out(%o) : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @out_max_dim(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.max_dim %{{.*}} out(%{{.*}}, %{{.*}}) {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3xf32>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3xi64>)
func.func @out_max_dim(%x: tensor<3x4xf32>, %vo: tensor<3xf32>, %io: tensor<3xi64>) {
  %v, %i = tp.max_dim %x out(%vo, %io) {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3xf32>, tensor<3xi64>) -> (tensor<3xf32>, tensor<3xi64>)
  return
}

// CHECK-LABEL: func.func @explicit_dtype(
// CHECK-NEXT: %{{.*}} = tp.softmax %{{.*}} {dim = 1 : i64, dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT: return %{{.*}} : tensor<4x8xf32>
func.func @explicit_dtype(%x: tensor<4x8xf16>) -> tensor<4x8xf32> {
  %r = tp.softmax %x {dim = 1 : i64, dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @cast_and_constant(
// CHECK-NEXT: %{{.*}} = tp.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %{{.*}} = tp.add %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %{{.*}} = tp.cast %{{.*}} : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: return %{{.*}} : tensor<4xf16>
func.func @cast_and_constant(%x: tensor<4xf32>) -> tensor<4xf16> {
  %c = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = tp.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %h = tp.cast %s : tensor<4xf32> to tensor<4xf16>
  return %h : tensor<4xf16>
}

// CHECK-LABEL: func.func @autocast_region(
// CHECK: %{{.*}} = tp.autocast "cuda" dtype(f16) -> tensor<4x16xf32> {
// CHECK: %{{.*}} = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK: tp.yield %{{.*}} : tensor<4x16xf32>
// CHECK: } attributes {cache_enabled = false, enabled = false}
// CHECK: tp.autocast "cpu" {
// CHECK: %{{.*}} = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK: return %{{.*}} : tensor<4x16xf32>
func.func @autocast_region(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %r = tp.autocast "cuda" dtype(f16) -> tensor<4x16xf32> {
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    tp.yield %m : tensor<4x16xf32>
  } attributes {cache_enabled = false, enabled = false}
  tp.autocast "cpu" {
    %n = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @dynamic_shapes(
// CHECK-NEXT: %{{.*}} = tp.mm %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: return %{{.*}} : tensor<?x?xf32>
func.func @dynamic_shapes(%a: tensor<?x8xf32>, %b: tensor<8x?xf32>) -> tensor<?x?xf32> {
  %r = tp.mm %a, %b : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// The ops of a compiled train step (tp-train-step).
// CHECK-LABEL: func.func @train_step_ops(
// CHECK-NEXT: %[[F:.*]] = tp.amp_check_finite %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32> -> tensor<f32>
// CHECK-NEXT: {{.*}} = tp.fused_sgd %{{.*}}, %{{.*}} momentum_buffer(%{{.*}}) step(%{{.*}}) grad_scale(%{{.*}}) found_inf(%[[F]]) {lr = 1.000000e-01 : f64, momentum = 9.000000e-01 : f64, nesterov = true} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>)
// CHECK-NEXT: {{.*}} = tp.fused_sgd %{{.*}}, %{{.*}} step(%{{.*}}) {lr = 1.000000e-02 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<i64>)
// CHECK-NEXT: {{.*}} = tp.fused_adamw %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} max_exp_avg_sq(%{{.*}}) step(%{{.*}}) grad_scale(%{{.*}}) found_inf(%[[F]]) {amsgrad = true, lr = 1.000000e-03 : f64} : (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>)
// CHECK-NEXT: {{.*}} = tp.amp_update_scale %{{.*}}, %{{.*}}, %[[F]] {growth_interval = 100 : i64} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
func.func @train_step_ops(%w: tensor<4x8xf32>, %gw: tensor<4x8xf32>, %mw: tensor<4x8xf32>,
                          %b: tensor<8xf32>, %gb: tensor<8xf32>, %n: tensor<i64>,
                          %h: tensor<8xbf16>, %gh: tensor<8xbf16>,
                          %scale: tensor<f32>, %tracker: tensor<i32>) {
  %found = tp.amp_check_finite %gw, %gb : tensor<4x8xf32>, tensor<8xf32> -> tensor<f32>
  %w1, %m1, %n1 = tp.fused_sgd %w, %gw momentum_buffer(%mw) step(%n) grad_scale(%scale) found_inf(%found) {lr = 0.1 : f64, momentum = 0.9 : f64, nesterov = true} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>)
  %b1, %n2 = tp.fused_sgd %b, %gb step(%n) {lr = 0.01 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<i64>)
  %h1, %hm, %hv, %hx, %n3 = tp.fused_adamw %h, %gh, %h, %h max_exp_avg_sq(%h) step(%n) grad_scale(%scale) found_inf(%found) {lr = 0.001 : f64, amsgrad = true} : (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>)
  %s1, %t1 = tp.amp_update_scale %scale, %tracker, %found {growth_interval = 100 : i64} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// f32 parameters with bf16 / f16 gradients and parameter copies (the copy
// result comes before the step counter).
// CHECK-LABEL: func.func @train_step_copies(
// CHECK-NEXT: {{.*}} = tp.fused_sgd %{{.*}}, %{{.*}} momentum_buffer(%{{.*}}) param_copy(%{{.*}}) step(%{{.*}}) {lr = 1.000000e-01 : f64, momentum = 9.000000e-01 : f64} : (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>)
// CHECK-NEXT: {{.*}} = tp.fused_adamw %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} max_exp_avg_sq(%{{.*}}) param_copy(%{{.*}}) step(%{{.*}}) {amsgrad = true, lr = 1.000000e-03 : f64} : (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<i64>)
func.func @train_step_copies(%w: tensor<4x8xf32>, %g: tensor<4x8xbf16>, %h: tensor<4x8xf16>,
                             %c: tensor<4x8xbf16>, %d: tensor<4x8xf16>, %n: tensor<i64>) {
  %w1, %m1, %c1, %n1 = tp.fused_sgd %w, %g momentum_buffer(%w) param_copy(%c) step(%n) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>)
  %w2, %a, %v, %x, %d1, %n2 = tp.fused_adamw %w, %h, %w, %w max_exp_avg_sq(%w) param_copy(%d) step(%n) {lr = 0.001 : f64, amsgrad = true} : (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<i64>)
  return
}

// CHECK-LABEL: func.func @custom_function(
// CHECK: %{{.*}} = tp.custom_function(%{{.*}}, %{{.*}}) {custom_bwd = {device_type = "cuda"}, custom_fwd = {cast_inputs = f32, device_type = "cuda"}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> forward {
// CHECK: ^bb0(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x2xf32>):
// CHECK:   tp.mm
// CHECK:   tp.yield %{{.*}} : tensor<4x2xf32>
// CHECK: } backward {
// CHECK: ^bb0(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x2xf32>, %{{.*}}: tensor<4x2xf32>, %{{.*}}: tensor<4x2xf32>):
// CHECK:   tp.yield %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xf32>
func.func @custom_function(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = tp.custom_function(%x, %w) {custom_fwd = {device_type = "cuda", cast_inputs = f32}, custom_bwd = {device_type = "cuda"}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>):
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    tp.yield %m : tensor<4x2xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %r: tensor<4x2xf32>, %g: tensor<4x2xf32>):
    %bt = tp.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %ga = tp.mm %g, %bt : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
    %at = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %gb = tp.mm %at, %g : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    tp.yield %ga, %gb : tensor<4x8xf32>, tensor<8x2xf32>
  }
  return %y : tensor<4x2xf32>
}

// Pools over two spatial dimensions and the pools' backward ops.

// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-NEXT: %{{.*}} = tp.avg_pool2d %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
func.func @avg_pool2d(%x: tensor<1x2x4x4xf32>) {
  %r = tp.avg_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return
}

// CHECK-LABEL: func.func @avg_pool2d_ceil(
// CHECK-NEXT: %{{.*}} = tp.avg_pool2d %{{.*}} {ceil_mode = true, count_include_pad = false, divisor_override = 3 : i64, kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 0>, stride = array<i64: 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
func.func @avg_pool2d_ceil(%x: tensor<1x2x5x5xf32>) {
  %r = tp.avg_pool2d %x {ceil_mode = true, count_include_pad = false, divisor_override = 3 : i64, kernel_size = array<i64: 3, 2>, padding = array<i64: 1, 0>, stride = array<i64: 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return
}

// CHECK-LABEL: func.func @max_pool2d(
// CHECK-NEXT: %{{.*}} = tp.max_pool2d %{{.*}} {kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
func.func @max_pool2d(%x: tensor<1x2x5x5xf32>) {
  %r = tp.max_pool2d %x {kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return
}

// CHECK-LABEL: func.func @max_pool2d_with_indices(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.max_pool2d_with_indices %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
func.func @max_pool2d_with_indices(%x: tensor<1x2x4x4xf32>) {
  %r, %i = tp.max_pool2d_with_indices %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>)
  return
}

// CHECK-LABEL: func.func @max_pool3d_with_indices(
// CHECK-NEXT: %{{.*}}, %{{.*}} = tp.max_pool3d_with_indices %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>)
func.func @max_pool3d_with_indices(%x: tensor<1x2x4x4x4xf32>) {
  %r, %i = tp.max_pool3d_with_indices %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>)
  return
}

// CHECK-LABEL: func.func @adaptive_avg_pool2d(
// CHECK-NEXT: %{{.*}} = tp.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 3, 2>} : (tensor<3x7x5xbf16>) -> tensor<3x3x2xbf16>
func.func @adaptive_avg_pool2d(%x: tensor<3x7x5xbf16>) {
  %r = tp.adaptive_avg_pool2d %x {output_size = array<i64: 3, 2>} : (tensor<3x7x5xbf16>) -> tensor<3x3x2xbf16>
  return
}

// CHECK-LABEL: func.func @avg_pool2d_backward(
// CHECK-NEXT: %{{.*}} = tp.avg_pool2d_backward %{{.*}}, %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
func.func @avg_pool2d_backward(%g: tensor<1x2x2x2xf32>, %x: tensor<1x2x4x4xf32>) {
  %r = tp.avg_pool2d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// CHECK-LABEL: func.func @avg_pool3d_backward(
// CHECK-NEXT: %{{.*}} = tp.avg_pool3d_backward %{{.*}}, %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
func.func @avg_pool3d_backward(%g: tensor<1x2x2x2x2xf32>, %x: tensor<1x2x4x4x4xf32>) {
  %r = tp.avg_pool3d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @max_pool2d_with_indices_backward(
// CHECK-NEXT: %{{.*}} = tp.max_pool2d_with_indices_backward %{{.*}}, %{{.*}}, %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>
func.func @max_pool2d_with_indices_backward(%g: tensor<1x2x2x2xf32>, %x: tensor<1x2x4x4xf32>, %i: tensor<1x2x2x2xi64>) {
  %r = tp.max_pool2d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>
  return
}

// CHECK-LABEL: func.func @max_pool3d_with_indices_backward(
// CHECK-NEXT: %{{.*}} = tp.max_pool3d_with_indices_backward %{{.*}}, %{{.*}}, %{{.*}} {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>
func.func @max_pool3d_with_indices_backward(%g: tensor<1x2x2x2x2xf32>, %x: tensor<1x2x4x4x4xf32>, %i: tensor<1x2x2x2x2xi64>) {
  %r = tp.max_pool3d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2x2xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x2x2x2xi64>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @adaptive_avg_pool2d_backward(
// CHECK-NEXT: %{{.*}} = tp.adaptive_avg_pool2d_backward %{{.*}}, %{{.*}} : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
func.func @adaptive_avg_pool2d_backward(%g: tensor<1x2x1x1xf32>, %x: tensor<1x2x4x4xf32>) {
  %r = tp.adaptive_avg_pool2d_backward %g, %x : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// CHECK-LABEL: func.func @adaptive_avg_pool3d_backward(
// CHECK-NEXT: %{{.*}} = tp.adaptive_avg_pool3d_backward %{{.*}}, %{{.*}} : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
func.func @adaptive_avg_pool3d_backward(%g: tensor<1x2x1x1x1xf32>, %x: tensor<1x2x4x4x4xf32>) {
  %r = tp.adaptive_avg_pool3d_backward %g, %x : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @adaptive_max_pool3d_backward(
// CHECK-NEXT: %{{.*}} = tp.adaptive_max_pool3d_backward %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x1xi64>) -> tensor<1x2x4x4x4xf32>
func.func @adaptive_max_pool3d_backward(%g: tensor<1x2x1x1x1xf32>, %x: tensor<1x2x4x4x4xf32>, %i: tensor<1x2x1x1x1xi64>) {
  %r = tp.adaptive_max_pool3d_backward %g, %x, %i : (tensor<1x2x1x1x1xf32>, tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x1xi64>) -> tensor<1x2x4x4x4xf32>
  return
}

// CHECK-LABEL: func.func @slice(
// CHECK-NEXT: %{{.*}} = tp.slice %{{.*}} {dim = 1 : i64, end = -1 : i64, start = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: %{{.*}} = tp.slice %{{.*}} {step = 3 : i64} : (tensor<4x8xf32>) -> tensor<2x8xf32>
func.func @slice(%x: tensor<4x8xf32>) {
  %r = tp.slice %x {dim = 1 : i64, end = -1 : i64, start = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x5xf32>
  %s = tp.slice %x {step = 3 : i64} : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @slice_backward(
// CHECK-NEXT: %{{.*}} = tp.slice_backward %{{.*}} {dim = 1 : i64, end = -1 : i64, input_sizes = array<i64: 4, 8>, start = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x8xf32>
func.func @slice_backward(%g: tensor<4x5xf32>) {
  %r = tp.slice_backward %g {dim = 1 : i64, end = -1 : i64, input_sizes = array<i64: 4, 8>, start = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x8xf32>
  return
}

// The function attributes the dialect verifies, well formed.
// CHECK-LABEL: func.func @well_formed_function_attributes
// CHECK-SAME: tp.cast_arguments = array<i64: 0, 1>
// CHECK-SAME: tp.donate = array<i64: -1, 1>
// CHECK-SAME: tp.gradient_of = {function = @f, wrt = array<i64: 1>}
func.func @well_formed_function_attributes(%x: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.cast_arguments = array<i64: 0, 1>, tp.donate = array<i64: -1, 1>, tp.gradient_of = {function = @f, wrt = array<i64: 1>}} {
  return %x, %w : tensor<4xf32>, tensor<4xf32>
}

// The OCP 8-bit floats: tp.cast is the one op that takes them, `saturate`
// for the rounding into them.
// CHECK-LABEL: func.func @cast_float8(
// CHECK-NEXT: %[[Q:.*]] = tp.cast %{{.*}} {saturate} : tensor<4xf32> to tensor<4xf8E4M3FN>
// CHECK-NEXT: %{{.*}} = tp.cast %[[Q]] : tensor<4xf8E4M3FN> to tensor<4xf8E5M2>
// CHECK-NEXT: %{{.*}} = tp.cast %{{.*}} : tensor<4xf8E5M2> to tensor<4xbf16>
func.func @cast_float8(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %q = tp.cast %x {saturate} : tensor<4xf32> to tensor<4xf8E4M3FN>
  %r = tp.cast %q : tensor<4xf8E4M3FN> to tensor<4xf8E5M2>
  %b = tp.cast %r : tensor<4xf8E5M2> to tensor<4xbf16>
  return %b : tensor<4xbf16>
}
