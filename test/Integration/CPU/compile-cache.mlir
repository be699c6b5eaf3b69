// tp-run --compile-cache (include/tensorplay/Compiler/CompileCache.h): the
// first run lowers the module and generates its functions' code, the second
// takes both from the cache and gives the same results; a damaged entry is
// a miss (code generated again), an unwritable directory a warning, and
// without --compile-cache or with TP_COMPILE_CACHE=0 nothing is kept.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env TP_COMPILE_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --compile-cache --print 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env TP_COMPILE_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --compile-cache --print 2>&1 | FileCheck %s --check-prefix=WARM
// Another autocast (the product in bf16) is another module: a miss.
// RUN: env TP_COMPILE_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --compile-cache --autocast=cpu:bf16 --print 2>&1 | FileCheck %s --check-prefix=BF16
// Every entry damaged (one byte changed in the middle): generated again.
// RUN: %python %S/Inputs/damage-cache.py %t/c | FileCheck %s --check-prefix=DAMAGE
// RUN: env TP_COMPILE_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --compile-cache --print 2>&1 | FileCheck %s --check-prefix=DAMAGED
// RUN: env TP_COMPILE_CACHE_DIR=%t/c TP_COMPILE_TIMING=1 tp-run %s --entry=f --compile-cache --print 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: env TP_COMPILE_CACHE_DIR=%t/off TP_COMPILE_TIMING=1 tp-run %s --entry=f --print 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: env TP_COMPILE_CACHE_DIR=%t/off TP_COMPILE_CACHE=0 tp-run %s --entry=f --compile-cache --print
// RUN: not ls %t/off
// RUN: touch %t/file
// RUN: env TP_COMPILE_CACHE_DIR=%t/file/c tp-run %s --entry=f --compile-cache --print 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: env TP_COMPILE_CACHE_MAX_MB=lots not tp-run %s --entry=f --compile-cache 2>&1 | FileCheck %s --check-prefix=BADSIZE

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

// BADSIZE: TP_COMPILE_CACHE_MAX_MB must be a number of megabytes, got 'lots'

func.func @f() -> tensor<1x4xf32> {
  %x = tp.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %w = tp.constant dense<[[1.5, 0.0, 0.0, 0.0], [0.0, 1.5, 0.0, 0.0], [0.0, 0.0, 1.5, 0.0], [0.0, 0.0, 0.0, 1.5]]> : tensor<4x4xf32>
  %r = tp.mm %x, %w : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
