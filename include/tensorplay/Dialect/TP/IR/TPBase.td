//===- TPBase.td - tp dialect base definitions -------------*- tablegen -*-===//
//
// The tp dialect: tensorplay programs on builtin ranked tensors. This file
// holds the dialect record, the type constraints, the traits that carry each
// op's dtype rule, the autocast-facing interface and the base op classes that
// every op family builds on.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPBASE_TD
#define TENSORPLAY_DIALECT_TP_IR_TPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TP_Dialect : Dialect {
  let name = "tp";
  let cppNamespace = "::mlir::tp";
  let summary = "Tensor ops of tensorplay programs, with autocast regions";
  let description = [{
    The `tp` dialect models tensorplay (PyTorch-like) programs: one op per
    tensorplay operator, on builtin ranked tensors. Operands, attributes and
    results follow the tensorplay/PyTorch schema of each operator. Scalars that
    tensorplay passes as Python numbers are attributes. In-place variants carry
    the `inplace` unit attribute and explicit `out=` destinations are trailing
    `out(...)` operands. `tp.cast` is the one op that changes an element type on
    purpose, and `tp.autocast` regions scope the autocast state.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The dialect's discardable attributes, checked by
    /// verifyOperationAttribute. `tp.device` (a DeviceType name) pins a
    /// function to an autocast device; `tp.autocast_state` records the
    /// autocast context a function specialization was made for:
    /// {device_type = "<device>", enabled, cache_enabled, dtype = f16|bf16
    /// (when enabled), <device> = {enabled, cache_enabled, dtype} ...}.
    static constexpr ::llvm::StringLiteral kDeviceAttrName = "tp.device";
    static constexpr ::llvm::StringLiteral kAutocastStateAttrName =
        "tp.autocast_state";
  }];
}

//===----------------------------------------------------------------------===//
// Enums and their attributes (#tp.<mnemonic><value>)
//===----------------------------------------------------------------------===//

/// The devices of tensorplay.amp's device_type.
def TP_DeviceType : I32EnumAttr<"DeviceType", "autocast device type", [
    I32EnumAttrCase<"Cuda", 0, "cuda">, I32EnumAttrCase<"Xpu", 1, "xpu">,
    I32EnumAttrCase<"Cpu", 2, "cpu">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
/// The device of a tp.autocast region (written as a string there).
def TP_DeviceTypeAttr : EnumAttr<TP_Dialect, TP_DeviceType, "device"> {
  let assemblyFormat = "`<` $value `>`";
}

/// A loss's `reduction`: `none` keeps the per-element (or per-sample)
/// losses, `mean` and `sum` reduce them to a 0-d tensor.
def TP_Reduction : I32EnumAttr<"Reduction",
    "loss reduction: #tp.reduction<none|mean|sum>", [
    I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Mean", 1, "mean">,
    I32EnumAttrCase<"Sum", 2, "sum">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def TP_ReductionEnumAttr : EnumAttr<TP_Dialect, TP_Reduction, "reduction"> {
  let assemblyFormat = "`<` $value `>`";
}

/// gelu's `approximate`: the exact erf form or the tanh approximation.
def TP_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "gelu approximation: #tp.approximate<none|tanh>", [
    I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"Tanh", 1, "tanh">]> {
  let cppNamespace = "::mlir::tp";
  let genSpecializedAttr = 0;
}
def TP_GeluApproximationAttr : EnumAttr<TP_Dialect, TP_GeluApproximation,
                                        "approximate"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TP_ElementType : AnyTypeOf<[F16, BF16, F32, F64, Complex<F32>, Complex<F64>,
                                I1, I8, I16, I32, I64, UI8],
                               "tensorplay element type">;
def TP_Tensor : RankedTensorOf<[F16, BF16, F32, F64, Complex<F32>,
                                Complex<F64>, I1, I8, I16, I32, I64, UI8]>;
/// tp.cast's operand and result: any tensorplay element type and the OCP
/// 8-bit floats, which no other op takes (tp computes on them only through
/// casts; the dialect's verifiers refuse them elsewhere, naming the op).
def TP_CastTensor : RankedTensorOf<[F16, BF16, F32, F64, Complex<F32>,
                                    Complex<F64>, I1, I8, I16, I32, I64, UI8,
                                    F8E4M3FN, F8E5M2]>;
def TP_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]>;
def TP_IntTensor : RankedTensorOf<[I32, I64]>;

//===----------------------------------------------------------------------===//
// Dtype rules (see include/tensorplay/Dialect/TP/IR/DtypeRules.h)
//===----------------------------------------------------------------------===//

/// How an op's computation dtype follows from its operands:
///   Same     all floating operands share one element type (mm, conv, ...)
///   Promote  tensorplay's result_type over the tensor operands (add, cat, ...)
///   Float    as Promote, but integral inputs compute in f32 (exp, log, ...)
///   First    the dtype of the first operand (reshape, layer_norm, pools, ...)
/// and, per result, what the result holds: `Value` (the computation dtype),
/// `Complex` / `Real` (its complex or real counterpart), `I64`, `I32`, `Bool`,
/// `Weight` (the third operand's dtype where there is one: the parameter
/// gradients of a normalization's backward, f32 for an f32 weight of a bf16
/// input, as PyTorch's mixed-type kernels give).
class TP_DtypeRule<string operandRule, list<string> results = ["Value"]>
    : ParamNativeOpTrait<"DtypeRuleTrait",
        "::mlir::tp::OperandRule::" # operandRule #
        !foldl("", results, acc, r, acc # ", ::mlir::tp::ResultKind::" # r)> {
  let cppNamespace = "::mlir::tp";
  /// The rule in words, for the generated op documentation.
  string doc = "**Dtype rule** (`" # operandRule # "`): " # !cond(
      !eq(operandRule, "Same"):
        "all floating operands share one element type and the op computes "
        "in it (integral operands such as indices or targets take no part); "
        "a program captured under eager autocast may mix them until "
        "tp-autocast resolves the op, and the lowerings refuse it before.",
      !eq(operandRule, "Promote"):
        "tensorplay's native type promotion (`torch.result_type`) over the "
        "tensor operands: a higher category wins (bool < integer < floating "
        "< complex), dimensioned tensors before 0-d ones within a category.",
      !eq(operandRule, "Float"):
        "native type promotion over the tensor operands; an integral or bool "
        "promoted type computes in f32.",
      !eq(operandRule, "First"): "the element type of the first operand.",
      !eq(operandRule, "Accumulate"):
        "the element type of the first operand; integral and bool inputs "
        "accumulate in i64.") #
      " " # !if(!eq(!size(results), 1), "The result holds ", "The results hold ") #
      !interleave(!foreach(r, results, !cond(
          !eq(r, "Value"): "the computation dtype",
          !eq(r, "Complex"): "its complex counterpart (complex<f32> for f16, "
                             "bf16 and integral inputs)",
          !eq(r, "Real"): "its real counterpart",
          !eq(r, "I64"): "i64",
          !eq(r, "I32"): "i32",
          !eq(r, "U8"): "ui8",
          !eq(r, "Bool"): "i1",
          !eq(r, "Weight"): "the dtype of the weight (the third operand) "
                            "where there is one, else the computation "
                            "dtype")), ", ") #
      ". An explicit `dtype` attribute, where the op has one, overrides the "
      "computation dtype.";
}

//===----------------------------------------------------------------------===//
// Interface: what autocast needs to know of every tp compute op
//===----------------------------------------------------------------------===//

def TP_ComputeOpInterface : OpInterface<"ComputeOpInterface"> {
  let cppNamespace = "::mlir::tp";
  let description = [{
    Implemented by every tp op that computes on tensors (all but the structural
    ops). Gives the autocast pass a uniform view: the operands that take part
    in the computation (without `out=` destinations), whether the op is an
    in-place or `out=` form, the explicit `dtype` if any, and the result
    element types the op's dtype rule implies for its current operands.
  }];
  let methods = [
    InterfaceMethod<"The operands that take part in the computation.",
      "::mlir::OperandRange", "getComputeOperands", (ins), [{}], [{
        auto all = $_op->getOperands();
        return all.take_front(all.size() - $_op.getOut().size());
      }]>,
    StaticInterfaceMethod<"The number of results the op's rules define.",
      "unsigned", "getNumRuleResults", (ins), [{}], [{
        return ConcreteOp::getResultKinds().size();
      }]>,
    InterfaceMethod<[{
        The op's declared invariants (ODS's generated checks): operand
        count and segments, required attributes, operand, attribute and
        result type constraints. The shape and dtype rules rely on them.
      }],
      "::llvm::LogicalResult", "verifyDeclaredInvariants", (ins), [{}], [{
        if (::mlir::failed(
                ::mlir::tp::verifyDeclaredOperandCount<ConcreteOp>($_op)))
          return ::mlir::failure();
        return $_op.verifyInvariantsImpl();
      }]>,
    InterfaceMethod<"True for the in-place variant.",
      "bool", "isInplace", (ins), [{}], [{
        return $_op.getInplace();
      }]>,
    InterfaceMethod<"True for the in-place variant or an explicit out= form.",
      "bool", "isInplaceOrOut", (ins), [{}], [{
        return $_op.getInplace() || !$_op.getOut().empty();
      }]>,
    InterfaceMethod<"The explicit dtype= of the op, or null.",
      "::mlir::Type", "getExplicitDtype", (ins), [{}], [{
        if (auto attr = $_op->template getAttrOfType<::mlir::TypeAttr>("dtype"))
          return attr.getValue();
        return {};
      }]>,
    InterfaceMethod<[{
        Computes the element type of every result from the current operands,
        attributes and dtype rule. Fails (emitting at the op when `emit` is
        set) when the operands break the rule, e.g. mixed dtypes where the
        op requires one.
      }],
      "::llvm::LogicalResult", "inferResultElementTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$types, "bool":$emit),
      [{}], [{
        return ::mlir::tp::inferResultElementTypes(
            ::mlir::tp::RuleContext($_op.getOperation()), ConcreteOp::getOperandRule(),
            ConcreteOp::getResultKinds(), $_op.getComputeOperands(),
            $_op.getExplicitDtype(), types, emit);
      }]>,
    InterfaceMethod<[{
        The element type the op computes in, by its dtype rule from the
        current operands (dtype= when set), before the per-result mapping
        (an argmax computing in f32 returns i64, an fft of f32 complex);
        null when the operands break the rule.
      }],
      "::mlir::Type", "getComputeElementType", (ins), [{}], [{
        ::mlir::FailureOr<::mlir::Type> type = ::mlir::tp::computeElementType(
            ::mlir::tp::RuleContext($_op.getOperation()), ConcreteOp::getOperandRule(),
            $_op.getComputeOperands(), $_op.getExplicitDtype(),
            /*emit=*/false);
        return ::mlir::succeeded(type) ? *type : ::mlir::Type();
      }]>,
    InterfaceMethod<[{
        True when the op's rule requires one floating dtype and its compute
        operands have several (captured under eager autocast, before
        tp-autocast resolved it; see hasMixedFloatingOperands).
      }],
      "bool", "hasMixedFloatingOperands", (ins), [{}], [{
        return ::mlir::tp::hasMixedFloatingOperands(
            ConcreteOp::getOperandRule(), $_op.getComputeOperands());
      }]>,
  ];
}

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

class TP_Op<string mnemonic, list<Trait> traits = []>
    : Op<TP_Dialect, mnemonic, traits>;

/// Arguments every compute op ends with: the in-place flag and the `out=`
/// destinations (none, or one per result).
defvar TP_FormArgs = (ins UnitAttr:$inplace, Variadic<TP_Tensor>:$out);

/// Base of every compute op. `summaryText` is the one-line summary, `args`
/// the op's own operands and attributes (the in-place flag and `out=`
/// destinations are appended), `operandsFormat` the assembly of those
/// operands, `exampleText` the example of the generated docs. `shapeRule` is
/// the op's shape rule: a C++ expression of type LogicalResult that checks
/// the operands and attributes and records the result shapes they imply
/// (ShapeRules.h); it sees `op` (a ::mlir::tp::RuleContext) and `adaptor`
/// (the op's Adaptor), never the results. The verifier checks the declared
/// result types against the shape and dtype rules, and InferTypeOpInterface
/// builds the op from operands and attributes with the same rules. Families
/// add `Pure` themselves (dropout is the one compute op that is not).
class TP_ComputeOp<string mnemonic, string summaryText, TP_DtypeRule rule,
                   dag args, string operandsFormat, string exampleText,
                   list<Trait> traits = [], code shapeRule = "::mlir::success()">
    : TP_Op<mnemonic, !listconcat(traits, [rule, TP_ComputeOpInterface,
        DeclareOpInterfaceMethods<InferTypeOpInterface, ["refineReturnTypes"]>,
        InferTypeOpAdaptor])> {
  let summary = summaryText;
  let arguments = !con(args, TP_FormArgs);
  let assemblyFormat = operandsFormat #
      " (`out` `(` $out^ `)`)? attr-dict `:` functional-type(operands, results)";
  /// What the op's family computes and its shape rule, in words (set by
  /// each family class; the generated documentation starts with it).
  string familyDescription = "";
  let description = !if(!eq(familyDescription, ""), "",
      familyDescription # "\n\n") # rule.doc # "\n\n"
      "Follows the tensorplay/PyTorch schema of `" # mnemonic #
      "`. Add the `inplace` unit attribute for the in-place variant (the "
      "result then has the type of the first operand) or trailing `out(...)` "
      "operands for explicit `out=` destinations (the results then have their "
      "types).\n\nExample:\n\n```mlir\n" # exampleText # "\n```\n";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The op's shape rule (its family's, ShapeRules.h): checks the operands
    /// and attributes of `adaptor` and records in `op` the result shapes
    /// they imply.
    static ::llvm::LogicalResult
    inferResultShapes(::mlir::tp::RuleContext &op, Adaptor adaptor);
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult
    $cppClass::inferResultShapes(::mlir::tp::RuleContext &op,
                                 Adaptor adaptor) {
      (void)adaptor;
      return }] # shapeRule # [{;
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::tp::verifyComputeOp(*this);
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::tp::inferComputeOpTypes<$cppClass>(context, location,
                                                       adaptor, types);
    }
    // verify() has checked the declared types against the same rules, with
    // a message naming the result and the shape or dtype the rules imply;
    // the interface's generic comparison would only repeat it.
    ::llvm::LogicalResult $cppClass::refineReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location>,
        ::mlir::ValueRange, ::mlir::DictionaryAttr, ::mlir::OpaqueProperties,
        ::mlir::RegionRange, ::llvm::SmallVectorImpl<::mlir::Type> &) {
      return ::mlir::success();
    }
  }];
}

/// A compute op with one result.
class TP_SingleResultOp<string mnemonic, string summaryText, TP_DtypeRule rule,
                        dag args, string operandsFormat, string exampleText,
                        list<Trait> traits = [],
                        code shapeRule = "::mlir::success()">
    : TP_ComputeOp<mnemonic, summaryText, rule, args, operandsFormat,
                   exampleText, !listconcat(traits, [Pure]), shapeRule> {
  let results = (outs TP_Tensor:$result);
}

/// Common attribute shapes.
defvar TP_ReductionAttr =
    DefaultValuedAttr<TP_ReductionEnumAttr, "::mlir::tp::Reduction::Mean">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPBASE_TD
