//===- AutocastState.cpp - The autocast state at a program point ----------===//
//
// The per-device autocast context: how a function starts (the option, its
// tp.device, the context recorded on a specialization), how tp.autocast
// regions change it, and the state at any op.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/AutocastDecision.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tp;

static constexpr StringLiteral kDeviceAttr = TPDialect::kDeviceAttrName;
static constexpr Device kDevices[] = {Device::Cuda, Device::Xpu, Device::Cpu};

std::string AutocastState::tag() const {
  if (!enabled)
    return "off";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (device ? deviceName(*device) : StringRef("any")) << "_" << dtype;
  return text;
}

//===----------------------------------------------------------------------===//
// AutocastContext
//===----------------------------------------------------------------------===//

AutocastContext AutocastContext::initial(MLIRContext *context,
                                         const AutocastOptions &options,
                                         std::optional<Device> device) {
  AutocastContext result;
  result.device = device;
  for (Device d : kDevices) {
    AutocastState state;
    state.device = d;
    if (options.target && options.target->device == d) {
      state.enabled = true;
      state.dtype = options.target->getDtype(context);
    }
    result.set(state);
  }
  return result;
}

AutocastState AutocastContext::current() const {
  if (!device)
    return AutocastState();
  return get(*device);
}

AutocastContext AutocastContext::enter(AutocastOp region) const {
  AutocastContext result = *this;
  // The verifier guarantees a known device type.
  Device d = *parseDevice(region.getDeviceType());
  AutocastState state;
  state.device = d;
  state.enabled = region.getEnabled();
  state.dtype = region.getEffectiveDtype();
  state.cacheEnabled = region.getCacheEnabled();
  result.set(state);
  if (!result.device)
    result.device = d;
  return result;
}

std::string AutocastContext::key() const {
  std::string text = device ? deviceName(*device).str() : "?";
  for (const AutocastState &state : states)
    text += "/" + state.tag() + (state.cacheEnabled ? "" : "_nocache");
  return text;
}

bool mlir::tp::isDeviceMismatch(const AutocastState &state,
                                const AutocastOptions &options) {
  return !state.enabled && state.device && options.target &&
         options.target->device != *state.device;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

FailureOr<std::optional<Device>> mlir::tp::getDeclaredDevice(Operation *func) {
  Attribute attr = func->getAttr(kDeviceAttr);
  if (!attr)
    return std::optional<Device>();
  auto name = dyn_cast<StringAttr>(attr);
  if (!name)
    return func->emitError("tp.device must be a string: cuda, xpu or cpu");
  std::optional<Device> device = parseDevice(name.getValue());
  if (!device)
    return func->emitError("unknown tp.device '")
           << name.getValue() << "': expected one of cuda, xpu, cpu";
  return device;
}

/// The device of a function as its attributes and the options say.
static FailureOr<std::optional<Device>>
getAttributedDevice(Operation *func, const AutocastOptions &options) {
  FailureOr<std::optional<Device>> declared = getDeclaredDevice(func);
  if (failed(declared) || *declared || !options.target)
    return declared;
  return std::optional<Device>(options.target->device);
}

/// Reads {dtype, enabled, cache_enabled} into `state`; false if malformed.
static bool parseState(DictionaryAttr dict, AutocastState &state) {
  auto enabled = dict.getAs<BoolAttr>("enabled");
  auto cacheEnabled = dict.getAs<BoolAttr>("cache_enabled");
  if (!enabled || !cacheEnabled)
    return false;
  state.enabled = enabled.getValue();
  state.cacheEnabled = cacheEnabled.getValue();
  state.dtype = {};
  if (auto dtype = dict.getAs<TypeAttr>("dtype"))
    state.dtype = dtype.getValue();
  return !state.enabled ||
         (state.dtype && (state.dtype.isF16() || state.dtype.isBF16()));
}

static void recordState(Builder &b, const AutocastState &state,
                        SmallVectorImpl<NamedAttribute> &attrs) {
  if (state.enabled)
    attrs.push_back(b.getNamedAttr("dtype", TypeAttr::get(state.dtype)));
  attrs.push_back(b.getNamedAttr("enabled", b.getBoolAttr(state.enabled)));
  attrs.push_back(
      b.getNamedAttr("cache_enabled", b.getBoolAttr(state.cacheEnabled)));
}

FailureOr<AutocastContext>
mlir::tp::getFunctionAutocastContext(Operation *func,
                                     const AutocastOptions &options) {
  MLIRContext *ctx = func->getContext();
  auto recorded = func->getAttrOfType<DictionaryAttr>(kAutocastStateAttrName);
  if (!recorded) {
    if (func->hasAttr(kAutocastStateAttrName))
      return func->emitError("malformed ")
             << kAutocastStateAttrName << " attribute: expected a dictionary";
    FailureOr<std::optional<Device>> device =
        getAttributedDevice(func, options);
    if (failed(device))
      return failure();
    return AutocastContext::initial(ctx, options, *device);
  }
  auto malformed = [&] {
    return func->emitError("malformed ")
           << kAutocastStateAttrName << " attribute " << recorded;
  };
  std::optional<Device> device;
  if (auto name = recorded.getAs<StringAttr>("device_type")) {
    device = parseDevice(name.getValue());
    if (!device)
      return malformed();
  }
  AutocastContext context = AutocastContext::initial(ctx, options, device);
  AutocastState own;
  if (!parseState(recorded, own))
    return malformed();
  if (device) {
    own.device = device;
    context.set(own);
  }
  for (Device d : kDevices) {
    Attribute entry = recorded.get(deviceName(d));
    if (!entry)
      continue;
    auto dict = dyn_cast<DictionaryAttr>(entry);
    AutocastState other;
    other.device = d;
    if (!dict || !parseState(dict, other))
      return malformed();
    context.set(other);
  }
  return context;
}

void mlir::tp::setFunctionAutocastContext(Operation *func,
                                          const AutocastContext &context,
                                          const AutocastOptions &options) {
  func->removeAttr(kAutocastStateAttrName);
  FailureOr<std::optional<Device>> device = getAttributedDevice(func, options);
  MLIRContext *ctx = func->getContext();
  AutocastContext implied = AutocastContext::initial(
      ctx, options, succeeded(device) ? *device : std::nullopt);
  if (succeeded(device) && implied == context)
    return;
  Builder b(ctx);
  SmallVector<NamedAttribute> attrs;
  if (std::optional<Device> own = context.getDevice()) {
    attrs.push_back(
        b.getNamedAttr("device_type", b.getStringAttr(deviceName(*own))));
    recordState(b, context.get(*own), attrs);
  } else {
    recordState(b, AutocastState(), attrs);
  }
  AutocastContext base =
      AutocastContext::initial(ctx, options, context.getDevice());
  for (Device d : kDevices) {
    if (d == context.getDevice() || context.get(d) == base.get(d))
      continue;
    SmallVector<NamedAttribute> entry;
    recordState(b, context.get(d), entry);
    attrs.push_back(b.getNamedAttr(deviceName(d), b.getDictionaryAttr(entry)));
  }
  func->setAttr(kAutocastStateAttrName, b.getDictionaryAttr(attrs));
}

FailureOr<AutocastState>
mlir::tp::autocastStateAt(Operation *op, const AutocastOptions &options) {
  SmallVector<AutocastOp> regions;
  Operation *func = op->getParentOp();
  for (; func && !isa<FunctionOpInterface>(func); func = func->getParentOp())
    if (auto region = dyn_cast<AutocastOp>(func))
      regions.push_back(region);
  AutocastContext context = AutocastContext::initial(
      op->getContext(), options,
      options.target ? std::optional<Device>(options.target->device)
                     : std::nullopt);
  if (func) {
    FailureOr<AutocastContext> start =
        getFunctionAutocastContext(func, options);
    if (failed(start))
      return failure();
    context = *start;
  }
  for (AutocastOp region : llvm::reverse(regions))
    context = context.enter(region);
  return context.current();
}
