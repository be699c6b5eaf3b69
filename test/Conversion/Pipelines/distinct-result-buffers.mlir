// tp-distinct-result-buffers alone: a memref returned at several positions
// keeps the first, each later position returns a copy in a fresh buffer
// (dynamic sizes taken from the value); results returned once, and
// non-memref results, are left alone.
// RUN: tp-opt %s --split-input-file --tp-distinct-result-buffers | FileCheck %s

// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: return %[[A]], %[[X]], %[[B]], %[[C]], %{{.*}} : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, index
func.func @twice(%x: memref<4xf32>, %i: index) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, index) {
  %a = memref.alloc() : memref<4xf32>
  return %a, %x, %a, %a, %i : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, index
}

// -----

// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[X:.*]]: memref<?x3xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = memref.dim %[[X]], %[[C0]] : memref<?x3xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%[[D]]) : memref<?x3xf32>
// CHECK-NEXT: memref.copy %[[X]], %[[B]]
// CHECK-NEXT: return %[[X]], %[[B]] : memref<?x3xf32>, memref<?x3xf32>
func.func @dynamic(%x: memref<?x3xf32>) -> (memref<?x3xf32>, memref<?x3xf32>) {
  return %x, %x : memref<?x3xf32>, memref<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @once(
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return
func.func @once(%x: memref<4xf32>, %y: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  return %x, %y : memref<4xf32>, memref<4xf32>
}
