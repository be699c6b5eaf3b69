// The encoder block (examples/encoder_block.mlir with the mse loss of
// bench/train/encoder_loss.mlir, which calls it) trains with tp-train in
// f32 and in cpu:bf16: batched attention products, softmax, the two
// layer_norms and the GELU FFN differentiated, AdamW, a learnable target
// (Inputs/make-encoder-data.py). The loss must fall to at most half its
// first value in 12 steps, and the bf16 curve follow the f32 one
// (Inputs/check-training.py).
// RUN: cat %tp_src_root/examples/encoder_block.mlir %tp_src_root/bench/train/encoder_loss.mlir > %t.mlir
// RUN: %python %S/Inputs/make-encoder-data.py %t
// RUN: tp-train %t.mlir --data=%t.x.npy --data=%t.y.npy --optimizer=adamw --lr=1e-3 --steps=12 --print-every=3 --num-threads=2 > %t.f32.txt
// RUN: tp-train %t.mlir --data=%t.x.npy --data=%t.y.npy --optimizer=adamw --lr=1e-3 --steps=12 --print-every=3 --num-threads=2 --autocast=cpu:bf16 > %t.bf16.txt
// RUN: %python %S/Inputs/check-training.py ratio=0.5 %t.f32.txt %t.bf16.txt | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32.txt: final loss {{.*}}, loss ratio
// CHECK: bf16.txt: final loss {{.*}}, loss ratio
