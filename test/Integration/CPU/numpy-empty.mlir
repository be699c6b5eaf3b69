// Tensors with a 0-size dimension compile and run with PyTorch's results
// (Inputs/tpcheck_cases.py, family "empty"): empty results, a sum of
// nothing 0, a product 1, a mean NaN, a product with K = 0 zeros plus its
// bias, mean losses NaN, sum losses 0.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.f16 --mode f16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.linalg --mode linalg | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.serial --mode serial | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
