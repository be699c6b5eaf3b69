// Numerics of the attention lowerings against NumPy float64 references
// (Inputs/tpcheck_cases.py): through oneDNN (when built) and through the
// tiled, vectorized linalg path, in f32, bf16 and f16 (f32 accumulation).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.linalg --mode linalg | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.bf16linalg --mode bf16+linalg | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.f16 --mode f16 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
