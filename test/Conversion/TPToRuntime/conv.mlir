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
