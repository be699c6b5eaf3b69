// Numerics of gather, scatter_add, index_copy and topk against NumPy float64
// references (Inputs/tpcheck_cases.py: clamped indices, NaN above numbers,
// ties by position), in f32, bf16 and f16, on the default pipeline and
// serial scalar loops.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family indexing --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family indexing --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family indexing --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family indexing --tmp %t.f16 --mode f16 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
