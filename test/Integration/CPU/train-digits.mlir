// The digits MLP (examples/digits_mlp.mlir) trains with tp-train to at least
// 95% test accuracy in f32, in cpu:bf16 and in cpu:fp16 with the
// GradScaler, and the mixed-precision loss curves follow the f32 one
// (Inputs/check-training.py). One compiled step per batch: forward,
// backward, GradScaler and fused SGD (docs/Training.md).
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --num-threads=2 > %t.f32.txt
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --num-threads=2 --autocast=cpu:bf16 > %t.bf16.txt
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --num-threads=2 --autocast=cpu:fp16 --grad-scaler > %t.fp16.txt
// RUN: %python %S/Inputs/check-training.py 95 %t.f32.txt %t.bf16.txt %t.fp16.txt | FileCheck %s
// AdamW as well (f32 and bf16).
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=adamw --lr=0.003 --steps=450 --print-every=50 --num-threads=2 > %t.adamw.txt
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=adamw --lr=0.003 --steps=450 --print-every=50 --num-threads=2 --autocast=cpu:bf16 --grad-scaler > %t.adamw-bf16.txt
// RUN: %python %S/Inputs/check-training.py 95 %t.adamw.txt %t.adamw-bf16.txt | FileCheck %s --check-prefix=ADAMW

// CHECK: f32.txt: final loss
// CHECK: bf16.txt: final loss
// CHECK: fp16.txt: final loss
// The CNN (examples/digits_cnn.mlir: two convolutions, whose backward is
// conv_transpose and the swapped correlation through oneDNN) the same way.
// RUN: tp-train %tp_src_root/examples/digits_cnn.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=300 --print-every=50 --num-threads=2 > %t.cnn.txt
// RUN: tp-train %tp_src_root/examples/digits_cnn.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=300 --print-every=50 --num-threads=2 --autocast=cpu:bf16 > %t.cnn-bf16.txt
// RUN: tp-train %tp_src_root/examples/digits_cnn.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=300 --print-every=50 --num-threads=2 --autocast=cpu:fp16 --grad-scaler > %t.cnn-fp16.txt
// RUN: %python %S/Inputs/check-training.py 95 %t.cnn.txt %t.cnn-bf16.txt %t.cnn-fp16.txt | FileCheck %s --check-prefix=CNN

// ADAMW: adamw.txt: final loss
// ADAMW: adamw-bf16.txt: final loss
// CNN-NOT: FAIL
// CNN: cnn.txt: final loss
// CNN: cnn-bf16.txt: final loss
// CNN: cnn-fp16.txt: final loss
