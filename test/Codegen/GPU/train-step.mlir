// A compiled mixed-precision train step on the GPU: the products call
// cuBLASLt in f16, the GradScaler and the optimizer call the runtime's CUDA
// kernels (unscale + found_inf, the scale update, fused SGD skipped on
// found_inf) on the compiled code's stream, and the step synchronizes with
// the host once, at its end (tp-stream-order).
// RUN: tp-opt --autocast=cuda:fp16 %s --tp-train-step="num-inputs=2 optimizer=sgd lr=0.1 momentum=0.9 grad-scaler=true" --tp-lower-to-nvvm="format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: tp-opt --autocast=cuda:bf16 %s --tp-train-step="num-inputs=2 optimizer=adamw lr=0.001" --tp-lower-to-nvvm="format=isa" | FileCheck %s --check-prefix=ADAMW
// RUN: %if ptxas %{ %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.mlir | FileCheck %s --check-prefix=PTXAS %}

// CHECK-LABEL: llvm.func @loss_train_step(
// CHECK:         llvm.call @mgpuStreamCreate()
// CHECK:         llvm.call @tp_rt_cublaslt_matmul_f16_f16(
// CHECK:         gpu.launch_func
// CHECK:         llvm.call @tp_rt_codegen_cuda_check_finite_f32(
// CHECK:         llvm.call @tp_rt_codegen_cuda_sgd_step_f32(
// CHECK:         llvm.call @tp_rt_codegen_cuda_update_scale(
// CHECK:         llvm.call @mgpuStreamSynchronize(
// CHECK-NOT:     llvm.call @mgpuStreamSynchronize(
// CHECK:         llvm.return

// ADAMW-LABEL: llvm.func @loss_train_step(
// ADAMW:         llvm.call @tp_rt_cublaslt_matmul_bf16_bf16(
// ADAMW:         llvm.call @tp_rt_codegen_cuda_adamw_step_f32(
// ADAMW-NOT:     tp_rt_codegen_check_finite
// ADAMW-NOT:     tp_rt_codegen_adamw

// PTXAS: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed

func.func @loss(%x: tensor<32x64xf32>, %labels: tensor<32xi64>,
                %w0: tensor<64x64xf32>, %b0: tensor<64xf32>,
                %w1: tensor<10x64xf32>, %b1: tensor<10xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w0 bias(%b0) : (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %a = tp.gelu %h : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %logits = tp.linear %a, %w1 bias(%b1) : (tensor<32x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = tp.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}
