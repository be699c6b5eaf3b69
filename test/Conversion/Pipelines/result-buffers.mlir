// Results are computed in the out-params the caller passes (buffer-results-
// to-out-params with hoist-static-allocs), not in buffers of their own
// copied there at the end; a value returned at several positions is
// computed in the first and copied into the others (tp-distinct-result-
// buffers). Without those, the ResNet training forward copied each of its
// saved activations once more per call.
// RUN: tp-opt %s --split-input-file --tp-lower-to-cpu="to-llvm=0" | FileCheck %s
// RUN: tp-opt %s --split-input-file --tp-lower-to-cpu="to-llvm=0 use-onednn=0 parallel=0" | FileCheck %s --check-prefix=PORTABLE

// CHECK-LABEL: func.func @plain(%arg0: memref<4x16xf32>, %arg1: memref<4x16xf32>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: vector.transfer_write %{{.*}}, %arg1[
// CHECK-NOT: memref.copy
// CHECK: return
// PORTABLE-LABEL: func.func @plain(
// PORTABLE-NOT: memref.copy
// PORTABLE: return
func.func @plain(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %y = tp.exp %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A value returned twice, and an argument returned: copies for what the
// function does not compute.
// CHECK-LABEL: func.func @twice(%arg0: memref<4x16xf32>, %arg1: memref<4x16xf32>, %arg2: memref<4x16xf32>, %arg3: memref<4x16xf32>)
// CHECK-NOT: memref.alloc
// CHECK: vector.transfer_write %{{.*}}, %arg1[
// CHECK: memref.copy %arg1, %arg2
// CHECK-NEXT: memref.copy %arg0, %arg3
// CHECK-NEXT: return
func.func @twice(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %y = tp.exp %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %y, %x : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A result read after it is computed (a training forward's saved
// activation): the product writes the out-param, and the ops after it read
// it there.
// CHECK-LABEL: func.func @saved(%arg0: memref<8x16xf32>, %arg1: memref<16x16xf32>, %arg2: memref<8x16xf32>, %arg3: memref<8x16xf32>)
// CHECK: %[[H:.*]] = memref.cast %arg3 : memref<8x16xf32> to memref<*xf32>
// CHECK: call @tp_rt_dnnl_matmul_f32_f32({{.*}}, %[[H]], {{.*}})
// CHECK: vector.transfer_read %arg3[
// CHECK: vector.transfer_write %{{.*}}, %arg2[
// CHECK-NOT: memref.copy
// CHECK: return
func.func @saved(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %h = tp.linear %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %r = tp.relu %h : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r, %h : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A view of a computed value is copied (only allocations are computed in
// place); the value itself, returned too, is computed in its out-param.
// CHECK-LABEL: func.func @view(%arg0: memref<4x16xf32>, %arg1: memref<4x16xf32>, %arg2: memref<64xf32>)
// CHECK-NOT: memref.alloc
// CHECK: vector.transfer_write %{{.*}}, %arg1[
// CHECK: %[[V:.*]] = memref.collapse_shape %arg1
// CHECK: memref.copy %[[V]], %arg2
// CHECK-NEXT: return
func.func @view(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<64xf32>) {
  %y = tp.exp %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %v = tp.reshape %y {shape = array<i64: 64>} : (tensor<4x16xf32>) -> tensor<64xf32>
  return %y, %v : tensor<4x16xf32>, tensor<64xf32>
}
