// tp-device-buffers: a host function's buffers move to the device; copies
// become gpu.memcpy (contiguous) or linalg.copy (strided); constants are
// copied to the device; buffer deallocation's bookkeeping stays on the host.
// RUN: tp-opt %s --split-input-file --tp-device-buffers | FileCheck %s

// CHECK-LABEL: func.func @buffers
// CHECK-NOT:     memref.alloc
// CHECK:         %[[T:.*]] = gpu.alloc () : memref<4x8xf32>
// CHECK:         gpu.memcpy %[[T]], %arg0 : memref<4x8xf32>, memref<4x8xf32>
// CHECK:         %[[S:.*]] = gpu.alloc () : memref<16xf32>
// CHECK:         %[[V:.*]] = memref.subview %[[T]][0, 0] [4, 4] [1, 1]
// CHECK:         linalg.copy ins(%[[V]] : {{.*}}) outs(%arg1 : memref<4x4xf32>)
// CHECK:         gpu.dealloc %[[T]] : memref<4x8xf32>
// CHECK-NEXT:    gpu.dealloc %[[S]] : memref<16xf32>
// CHECK-NEXT:    return
func.func @buffers(%a: memref<4x8xf32>, %b: memref<4x4xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  memref.copy %a, %t : memref<4x8xf32> to memref<4x8xf32>
  %s = memref.alloca() : memref<16xf32>
  %v = memref.subview %t[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %v, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  memref.dealloc %t : memref<4x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK:         %[[G:.*]] = memref.get_global @table : memref<3xf32>
// CHECK:         %[[D:.*]] = gpu.alloc () : memref<3xf32>
// CHECK:         gpu.memcpy %[[D]], %[[G]]
// CHECK:         gpu.memcpy %arg0, %[[D]]
// CHECK:         gpu.dealloc %[[D]]
memref.global "private" constant @table : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
func.func @constant(%out: memref<3xf32>) {
  %g = memref.get_global @table : memref<3xf32>
  memref.copy %g, %out : memref<3xf32> to memref<3xf32>
  return
}

// -----

// CHECK-LABEL: func.func @bookkeeping
// CHECK:         gpu.alloc () : memref<8xf32>
// CHECK:         memref.alloc() : memref<1xi1>
// CHECK:         call @dealloc_helper
// CHECK:         memref.dealloc %{{.*}} : memref<1xi1>
// CHECK-LABEL: func.func private @dealloc_helper
// CHECK-NOT:     gpu.
func.func @bookkeeping(%c: i1) {
  %t = memref.alloc() : memref<8xf32>
  %flags = memref.alloc() : memref<1xi1>
  %cast = memref.cast %flags : memref<1xi1> to memref<?xi1>
  call @dealloc_helper(%cast) : (memref<?xi1>) -> ()
  memref.dealloc %flags : memref<1xi1>
  memref.dealloc %t : memref<8xf32>
  return
}
func.func private @dealloc_helper(%f: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<2xi1>
  memref.dealloc %x : memref<2xi1>
  return
}

