// Numerics of the linear-algebra ops computed through LAPACK (inverse,
// Cholesky, solves, LU, eigh, SVD, QR and the Householder products), in f32
// and f64, against NumPy's float64 linear algebra, an independent partial-
// pivoting LU and Householder product, and the defining properties of the
// factorizations unique only up to signs (Inputs/tpcheck_linalg.py); also
// under tp-run --autocast=cpu:bf16 (they run in f32 there).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family linalg --tmp %t.default | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family linalg --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family linalg --tmp %t.autocast --mode autocast | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
