// Option values the pipeline cannot work with are clear errors, not crashes
// (a zero vector width used to divide by zero in tp-tile-and-vectorize).
// RUN: not tp-opt %s --tp-lower-to-cpu="vector-width=0 use-onednn=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tp-opt %s --tp-lower-to-cpu="vector-width=-16" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tp-opt %s --tp-lower-to-cpu="vector-width=24" 2>&1 | FileCheck %s --check-prefix=NOTPOW2
// RUN: not tp-opt %s --tp-lower-to-cpu="vector-width=1024" 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not tp-opt %s --tp-tile-and-vectorize="vector-width=0" 2>&1 | FileCheck %s --check-prefix=PASS
// Without vectorization the width is unused: any value is accepted.
// RUN: tp-opt %s --tp-lower-to-cpu="vector-width=0 vectorize=0 use-onednn=0" | FileCheck %s --check-prefix=SCALAR
// A valid small width still tiles and vectorizes.
// RUN: tp-opt %s --tp-lower-to-cpu="vector-width=4 use-onednn=0" | FileCheck %s --check-prefix=WIDTH4

// ZERO: error: tp-lower-to-cpu: vector-width must be a power of two from 1 to 512, got 0
// NEGATIVE: error: tp-lower-to-cpu: vector-width must be a power of two from 1 to 512, got -16
// NOTPOW2: error: tp-lower-to-cpu: vector-width must be a power of two from 1 to 512, got 24
// LARGE: error: tp-lower-to-cpu: vector-width must be a power of two from 1 to 512, got 1024
// PASS: error: tp-tile-and-vectorize: vector-width must be a power of two from 1 to 512, got 0
// SCALAR: llvm.func @f(
// WIDTH4: llvm.intr.fmuladd{{.*}}vector<8xf32>

func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = tp.mm %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
