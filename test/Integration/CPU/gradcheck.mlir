// tp-autodiff's backward rules against central finite differences of the
// compiled f64 program (Inputs/gradcheck.py): each case's @f_grad gradients
// against (f(x + h v) - f(x - h v)) / 2h along every element of a small
// argument and 4 random directions of a larger one, all run by one tp-run.
// RUN: %python %S/Inputs/gradcheck.py --tp-opt tp-opt --tp-run tp-run --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: gradcheck: {{[1-9][0-9]*}} cases, {{[1-9][0-9]*}} gradient elements ({{.*}}), 0 failed
