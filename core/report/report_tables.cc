// Loaders of the HGGC memory, metric, PCCL stage and thread-name tables.
#include "core/report/report.h"
#include "core/report/sqlite_db.h"

namespace asys {

namespace {
int32_t i32(int64_t v) { return v == kNoValue ? -1 : static_cast<int32_t>(v); }
}  // namespace

MemoryOps Report::loadMemoryOps(bool memset) {
  MemoryOps m;
  const char* table = memset ? "HGGC_MEMSET" : "HGGC_MEMCPY";
  if (!db_->hasTable(table)) return m;
  std::vector<std::string> cols = {"start", "end", "correlationId", "globalPid", "bytes", "deviceId",
                                   "contextId", "streamId"};
  if (memset) cols.insert(cols.end(), {"memKind"});
  else cols.insert(cols.end(), {"copyKind", "srcKind", "dstKind"});
  Statement st(*db_, db_->selectColumns(table, cols));
  while (st.step()) {
    m.start.push_back(st.int64(0));
    m.end.push_back(st.int64(1));
    m.correlationId.push_back(st.int64(2));
    m.globalPid.push_back(st.int64(3));
    m.bytes.push_back(st.int64(4));
    m.deviceId.push_back(i32(st.int64(5)));
    m.contextId.push_back(i32(st.int64(6)));
    m.streamId.push_back(i32(st.int64(7)));
    if (memset) {
      m.copyKind.push_back(kNoValue);
      m.srcKind.push_back(st.int64(8));
      m.dstKind.push_back(kNoValue);
    } else {
      m.copyKind.push_back(st.int64(8));
      m.srcKind.push_back(st.int64(9));
      m.dstKind.push_back(st.int64(10));
    }
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

const MetricSamples& Report::metrics() {
  if (metrics_) return *metrics_;
  metrics_.emplace();
  MetricSamples& m = *metrics_;
  if (!db_->hasTable("PPU_METRICS")) return m;
  StringPool& pool = strings();
  std::unordered_map<int64_t, std::pair<uint32_t, uint32_t>> info;  // metricId -> name, unit
  if (db_->hasTable("TARGET_INFO_PPU_METRICS")) {
    Statement st(*db_, db_->selectColumns("TARGET_INFO_PPU_METRICS", {"metricId", "metricName", "unit"}));
    while (st.step()) info[st.int64(0)] = {pool.intern(st.text(1)), pool.intern(st.text(2))};
  }
  Statement st(*db_, db_->selectColumns("PPU_METRICS", {"deviceId", "start", "duration", "metricId", "value"}));
  while (st.step()) {
    m.deviceId.push_back(i32(st.int64(0)));
    m.start.push_back(st.int64(1));
    m.duration.push_back(st.int64(2));
    auto it = info.find(st.int64(3));
    if (it == info.end()) {
      // A sample whose metric is not described: name it by its id.
      uint32_t name = pool.intern("metric " + std::to_string(st.int64(3)));
      it = info.emplace(st.int64(3), std::make_pair(name, pool.intern(""))).first;
    }
    m.nameId.push_back(it->second.first);
    m.unitId.push_back(it->second.second);
    m.value.push_back(st.real(4));
  }
  return m;
}

const PcclStages& Report::pcclStages() {
  if (pcclStages_) return *pcclStages_;
  pcclStages_.emplace();
  PcclStages& p = *pcclStages_;
  if (!db_->hasTable("PCCL_STAGE_EVENTS")) return p;
  StringPool& pool = strings();
  Statement st(*db_, db_->selectColumns("PCCL_STAGE_EVENTS",
                                        {"start", "end", "globalTid", "deviceId", "channelId", "channelType", "nameId"}));
  while (st.step()) {
    p.start.push_back(st.int64(0));
    p.end.push_back(st.int64(1));
    p.globalTid.push_back(st.int64(2));
    p.deviceId.push_back(i32(st.int64(3)));
    p.channelId.push_back(st.int64(4));
    p.channelTypeId.push_back(pool.intern(st.text(5)));
    int64_t name = st.int64(6);
    p.nameId.push_back(name == kNoValue ? kNoString : static_cast<uint32_t>(name));
  }
  return p;
}

const std::unordered_map<int64_t, uint32_t>& Report::threadNames() {
  if (threadNames_) return *threadNames_;
  threadNames_.emplace();
  if (!db_->hasTable("ThreadNames")) return *threadNames_;
  strings();
  // The highest priority name of a thread wins, as in Nsight Systems.
  Statement st(*db_, db_->selectColumns("ThreadNames", {"globalTid", "nameId", "priority"}) +
                         " ORDER BY priority ASC");
  while (st.step()) {
    int64_t name = st.int64(1);
    if (name != kNoValue) (*threadNames_)[st.int64(0)] = static_cast<uint32_t>(name);
  }
  return *threadNames_;
}

}  // namespace asys
