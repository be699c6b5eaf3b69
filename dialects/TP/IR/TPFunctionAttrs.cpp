//===- TPFunctionAttrs.cpp - The tp dialect's function attributes ---------===//

#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// The keys of tp.train_step's options and the attribute kind of each.
enum class Kind { Integer, Float, Bool, String };
struct OptionKey {
  const char *name;
  Kind kind;
  bool required;
};
const OptionKey kOptionKeys[] = {
    {"num_inputs", Kind::Integer, true},
    {"optimizer", Kind::String, true},
    {"lr", Kind::Float, true},
    {"momentum", Kind::Float, true},
    {"dampening", Kind::Float, true},
    {"nesterov", Kind::Bool, true},
    {"weight_decay", Kind::Float, true},
    {"beta1", Kind::Float, true},
    {"beta2", Kind::Float, true},
    {"eps", Kind::Float, true},
    {"amsgrad", Kind::Bool, true},
    {"maximize", Kind::Bool, true},
    {"grad_scaler", Kind::Bool, true},
    {"growth_factor", Kind::Float, true},
    {"backoff_factor", Kind::Float, true},
    {"growth_interval", Kind::Integer, true},
    // Absent in steps recorded before the option existed.
    {"param_copies", Kind::Bool, false},
    {"world_size", Kind::Integer, false},
    {"bucket_bytes", Kind::Integer, false},
    {"overlap", Kind::Bool, false},
};

bool hasKind(Attribute a, Kind kind) {
  switch (kind) {
  case Kind::Integer:
    return isa<IntegerAttr>(a) && !isa<BoolAttr>(a);
  case Kind::Float:
    return isa<FloatAttr>(a);
  case Kind::Bool:
    return isa<BoolAttr>(a);
  case Kind::String:
    return isa<StringAttr>(a);
  }
  return false;
}

bool nonNegative(ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t v) { return v >= 0; });
}

bool distinct(ArrayRef<int64_t> values) {
  llvm::DenseSet<int64_t> seen;
  for (int64_t v : values)
    if (!seen.insert(v).second)
      return false;
  return true;
}

bool isTrainStepOptions(DictionaryAttr options) {
  for (const OptionKey &key : kOptionKeys) {
    Attribute a = options.get(key.name);
    if (!a ? key.required : !hasKind(a, key.kind))
      return false;
  }
  return options.size() <= std::size(kOptionKeys) &&
         llvm::all_of(options, [](NamedAttribute entry) {
           return llvm::any_of(kOptionKeys, [&](const OptionKey &key) {
             return entry.getName().getValue() == key.name;
           });
         });
}

bool isTrainStepLayout(DictionaryAttr layout) {
  auto params = layout.getAs<DenseI64ArrayAttr>("params");
  auto state = layout.getAs<ArrayAttr>("state");
  auto options = layout.getAs<DictionaryAttr>("options");
  Attribute copies = layout.get("param_copies");
  if (!layout.getAs<StringAttr>("function") || !params ||
      !nonNegative(params.asArrayRef()) || !state || !options ||
      !isTrainStepOptions(options) ||
      (copies && !isa<DenseI64ArrayAttr>(copies)))
    return false;
  if (!llvm::all_of(state, [](Attribute a) { return isa<StringAttr>(a); }))
    return false;
  return layout.size() == 4u + (copies ? 1u : 0u);
}
} // namespace

std::optional<GradientLink> tp::getGradientOf(Operation *function) {
  auto link = function->getAttrOfType<DictionaryAttr>(kGradientOfAttrName);
  auto callee = link ? link.getAs<FlatSymbolRefAttr>("function") : nullptr;
  auto wrt = link ? link.getAs<DenseI64ArrayAttr>("wrt") : nullptr;
  if (!callee || !wrt)
    return std::nullopt;
  return GradientLink{callee, wrt.asArrayRef()};
}

std::optional<TrainStepLayout> tp::getTrainStep(Operation *function) {
  auto layout = function->getAttrOfType<DictionaryAttr>(kTrainStepAttrName);
  if (!layout || !isTrainStepLayout(layout))
    return std::nullopt;
  TrainStepLayout out;
  out.function = layout.getAs<StringAttr>("function").getValue();
  out.params = layout.getAs<DenseI64ArrayAttr>("params").asArrayRef();
  for (Attribute name : layout.getAs<ArrayAttr>("state"))
    out.state.push_back(cast<StringAttr>(name).getValue());
  if (auto copies = layout.getAs<DenseI64ArrayAttr>("param_copies"))
    out.paramCopies = copies.asArrayRef();
  out.options = layout.getAs<DictionaryAttr>("options");
  out.numInputs = out.options.getAs<IntegerAttr>("num_inputs").getInt();
  out.gradScaler = out.options.getAs<BoolAttr>("grad_scaler").getValue();
  out.optimizer = out.options.getAs<StringAttr>("optimizer").getValue();
  return out;
}

std::optional<ArrayRef<int64_t>> tp::getCastArguments(Operation *function) {
  if (auto a = function->getAttrOfType<DenseI64ArrayAttr>(
          kCastArgumentsAttrName))
    return a.asArrayRef();
  return std::nullopt;
}

std::optional<ArrayRef<int64_t>>
tp::getDonatedArguments(Operation *function) {
  if (auto a = function->getAttrOfType<DenseI64ArrayAttr>(kDonateAttrName))
    return a.asArrayRef();
  return std::nullopt;
}

/// tp.donate: an array<i64>; on a func.func one entry per result, each -1
/// or a distinct argument index. (That each result's type is its argument's
/// the CPU pipeline checks, tp::verifyDonation: the types change as it
/// lowers.)
static LogicalResult verifyDonate(Operation *op, Attribute value) {
  auto attr = dyn_cast<DenseI64ArrayAttr>(value);
  if (!attr)
    return op->emitOpError(kDonateAttrName)
           << " must be an array<i64> with one entry per result";
  auto fn = dyn_cast<func::FuncOp>(op);
  if (!fn)
    return success();
  ArrayRef<int64_t> donors = attr.asArrayRef();
  if (donors.size() != fn.getNumResults())
    return fn.emitOpError(kDonateAttrName)
           << " has " << donors.size() << " entries for " << fn.getNumResults()
           << " results";
  llvm::DenseSet<int64_t> seen;
  for (auto [j, donor] : llvm::enumerate(donors)) {
    if (donor < 0)
      continue;
    if (donor >= static_cast<int64_t>(fn.getNumArguments()))
      return fn.emitOpError(kDonateAttrName)
             << ": result #" << j << " names argument #" << donor
             << ", which does not exist";
    if (!seen.insert(donor).second)
      return fn.emitOpError(kDonateAttrName)
             << ": argument #" << donor << " is donated twice";
  }
  return success();
}

std::optional<LogicalResult>
tp::verifyFunctionAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name != kGradientOfAttrName && name != kTrainStepAttrName &&
      name != kCastArgumentsAttrName && name != kDonateAttrName)
    return std::nullopt;
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function)
    return op->emitOpError(name) << " belongs on a function";
  Attribute value = attribute.getValue();
  if (name == kGradientOfAttrName) {
    auto link = dyn_cast<DictionaryAttr>(value);
    auto callee = link ? link.getAs<FlatSymbolRefAttr>("function") : nullptr;
    auto wrt = link ? link.getAs<DenseI64ArrayAttr>("wrt") : nullptr;
    if (!callee || !wrt || link.size() != 2 ||
        !nonNegative(wrt.asArrayRef()) || !distinct(wrt.asArrayRef()))
      return op->emitOpError("malformed ")
             << kGradientOfAttrName
             << ": expected {function = @f, wrt = array<i64: ...>} with "
                "distinct argument indices";
    return success();
  }
  if (name == kTrainStepAttrName) {
    auto layout = dyn_cast<DictionaryAttr>(value);
    if (!layout || !isTrainStepLayout(layout))
      return op->emitOpError("malformed ")
             << kTrainStepAttrName
             << ": expected the layout and options tp-train-step records";
    return success();
  }
  if (name == kCastArgumentsAttrName) {
    auto indices = dyn_cast<DenseI64ArrayAttr>(value);
    int64_t count = static_cast<int64_t>(function.getNumArguments());
    bool ok = indices && llvm::all_of(indices.asArrayRef(), [&](int64_t i) {
                return i >= 0 && i < count;
              });
    if (ok) {
      ArrayRef<int64_t> values = indices.asArrayRef();
      for (size_t i = 1; i < values.size(); ++i)
        ok &= values[i - 1] < values[i];
    }
    if (!ok)
      return op->emitOpError("malformed ")
             << kCastArgumentsAttrName
             << ": expected ascending argument indices below " << count;
    return success();
  }
  return verifyDonate(op, value);
}
