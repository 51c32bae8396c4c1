// Loaders of the HGGC memory, device memory usage, call chain, metric, PCCL
// stage and thread-name tables.
#include "core/report/report.h"
#include "core/report/column_loader.h"
#include "core/report/loaded_columns.h"
#include "core/report/sqlite_db.h"

namespace asys {

MemoryOps Report::loadMemoryOps(bool memset) {
  MemoryOps into;
  ColumnLoad columnLoad(*db_, strings(), memset ? "HGGC_MEMSET" : "HGGC_MEMCPY", &notes_);
  if (memset) {
    ASYSREP_HGGC_MEMSET(ASYS_WHOLE_TARGET)
  } else {
    ASYSREP_HGGC_MEMCPY(ASYS_WHOLE_TARGET)
  }
  const size_t n = columnLoad.run();
  if (memset) {  // what a memset lacks of the shape
    into.copyKind.assign(n, kNoValue);
    into.dstKind.assign(n, kNoValue);
  }
  return into;
}

MemoryOps Report::readMemoryOps(bool memset, uint32_t columns) {
  const char* table = memset ? "HGGC_MEMSET" : "HGGC_MEMCPY";
  namespace bits = ocol;
  const uint32_t want = columns & ocol::all;
  MemoryOps kept;
  {
    MemoryOps& into = kept;
    const auto rows = static_cast<size_t>(rowEstimate(table));  // the table's bound, as a load sizes its columns
    ASYSREP_HGGC_MEMCPY(ASYS_LOADED_RESERVE)
  }
  MemoryOps chunk;  // every column of the rows being read
  ColumnLoad columnLoad(*db_, strings(), table, &notes_);
  {
    MemoryOps& into = chunk;
    if (memset) {
      ASYSREP_HGGC_MEMSET(ASYS_WHOLE_TARGET)
    } else {
      ASYSREP_HGGC_MEMCPY(ASYS_WHOLE_TARGET)
    }
  }
  constexpr size_t kChunkRows = 16384;  // about 1.6 MB of a memcpy's columns
  const size_t n = columnLoad.runInChunks(kChunkRows, [&](size_t, size_t) {
    const MemoryOps& from = chunk;
    MemoryOps& into = kept;
    ASYSREP_HGGC_MEMCPY(ASYS_LOADED_APPEND)
  });
  if (memset) {  // what a memset lacks of the shape, as loadMemoryOps gives it
    if (want & ocol::copyKind) kept.copyKind.assign(n, kNoValue);
    if (want & ocol::dstKind) kept.dstKind.assign(n, kNoValue);
  }
  return kept;
}

const MemoryOps& Report::memcpys() {
  if (!memcpys_) memcpys_ = loadMemoryOps(false);
  return *memcpys_;
}

const MemoryOps& Report::memsets() {
  if (!memsets_) memsets_ = loadMemoryOps(true);
  return *memsets_;
}

std::unordered_map<int64_t, uint32_t> Report::loadEnumLabels(const char* table) {
  std::unordered_map<int64_t, uint32_t> labels;
  if (!db_->hasTable(table)) return labels;
  StringPool& pool = strings();
  Statement st(*db_, db_->selectColumns(table, {"id", "label", "name"}));
  while (st.step()) {
    std::string_view label = st.text(1);
    labels[st.int64(0)] = pool.intern(label.empty() ? st.text(2) : label);
  }
  return labels;
}

const std::unordered_map<int64_t, uint32_t>& Report::memcpyKindLabels() {
  if (!memcpyKindLabels_) memcpyKindLabels_ = loadEnumLabels("ENUM_HGGC_MEMCPY_OPER");
  return *memcpyKindLabels_;
}

const std::unordered_map<int64_t, uint32_t>& Report::memKindLabels() {
  if (!memKindLabels_) memKindLabels_ = loadEnumLabels("ENUM_HGGC_MEM_KIND");
  return *memKindLabels_;
}

std::shared_ptr<const MetricSamples> Report::sharedMetrics() {
  if (metrics_) return metrics_;
  if (!db_->hasTable("PPU_METRICS")) return metrics_ = std::make_shared<const MetricSamples>();
  MetricSamples m;  // kept only once complete (see Report::hgtx())
  StringPool& pool = strings();
  std::unordered_map<int64_t, std::pair<uint32_t, uint32_t>> info;  // metricId -> name, unit
  if (db_->hasTable("TARGET_INFO_PPU_METRICS")) {
    Statement st(*db_, db_->selectColumns("TARGET_INFO_PPU_METRICS", {"metricId", "metricName", "unit"}));
    while (st.step()) info[st.int64(0)] = {pool.intern(st.text(1)), pool.intern(st.text(2))};
  }
  std::vector<int64_t> metricId;
  ColumnLoad columnLoad(*db_, pool, "PPU_METRICS", &notes_);
  MetricSamples& into = m;
  ASYSREP_PPU_METRICS(ASYS_WHOLE_TARGET)
  columnLoad.int64("metricId", metricId).run();
  m.nameId.reserve(metricId.size());
  m.unitId.reserve(metricId.size());
  for (int64_t id : metricId) {
    auto it = info.find(id);
    if (it == info.end()) {
      // A sample whose metric is not described: name it by its id.
      uint32_t name = pool.intern("metric " + std::to_string(id));
      it = info.emplace(id, std::make_pair(name, pool.intern(""))).first;
    }
    m.nameId.push_back(it->second.first);
    m.unitId.push_back(it->second.second);
  }
  metrics_ = std::make_shared<const MetricSamples>(std::move(m));
  return metrics_;
}

const PcclStages& Report::pcclStages() {
  if (pcclStages_) return *pcclStages_;
  PcclStages into;  // kept only once complete (see Report::hgtx())
  ColumnLoad columnLoad(*db_, strings(), "PCCL_STAGE_EVENTS", &notes_);
  ASYSREP_PCCL_STAGE_EVENTS(ASYS_WHOLE_TARGET)
  columnLoad.run();
  pcclStages_ = std::move(into);
  return *pcclStages_;
}

const MemoryUsageEvents& Report::memoryUsage(uint32_t columns) {
  const uint32_t missing = columns & mcol::all & ~memoryColumns_;
  if (missing == 0 || !db_->hasTable("PPU_MEMORY_USAGE_EVENTS")) {
    memoryColumns_ |= missing;
    return memoryUsage_;
  }
  MemoryUsageEvents& into = memoryUsage_;
  ColumnLoad columnLoad(*db_, strings(), "PPU_MEMORY_USAGE_EVENTS", &notes_);
  // Every scan is in rowid order, so columns loaded by later calls line up.
  namespace bits = mcol;
  const uint32_t want = missing;
  ASYSREP_PPU_MEMORY_USAGE_EVENTS(ASYS_LOADED_TARGET)
  into.rows = columnLoad.run();
  memoryColumns_ |= missing;
  return into;
}

const CallchainFrames& Report::callchains() {
  if (callchains_) return *callchains_;
  callchains_.emplace();
  CallchainFrames& into = *callchains_;
  if (!db_->hasTable("CALLCHAINS")) return into;  // allocations without stacks group as "others"
  ColumnLoad columnLoad(*db_, strings(), "CALLCHAINS", &notes_);
  ASYSREP_CALLCHAINS(ASYS_WHOLE_TARGET)
  columnLoad.run();
  return into;
}

const std::unordered_map<int64_t, uint32_t>& Report::threadNames() {
  if (threadNames_) return *threadNames_;
  std::unordered_map<int64_t, uint32_t> names;  // kept only once complete (see Report::hgtx())
  struct {
    ASYSREP_ThreadNames(ASYS_LOADED_VECTOR)
  } into;
  ColumnLoad columnLoad(*db_, strings(), "ThreadNames", &notes_);
  ASYSREP_ThreadNames(ASYS_WHOLE_TARGET)
  columnLoad.run();
  const std::vector<int64_t>& tid = into.globalTid;
  const std::vector<int64_t>& priority = into.priority;
  const std::vector<uint32_t>& name = into.nameId;
  // The highest priority name of a thread wins, as in Nsight Systems; on a
  // tie the later row.
  std::unordered_map<int64_t, int64_t> best;
  for (size_t i = 0; i < tid.size(); ++i) {
    if (name[i] == kNoString) continue;
    auto [it, inserted] = best.try_emplace(tid[i], priority[i]);
    if (inserted || priority[i] >= it->second) {
      it->second = priority[i];
      names[tid[i]] = name[i];
    }
  }
  threadNames_ = std::move(names);
  return *threadNames_;
}

}  // namespace asys
