// Differential testing of the CPU pipeline (Inputs/difftest.py, see
// docs/Testing.md "Differential testing"): a fixed-seed run of random valid
// tp programs (products, convolutions, elementwise ops with broadcasting,
// reductions, normalizations, shape ops, casts; shared operands, several
// results, f32/bf16/f16 mixes, odd shapes), each drawn in a mode (plain or
// --autocast=cpu:bf16, default pipeline, use-onednn=0, serial loops,
// vector-width=4), compiled and run by tp-run, every output compared with
// an independent NumPy evaluation of the same program within the
// documented tolerances. The pinned findings (Inputs/difftest-findings/)
// run too; known findings still failing are listed apart, never counted as
// passing. The long run is tools/scripts/run-difftest.sh.
// RUN: %python %S/Inputs/difftest.py --tp-run tp-run --seed 1 --programs 200 --steps 1:4 --no-minimize --tmp %t | FileCheck %s
// CHECK-NOT: {{^}}MISMATCH
// CHECK-NOT: {{^}}CRASH
// CHECK-NOT: {{^}}INVALID
// CHECK: {{[0-9]+}} programs, 0 mismatched
