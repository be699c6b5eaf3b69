// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file | FileCheck %s

// The geometry travels as i64 constants: r, transposed, groups, stride,
// padding low, padding high, dilation.
// CHECK-LABEL: func.func @conv2d_groups
// CHECK: %[[P:.*]] = arith.constant dense<[2, 0, 2, 1, 1, 1, 1, 1, 1, 1, 1]> : tensor<11xi64>
// CHECK: %[[D:.*]] = tensor.empty() : tensor<1x6x8x8xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_conv_f32_f32({{.*}}, %[[P]]) outs(%[[D]])
// CHECK-SAME: output_positions = array<i64: 3>
func.func @conv2d_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32> {
  %r = tp.conv2d %x, %w {padding = array<i64: 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32>
  return %r : tensor<1x6x8x8xf32>
}

// -----

// Transposed: the high padding subtracts the output padding.
// CHECK-LABEL: func.func @conv_transpose1d
// CHECK: arith.constant dense<[1, 1, 1, 2, 1, 0, 1]> : tensor<7xi64>
// CHECK: tp_rt.call @tp_rt_dnnl_conv_bf16_bf16
func.func @conv_transpose1d(%x: tensor<2x4x7xbf16>, %w: tensor<4x3x3xbf16>, %b: tensor<3xbf16>) -> tensor<2x3x14xbf16> {
  %r = tp.conv_transpose1d %x, %w bias(%b) {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 1>} : (tensor<2x4x7xbf16>, tensor<4x3x3xbf16>, tensor<3xbf16>) -> tensor<2x3x14xbf16>
  return %r : tensor<2x3x14xbf16>
}

// -----

// Output padding larger than the padding: oneDNN cannot express it, the
// op stays for the linalg lowering.
// CHECK-LABEL: func.func @conv_transpose_outpad
// CHECK: tp.conv_transpose2d
func.func @conv_transpose_outpad(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x11x11xf32> {
  %r = tp.conv_transpose2d %x, %w {stride = array<i64: 3>, output_padding = array<i64: 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x11x11xf32>
  return %r : tensor<1x2x11x11xf32>
}

// -----

// convolution_backward: the input gradient is the transposed convolution
// of the gradient (a tp_rt_dnnl_conv call with transposed = 1 and the
// output padding, 1 on the height, subtracted from the high padding); the
// weight and bias gradients come from one backward-weights call.
// CHECK-LABEL: func.func @conv_backward
// CHECK-DAG: %[[PW:.*]] = arith.constant dense<[2, 0, 1, 2, 2, 1, 1, 1, 1, 1, 1]> : tensor<11xi64>
// CHECK-DAG: %[[PX:.*]] = arith.constant dense<[2, 1, 1, 2, 2, 1, 1, 1, 0, 1, 1]> : tensor<11xi64>
// CHECK: %[[DX:.*]] = tp_rt.call @tp_rt_dnnl_conv_f32_f32(%arg0, %arg2, %{{.*}}, %[[PX]])
// CHECK: %[[DW:.*]]:2 = tp_rt.call @tp_rt_dnnl_conv_backward_weights_f32(%arg0, %arg1, %[[PW]]) outs(%{{.*}}, %{{.*}}) {output_positions = array<i64: 2, 3>}
// CHECK: return %[[DX]], %[[DW]]#0, %[[DW]]#1
func.func @conv_backward(%g: tensor<2x4x4x3xf32>, %x: tensor<2x3x7x6xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xf32>, tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>) -> (tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>)
  return %gi, %gw, %gb : tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>
}

// -----

// Only the bias gradient is used: a tp.sum (for the linalg lowering), no
// call; the unused gradients are not computed.
// CHECK-LABEL: func.func @conv_backward_bias_only
// CHECK-NOT: tp_rt.call
// CHECK: %[[S:.*]] = tp.sum %arg0 {dim = array<i64: 0, 2, 3>} : (tensor<2x4x4x3xbf16>) -> tensor<4xbf16>
// CHECK-NEXT: return %[[S]]
func.func @conv_backward_bias_only(%g: tensor<2x4x4x3xbf16>, %x: tensor<2x3x7x6xbf16>, %w: tensor<4x3x3x3xbf16>) -> tensor<4xbf16> {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xbf16>, tensor<2x3x7x6xbf16>, tensor<4x3x3x3xbf16>) -> (tensor<2x3x7x6xbf16>, tensor<4x3x3x3xbf16>, tensor<4xbf16>)
  return %gb : tensor<4xbf16>
}

// -----

// The weight gradient of a transposed convolution whose output padding
// exceeds its padding: oneDNN cannot express it, the op stays whole; and
// f16, which the oneDNN calls do not take.
// CHECK-LABEL: func.func @conv_backward_stays
// CHECK-NOT: tp_rt.call
// CHECK: tp.convolution_backward
// CHECK: tp.convolution_backward
func.func @conv_backward_stays(%g: tensor<1x2x11x11xf32>, %x: tensor<1x2x3x3xf32>, %w: tensor<2x2x3x3xf32>, %g16: tensor<2x4x4x3xf16>, %x16: tensor<2x3x7x6xf16>, %w16: tensor<4x3x3x3xf16>) -> (tensor<2x2x3x3xf32>, tensor<4x3x3x3xf16>) {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 2, 2>, padding = array<i64: 0, 0>, stride = array<i64: 3, 3>, transposed = true} : (tensor<1x2x11x11xf32>, tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>)
  %hi, %hw, %hb = tp.convolution_backward %g16, %x16, %w16 {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xf16>, tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>) -> (tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>)
  return %gw, %hw : tensor<2x2x3x3xf32>, tensor<4x3x3x3xf16>
}
