//===- ShapeRules.cpp - Shape utilities, checks of every op, inference ----===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tp;

std::string mlir::tp::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      "x");
  return text;
}

LogicalResult mlir::tp::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                                        SmallVectorImpl<int64_t> &result) {
  result.clear();
  for (ArrayRef<int64_t> shape : shapes) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(result, shape, next))
      return failure();
    result.assign(next.begin(), next.end());
  }
  return success();
}

bool mlir::tp::broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  size_t offset = to.size() - from.size();
  for (auto [i, dim] : llvm::enumerate(from)) {
    int64_t target = to[offset + i];
    if (dim != 1 && dim != target && !ShapedType::isDynamic(dim) &&
        !ShapedType::isDynamic(target))
      return false;
  }
  return true;
}

FailureOr<int64_t> mlir::tp::normalizeDim(const RuleContext &op, int64_t dim,
                                          int64_t rank, StringRef what) {
  int64_t bound = std::max<int64_t>(rank, 1); // scalars accept dim 0 and -1
  if (dim < -bound || dim >= bound)
    return op.emitOpError() << what << " " << dim
                            << " is out of range for a tensor of rank " << rank;
  return normalizeDim(dim, rank);
}

static bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

LogicalResult mlir::tp::RuleContext::verifyResultShapes() const {
  assert(op && "verifying the results of an op not built yet");
  for (auto [index, expected] : llvm::enumerate(resultShapes)) {
    if (!expected)
      continue;
    ArrayRef<int64_t> actual = shapeOf(op->getResult(index));
    // Same rank, each dimension equal or dynamic on either side.
    if (failed(verifyCompatibleShape(actual, *expected)))
      return op->emitOpError("result #")
             << index << " has shape " << formatShape(actual)
             << " but the operands imply " << formatShape(*expected);
  }
  return success();
}

LogicalResult mlir::tp::expectRank(const RuleContext &op, Value value,
                                   StringRef what, int64_t minRank,
                                   int64_t maxRank) {
  int64_t rank = rankOf(value);
  if (rank >= minRank && rank <= maxRank)
    return success();
  InFlightDiagnostic diag = op.emitOpError("expected ") << what << " of rank ";
  if (minRank == maxRank)
    diag << minRank;
  else if (maxRank == std::numeric_limits<int64_t>::max())
    diag << minRank << " or more";
  else
    diag << minRank << " to " << maxRank;
  return diag << ", got rank " << rank;
}

SmallVector<int64_t>
mlir::tp::reductionDims(std::optional<ArrayRef<int64_t>> dims, int64_t rank) {
  SmallVector<int64_t> result;
  if (!dims || dims->empty()) {
    for (int64_t d = 0; d < rank; ++d)
      result.push_back(d);
    return result;
  }
  for (int64_t d : *dims)
    result.push_back(normalizeDim(d, rank));
  llvm::sort(result);
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

LogicalResult mlir::tp::expectDimsMatch(const RuleContext &op, int64_t a,
                                        int64_t b, const Twine &message) {
  if (dimsCompatible(a, b))
    return success();
  return op.emitOpError(message) << " (" << a << " vs " << b << ")";
}

LogicalResult mlir::tp::expectGradShape(const RuleContext &op, Value grad,
                                        ArrayRef<int64_t> expected,
                                        StringRef whose) {
  ArrayRef<int64_t> g = shapeOf(grad);
  if (g.size() != expected.size())
    return op.emitOpError("grad_output must have the ")
           << whose << "'s shape " << formatShape(expected) << ", got "
           << formatShape(g);
  for (auto [d, sizes] : llvm::enumerate(llvm::zip(g, expected)))
    if (failed(expectDimsMatch(op, std::get<0>(sizes), std::get<1>(sizes),
                               "grad_output dim " + Twine(d) +
                                   " must equal the " + whose + "'s")))
      return failure();
  return success();
}

/// The tensorplay operator of a tp op without an out= overload
/// (NoOutForm.def), or nullptr when the op has one.
static const char *operatorWithoutOutForm(StringRef mnemonic) {
  static const llvm::StringMap<const char *> table = {
#define TP_NO_OUT_FORM(op, aten) {op, aten},
#include "tensorplay/Dialect/TP/IR/NoOutForm.def"
  };
  auto it = table.find(mnemonic);
  return it == table.end() ? nullptr : it->second;
}

LogicalResult mlir::tp::verifyFormArgs(Operation *op) {
  auto compute = cast<ComputeOpInterface>(op);
  OperandRange operands = op->getOperands();
  OperandRange computeOperands = compute.getComputeOperands();
  unsigned numOut = operands.size() - computeOperands.size();
  bool inplace = compute.isInplace();
  if (inplace && numOut)
    return op->emitOpError("cannot be both in-place and have out= operands");
  if (numOut)
    if (const char *aten = operatorWithoutOutForm(op->getName().stripDialect()))
      return op->emitOpError("has no out= form: tensorplay's operator (")
             << aten << ") has no out= overload";
  if (numOut && numOut != op->getNumResults())
    return op->emitOpError("expected ")
           << op->getNumResults() << " out= operand(s), one per result, got "
           << numOut;
  for (unsigned i = 0; i < numOut; ++i) {
    Type outType = operands[computeOperands.size() + i].getType();
    if (outType != op->getResult(i).getType())
      return op->emitOpError("out= operand #")
             << i << " has type " << outType << " but result #" << i
             << " has type " << op->getResult(i).getType();
  }
  if (inplace) {
    if (op->getNumResults() != 1)
      return op->emitOpError("in-place form needs exactly one result");
    if (computeOperands.empty() ||
        computeOperands.front().getType() != op->getResult(0).getType())
      return op->emitOpError("in-place form must have the type of its first "
                             "operand (the tensor it updates), got ")
             << op->getResult(0).getType();
  }
  return success();
}

LogicalResult mlir::tp::verifyResultElementTypes(Operation *op) {
  auto compute = cast<ComputeOpInterface>(op);
  // In-place and out= results follow the destination (checked above); the
  // operands still obey the op's rule (an mm of bf16 and f32 is an error
  // with out= too, as in tensorplay).
  if (compute.isInplaceOrOut()) {
    SmallVector<Type> inferred;
    return compute.inferResultElementTypes(inferred, /*emit=*/true);
  }
  if (Type dtype = compute.getExplicitDtype()) {
    if (!isFloatingOrComplex(dtype) && !isa<IntegerType>(dtype))
      return op->emitOpError("dtype must be a tensorplay element type, got ")
             << dtype;
  }
  // Mixed floating operands where the rule wants one dtype: the op was
  // captured under eager autocast, whose result dtype depends on the
  // device's lists: the declared result dtypes are accepted as they are;
  // tp-autocast resolves the op (and re-infers them), the lowerings refuse
  // it unresolved.
  if (compute.hasMixedFloatingOperands())
    return success();
  SmallVector<Type> expected;
  if (failed(compute.inferResultElementTypes(expected, /*emit=*/true)))
    return failure();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(op->getResults(), expected))) {
    Type actual = elementTypeOf(std::get<0>(pair));
    if (actual != std::get<1>(pair))
      return op->emitOpError("result #")
             << index << " has element type " << actual << " but "
             << (compute.getExplicitDtype() ? "the explicit dtype"
                                            : "the operands")
             << " imply " << std::get<1>(pair);
  }
  return success();
}

LogicalResult mlir::tp::verifyExplicitDtype(const RuleContext &op,
                                            DtypeKind kind) {
  Type dtype = op.getExplicitDtype();
  if (!dtype || kind == DtypeKind::Any || isa<FloatType>(dtype) ||
      (kind == DtypeKind::FloatingOrComplex && isa<ComplexType>(dtype)))
    return success();
  return op.emitOpError("dtype must be a floating point ")
         << (kind == DtypeKind::Floating ? "type" : "or complex type")
         << ", got " << dtype;
}

LogicalResult mlir::tp::inferComputeResultTypes(RuleContext &context,
                                                OperandRule rule,
                                                ArrayRef<ResultKind> kinds,
                                                bool inplace, ValueRange out,
                                                SmallVectorImpl<Type> &types) {
  types.clear();
  // In-place and out= results follow their destinations.
  if (inplace) {
    if (context.getComputeOperands().empty())
      return context.emitOpError("in-place form needs an operand to update");
    types.push_back(context.getOperand(0).getType());
    return success();
  }
  if (!out.empty()) {
    llvm::append_range(types, out.getTypes());
    return success();
  }
  SmallVector<Type> elementTypes;
  if (failed(inferResultElementTypes(context, rule, kinds,
                                     context.getComputeOperands(),
                                     context.getExplicitDtype(), elementTypes,
                                     /*emit=*/true)))
    return failure();
  for (auto [index, elementType] : llvm::enumerate(elementTypes)) {
    std::optional<ArrayRef<int64_t>> shape = context.getResultShape(index);
    if (!shape)
      return context.emitOpError("the shape of result #")
             << index
             << " does not follow from the operands and attributes; build "
                "the op with explicit result types";
    types.push_back(RankedTensorType::get(*shape, elementType));
  }
  return success();
}

/// Runs the inference of op `name` on an unlinked instance whose results
/// are placeholders (the rules read only operands and attributes), after
/// the op's declared invariants (operand count, required attributes, type
/// constraints) on which the rules rely; fails quietly.
FailureOr<SmallVector<Type>>
mlir::tp::inferResultTypes(MLIRContext *context, StringRef name,
                           ValueRange operands,
                           ArrayRef<NamedAttribute> attributes) {
  std::optional<RegisteredOperationName> info =
      RegisteredOperationName::lookup(name, context);
  if (!info || !info->hasInterface<InferTypeOpInterface>() ||
      !info->hasInterface<ComputeOpInterface>())
    return failure();
  unsigned numResults =
      info->getInterface<ComputeOpInterface>()->getNumRuleResults();
  // The probe's diagnostics carry a location of their own and are dropped.
  Location probeLoc =
      NameLoc::get(StringAttr::get(context, "tp.rule-inference-probe"));
  OperationState state(probeLoc, *info);
  state.addOperands(operands);
  state.addAttributes(attributes);
  state.addTypes(SmallVector<Type>(
      numResults, RankedTensorType::get({}, Float32Type::get(context))));
  Operation *probe = Operation::create(state);
  // An inherent attribute of the wrong kind (a string for an enum) is
  // dropped by the op's properties rather than refused: refuse it here, so
  // that it is neither read as its default nor left null in the built op.
  for (NamedAttribute attribute : attributes) {
    std::optional<Attribute> inherent =
        probe->getInherentAttr(attribute.getName());
    if (inherent && *inherent != attribute.getValue()) {
      probe->destroy();
      return failure();
    }
  }
  SmallVector<Type> types;
  LogicalResult inferred = failure();
  {
    ScopedDiagnosticHandler quiet(context, [probeLoc](Diagnostic &diag) {
      return success(diag.getLocation() == probeLoc);
    });
    if (succeeded(cast<ComputeOpInterface>(probe).verifyDeclaredInvariants()))
      inferred = cast<InferTypeOpInterface>(probe).inferReturnTypes(
          context, /*location=*/std::nullopt, probe->getOperands(),
          probe->getRawDictionaryAttrs(), probe->getPropertiesStorage(),
          probe->getRegions(), types);
  }
  probe->destroy();
  if (failed(inferred))
    return failure();
  return types;
}

NamedAttrList mlir::tp::attributesWithOutSegment(Operation *op,
                                                 int32_t numOut) {
  NamedAttrList attrs(op->getAttrDictionary());
  if (auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(
          attrs.get("operandSegmentSizes"))) {
    SmallVector<int32_t> segments(sizes.asArrayRef());
    segments.back() = numOut;
    attrs.set("operandSegmentSizes",
              DenseI32ArrayAttr::get(op->getContext(), segments));
  }
  return attrs;
}

Operation *
mlir::tp::createWithInferredResultTypes(OpBuilder &builder, Location loc,
                                        StringRef name, ValueRange operands,
                                        ArrayRef<NamedAttribute> attributes) {
  FailureOr<SmallVector<Type>> types =
      inferResultTypes(builder.getContext(), name, operands, attributes);
  if (failed(types))
    return nullptr;
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attributes);
  state.addTypes(*types);
  return builder.create(state);
}
