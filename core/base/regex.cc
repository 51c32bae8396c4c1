#include "core/base/regex.h"

#include <pcre2.h>

#include "core/base/error.h"

namespace asys {

namespace {
// Bounds on one search (docs/security.md, "Regular expressions"): a million
// backtracking steps, a backtracking depth of 100000 and 64 MiB of PCRE2's
// backtracking heap. An ordinary pattern needs a fraction of each on any
// name; a catastrophic one such as `(a+)+$` hits one within milliseconds.
constexpr uint32_t kMatchLimit = 1000000;
constexpr uint32_t kDepthLimit = 100000;
constexpr PCRE2_SIZE kHeapLimitKiB = 64 * 1024;

// PCRE2 resets its match limit at each start position, so a search of a
// name of n characters may take n times the limit: the fuzzer's
// `....*.....*...3` took 3.6 s on one 499-character HGTX range and stayed
// under it. So every search also counts its steps, through automatic
// callouts (one at each pattern item tried; ordinary searches are 1.3-1.5
// times slower, microseconds a name):
// - one search may take 10 million steps (0.2 s natively);
// - one regex's searches in a run may take 50 million steps (1 s) in all
//   unless they average under 10000 steps a name. An ordinary pattern takes
//   tens to a few thousand a name (a leading `.*` anchors it at the start),
//   and names are matched once per distinct text, so an average ten times
//   that is already a pattern that backtracks on every name.
// Steps, not time, so the same report and pattern fail alike everywhere.
constexpr uint64_t kSearchSteps = 10'000'000;
constexpr uint64_t kRunSteps = 50'000'000;
constexpr uint64_t kSlowSearchSteps = 10'000;

std::string pcre2Message(int code) {
  PCRE2_UCHAR buf[256];
  pcre2_get_error_message(code, buf, sizeof buf);
  return reinterpret_cast<const char*>(buf);
}

// The limit a failed search hit, in words, or null for another failure.
const char* limitName(int code) {
  switch (code) {
    case PCRE2_ERROR_MATCHLIMIT: return "the match limit";
    case PCRE2_ERROR_DEPTHLIMIT: return "the depth limit";
    case PCRE2_ERROR_HEAPLIMIT: return "the heap limit";
    case PCRE2_ERROR_NOMEMORY: return "the memory limit";
    default: return nullptr;
  }
}

// "12.3 million", "20.4 thousand": a step count to one decimal.
std::string stepsText(uint64_t n) {
  const bool millions = n >= 1'000'000;
  const uint64_t unit = millions ? 100'000 : 100, tenths = (n + unit / 2) / unit;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + (millions ? " million" : " thousand");
}

// Characters of UTF-8 text (bytes that do not continue a sequence).
size_t characterCount(std::string_view text) {
  size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
}  // namespace

struct Regex::Impl {
  pcre2_code* code = nullptr;
  pcre2_match_data* data = nullptr;
  pcre2_match_context* context = nullptr;
  uint64_t searchSteps = 0;  // of the search under way
  uint64_t runSteps = 0;     // of every search so far
  uint64_t searches = 0;
  ~Impl() {
    pcre2_match_context_free(context);
    pcre2_match_data_free(data);
    pcre2_code_free(code);
  }
};

namespace {
// The callout: data is the search's step count. A negative return ends the
// search with that code.
int countStep(pcre2_callout_block*, void* steps) {
  return ++*static_cast<uint64_t*>(steps) > kSearchSteps ? PCRE2_ERROR_CALLOUT : 0;
}
}  // namespace

Regex::Regex(const std::string& pattern, const std::string& option)
    : pattern_(pattern), option_(option), impl_(std::make_unique<Impl>()) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                              PCRE2_UTF | PCRE2_AUTO_CALLOUT, &error, &offset, nullptr);
  if (!impl_->code) {
    throw Error(option + ": invalid regular expression '" + pattern + "' at position " +
                std::to_string(offset) + ": " + pcre2Message(error));
  }
  impl_->data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  impl_->context = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(impl_->context, kMatchLimit);
  pcre2_set_depth_limit(impl_->context, kDepthLimit);
  pcre2_set_heap_limit(impl_->context, kHeapLimitKiB);
  pcre2_set_callout(impl_->context, countStep, &impl_->searchSteps);
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::search(std::string_view subject) const {
  Impl& impl = *impl_;
  impl.searchSteps = 0;
  int rc = pcre2_match(impl.code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), 0,
                       0, impl.data, impl.context);
  impl.runSteps += impl.searchSteps;
  ++impl.searches;
  const auto fail = [&](const std::string& what) {
    throw Error(option_ + ": regular expression '" + pattern_ + "' " + what);
  };
  if (rc == PCRE2_ERROR_CALLOUT) {
    fail("took more than " + std::to_string(kSearchSteps / 1'000'000) + " million steps on a name of " +
         std::to_string(characterCount(subject)) + " characters");
  }
  if (impl.runSteps > kRunSteps && impl.runSteps > kSlowSearchSteps * impl.searches) {
    fail("took " + stepsText(impl.runSteps) + " steps on " + std::to_string(impl.searches) + " names (" +
         stepsText(impl.runSteps / impl.searches) + " a name), backtracking on every name: write it with fewer repeats such as '.*'");
  }
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc == PCRE2_ERROR_BADUTFOFFSET || (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21)) {
    return false;  // text that is not UTF-8 cannot match a UTF pattern
  }
  if (const char* limit = limitName(rc)) {
    fail(std::string("hit ") + limit + " on a name of " + std::to_string(characterCount(subject)) + " characters");
  }
  fail("failed on '" + std::string(subject.substr(0, 80)) + "': " + pcre2Message(rc));
  return false;
}

std::vector<std::string> splitRegexList(std::string_view list, const std::string& option) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '\\' && i + 1 < list.size()) {  // an escape: keep both characters
      out.back() += c;
      out.back() += list[++i];
    } else if (c == '/') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].empty()) {
      throw Error(option + ": regular expression " + std::to_string(i + 1) + " of '" + std::string(list) +
                  "' is empty (separate regexes with a single '/', write a literal '/' as '\\/')");
    }
  }
  return out;
}

std::vector<Regex> compileRegexList(std::string_view list, const std::string& option) {
  std::vector<Regex> out;
  for (const std::string& pattern : splitRegexList(list, option)) out.emplace_back(pattern, option);
  return out;
}

}  // namespace asys
