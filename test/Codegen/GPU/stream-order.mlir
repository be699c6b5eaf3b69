// tp-stream-order: the host's GPU ops become one async chain per block, a
// runtime call in between does not break it (no host wait before it), and
// the function waits once before returning.
// RUN: tp-opt %s --tp-stream-order | FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<16xf32>
// CHECK:         %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @k::@k
// CHECK-NOT:     gpu.wait
// CHECK:         call @library
// CHECK:         %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %arg0, %[[M]]
// CHECK:         scf.for
// CHECK:           %[[L0:.*]] = gpu.wait async
// CHECK:           gpu.launch_func async [%[[L0]]] @k::@k
// CHECK-NOT:       gpu.wait [
// CHECK:         }
// CHECK:         %[[T4:.*]] = gpu.dealloc async [%[[T3]]] %[[M]]
// CHECK-NEXT:    gpu.wait [%[[T4]]]
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  func.func private @library(memref<16xf32>)
  func.func @host(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc () : memref<16xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    call @library(%m) : (memref<16xf32>) -> ()
    gpu.memcpy %out, %m : memref<16xf32>, memref<16xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    gpu.dealloc %m : memref<16xf32>
    return
  }
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
