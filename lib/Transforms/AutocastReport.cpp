//===- AutocastReport.cpp - The autocast decision report ------------------===//
//
// For every tp op: its location, name, device, the list it matched, the
// dtype it now runs in, why, and the casts it caused; then totals: ops per
// dtype, casts inserted (and what one cast per use would have inserted),
// bytes cast.
//
//===----------------------------------------------------------------------===//

#include "AutocastReport.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <map>

using namespace mlir;
using namespace mlir::tp;

namespace {
/// One row of the report, as text.
struct Row {
  std::string location, name, device, list, dtype, reason;
  SmallVector<std::string> casts; // "#0 f32->f16"
};
} // namespace

static std::string toText(Type type) {
  if (!type)
    return "-";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static std::string toText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return text;
}

/// Rows in program order (the module after the rewrite).
static SmallVector<Row> collectRows(ModuleOp module,
                                    const AutocastResult &result) {
  SmallVector<Row> rows;
  const auto &records = result.records;
  module.walk([&](Operation *op) {
    auto it = records.find(op);
    if (it == records.end())
      return;
    const OpRecord &record = it->second;
    Row row;
    row.location = toText(op->getLoc());
    row.name = op->getName().getStringRef().str();
    row.device = record.state.device
                     ? stringifyDeviceType(*record.state.device).str()
                     : std::string("-");
    row.list = policyListName(record.decision.list).str();
    row.dtype = toText(getComputeDtype(op));
    row.reason = describeReason(record.decision.reason).str();
    for (const CastRecord &c : record.casts)
      row.casts.push_back("#" + std::to_string(c.operand) + " " +
                          toText(c.from) + "->" + toText(c.to));
    rows.push_back(std::move(row));
  });
  return rows;
}

static std::map<std::string, unsigned> countByDtype(ArrayRef<Row> rows) {
  std::map<std::string, unsigned> counts;
  for (const Row &row : rows)
    ++counts[row.dtype];
  return counts;
}

void mlir::tp::printAutocastTable(ModuleOp module, const AutocastResult &result,
                                  llvm::raw_ostream &os) {
  SmallVector<Row> rows = collectRows(module, result);
  const char *headers[] = {"location", "op",     "device", "list",
                           "dtype",    "reason", "casts"};
  size_t widths[6];
  for (unsigned i = 0; i < 6; ++i)
    widths[i] = strlen(headers[i]);
  for (const Row &row : rows) {
    const std::string *cells[] = {&row.location, &row.name,  &row.device,
                                  &row.list,     &row.dtype, &row.reason};
    for (unsigned i = 0; i < 6; ++i)
      widths[i] = std::max(widths[i], cells[i]->size());
  }
  auto pad = [&](StringRef text, size_t width) {
    os << text;
    os.indent(width - text.size() + 2);
  };
  os << "autocast report\n";
  for (unsigned i = 0; i < 6; ++i)
    pad(headers[i], widths[i]);
  os << headers[6] << "\n";
  for (const Row &row : rows) {
    const std::string *cells[] = {&row.location, &row.name,  &row.device,
                                  &row.list,     &row.dtype, &row.reason};
    for (unsigned i = 0; i < 6; ++i)
      pad(*cells[i], widths[i]);
    if (row.casts.empty())
      os << "-";
    llvm::interleaveComma(row.casts, os);
    os << "\n";
  }
  const AutocastSummary &summary = result.summary;
  os << "summary: " << rows.size() << " ops (";
  auto counts = countByDtype(rows);
  llvm::interleaveComma(counts, os, [&](const auto &entry) {
    os << entry.first << ": " << entry.second;
  });
  os << "), " << summary.castsInserted << " casts inserted ("
     << summary.castsNaive << " with one cast per use), " << summary.bytesCast
     << " bytes cast";
  if (summary.dynamicCasts)
    os << " (+" << summary.dynamicCasts << " casts of dynamic shape)";
  os << "\n";
}

void mlir::tp::printAutocastJson(ModuleOp module, const AutocastResult &result,
                                 llvm::raw_ostream &os) {
  SmallVector<Row> rows = collectRows(module, result);
  const AutocastSummary &summary = result.summary;
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attributeArray("ops", [&] {
      for (const Row &row : rows) {
        json.object([&] {
          json.attribute("location", row.location);
          json.attribute("op", row.name);
          json.attribute("device", row.device);
          json.attribute("list", row.list);
          json.attribute("dtype", row.dtype);
          json.attribute("reason", row.reason);
          json.attributeArray("casts", [&] {
            for (const std::string &c : row.casts)
              json.value(c);
          });
        });
      }
    });
    json.attributeObject("summary", [&] {
      json.attribute("ops", static_cast<int64_t>(rows.size()));
      json.attributeObject("ops_per_dtype", [&] {
        for (const auto &entry : countByDtype(rows))
          json.attribute(entry.first, static_cast<int64_t>(entry.second));
      });
      json.attribute("casts_inserted",
                     static_cast<int64_t>(summary.castsInserted));
      json.attribute("casts_one_per_use",
                     static_cast<int64_t>(summary.castsNaive));
      json.attribute("bytes_cast", static_cast<int64_t>(summary.bytesCast));
      json.attribute("dynamic_shape_casts",
                     static_cast<int64_t>(summary.dynamicCasts));
    });
  });
  os << "\n";
}
