// Every backward rule's gradient check (Inputs/gradcheck.py: the gradients
// of tp-autodiff against central finite differences of the compiled f64
// program) with both compiled in the GPU mapping (gpu-mapping=1: the loop
// nests mapped to blocks and threads as tp-lower-to-nvvm maps them, run on
// the CPU), including the cases whose host control flow depends on tensor
// data (a loop count, a branch condition: read back to the host).
// RUN: %python %S/Inputs/gradcheck.py --tp-opt tp-opt --tp-run tp-run --tmp %t --pipeline-options="gpu-mapping=1 use-onednn=0 gpu-block-size=96" | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: gradcheck: {{[1-9][0-9]*}} cases, {{[1-9][0-9]*}} gradient elements ({{.*}}), 0 failed
