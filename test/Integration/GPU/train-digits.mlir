// On a GPU: the digits MLP trained with tp-train --device=cuda in f32, in
// cuda:fp16 with the GradScaler and in cuda:bf16 reaches >= 95% test
// accuracy, with loss curves that follow the f32 one.
// REQUIRES: cuda-device
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: tp-train --device=cuda %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 > %t.f32.txt
// RUN: tp-train --device=cuda %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --autocast=cuda:fp16 --grad-scaler > %t.fp16.txt
// RUN: tp-train --device=cuda %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --autocast=cuda:bf16 > %t.bf16.txt
// RUN: %python %S/../CPU/Inputs/check-training.py 95 %t.f32.txt %t.fp16.txt %t.bf16.txt | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32.txt: final loss {{.*}}, test accuracy
// CHECK: fp16.txt: final loss {{.*}}, test accuracy
// CHECK: bf16.txt: final loss {{.*}}, test accuracy
