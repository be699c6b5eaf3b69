// Numerics of ctc_loss (the runtime's CTC kernel) and ctc_loss_backward
// against NumPy float64 references, four of them the sum over every
// alignment (Inputs/tpcheck_ctc.py), on the default pipeline, serial scalar loops and
// under cpu:bf16 autocast (ctc_loss is on the fp32 list).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family ctc --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family ctc --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family ctc --tmp %t.autocast --mode autocast | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
