//===- AutocastPolicy.cpp - tensorplay.amp op tables as data --------------===//
//
// The nine op tables of tensorplay.amp, transcribed verbatim from the seed
// (docs/tensorplay-amp.md, "Autocast Op Reference"); the unit test
// PolicyTablesTest checks every list against the seed document.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"

#include <optional>

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// The seed's tables
//===----------------------------------------------------------------------===//

// The seed's tables, as the seed lays them out (clang-format would put one
// name a line).
// clang-format off
/// CUDA Ops that can autocast to float16 (23 entries).
static const char *const kCudaLowerPrecision[] = {
    "__matmul__", "addbmm", "addmm", "addmv", "addr", "baddbmm", "bmm",
    "chain_matmul", "multi_dot", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "GRUCell",
    "linear", "LSTMCell", "matmul", "mm", "mv", "prelu", "RNNCell",
};

/// CUDA Ops that can autocast to float32 (51 entries).
static const char *const kCudaFp32[] = {
    "__pow__", "__rdiv__", "__rpow__", "__rtruediv__", "acos", "asin",
    "binary_cross_entropy_with_logits", "cosh", "cosine_embedding_loss",
    "cdist", "cosine_similarity", "cross_entropy", "cumprod", "cumsum", "dist",
    "erfinv", "exp", "expm1", "group_norm", "hinge_embedding_loss", "kl_div",
    "l1_loss", "layer_norm", "log", "log_softmax", "log10", "log1p", "log2",
    "margin_ranking_loss", "mse_loss", "multilabel_margin_loss",
    "multi_margin_loss", "nll_loss", "norm", "normalize", "pdist",
    "poisson_nll_loss", "pow", "prod", "reciprocal", "rsqrt", "sinh",
    "smooth_l1_loss", "soft_margin_loss", "softmax", "softmin", "softplus",
    "sum", "renorm", "tan", "triplet_margin_loss",
};

/// CUDA Ops that promote to the widest input type (10 entries).
static const char *const kCudaPromote[] = {
    "addcdiv", "addcmul", "atan2", "bilinear", "cross", "dot", "grid_sample",
    "index_put", "scatter_add", "tensordot",
};

/// XPU Ops that can autocast to float16 (21 entries).
static const char *const kXpuLowerPrecision[] = {
    "addbmm", "addmm", "addmv", "addr", "baddbmm", "bmm", "chain_matmul",
    "multi_dot", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
    "conv_transpose2d", "conv_transpose3d", "GRUCell", "linear", "LSTMCell",
    "matmul", "mm", "mv", "RNNCell",
};

/// XPU Ops that can autocast to float32 (29 entries).
static const char *const kXpuFp32[] = {
    "__pow__", "__rdiv__", "__rpow__", "__rtruediv__",
    "binary_cross_entropy_with_logits", "cosine_embedding_loss",
    "cosine_similarity", "cumsum", "dist", "exp", "group_norm",
    "hinge_embedding_loss", "kl_div", "l1_loss", "layer_norm", "log",
    "log_softmax", "margin_ranking_loss", "nll_loss", "normalize",
    "poisson_nll_loss", "pow", "reciprocal", "rsqrt", "soft_margin_loss",
    "softmax", "softmin", "sum", "triplet_margin_loss",
};

/// XPU Ops that promote to the widest input type (6 entries).
static const char *const kXpuPromote[] = {
    "bilinear", "cross", "grid_sample", "index_put", "scatter_add", "tensordot",
};

/// CPU Ops that can autocast to bfloat16 (20 entries).
static const char *const kCpuLowerPrecision[] = {
    "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm",
    "addmm", "addbmm", "linear", "matmul", "_convolution", "conv_tbc",
    "mkldnn_rnn_layer", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "prelu", "scaled_dot_product_attention",
    "_native_multi_head_attention",
};

/// CPU Ops that can autocast to float32 (89 entries).
static const char *const kCpuFp32[] = {
    "avg_pool3d", "binary_cross_entropy", "grid_sampler", "grid_sampler_2d",
    "_grid_sampler_2d_cpu_fallback", "grid_sampler_3d", "polar", "prod",
    "quantile", "nanquantile", "stft", "cdist", "trace", "view_as_complex",
    "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve", "orgqr",
    "inverse", "ormqr", "pinverse", "max_pool3d", "max_unpool2d",
    "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d",
    "reflection_pad2d", "replication_pad1d", "replication_pad2d",
    "replication_pad3d", "mse_loss", "cosine_embedding_loss", "nll_loss",
    "nll_loss2d", "hinge_embedding_loss", "poisson_nll_loss",
    "cross_entropy_loss", "l1_loss", "huber_loss", "margin_ranking_loss",
    "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss", "ctc_loss",
    "kl_div", "multilabel_margin_loss", "binary_cross_entropy_with_logits",
    "fft_fft", "fft_ifft", "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn",
    "fft_rfft", "fft_irfft", "fft_rfft2", "fft_irfft2", "fft_rfftn",
    "fft_irfftn", "fft_hfft", "fft_ihfft", "linalg_cond", "linalg_matrix_rank",
    "linalg_solve", "linalg_cholesky", "linalg_svdvals", "linalg_eigvals",
    "linalg_eigvalsh", "linalg_inv", "linalg_householder_product",
    "linalg_tensorinv", "linalg_tensorsolve", "fake_quantize_per_tensor_affine",
    "geqrf", "_lu_with_info", "svd", "triangular_solve",
    "fractional_max_pool2d", "fractional_max_pool3d", "adaptive_max_pool3d",
    "multilabel_margin_loss_forward", "linalg_qr", "linalg_cholesky_ex",
    "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq", "linalg_inv_ex",
};

/// CPU Ops that promote to the widest input type (3 entries).
static const char *const kCpuPromote[] = {
    "cat", "stack", "index_copy",
};
/// Ops of the fp32 lists that run in f32 by setting their dtype.
static const char *const kFp32SetDtype[] = {
    "softmax", "log_softmax", "sum", "prod", "cumsum", "cumprod", "norm",
};

/// Banned in enabled cuda and xpu regions (its backward may not fit f16).
static const char *const kBannedOnGpu[] = {"binary_cross_entropy"};
// clang-format on

static const SeedTable kSeedTables[] = {
    {Device::Cuda, PolicyList::LowerPrecision,
     "CUDA Ops that can autocast to float16", kCudaLowerPrecision},
    {Device::Cuda, PolicyList::Fp32, "CUDA Ops that can autocast to float32",
     kCudaFp32},
    {Device::Cuda, PolicyList::Promote,
     "CUDA Ops that promote to the widest input type", kCudaPromote},
    {Device::Xpu, PolicyList::LowerPrecision,
     "XPU Ops that can autocast to float16", kXpuLowerPrecision},
    {Device::Xpu, PolicyList::Fp32, "XPU Ops that can autocast to float32",
     kXpuFp32},
    {Device::Xpu, PolicyList::Promote,
     "XPU Ops that promote to the widest input type", kXpuPromote},
    {Device::Cpu, PolicyList::LowerPrecision,
     "CPU Ops that can autocast to bfloat16", kCpuLowerPrecision},
    {Device::Cpu, PolicyList::Fp32, "CPU Ops that can autocast to float32",
     kCpuFp32},
    {Device::Cpu, PolicyList::Promote,
     "CPU Ops that promote to the widest input type", kCpuPromote},
};

ArrayRef<SeedTable> mlir::tp::getSeedTables() { return kSeedTables; }

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

StringRef mlir::tp::policyListName(PolicyList list) {
  switch (list) {
  case PolicyList::LowerPrecision:
    return "lower";
  case PolicyList::Fp32:
    return "fp32";
  case PolicyList::Promote:
    return "promote";
  case PolicyList::Banned:
    return "banned";
  case PolicyList::Unlisted:
    return "unlisted";
  }
  llvm_unreachable("unknown policy list");
}

std::optional<PolicyList> mlir::tp::parsePolicyList(StringRef name) {
  return llvm::StringSwitch<std::optional<PolicyList>>(name)
      .Case("lower", PolicyList::LowerPrecision)
      .Case("fp32", PolicyList::Fp32)
      .Case("promote", PolicyList::Promote)
      .Case("banned", PolicyList::Banned)
      .Default(std::nullopt);
}

Type mlir::tp::defaultAutocastDtype(Device device, MLIRContext *context) {
  if (device == Device::Cpu)
    return BFloat16Type::get(context);
  return Float16Type::get(context);
}

Type AutocastTarget::getDtype(MLIRContext *context) const {
  if (isBF16)
    return BFloat16Type::get(context);
  return Float16Type::get(context);
}

llvm::Expected<AutocastTarget> mlir::tp::parseAutocastTarget(StringRef text) {
  static constexpr const char *kValid =
      "expected <device>[:<dtype>] with device cuda, xpu or cpu and dtype "
      "fp16 or bf16 (e.g. cuda:fp16, cpu:bf16, xpu)";
  auto fail = [&](const Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid autocast target '" + text +
                                       "': " + why + "; " + kValid);
  };
  auto [deviceText, dtypeText] = text.split(':');
  std::optional<Device> device = symbolizeDeviceType(deviceText);
  if (!device)
    return fail(deviceText.empty() ? Twine("missing device")
                                   : "unknown device '" + deviceText + "'");
  AutocastTarget target{*device, *device == Device::Cpu};
  if (text.contains(':')) {
    if (dtypeText == "fp16")
      target.isBF16 = false;
    else if (dtypeText == "bf16")
      target.isBF16 = true;
    else
      return fail(dtypeText.empty() ? Twine("missing dtype after ':'")
                                    : "unknown dtype '" + dtypeText + "'");
  }
  return target;
}

std::string mlir::tp::seedNameToOpName(StringRef seedName) {
  std::string special = llvm::StringSwitch<std::string>(seedName)
                            .Case("__matmul__", "matmul")
                            .Case("__pow__", "pow")
                            .Case("__rdiv__", "rdiv")
                            .Case("__rpow__", "rpow")
                            .Case("__rtruediv__", "rtruediv")
                            .Case("GRUCell", "gru_cell")
                            .Case("LSTMCell", "lstm_cell")
                            .Case("RNNCell", "rnn_cell")
                            .Default("");
  if (!special.empty())
    return special;
  return seedName.ltrim('_').str();
}

bool mlir::tp::isFp32SetDtypeOp(StringRef opName) {
  return llvm::is_contained(kFp32SetDtype, opName);
}

//===----------------------------------------------------------------------===//
// AutocastPolicy
//===----------------------------------------------------------------------===//

AutocastPolicy AutocastPolicy::getDefault(Device device) {
  AutocastPolicy policy(device);
  for (const SeedTable &table : kSeedTables)
    if (table.device == device)
      for (const char *name : table.names)
        policy.lists[seedNameToOpName(name)] = table.list;
  if (device != Device::Cpu)
    for (const char *name : kBannedOnGpu)
      policy.lists[name] = PolicyList::Banned;
  return policy;
}

/// Names of one tensorplay op: the functional `cross_entropy` is implemented
/// by the op `cross_entropy_loss`; the cuda and xpu tables name the former,
/// the cpu table the latter, and either entry covers both.
static StringRef aliasOf(StringRef opName) {
  return llvm::StringSwitch<StringRef>(opName)
      .Case("cross_entropy", "cross_entropy_loss")
      .Case("cross_entropy_loss", "cross_entropy")
      .Default("");
}

PolicyList AutocastPolicy::lookup(StringRef opName) const {
  auto it = lists.find(opName);
  if (it == lists.end())
    it = lists.find(aliasOf(opName));
  return it == lists.end() ? PolicyList::Unlisted : it->second;
}

PolicyList AutocastPolicy::lookup(OperationName name) const {
  auto [it, inserted] =
      byOperationName.try_emplace(name.getAsOpaquePointer(), PolicyList{});
  if (inserted)
    it->second = lookup(name.stripDialect());
  return it->second;
}

void AutocastPolicy::add(PolicyList list, StringRef opName) {
  lists[opName] = list;
  byOperationName.clear();
}

bool AutocastPolicy::remove(PolicyList list, StringRef opName) {
  auto it = lists.find(opName);
  if (it == lists.end() || it->second != list)
    return false;
  lists.erase(it);
  byOperationName.clear();
  return true;
}

//===----------------------------------------------------------------------===//
// Policy files
//===----------------------------------------------------------------------===//

/// The deepest nesting of arrays and objects a policy file may have.
static constexpr size_t kMaxDepth = 32;

/// The offset of the first '[' or '{' of `json` that opens a level deeper
/// than `maxDepth` (outside strings), if any.
static std::optional<size_t> findNestingBeyond(StringRef json,
                                               size_t maxDepth) {
  size_t depth = 0;
  bool inString = false;
  for (size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0)
      --depth;
  }
  return std::nullopt;
}

llvm::Error
mlir::tp::applyPolicyFile(StringRef path, StringRef contents,
                          MutableArrayRef<AutocastPolicy> policies,
                          llvm::function_ref<bool(StringRef)> isKnownOp) {
  auto fail = [&](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " + message);
  };
  // llvm::json parses (and destroys) nested values recursively: refuse
  // deep nesting before it can exhaust the stack. The format nests 4 deep.
  if (std::optional<size_t> offset = findNestingBeyond(contents, kMaxDepth))
    return fail("JSON nested deeper than " + Twine(kMaxDepth) +
                " levels at offset " + Twine(*offset) +
                " (a policy file nests 4: devices, lists, add/remove, names)");
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(contents);
  if (!parsed)
    return fail("invalid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return fail("expected a JSON object mapping devices to lists");
  for (const auto &[deviceKey, deviceValue] : *root) {
    std::optional<Device> device = symbolizeDeviceType(deviceKey);
    if (!device)
      return fail("unknown device '" + deviceKey.str() +
                  "' (expected cuda, xpu or cpu)");
    const llvm::json::Object *listsObj = deviceValue.getAsObject();
    if (!listsObj)
      return fail("'" + deviceKey.str() + "' must map list names to edits");
    AutocastPolicy *policy = nullptr;
    for (AutocastPolicy &p : policies)
      if (p.getDevice() == *device)
        policy = &p;
    if (!policy)
      return fail("no policy for device '" + deviceKey.str() + "'");
    for (const auto &[listKey, listValue] : *listsObj) {
      std::string where = deviceKey.str() + "." + listKey.str();
      std::optional<PolicyList> list = parsePolicyList(listKey);
      if (!list)
        return fail("unknown list '" + where +
                    "' (expected lower, fp32, promote or banned)");
      const llvm::json::Object *edits = listValue.getAsObject();
      if (!edits)
        return fail("'" + where +
                    "' must be an object with \"add\" and/or "
                    "\"remove\" arrays");
      for (const auto &[editKey, editValue] : *edits) {
        bool add = editKey == "add";
        if (!add && editKey != "remove")
          return fail("unknown key '" + where + "." + editKey.str() +
                      "' (expected add or remove)");
        const llvm::json::Array *names = editValue.getAsArray();
        if (!names)
          return fail("'" + where + "." + editKey.str() +
                      "' must be an array of op names");
        for (const llvm::json::Value &nameValue : *names) {
          std::optional<StringRef> name = nameValue.getAsString();
          if (!name)
            return fail("'" + where + "." + editKey.str() +
                        "' must hold strings");
          std::string opName = seedNameToOpName(*name);
          if (!isKnownOp(opName))
            return fail("unknown op '" + name->str() + "' in '" + where + "." +
                        editKey.str() + "'");
          if (add)
            policy->add(*list, opName);
          else if (!policy->remove(*list, opName))
            return fail("cannot remove '" + name->str() + "' from '" + where +
                        "': it is not on that list");
        }
      }
    }
  }
  return llvm::Error::success();
}
