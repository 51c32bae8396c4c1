#include "core/timeline/graph_launches.h"

#include <algorithm>

namespace asys {

void GraphLaunches::add(Table table, size_t row, int64_t pid, int64_t exec, int64_t correlationId) {
  if (!refused_.empty()) return;
  // The launches (about 80 bytes each once they are rows) and the graph
  // activities (8 bytes each while building) would not fit beside the
  // timeline near the WebAssembly heap's ceiling.
  if (++activities_ > maxActivities_) {
    refused_ = "more than " + std::to_string(maxActivities_) + " PPU activities ran from graphs";
  } else {
    auto [it, added] = index_.emplace(Key{pid, exec, correlationId}, static_cast<uint32_t>(keys_.size()));
    if (added) keys_.push_back(it->first);
    if (keys_.size() > maxLaunches_) refused_ = "more than " + std::to_string(maxLaunches_) + " graph launches";
    else work_[table].push_back({static_cast<uint32_t>(row), it->second});
  }
  if (!refused_.empty()) {  // nothing of it is read
    std::map<Key, uint32_t>().swap(index_);
    std::vector<Key>().swap(keys_);
    for (auto& w : work_) std::vector<Activity>().swap(w);
  }
}

void GraphLaunches::finish() {
  std::map<Key, uint32_t>().swap(index_);
  for (auto& w : work_) std::sort(w.begin(), w.end());  // row order already; cheap if so
}

}  // namespace asys
