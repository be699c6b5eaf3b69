// tp-fuzz finding 002: tp-lower-to-cpu half-lowers the functions of a
// nested builtin.module; a later module-wide pass then breaks the linalg
// ops left in them.
//
// Status: fixed: tp-check-cpu-shapes, the pipeline's first pass, refuses a
// nested module with an error naming it (test/Conversion/Pipelines/
// check-cpu-shapes.mlir); tp-fuzz then sees a diagnostic, not broken IR.
//
// Component: lib/Pipelines/CPUPipeline.cpp, buildTPLowerToCPUPipeline: the
//   passes added with addNestedPass<func::FuncOp> (tp-fuse-elementwise,
//   tp-tile-and-vectorize, tp-lower-vectors, convert-linalg-to-loops,
//   forall-to-for) only run on the functions directly in the top-level
//   module, while the module passes (convert-tp-to-linalg, bufferization,
//   arith-expand, convert-*-to-llvm, ...) walk nested modules too. A
//   linalg.matmul of a function in `module @inner` is never turned into
//   loops; arith-expand (bf16) or convert-arith-to-llvm (f32) then rewrites
//   the add/mul of its body and the matmul no longer verifies. tp-autocast
//   processes nested modules ("Functions of nested modules are processed
//   too"), so such input is accepted up to there.
// Found: by tp-fuzz (strict) from test/Transforms/Autocast/nested-modules.mlir.
// Commands:
//   tp-opt --tp-lower-to-cpu="use-onednn=0 vectorize=0" 002-nested-module-half-lowered.mlir
//     error: expected add/mul op in the body (verifier, after arith-expand;
//     with f32 instead of bf16: after convert-arith-to-llvm)
//   tp-fuzz 002-nested-module-half-lowered.mlir
//     tp-fuzz: FINDING: pass 'arith-expand' succeeded but the IR does not
//     verify: expected add/mul op in the body
// Expected: the nested module's functions lowered too (nest the function
//   passes under every module, e.g. with a walk or an any-op pipeline), or
//   a diagnostic that nested modules are not supported.
//
// tp-fuzz: target=none to-llvm=1 onednn=0 vectorize=0 translate=0
module {
  module @inner {
    func.func @g(%a: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
      %m = tp.mm %a, %a : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
      return %m : tensor<4x4xbf16>
    }
  }
}
