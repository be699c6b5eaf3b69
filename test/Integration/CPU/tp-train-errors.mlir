// tp-train's errors: each a message and exit status 1, no crash.
// RUN: %python %tp_src_root/tools/scripts/make-digits.py %t.data
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir 2>&1 | FileCheck %s --check-prefix=NODATA
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/x_train.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --batch=32 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --optimizer=adam 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --grad-scaler --init-scale=0 2>&1 | FileCheck %s --check-prefix=SCALE
// RUN: rm -rf %t.s2 && tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --steps=2 --save=%t.s2
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --steps=4 --seed=1 --resume=%t.s2 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --steps=4 --optimizer=adamw --resume=%t.s2 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: not tp-train %t.data/missing.mlir --data=%t.data/x_train.npy 2>&1 | FileCheck %s --check-prefix=FILE
// The data-parallel options (train-distributed*.mlir run them under mpirun).
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --grad-scaler --inject-nonfinite=2:x 2>&1 | FileCheck %s --check-prefix=INJECT
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --save=%t.s3 --save-all-ranks 2>&1 | FileCheck %s --check-prefix=ALLRANKS
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --simulate-failure=3:1:crash 2>&1 | FileCheck %s --check-prefix=SIMULATE
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --simulate-failure=3:1:exit 2>&1 | FileCheck %s --check-prefix=NEEDSDIST
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --distributed --timeout=-1 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// RUN: not tp-train %tp_src_root/examples/digits_mlp.mlir --data=%t.data/x_train.npy --data=%t.data/y_train.npy --overlap 2>&1 | FileCheck %s --check-prefix=OVERLAP

// NODATA: tp-train: --data is required (one .npy per batch argument)
// DTYPE: tp-train: {{.*}}x_train.npy: expected i64 samples of shape [N], got a f32 array of rank 2
// COUNT: error: 'func.func' op tp-train-step: argument #1 of @digits_loss follows the num-inputs=1 batch arguments, so it is a parameter, but it is 'tensor<64xi64>', not a floating tensor
// BATCH: tp-train: --batch=32 but @digits_loss is compiled for batch 64
// OPT: error: tp-train-step: unknown optimizer 'adam': expected sgd or adamw
// OPT: tp-train: tp-train-step failed
// SCALE: tp-train: --init-scale must be a finite number > 0
// SEED: tp-train: --resume: the state was trained with --seed=0; resume with the same seed
// STATE: tp-train: --resume: {{.*}}arg2.exp_avg.npy
// FILE: tp-train: cannot open input file
// INJECT: tp-train: --inject-nonfinite=2:x: expected STEP or STEP:RANK (STEP >= 1)
// ALLRANKS: tp-train: --save-all-ranks needs --distributed
// SIMULATE: tp-train: --simulate-failure=3:1:crash: expected STEP:RANK:exit or STEP:RANK:hang
// NEEDSDIST: tp-train: --simulate-failure needs --distributed
// TIMEOUT: tp-train: --timeout must be >= 0 seconds
// OVERLAP: tp-train: --overlap needs --distributed
