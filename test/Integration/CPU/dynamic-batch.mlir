// Dynamic batch sizes end to end (Inputs/dynamic_batch.py): the MLP and
// encoder examples with a `?` batch run at batch 1, 3, 17 (and 5 under
// cpu:bf16 autocast) with the results of the statically written batch,
// bit for bit; the encoder's reshapes naming batch 8 are refused at the op.
// RUN: %python %S/Inputs/dynamic_batch.py --tp-run tp-run --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS mlp_b17
// CHECK: PASS mlp_autocast_b5
// CHECK: PASS encoder_b3
// CHECK: PASS encoder_fixed_reshape: {{.*}}error: 'tp.reshape' op shape [8, 128, 8, 64] is invalid for an input of 196608 elements
// CHECK: all 7 checks passed
