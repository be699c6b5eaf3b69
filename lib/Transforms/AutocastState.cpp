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
  os << (device ? stringifyDeviceType(*device) : StringRef("any")) << "_"
     << dtype;
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
  AutocastState state;
  state.device = region.getDeviceType();
  state.enabled = region.getEnabled();
  state.dtype = region.getEffectiveDtype();
  state.cacheEnabled = region.getCacheEnabled();
  result.set(state);
  if (!result.device)
    result.device = *state.device;
  return result;
}

/// The state custom_fwd looks at: its device's (else the code's device's).
static AutocastState decoratedState(const AutocastContext &context,
                                    CustomFunctionOp op) {
  std::optional<Device> device = op.getForwardDevice();
  if (!device)
    device = context.getDevice();
  return device ? context.get(*device) : AutocastState();
}

Type AutocastContext::castInputsAt(CustomFunctionOp op) const {
  // Like torch's _cast, only tensors on custom_fwd's device are cast: code
  // of another device keeps its inputs (and its own autocast state).
  Type castTo = op.getCastInputs();
  std::optional<Device> fwdDevice = op.getForwardDevice();
  if (!castTo || (device && fwdDevice && *device != *fwdDevice))
    return {};
  return decoratedState(*this, op).enabled ? castTo : Type();
}

AutocastContext AutocastContext::enterForward(CustomFunctionOp op) const {
  AutocastContext result = *this;
  if (castInputsAt(op)) {
    AutocastState off = decoratedState(*this, op);
    off.enabled = false;
    result.set(off);
  }
  return result;
}

bool AutocastContext::forwardUsesAutocast(CustomFunctionOp op) const {
  // Whether the forward region's ops run under autocast (on their device).
  return enterForward(op).current().enabled;
}

AutocastContext AutocastContext::enterBackward(CustomFunctionOp op) const {
  AutocastContext result = *this;
  if (std::optional<Device> device = op.getBackwardDevice()) {
    AutocastState state = get(*device);
    state.enabled = state.enabled && forwardUsesAutocast(op);
    result.set(state);
    return result;
  }
  for (Device d : kDevices) {
    AutocastState state = get(d);
    state.enabled = false;
    result.set(state);
  }
  return result;
}

std::string AutocastContext::key() const {
  std::string text = device ? stringifyDeviceType(*device).str() : "?";
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

// The dialect verifies tp.device and tp.autocast_state
// (TPDialect::verifyOperationAttribute), so they are read here without
// checks of their own.

std::optional<Device> mlir::tp::getDeclaredDevice(Operation *func) {
  auto name = func->getAttrOfType<StringAttr>(kDeviceAttr);
  return name ? symbolizeDeviceType(name.getValue()) : std::nullopt;
}

/// The device of a function as its attributes and the options say.
static std::optional<Device>
getAttributedDevice(Operation *func, const AutocastOptions &options) {
  if (std::optional<Device> declared = getDeclaredDevice(func))
    return declared;
  if (options.target)
    return options.target->device;
  return std::nullopt;
}

/// Reads {dtype, enabled, cache_enabled} (a verified autocast state).
static AutocastState readState(DictionaryAttr dict,
                               std::optional<Device> device) {
  AutocastState state;
  state.device = device;
  state.enabled = dict.getAs<BoolAttr>("enabled").getValue();
  state.cacheEnabled = dict.getAs<BoolAttr>("cache_enabled").getValue();
  if (auto dtype = dict.getAs<TypeAttr>("dtype"))
    state.dtype = dtype.getValue();
  return state;
}

static void recordState(Builder &b, const AutocastState &state,
                        SmallVectorImpl<NamedAttribute> &attrs) {
  if (state.enabled)
    attrs.push_back(b.getNamedAttr("dtype", TypeAttr::get(state.dtype)));
  attrs.push_back(b.getNamedAttr("enabled", b.getBoolAttr(state.enabled)));
  attrs.push_back(
      b.getNamedAttr("cache_enabled", b.getBoolAttr(state.cacheEnabled)));
}

AutocastContext
mlir::tp::getFunctionAutocastContext(Operation *func,
                                     const AutocastOptions &options) {
  MLIRContext *ctx = func->getContext();
  auto recorded = func->getAttrOfType<DictionaryAttr>(kAutocastStateAttrName);
  if (!recorded)
    return AutocastContext::initial(ctx, options,
                                    getAttributedDevice(func, options));
  std::optional<Device> device;
  if (auto name = recorded.getAs<StringAttr>("device_type"))
    device = symbolizeDeviceType(name.getValue());
  AutocastContext context = AutocastContext::initial(ctx, options, device);
  if (device)
    context.set(readState(recorded, device));
  for (Device d : kDevices)
    if (auto entry = recorded.getAs<DictionaryAttr>(stringifyDeviceType(d)))
      context.set(readState(entry, d));
  return context;
}

void mlir::tp::setFunctionAutocastContext(Operation *func,
                                          const AutocastContext &context,
                                          const AutocastOptions &options) {
  func->removeAttr(kAutocastStateAttrName);
  MLIRContext *ctx = func->getContext();
  AutocastContext implied = AutocastContext::initial(
      ctx, options, getAttributedDevice(func, options));
  if (implied == context)
    return;
  Builder b(ctx);
  SmallVector<NamedAttribute> attrs;
  if (std::optional<Device> own = context.getDevice()) {
    attrs.push_back(b.getNamedAttr("device_type",
                                   b.getStringAttr(stringifyDeviceType(*own))));
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
    attrs.push_back(
        b.getNamedAttr(stringifyDeviceType(d), b.getDictionaryAttr(entry)));
  }
  func->setAttr(kAutocastStateAttrName, b.getDictionaryAttr(attrs));
}

AutocastState mlir::tp::autocastStateAt(Operation *op,
                                        const AutocastOptions &options) {
  // The enclosing region ops, innermost first, with the region of each
  // that holds `op`.
  SmallVector<std::pair<Operation *, Region *>> regions;
  Region *inner = op->getParentRegion();
  Operation *func = op->getParentOp();
  for (; func && !isa<FunctionOpInterface>(func);
       inner = func->getParentRegion(), func = func->getParentOp())
    if (isa<AutocastOp, CustomFunctionOp>(func))
      regions.push_back({func, inner});
  AutocastContext context = AutocastContext::initial(
      op->getContext(), options,
      options.target ? std::optional<Device>(options.target->device)
                     : std::nullopt);
  if (func)
    context = getFunctionAutocastContext(func, options);
  for (auto [region, body] : llvm::reverse(regions)) {
    if (auto autocast = dyn_cast<AutocastOp>(region)) {
      context = context.enter(autocast);
      continue;
    }
    auto custom = cast<CustomFunctionOp>(region);
    context = body == &custom.getForward() ? context.enterForward(custom)
                                           : context.enterBackward(custom);
  }
  return context.current();
}
