// Every verifier message of the tp dialect (invalid-coverage.mlir checks
// that none is missing, with check-message-coverage.py).
// RUN: tp-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Common to every compute op: in-place and out= forms, result dtypes
//===----------------------------------------------------------------------===//

// The operand rule holds for the out= form too.
func.func @mm_out_mixed(%a: tensor<6x8xbf16>, %b: tensor<8x11xf32>, %o: tensor<6x11xf32>) {
  // expected-error @+1 {{expected all floating operands to have the same dtype, got 'bf16' and 'f32'}}
  %r = tp.mm %a, %b out(%o) : (tensor<6x8xbf16>, tensor<8x11xf32>, tensor<6x11xf32>) -> tensor<6x11xf32>
  return
}

// -----

func.func @inplace_and_out(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error @+1 {{cannot be both in-place and have out= operands}}
  %r = tp.exp %a out(%o) {inplace} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @out_count(%x: tensor<3x4xf32>, %vo: tensor<3xf32>) {
  // expected-error @+1 {{expected 2 out= operand(s), one per result, got 1}}
  %v, %i = tp.max_dim %x out(%vo) {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi64>)
  return
}

// -----

// aten has no lstm_cell.out (tools/scripts/out-forms.py, NoOutForm.def).
func.func @out_without_overload(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>, %wi: tensor<16x8xf32>, %wh: tensor<16x4xf32>, %ho: tensor<2x4xf32>, %co: tensor<2x4xf32>) {
  // expected-error @+1 {{'tp.lstm_cell' op has no out= form: tensorplay's operator (aten::lstm_cell) has no out= overload}}
  %h, %c = tp.lstm_cell %x, %h0, %c0, %wi, %wh out(%ho, %co) : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @out_of_a_view(%x: tensor<2x3xf32>, %o: tensor<3x2xf32>) {
  // expected-error @+1 {{'tp.transpose' op has no out= form: tensorplay's operator (aten::transpose) has no out= overload}}
  %t = tp.transpose %x out(%o) {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @out_type(%a: tensor<4xf32>, %o: tensor<4xf16>) {
  // expected-error @+1 {{out= operand #0 has type 'tensor<4xf16>' but result #0 has type 'tensor<4xf32>'}}
  %r = tp.exp %a out(%o) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @inplace_multi_result(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>, %wi: tensor<16x8xf32>, %wh: tensor<16x4xf32>) {
  // expected-error @+1 {{in-place form needs exactly one result}}
  %h, %c = tp.lstm_cell %x, %h0, %c0, %wi, %wh {inplace} : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @inplace_type(%c: tensor<16xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{in-place form must have the type of its first operand (the tensor it updates), got 'tensor<4x16xf32>'}}
  %r = tp.addmm %c, %a, %b {inplace} : (tensor<16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @result_dtype(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) {
  // expected-error @+1 {{result #0 has element type 'f32' but the operands imply 'f16'}}
  %r = tp.mm %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @explicit_dtype_result(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{result #0 has element type 'f16' but the explicit dtype imply 'f32'}}
  %r = tp.softmax %x {dim = 1 : i64, dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @bad_dtype_attr(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{dtype must be a tensorplay element type, got 'index'}}
  %r = tp.sum %x {dtype = index} : (tensor<4x8xf16>) -> tensor<f16>
  return
}

// -----

func.func @promotion(%a: tensor<4x8xf16>, %b: tensor<8xbf16>) {
  // expected-error @+1 {{result #0 has element type 'bf16' but the operands imply 'f32'}}
  %r = tp.add %a, %b : (tensor<4x8xf16>, tensor<8xbf16>) -> tensor<4x8xbf16>
  return
}

// -----

func.func @zero_dim_promotion(%a: tensor<4xf16>, %b: tensor<f32>) {
  // A 0-d f32 operand does not promote an f16 tensor.
  // expected-error @+1 {{result #0 has element type 'f32' but the operands imply 'f16'}}
  %r = tp.mul %a, %b : (tensor<4xf16>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @unary_int_to_float(%a: tensor<4xi64>) {
  // expected-error @+1 {{result #0 has element type 'i64' but the operands imply 'f32'}}
  %r = tp.exp %a : (tensor<4xi64>) -> tensor<4xi64>
  return
}

// -----

func.func @accumulate_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{result #0 has element type 'i32' but the operands imply 'i64'}}
  %r = tp.sum %a : (tensor<4xi32>) -> tensor<i32>
  return
}

// -----

func.func @bad_element_type(%a: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %r = tp.exp %a : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  return
}

// -----

func.func @result_shape(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 has shape 4x9 but the operands imply 4x8}}
  %r = tp.exp %a : (tensor<4x8xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @dim_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{dim 2 is out of range for a tensor of rank 2}}
  %r = tp.softmax %a {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// tp.cast, tp.constant, tp.autocast
//===----------------------------------------------------------------------===//

// -----

func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %r = tp.cast %a : tensor<4xf32> to tensor<5xf16>
  return
}

// -----

func.func @autocast_device() {
  // expected-error @+1 {{unknown device type 'tpu': expected one of cuda, xpu, cpu}}
  tp.autocast "tpu" {
  }
  return
}

// -----

func.func @autocast_dtype() {
  // expected-error @+1 {{autocast dtype must be f16 or bf16, got 'f32'}}
  tp.autocast "cuda" dtype(f32) {
  }
  return
}

// -----

func.func @autocast_yield(%a: tensor<4xf32>) {
  // expected-error @+1 {{region yields 1 value(s) whose types do not match the 0 result type(s) of the op}}
  tp.autocast "cuda" {
    tp.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_parent(%a: tensor<4xf32>) {
  // expected-error @+1 {{expects parent op to be one of 'tp.autocast, tp.custom_function'}}
  tp.yield %a : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast(%a: tensor<4x8xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operand shapes are not broadcastable: 4x8, 3}}
  %r = tp.add %a, %b : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dropout_p(%a: tensor<4xf32>) {
  // expected-error @+1 {{dropout probability has to be between 0 and 1, but got 1.5}}
  %r = tp.dropout %a {p = 1.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pow_exponent(%a: tensor<4xf32>) {
  // expected-error @+1 {{expects exactly one exponent: a tensor operand or the scalar_exponent attribute}}
  %r = tp.pow %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_condition(%c: tensor<4xf32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{condition must be a tensor of i1, got 'tensor<4xf32>'}}
  %r = tp.where %c, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_no_bound(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects at least one of min and max}}
  %r = tp.clamp %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_int_fractional(%x: tensor<4xi64>) {
  // expected-error @+1 {{bound 5.000000e-01 is not integral for an input of 'i64' (tensorplay would promote the result to float: cast the input first)}}
  %r = tp.clamp %x {min = 0.5 : f64} : (tensor<4xi64>) -> tensor<4xi64>
  return
}

// -----

func.func @comparison_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has element type 'f32' but the operands imply 'i1'}}
  %r = tp.lt %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @masked_fill_mask_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{mask must be a tensor of i1, got 'tensor<4xf32>'}}
  %r = tp.masked_fill %x, %x {value = 1.0 : f64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @masked_fill_mask_shape(%x: tensor<4xf32>, %m: tensor<2x4xi1>) {
  // expected-error @+1 {{mask 'tensor<2x4xi1>' does not broadcast to the input 'tensor<4xf32>'}}
  %r = tp.masked_fill %x, %m {value = 1.0 : f64} : (tensor<4xf32>, tensor<2x4xi1>) -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

// -----

func.func @mm_rank(%a: tensor<4xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+1 {{expected a 2-D first matrix of rank 2, got rank 1}}
  %r = tp.mm %a, %b : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @mm_contract(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+1 {{contracting dimensions of the operands differ (8 vs 7)}}
  %r = tp.mm %a, %b : (tensor<4x8xf32>, tensor<7x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @bmm_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) {
  // expected-error @+1 {{batch sizes differ (2 vs 3)}}
  %r = tp.bmm %a, %b : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>) {
  // expected-error @+1 {{batch dimensions 2 and 3 are not broadcastable}}
  %r = tp.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @matmul_shape(%a: tensor<8xf32>, %b: tensor<3x8x16xf32>) {
  // expected-error @+1 {{result #0 has shape 3x1x16 but the operands imply 3x16}}
  %r = tp.matmul %a, %b : (tensor<8xf32>, tensor<3x8x16xf32>) -> tensor<3x1x16xf32>
  return
}

// -----

func.func @addmm_self(%c: tensor<5xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{self of shape 5 does not broadcast to the product shape 4x16}}
  %r = tp.addmm %c, %a, %b : (tensor<5xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @multi_dot_count(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{expected at least 2 tensors}}
  %r = tp.multi_dot [%a] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @chain_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{expected chain operand 1 to be a matrix of rank 2, got rank 1}}
  %r = tp.chain_matmul [%a, %b] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @chain_line_up(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) {
  // expected-error @+1 {{chained matrices do not line up (8 vs 7)}}
  %r = tp.chain_matmul [%a, %b] : (tensor<4x8xf32>, tensor<7x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @linear_features(%x: tensor<4x8xf32>, %w: tensor<16x7xf32>) {
  // expected-error @+1 {{input features and weight columns differ (8 vs 7)}}
  %r = tp.linear %x, %w : (tensor<4x8xf32>, tensor<16x7xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @linear_bias(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<15xf32>) {
  // expected-error @+1 {{bias of shape 15 does not broadcast to 4x16}}
  %r = tp.linear %x, %w bias(%b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<15xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @bilinear_weight(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x6xf32>) {
  // expected-error @+1 {{input2 features and weight dim 2 differ (5 vs 6)}}
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x6xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_batch(%x: tensor<4x3xf32>, %y: tensor<5x5xf32>, %w: tensor<7x3x5xf32>) {
  // expected-error @+1 {{input1 and input2 batch shapes differ: 4 vs 5}}
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<5x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_bias(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{bias size and output features differ (6 vs 7)}}
  %r = tp.bilinear %x, %y, %w bias(%b) : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>, tensor<6xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @tensordot_lengths(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) {
  // expected-error @+1 {{dims_self and dims_other must have the same length, got 2 and 1}}
  %r = tp.tensordot %a, %b {dims_other = array<i64: 0>, dims_self = array<i64: 0, 1>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @tensordot_distinct(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) {
  // expected-error @+1 {{contracted dimensions must be distinct}}
  %r = tp.tensordot %a, %b {dims_other = array<i64: 0, 1>, dims_self = array<i64: 1, 1>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @tensordot_sizes(%a: tensor<4x8xf32>, %b: tensor<7x3xf32>) {
  // expected-error @+1 {{contracted dimensions differ in size (8 vs 7)}}
  %r = tp.tensordot %a, %b {dims_other = array<i64: 0>, dims_self = array<i64: 1>} : (tensor<4x8xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @tensordot_dim(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) {
  // expected-error @+1 {{dims_self entry 2 is out of range for a tensor of rank 2}}
  %r = tp.tensordot %a, %b {dims_other = array<i64: 0>, dims_self = array<i64: 2>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @vecdot_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{x and y are not broadcastable}}
  %r = tp.linalg_vecdot %a, %b : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @vecdot_rank(%a: tensor<f32>, %b: tensor<f32>) {
  // expected-error @+1 {{expected operands of rank >= 1}}
  %r = tp.linalg_vecdot %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @prelu_weights(%x: tensor<2x3x8xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{number of weights must be 1 or the number of input channels (4 vs 3)}}
  %r = tp.prelu %x, %w : (tensor<2x3x8xf32>, tensor<4xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @cross_broadcast(%a: tensor<4x3xf32>, %b: tensor<5x3xf32>) {
  // expected-error @+1 {{input and other are not broadcastable}}
  %r = tp.cross %a, %b : (tensor<4x3xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @cross_size(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{expected a dimension of size 3 to take the cross product along}}
  %r = tp.cross %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @cross_operand_size(%a: tensor<4x3xf32>, %b: tensor<4x1xf32>) {
  // expected-error @+1 {{expected both operands to have size 3 along dim 1, got 'tensor<4x1xf32>'}}
  %r = tp.cross %a, %b {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @chain_empty() {
  // expected-error @+1 {{expected at least 1 tensor}}
  %r = tp.chain_matmul [] : () -> tensor<2x2xf32>
  return
}

// -----

func.func @mm_second_rank(%a: tensor<4x8xf32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{expected a 2-D second matrix of rank 2, got rank 1}}
  %r = tp.mm %a, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bmm_first_rank(%a: tensor<4x8xf32>, %b: tensor<2x8x16xf32>) {
  // expected-error @+1 {{expected a 3-D first batch of rank 3, got rank 2}}
  %r = tp.bmm %a, %b : (tensor<4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @bmm_second_rank(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{expected a 3-D second batch of rank 3, got rank 2}}
  %r = tp.bmm %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  return
}

// -----

func.func @mv_matrix_rank(%v: tensor<8xf32>) {
  // expected-error @+1 {{expected a 2-D matrix of rank 2, got rank 1}}
  %r = tp.mv %v, %v : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @mv_vector_rank(%a: tensor<4x8xf32>, %b: tensor<8x1xf32>) {
  // expected-error @+1 {{expected a 1-D vector of rank 1, got rank 2}}
  %r = tp.mv %a, %b : (tensor<4x8xf32>, tensor<8x1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dot_first_rank(%a: tensor<2x8xf32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{expected a 1-D first vector of rank 1, got rank 2}}
  %r = tp.dot %a, %v : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<f32>
  return
}

// -----

func.func @dot_second_rank(%v: tensor<8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+1 {{expected a 1-D second vector of rank 1, got rank 2}}
  %r = tp.dot %v, %b : (tensor<8xf32>, tensor<8x2xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_first_rank(%s: tensor<f32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{expected a first operand of rank 1 or more, got rank 0}}
  %r = tp.matmul %s, %v : (tensor<f32>, tensor<8xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_second_rank(%v: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expected a second operand of rank 1 or more, got rank 0}}
  %r = tp.matmul %v, %s : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @linear_input_rank(%x: tensor<f32>, %w: tensor<4x8xf32>) {
  // expected-error @+1 {{expected an input of rank 1 or more, got rank 0}}
  %r = tp.linear %x, %w : (tensor<f32>, tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @linear_weight_rank(%x: tensor<4x8xf32>, %w: tensor<2x16x8xf32>) {
  // expected-error @+1 {{expected a weight of rank 1 to 2, got rank 3}}
  %r = tp.linear %x, %w : (tensor<4x8xf32>, tensor<2x16x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @bilinear_input1_rank(%x: tensor<f32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>) {
  // expected-error @+1 {{expected input1 of rank 1 or more, got rank 0}}
  %r = tp.bilinear %x, %y, %w : (tensor<f32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_input2_rank(%x: tensor<4x3xf32>, %y: tensor<f32>, %w: tensor<7x3x5xf32>) {
  // expected-error @+1 {{expected input2 of rank 1 or more, got rank 0}}
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<f32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_weight_rank(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3xf32>) {
  // expected-error @+1 {{expected a 3-D weight of rank 3, got rank 2}}
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_input1_features(%x: tensor<4x2xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>) {
  // expected-error @+1 {{input1 features and weight dim 1 differ (2 vs 3)}}
  %r = tp.bilinear %x, %y, %w : (tensor<4x2xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @bilinear_bias_rank(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>, %b: tensor<1x7xf32>) {
  // expected-error @+1 {{expected a 1-D bias of rank 1, got rank 2}}
  %r = tp.bilinear %x, %y, %w bias(%b) : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>, tensor<1x7xf32>) -> tensor<4x7xf32>
  return
}

// -----

func.func @tensordot_dims_other(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) {
  // expected-error @+1 {{dims_other entry 2 is out of range for a tensor of rank 2}}
  %r = tp.tensordot %a, %b {dims_other = array<i64: 2>, dims_self = array<i64: 1>} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @vecdot_dim(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{dim 2 is out of range for a tensor of rank 2}}
  %r = tp.linalg_vecdot %a, %a {dim = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

// -----

func.func @conv_rank(%x: tensor<2x3xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected an input of rank 3 to 4, got rank 2}}
  %r = tp.conv2d %x, %w : (tensor<2x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_spatial(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{expected 1 to 3 spatial dimensions, got 0}}
  %r = tp.convolution %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{groups must be positive, got 0}}
  %r = tp.conv2d %x, %w {groups = 0 : i64} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_param_count(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{stride must have 1 or 2 values, got 3}}
  %r = tp.conv2d %x, %w {stride = array<i64: 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_param_value(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{padding values must be >= 0, got -1}}
  %r = tp.conv2d %x, %w {padding = array<i64: -1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<2x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{input channels must equal weight dim 1 times groups (3 vs 2)}}
  %r = tp.conv2d %x, %w : (tensor<2x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_out_groups(%x: tensor<2x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{output channels (3) must be divisible by groups (2)}}
  %r = tp.conv2d %x, %w {groups = 2 : i64} : (tensor<2x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<2x3x6x6xf32>
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x4x4x4xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{input channels must equal weight dim 0 (4 vs 3)}}
  %r = tp.conv_transpose2d %x, %w : (tensor<1x4x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return
}

// -----

func.func @conv_output_padding(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{output_padding must be smaller than stride or dilation}}
  %r = tp.conv_transpose2d %x, %w {output_padding = array<i64: 1>} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{bias size must equal output channels (5 vs 4)}}
  %r = tp.conv2d %x, %w bias(%b) : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_too_small(%x: tensor<2x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{computed output size 0 of spatial dimension 0 is not positive (input too small for the kernel)}}
  %r = tp.conv2d %x, %w : (tensor<2x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x1x1xf32>
  return
}

// -----

func.func @conv_shape(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{result #0 has shape 2x4x8x8 but the operands imply 2x4x4x4}}
  %r = tp.conv2d %x, %w {stride = array<i64: 2>, padding = array<i64: 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  return
}

// -----

func.func @conv_tbc_channels(%x: tensor<10x2x3xf32>, %w: tensor<3x4x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{input channels must equal weight dim 1 (3 vs 4)}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x4x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @conv_tbc_bias(%x: tensor<10x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{bias size must equal weight dim 2 (5 vs 4)}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<5xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{expected a weight of rank 4, got rank 3}}
  %r = tp.conv2d %x, %w : (tensor<2x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @convolution_backward_unbatched(%g: tensor<4x12xf32>, %x: tensor<3x16xf32>, %w: tensor<4x3x5xf32>) {
  // expected-error @+1 {{expected a batched input of rank 3, got rank 2}}
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<4x12xf32>, tensor<3x16xf32>, tensor<4x3x5xf32>) -> (tensor<3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)
  return
}

// -----

func.func @convolution_backward_grad_rank(%g: tensor<4x12xf32>, %x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>) {
  // expected-error @+1 {{expected a grad_output of the forward's rank of rank 3, got rank 2}}
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<4x12xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)
  return
}

// -----

func.func @convolution_backward_grad_shape(%g: tensor<2x4x13xf32>, %x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>) {
  // expected-error @+1 {{grad_output dim 2 must equal the forward output's (13 vs 12)}}
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x4x13xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<4xf32>)
  return
}

// -----

func.func @convolution_backward_result(%g: tensor<2x4x12xf32>, %x: tensor<2x3x16xf32>, %w: tensor<4x3x5xf32>) {
  // expected-error @+1 {{result #2 has shape 3 but the operands imply 4}}
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>, transposed = false} : (tensor<2x4x12xf32>, tensor<2x3x16xf32>, tensor<4x3x5xf32>) -> (tensor<2x3x16xf32>, tensor<4x3x5xf32>, tensor<3xf32>)
  return
}

// -----

func.func @embedding_dense_backward_rank(%g: tensor<4x7xf32>, %i: tensor<4x7xi64>) {
  // expected-error @+1 {{expected a grad_output of the indices' rank + 1 of rank 3, got rank 2}}
  %r = tp.embedding_dense_backward %g, %i {num_weights = 10 : i64} : (tensor<4x7xf32>, tensor<4x7xi64>) -> tensor<10x7xf32>
  return
}

// -----

func.func @embedding_dense_backward_dim(%g: tensor<4x6x16xf32>, %i: tensor<4x7xi64>) {
  // expected-error @+1 {{grad_output dim 1 must equal the indices' (6 vs 7)}}
  %r = tp.embedding_dense_backward %g, %i {num_weights = 10 : i64} : (tensor<4x6x16xf32>, tensor<4x7xi64>) -> tensor<10x16xf32>
  return
}

// -----

func.func @embedding_dense_backward_rows(%g: tensor<4x7x16xf32>, %i: tensor<4x7xi64>) {
  // expected-error @+1 {{num_weights must be positive, got 0}}
  %r = tp.embedding_dense_backward %g, %i {num_weights = 0 : i64} : (tensor<4x7x16xf32>, tensor<4x7xi64>) -> tensor<0x16xf32>
  return
}

// -----

func.func @embedding_dense_backward_padding(%g: tensor<4x7x16xf32>, %i: tensor<4x7xi64>) {
  // expected-error @+1 {{padding_idx must be -1 (none) or in [0, 10), got 10}}
  %r = tp.embedding_dense_backward %g, %i {num_weights = 10 : i64, padding_idx = 10 : i64} : (tensor<4x7x16xf32>, tensor<4x7xi64>) -> tensor<10x16xf32>
  return
}

// -----

func.func @conv_bias_rank(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{expected a 1-D bias of rank 1, got rank 2}}
  %r = tp.conv2d %x, %w bias(%b) : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_padding_overflow(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{stride, padding or dilation too large: the output size of spatial dimension 0 overflows int64}}
  %r = tp.conv2d %x, %w {padding = array<i64: 4611686018427387904>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv_padding_stride_overflow(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{stride, padding or dilation too large: the output size of spatial dimension 0 overflows int64}}
  %r = tp.conv2d %x, %w {padding = array<i64: 9223372036854775807>, stride = array<i64: 9223372036854775807>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x1x1xf32>
  return
}

// -----

func.func @conv_transpose_overflow(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{stride, padding or dilation too large: the output size of spatial dimension 0 overflows int64}}
  %r = tp.conv_transpose2d %x, %w {stride = array<i64: 4611686018427387904>} : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x9x9xf32>
  return
}

// -----

func.func @conv_tbc_input_rank(%x: tensor<2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expected a (time, batch, channel) input of rank 3, got rank 2}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @conv_tbc_weight_rank(%x: tensor<10x2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{expected a 3-D weight of rank 3, got rank 2}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @conv_tbc_bias_rank(%x: tensor<10x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{expected a 1-D bias of rank 1, got rank 2}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<1x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @conv_tbc_pad_overflow(%x: tensor<10x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{pad too large: the output length overflows int64}}
  %r = tp.conv_tbc %x, %w, %b {pad = 4611686018427387904 : i64} : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Recurrent cells and attention
//===----------------------------------------------------------------------===//

// -----

func.func @cell_state_rank(%x: tensor<2x8xf32>, %h0: tensor<4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) {
  // expected-error @+1 {{hidden state must be 2-D for a 2-D input, got rank 1}}
  %h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cell_states(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x5xf32>, %wi: tensor<16x8xf32>, %wh: tensor<16x4xf32>) {
  // expected-error @+1 {{hidden and cell states must have one type}}
  %h, %c = tp.lstm_cell %x, %h0, %c0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x5xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @cell_batch(%x: tensor<3x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) {
  // expected-error @+1 {{input and hidden batch sizes differ (3 vs 2)}}
  %h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<3x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_gates(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<8x8xf32>, %wh: tensor<12x4xf32>) {
  // expected-error @+1 {{w_ih must have 3 x hidden_size rows (8 vs 12)}}
  %h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<8x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_input_features(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x7xf32>, %wh: tensor<4x4xf32>) {
  // expected-error @+1 {{w_ih columns must equal input features (7 vs 8)}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x7xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_hh_rows(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<5x4xf32>) {
  // expected-error @+1 {{w_hh must have 1 x hidden_size rows (5 vs 4)}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<5x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_hh_cols(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x5xf32>) {
  // expected-error @+1 {{w_hh columns must equal hidden_size (5 vs 4)}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x5xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_bias(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{bias size must equal gates x hidden_size (3 vs 4)}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh b_hh(%b) : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @mkldnn_hidden(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{hidden_size must be positive, got 0}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 0 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0xui8>)
  return
}

// -----

func.func @mkldnn_hx(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{hx last dimension must equal hidden_size (4 vs 5)}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 5 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x5xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0xui8>)
  return
}

// -----

func.func @sdpa_embed(%q: tensor<2x16x64xf32>, %k: tensor<2x16x32xf32>, %v: tensor<2x16x64xf32>) {
  // expected-error @+1 {{query and key embedding sizes differ (64 vs 32)}}
  %r = tp.scaled_dot_product_attention %q, %k, %v : (tensor<2x16x64xf32>, tensor<2x16x32xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @sdpa_seq(%q: tensor<2x16x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x12x64xf32>) {
  // expected-error @+1 {{key and value sequence lengths differ (16 vs 12)}}
  %r = tp.scaled_dot_product_attention %q, %k, %v : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x12x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @sdpa_dropout(%q: tensor<2x16x64xf32>) {
  // expected-error @+1 {{dropout_p must be in [0, 1), got 1}}
  %r = tp.scaled_dot_product_attention %q, %q, %q {dropout_p = 1.0 : f64} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @sdpa_mask_causal(%q: tensor<2x16x64xf32>, %m: tensor<16x16xi1>) {
  // expected-error @+1 {{an explicit attn_mask cannot be combined with is_causal}}
  %r = tp.scaled_dot_product_attention %q, %q, %q mask(%m) {is_causal = true} : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<16x16xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @sdpa_mask(%q: tensor<2x16x64xf32>, %m: tensor<16x8xi1>) {
  // expected-error @+1 {{attn_mask of shape 16x8 does not broadcast to 2x16x16}}
  %r = tp.scaled_dot_product_attention %q, %q, %q mask(%m) : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<16x8xi1>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @mha_heads(%q: tensor<2x5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{embed_dim (16) must be a positive multiple of num_head (3)}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 3 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_qkv(%q: tensor<2x5x16xf32>, %qw: tensor<32x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{qkv_weight must have 3 x embed_dim rows (32 vs 48)}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<32x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_weights(%q: tensor<2x5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{result #1 has shape 2x5x5 but the operands imply 2x4x5x5}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {average_attn_weights = false, embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @cell_input_rank(%x: tensor<1x2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>) {
  // expected-error @+1 {{expected an input of rank 1 to 2, got rank 3}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<1x2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_state_rank_unbatched(%x: tensor<8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) {
  // expected-error @+1 {{hidden state must be 1-D for a 1-D input, got rank 2}}
  %h = tp.gru_cell %x, %h0, %wi, %wh : (tensor<8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_w_ih_rank(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8x1xf32>, %wh: tensor<4x4xf32>) {
  // expected-error @+1 {{expected a 2-D w_ih of rank 2, got rank 3}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8x1xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_w_hh_rank(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4xf32>) {
  // expected-error @+1 {{expected a 2-D w_hh of rank 2, got rank 1}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @cell_bias_rank(%x: tensor<2x8xf32>, %h0: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{expected a 1-D bias of rank 1, got rank 2}}
  %h = tp.rnn_cell %x, %h0, %wi, %wh b_ih(%b) : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @mkldnn_input_rank(%x: tensor<2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{expected a 3-D input of rank 3, got rank 2}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0xui8>)
  return
}

// -----

func.func @mkldnn_hx_rank(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<4xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{expected a 2-D hx of rank 2, got rank 1}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<0xui8>)
  return
}

// -----

func.func @mkldnn_cx_rank(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<4xf32>) {
  // expected-error @+1 {{expected a 2-D cx of rank 2, got rank 1}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<0xui8>)
  return
}

// -----

func.func @mkldnn_workspace_rank(%x: tensor<5x2x8xf32>, %w0: tensor<16x8xf32>, %w1: tensor<16x4xf32>, %w2: tensor<16xf32>, %w3: tensor<16xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{expected a 1-D workspace of rank 1, got rank 2}}
  %o, %h, %c, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %w2, %w3, %h0, %c0 {batch_first = false, batch_sizes = array<i64>, bidirectional = false, has_biases = true, hidden_size = 4 : i64, mode = 2 : i64, num_layers = 1 : i64, reverse = false, train = false} : (tensor<5x2x8xf32>, tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<0x1xui8>)
  return
}

// -----

func.func @sdpa_query_rank(%q: tensor<64xf32>, %k: tensor<2x16x64xf32>) {
  // expected-error @+1 {{expected a query of rank 2 or more, got rank 1}}
  %r = tp.scaled_dot_product_attention %q, %k, %k : (tensor<64xf32>, tensor<2x16x64xf32>, tensor<2x16x64xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @sdpa_key_rank(%q: tensor<2x16x64xf32>, %k: tensor<64xf32>) {
  // expected-error @+1 {{expected a key of rank 2 or more, got rank 1}}
  %r = tp.scaled_dot_product_attention %q, %k, %q : (tensor<2x16x64xf32>, tensor<64xf32>, tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @sdpa_value_rank(%q: tensor<2x16x64xf32>, %v: tensor<64xf32>) {
  // expected-error @+1 {{expected a value of rank 2 or more, got rank 1}}
  %r = tp.scaled_dot_product_attention %q, %q, %v : (tensor<2x16x64xf32>, tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  return
}

// -----

func.func @mha_query_rank(%q: tensor<5x16xf32>, %k: tensor<2x5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 3-D query of rank 3, got rank 2}}
  %o, %w = tp.native_multi_head_attention %q, %k, %k, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_key_rank(%q: tensor<2x5x16xf32>, %k: tensor<5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 3-D key of rank 3, got rank 2}}
  %o, %w = tp.native_multi_head_attention %q, %k, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_value_rank(%q: tensor<2x5x16xf32>, %v: tensor<5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 3-D value of rank 3, got rank 2}}
  %o, %w = tp.native_multi_head_attention %q, %q, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_qkv_weight_rank(%q: tensor<2x5x16xf32>, %qw: tensor<48xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 2-D qkv_weight of rank 2, got rank 1}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_proj_weight_rank(%q: tensor<2x5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 2-D proj_weight of rank 2, got rank 1}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_query_features(%q: tensor<2x5x8xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{query features must equal embed_dim (8 vs 16)}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x5xf32>)
  return
}

// -----

func.func @mha_proj_rows(%q: tensor<2x5x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<8x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{proj_weight must have embed_dim rows (8 vs 16)}}
  %o, %w = tp.native_multi_head_attention %q, %q, %q, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<8x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x5xf32>)
  return
}

//===----------------------------------------------------------------------===//
// Reductions and normalization
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_dims(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dim -1 appears more than once}}
  %r = tp.sum %x {dim = array<i64: 1, -1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// A maximum of nothing has no value (PyTorch raises); a sum is 0.
func.func @amax_of_nothing(%x: tensor<0x8xf32>) {
  // expected-error @+1 {{expected reduction dim 0 to have non-zero size}}
  %r = tp.amax %x {dim = array<i64: 0>} : (tensor<0x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @argmax_of_nothing(%x: tensor<4x0xf32>) {
  // expected-error @+1 {{expected reduction dim 1 to have non-zero size}}
  %r = tp.argmax %x {dim = -1 : i64} : (tensor<4x0xf32>) -> tensor<4xi64>
  return
}

// -----

func.func @max_of_nothing(%x: tensor<0x8xf32>) {
  // expected-error @+1 {{expected a non-empty input when reducing over every dimension}}
  %r = tp.max %x : (tensor<0x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @inf_norm_of_nothing(%x: tensor<3x0xf32>) {
  // expected-error @+1 {{expected a non-empty input when reducing over every dimension}}
  %r = tp.norm %x {p = 0x7FF0000000000000 : f64} : (tensor<3x0xf32>) -> tensor<f32>
  return
}

// -----

func.func @empty_reductions_with_values(%x: tensor<0x8xf32>) {
  %s = tp.sum %x {dim = array<i64: 0>} : (tensor<0x8xf32>) -> tensor<8xf32>
  %a = tp.amax %x {dim = array<i64: 1>} : (tensor<0x8xf32>) -> tensor<0xf32>
  %n = tp.norm %x {p = 2.0 : f64} : (tensor<0x8xf32>) -> tensor<f32>
  %v, %i = tp.max_dim %x {dim = 1 : i64} : (tensor<0x8xf32>) -> (tensor<0xf32>, tensor<0xi64>)
  return
}

// -----

func.func @reduce_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 has shape 4 but the operands imply 4x1}}
  %r = tp.mean %x {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @mean_int(%x: tensor<4x8xi64>) {
  // expected-error @+1 {{expected a floating or complex input (or a floating dtype=), got 'tensor<4x8xi64>'}}
  %r = tp.mean %x : (tensor<4x8xi64>) -> tensor<i64>
  return
}

// -----

func.func @renorm_params(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{renorm needs p > 0 and maxnorm >= 0}}
  %r = tp.renorm %x {dim = 0 : i64, maxnorm = -1.0 : f64, p = 2.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @renorm_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{renorm needs an input of at least 2 dimensions (as tensorplay's), got 'tensor<8xf32>'}}
  %r = tp.renorm %x {dim = 0 : i64, maxnorm = 1.0 : f64, p = 2.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @layer_norm_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{normalized_shape 7 must match the trailing dimensions of the input shape 4x8}}
  %r = tp.layer_norm %x {normalized_shape = array<i64: 7>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_weight(%x: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{weight must have shape 8, got 4}}
  %r = tp.layer_norm %x weight(%g) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<2x6x8xf32>) {
  // expected-error @+1 {{expected the number of channels (6) to be divisible by num_groups (4)}}
  %r = tp.group_norm %x {num_groups = 4 : i64} : (tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  return
}

// -----

func.func @batch_norm_stats(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{running_mean and running_var are required when not training}}
  %r = tp.batch_norm %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @dist_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{operands are not broadcastable}}
  %r = tp.dist %a, %b : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @cdist_p(%a: tensor<5x3xf32>, %b: tensor<7x3xf32>) {
  // expected-error @+1 {{p must be non-negative}}
  %r = tp.cdist %a, %b {p = -1.0 : f64} : (tensor<5x3xf32>, tensor<7x3xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @cdist_columns(%a: tensor<5x3xf32>, %b: tensor<7x4xf32>) {
  // expected-error @+1 {{x1 and x2 must have the same number of columns (3 vs 4)}}
  %r = tp.cdist %a, %b : (tensor<5x3xf32>, tensor<7x4xf32>) -> tensor<5x7xf32>
  return
}

// -----

func.func @cdist_batch(%a: tensor<2x5x3xf32>, %b: tensor<3x7x3xf32>) {
  // expected-error @+1 {{batch dimensions are not broadcastable}}
  %r = tp.cdist %a, %b : (tensor<2x5x3xf32>, tensor<3x7x3xf32>) -> tensor<2x5x7xf32>
  return
}

// -----

func.func @pdist_shape(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{result #0 has shape 5 but the operands imply 10}}
  %r = tp.pdist %x : (tensor<5x3xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @cosine_similarity_broadcast(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{x1 and x2 are not broadcastable}}
  %r = tp.cosine_similarity %a, %b : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @trace_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected a 2-D input of rank 2, got rank 1}}
  %r = tp.trace %x : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @quantile_mode(%x: tensor<4x8xf32>, %q: tensor<3xf32>) {
  // expected-error @+1 {{interpolation must be one of linear, lower, higher, midpoint, nearest, got 'cubic'}}
  %r = tp.quantile %x, %q {dim = 1 : i64, interpolation = "cubic"} : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @layer_norm_bias(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<7xf32>) {
  // expected-error @+1 {{bias must have shape 8, got 7}}
  %r = tp.layer_norm %x weight(%g) bias(%b) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<8xf32>, tensor<7xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @group_norm_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected an (N, C, ...) input of rank 2 or more, got rank 1}}
  %r = tp.group_norm %x {num_groups = 2 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @cdist_x1_rank(%a: tensor<3xf32>, %b: tensor<7x3xf32>) {
  // expected-error @+1 {{expected x1 of rank 2 or more, got rank 1}}
  %r = tp.cdist %a, %b : (tensor<3xf32>, tensor<7x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @cdist_x2_rank(%a: tensor<5x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{expected x2 of rank 2 or more, got rank 1}}
  %r = tp.cdist %a, %b : (tensor<5x3xf32>, tensor<3xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @quantile_q_rank(%x: tensor<4x8xf32>, %q: tensor<3x1xf32>) {
  // expected-error @+1 {{expected q of rank 0 to 1, got rank 2}}
  %r = tp.quantile %x, %q {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @softmax_integer_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point type, got 'i32'}}
  %r = tp.softmax %x {dim = 1 : i64, dtype = i32} : (tensor<4x8xf32>) -> tensor<4x8xi32>
  return
}

// -----

func.func @log_softmax_integer_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point type, got 'i64'}}
  %r = tp.log_softmax %x {dim = 1 : i64, dtype = i64} : (tensor<4x8xf32>) -> tensor<4x8xi64>
  return
}

// -----

func.func @softmin_integer_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point type, got 'i1'}}
  %r = tp.softmin %x {dim = 1 : i64, dtype = i1} : (tensor<4x8xf32>) -> tensor<4x8xi1>
  return
}

// -----

func.func @softmax_complex_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point type, got 'complex<f32>'}}
  %r = tp.softmax %x {dim = 1 : i64, dtype = complex<f32>} : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @mean_integer_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point or complex type, got 'i32'}}
  %r = tp.mean %x {dim = array<i64: 1>, dtype = i32} : (tensor<4x8xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @norm_integer_dtype(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dtype must be a floating point or complex type, got 'i32'}}
  %r = tp.norm %x {dtype = i32} : (tensor<4x8xf32>) -> tensor<i32>
  return
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

// -----

func.func @loss_reduction(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{expected ::mlir::tp::Reduction to be one of: none, mean, sum}}
  // expected-error @+1 {{failed to parse TP_ReductionEnumAttr parameter 'value'}}
  %l = tp.mse_loss %x, %x {reduction = #tp.reduction<max>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

// The enum is an attribute of its own, not a string.
func.func @loss_reduction_string(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{attribute 'reduction' failed to satisfy constraint: loss reduction: #tp.reduction<none|mean|sum>}}
  %l = tp.mse_loss %x, %x {reduction = "sum"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @gelu_approximate(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{expected ::mlir::tp::GeluApproximation to be one of: none, tanh}}
  // expected-error @+1 {{failed to parse TP_GeluApproximationAttr parameter 'value'}}
  %g = tp.gelu %x {approximate = #tp.approximate<fast>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gelu_approximate_string(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{attribute 'approximate' failed to satisfy constraint: gelu approximation: #tp.approximate<none|tanh>}}
  %g = tp.gelu %x {approximate = "tanh"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @nll_backward_target(%g: tensor<f32>, %x: tensor<4x10xf32>, %t: tensor<5xi64>) {
  // expected-error @+1 {{class-index targets must have shape 4 (the input without its class dimension), got 5}}
  %r = tp.nll_loss_backward %g, %x, %t : (tensor<f32>, tensor<4x10xf32>, tensor<5xi64>) -> tensor<4x10xf32>
  return
}

// -----

func.func @nll_backward_grad(%g: tensor<f32>, %x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  // expected-error @+1 {{grad_output must have the loss's shape 4, got scalar}}
  %r = tp.nll_loss_backward %g, %x, %t {reduction = #tp.reduction<none>} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>) -> tensor<4x10xf32>
  return
}

// -----

func.func @nll_backward_weight(%g: tensor<f32>, %x: tensor<4x10xf32>, %t: tensor<4xi64>, %w: tensor<8xf32>) {
  // expected-error @+1 {{weight must have one entry per class (10), got shape 8}}
  %r = tp.nll_loss_backward %g, %x, %t weight(%w) : (tensor<f32>, tensor<4x10xf32>, tensor<4xi64>, tensor<8xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @loss_none_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 has shape scalar but the operands imply 4x8}}
  %l = tp.l1_loss %x, %x {reduction = #tp.reduction<none>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @loss_broadcast(%x: tensor<4x8xf32>, %t: tensor<3x8xf32>) {
  // expected-error @+1 {{input and target shapes are not broadcastable: 4x8 vs 3x8}}
  %l = tp.mse_loss %x, %t : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @per_row_shapes(%a: tensor<4x8xf32>, %p: tensor<4x7xf32>) {
  // expected-error @+1 {{all inputs must have the shape 4x8, got 4x7}}
  %l = tp.triplet_margin_loss %a, %p, %a : (tensor<4x8xf32>, tensor<4x7xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @cosine_embedding_target(%a: tensor<4x8xf32>, %t: tensor<5xf32>) {
  // expected-error @+1 {{target must have shape 4, got 5}}
  %l = tp.cosine_embedding_loss %a, %a, %t : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<5xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_target_type(%x: tensor<4x10xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{expected target to hold integer class indices, got 'tensor<4xf32>'}}
  %l = tp.nll_loss %x, %t : (tensor<4x10xf32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_target_shape(%x: tensor<4x10xf32>, %t: tensor<5xi64>) {
  // expected-error @+1 {{target must have shape 4 (the input without its class dimension), got 5}}
  %l = tp.nll_loss %x, %t : (tensor<4x10xf32>, tensor<5xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_weight(%x: tensor<4x10xf32>, %t: tensor<4xi64>, %w: tensor<9xf32>) {
  // expected-error @+1 {{weight must have one entry per class (10), got 9}}
  %l = tp.nll_loss %x, %t weight(%w) : (tensor<4x10xf32>, tensor<4xi64>, tensor<9xf32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_probabilities(%x: tensor<4x10xf32>, %t: tensor<4x9xf32>) {
  // expected-error @+1 {{class-probability targets must have the input's shape 4x10, got 4x9}}
  %l = tp.cross_entropy %x, %t : (tensor<4x10xf32>, tensor<4x9xf32>) -> tensor<f32>
  return
}

// -----

func.func @multilabel_target(%x: tensor<4x10xf32>, %t: tensor<4x9xi64>) {
  // expected-error @+1 {{target must have the input's shape 4x10, got 4x9}}
  %l = tp.multilabel_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4x9xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_lengths(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xf32>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected input_lengths to hold integer class indices, got 'tensor<4xf32>'}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @per_row_rank(%a: tensor<2x4x8xf32>) {
  // expected-error @+1 {{expected inputs of rank 1 to 2, got rank 3}}
  %l = tp.triplet_margin_loss %a, %a, %a : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss2d_rank(%x: tensor<2x10x4xf32>, %t: tensor<2x4xi64>) {
  // expected-error @+1 {{expected an (N, C, H, W) input of rank 4, got rank 3}}
  %l = tp.nll_loss2d %x, %t : (tensor<2x10x4xf32>, tensor<2x4xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_input_rank(%x: tensor<f32>, %t: tensor<i64>) {
  // expected-error @+1 {{expected an input of rank 1 or more, got rank 0}}
  %l = tp.nll_loss %x, %t : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @multi_margin_rank(%x: tensor<2x4x10xf32>, %t: tensor<2x10xi64>) {
  // expected-error @+1 {{expected an input of rank 1 to 2, got rank 3}}
  %l = tp.multi_margin_loss %x, %t : (tensor<2x4x10xf32>, tensor<2x10xi64>) -> tensor<f32>
  return
}

// -----

func.func @multi_margin_p(%x: tensor<4x10xf32>, %t: tensor<4xi64>) {
  // expected-error @+1 {{only p == 1 and p == 2 are supported (as tensorplay's multi_margin_loss), got p = 3}}
  %l = tp.multi_margin_loss %x, %t {p = 3 : i64} : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @multilabel_rank(%x: tensor<2x4x10xf32>, %t: tensor<2x4x10xi64>) {
  // expected-error @+1 {{expected an input of rank 1 to 2, got rank 3}}
  %l = tp.multilabel_margin_loss %x, %t : (tensor<2x4x10xf32>, tensor<2x4x10xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_log_probs_rank(%lp: tensor<20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected (T, N, C) or (T, C) log_probs of rank 2 to 3, got rank 1}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_targets(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xf32>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected targets to hold integer class indices, got 'tensor<4x30xf32>'}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xf32>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_target_lengths(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xf32>) {
  // expected-error @+1 {{expected target_lengths to hold integer class indices, got 'tensor<4xf32>'}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<f32>
  return
}

func.func @ctc_blank(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{blank must be in label range [0, 20), got 20}}
  %l = tp.ctc_loss %lp, %t, %il, %tl {blank = 20 : i64} : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_targets_rank(%lp: tensor<50x4x20xf32>, %t: tensor<4x3x10xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected (N, S) padded or 1-D concatenated targets, got 4x3x10}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x3x10xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_padded_rows(%lp: tensor<50x4x20xf32>, %t: tensor<3x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{padded targets must have one row per sample (4), got 3x30}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<3x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_input_lengths(%lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<5xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{input_lengths must hold one length per sample (shape 4), got 5}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<5xi64>, tensor<4xi64>) -> tensor<f32>
  return
}

// -----

func.func @ctc_unbatched_lengths(%lp: tensor<50x20xf32>, %t: tensor<30xi64>, %il: tensor<i64>, %tl: tensor<2xi64>) {
  // expected-error @+1 {{target_lengths must hold one length per sample (0-d or shape 1), got 2}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<50x20xf32>, tensor<30xi64>, tensor<i64>, tensor<2xi64>) -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Layout, indexing, pooling, sampling
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dim1 5 is out of range for a tensor of rank 2}}
  %r = tp.transpose %x {dim0 = 0 : i64, dim1 = 5 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @permute_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{dims must list each of the 3 dimensions once, got 2 entries}}
  %r = tp.permute %x {dims = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @permute_repeat(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{dims is not a permutation: 1 repeats}}
  %r = tp.permute %x {dims = array<i64: 1, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x3x2xf32>
  return
}

// -----

func.func @reshape_two_inferred(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{only one dimension can be inferred (-1)}}
  %r = tp.reshape %x {shape = array<i64: -1, -1>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @reshape_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{invalid shape dimension -2}}
  %r = tp.reshape %x {shape = array<i64: -2, 16>} : (tensor<4x8xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @reshape_numel(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{shape [5, -1] is invalid for an input of 32 elements}}
  %r = tp.reshape %x {shape = array<i64: 5, -1>} : (tensor<4x8xf32>) -> tensor<5x6xf32>
  return
}

// -----

func.func @reshape_numel_static(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{shape [5, 6] is invalid for an input of 32 elements}}
  %r = tp.reshape %x {shape = array<i64: 5, 6>} : (tensor<4x8xf32>) -> tensor<5x6xf32>
  return
}

// -----

func.func @expand_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{the number of sizes (1) must be at least the input rank (2)}}
  %r = tp.expand %x {size = array<i64: 8>} : (tensor<4x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @expand_leading(%x: tensor<8xf32>) {
  // expected-error @+1 {{-1 is not allowed for a new leading dimension}}
  %r = tp.expand %x {size = array<i64: -1, 8>} : (tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @expand_negative(%x: tensor<8xf32>) {
  // expected-error @+1 {{invalid expand size -3}}
  %r = tp.expand %x {size = array<i64: -3>} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @expand_size(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{cannot expand dimension 0 of size 2 to 4}}
  %r = tp.expand %x {size = array<i64: 4, 8>} : (tensor<2x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @flatten_order(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{start_dim cannot come after end_dim}}
  %r = tp.flatten %x {start_dim = 2 : i64, end_dim = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @cat_empty() {
  // expected-error @+1 {{expected a non-empty list of tensors}}
  %r = tp.cat [] : () -> tensor<4xf32>
  return
}

// -----

func.func @cat_rank(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{tensor #1 has rank 1, expected 2}}
  %r = tp.cat [%a, %b] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @cat_dims(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{tensor #1 differs in dimension 1 (2 vs 8)}}
  %r = tp.cat [%a, %b] : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @index_type(%x: tensor<5x3xf32>, %i: tensor<2xf32>, %s: tensor<2x3xf32>) {
  // expected-error @+1 {{expected index to be an integer tensor, got 'tensor<2xf32>'}}
  %r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @index_copy_source(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %s: tensor<3x3xf32>) {
  // expected-error @+1 {{source must have shape 2x3, got 3x3}}
  %r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>, tensor<3x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @scatter_rank(%x: tensor<5x3xf32>, %i: tensor<2xi64>, %s: tensor<2x3xf32>) {
  // expected-error @+1 {{index and src must have the rank of self (2)}}
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @scatter_index_larger_than_src(%x: tensor<5x3xf32>, %i: tensor<2x3xi64>, %s: tensor<2x2xf32>) {
  // expected-error @+1 {{index has size 3 in dimension 1, larger than src's 2}}
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x3xi64>, tensor<2x2xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @scatter_index_larger_than_self(%x: tensor<5x3xf32>, %i: tensor<2x4xi64>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{index has size 4 in dimension 1, larger than self's 3}}
  %r = tp.scatter_add %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<4x8xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{index must have the rank of self (2), got 1}}
  %r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_index_type(%x: tensor<4x8xf32>, %i: tensor<4x3xf32>) {
  // expected-error @+1 {{expected index to be an integer tensor, got 'tensor<4x3xf32>'}}
  %r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_index_larger(%x: tensor<4x8xf32>, %i: tensor<5x3xi64>) {
  // expected-error @+1 {{index has size 5 in dimension 0, larger than self's 4}}
  %r = tp.gather %x, %i {dim = 1 : i64} : (tensor<4x8xf32>, tensor<5x3xi64>) -> tensor<5x3xf32>
  return
}

// -----

func.func @gather_dim(%x: tensor<4x8xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+1 {{dim 2 is out of range for a tensor of rank 2}}
  %r = tp.gather %x, %i {dim = 2 : i64} : (tensor<4x8xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @topk_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{k (9) must be in [0, 8], the size along dim}}
  %v, %i = tp.topk %x {k = 9 : i64} : (tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi64>)
  return
}

// -----

func.func @topk_negative_k(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{k (-1) must be in [0, 8], the size along dim}}
  %v, %i = tp.topk %x {k = -1 : i64} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi64>)
  return
}

// -----

func.func @topk_bool(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{expected a real, non-bool input (as tensorplay's topk), got 'tensor<4x8xi1>'}}
  %v, %i = tp.topk %x {k = 2 : i64} : (tensor<4x8xi1>) -> (tensor<4x2xi1>, tensor<4x2xi64>)
  return
}

// -----

func.func @topk_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 has shape 4x2 but the operands imply 2x8}}
  %v, %i = tp.topk %x {k = 2 : i64, dim = 0 : i64} : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return
}

// -----

// A boolean mask takes as many dimensions as it has, of its sizes.
func.func @index_put_mask_shape(%x: tensor<5x3xf32>, %m: tensor<5x2xi1>, %v: tensor<f32>) {
  // expected-error @+1 {{the shape of the mask 5x2 at index 1 does not match the shape of the indexed tensor 5x3 at index 1}}
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5x2xi1>, tensor<f32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @index_put_mask_count(%x: tensor<5x3xf32>, %m: tensor<5x3xi1>, %i: tensor<2xi64>, %v: tensor<f32>) {
  // expected-error @+1 {{too many indices for a tensor of rank 2}}
  %r = tp.index_put %x[%m, %i], %v : (tensor<5x3xf32>, tensor<5x3xi1>, tensor<2xi64>, tensor<f32>) -> tensor<5x3xf32>
  return
}

// -----

// The Householder products: tensorplay's shape checks.
func.func @orgqr_wide(%a: tensor<3x4xf32>, %t: tensor<2xf32>) {
  // expected-error @+1 {{the reflectors must have at least as many rows as columns, got 3x4}}
  %r = tp.orgqr %a, %t : (tensor<3x4xf32>, tensor<2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @householder_tau(%a: tensor<4x3xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{tau must have at most as many entries as the reflectors have columns, got 4 for 4x3}}
  %r = tp.linalg_householder_product %a, %t : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @orgqr_tau_batch(%a: tensor<2x4x3xf32>, %t: tensor<3xf32>) {
  // expected-error @+1 {{expected the batch dimensions of tau (none) to equal those of the reflectors (2)}}
  %r = tp.orgqr %a, %t : (tensor<2x4x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @ormqr_batch(%a: tensor<2x4x3xf32>, %t: tensor<2x2xf32>, %c: tensor<4x2xf32>) {
  // expected-error @+1 {{expected the batch dimensions of other (none) to equal those of the reflectors (2)}}
  %r = tp.ormqr %a, %t, %c : (tensor<2x4x3xf32>, tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @ormqr_rows(%a: tensor<4x3xf32>, %t: tensor<3xf32>, %c: tensor<4x2xf32>) {
  // expected-error @+1 {{the reflectors must have 2 rows (other's columns), got 4x3}}
  %r = tp.ormqr %a, %t, %c {left = false} : (tensor<4x3xf32>, tensor<3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @ormqr_tau(%a: tensor<4x3xf32>, %t: tensor<4xf32>, %c: tensor<4x2xf32>) {
  // expected-error @+1 {{tau must have at most min(rows, columns) = 3 entries, got 4}}
  %r = tp.ormqr %a, %t, %c : (tensor<4x3xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @orgqr_vector(%a: tensor<4xf32>, %t: tensor<2xf32>) {
  // expected-error @+1 {{expected the reflectors of rank 2 or more, got rank 1}}
  %r = tp.orgqr %a, %t : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @orgqr_scalar_tau(%a: tensor<4x3xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{expected tau of rank 1 or more, got rank 0}}
  %r = tp.orgqr %a, %t : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @ormqr_vector_other(%a: tensor<4x3xf32>, %t: tensor<3xf32>, %c: tensor<4xf32>) {
  // expected-error @+1 {{expected other of rank 2 or more, got rank 1}}
  %r = tp.ormqr %a, %t, %c : (tensor<4x3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @ormqr_left_rows(%a: tensor<4x3xf32>, %t: tensor<3xf32>, %c: tensor<5x2xf32>) {
  // expected-error @+1 {{the reflectors must have 5 rows (other's rows), got 4x3}}
  %r = tp.ormqr %a, %t, %c : (tensor<4x3xf32>, tensor<3xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @index_put_count(%x: tensor<5xf32>, %i: tensor<2xi64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{too many indices for a tensor of rank 1}}
  %r = tp.index_put %x[%i, %i], %v : (tensor<5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @embedding_weight(%w: tensor<100xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{expected a 2-D weight of rank 2, got rank 1}}
  %r = tp.embedding %w, %i : (tensor<100xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_count(%x: tensor<2x3x8xf32>) {
  // expected-error @+1 {{padding must have 2 values, got 3}}
  %r = tp.reflection_pad1d %x {padding = array<i64: 1, 1, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x10xf32>
  return
}

// -----

func.func @reflection_pad_size(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{reflection padding must be smaller than the padded dimension (4)}}
  %r = tp.reflection_pad1d %x {padding = array<i64: 4, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{padded size must be positive}}
  %r = tp.replication_pad1d %x {padding = array<i64: -2, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @pool_params(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{kernel_size must have 1 or 3 values}}
  %r = tp.avg_pool3d %x {kernel_size = array<i64: 2, 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// -----

func.func @pool_positive(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{kernel_size, stride and dilation must be positive}}
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>, stride = array<i64: 0>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{padding should be at most half of the kernel size}}
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>, padding = array<i64: 2>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32>
  return
}

// -----

func.func @pool_small(%x: tensor<1x2x1x1x1xf32>) {
  // expected-error @+1 {{input too small for the pooling window}}
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>} : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @pool_ceil(%x: tensor<1x1x5x5x5xf32>) {
  // expected-error @+1 {{result #0 has shape 1x1x2x2x2 but the operands imply 1x1x3x3x3}}
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>, ceil_mode = true} : (tensor<1x1x5x5x5xf32>) -> tensor<1x1x2x2x2xf32>
  return
}

// -----

func.func @unpool_indices(%x: tensor<1x2x2x2xf32>, %i: tensor<1x2x2x1xi64>) {
  // expected-error @+1 {{indices must have the input's shape}}
  %r = tp.max_unpool2d %x, %i {output_size = array<i64: 4, 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x1xi64>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @unpool_size(%x: tensor<1x2x2x2xf32>, %i: tensor<1x2x2x2xi64>) {
  // expected-error @+1 {{output_size must have 2 values}}
  %r = tp.max_unpool2d %x, %i {output_size = array<i64: 4>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4xf32>
  return
}

// -----

func.func @adaptive_size(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{output_size must have 3 values}}
  %r = tp.adaptive_avg_pool3d %x {output_size = array<i64: 1, 1>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x1x1xf32>
  return
}

// -----

func.func @adaptive_positive(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{output_size values must be positive}}
  %r, %i = tp.adaptive_max_pool3d %x {output_size = array<i64: 1, 0, 1>} : (tensor<1x2x4x4x4xf32>) -> (tensor<1x2x1x0x1xf32>, tensor<1x2x1x0x1xi64>)
  return
}

// -----

func.func @grid_batch(%x: tensor<1x3x8x8xf32>, %g: tensor<2x4x4x2xf32>) {
  // expected-error @+1 {{input and grid batch sizes differ (1 vs 2)}}
  %r = tp.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<2x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @grid_coords(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{grid's last dimension must hold the 2 coordinates (3 vs 2)}}
  %r = tp.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @grid_mode(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  // expected-error @+1 {{mode must be bilinear, nearest or bicubic}}
  %r = tp.grid_sample %x, %g {mode = "linear"} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @grid_padding_mode(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  // expected-error @+1 {{padding_mode must be zeros, border or reflection}}
  %r = tp.grid_sample %x, %g {padding_mode = "edge"} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @grid_sampler_modes(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  // expected-error @+1 {{interpolation_mode and padding_mode must be 0, 1 or 2}}
  %r = tp.grid_sampler %x, %g {align_corners = false, interpolation_mode = 3 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @transpose_dim0(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dim0 2 is out of range for a tensor of rank 2}}
  %r = tp.transpose %x {dim0 = 2 : i64, dim1 = 0 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @permute_dims_entry(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{dims entry 3 is out of range for a tensor of rank 2}}
  %r = tp.permute %x {dims = array<i64: 0, 3>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @unsqueeze_dim(%x: tensor<8xf32>) {
  // expected-error @+1 {{dim 3 is out of range for a tensor of rank 2}}
  %r = tp.unsqueeze %x {dim = 3 : i64} : (tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @flatten_start_dim(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{start_dim 3 is out of range for a tensor of rank 3}}
  %r = tp.flatten %x {start_dim = 3 : i64} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  return
}

// -----

func.func @flatten_end_dim(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{end_dim -5 is out of range for a tensor of rank 3}}
  %r = tp.flatten %x {end_dim = -5 : i64} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  return
}

// -----

func.func @reshape_ambiguous(%x: tensor<0x6xf32>) {
  // expected-error @+1 {{cannot reshape a tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous}}
  %r = tp.reshape %x {shape = array<i64: -1, 0>} : (tensor<0x6xf32>) -> tensor<5x0xf32>
  return
}

// -----

func.func @reshape_zero_known(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{shape [-1, 0] is invalid for an input of 12 elements}}
  %r = tp.reshape %x {shape = array<i64: -1, 0>} : (tensor<2x6xf32>) -> tensor<?x0xf32>
  return
}

// -----

func.func @reshape_dynamic_zero_known(%x: tensor<?x6xf32>) {
  // expected-error @+1 {{cannot reshape a tensor of ? elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous}}
  %r = tp.reshape %x {shape = array<i64: -1, 0>} : (tensor<?x6xf32>) -> tensor<?x0xf32>
  return
}

// -----

func.func @index_copy_index_rank(%x: tensor<5x3xf32>, %i: tensor<2x1xi64>, %s: tensor<2x3xf32>) {
  // expected-error @+1 {{expected a 1-D index of rank 0 to 1, got rank 2}}
  %r = tp.index_copy %x, %i, %s {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @index_put_indices(%x: tensor<5x3xf32>, %i: tensor<2xf32>, %v: tensor<2x3xf32>) {
  // expected-error @+1 {{expected indices to be an integer tensor, got 'tensor<2xf32>'}}
  %r = tp.index_put %x[%i], %v : (tensor<5x3xf32>, tensor<2xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @embedding_indices(%w: tensor<100x16xf32>, %i: tensor<4x7xf32>) {
  // expected-error @+1 {{expected indices to be an integer tensor, got 'tensor<4x7xf32>'}}
  %r = tp.embedding %w, %i : (tensor<100x16xf32>, tensor<4x7xf32>) -> tensor<4x7x16xf32>
  return
}

// -----

func.func @pad_input_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{expected an input of rank 2 to 3, got rank 1}}
  %r = tp.reflection_pad1d %x {padding = array<i64: 2, 1>} : (tensor<8xf32>) -> tensor<11xf32>
  return
}

// -----

func.func @pool_input_rank(%x: tensor<4x4x4xf32>) {
  // expected-error @+1 {{expected an input of rank 4 to 5, got rank 3}}
  %r = tp.max_pool3d %x {kernel_size = array<i64: 2>} : (tensor<4x4x4xf32>) -> tensor<2x2x2xf32>
  return
}

// -----

func.func @unpool_input_rank(%x: tensor<2x2xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{expected an input of rank 3 to 4, got rank 2}}
  %r = tp.max_unpool2d %x, %i {output_size = array<i64: 4, 4>} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<4x4xf32>
  return
}

// -----

func.func @adaptive_pool_input_rank(%x: tensor<4x4x4xf32>) {
  // expected-error @+1 {{expected an input of rank 4 to 5, got rank 3}}
  %r = tp.adaptive_avg_pool3d %x {output_size = array<i64: 1, 1, 1>} : (tensor<4x4x4xf32>) -> tensor<1x1x1xf32>
  return
}

// -----

func.func @grid_sample_input_rank(%x: tensor<3x8x8xf32>, %g: tensor<1x4x4x2xf32>) {
  // expected-error @+1 {{expected an (N, C, ...) input of rank 4, got rank 3}}
  %r = tp.grid_sample %x, %g : (tensor<3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @grid_sample_grid_rank(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x2xf32>) {
  // expected-error @+1 {{expected a grid of rank 4, got rank 3}}
  %r = tp.grid_sample %x, %g : (tensor<1x3x8x8xf32>, tensor<1x4x2xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_overflow(%x: tensor<1x2x4x4x4xf32>) {
  // expected-error @+1 {{kernel_size, stride, padding or dilation too large: the output size of spatial dimension 0 overflows int64}}
  %r = tp.max_pool3d %x {dilation = array<i64: 4611686018427387904>, kernel_size = array<i64: 4>} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>
  return
}

// -----

func.func @pad_overflow(%x: tensor<2x3x8xf32>) {
  // expected-error @+1 {{padding too large: the padded size overflows int64}}
  %r = tp.replication_pad1d %x {padding = array<i64: 9223372036854775807, 1>} : (tensor<2x3x8xf32>) -> tensor<2x3x11xf32>
  return
}

// -----

func.func @reshape_overflow(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{shape [4611686018427387904, 4, -1] is too large: its number of elements overflows int64}}
  %r = tp.reshape %x {shape = array<i64: 4611686018427387904, 4, -1>} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// Linear algebra, FFT, complex views
//===----------------------------------------------------------------------===//

// -----

func.func @matrix_int(%a: tensor<4x4xi32>) {
  // expected-error @+1 {{expected a floating or complex input, got 'tensor<4x4xi32>'}}
  %r = tp.inverse %a : (tensor<4x4xi32>) -> tensor<4x4xi32>
  return
}

// -----

func.func @matrix_square(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{the input must be square (4 vs 3)}}
  %r = tp.linalg_inv %a : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @solve_rhs(%a: tensor<4x4xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{right-hand side rows must match the matrix (3 vs 4)}}
  %r = tp.linalg_solve %a, %b : (tensor<4x4xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @solve_vector(%a: tensor<4x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{right-hand side size must match the matrix (3 vs 4)}}
  %r = tp.linalg_solve %a, %b : (tensor<4x4xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @solve_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x2xf32>) {
  // expected-error @+1 {{batch dimensions are not broadcastable}}
  %r = tp.linalg_solve %a, %b : (tensor<2x4x4xf32>, tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return
}

// -----

func.func @lu_pivots(%b: tensor<4x2xf32>, %lu: tensor<4x4xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{LU_pivots must be an integer tensor}}
  %r = tp.lu_solve %b, %lu, %p : (tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @svd_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the input of rank 2 or more, got rank 1}}
  %u, %s, %v = tp.svd %a : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @eigvals_complex(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{result #0 has element type 'f32' but the operands imply 'complex<f32>'}}
  %r = tp.linalg_eigvals %a : (tensor<4x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @rfft_complex(%x: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{expects a real input tensor, got 'tensor<8xcomplex<f32>>'}}
  %r = tp.fft_rfft %x : (tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  return
}

// -----

func.func @fft_norm(%x: tensor<8xf32>) {
  // expected-error @+1 {{norm must be backward, forward or ortho}}
  %r = tp.fft_fft %x {norm = "none"} : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @fft_s(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{s and dim must have the same length}}
  %r = tp.fft_fft2 %x {s = array<i64: 4>} : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @fft_size(%x: tensor<8xf32>) {
  // expected-error @+1 {{signal sizes must be positive, got 0}}
  %r = tp.fft_fft %x {n = 0 : i64} : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @fft_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result #0 has shape 8 but the operands imply 5}}
  %r = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @stft_window(%x: tensor<64xf32>) {
  // expected-error @+1 {{expected 0 < win_length <= n_fft and a positive hop_length}}
  %r = tp.stft %x {n_fft = 16 : i64, win_length = 32 : i64} : (tensor<64xf32>) -> tensor<9x13xcomplex<f32>>
  return
}

// -----

func.func @stft_real(%x: tensor<64xf32>) {
  // expected-error @+1 {{return_complex=false (real output) is not supported: use the complex result}}
  %r = tp.stft %x {n_fft = 16 : i64, return_complex = false} : (tensor<64xf32>) -> tensor<9x13xcomplex<f32>>
  return
}

// -----

func.func @stft_window_size(%x: tensor<64xf32>, %w: tensor<8xf32>) {
  // expected-error @+1 {{window size must equal win_length (8 vs 16)}}
  %r = tp.stft %x window(%w) {n_fft = 16 : i64} : (tensor<64xf32>, tensor<8xf32>) -> tensor<9x13xcomplex<f32>>
  return
}

// -----

func.func @stft_short(%x: tensor<8xf32>) {
  // expected-error @+1 {{signal length 8 is shorter than n_fft 16}}
  %r = tp.stft %x {n_fft = 16 : i64} : (tensor<8xf32>) -> tensor<9x1xcomplex<f32>>
  return
}

// -----

func.func @stft_complex_onesided(%x: tensor<64xcomplex<f32>>) {
  // expected-error @+1 {{cannot have a onesided output when the signal or the window is complex}}
  %r = tp.stft %x {n_fft = 16 : i64, onesided = true} : (tensor<64xcomplex<f32>>) -> tensor<9x13xcomplex<f32>>
  return
}

// -----

func.func @view_as_complex_type(%x: tensor<4x2xf16>) {
  // expected-error @+1 {{expects an f32 or f64 input, got 'tensor<4x2xf16>'}}
  %r = tp.view_as_complex %x : (tensor<4x2xf16>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @view_as_complex_dim(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{the last dimension must have size 2 (3 vs 2)}}
  %r = tp.view_as_complex %x : (tensor<4x3xf32>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @view_as_real_type(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{expects a complex<f32> or complex<f64> input, got 'tensor<4x2xf32>'}}
  %r = tp.view_as_real %x : (tensor<4x2xf32>) -> tensor<4x2x2xf32>
  return
}

// -----

func.func @solve_matrix_rank(%a: tensor<4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{expected the coefficient matrix of rank 2 or more, got rank 1}}
  %r = tp.linalg_solve %a, %b : (tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @solve_matrix_square(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{the coefficient matrix must be square (4 vs 3)}}
  %r = tp.linalg_solve %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @solve_rhs_rank(%a: tensor<4x4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{expected the right-hand side of rank 1 or more, got rank 0}}
  %r = tp.linalg_solve %a, %b : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @fft_input_rank(%x: tensor<f32>) {
  // expected-error @+1 {{expected an input of rank 1 or more, got rank 0}}
  %r = tp.fft_fft %x : (tensor<f32>) -> tensor<complex<f32>>
  return
}

// -----

func.func @fft_dim(%x: tensor<8xf32>) {
  // expected-error @+1 {{dim 1 is out of range for a tensor of rank 1}}
  %r = tp.fft_fft %x {dim = 1 : i64} : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return
}

// -----

func.func @stft_signal_rank(%x: tensor<2x2x64xf32>) {
  // expected-error @+1 {{expected a 1-D or 2-D signal of rank 1 to 2, got rank 3}}
  %r = tp.stft %x {n_fft = 16 : i64} : (tensor<2x2x64xf32>) -> tensor<2x2x9x13xcomplex<f32>>
  return
}

// -----

func.func @stft_window_rank(%x: tensor<64xf32>, %w: tensor<16x1xf32>) {
  // expected-error @+1 {{expected a 1-D window of rank 1, got rank 2}}
  %r = tp.stft %x window(%w) {hop_length = 4 : i64, n_fft = 16 : i64} : (tensor<64xf32>, tensor<16x1xf32>) -> tensor<9x13xcomplex<f32>>
  return
}

// -----

func.func @tensorinv_ind(%a: tensor<4x6x8x3xf32>) {
  // expected-error @+1 {{ind must be in [1, 4], got 0}}
  %r = tp.linalg_tensorinv %a {ind = 0 : i64} : (tensor<4x6x8x3xf32>) -> tensor<8x3x4x6xf32>
  return
}

// -----

func.func @tensorinv_sizes(%a: tensor<4x6x8x3xf32>) {
  // expected-error @+1 {{the dims before and after ind must hold equally many elements (4 vs 144)}}
  %r = tp.linalg_tensorinv %a {ind = 1 : i64} : (tensor<4x6x8x3xf32>) -> tensor<6x8x3x4xf32>
  return
}

// -----

func.func @tensorinv_result(%a: tensor<4x6x8x3xf32>) {
  // expected-error @+1 {{result #0 has shape 4x6x8x3 but the operands imply 8x3x4x6}}
  %r = tp.linalg_tensorinv %a : (tensor<4x6x8x3xf32>) -> tensor<4x6x8x3xf32>
  return
}

// -----

func.func @tensorsolve_dims(%a: tensor<2x3x6xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{dims entry 5 is out of range for a tensor of rank 3}}
  %r = tp.linalg_tensorsolve %a, %b {dims = array<i64: 5>} : (tensor<2x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @tensorsolve_repeated_dims(%a: tensor<2x3x6xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{dims names dimension 1 more than once}}
  %r = tp.linalg_tensorsolve %a, %b {dims = array<i64: 1, -2>} : (tensor<2x3x6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @tensorsolve_not_square(%a: tensor<2x3x4xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{the solution's dims must hold as many elements as the right-hand side (4 vs 6)}}
  %r = tp.linalg_tensorsolve %a, %b : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @tensorsolve_leading(%a: tensor<3x3x6xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{the coefficient tensor's leading dims must hold as many elements as the right-hand side (9 vs 6)}}
  %r = tp.linalg_tensorsolve %a, %b : (tensor<3x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @tensorsolve_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x6xf32>) {
  // expected-error @+1 {{expected a coefficient tensor of rank 3 or more, got rank 2}}
  %r = tp.linalg_tensorsolve %a, %b : (tensor<2x3xf32>, tensor<2x3x6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @tensorsolve_moved_dims(%a: tensor<6x2x3xf32>, %b: tensor<2x3xf32>) {
  // dims moves the 6 to the end: the solution has shape 6.
  // expected-error @+1 {{result #0 has shape 3 but the operands imply 6}}
  %r = tp.linalg_tensorsolve %a, %b {dims = array<i64: 0>} : (tensor<6x2x3xf32>, tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @svd_reduced(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{result #0 has shape 4x4 but the operands imply 4x3}}
  %u, %s, %v = tp.linalg_svd %a {full_matrices = false} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @torch_svd_v(%a: tensor<5x3xf32>) {
  // torch.svd returns V (n x k), not Vh.
  // expected-error @+1 {{result #2 has shape 5x3 but the operands imply 3x3}}
  %u, %s, %v = tp.svd %a : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xf32>, tensor<5x3xf32>)
  return
}

// -----

func.func @qr_complete(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{result #0 has shape 4x3 but the operands imply 4x4}}
  %q, %r = tp.linalg_qr %a {mode = "complete"} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return
}

// -----

func.func @eig_square(%a: tensor<4x3xf32>) {
  // expected-error @+1 {{the input must be square (4 vs 3)}}
  %w, %v = tp.linalg_eig %a : (tensor<4x3xf32>) -> (tensor<4xcomplex<f32>>, tensor<4x4xcomplex<f32>>)
  return
}

// -----

func.func @lu_pivots(%a: tensor<2x5x3xf32>) {
  // expected-error @+1 {{result #1 has shape 2x5 but the operands imply 2x3}}
  %lu, %p, %i = tp.lu_with_info %a : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x5xi32>, tensor<2xi32>)
  return
}

// -----

func.func @lstsq_driver(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // gelsd computes the singular values (min(m, n) of them).
  // expected-error @+1 {{result #3 has shape 0 but the operands imply 3}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gelsd"} : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)
  return
}

// -----

func.func @triangular_solve_batch(%b: tensor<2x4x2xf32>, %a: tensor<4x4xf32>) {
  // expected-error @+1 {{result #1 has shape 4x4 but the operands imply 2x4x4}}
  %x, %c = tp.triangular_solve %b, %a : (tensor<2x4x2xf32>, tensor<4x4xf32>) -> (tensor<2x4x2xf32>, tensor<4x4xf32>)
  return
}

// -----

// expected-error @+1 {{tp.device must be a string: cuda, xpu or cpu}}
func.func @device_not_a_string() attributes {tp.device = 1 : i64} {
  return
}

// -----

// expected-error @+1 {{unknown tp.device 'tpu': expected one of cuda, xpu, cpu}}
func.func @device_unknown() attributes {tp.device = "tpu"} {
  return
}

// -----

func.func @device_not_on_a_function() {
  // expected-error @+1 {{tp.device belongs on a function}}
  %c = arith.constant {tp.device = "cuda"} 0 : i32
  return
}

// -----

// expected-error @+1 {{malformed tp.autocast_state attribute: expected a dictionary}}
func.func @state_not_a_dictionary() attributes {tp.autocast_state = "cuda"} {
  return
}

// -----

// An enabled state names its dtype.
// expected-error @+1 {{malformed tp.autocast_state attribute {cache_enabled = true, device_type = "cuda", enabled = true}: expected {device_type, enabled, cache_enabled, dtype = f16 or bf16 when enabled} and per-device states}}
func.func @state_without_dtype() attributes {tp.autocast_state = {cache_enabled = true, device_type = "cuda", enabled = true}} {
  return
}

// -----

// expected-error @+1 {{malformed tp.autocast_state attribute}}
func.func @state_unknown_device() attributes {tp.autocast_state = {cache_enabled = true, enabled = false, tpu = {cache_enabled = true, enabled = false}}} {
  return
}

// -----

// expected-error @+1 {{tp.autocast_state belongs on a function}}
module attributes {tp.autocast_state = {cache_enabled = true, enabled = false}} {
}

// -----

//===----------------------------------------------------------------------===//
// Train-step ops: GradScaler and fused optimizers
//===----------------------------------------------------------------------===//

func.func @check_finite_none() {
  // expected-error @+1 {{expected at least one gradient}}
  %f = "tp.amp_check_finite"() : () -> tensor<f32>
  return
}

// -----

func.func @update_scale_growth(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<f32>) {
  // expected-error @+1 {{growth_factor must be a finite number > 1, got 1}}
  %a, %b = tp.amp_update_scale %s, %t, %f {growth_factor = 1.0 : f64} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @update_scale_backoff(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<f32>) {
  // expected-error @+1 {{backoff_factor must lie in (0, 1), got 1.5}}
  %a, %b = tp.amp_update_scale %s, %t, %f {backoff_factor = 1.5 : f64} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @update_scale_interval(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<f32>) {
  // expected-error @+1 {{growth_interval must lie in [1, 2^31 - 1] (the tracker is an i32), got 0}}
  %a, %b = tp.amp_update_scale %s, %t, %f {growth_interval = 0 : i64} : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @sgd_grad_type(%p: tensor<8xbf16>, %g: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{expected grad to have the parameter's type 'tensor<8xbf16>' (or, for an f32 parameter, its shape in bf16 or f16), got 'tensor<8xf32>'}}
  %a, %b = tp.fused_sgd %p, %g step(%n) {lr = 0.1 : f64} : (tensor<8xbf16>, tensor<8xf32>, tensor<i64>) -> (tensor<8xbf16>, tensor<i64>)
  return
}

// -----

// A narrower gradient must still have the parameter's shape.
func.func @sgd_grad_shape(%p: tensor<8xf32>, %g: tensor<4xbf16>, %n: tensor<i64>) {
  // expected-error @+1 {{expected grad to have the parameter's type 'tensor<8xf32>' (or, for an f32 parameter, its shape in bf16 or f16), got 'tensor<4xbf16>'}}
  %a, %b = tp.fused_sgd %p, %g step(%n) {lr = 0.1 : f64} : (tensor<8xf32>, tensor<4xbf16>, tensor<i64>) -> (tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @sgd_copy_type(%p: tensor<8xf32>, %g: tensor<8xf32>, %c: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{expected param_copy to be a bf16 or f16 tensor of an f32 parameter's shape, got 'tensor<8xf32>' for a parameter of type 'tensor<8xf32>'}}
  %a, %b, %d = tp.fused_sgd %p, %g param_copy(%c) step(%n) {lr = 0.1 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @adamw_copy_of_bf16(%p: tensor<8xbf16>, %c: tensor<8xf16>, %n: tensor<i64>) {
  // expected-error @+1 {{expected param_copy to be a bf16 or f16 tensor of an f32 parameter's shape, got 'tensor<8xf16>' for a parameter of type 'tensor<8xbf16>'}}
  %a, %b, %d, %e, %f = tp.fused_adamw %p, %p, %p, %p param_copy(%c) step(%n) {lr = 0.001 : f64} : (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xf16>, tensor<i64>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xf16>, tensor<i64>)
  return
}

// -----

func.func @sgd_scale_alone(%p: tensor<8xf32>, %g: tensor<8xf32>, %n: tensor<i64>, %s: tensor<f32>) {
  // expected-error @+1 {{expected grad_scale and found_inf together (the GradScaler's operands) or neither}}
  %a, %b = tp.fused_sgd %p, %g step(%n) grad_scale(%s) {lr = 0.1 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<i64>, tensor<f32>) -> (tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @sgd_negative_lr(%p: tensor<8xf32>, %g: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{invalid lr -0.1: expected a finite value >= 0}}
  %a, %b = tp.fused_sgd %p, %g step(%n) {lr = -0.1 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @sgd_missing_buffer(%p: tensor<8xf32>, %g: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{expected a momentum_buffer for momentum != 0}}
  %a, %b = tp.fused_sgd %p, %g step(%n) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @sgd_nesterov(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{nesterov momentum requires a momentum and zero dampening}}
  %a, %b, %c = tp.fused_sgd %p, %g momentum_buffer(%m) step(%n) {lr = 0.1 : f64, momentum = 0.9 : f64, dampening = 0.1 : f64, nesterov = true} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @adamw_beta(%p: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{invalid beta2 1: expected a value in [0, 1)}}
  %a, %b, %c, %d = tp.fused_adamw %p, %p, %p, %p step(%n) {lr = 0.001 : f64, beta2 = 1.0 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @adamw_amsgrad(%p: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{expected a max_exp_avg_sq for amsgrad}}
  %a, %b, %c, %d = tp.fused_adamw %p, %p, %p, %p step(%n) {lr = 0.001 : f64, amsgrad = true} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @sgd_stray_buffer(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{a momentum_buffer needs momentum != 0}}
  %a, %b, %c = tp.fused_sgd %p, %g momentum_buffer(%m) step(%n) {lr = 0.1 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

func.func @adamw_stray_max(%p: tensor<8xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{a max_exp_avg_sq needs amsgrad}}
  %a, %b, %c, %d, %e = tp.fused_adamw %p, %p, %p, %p max_exp_avg_sq(%p) step(%n) {lr = 0.001 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<i64>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// tp.custom_function
//===----------------------------------------------------------------------===//

func.func @custom_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom_fwd: device_type must be "cuda", "xpu" or "cpu"}}
  %y = tp.custom_function(%x) {custom_fwd = {device_type = "tpu"}} : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_cast_inputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom_fwd: cast_inputs must be a floating type}}
  %y = tp.custom_function(%x) {custom_fwd = {device_type = "cuda", cast_inputs = i32}} : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_unknown_entry(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom_bwd: unknown entry 'cast_inputs'}}
  %y = tp.custom_function(%x) {custom_bwd = {device_type = "cuda", cast_inputs = f32}} : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_no_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom_fwd needs a device_type}}
  %y = tp.custom_function(%x) {custom_fwd = {cast_inputs = f32}} : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_forward_args(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the forward block must take one argument per input, of its type}}
  %y = tp.custom_function(%x) : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf16>):
    %c = tp.cast %a : tensor<4xf16> to tensor<4xf32>
    tp.yield %c : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_forward_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the forward region must yield the op's result types}}
  %y = tp.custom_function(%x) : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    %c = tp.cast %a : tensor<4xf32> to tensor<4xf16>
    tp.yield %c : tensor<4xf16>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_backward_args(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the backward block must take the inputs, the results and the results' gradients, of their types}}
  %y = tp.custom_function(%x) : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_backward_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the backward region must yield one gradient per input, got 2 for 1}}
  %y = tp.custom_function(%x) : (tensor<4xf32>) -> tensor<4xf32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    tp.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<4xf32>, %g: tensor<4xf32>):
    tp.yield %g, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @custom_backward_shape(%x: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+1 {{the gradient of input #0 must have its shape 'tensor<4xf32>', got 'tensor<f32>'}}
  %y = tp.custom_function(%x) : (tensor<4xf32>) -> tensor<f32>
  forward {
  ^bb0(%a: tensor<4xf32>):
    %s = tp.sum %a : (tensor<4xf32>) -> tensor<f32>
    tp.yield %s : tensor<f32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %r: tensor<f32>, %g: tensor<f32>):
    tp.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

func.func @softmax_backward_dtype(%g: tensor<4x8xi32>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.softmax_backward' op expected floating grad_output and output, got 'tensor<4x8xi32>'}}
  %r = tp.softmax_backward %g, %y {dim = 1 : i64} : (tensor<4x8xi32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @softmax_backward_rank(%g: tensor<8xf32>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.log_softmax_backward' op grad_output must have the output's shape 4x8, got 8}}
  %r = tp.log_softmax_backward %g, %y {dim = 1 : i64} : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @softmax_backward_shape(%g: tensor<4x7xf32>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{grad_output dim 1 must equal the output's (7 vs 8)}}
  %r = tp.softmax_backward %g, %y {dim = 1 : i64} : (tensor<4x7xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @softmax_backward_dim(%g: tensor<4x8xf32>, %y: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.softmax_backward' op dim 2 is out of range for a tensor of rank 2}}
  %r = tp.softmax_backward %g, %y {dim = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_backward_grad(%g: tensor<4x7xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.layer_norm_backward' op grad_output dim 1 must equal the input's (7 vs 8)}}
  %r:3 = tp.layer_norm_backward %g, %x {normalized_shape = array<i64: 8>} : (tensor<4x7xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_backward_normalized(%g: tensor<4x8xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.layer_norm_backward' op normalized_shape 4 must match the trailing dimensions of the input shape 4x8}}
  %r:3 = tp.layer_norm_backward %g, %x {normalized_shape = array<i64: 4>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_backward_weight(%g: tensor<4x8xf32>, %x: tensor<4x8xf32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'tp.layer_norm_backward' op weight must have shape 8, got 4}}
  %r:3 = tp.layer_norm_backward %g, %x weight(%w) {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_backward_int(%g: tensor<4x8xf32>, %x: tensor<4x8xi32>) {
  // expected-error @+1 {{'tp.layer_norm_backward' op expected a floating or complex input (or a floating dtype=), got 'tensor<4x8xi32>'}}
  %r:3 = tp.layer_norm_backward %g, %x {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @group_norm_backward_groups(%g: tensor<2x6x5xf32>, %x: tensor<2x6x5xf32>) {
  // expected-error @+1 {{'tp.group_norm_backward' op expected the number of channels (6) to be divisible by num_groups (4)}}
  %r:3 = tp.group_norm_backward %g, %x {num_groups = 4 : i64} : (tensor<2x6x5xf32>, tensor<2x6x5xf32>) -> (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @group_norm_backward_grad(%g: tensor<2x6xf32>, %x: tensor<2x6x5xf32>) {
  // expected-error @+1 {{'tp.group_norm_backward' op grad_output must have the input's shape 2x6x5, got 2x6}}
  %r:3 = tp.group_norm_backward %g, %x {num_groups = 3 : i64} : (tensor<2x6xf32>, tensor<2x6x5xf32>) -> (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @batch_norm_backward_weight(%g: tensor<2x6x5xf32>, %x: tensor<2x6x5xf32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{'tp.batch_norm_backward' op weight must have shape 6, got 5}}
  %r:3 = tp.batch_norm_backward %g, %x weight(%w) : (tensor<2x6x5xf32>, tensor<2x6x5xf32>, tensor<5xf32>) -> (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @batch_norm_backward_rank(%g: tensor<6xf32>, %x: tensor<6xf32>) {
  // expected-error @+1 {{'tp.batch_norm_backward' op expected an (N, C, ...) input of rank 2 or more, got rank 1}}
  %r:3 = tp.batch_norm_backward %g, %x : (tensor<6xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

// A bf16 weight's gradients are bf16, whatever the input.
func.func @batch_norm_backward_weight_dtype(%g: tensor<2x6xf32>, %x: tensor<2x6xf32>, %w: tensor<6xbf16>) {
  // expected-error @+1 {{'tp.batch_norm_backward' op result #1 has element type 'f32' but the operands imply 'bf16'}}
  %r:3 = tp.batch_norm_backward %g, %x weight(%w) : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6xbf16>) -> (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @avg_pool2d_divisor(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.avg_pool2d' op divisor_override must be positive, got 0}}
  %r = tp.avg_pool2d %x {kernel_size = array<i64: 2>, divisor_override = 0 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

func.func @max_pool2d_with_indices_shape(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.max_pool2d_with_indices' op result #1 has shape 1x2x4x4 but the operands imply 1x2x2x2}}
  %r, %i = tp.max_pool2d_with_indices %x {kernel_size = array<i64: 2>} : (tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x4x4xi64>)
  return
}

// -----

func.func @avg_pool2d_backward_grad(%g: tensor<1x2x3x3xf32>, %x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.avg_pool2d_backward' op grad_output dim 2 must equal the output's (3 vs 2)}}
  %r = tp.avg_pool2d_backward %g, %x {kernel_size = array<i64: 2>} : (tensor<1x2x3x3xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @max_pool2d_backward_indices(%g: tensor<1x2x2x2xf32>, %x: tensor<1x2x4x4xf32>, %i: tensor<1x2x2x2xf32>) {
  // expected-error @+1 {{'tp.max_pool2d_with_indices_backward' op expected indices to be an integer tensor, got 'tensor<1x2x2x2xf32>'}}
  %r = tp.max_pool2d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @max_pool2d_backward_indices_shape(%g: tensor<1x2x2x2xf32>, %x: tensor<1x2x4x4xf32>, %i: tensor<1x2x2x1xi64>) {
  // expected-error @+1 {{'tp.max_pool2d_with_indices_backward' op indices must have grad_output's shape 1x2x2x2, got 1x2x2x1}}
  %r = tp.max_pool2d_with_indices_backward %g, %x, %i {kernel_size = array<i64: 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>, tensor<1x2x2x1xi64>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @adaptive_backward_rank(%g: tensor<2x1x1xf32>, %x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.adaptive_avg_pool2d_backward' op grad_output must have the input's rank (4), got 2x1x1}}
  %r = tp.adaptive_avg_pool2d_backward %g, %x : (tensor<2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @adaptive_backward_lead(%g: tensor<1x3x1x1xf32>, %x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.adaptive_avg_pool2d_backward' op grad_output dim 1 must equal the input's (3 vs 2)}}
  %r = tp.adaptive_avg_pool2d_backward %g, %x : (tensor<1x3x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @adaptive_backward_empty(%g: tensor<1x2x0x1xf32>, %x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'tp.adaptive_avg_pool2d_backward' op grad_output's spatial sizes (the output size) must be positive}}
  %r = tp.adaptive_avg_pool2d_backward %g, %x : (tensor<1x2x0x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}


// -----

func.func @slice_step(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.slice' op slice step must be positive, got 0}}
  %r = tp.slice %x {step = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'tp.slice' op cannot slice a 0-d tensor}}
  %r = tp.slice %x : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @slice_length(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.slice' op result #0 has shape 4x8 but the operands imply 4x3}}
  %r = tp.slice %x {dim = -1 : i64, start = -3 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tp.slice' op dim 2 is out of range}}
  %r = tp.slice %x {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_backward_rank(%g: tensor<4x5xf32>) {
  // expected-error @+1 {{'tp.slice_backward' op input_sizes must have grad_output's rank (2), got 1 values}}
  %r = tp.slice_backward %g {input_sizes = array<i64: 8>} : (tensor<4x5xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @slice_backward_negative(%g: tensor<4x5xf32>) {
  // expected-error @+1 {{'tp.slice_backward' op input_sizes must not be negative}}
  %r = tp.slice_backward %g {input_sizes = array<i64: 4, -1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @slice_backward_grad(%g: tensor<4x5xf32>) {
  // expected-error @+1 {{'tp.slice_backward' op grad_output dim 1 must equal the slice's (5 vs 3)}}
  %r = tp.slice_backward %g {dim = 1 : i64, start = 5 : i64, input_sizes = array<i64: 4, 8>} : (tensor<4x5xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @sdpa_gqa_heads(%q: tensor<2x6x4x8xf32>, %k: tensor<2x4x5x8xf32>, %v: tensor<2x4x5x8xf32>) {
  // expected-error @+1 {{enable_gqa needs the query's head count (6) to be a multiple of the key's (4) and the value's (4) to equal the key's}}
  %r = tp.scaled_dot_product_attention %q, %k, %v {enable_gqa = true} : (tensor<2x6x4x8xf32>, tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32>) -> tensor<2x6x4x8xf32>
  return
}

// -----

func.func @fake_quantize_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{zero_point (200) must lie in [quant_min, quant_max] = [-128, 127]}}
  %r = tp.fake_quantize_per_tensor_affine %x {quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.1 : f64, zero_point = 200 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_scale(%x: tensor<4xf32>) {
  // expected-error @+1 {{scale must be positive and finite, got 0.000000e+00}}
  %r = tp.fake_quantize_per_tensor_affine %x {quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.0 : f64, zero_point = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{expects a floating input (as tensorplay's fake_quantize_per_tensor_affine), got 'tensor<4xi32>'}}
  %r = tp.fake_quantize_per_tensor_affine %x {quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.1 : f64, zero_point = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return
}


// -----

func.func @fake_quantize_crossed(%x: tensor<4xf32>) {
  // expected-error @+1 {{quant_min (5) must not exceed quant_max (-5)}}
  %r = tp.fake_quantize_per_tensor_affine %x {quant_max = -5 : i64, quant_min = 5 : i64, scale = 0.1 : f64, zero_point = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @mha_qkv_cols(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x8xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{qkv_weight must have embed_dim columns (8 vs 16)}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x8xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_qkv_bias(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<16xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{qkv_bias must have 3 x embed_dim elements (16 vs 48)}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_proj_cols(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x4xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{proj_weight must have embed_dim columns (4 vs 16)}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_proj_bias(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<48xf32>) {
  // expected-error @+1 {{proj_bias must have embed_dim elements (48 vs 16)}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<48xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_bias_rank(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<1x16xf32>) {
  // expected-error @+1 {{expected a 1-D proj_bias of rank 1, got rank 2}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<1x16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_qkv_bias_rank(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<1x48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{expected a 1-D qkv_bias of rank 1, got rank 2}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<1x48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_key(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x6x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>) {
  // expected-error @+1 {{key and value must both be [batch, S, embed_dim] with the query's batch (2x5x16), got 2x7x16 and 2x6x16}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x6x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_mask_dtype(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>, %m: tensor<2x7xf32>) {
  // expected-error @+1 {{mask must be boolean (true where masked), got 'tensor<2x7xf32>'}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb mask(%m) {embed_dim = 16 : i64, num_head = 4 : i64, mask_type = 1 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x7xf32>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_padding_mask(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>, %m: tensor<2x6xi1>) {
  // expected-error @+1 {{a key padding mask (mask_type 1) must be [batch, S] = 2x7, got 2x6}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb mask(%m) {embed_dim = 16 : i64, num_head = 4 : i64, mask_type = 1 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x6xi1>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @mha_mask_shape(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>, %qw: tensor<48x16xf32>, %qb: tensor<48xf32>, %pw: tensor<16x16xf32>, %pb: tensor<16xf32>, %m: tensor<3x7xi1>) {
  // expected-error @+1 {{mask of shape 3x7 does not broadcast to the scores' 2x4x5x7}}
  %o, %w = tp.native_multi_head_attention %q, %k, %v, %qw, %qb, %pw, %pb mask(%m) {embed_dim = 16 : i64, num_head = 4 : i64} : (tensor<2x5x16xf32>, tensor<2x7x16xf32>, tensor<2x7x16xf32>, tensor<48x16xf32>, tensor<48xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<3x7xi1>) -> (tensor<2x5x16xf32>, tensor<2x5x7xf32>)
  return
}

// -----

func.func @eigvalsh_uplo(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{UPLO must be 'L' or 'U', got 'X'}}
  %r = tp.linalg_eigvalsh %a {UPLO = "X"} : (tensor<3x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @qr_mode(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{mode must be 'reduced', 'complete' or 'r', got 'bogus'}}
  %q, %r = tp.linalg_qr %a {mode = "bogus"} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @lstsq_driver_name(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{driver must be one of gels, gelsy, gelsd, gelss, got 'gelsx'}}
  %x, %r, %k, %s = tp.linalg_lstsq %a, %b {driver = "gelsx"} : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)
  return
}

// -----

func.func @ctc_backward_grad_dtype(%g: tensor<4xi64>, %lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected a floating grad_output, got 'tensor<4xi64>'}}
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<4xi64>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<50x4x20xf32>
  return
}

// -----

func.func @ctc_backward_grad_shape(%g: tensor<f32>, %lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xi64>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{grad_output must hold one value per sample (shape 4), got scalar}}
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<f32>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<50x4x20xf32>
  return
}

// -----

func.func @ctc_backward_operands(%g: tensor<4xf32>, %lp: tensor<50x4x20xf32>, %t: tensor<4x30xi64>, %il: tensor<4xf32>, %tl: tensor<4xi64>) {
  // expected-error @+1 {{expected input_lengths to hold integer class indices, got 'tensor<4xf32>'}}
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<4xf32>, tensor<50x4x20xf32>, tensor<4x30xi64>, tensor<4xf32>, tensor<4xi64>) -> tensor<50x4x20xf32>
  return
}

// -----

func.func @rnn_layer_mode(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{mode must be 0 (RNN_RELU), 1 (RNN_TANH), 2 (LSTM) or 3 (GRU), got 4}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 4 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_cx(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x4xf32>) {
  // expected-error @+1 {{cx must have hx's shape 2x3, got 2x4}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x4xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

// The batch of a sequence-first input is its dimension 1.
func.func @rnn_layer_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{input and hx batch sizes differ (3 vs 2)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x3x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_w0_rank(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4x1xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{expected a 2-D weight0 of rank}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4x1xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_w1_rank(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{expected a 2-D weight1 of rank}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

// An LSTM (mode 2) has 4 gates.
func.func @rnn_layer_w0_rows(%a0: tensor<2x2x4xf32>, %a1: tensor<9x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{weight0 must have gates x hidden_size rows (9 vs 12)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<9x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

// The sweep's finding: features that weight0 does not take aborted the decomposition.
func.func @rnn_layer_w0_cols(%a0: tensor<2x2x1xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{weight0 columns must equal input features (4 vs 1)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x1xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

// A GRU (mode 3) has 3 gates.
func.func @rnn_layer_w1_rows(%a0: tensor<2x2x4xf32>, %a1: tensor<9x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{weight1 must have gates x hidden_size rows (12 vs 9)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 3 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<9x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_w1_cols(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x4xf32>, %a3: tensor<12xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{weight1 columns must equal hidden_size (4 vs 3)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_bias_rank(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<12xf32>, %a4: tensor<12x1xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{expected 1-D biases (weight2, weight3) of rank}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12x1xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @rnn_layer_bias_size(%a0: tensor<2x2x4xf32>, %a1: tensor<12x4xf32>, %a2: tensor<12x3xf32>, %a3: tensor<11xf32>, %a4: tensor<12xf32>, %a5: tensor<2x3xf32>, %a6: tensor<2x3xf32>) {
  // expected-error @+1 {{biases must have gates x hidden_size elements (11 vs 12)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %a0, %a1, %a2, %a3, %a4, %a5, %a6 {reverse = false, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<11xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return
}

// -----

func.func @multilabel_margin_no_classes(%x: tensor<4x0xf32>, %t: tensor<4x0xi64>) {
  // expected-error @+1 {{expected a non-empty vector or matrix with optional 0-dim batch size (as tensorplay), got 4x0}}
  %l = tp.multilabel_margin_loss %x, %t : (tensor<4x0xf32>, tensor<4x0xi64>) -> tensor<f32>
  return
}

// -----

func.func @multi_margin_no_classes(%x: tensor<0xf32>, %t: tensor<i64>) {
  // expected-error @+1 {{expected a non-empty vector or matrix with optional 0-dim batch size (as tensorplay), got 0}}
  %l = tp.multi_margin_loss %x, %t : (tensor<0xf32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

// The issue's program: the query's batch [2, 4, 16] and the key's [2, 4]
// do not broadcast (the decomposition's product aborted).
func.func @sdpa_batch_q_k(%q: tensor<2x4x16x2x8xf32>, %k: tensor<2x4x12x8xf32>, %v: tensor<2x4x12x8xf32>) {
  // expected-error @+1 {{the query's batch dimensions 2x4x16 and the key's 2x4 do not broadcast}}
  %r = tp.scaled_dot_product_attention %q, %k, %v : (tensor<2x4x16x2x8xf32>, tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>) -> tensor<2x4x16x2x8xf32>
  return
}

// -----

func.func @sdpa_batch_v(%q: tensor<2x3x4x8xf32>, %k: tensor<3x5x8xf32>, %v: tensor<4x5x6xf32>) {
  // expected-error @+1 {{the batch dimensions of query and key 2x3 and the value's 4 do not broadcast}}
  %r = tp.scaled_dot_product_attention %q, %k, %v : (tensor<2x3x4x8xf32>, tensor<3x5x8xf32>, tensor<4x5x6xf32>) -> tensor<2x3x4x6xf32>
  return
}

// -----

// The shape sweep's finding: the rule made a -1 time dimension.
func.func @conv_tbc_kernel_too_long(%x: tensor<1x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{the kernel (3) is longer than the padded input (1 + 2 x 0)}}
  %r = tp.conv_tbc %x, %w, %b : (tensor<1x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// The function attributes passes leave for later ones (TPFunctionAttrs.h)
//===----------------------------------------------------------------------===//

// -----

func.func @gradient_of_not_on_a_function() {
  // expected-error @+1 {{tp.gradient_of belongs on a function}}
  %c = arith.constant {tp.gradient_of = {function = @f, wrt = array<i64: 0>}} 0 : i32
  return
}

// -----

// expected-error @+1 {{malformed tp.gradient_of: expected {function = @f, wrt = array<i64: ...>} with distinct argument indices}}
func.func @gradient_of_twice(%x: tensor<4xf32>) attributes {tp.gradient_of = {function = @f, wrt = array<i64: 0, 0>}} {
  return
}

// -----

// expected-error @+1 {{malformed tp.train_step: expected the layout and options tp-train-step records}}
func.func @train_step_without_options(%x: tensor<4xf32>) attributes {tp.train_step = {function = "f", params = array<i64: 0>, state = []}} {
  return
}

// -----

// A key of the wrong kind (lr an integer).
// expected-error @+1 {{malformed tp.train_step}}
func.func @train_step_integer_lr(%x: tensor<4xf32>) attributes {tp.train_step = {function = "f", params = array<i64: 0>, state = [], options = {num_inputs = 0 : i64, optimizer = "sgd", lr = 1 : i64, momentum = 0.0 : f64, dampening = 0.0 : f64, nesterov = false, weight_decay = 0.0 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, eps = 1.0e-8 : f64, amsgrad = false, maximize = false, grad_scaler = false, growth_factor = 2.0 : f64, backoff_factor = 0.5 : f64, growth_interval = 2000 : i64}}} {
  return
}

// -----

// expected-error @+1 {{malformed tp.cast_arguments: expected ascending argument indices below 1}}
func.func @cast_arguments_out_of_range(%x: tensor<4xf32>) attributes {tp.cast_arguments = array<i64: 0, 1>} {
  return
}

// -----

// expected-error @+1 {{tp.donate must be an array<i64> with one entry per result}}
func.func @donate_not_an_array(%x: tensor<4xf32>) -> tensor<4xf32> attributes {tp.donate = 0 : i64} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{tp.donate has 2 entries for 1 results}}
func.func @donate_count(%x: tensor<4xf32>) -> tensor<4xf32> attributes {tp.donate = array<i64: 0, 0>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{tp.donate: result #0 names argument #3, which does not exist}}
func.func @donate_range(%x: tensor<4xf32>) -> tensor<4xf32> attributes {tp.donate = array<i64: 3>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{tp.donate: argument #0 is donated twice}}
func.func @donate_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.donate = array<i64: 0, 0>} {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @cast_saturate_not_f8(%a: tensor<4xf32>) {
  // expected-error @+1 {{saturate applies to casts to f8E4M3FN or f8E5M2, not 'f16'}}
  %r = tp.cast %a {saturate} : tensor<4xf32> to tensor<4xf16>
  return
}

// -----

func.func @cast_complex_f8(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{casts between 'complex<f32>' and 'f8E5M2' are not supported: f8 values convert to and from real types}}
  %r = tp.cast %a : tensor<4xcomplex<f32>> to tensor<4xf8E5M2>
  return
}

// -----

// No op but tp.cast takes f8 tensors.
func.func @add_f8(%a: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{'tp.add' op operand #0 must be ranked tensor of}}
  %r = tp.add %a, %a : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return
}

// -----

func.func @all_reduce_kind(%g: tensor<4xf32>) {
  // expected-error @+1 {{kind must be "sum" or "max", got "mean"}}
  %r = tp.all_reduce "mean" %g : tensor<4xf32>
  return
}

// -----

func.func @all_reduce_empty() {
  // expected-error @+1 {{needs at least one tensor to reduce}}
  "tp.all_reduce"() {kind = "sum"} : () -> ()
  return
}

// -----

func.func @all_reduce_mixed(%f: tensor<f32>, %g: tensor<4xf64>) {
  // expected-error @+1 {{reduces its tensors in one buffer: they must share one element type, got 'f32' and 'f64'}}
  %r:2 = tp.all_reduce "sum" %f, %g : tensor<f32>, tensor<4xf64>
  return
}

// -----

func.func @all_reduce_dynamic(%g: tensor<?xf32>) {
  // expected-error @+1 {{needs static shapes, got 'tensor<?xf32>'}}
  %r = tp.all_reduce "sum" %g : tensor<?xf32>
  return
}

// -----

func.func @all_reduce_too_large(%a: tensor<65536x32768xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{packs 2147483649 elements into one MPI call, which takes at most 2^31 - 1 (split the tensors over several all-reduces)}}
  %r:2 = tp.all_reduce "sum" %a, %b : tensor<65536x32768xf32>, tensor<1xf32>
  return
}
