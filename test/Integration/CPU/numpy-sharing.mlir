// A value read by several oneDNN calls with in-place-able elementwise ops
// between them (Inputs/tpcheck_cases.py, family "sharing"): the calls are
// tp_rt.call ops that name what they read, so bufferization never writes
// into a buffer a later call reads. f32, bf16 (with autocast's casts, the
// fused weight casts included), f16, and the linalg path; bf16 and
// autocast again with oneDNN's bf16 products computed in f32, as on CPUs
// without bf16 kernels (TP_RT_DNNL_BF16=f32: the fused weight cast rounds
// into f32, the operands widen in their own layout).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.f16 --mode f16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.linalg --mode bf16+linalg | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.autocast --mode autocast | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.autocastlinalg --mode autocast+linalg | FileCheck %s
// RUN: env TP_RT_DNNL_BF16=f32 %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.bf16wide --mode bf16 | FileCheck %s
// RUN: env TP_RT_DNNL_BF16=f32 %python %S/Inputs/tpcheck.py --tp-run tp-run --family sharing --tmp %t.autocastwide --mode autocast | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
