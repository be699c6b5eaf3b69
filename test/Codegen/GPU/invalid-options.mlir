// Option values tp-lower-to-nvvm cannot work with are clear errors.
// RUN: not tp-opt %s --tp-lower-to-nvvm="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tp-opt %s --tp-lower-to-nvvm="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not tp-opt %s --tp-lower-to-nvvm="block-size=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tp-opt %s --tp-lower-to-nvvm="block-size=4096" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tp-opt %s --tp-lower-to-cpu="gpu-mapping=1 gpu-block-size=0" 2>&1 | FileCheck %s --check-prefix=CPU
// A toolkit without ptxas is refused up front, naming the path.
// RUN: not tp-opt %s --tp-lower-to-nvvm="format=bin use-cublaslt=0 toolkit=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// oneDNN calls cannot take device buffers; a device is cpu or cuda.
// RUN: not tp-opt %s --convert-tp-to-runtime="onednn=1 device=cuda" 2>&1 | FileCheck %s --check-prefix=ROUTES
// RUN: not tp-opt %s --convert-tp-to-runtime="onednn=0 device=tpu" 2>&1 | FileCheck %s --check-prefix=DEVICE

// CHIP: error: tp-lower-to-nvvm: chip must be sm_80 or sm_90, got 'sm_70'
// FORMAT: error: tp-lower-to-nvvm: format must be fatbin, bin, isa or llvm, got 'cubin'
// BLOCK: error: tp-lower-to-nvvm: block-size must be from 1 to 1024, got
// CPU: error: tp-lower-to-cpu: gpu-block-size must be from 1 to 1024, got 0
// TOOLKIT: error: tp-lower-to-nvvm: format=bin needs ptxas from the CUDA toolkit, and there is no {{.*}}nowhere/bin/ptxas (set toolkit=, or use format=isa)
// ROUTES: error: convert-tp-to-runtime: onednn=1 calls oneDNN on host buffers; device=cuda needs onednn=0
// DEVICE: error: convert-tp-to-runtime: device must be cpu or cuda, got 'tpu'

func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = tp.mm %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
