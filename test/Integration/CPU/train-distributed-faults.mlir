// tp-train --distributed on 2 MPI ranks when things go wrong:
// - an inf injected into the batch of step 21 on rank 1 only: both ranks
//   skip step 21 (rank 0's own gradients were finite), halve the scale and
//   keep parameters and optimizer state bit-identical to step 20, and stay
//   replicas of each other;
// - with --overlap (buckets reduced on a communication thread while the
//   backward goes on) the states are the same bits;
// - a run resumed from a distributed save at step 20 continues
//   bit-identically to an uninterrupted 40-step run;
// - a rank that exits before step 5 ends the job with an error (mpirun
//   ends the rank waiting in the all-reduce), and a rank that hangs makes
//   the other end the job after --timeout seconds with a message that
//   says so, never a silent hang (status 124 would be the test's own
//   timeout). 15 s: every step must fit in it, the first too, which
//   generates code, also on a loaded machine.
// REQUIRES: mpi
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: rm -rf %t.s20 %t.s21 %t.s40 %t.r40
// RUN: %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=adamw --lr=0.003 --steps=20 --save=%t.s20 --save-all-ranks | FileCheck %s --check-prefix=S20
// RUN: %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=adamw --lr=0.003 --steps=21 --inject-nonfinite=21:1 --save=%t.s21 --save-all-ranks > %t.s21.out
// RUN: FileCheck %s --check-prefix=S21 < %t.s21.out
// RUN: FileCheck %s --check-prefix=S21-RANK1 < %t.s21.out
// RUN: %python %S/Inputs/compare-states.py skipped %t.s20/rank0 %t.s21/rank0 | FileCheck %s --check-prefix=SKIPPED
// RUN: %python %S/Inputs/compare-states.py skipped %t.s20/rank1 %t.s21/rank1 | FileCheck %s --check-prefix=SKIPPED
// RUN: %python %S/Inputs/compare-states.py replicas %t.s21 2
// The same with --overlap (every bucket's all-reduce started on the
// communication thread as soon as the backward made it, 20 KB buckets):
// the same bits.
// RUN: rm -rf %t.o21
// RUN: %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=adamw --lr=0.003 --steps=21 --inject-nonfinite=21:1 --save=%t.o21 --save-all-ranks --overlap --bucket-bytes=20000 | FileCheck %s --check-prefix=OVERLAP
// RUN: %python %S/Inputs/compare-states.py identical %t.s21 %t.o21 | FileCheck %s --check-prefix=IDENTICAL
// RUN: %python %S/Inputs/compare-states.py replicas %t.o21 2
// Resume.
// RUN: %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=adamw --lr=0.003 --steps=40 --save=%t.s40
// RUN: %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --autocast=cpu:fp16 --grad-scaler --init-scale=1024 --growth-interval=8 --optimizer=adamw --lr=0.003 --steps=40 --resume=%t.s20 --save=%t.r40 --save-all-ranks
// RUN: %python %S/Inputs/compare-states.py identical %t.s40 %t.r40 | FileCheck %s --check-prefix=IDENTICAL
// RUN: %python %S/Inputs/compare-states.py replicas %t.r40 2
// A rank that dies, a rank that hangs.
// RUN: timeout 120 %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --steps=20 --simulate-failure=5:1:exit > %t.dead.out 2>&1; echo "status=$?" >> %t.dead.out
// RUN: FileCheck %s --check-prefix=DEAD < %t.dead.out
// RUN: timeout 120 %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --num-threads=1 --steps=20 --simulate-failure=5:1:hang --timeout=15 > %t.hang.out 2>&1; echo "status=$?" >> %t.hang.out
// RUN: FileCheck %s --check-prefix=HANG < %t.hang.out
// Options that need a rank that exists.
// RUN: not %mpirun2 tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --grad-scaler --steps=2 --inject-nonfinite=1:2 2>&1 | FileCheck %s --check-prefix=NORANK

// S20: step    20  loss {{[0-9.]+}}  scale 4096  skipped 0
// S21: step    21  found_inf: step skipped
// S21: step    21  loss {{-?(inf|nan|[0-9.]+)}}  scale 2048  skipped 1
// S21-RANK1: step    21  rank 1 of 2: injected an inf into its batch
// OVERLAP: step    21  found_inf: step skipped
// OVERLAP: overlap: {{[1-9][0-9]*}} all-reduces, {{.*}} ms each on the communication thread
// SKIPPED: skipped: {{[0-9]+}} files checked
// IDENTICAL: identical: {{[0-9]+}} files checked
// DEAD: tp-train: rank 1 of 2: --simulate-failure: exiting before step 5
// DEAD-NOT: step    10
// DEAD: status=3
// HANG: tp-train: rank 1 of 2: --simulate-failure: hanging before step 5
// HANG: tp-train: rank 0 of 2: step 5 waited 15 s for the other ranks (--timeout): one of them died or hangs; ending the job
// HANG: status=1
// NORANK: tp-train: rank {{[01]}} of 2: --inject-nonfinite: rank 2 does not exist (2 ranks)
