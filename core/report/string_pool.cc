#include "core/report/report.h"

namespace asys {

namespace {
constexpr uint32_t kAbsent = 0xFFFFFFFFu;
}

void StringPool::reserveIds(size_t maxId) {
  if (offset_.size() < maxId + 1) {
    offset_.resize(maxId + 1, 0);
    length_.resize(maxId + 1, kAbsent);
  }
}

void StringPool::setId(uint32_t id, std::string_view s) {
  reserveIds(id);
  offset_[id] = static_cast<uint32_t>(bytes_.size());
  length_[id] = static_cast<uint32_t>(s.size());
  bytes_.append(s);
}

std::string_view StringPool::get(uint32_t id) const {
  if (id >= length_.size() || length_[id] == kAbsent) return {};
  return std::string_view(bytes_).substr(offset_[id], length_[id]);
}

uint32_t StringPool::intern(std::string_view s) {
  auto it = extra_.find(std::string(s));
  if (it != extra_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(length_.size());
  setId(id, s);
  extra_.emplace(std::string(s), id);
  return id;
}

}  // namespace asys
