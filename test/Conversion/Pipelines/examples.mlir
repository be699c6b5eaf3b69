// The shipped examples through autocast and the CPU pipeline: every
// linear and attention product is a bf16 oneDNN call.
// REQUIRES: onednn
// RUN: tp-opt --autocast=cpu:bf16 %tp_src_root/examples/mlp.mlir --tp-lower-to-cpu | FileCheck %s --check-prefix=MLP
// RUN: tp-opt --autocast=cpu:bf16 %tp_src_root/examples/encoder_block.mlir --tp-lower-to-cpu | FileCheck %s --check-prefix=ENC

// MLP-LABEL: llvm.func @mlp_loss(
// MLP-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// MLP-COUNT-5: llvm.call @tp_rt_dnnl_matmul_bf16_bf16(
// MLP-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// MLP: llvm.func @_mlir_ciface_mlp_loss

// ENC-LABEL: llvm.func @encoder_block(
// ENC-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// ENC-COUNT-8: llvm.call @tp_rt_dnnl_matmul_bf16_bf16(
// ENC-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// ENC: llvm.func @_mlir_ciface_encoder_block
