//===- CheckedInt64.h - int64 arithmetic that detects overflow --*- C++ -*-===//
//
// Shape rules compute sizes from user-given attributes (padding, stride,
// dilation, ...), which may be anywhere in int64. CheckedInt64 carries an
// int64 value or "overflowed" through + - * /, so a formula is written as
// usual and its result tested once.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECTS_TP_IR_CHECKEDINT64_H
#define TENSORPLAY_DIALECTS_TP_IR_CHECKEDINT64_H

#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace mlir {
namespace tp {

class CheckedInt64 {
public:
  CheckedInt64(int64_t v) : v(v) {}

  /// The value, or nullopt when a step overflowed (or divided by zero).
  std::optional<int64_t> value() const { return v; }

  friend CheckedInt64 operator+(CheckedInt64 a, CheckedInt64 b) {
    return a.v && b.v ? CheckedInt64(llvm::checkedAdd(*a.v, *b.v)) : none();
  }
  friend CheckedInt64 operator-(CheckedInt64 a, CheckedInt64 b) {
    return a.v && b.v ? CheckedInt64(llvm::checkedSub(*a.v, *b.v)) : none();
  }
  friend CheckedInt64 operator*(CheckedInt64 a, CheckedInt64 b) {
    return a.v && b.v ? CheckedInt64(llvm::checkedMul(*a.v, *b.v)) : none();
  }
  /// Truncating division, as C++'s.
  friend CheckedInt64 operator/(CheckedInt64 a, CheckedInt64 b) {
    if (!a.v || !b.v || *b.v == 0 ||
        (*a.v == std::numeric_limits<int64_t>::min() && *b.v == -1))
      return none();
    return CheckedInt64(*a.v / *b.v);
  }

private:
  explicit CheckedInt64(std::optional<int64_t> v) : v(v) {}
  static CheckedInt64 none() { return CheckedInt64(std::nullopt); }

  std::optional<int64_t> v;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECTS_TP_IR_CHECKEDINT64_H
