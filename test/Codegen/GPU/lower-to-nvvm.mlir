// tp-lower-to-nvvm on a small program: the product goes to cuBLASLt with its
// ReLU as the epilogue, the rest becomes kernels mapped to blocks and
// threads, and the module ends as host LLVM code calling the mgpu* wrappers
// with the kernels as PTX for the chosen architecture.
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-lower-to-nvvm="to-llvm=0" | FileCheck %s --check-prefix=KERNELS
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-lower-to-nvvm="format=isa" | FileCheck %s --check-prefix=SM90
// RUN: tp-opt %s --autocast=cuda:bf16 --tp-lower-to-nvvm="format=isa chip=sm_80 block-size=128" | FileCheck %s --check-prefix=SM80
// RUN: tp-opt %s --tp-lower-to-nvvm="format=isa use-cublaslt=0" | FileCheck %s --check-prefix=NOLT

// KERNELS:       func.func private @tp_rt_cublaslt_matmul_f16_f16(
// KERNELS-LABEL: func.func @head
// KERNELS:         %[[RELU:.*]] = arith.constant 1 : i64
// KERNELS:         gpu.alloc
// KERNELS:         gpu.launch_func @head_kernel::@head_kernel blocks in
// KERNELS:         call @tp_rt_cublaslt_matmul_f16_f16({{.*}}, %[[RELU]])
// KERNELS:         gpu.launch_func
// KERNELS:         gpu.dealloc
// KERNELS:       gpu.module @head_kernel
// KERNELS:         gpu.func @head_kernel({{.*}}) kernel
// KERNELS:           gpu.block_id x
// KERNELS:           gpu.thread_id x

// SM90:      llvm.func @head(
// SM90:        llvm.call @mgpuStreamCreate()
// SM90:        llvm.call @mgpuMemAlloc(
// SM90:        gpu.launch_func
// SM90:        llvm.call @tp_rt_cublaslt_matmul_f16_f16(
// SM90:        llvm.call @mgpuStreamSynchronize(
// SM90:      gpu.binary @head_kernel  [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}.target sm_90{{.*}}.entry head_kernel

// SM80:      llvm.call @tp_rt_cublaslt_matmul_bf16_bf16(
// SM80:      gpu.binary @head_kernel  [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}.target sm_80{{.*}}.maxntid 128, 1, 1

// NOLT-NOT:  tp_rt_cublaslt
// NOLT:      gpu.binary
// NOLT-NOT:  tp_rt_cublaslt

func.func @head(%x: tensor<64x128xf32>, %w: tensor<32x128xf32>,
                %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<64x128xf32>, tensor<32x128xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %r = tp.relu %h : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %s = tp.softmax %r {dim = 1 : i64} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}
