// tp-legalize-kernel-names: kernel modules and functions get PTX
// identifiers, unique, and the launches follow.
// RUN: tp-opt %s --tp-legalize-kernel-names | FileCheck %s

// CHECK: gpu.launch_func @tp_fn_f_kernel::@tp_fn_f_kernel
// CHECK: gpu.launch_func @tp_fn_f_kernel_0::@_1st
// CHECK: gpu.module @tp_fn_f_kernel {
// CHECK:   gpu.func @tp_fn_f_kernel() kernel
// CHECK: gpu.module @tp_fn_f_kernel_0 {
// CHECK:   gpu.func @_1st() kernel
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"tp.fn.f_kernel"::@"tp.fn.f_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @"tp-fn-f_kernel"::@"1st" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @"tp.fn.f_kernel" {
    gpu.func @"tp.fn.f_kernel"() kernel {
      gpu.return
    }
  }
  gpu.module @"tp-fn-f_kernel" {
    gpu.func @"1st"() kernel {
      gpu.return
    }
  }
}
