//===- JitPerfMap.cpp - Name the JIT's functions for perf -----------------===//
//
// Part of tensorplay-autocast.
//
//===----------------------------------------------------------------------===//
//
// The object the JIT linked is read: its symbol table gives each
// function's name and size, the JIT its address.
// (LLVM's own perf listener needs an LLVM built with LLVM_USE_PERF, which
// Debian's is not.)
//
//===----------------------------------------------------------------------===//

#include "JitPerfMap.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>
#include <string>

using namespace llvm;

namespace tensorplay::compiler {

std::string jitPerfMapPath() {
  const char *v = std::getenv("TP_JIT_PERF");
  if (!v || !*v || std::string(v) == "0")
    return "";
  // A value with a '/' is the file to append to instead (oneDNN truncates
  // /tmp/perf-<pid>.map when DNNL_JIT_PROFILE=2 opens it: write here and
  // append this file to that map before `perf report`).
  if (std::string(v).find('/') != std::string::npos)
    return v;
  return "/tmp/perf-" + std::to_string(sys::Process::getProcessId()) + ".map";
}

static void warn(const Twine &message) {
  errs() << "tensorplay: TP_JIT_PERF: " << message << "\n";
}

void writeJitPerfMap(MemoryBufferRef buffer,
                     function_ref<Expected<void *>(StringRef)> lookup,
                     const std::string &mapPath) {
  auto object = object::ObjectFile::createObjectFile(buffer);
  if (!object) {
    warn("cannot read the JIT's object: " + toString(object.takeError()));
    return;
  }
  // Global functions have the JIT's addresses; each gives the load
  // address of its section, which places the section's local functions
  // (the outlined parallel bodies) too.
  struct Function {
    std::string name;
    object::SectionRef section;
    uint64_t offset, size;
  };
  std::vector<Function> functions;
  std::map<object::SectionRef, uint64_t> sectionBase;
  for (const object::SymbolRef &symbol : (*object)->symbols()) {
    Expected<StringRef> name = symbol.getName();
    Expected<object::SymbolRef::Type> type = symbol.getType();
    Expected<uint64_t> offset = symbol.getValue();
    Expected<object::section_iterator> section = symbol.getSection();
    if (!name || !type || !offset || !section ||
        *type != object::SymbolRef::ST_Function ||
        *section == (*object)->section_end()) {
      consumeError(name.takeError());
      consumeError(type.takeError());
      consumeError(offset.takeError());
      consumeError(section.takeError());
      continue;
    }
    functions.push_back({name->str(), **section, *offset,
                         object::ELFSymbolRef(symbol).getSize()});
    if (sectionBase.count(**section))
      continue;
    Expected<void *> address = lookup(*name);
    if (address)
      sectionBase[**section] = (uint64_t)(uintptr_t)*address - *offset;
    else
      consumeError(address.takeError());
  }
  std::error_code ec;
  raw_fd_ostream map(mapPath, ec, sys::fs::OF_Append | sys::fs::OF_Text);
  if (ec) {
    warn("cannot open " + mapPath + ": " + ec.message());
    return;
  }
  for (const Function &f : functions) {
    auto base = sectionBase.find(f.section);
    if (f.size && base != sectionBase.end())
      map << format_hex_no_prefix(base->second + f.offset, 1) << " "
          << format_hex_no_prefix(f.size, 1) << " tp:" << f.name << "\n";
  }
}

} // namespace tensorplay::compiler
