#include "core/analysis/launch_index.h"

#include <algorithm>
#include <tuple>

#include "core/analysis/key_join.h"
#include "core/report/report.h"

namespace asys {

namespace {
constexpr size_t kMaxDenseProcesses = 64;
}  // namespace

LaunchIndex::Process* LaunchIndex::processOf(int64_t pid) {
  if (lastProcess_ < processes_.size() && processes_[lastProcess_].pid == pid) return &processes_[lastProcess_];
  for (size_t p = 0; p < processes_.size(); ++p) {
    if (processes_[p].pid != pid) continue;
    lastProcess_ = p;
    return &processes_[p];
  }
  if (processes_.size() == kMaxDenseProcesses) return nullptr;
  processes_.push_back({pid, {}});
  lastProcess_ = processes_.size() - 1;
  return &processes_.back();
}

const LaunchIndex::Process* LaunchIndex::findProcess(int64_t pid) const {
  if (lastProcess_ < processes_.size() && processes_[lastProcess_].pid == pid) return &processes_[lastProcess_];
  for (size_t p = 0; p < processes_.size(); ++p) {
    if (processes_[p].pid != pid) continue;
    lastProcess_ = p;
    return &processes_[p];
  }
  return nullptr;
}

void LaunchIndex::add(uint32_t call, int64_t globalTid, int64_t correlationId) {
  if (correlationId == kNoValue) return;
  const int64_t pid = pidOf(globalTid);
  if (dense_) {
    Process* p = correlationId < 0 ? nullptr : processOf(pid);
    const size_t id = static_cast<size_t>(correlationId);
    if (p && id < p->callOf.size()) {
      if (p->callOf[id] == kNoMatch) p->callOf[id] = call;  // the first in table order
      return;
    }
    if (p && cells_ - p->callOf.size() + id + 1 <= maxCells_) {
      // Grown by half at least, so a counter costs few copies; never past
      // the cells allowed.
      const size_t cells = std::min(std::max(id + 1, p->callOf.size() * 3 / 2), maxCells_ - cells_ + p->callOf.size());
      cells_ += cells - p->callOf.size();
      p->callOf.resize(cells, kNoMatch);
      p->callOf[id] = call;
      return;
    }
    toSorted();
  }
  sorted_.push_back({static_cast<uint32_t>(pid), call, correlationId});
}

// The dense tables as sorted-list entries, and from now on the list only.
void LaunchIndex::toSorted() {
  for (const Process& p : processes_)
    for (size_t id = 0; id < p.callOf.size(); ++id)
      if (p.callOf[id] != kNoMatch) sorted_.push_back({static_cast<uint32_t>(p.pid), p.callOf[id], static_cast<int64_t>(id)});
  std::vector<Process>().swap(processes_);
  dense_ = false;
}

void LaunchIndex::finish() {
  if (finished_) return;
  finished_ = true;
  if (dense_) {
    // A table at a time, each given back once packed: what the kernel scan
    // holds beside the list (61 -> 12 MiB at scale 2500).
    for (Process& p : processes_) {
      p.packed = PackedCalls(p.callOf);
      std::vector<uint32_t>().swap(p.callOf);
    }
    return;
  }
  auto key = [](const Entry& e) { return std::tie(e.pid, e.id, e.call); };
  std::sort(sorted_.begin(), sorted_.end(), [&](const Entry& a, const Entry& b) { return key(a) < key(b); });
  // Of the calls with one id, the first in table order (the smallest row).
  sorted_.erase(std::unique(sorted_.begin(), sorted_.end(),
                            [](const Entry& a, const Entry& b) { return a.pid == b.pid && a.id == b.id; }),
                sorted_.end());
}

uint32_t LaunchIndex::find(int64_t globalPid, int64_t correlationId) const {
  if (correlationId == kNoValue) return kNoMatch;
  const int64_t pid = pidOf(globalPid);
  if (dense_) {
    const Process* p = findProcess(pid);
    if (!p || correlationId < 0 || static_cast<uint64_t>(correlationId) >= p->packed.size()) return kNoMatch;
    return p->packed[static_cast<size_t>(correlationId)];
  }
  const Entry want{static_cast<uint32_t>(pid), 0, correlationId};
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), want, [](const Entry& a, const Entry& b) {
    return std::tie(a.pid, a.id) < std::tie(b.pid, b.id);
  });
  return it != sorted_.end() && it->pid == want.pid && it->id == correlationId ? it->call : kNoMatch;
}

size_t LaunchIndex::bytes() const {
  if (!dense_) return sorted_.capacity() * sizeof(Entry);
  size_t bytes = processes_.capacity() * sizeof(Process);
  for (const Process& p : processes_) bytes += p.callOf.capacity() * sizeof(uint32_t) + p.packed.bytes();
  return bytes;
}

size_t LaunchIndex::exactBlocks() const {
  size_t blocks = 0;
  for (const Process& p : processes_) blocks += p.packed.exactBlocks();
  return blocks;
}

}  // namespace asys
