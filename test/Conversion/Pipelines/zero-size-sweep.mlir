// Every op of the dialect (roundtrip.mlir) with one of its sizes set to 0
// compiles through tp-lower-to-cpu or is refused with a diagnostic; none
// crashes (a 0-size dimension crashed the tiling).
// RUN: %python %S/../../Integration/CPU/Inputs/zero_size_sweep.py --tp-opt tp-opt --input %S/../../Dialect/TP/roundtrip.mlir --tmp %t | FileCheck %s
// CHECK-NOT: CRASH
// CHECK: {{[1-9][0-9]+}} variants, {{[0-9]+}} compiled, {{[0-9]+}} refused, 0 crashed
