// Option values tp-lower-to-nvvm cannot work with are clear errors.
// RUN: not tp-opt %s --tp-lower-to-nvvm="chip=sm_70" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tp-opt %s --tp-lower-to-nvvm="format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not tp-opt %s --tp-lower-to-nvvm="block-size=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tp-opt %s --tp-lower-to-nvvm="block-size=4096" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tp-opt %s --tp-lower-to-cpu="gpu-mapping=1 gpu-block-size=0" 2>&1 | FileCheck %s --check-prefix=CPU
// A toolkit without ptxas is refused up front, naming the path.
// RUN: not tp-opt %s --tp-lower-to-nvvm="format=bin use-cublaslt=0 toolkit=%t.nowhere" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// The onednn and cublaslt product routes exclude each other.
// RUN: not tp-opt %s --convert-tp-to-runtime="onednn=1 cublaslt=1" 2>&1 | FileCheck %s --check-prefix=ROUTES

// CHIP: error: tp-lower-to-nvvm: chip must be sm_80 or sm_90, got 'sm_70'
// FORMAT: error: tp-lower-to-nvvm: format must be fatbin, bin, isa or llvm, got 'cubin'
// BLOCK: error: tp-lower-to-nvvm: block-size must be from 1 to 1024, got
// CPU: error: tp-lower-to-cpu: gpu-block-size must be from 1 to 1024, got 0
// TOOLKIT: error: tp-lower-to-nvvm: format=bin needs ptxas from the CUDA toolkit, and there is no {{.*}}nowhere/bin/ptxas (set toolkit=, or use format=isa)
// ROUTES: error: convert-tp-to-runtime: onednn and cublaslt exclude each other

func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = tp.mm %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
