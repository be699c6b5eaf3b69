// Every op family's test module (Integration/CPU/Inputs/tpcheck_cases.py,
// in f32 and bf16) through tp-lower-to-nvvm: ptxas accepts every kernel for
// sm_90, within the register budget and without spills. (Their numerics are
// checked in the GPU mapping on the CPU, Integration/CPU/numpy-gpu-mapping,
// and on a GPU, Integration/GPU/numpy-families.)
// REQUIRES: ptxas
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family elementwise --mode default --write-module %t.elementwise.default.mlir
// RUN: tp-opt %t.elementwise.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.elementwise.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.elementwise.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family elementwise --mode bf16 --write-module %t.elementwise.bf16.mlir
// RUN: tp-opt %t.elementwise.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.elementwise.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.elementwise.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family reductions --mode default --write-module %t.reductions.default.mlir
// RUN: tp-opt %t.reductions.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.reductions.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.reductions.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family reductions --mode bf16 --write-module %t.reductions.bf16.mlir
// RUN: tp-opt %t.reductions.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.reductions.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.reductions.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family matmul --mode default --write-module %t.matmul.default.mlir
// RUN: tp-opt %t.matmul.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.matmul.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.matmul.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family matmul --mode bf16 --write-module %t.matmul.bf16.mlir
// RUN: tp-opt %t.matmul.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.matmul.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.matmul.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family normalization --mode default --write-module %t.normalization.default.mlir
// RUN: tp-opt %t.normalization.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.normalization.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.normalization.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family normalization --mode bf16 --write-module %t.normalization.bf16.mlir
// RUN: tp-opt %t.normalization.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.normalization.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.normalization.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family losses --mode default --write-module %t.losses.default.mlir
// RUN: tp-opt %t.losses.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.losses.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.losses.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family losses --mode bf16 --write-module %t.losses.bf16.mlir
// RUN: tp-opt %t.losses.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.losses.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.losses.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family shape --mode default --write-module %t.shape.default.mlir
// RUN: tp-opt %t.shape.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.shape.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.shape.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family shape --mode bf16 --write-module %t.shape.bf16.mlir
// RUN: tp-opt %t.shape.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.shape.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.shape.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family conv --mode default --write-module %t.conv.default.mlir
// RUN: tp-opt %t.conv.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.conv.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.conv.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family conv --mode bf16 --write-module %t.conv.bf16.mlir
// RUN: tp-opt %t.conv.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.conv.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.conv.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family attention --mode default --write-module %t.attention.default.mlir
// RUN: tp-opt %t.attention.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.attention.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.attention.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family attention --mode bf16 --write-module %t.attention.bf16.mlir
// RUN: tp-opt %t.attention.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.attention.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.attention.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family empty --mode default --write-module %t.empty.default.mlir
// RUN: tp-opt %t.empty.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.empty.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.empty.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family empty --mode bf16 --write-module %t.empty.bf16.mlir
// RUN: tp-opt %t.empty.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.empty.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.empty.bf16.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family sharing --mode default --write-module %t.sharing.default.mlir
// RUN: tp-opt %t.sharing.default.mlir --tp-lower-to-nvvm="format=isa" -o %t.sharing.default.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.sharing.default.nvvm.mlir | FileCheck %s
// RUN: %python %S/../../Integration/CPU/Inputs/tpcheck.py --family sharing --mode bf16 --write-module %t.sharing.bf16.mlir
// RUN: tp-opt %t.sharing.bf16.mlir --tp-lower-to-nvvm="format=isa" -o %t.sharing.bf16.nvvm.mlir
// RUN: %python %tp_scripts/ptxas-check.py --ptxas %ptxas --arch sm_90 %t.sharing.bf16.nvvm.mlir | FileCheck %s
// CHECK-NOT: OVER BUDGET
// CHECK: ptxas-check: {{[1-9][0-9]*}} kernels for sm_90, 0 failed
