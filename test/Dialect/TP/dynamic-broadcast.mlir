// Every broadcast rule accepts dynamic (?) sizes wherever a static size
// would be accepted (addmm refused self 4x8 against a 4x? product
// while tp.add took the same shapes), and still refuses static mismatches.
// RUN: tp-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @accepted
func.func @accepted(%s48: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<8x?xf32>,
                    %d: tensor<?x8xf32>, %v: tensor<?xf32>, %m: tensor<4x?xf32>,
                    %q: tensor<2x4x6x8xf32>, %k: tensor<2x4x?x8xf32>,
                    %mask: tensor<6x9xf32>, %c: tensor<4x?xi1>,
                    %x3: tensor<?x3xf32>, %b3: tensor<2x?x8xf32>, %b4: tensor<2x8x?xf32>) {
  // CHECK: tp.addmm
  %0 = tp.addmm %s48, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x?xf32>) -> tensor<4x?xf32>
  // CHECK: tp.add
  %1 = tp.add %s48, %m : (tensor<4x8xf32>, tensor<4x?xf32>) -> tensor<4x8xf32>
  %2 = tp.add %d, %v : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  // CHECK: tp.linear
  %3 = tp.linear %a, %d bias(%v) : (tensor<4x8xf32>, tensor<?x8xf32>, tensor<?xf32>) -> tensor<4x?xf32>
  // CHECK: tp.addmv
  %4 = tp.addmv %v, %a, %v : (tensor<?xf32>, tensor<4x8xf32>, tensor<?xf32>) -> tensor<4xf32>
  // CHECK: tp.addr
  %5 = tp.addr %s48, %v, %v : (tensor<4x8xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  // CHECK: tp.baddbmm
  %6 = tp.baddbmm %b4, %b3, %b4 : (tensor<2x8x?xf32>, tensor<2x?x8xf32>, tensor<2x8x?xf32>) -> tensor<2x?x?xf32>
  // CHECK: tp.where
  %7 = tp.where %c, %s48, %v : (tensor<4x?xi1>, tensor<4x8xf32>, tensor<?xf32>) -> tensor<4x8xf32>
  // CHECK: tp.scaled_dot_product_attention
  %8 = tp.scaled_dot_product_attention %q, %k, %k mask(%mask) : (tensor<2x4x6x8xf32>, tensor<2x4x?x8xf32>, tensor<2x4x?x8xf32>, tensor<6x9xf32>) -> tensor<2x4x6x8xf32>
  // CHECK: tp.mse_loss
  %9 = tp.mse_loss %m, %s48 : (tensor<4x?xf32>, tensor<4x8xf32>) -> tensor<f32>
  // CHECK: tp.matmul
  %10 = tp.matmul %b3, %b : (tensor<2x?x8xf32>, tensor<8x?xf32>) -> tensor<2x?x?xf32>
  // CHECK: tp.linalg_vecdot
  %11 = tp.linalg_vecdot %d, %v : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK: tp.cross
  %12 = tp.cross %x3, %x3 {dim = 1 : i64} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @addmm_static_mismatch(%s: tensor<3x8xf32>, %a: tensor<4x8xf32>, %b: tensor<8x?xf32>) {
  // expected-error @+1 {{self of shape 3x8 does not broadcast to the product shape 4x?}}
  %0 = tp.addmm %s, %a, %b : (tensor<3x8xf32>, tensor<4x8xf32>, tensor<8x?xf32>) -> tensor<4x?xf32>
  return
}

// -----

func.func @addmm_self_rank(%s: tensor<2x4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<8x?xf32>) {
  // expected-error @+1 {{self of shape 2x4x8 does not broadcast to the product shape 4x?}}
  %0 = tp.addmm %s, %a, %b : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<8x?xf32>) -> tensor<4x?xf32>
  return
}

// -----

func.func @linear_bias_mismatch(%x: tensor<4x8xf32>, %w: tensor<?x8xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{bias of shape 3x5 does not broadcast to 4x?}}
  %0 = tp.linear %x, %w bias(%b) : (tensor<4x8xf32>, tensor<?x8xf32>, tensor<3x5xf32>) -> tensor<4x?xf32>
  return
}

// -----

func.func @sdpa_mask_mismatch(%q: tensor<2x4x6x8xf32>, %k: tensor<2x4x?x8xf32>, %mask: tensor<5x?xf32>) {
  // expected-error @+1 {{attn_mask of shape 5x? does not broadcast to 2x4x6x?}}
  %0 = tp.scaled_dot_product_attention %q, %k, %k mask(%mask) : (tensor<2x4x6x8xf32>, tensor<2x4x?x8xf32>, tensor<2x4x?x8xf32>, tensor<5x?xf32>) -> tensor<2x4x6x8xf32>
  return
}
