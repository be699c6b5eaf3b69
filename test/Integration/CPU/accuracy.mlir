// Accuracy of the f32 transcendentals and reductions over their whole input
// range (Inputs/accuracy.py: every binade of each domain, special values),
// held to the bounds docs/CodegenCPU.md states: vectorized and scalar code.
// RUN: %python %S/Inputs/accuracy.py --tp-run tp-run --tmp %t.vector --n 32768 | FileCheck %s
// RUN: %python %S/Inputs/accuracy.py --tp-run tp-run --tmp %t.scalar --n 8192 --pipeline-options "parallel=0 vectorize=0" | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: [[N:[0-9]+]] of [[N]] functions within their bounds
