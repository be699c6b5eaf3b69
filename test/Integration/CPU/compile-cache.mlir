// The compile cache of tp-run (include/tensorplay/Compiler/CompileCache.h),
// on by default: the first run lowers the module and generates its
// functions' code, the second takes both from the cache and gives the same
// results; --cache-dir overrides TENSORPLAY_MLIR_CACHE_DIR; a damaged
// entry is a miss (code generated again), an unwritable directory a
// warning; with --no-cache or TENSORPLAY_MLIR_CACHE=0 nothing is kept.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/elsewhere TP_COMPILE_TIMING=1 tp-run %s --entry=f --cache-dir=%t/c --print 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: not ls %t/elsewhere
// Another autocast (the product in bf16) is another module: a miss.
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --autocast=cpu:bf16 --print 2>&1 | FileCheck %s --check-prefix=BF16
// Every entry damaged (one byte changed in the middle): generated again.
// RUN: %python %S/Inputs/damage-cache.py %t/c | FileCheck %s --check-prefix=DAMAGE
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=DAMAGED
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/off TP_COMPILE_TIMING=1 tp-run %s --entry=f --no-cache --print 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/off TENSORPLAY_MLIR_CACHE=0 tp-run %s --entry=f --print
// RUN: not ls %t/off
// RUN: touch %t/file
// RUN: env TENSORPLAY_MLIR_CACHE_DIR=%t/file/c tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: env TENSORPLAY_MLIR_CACHE_MAX_MB=lots not tp-run %s --entry=f 2>&1 | FileCheck %s --check-prefix=BADSIZE

// COLD: tensorplay: compile: {{.*}} functions from the compile cache: 0{{$}}
// COLD: tensorplay: @f: {{.*}} codegen {{.*}} functions from the compile cache: 0{{$}}
// COLD: @f result #0: {{\[}}[1.5, 3, 4.5, 6]]

// WARM: tensorplay: compile: {{.*}} lower 0.000{{.*}} (lowered before: skipped)
// WARM: tensorplay: @f: {{.*}} optimize 0.000, codegen 0.000, {{.*}} functions from the compile cache: 1 (lowered before: skipped)
// WARM: @f result #0: {{\[}}[1.5, 3, 4.5, 6]]

// BF16: functions from the compile cache: 0{{$}}
// BF16: @f result #0: {{\[}}[1.5, 3, 4.5, 6]]

// DAMAGE: damaged {{[0-9a-f]+}}.tpo

// DAMAGED: tensorplay: @f: {{.*}} functions from the compile cache: 0 (lowered before: skipped)
// DAMAGED: @f result #0: {{\[}}[1.5, 3, 4.5, 6]]

// UNWRITABLE: tensorplay: compile cache: cannot create the compile cache directory {{.*}}file/c
// UNWRITABLE: @f result #0: {{\[}}[1.5, 3, 4.5, 6]]

// BADSIZE: TENSORPLAY_MLIR_CACHE_MAX_MB must be a number of megabytes, got 'lots'


func.func @f() -> tensor<1x4xf32> {
  %x = tp.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %w = tp.constant dense<[[1.5, 0.0, 0.0, 0.0], [0.0, 1.5, 0.0, 0.0], [0.0, 0.0, 1.5, 0.0], [0.0, 0.0, 0.0, 1.5]]> : tensor<4x4xf32>
  %r = tp.mm %x, %w : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
