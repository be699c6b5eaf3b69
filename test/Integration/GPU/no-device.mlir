// Without a GPU, tp-run --device=cuda compiles the module (tp-lower-to-nvvm,
// the JIT linking the GPU runtime's mgpu* and cuBLASLt entry points) and
// then says why it cannot run, with exit status 1.
// UNSUPPORTED: cuda-device
// RUN: not tp-run --device=cuda --autocast=cuda:fp16 %tp_src_root/examples/mlp.mlir 2>&1 | FileCheck %s
// RUN: not tp-run --device=cuda %s 2>&1 | FileCheck %s
// RUN: not tp-run --device=cuda %s --pipeline-options="chip=sm_52" 2>&1 | FileCheck %s --check-prefix=OPTIONS

// CHECK: tp-run: --device=cuda: the module compiled for the GPU, but no CUDA device is available: {{.+}}
// OPTIONS: tp-run: tp-lower-to-nvvm: chip must be sm_80 or sm_90, got 'sm_52'

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = tp.softmax %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
