// The shipped examples parse, verify and round-trip.
// RUN: tp-opt %tp_src_root/examples/mlp.mlir | tp-opt | FileCheck %s --check-prefix=MLP
// RUN: tp-opt %tp_src_root/examples/encoder_block.mlir | tp-opt | FileCheck %s --check-prefix=ENC

// MLP-LABEL: func.func @mlp_loss
// MLP-COUNT-5: tp.linear
// MLP: tp.cross_entropy %{{.*}}, %{{.*}} : (tensor<256x10xf32>, tensor<256xi64>) -> tensor<f32>

// ENC-LABEL: func.func @encoder_block
// ENC: tp.softmax %{{.*}} {dim = -1 : i64} : (tensor<8x8x128x128xf32>) -> tensor<8x8x128x128xf32>
// ENC: tp.layer_norm
// ENC: tp.gelu
// ENC: tp.layer_norm
