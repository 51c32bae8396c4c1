#pragma once
// Regular expressions for every regex option (PCRE2, Perl-compatible, as the
// rule documentation says). Matching is a search (a partial match anywhere),
// bounded by a match limit so a pathological pattern fails instead of hanging.
#include <memory>
#include <string>
#include <string_view>

namespace asys {

class Regex {
 public:
  // Throws Error: "<option>: invalid regular expression '<pattern>' at
  // position N: <reason>".
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

}  // namespace asys
