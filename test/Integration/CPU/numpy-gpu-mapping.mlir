// The GPU mapping checked without a GPU: every op family's cases compiled
// with tp-lower-to-cpu="gpu-mapping=1" (the loop nests mapped to blocks and
// threads by tp-map-parallel-loops exactly as tp-lower-to-nvvm maps them,
// with a block size of 96 so that tail guards run, executed as loops) and
// compared with the float64 NumPy references of Inputs/tpcheck_cases.py.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family elementwise --tmp %t.elementwise --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family elementwise --tmp %t.elementwise-f16 --mode gpu-mapping+f16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family reductions --tmp %t.reductions --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family matmul --tmp %t.matmul --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family normalization --tmp %t.normalization --mode gpu-mapping+bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family losses --tmp %t.losses --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family shape --tmp %t.shape --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family conv --tmp %t.conv --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family attention --tmp %t.attention --mode gpu-mapping | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family empty --tmp %t.empty --mode gpu-mapping | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
