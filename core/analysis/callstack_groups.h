#pragma once
// Groups of call stacks by frame regexes, as `--callstack-group-config
// NAME=FRAME_RE/FRAME_RE/...` defines them (asys-stats-rules 2.3.1):
// - a frame matches a regex that finds a match (anywhere) in its module
//   (library path, or the .py file of a Python frame) or its symbol
//   (function signature);
// - a config matches a stack when distinct frames matching its regexes occur
//   in that order from the root towards the leaf, other frames in between;
// - configs with the same name form one group, which matches when any does;
//   groups keep the order in which their names first appear.
// A `/` inside one regex is written `\/`; `\,` and `\:` (the rule options'
// escapes) need nothing: PCRE2 reads them as a literal comma and colon.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/key_groups.h"
#include "core/base/regex.h"

namespace asys {

class StringPool;

struct CallstackGroup {
  std::string name;
  // One entry per config of this name: its frame regexes, root first.
  std::vector<std::vector<Regex>> configs;
};

class CallstackGroups {
 public:
  // Parses one config and adds it. Throws Error, one line quoting the config:
  // no '=', an empty name, a name with '/', an empty frame regex, or an
  // invalid regex (which one, and PCRE2's position and reason).
  void add(const std::string& config);
  const std::vector<CallstackGroup>& groups() const { return groups_; }
  bool empty() const { return groups_.empty(); }

  // The groups that apply when no --callstack-group-config is given, as
  // config texts (documented in docs/rules.md, the viewer's starting list).
  static const std::vector<std::string>& builtInConfigs();
  static const CallstackGroups& builtIn();

 private:
  std::vector<CallstackGroup> groups_;
};

// Matches call chains against groups. Each regex runs at most once per
// distinct string (a module or symbol shared by many frames and chains), and
// only when the in-order scan of a chain reaches it.
class CallstackMatcher {
 public:
  CallstackMatcher(const CallstackGroups& groups, const StringPool& strings);

  // The indices (into groups()) of the groups that match a chain given as
  // its frames' symbol and module ids, root first; in group order.
  void match(std::span<const uint32_t> symbols, std::span<const uint32_t> modules, std::vector<uint32_t>& out);
  // Regex evaluations so far (for tests: once per distinct string).
  size_t evaluations() const { return evaluations_; }

 private:
  bool frameMatches(size_t regex, uint32_t symbol, uint32_t module);
  bool stringMatches(size_t regex, uint32_t string);

  const CallstackGroups& groups_;
  const StringPool& strings_;
  std::vector<const Regex*> regexes_;                  // every config's regexes, flattened
  std::vector<std::vector<std::vector<size_t>>> configRegex_;  // group -> config -> regex index
  KeyGroups localString_;                              // pool id -> dense local id
  std::vector<int8_t> memo_;                           // [local * regexes + r]: -1 unknown, 0, 1
  size_t evaluations_ = 0;
};

}  // namespace asys
