//===- NoThrow.h - Exceptions turned into Status values ---------*- C++ -*-===//
//
// The runtime reports errors as Status values. Its own code throws nothing,
// but the standard library does when host memory runs out (scratch vectors,
// thread pool jobs); the public entry points run their work through
// catchExceptions so that this becomes a Status too.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_NOTHROW_H
#define TENSORPLAY_RUNTIME_NOTHROW_H

#include "tensorplay/Runtime/Status.h"

#include <new>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define TP_RT_EXCEPTIONS 1
#else
#define TP_RT_EXCEPTIONS 0
#endif

namespace tensorplay::amp::detail {

/// Runs `fn`; if it throws, returns fallback(outOfMemory) instead, where
/// outOfMemory tells std::bad_alloc from any other exception. Nothing
/// escapes when the fallback does not throw.
template <typename Fn, typename Fallback>
auto catchAll(Fn &&fn, Fallback &&fallback) -> decltype(fn()) {
#if TP_RT_EXCEPTIONS
  try {
    return fn();
  } catch (const std::bad_alloc &) {
    return fallback(true);
  } catch (...) {
    return fallback(false);
  }
#else
  (void)fallback;
  return fn();
#endif
}

/// Runs `fn` (returning a Status or an Expected): std::bad_alloc becomes
/// OutOfMemory, any other exception Internal. The messages are short enough
/// for std::string's in-object buffer, so that building them does not
/// allocate while memory is exhausted.
template <typename Fn>
auto catchExceptions(Fn &&fn) -> decltype(fn()) {
  return catchAll(fn, [](bool outOfMemory) -> decltype(fn()) {
    if (outOfMemory)
      return Status(StatusCode::OutOfMemory, "no host memory");
    return Status(StatusCode::Internal, "C++ exception");
  });
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_NOTHROW_H
