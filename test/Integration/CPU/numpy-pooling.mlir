// Numerics of the pool lowerings and the pools' backward ops against NumPy
// float64 references written per window (Inputs/tpcheck_cases.py), in f32,
// bf16 and f16, on the default pipeline (parallel, vectorized) and serial
// scalar loops.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family pooling --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family pooling --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family pooling --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family pooling --tmp %t.f16 --mode f16 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
