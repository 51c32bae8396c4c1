#include "core/rules/kernel_row_texts.h"

namespace asys {

uint32_t KernelDimTexts::idOf(int32_t x, int32_t y, int32_t z) {
  uint64_t xy = xy_.indexOf((static_cast<uint64_t>(static_cast<uint32_t>(x)) << 32) | static_cast<uint32_t>(y));
  uint32_t id = xyz_.indexOf((xy << 32) | static_cast<uint32_t>(z));
  if (id == texts_.size())
    texts_.push_back(std::to_string(x) + ' ' + std::to_string(y) + ' ' + std::to_string(z));
  return id;
}

uint32_t KernelLabelTexts::idOfKey(uint64_t key) {
  uint32_t id = groups_.indexOf(key);
  if (id == texts_.size()) texts_.push_back(labels_.label(key));
  return id;
}

}  // namespace asys
