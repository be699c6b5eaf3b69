// The digits MLP trained with the program tp-lower-to-nvvm compiles for
// --autocast=cuda:fp16 with the GradScaler (forward, backward, unscale and
// fused SGD), in the loop nests it maps to blocks and threads, run on the
// CPU (gpu-mapping=1): it converges like the f32 run (>= 95% test accuracy).
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --num-threads=2 > %t.f32.txt
// RUN: tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --test-data=%t.data/x_test.npy --test-data=%t.data/y_test.npy --optimizer=sgd --lr=0.1 --momentum=0.9 --steps=450 --print-every=50 --num-threads=2 --autocast=cuda:fp16 --grad-scaler --pipeline-options="gpu-mapping=1 use-onednn=0" > %t.mapped.txt
// RUN: %python %S/Inputs/check-training.py 95 %t.f32.txt %t.mapped.txt | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32.txt: final loss {{.*}}, test accuracy
// CHECK: mapped.txt: final loss {{.*}}, test accuracy
