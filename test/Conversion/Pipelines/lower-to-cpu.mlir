// The whole pipeline to the LLVM dialect.
// RUN: tp-opt %s --tp-lower-to-cpu="use-onednn=1" | FileCheck %s
// RUN: tp-opt %s --tp-lower-to-cpu="use-onednn=0" | FileCheck %s --check-prefix=LINALG
// RUN: tp-opt %s --tp-lower-to-cpu="use-onednn=1 parallel=0" | FileCheck %s --check-prefix=SERIAL

// Results become out-parameters of the C interface.
// CHECK-DAG: llvm.func @_mlir_ciface_f(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// Buffers come from the runtime's caching allocator.
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// The product is a oneDNN call; the parallel loop (sigmoid) is an outlined
// body launched through tp_rt_parallel_for with a trampoline.
// CHECK-DAG: llvm.func @tp_rt_dnnl_matmul_f32_f32(i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64) -> i32
// CHECK-DAG: llvm.func @tp_rt_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-DAG: llvm.func @f__par0({{.*}}) attributes {{{.*}}tp.parallel_body
// CHECK-DAG: llvm.func internal @f__par0__trampoline(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-DAG: llvm.call @tp_rt_parallel_for(

// LINALG-NOT: tp_rt_dnnl
// LINALG: llvm.intr.fmuladd{{.*}}vector<32xf32>

// SERIAL-NOT: tp_rt_parallel_for
// SERIAL: llvm.call @tp_rt_dnnl_matmul_f32_f32

func.func @f(%x: tensor<256x512xf32>, %w: tensor<256x512xf32>, %b: tensor<256xf32>) -> tensor<256x256xf32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<256x512xf32>, tensor<256x512xf32>, tensor<256xf32>) -> tensor<256x256xf32>
  %g = tp.sigmoid %h : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %g : tensor<256x256xf32>
}
