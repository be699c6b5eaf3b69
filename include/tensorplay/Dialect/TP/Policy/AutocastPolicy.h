//===- AutocastPolicy.h - tensorplay.amp op tables as data ------*- C++ -*-===//
//
// The per-device autocast policy of tensorplay.amp: which ops run in the
// lower-precision dtype, which in f32 (and which of those by setting their
// dtype), which promote to the widest input type, and which are banned. The
// seed's nine tables are kept verbatim (AutocastPolicy.cpp) and turned into a
// queryable, overridable policy per device.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_POLICY_AUTOCASTPOLICY_H
#define TENSORPLAY_DIALECT_TP_POLICY_AUTOCASTPOLICY_H

#include "tensorplay/Dialect/TP/IR/TPEnums.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace mlir {
namespace tp {

/// The devices of tensorplay.autocast: the dialect's DeviceType (named,
/// parsed and printed by stringifyDeviceType / symbolizeDeviceType).
using Device = DeviceType;

/// The list an op matched.
enum class PolicyList { LowerPrecision, Fp32, Promote, Banned, Unlisted };

/// Names of the lists as used in reports and policy files: "lower", "fp32",
/// "promote", "banned", "unlisted".
StringRef policyListName(PolicyList list);
std::optional<PolicyList> parsePolicyList(StringRef name);
/// The device's default autocast dtype: f16 on cuda and xpu, bf16 on cpu.
Type defaultAutocastDtype(Device device, MLIRContext *context);

/// An autocast target: a device and its lower-precision dtype.
struct AutocastTarget {
  Device device;
  /// f16 or bf16 (the "fp16" / "bf16" of the option).
  bool isBF16;
  Type getDtype(MLIRContext *context) const;
};

/// Parses `<device>[:<dtype>]` (device cuda|xpu|cpu, dtype fp16|bf16). The
/// device's default dtype applies when `:<dtype>` is absent. The error text
/// names the bad part and lists the valid values.
llvm::Expected<AutocastTarget> parseAutocastTarget(StringRef text);

/// One of the seed's nine tables, verbatim (names spelled as the seed does,
/// duplicates included).
struct SeedTable {
  Device device;
  PolicyList list;
  StringRef title; ///< the seed's heading of the table
  ArrayRef<const char *> names;
};
/// The nine tables in seed order: cuda, xpu, cpu; each lower, fp32, promote.
ArrayRef<SeedTable> getSeedTables();

/// The tp op name (mnemonic) of a seed name: `__matmul__` -> `matmul`,
/// `__pow__` -> `pow`, `__rdiv__` -> `rdiv`, `__rpow__` -> `rpow`,
/// `__rtruediv__` -> `rtruediv`, leading underscore dropped, GRUCell /
/// LSTMCell / RNNCell -> gru_cell / lstm_cell / rnn_cell; others verbatim.
std::string seedNameToOpName(StringRef seedName);

/// The fp32-list ops that run in f32 by setting their dtype (tensorplay's
/// fp32_set_opt_dtype) instead of casting their inputs.
bool isFp32SetDtypeOp(StringRef opName);

/// The policy of one device: op name (mnemonic) -> list. Built from the seed
/// tables; a policy file may add or remove names.
class AutocastPolicy {
public:
  /// The seed's policy of `device` (with binary_cross_entropy banned on cuda
  /// and xpu).
  static AutocastPolicy getDefault(Device device);

  Device getDevice() const { return device; }
  /// The list `opName` (a tp mnemonic, without "tp.") belongs to.
  /// `cross_entropy` and `cross_entropy_loss` name one tensorplay op (the
  /// functional and the op implementing it): a list naming either covers
  /// both.
  PolicyList lookup(StringRef opName) const;
  /// The list of a `tp.*` op, by its name (cached: this is the hot path of
  /// the autocast pass).
  PolicyList lookup(OperationName name) const;
  /// True when `opName` is in the fp32 list and runs in f32 by dtype=.
  bool isSetDtype(StringRef opName) const {
    return lookup(opName) == PolicyList::Fp32 && isFp32SetDtypeOp(opName);
  }
  /// Puts `opName` on `list` (taking it off any other list).
  void add(PolicyList list, StringRef opName);
  /// Takes `opName` off `list`; false when it was not on it.
  bool remove(PolicyList list, StringRef opName);

private:
  explicit AutocastPolicy(Device device) : device(device) {}
  Device device;
  llvm::StringMap<PolicyList> lists;
  mutable llvm::DenseMap<const void *, PolicyList> byOperationName;
};

/// Applies a JSON policy file to `policies` (indexed by Device). Format:
///   {"cuda": {"lower": {"add": ["op", ...], "remove": ["op", ...]},
///             "fp32": {...}, "promote": {...}, "banned": {...}}, ...}
/// `isKnownOp` tells whether an op name exists. Errors name the file and the
/// offending entry.
llvm::Error applyPolicyFile(StringRef path, StringRef contents,
                            MutableArrayRef<AutocastPolicy> policies,
                            llvm::function_ref<bool(StringRef)> isKnownOp);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_POLICY_AUTOCASTPOLICY_H
