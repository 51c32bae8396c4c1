#pragma once
// Regular expressions for every regex option (PCRE2, Perl-compatible, as the
// rule documentation says). Matching is a search (a partial match anywhere),
// bounded so a pathological pattern fails instead of hanging: PCRE2's match,
// depth and heap limits, and a count of the steps of each search and of all
// of one regex's searches in a run (docs/security.md, "Regular expressions").
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace asys {

class Regex {
 public:
  // Throws Error: "<option>: invalid regular expression '<pattern>' at
  // position N: <reason>". search() throws Error naming the option, the
  // pattern and the bound it went past.
  Regex(const std::string& pattern, const std::string& option);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  bool search(std::string_view subject) const;
  const std::string& pattern() const { return pattern_; }

 private:
  struct Impl;
  std::string pattern_, option_;
  std::unique_ptr<Impl> impl_;
};

// A `/`-separated list of regular expressions, as the range-include /
// range-exclude options take them. A `/` inside one regex is written `\/`
// (PCRE2 reads `\/` as a literal `/`, so the escape stays in the pattern).
// Throws Error naming the option and the empty or invalid regex.
std::vector<std::string> splitRegexList(std::string_view list, const std::string& option);
std::vector<Regex> compileRegexList(std::string_view list, const std::string& option);

}  // namespace asys
