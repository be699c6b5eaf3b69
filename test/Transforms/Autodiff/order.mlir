// Order independence: --tp-autodiff --autocast=X gives the same program as
// --autocast=X --tp-autodiff (after canonicalize and cse), on every op
// family of rules.mlir (the complex and FFT ones too), on control flow and
// on the examples, for each device and dtype.
// tp-autocast builds a gradient function linked to its forward function
// (tp.gradient_of) again from the autocast forward, so every backward op
// takes its forward op's decision and not the tables'.
// RUN: for t in cuda:fp16 cuda:bf16 xpu:fp16 cpu:bf16 cpu:fp16; do \
// RUN:   for f in %S/rules.mlir %S/rules-more.mlir %S/rules-pooling.mlir %S/rules-sampling.mlir %S/rules-dropout.mlir %S/rules-complex.mlir %S/control-flow.mlir %tp_src_root/examples/mlp.mlir %tp_src_root/examples/digits_mlp.mlir %tp_src_root/examples/digits_cnn.mlir; do \
// RUN:     tp-opt $f --autocast=$t --tp-autodiff --canonicalize --cse > %t.first && \
// RUN:     tp-opt $f --tp-autodiff --autocast=$t --canonicalize --cse > %t.second && \
// RUN:     diff %t.first %t.second || exit 1; \
// RUN:   done; \
// RUN: done
// The linear algebra ops on the CPU targets (their fp32 list; cuda's
// tables list none of them, and a mixed-dtype solve fails in eager too).
// RUN: for t in cpu:bf16 cpu:fp16; do \
// RUN:   tp-opt %S/rules-linalg.mlir --autocast=$t --tp-autodiff --canonicalize --cse > %t.first && \
// RUN:   tp-opt %S/rules-linalg.mlir --tp-autodiff --autocast=$t --canonicalize --cse > %t.second && \
// RUN:   diff %t.first %t.second || exit 1; \
// RUN: done
// The indexed ops on the targets whose tables take scatter_add's mixed
// dtypes (cpu's lists do not, and eager autocast fails there too).
// RUN: for t in cuda:fp16 cuda:bf16 xpu:fp16; do \
// RUN:   tp-opt %S/rules-indexing.mlir --autocast=$t --tp-autodiff --canonicalize --cse > %t.first && \
// RUN:   tp-opt %S/rules-indexing.mlir --tp-autodiff --autocast=$t --canonicalize --cse > %t.second && \
// RUN:   diff %t.first %t.second || exit 1; \
// RUN: done
// The same for train steps (tp-train-step records its options in
// tp.train_step, and tp-autocast builds the step again from the autocast
// loss function).
// RUN: for t in cuda:fp16 cpu:bf16 cpu:fp16; do \
// RUN:   for o in "num-inputs=2 optimizer=sgd momentum=0.9 grad-scaler=true" "num-inputs=2 optimizer=adamw amsgrad=true lr=0.01"; do \
// RUN:     for f in %tp_src_root/examples/mlp.mlir %tp_src_root/examples/digits_mlp.mlir; do \
// RUN:       tp-opt $f --autocast=$t --tp-train-step="$o" --canonicalize --cse > %t.first && \
// RUN:       tp-opt $f --tp-train-step="$o" --autocast=$t --canonicalize --cse > %t.second && \
// RUN:       diff %t.first %t.second || exit 1; \
// RUN:     done; \
// RUN:   done; \
// RUN: done
// RUN: tp-opt %tp_src_root/examples/digits_mlp.mlir --tp-train-step="num-inputs=2 grad-scaler=true" --autocast=cpu:fp16 | FileCheck %s --check-prefix=STEP
// STEP-LABEL: func.func @digits_loss_train_step(
// STEP: tp.linear {{.*}} -> tensor<64x128xf16>
// STEP: %[[G:.*]] = tp.cast %{{.*}} : tensor<128x64xf16> to tensor<128x64xf32>
// STEP: tp.fused_sgd %{{.*}}, %[[G]] step
// The link is what makes the difference: without it autocast decides the
// backward products from the tables, and the f32 weights get f16
// gradients; with it they get f32 gradients through the reversed casts.
// RUN: tp-opt %S/rules.mlir --tp-autodiff --autocast=cuda:fp16 | FileCheck %s --check-prefix=LINKED
// RUN: tp-opt %S/rules.mlir --tp-autodiff | sed 's/tp.gradient_of/tp.unlinked/' | tp-opt --autocast=cuda:fp16 | FileCheck %s --check-prefix=UNLINKED
// Autocasting twice changes nothing more.
// RUN: tp-opt %S/rules.mlir --tp-autodiff --autocast=cuda:fp16 --canonicalize --cse > %t.once
// RUN: tp-opt %t.once --autocast=cuda:fp16 --canonicalize --cse > %t.twice
// RUN: diff %t.once %t.twice

// LINKED: func.func @mm_loss_grad({{.*}}) -> (tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32>) attributes {tp.gradient_of = {function = @mm_loss, wrt = array<i64: 0, 1>}}
// LINKED: tp.mm {{.*}} -> tensor<4x8xf16>
// LINKED: tp.cast {{.*}} : tensor<4x8xf16> to tensor<4x8xf32>
// UNLINKED: func.func @mm_loss_grad({{.*}}) -> (tensor<f32>, tensor<4x8xf16>, tensor<8x16xf16>)
