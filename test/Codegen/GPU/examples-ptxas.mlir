// The shipped examples through tp-lower-to-nvvm under cuda:fp16 and
// cuda:bf16, for sm_90 and sm_80: ptxas accepts every kernel, within the
// register budget and without spills (ptxas-check.py prints each kernel's
// registers and shared memory).
// REQUIRES: ptxas
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/mlp.mlir --tp-lower-to-nvvm="format=isa" -o %t.mlp16.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.mlp16.mlir | FileCheck %s --check-prefix=MLP
// RUN: tp-opt --autocast=cuda:bf16 %tp_src_root/examples/mlp.mlir --tp-lower-to-nvvm="format=isa chip=sm_80" -o %t.mlp80.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_80 %t.mlp80.mlir | FileCheck %s --check-prefix=MLP80
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/encoder_block.mlir --tp-lower-to-nvvm="format=isa" -o %t.enc16.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.enc16.mlir | FileCheck %s --check-prefix=ENC
// RUN: tp-opt --autocast=cuda:bf16 %tp_src_root/examples/encoder_block.mlir --tp-lower-to-nvvm="format=isa" -o %t.enc-bf16.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.enc-bf16.mlir | FileCheck %s --check-prefix=ENC
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/digits_cnn.mlir --tp-lower-to-nvvm="format=isa" -o %t.cnn16.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.cnn16.mlir | FileCheck %s --check-prefix=CNN
// The train steps (forward, backward, GradScaler, fused optimizer) of the
// MLP and the encoder block.
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/mlp.mlir --tp-train-step="num-inputs=2 optimizer=sgd lr=0.1 grad-scaler=true" --tp-lower-to-nvvm="format=isa" -o %t.mlp-train.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.mlp-train.mlir | FileCheck %s --check-prefix=TRAIN
// RUN: cat %tp_src_root/examples/encoder_block.mlir %tp_src_root/bench/train/encoder_loss.mlir > %t.enc-loss.mlir
// RUN: tp-opt --autocast=cuda:fp16 %t.enc-loss.mlir --tp-train-step="function=encoder_loss num-inputs=2 optimizer=adamw lr=0.001 grad-scaler=true" --tp-lower-to-nvvm="format=isa" -o %t.enc-train.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.enc-train.mlir | FileCheck %s --check-prefix=TRAIN
// The default format embeds a fatbin (cubin + PTX), which runs ptxas and
// fatbinary from the toolkit inside gpu-module-to-binary.
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/mlp.mlir --tp-lower-to-nvvm -o %t.fatbin.mlir
// RUN: FileCheck %s --check-prefix=FATBIN < %t.fatbin.mlir

// MLP: mlp_loss_kernel
// MLP-NOT: OVER BUDGET
// MLP: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed
// MLP80: ptxas-check: {{[1-9][0-9]*}} kernels for sm_80, 0 failed
// ENC: encoder_block_kernel
// ENC-NOT: OVER BUDGET
// ENC: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed
// CNN: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed
// TRAIN-NOT: OVER BUDGET
// TRAIN: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed
// FATBIN: llvm.call @tp_rt_cublaslt_matmul_f16_f16(
// FATBIN: gpu.binary @mlp_loss_kernel  [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, "P\EDU\BA
