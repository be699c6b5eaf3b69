//===- TPRuntimeOps.td - The tp_rt dialect -----------------*- tablegen -*-===//
//
// tp_rt: calls of the runtime's C ABI (tensorplay/Runtime/Codegen.h) on
// tensors. A call names what it reads (inputs) and what it writes (outputs,
// destination-style), so one-shot bufferization sees every access and never
// lets another op write into a buffer a call still reads; it becomes a
// func.call on memrefs only when it is bufferized.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIMEOPS_TD
#define TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIMEOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TPRuntime_Dialect : Dialect {
  let name = "tp_rt";
  let cppNamespace = "::mlir::tp::rt";
  let summary = "Calls of the tensorplay runtime's C ABI on tensors";
  let description = [{
    Ops that stand for calls of `tp_rt_*` functions (oneDNN products and
    convolutions) while the program is still on tensors, so that
    bufferization knows exactly which tensors each call reads and writes.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TPRuntime_CallOp : Op<TPRuntime_Dialect, "call", [
    AttrSizedOperandSegments, NoMemoryEffect,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DestinationStyleOpInterface]> {
  let summary = "a runtime call that reads `inputs` and writes `outputs`";
  let description = [{
    Calls `@callee`, a `func.func` declaration whose arguments are the call's
    arguments with every tensor as an unranked memref of its element type
    and which returns an `i32` status. The call's arguments are `inputs`
    and `outputs` merged: output `i` is argument `output_positions[i]`, the
    inputs fill the other positions in order. Inputs are tensors the call
    only reads, or integer or f64 scalars; outputs are tensors it writes,
    and result `i` is output `i` after the call. An output's previous
    contents are never read unless its index is in `updates`: the call
    updates those in place (the optimizer and GradScaler kernels), so
    bufferization hands it a buffer holding the output operand's value. `views`, when present, holds one permutation per
    argument (empty: none): the callee sees that tensor's buffer with its
    dimensions permuted (dimension `d` of the view is dimension `perm[d]`
    of the tensor), a strided view rather than a copy.

    ```mlir
    %c = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%a, %w, %bias, %code)
           outs(%init) {output_positions = array<i64: 3>,
                        views = [array<i64>, array<i64: 1, 0>, array<i64>,
                                 array<i64>, array<i64>]}
           : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<0xf32>, i64),
             (tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyTypeOf<[AnyRankedTensor, AnySignlessInteger,
                                           F64]>>:$inputs,
                       Variadic<AnyRankedTensor>:$outputs,
                       DenseI64ArrayAttr:$output_positions,
                       OptionalAttr<DenseI64ArrayAttr>:$updates,
                       OptionalAttr<TypedArrayAttrBase<DenseI64ArrayAttr,
                                    "one permutation per argument">>:$views);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` `outs` `(` $outputs `)` attr-dict `:`
    `(` type($inputs) `)` `,` `(` type($outputs) `)` `->` type($results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The call's arguments in the callee's order.
    ::llvm::SmallVector<::mlir::Value> getCallArguments();
    /// The permutation of argument `i` (empty: none).
    ::llvm::ArrayRef<int64_t> getView(unsigned i);
    /// The callee's type: tensors as unranked memrefs, returning i32.
    ::mlir::FunctionType getCalleeType();
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
  }];
}

#endif // TENSORPLAY_DIALECT_TPRUNTIME_IR_TPRUNTIMEOPS_TD
