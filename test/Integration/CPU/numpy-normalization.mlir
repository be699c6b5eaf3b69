// Numerics of the normalization lowerings against NumPy float64 references
// (Inputs/tpcheck_cases.py), in f32, bf16 and f16, on the default pipeline
// (parallel, vectorized) and serial scalar loops.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.f16 --mode f16 | FileCheck %s
// The opt-in oneDNN route of softmax_backward / log_softmax_backward (f32,
// bf16, and bf16 widened to f32 as on CPUs without bf16 kernels).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.dnnl --mode dnnl-softmax | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.dnnlbf16 --mode bf16+dnnl-softmax | FileCheck %s
// RUN: env TP_RT_DNNL_BF16=f32 %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.dnnlwide --mode bf16+dnnl-softmax | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
