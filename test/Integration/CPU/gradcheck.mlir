// tp-autodiff's backward rules against central finite differences of the
// compiled f64 program (Inputs/gradcheck.py): each case's @f_grad gradients
// against (f(x + h e_i) - f(x - h e_i)) / 2h for every input element, all
// run by one tp-run.
// RUN: %python %S/Inputs/gradcheck.py --tp-opt tp-opt --tp-run tp-run --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: gradcheck: {{[1-9][0-9]*}} cases, {{[1-9][0-9]*}} gradient elements, 0 failed
