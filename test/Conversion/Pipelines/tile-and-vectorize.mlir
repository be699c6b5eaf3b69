// RUN: tp-opt %s --convert-tp-to-linalg --canonicalize --tp-fuse-elementwise --tp-tile-and-vectorize --canonicalize --split-input-file | FileCheck %s

// Elementwise: an scf.forall over row blocks, then vectors of 64 lanes.
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (8)
// CHECK: vector.transfer_read {{.*}} : tensor<256x1024xf32>, vector<1x64xf32>
// CHECK: math.erf %{{.*}} : vector<1x64xf32>
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
