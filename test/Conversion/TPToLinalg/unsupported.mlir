// An op without a CPU lowering is an error at its location naming the op.
// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file -verify-diagnostics

func.func @fft(%x: tensor<8xf32>) -> tensor<5xcomplex<f32>> {
  // expected-error @+1 {{'tp.fft_rfft' op has no CPU lowering}}
  %r = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  return %r : tensor<5xcomplex<f32>>
}

// -----

func.func @two_ops(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'tp.inverse' op has no CPU lowering}}
  %a = tp.inverse %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = tp.relu %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{'tp.linalg_inv' op has no CPU lowering}}
  %c = tp.linalg_inv %b : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a, %c : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

func.func @complex_asin(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'tp.asin' op has no CPU lowering for complex tensors}}
  %r = tp.asin %x : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}

// -----

// A rounded quotient of complex numbers does not exist.
func.func @complex_rounded_div(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'tp.div' op has no CPU lowering for complex tensors}}
  %r = tp.div %x, %x {rounding_mode = "floor"} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}


// -----

// The new everyday ops and the pools refuse what they do not lower.
func.func @int_leaky_relu(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tp.leaky_relu' op has no CPU lowering for integer tensors}}
  %r = tp.leaky_relu %x : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @int_hardswish(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'tp.hardswish' op has no CPU lowering for integer tensors}}
  %r = tp.hardswish %x : (tensor<4xi64>) -> tensor<4xi64>
  return %r : tensor<4xi64>
}

// -----

func.func @int_avg_pool(%x: tensor<1x1x4x4xi64>) -> tensor<1x1x2x2xi64> {
  // expected-error @+1 {{'tp.avg_pool2d' op has no CPU lowering for integer tensors (cast the input to a floating type first)}}
  %r = tp.avg_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x1x4x4xi64>) -> tensor<1x1x2x2xi64>
  return %r : tensor<1x1x2x2xi64>
}

// -----

func.func @bool_max_pool(%x: tensor<1x1x4x4xi1>) -> tensor<1x1x2x2xi1> {
  // expected-error @+1 {{'tp.max_pool2d' op has no CPU lowering for 'i1' tensors}}
  %r = tp.max_pool2d %x {kernel_size = array<i64: 2>} : (tensor<1x1x4x4xi1>) -> tensor<1x1x2x2xi1>
  return %r : tensor<1x1x2x2xi1>
}

// -----

func.func @complex_adaptive(%x: tensor<1x1x4x4xcomplex<f32>>) -> tensor<1x1x1x1xcomplex<f32>> {
  // expected-error @+1 {{'tp.adaptive_avg_pool2d' op has no CPU lowering for 'complex<f32>' tensors}}
  %r = tp.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x1x4x4xcomplex<f32>>) -> tensor<1x1x1x1xcomplex<f32>>
  return %r : tensor<1x1x1x1xcomplex<f32>>
}

// -----

func.func @int_pool_backward(%g: tensor<1x1x2x2xi64>, %x: tensor<1x1x4x4xi64>) -> tensor<1x1x4x4xi64> {
  // expected-error @+1 {{'tp.avg_pool2d_backward' op needs a floating grad_output, got 'i64'}}
  %r = tp.avg_pool2d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x1x2x2xi64>, tensor<1x1x4x4xi64>) -> tensor<1x1x4x4xi64>
  return %r : tensor<1x1x4x4xi64>
}

// -----

func.func @complex_masked_fill(%x: tensor<4xcomplex<f32>>, %m: tensor<4xi1>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'tp.masked_fill' op has no CPU lowering for complex tensors}}
  %r = tp.masked_fill %x, %m {value = 1.0 : f64} : (tensor<4xcomplex<f32>>, tensor<4xi1>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_lt(%x: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{'tp.lt' op has no CPU lowering for complex tensors}}
  %r = tp.lt %x, %x : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @bool_scatter_add(%x: tensor<4xi1>, %i: tensor<2xi64>, %s: tensor<2xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'tp.scatter_add' op has no CPU lowering for i1 tensors}}
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

func.func @int_float_scatter_add(%x: tensor<4xi32>, %i: tensor<2xi64>, %s: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tp.scatter_add' op needs operands of one element type, got 'i32' and 'f32' (cast them to one first)}}
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<4xi32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @empty_gather(%x: tensor<0x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tp.gather' op cannot gather from an empty dimension}}
  %r = tp.gather %x, %i {dim = 0 : i64} : (tensor<0x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @empty_index_copy(%x: tensor<0x3xf32>, %i: tensor<2xi64>, %s: tensor<2x3xf32>) -> tensor<0x3xf32> {
  // expected-error @+1 {{'tp.index_copy' op cannot copy into an empty dimension}}
  %r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<0x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<0x3xf32>
  return %r : tensor<0x3xf32>
}
