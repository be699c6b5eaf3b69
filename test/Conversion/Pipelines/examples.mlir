// The shipped examples through autocast and the CPU pipeline: every
// linear and attention product is a bf16 oneDNN call. Linear weights are
// autocast's f32 -> bf16 casts with one user: the `cast` entry points take
// the f32 weight and round it while packing it for oneDNN (no bf16 copy of
// the weight is materialized); the attention products multiply activations.
// REQUIRES: onednn
// RUN: tp-opt --autocast=cpu:bf16 %tp_src_root/examples/mlp.mlir --tp-lower-to-cpu | FileCheck %s --check-prefix=MLP
// RUN: tp-opt --autocast=cpu:bf16 %tp_src_root/examples/encoder_block.mlir --tp-lower-to-cpu | FileCheck %s --check-prefix=ENC

// MLP-LABEL: llvm.func @mlp_loss(
// MLP-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// MLP-COUNT-5: llvm.call @tp_rt_dnnl_matmul_cast_bf16_bf16(
// MLP-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// MLP: llvm.func @_mlir_ciface_mlp_loss

// ENC-LABEL: llvm.func @encoder_block(
// ENC-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// ENC-COUNT-3: llvm.call @tp_rt_dnnl_matmul_cast_bf16_bf16(
// ENC-COUNT-2: llvm.call @tp_rt_dnnl_matmul_bf16_bf16(
// ENC-COUNT-3: llvm.call @tp_rt_dnnl_matmul_cast_bf16_bf16(
// ENC-NOT: llvm.call @tp_rt_dnnl_matmul_f32
// ENC: llvm.func @_mlir_ciface_encoder_block
