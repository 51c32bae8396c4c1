// Loaders of the HGGC memory, device memory usage, call chain, metric, PCCL
// stage and thread-name tables.
#include "core/report/report.h"
#include "core/report/column_loader.h"
#include "core/report/sqlite_db.h"

namespace asys {

MemoryOps Report::loadMemoryOps(bool memset) {
  MemoryOps m;
  ColumnLoad load(*db_, strings(), memset ? "HGGC_MEMSET" : "HGGC_MEMCPY", &notes_);
  load.int64("start", m.start, ColumnLoad::Null::Error)
      .int64("end", m.end, ColumnLoad::Null::Present)
      .int64("correlationId", m.correlationId)
      .int64("globalPid", m.globalPid)
      .int64("bytes", m.bytes)
      .int32("deviceId", m.deviceId, ColumnLoad::Null::Noted)
      .int32("contextId", m.contextId, ColumnLoad::Null::Noted)
      .int32("streamId", m.streamId, ColumnLoad::Null::Noted)
      .int64("graphNodeId", m.graphNodeId)
      .int64("graphId", m.graphId);
  if (memset) load.int64("memKind", m.srcKind);
  else load.int64("copyKind", m.copyKind).int64("srcKind", m.srcKind).int64("dstKind", m.dstKind);
  const size_t n = load.run();
  if (memset) {
    m.copyKind.assign(n, kNoValue);
    m.dstKind.assign(n, kNoValue);
  }
  return m;
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
  ColumnLoad(*db_, pool, "PPU_METRICS", &notes_)
      .int32("deviceId", m.deviceId)
      .int64("start", m.start, ColumnLoad::Null::Error)
      .int64("duration", m.duration)
      .int64("metricId", metricId)
      .real("value", m.value)
      .run();
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
  PcclStages p;  // kept only once complete (see Report::hgtx())
  ColumnLoad(*db_, strings(), "PCCL_STAGE_EVENTS", &notes_)
      .int64("start", p.start, ColumnLoad::Null::Error)
      .int64("end", p.end, ColumnLoad::Null::Present)
      .int64("globalTid", p.globalTid)
      .int32("deviceId", p.deviceId)
      .int64("channelId", p.channelId)
      .text("channelType", p.channelTypeId)
      .name("nameId", p.nameId)
      .run();
  pcclStages_ = std::move(p);
  return *pcclStages_;
}

const MemoryUsageEvents& Report::memoryUsage(uint32_t columns) {
  const uint32_t missing = columns & mcol::all & ~memoryColumns_;
  if (missing == 0 || !db_->hasTable("PPU_MEMORY_USAGE_EVENTS")) {
    memoryColumns_ |= missing;
    return memoryUsage_;
  }
  MemoryUsageEvents& m = memoryUsage_;
  ColumnLoad load(*db_, strings(), "PPU_MEMORY_USAGE_EVENTS", &notes_);
  // Every scan is in rowid order, so columns loaded by later calls line up.
  auto want = [&](uint32_t bit) { return (missing & bit) != 0; };
  if (want(mcol::start)) load.int64("start", m.start, ColumnLoad::Null::Error);
  if (want(mcol::globalPid)) load.int64("globalPid", m.globalPid);
  if (want(mcol::globalTid)) load.int64("globalTid", m.globalTid);
  if (want(mcol::deviceId)) load.int32("deviceId", m.deviceId, ColumnLoad::Null::Noted);
  if (want(mcol::contextId)) load.int64("contextId", m.contextId);
  if (want(mcol::eventId)) load.int64("eventId", m.eventId);
  if (want(mcol::address)) load.int64("address", m.address);
  if (want(mcol::bytes)) load.int64("bytes", m.bytes);
  if (want(mcol::operation)) load.int32("memoryOperationType", m.operation);
  if (want(mcol::accessFlags)) load.int64("accessFlags", m.accessFlags);
  if (want(mcol::callchainId)) load.int64("callchainId", m.callchainId);
  m.rows = load.run();
  memoryColumns_ |= missing;
  return m;
}

const CallchainFrames& Report::callchains() {
  if (callchains_) return *callchains_;
  callchains_.emplace();
  CallchainFrames& c = *callchains_;
  if (!db_->hasTable("CALLCHAINS")) return c;  // allocations without stacks group as "others"
  ColumnLoad(*db_, strings(), "CALLCHAINS", &notes_)
      .int64("id", c.id, ColumnLoad::Null::Error)
      .int32("stackDepth", c.depth, ColumnLoad::Null::Error)
      .name("symbol", c.symbol)
      .name("module", c.module)
      .run();
  return c;
}

const std::unordered_map<int64_t, uint32_t>& Report::threadNames() {
  if (threadNames_) return *threadNames_;
  std::unordered_map<int64_t, uint32_t> names;  // kept only once complete (see Report::hgtx())
  std::vector<int64_t> tid, priority;
  std::vector<uint32_t> name;
  ColumnLoad(*db_, strings(), "ThreadNames", &notes_)
      .int64("globalTid", tid)
      .name("nameId", name)
      .int64("priority", priority)
      .run();
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
