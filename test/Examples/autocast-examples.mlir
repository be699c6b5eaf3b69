// The README's main job: autocast on the shipped examples, with the report;
// running the pass again on its output changes nothing.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=- %tp_src_root/examples/mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: tp-opt --autocast=cpu:bf16 --autocast-report=- %tp_src_root/examples/encoder_block.mlir | FileCheck %s --check-prefix=ENC
// RUN: tp-opt --autocast=cuda:fp16 %tp_src_root/examples/encoder_block.mlir -o %t.1.mlir
// RUN: tp-opt --autocast=cuda:fp16 %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// MLP: tp.cross_entropy cuda fp32 f32 fp32 list #0 f16->f32
// MLP: summary: 10 ops (f16: 9, f32: 1), 12 casts inserted
// MLP-LABEL: func.func @mlp_loss
// MLP-SAME: -> (tensor<f32>, tensor<256x10xf16>)
// MLP-COUNT-5: tp.linear {{.*}} -> tensor<256x{{[0-9]+}}xf16>

// The attention scale is a tp.constant: listed, left alone.
// ENC: tp.constant cpu unlisted f32 ineligible: no floating operand
// Softmax and layer_norm are not on the cpu lists: softmax runs in bf16
// (its input comes from a bf16 matmul); the residual adds promote to f32
// (the input x is f32), so the layer norms run in f32.
// ENC: tp.softmax cpu unlisted bf16
// ENC: tp.add cpu unlisted f32
// ENC: tp.layer_norm cpu unlisted f32
// ENC: summary: 24 ops (bf16: 19, f32: 5)
// ENC-LABEL: func.func @encoder_block
// ENC-SAME: -> tensor<8x128x512xf32>
