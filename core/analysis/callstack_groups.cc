#include "core/analysis/callstack_groups.h"

#include "core/base/error.h"
#include "core/base/string_pool.h"

namespace asys {

namespace {
constexpr const char* kOption = "--callstack-group-config";
}  // namespace

void CallstackGroups::add(const std::string& config) {
  const std::string quoted = std::string(kOption) + " '" + config + "'";
  const size_t eq = config.find('=');
  if (eq == std::string::npos) throw Error(quoted + ": expected NAME=FRAME_RE[/FRAME_RE...] (no '=')");
  const std::string name = config.substr(0, eq);
  if (name.empty()) throw Error(quoted + ": the group name before '=' is empty");
  if (name.find('/') != std::string::npos) {
    throw Error(quoted + ": the group name '" + name + "' contains '/', which separates the names in Group List");
  }
  const std::string frames = config.substr(eq + 1);
  if (frames.empty()) throw Error(quoted + ": group '" + name + "' has no frame regex after '='");
  std::vector<Regex> regexes;
  const std::vector<std::string> patterns = splitRegexList(frames, quoted + ": group '" + name + "'");
  for (size_t i = 0; i < patterns.size(); ++i) {
    regexes.emplace_back(patterns[i], quoted + ": group '" + name + "', frame regex " + std::to_string(i + 1));
  }
  for (CallstackGroup& g : groups_) {
    if (g.name == name) {
      g.configs.push_back(std::move(regexes));
      return;
    }
  }
  groups_.push_back({name, {}});
  groups_.back().configs.push_back(std::move(regexes));
}

const std::vector<std::string>& CallstackGroups::builtInConfigs() {
  // Most specific first, so that with match-first-group a library's own
  // buffers are not all counted as the caching allocator's.
  static const std::vector<std::string> configs = {
      // operator and compute libraries (PPU, CUDA and ROCm names)
      "acompute=(libacblas|libacdnn|libacfft|libacsparse|libacsolver|libcublas|libcudnn|libcufft|libcusparse|"
      "libcusolver|librocblas|libhipblas|libMIOpen)",
      // communication libraries and PyTorch's distributed layer
      "pccl=(libpccl|libnccl|librccl|c10d::|ProcessGroup|^nccl:|record_param_comms)",
      // local memory reserved by kernel launches
      "launch_kernel=LaunchKernel",
      // optimizer state (C++ and Python frames, Kineto's Optimizer.step annotations)
      "torch_optimizer=(torch\\/optim\\/|^Optimizer\\.)",
      // the backward pass
      "torch_autograd=(autograd::engine|autograd::Engine|autograd::generated::|torch\\/autograd\\/)",
      // whatever else PyTorch's caching allocator hands out
      "torch_caching_allocator=CachingAllocator",
      // Python framework code
      "torch_python=(torch|megatron|deepspeed|transformers)\\/.+\\.py",
  };
  return configs;
}

const CallstackGroups& CallstackGroups::builtIn() {
  static const CallstackGroups groups = [] {
    CallstackGroups g;
    for (const std::string& c : builtInConfigs()) g.add(c);
    return g;
  }();
  return groups;
}

CallstackMatcher::CallstackMatcher(const CallstackGroups& groups, const StringPool& strings)
    : groups_(groups), strings_(strings) {
  for (const CallstackGroup& g : groups.groups()) {
    auto& configs = configRegex_.emplace_back();
    for (const auto& config : g.configs) {
      auto& indices = configs.emplace_back();
      for (const Regex& r : config) {
        indices.push_back(regexes_.size());
        regexes_.push_back(&r);
      }
    }
  }
}

bool CallstackMatcher::stringMatches(size_t regex, uint32_t string) {
  if (string == kNoString) return false;
  const uint32_t local = localString_.indexOf(string);
  if (memo_.size() < (static_cast<size_t>(local) + 1) * regexes_.size()) {
    memo_.resize((static_cast<size_t>(local) + 1) * regexes_.size(), -1);
  }
  int8_t& m = memo_[static_cast<size_t>(local) * regexes_.size() + regex];
  if (m < 0) {
    ++evaluations_;
    m = regexes_[regex]->search(strings_.get(string)) ? 1 : 0;
  }
  return m == 1;
}

bool CallstackMatcher::frameMatches(size_t regex, uint32_t symbol, uint32_t module) {
  return stringMatches(regex, module) || stringMatches(regex, symbol);
}

void CallstackMatcher::match(std::span<const uint32_t> symbols, std::span<const uint32_t> modules,
                             std::vector<uint32_t>& out) {
  out.clear();
  for (size_t g = 0; g < configRegex_.size(); ++g) {
    for (const std::vector<size_t>& regexes : configRegex_[g]) {
      // The earliest frame matching each regex in turn: if any in-order
      // choice of frames exists, this greedy one does.
      size_t next = 0;
      for (size_t f = 0; f < symbols.size() && next < regexes.size(); ++f) {
        if (frameMatches(regexes[next], symbols[f], modules[f])) ++next;
      }
      if (next == regexes.size()) {
        out.push_back(static_cast<uint32_t>(g));
        break;
      }
    }
  }
}

}  // namespace asys
