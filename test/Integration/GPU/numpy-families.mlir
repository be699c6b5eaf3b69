// On a GPU: every op family's cases (Inputs/tpcheck_cases.py) compiled with
// tp-lower-to-nvvm and run with tp-run --device=cuda, against the float64
// NumPy references, in f32, f16 and bf16.
// REQUIRES: cuda-device
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family elementwise --tmp %t.elementwise --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family elementwise --tmp %t.elementwise-f16 --mode gpu+f16 | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family reductions --tmp %t.reductions --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family matmul --tmp %t.matmul --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family matmul --tmp %t.matmul-bf16 --mode gpu+bf16 | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.normalization --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family losses --tmp %t.losses --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family shape --tmp %t.shape --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family conv --tmp %t.conv --mode gpu | FileCheck %s
// RUN: %python %S/../CPU/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.attention --mode gpu | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
