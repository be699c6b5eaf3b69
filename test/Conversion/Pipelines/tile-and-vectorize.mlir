// RUN: tp-opt %s --convert-tp-to-linalg --canonicalize --tp-fuse-elementwise --tp-tile-and-vectorize --canonicalize --split-input-file | FileCheck %s

// Elementwise: an scf.forall over row blocks, then vectors of 64 lanes.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (8)
// CHECK: vector.transfer_read {{.*}} : tensor<256x1024xf32>, vector<1x64xf32>
// CHECK: math.erfc %{{.*}} : vector<1x64xf32>
// CHECK: vector.transfer_write
func.func @elementwise(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %r = tp.gelu %x : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %r : tensor<256x1024xf32>
}

// -----

// Matmul (no oneDNN): C blocks in parallel, K panels, 8 x 32 register
// tiles contracted with the accumulator carried in registers across k.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall
// CHECK: scf.for {{.*}} step %c256
// CHECK: scf.for {{.*}} step %c8
// CHECK: scf.for {{.*}} step %c32
// CHECK: vector.transfer_read {{.*}} vector<8x32xf32>
// CHECK: scf.for {{.*}} step %c1 iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<512x256xf32>) -> tensor<256x256xf32> {
  %r = tp.mm %a, %b : (tensor<256x512xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// bf16 operands: the contraction widens in vector.contract.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK: vector.contract {{.*}} : vector<8x1xbf16>, vector<1x32xbf16> into vector<8x32xf32>
func.func @matmul_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %r = tp.mm %a, %b : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}

// -----

// Row reductions: a whole row per vector reduction.
// CHECK-LABEL: func.func @row_sum
// CHECK: scf.forall
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<1x512xf32> to vector<1xf32>
func.func @row_sum(%x: tensor<64x512xf32>) -> tensor<64xf32> {
  %r = tp.sum %x {dim = array<i64: 1>} : (tensor<64x512xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A full reduction of a broadcast product: rows of the product reduced into
// a scalar carried across the rows. The unit row dimension is cast away
// before the reduction (no vector.contract with a reduction dimension of
// one operand only). 2^18 terms accumulate in f64 (kLongReduction).
// CHECK-LABEL: func.func @full_sum_broadcast_product
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<f64>)
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<1x1024xf32>
// CHECK: %[[W:.*]] = arith.extf %[[P]] : vector<1x1024xf32> to vector<1x1024xf64>
// CHECK: %[[R:.*]] = vector.shape_cast %[[W]] : vector<1x1024xf64> to vector<1024xf64>
// CHECK: vector.multi_reduction <add>, %[[R]], %{{.*}} [0] : vector<1024xf64> to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK-NOT: vector.contract
func.func @full_sum_broadcast_product(%x: tensor<256x1024xf32>, %w: tensor<1024xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<256x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %r = tp.sum %m : (tensor<256x1024xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A product contracted over its two innermost dims of three: every reduced
// unit dimension goes, the row is reduced into the scalar.
// CHECK-LABEL: func.func @full_mean_broadcast_product_3d
// CHECK: vector.shape_cast %{{.*}} : vector<1x1x7xf32> to vector<7xf32>
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [0] : vector<7xf32> to f32
// CHECK-NOT: vector.contract
func.func @full_mean_broadcast_product_3d(%x: tensor<3x5x7xf32>, %w: tensor<5x7xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<3x5x7xf32>, tensor<5x7xf32>) -> tensor<3x5x7xf32>
  %r = tp.mean %m : (tensor<3x5x7xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A reduction over the row dimension only (unit in the tile): the rows are
// added elementwise into the accumulator.
// CHECK-LABEL: func.func @column_sum_broadcast_product
// CHECK: scf.for {{.*}} -> (vector<64xf32>)
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<1x64xf32>
// CHECK: %[[R:.*]] = vector.shape_cast %[[P]] : vector<1x64xf32> to vector<64xf32>
// CHECK: arith.addf %[[R]], %{{.*}} : vector<64xf32>
// CHECK-NOT: vector.contract
func.func @column_sum_broadcast_product(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %m = tp.mul %x, %w : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %r = tp.sum %m {dim = array<i64: 0>} : (tensor<4x64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A constant i1 mask (a causal attention mask folded to a constant) is read
// as an i8 constant truncated in the body, so the op vectorizes (vector
// loads of i1 memory are bit-packed in LLVM; ops reading i1 stay scalar).
// CHECK-LABEL: func.func @constant_mask
// CHECK: arith.constant dense<{{\[\[}}0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]]> : tensor<4x4xi8>
// CHECK-NOT: tensor<4x4xi1>
// CHECK: vector.transfer_read {{.*}} : tensor<4x4xi8>, vector<4x4xi8>
// CHECK: arith.trunci {{.*}} to vector<1x1x4x4xi1>
// CHECK: arith.select {{.*}} : vector<1x1x4x4xi1>, vector<1x1x4x4xf32>
func.func @constant_mask(%x: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %m = tp.constant dense<[[false, true, true, true], [false, false, true, true], [false, false, false, true], [false, false, false, false]]> : tensor<4x4xi1>
  %inf = tp.constant dense<0xFF800000> : tensor<f32>
  %w = tp.where %m, %inf, %x : (tensor<4x4xi1>, tensor<f32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %e = tp.exp %w : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %e : tensor<2x8x4x4xf32>
}

// -----

// A computed mask broadcast over the op (a padding mask over attention
// scores: 8 elements for 256 iterations) is widened to i8 by its own loop,
// and the op reading it vectorizes. A mask as large as the op stays i1 (its
// widening would cost as much as the scalar op).
// CHECK-LABEL: func.func @padding_mask
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x1x1x4xi1>) outs(%{{.*}} : tensor<2x1x1x4xi8>)
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: vector.transfer_read %[[WIDE]]{{.*}} : tensor<2x1x1x4xi8>, vector<1x1x1x4xi8>
// CHECK: arith.trunci {{.*}} : vector<{{.*}}xi8> to vector<{{.*}}xi1>
// CHECK: arith.select {{.*}} : vector<{{.*}}xi1>, vector<{{.*}}xf32>
// CHECK-LABEL: func.func @full_mask
// CHECK-NOT: xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<{{.*}}xi1>
// CHECK: math.exp %{{.*}} : f32
func.func @padding_mask(%x: tensor<2x8x4x4xf32>, %m: tensor<2x1x1x4xi1>) -> tensor<2x8x4x4xf32> {
  %inf = tp.constant dense<0xFF800000> : tensor<f32>
  %w = tp.where %m, %inf, %x : (tensor<2x1x1x4xi1>, tensor<f32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %e = tp.exp %w : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %e : tensor<2x8x4x4xf32>
}

func.func @full_mask(%x: tensor<2x8x4x4xf32>, %m: tensor<2x8x4x4xi1>) -> tensor<2x8x4x4xf32> {
  %inf = tp.constant dense<0xFF800000> : tensor<f32>
  %w = tp.where %m, %inf, %x : (tensor<2x8x4x4xi1>, tensor<f32>, tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %e = tp.exp %w : (tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  return %e : tensor<2x8x4x4xf32>
}
