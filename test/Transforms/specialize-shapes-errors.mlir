// tp-specialize-shapes' option errors: a size count that matches neither
// one size nor the ? dimensions, a negative size, no sizes at all.
// RUN: not tp-opt %s --tp-specialize-shapes="sizes=2,3" 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tp-opt %s --tp-specialize-shapes="sizes=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tp-opt %s --tp-specialize-shapes 2>&1 | FileCheck %s --check-prefix=NONE

// COUNT: error: tp-specialize-shapes: @three has 3 dynamic argument dimensions, got 2 sizes
// NEGATIVE: error: tp-specialize-shapes: sizes must be non-negative, got -2
// NONE: error: tp-specialize-shapes: no sizes given for @three
func.func @three(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = tp.add %x, %y : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
