//===- Npy.cpp - Reading and writing .npy files ---------------------------===//

#include "tensorplay/HostIO/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tp;

static llvm::Error fail(llvm::StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

const char *tp::npyDescr(ElementKind kind) {
  switch (kind) {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY)                         \
  case ElementKind::KIND:                                                      \
    return NPY;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return "?";
}

/// The kind a file of `descr` holds: the first row of ElementTypes.def with
/// that descriptor (f32 before bf16, ui8 before the f8 types, whose files
/// are read into the expected kind below).
static std::optional<ElementKind> kindOfDescr(llvm::StringRef descr) {
  for (ElementKind kind : allElementKinds())
    if (descr == npyDescr(kind))
      return kind;
  return std::nullopt;
}

/// The value of `key` in the header dict (up to the next top-level comma).
static std::optional<llvm::StringRef> dictValue(llvm::StringRef header,
                                                llvm::StringRef key) {
  std::string quoted = ("'" + key + "'").str();
  size_t pos = header.find(quoted);
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(pos + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    return rest.take_front(close + 1);
  }
  size_t end = rest.find_first_of(",}");
  return rest.take_front(end).trim();
}

llvm::Expected<HostTensor> tp::readNpy(llvm::StringRef path,
                                       const TensorSpec *expected) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return fail(path, "cannot read: " + buffer.getError().message());
  llvm::StringRef data = (*buffer)->getBuffer();
  if (!data.starts_with("\x93NUMPY") || data.size() < 10)
    return fail(path, "not a .npy file");
  unsigned major = (unsigned char)data[6];
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = (unsigned char)data[8] | ((unsigned char)data[9] << 8);
    headerStart = 10;
  } else {
    if (data.size() < 12)
      return fail(path, "truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= (size_t)(unsigned char)data[8 + i] << (8 * i);
    headerStart = 12;
  }
  if (data.size() < headerStart + headerLen)
    return fail(path, "truncated header");
  llvm::StringRef header = data.substr(headerStart, headerLen);
  auto descrValue = dictValue(header, "descr");
  auto fortran = dictValue(header, "fortran_order");
  auto shapeValue = dictValue(header, "shape");
  if (!descrValue || !fortran || !shapeValue)
    return fail(path, "malformed header '" + header.trim() + "'");
  if (*fortran != "False")
    return fail(path, "Fortran-order arrays are not supported");
  llvm::StringRef descr = descrValue->trim("'\"");
  std::optional<ElementKind> kind = kindOfDescr(descr);
  if (!kind)
    return fail(path, "unsupported dtype '" + descr + "'");
  std::vector<int64_t> shape;
  llvm::StringRef dims = shapeValue->trim("()");
  llvm::SmallVector<llvm::StringRef> parts;
  dims.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts) {
    int64_t d;
    if (p.trim().getAsInteger(10, d))
      return fail(path, "malformed shape '" + *shapeValue + "'");
    shape.push_back(d);
  }
  HostTensor file(*kind, shape);
  size_t payload = headerStart + headerLen;
  if (data.size() - payload < file.byteSize())
    return fail(path, "file holds fewer elements than its shape says");
  std::memcpy(file.data(), data.data() + payload, file.byteSize());

  if (!expected)
    return file;
  auto describe = [](ElementKind k, const std::vector<int64_t> &s) {
    std::string r = "(";
    for (size_t i = 0; i < s.size(); ++i)
      r += (i ? ", " : "") + std::to_string(s[i]);
    return r + ") " + elementKindName(k);
  };
  if (shape != expected->shape)
    return fail(path, "shape " + describe(*kind, shape) +
                          " does not match the argument's " +
                          describe(expected->kind, expected->shape));
  if (*kind == expected->kind)
    return file;
  // f8 files hold the bit patterns (numpy has no f8 type).
  if (*kind == ElementKind::U8 && (expected->kind == ElementKind::F8E4M3FN ||
                                   expected->kind == ElementKind::F8E5M2)) {
    HostTensor bits(expected->kind, shape);
    std::memcpy(bits.data(), file.data(), file.byteSize());
    return bits;
  }
  if (expected->kind == ElementKind::BF16 && *kind == ElementKind::F32) {
    HostTensor converted(ElementKind::BF16, shape);
    for (int64_t i = 0; i < file.numElements(); ++i)
      converted.set(i, file.get(i));
    return converted;
  }
  return fail(path, "dtype " + describe(*kind, shape) +
                        " does not match the argument's " +
                        describe(expected->kind, expected->shape) +
                        (expected->kind == ElementKind::BF16
                             ? " (bf16 arguments read float32 files)"
                         : expected->kind == ElementKind::F8E4M3FN ||
                                 expected->kind == ElementKind::F8E5M2
                             ? " (f8 arguments read uint8 files of their bit "
                               "patterns)"
                             : ""));
}

llvm::Error tp::writeNpy(llvm::StringRef path, const HostTensor &t) {
  const HostTensor *out = &t;
  HostTensor widened;
  if (t.kind() == ElementKind::BF16) {
    widened = HostTensor(ElementKind::F32, t.shape());
    for (int64_t i = 0; i < t.numElements(); ++i)
      widened.set(i, t.get(i));
    out = &widened;
  }
  std::string dict = "{'descr': '" + std::string(npyDescr(out->kind())) +
                     "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < out->shape().size(); ++i)
    dict += std::to_string(out->shape()[i]) + ", ";
  if (out->shape().size() > 1)
    dict.resize(dict.size() - 2);
  else if (out->shape().size() == 1)
    dict.resize(dict.size() - 1);
  dict += "), }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  os << (char)(dict.size() & 0xff) << (char)(dict.size() >> 8);
  os << dict;
  os.write(static_cast<const char *>(out->data()), out->byteSize());
  return llvm::Error::success();
}
