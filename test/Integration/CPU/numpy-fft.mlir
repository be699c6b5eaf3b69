// Numerics of the torch.fft ops (the runtime's FFT), polar, view_as_complex,
// view_as_real and complex arithmetic and functions against numpy.fft and
// NumPy in float64 / complex128
// (Inputs/tpcheck_fft.py), on the default pipeline, serial scalar loops and
// under cpu:bf16 autocast (the fft ops are on the fp32 list: f32 inputs
// stay f32).
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family fft --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family fft --tmp %t.serial --mode serial | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family fft --tmp %t.autocast --mode autocast | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
