// Numerics of the ops the CPU pipeline decomposes into other tp ops
// (gru_cell, lstm_cell, grouped-query attention, cross, cdist, pdist,
// renorm, multi_margin_loss, multilabel_margin_loss(_forward)) against NumPy
// float64 references (Inputs/tpcheck_composite.py), in f32, bf16 and f16,
// through oneDNN and the linalg path, on serial scalar loops, and under
// tp-run --autocast=cpu:bf16.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.f16 --mode f16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.linalg --mode linalg | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family composite --tmp %t.autocast --mode autocast | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
