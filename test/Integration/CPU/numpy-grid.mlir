// Numerics of grid_sample and aten's grid_sampler ops (every interpolation,
// padding mode and align_corners; 2-D and 3-D; coordinates past the input)
// against a float64 transcription of tensorplay's CPU kernel
// (Inputs/tpcheck_grid.py), in f32, bf16 and f16 and on serial loops.
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family grid --tmp %t.f32 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family grid --tmp %t.bf16 --mode bf16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family grid --tmp %t.f16 --mode f16 | FileCheck %s
// RUN: %python %S/Inputs/tpcheck.py --tp-run tp-run --family grid --tmp %t.serial --mode serial | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all {{[1-9][0-9]*}} cases passed
