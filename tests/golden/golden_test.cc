// Golden "diff tests": each tests/golden/cases/*.case file is one CLI
// invocation against a small hand-made report (tests/golden/fixtures/*.sql)
// with its expected exit status, standard output and standard error, worked
// out by hand. See docs/testing.md for the case file format.
//
// The runner builds the fixture into a temporary SQLite file, runs
// asys::runCli in-process and compares. One GoogleTest per case file, named
// after the file (Golden/GoldenTest.Case/<file stem>).
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/cli/cli.h"

namespace fs = std::filesystem;

namespace {

const fs::path kGoldenDir = ASYS_GOLDEN_DIR;

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> splitLines(const std::string& text) {
  // "a\nb\n" -> {"a", "b"}; "a\nb" -> {"a", "b"}; "" -> {}.
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

// ---------------------------------------------------------------------------
// The case file.

struct Case {
  fs::path file;
  std::string fixture;           // "kernels.sql", or "none"
  std::string fixtureText;       // fixture-text: the report is this text file
  bool hasFixtureText = false;
  std::string transform;         // fixture-transform: truncate-half
  std::vector<std::string> fixtureSql;  // fixture-sql: statements run on the built report
  std::string targetFixture;            // fixture-target: a second report, {target}
  std::vector<std::string> targetSql;   // target-sql: statements run on it
  std::string args;
  std::optional<int> exitCode;   // empty = "nonzero"
  std::optional<std::string> stdoutExact;
  std::optional<std::string> stderrExact;
  std::vector<std::string> stdoutContains;
  std::vector<std::string> stderrContains;
  // `--- file NAME`: the exact text of {dir}/NAME after the run (a file a
  // rule writes besides its table).
  std::vector<std::pair<std::string, std::string>> files;
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Throws std::runtime_error describing what is wrong with the file.
Case parseCase(const fs::path& file) {
  Case c;
  c.file = file;
  std::vector<std::string> lines = splitLines(readFile(file));
  bool haveExit = false;
  size_t i = 0;
  // Header: comments, blank lines, `key: value`, up to the first section.
  for (; i < lines.size() && lines[i].rfind("--- ", 0) != 0; ++i) {
    const std::string line = trim(lines[i]);
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) throw std::runtime_error("line " + std::to_string(i + 1) + ": expected `key: value`");
    std::string key = trim(line.substr(0, colon));
    std::string value = trim(line.substr(colon + 1));
    if (key == "fixture") {
      c.fixture = value;
    } else if (key == "fixture-text") {
      c.fixtureText = value;
      c.hasFixtureText = true;
    } else if (key == "fixture-transform") {
      c.transform = value;
    } else if (key == "fixture-sql") {
      c.fixtureSql.push_back(value);
    } else if (key == "fixture-target") {
      c.targetFixture = value;
    } else if (key == "target-sql") {
      c.targetSql.push_back(value);
    } else if (key == "args") {
      c.args = value;
    } else if (key == "exit") {
      haveExit = true;
      if (value == "nonzero") c.exitCode.reset();
      else c.exitCode = std::stoi(value);
    } else {
      throw std::runtime_error("line " + std::to_string(i + 1) + ": unknown key `" + key + "`");
    }
  }
  if (c.args.empty()) throw std::runtime_error("no `args:`");
  if (!haveExit) throw std::runtime_error("no `exit:`");
  if (c.fixture.empty() && !c.hasFixtureText) throw std::runtime_error("no `fixture:` (use `fixture: none` for none)");
  // Sections.
  while (i < lines.size()) {
    const std::string name = trim(lines[i].substr(4));
    ++i;
    std::vector<std::string> body;
    for (; i < lines.size() && lines[i].rfind("--- ", 0) != 0; ++i) body.push_back(lines[i]);
    if (name == "stdout" || name == "stderr") {
      std::string text;
      for (const auto& l : body) text += l + "\n";
      (name == "stdout" ? c.stdoutExact : c.stderrExact) = text;
    } else if (name == "stdout-contains" || name == "stderr-contains") {
      auto& dst = name == "stdout-contains" ? c.stdoutContains : c.stderrContains;
      for (const auto& l : body)
        if (!l.empty()) dst.push_back(l);
    } else if (name.rfind("file ", 0) == 0) {
      std::string text;
      for (const auto& l : body) text += l + "\n";
      c.files.emplace_back(trim(name.substr(5)), text);
    } else if (name == "end") {
      break;
    } else {
      throw std::runtime_error("unknown section `--- " + name + "`");
    }
  }
  return c;
}

std::vector<fs::path> caseFiles() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kGoldenDir / "cases", ec))
    if (e.is_regular_file() && e.path().extension() == ".case") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// `a "b c" d` -> {a, "b c", d}. Double quotes group (and are removed); inside
// them `\"` is a literal quote. Every other backslash is kept as is, so rule
// option escapes such as `\,` and `\:` reach the CLI untouched.
std::vector<std::string> splitArgs(const std::string& s) {
  std::vector<std::string> args;
  std::string cur;
  bool inArg = false, quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (quoted) {
      if (ch == '\\' && i + 1 < s.size() && s[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        cur += ch;
      }
    } else if (ch == ' ' || ch == '\t') {
      if (inArg) args.push_back(cur);
      cur.clear();
      inArg = false;
    } else if (ch == '"') {
      quoted = true;
      inArg = true;
    } else {
      cur += ch;
      inArg = true;
    }
  }
  if (inArg) args.push_back(cur);
  return args;
}

// ---------------------------------------------------------------------------
// Fixtures.

// Builds the fixture, then runs the case's own statements on it (a fixture
// broken in one place for an error case).
void buildFixture(const fs::path& sqlFile, const std::vector<std::string>& extra, const fs::path& out) {
  std::string sql = readFile(sqlFile);
  ASSERT_FALSE(sql.empty()) << "cannot read fixture " << sqlFile;
  for (const auto& statement : extra) sql += "\n" + statement + ";";
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(out.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  ASSERT_EQ(rc, SQLITE_OK) << "sqlite3_open_v2(" << out << "): " << (db ? sqlite3_errmsg(db) : "?");
  char* msg = nullptr;
  rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  std::string error = msg ? msg : "";
  sqlite3_free(msg);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << "fixture " << sqlFile.filename() << ": " << error;
}

// ---------------------------------------------------------------------------
// A readable line diff (LCS), `-` expected, `+` actual.

std::string lineDiff(const std::string& expected, const std::string& actual) {
  std::vector<std::string> a = splitLines(expected), b = splitLines(actual);
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> lcs(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::ostringstream d;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      d << "  " << a[i] << "\n";
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      d << "- " << a[i++] << "\n";
    } else {
      d << "+ " << b[j++] << "\n";
    }
  }
  // Line endings and a missing final newline do not show in a line diff.
  bool expNl = !expected.empty() && expected.back() == '\n';
  bool actNl = !actual.empty() && actual.back() == '\n';
  if (expNl != actNl) d << "(final newline: expected " << (expNl ? "yes" : "no") << ", actual " << (actNl ? "yes" : "no") << ")\n";
  if (actual.find('\r') != std::string::npos) d << "(actual output contains \\r)\n";
  return d.str();
}

// ---------------------------------------------------------------------------

class GoldenTest : public ::testing::TestWithParam<fs::path> {
 protected:
  void SetUp() override {
    std::string base = ::testing::TempDir();
    if (base.empty()) base = "/tmp/";
    std::string tmpl = (fs::path(base) / "asys_golden_XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    ASSERT_NE(mkdtemp(buf.data()), nullptr) << "mkdtemp: " << std::strerror(errno);
    dir_ = buf.data();
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_P(GoldenTest, Case) {
  const fs::path file = GetParam();
  Case c;
  try {
    c = parseCase(file);
  } catch (const std::exception& e) {
    FAIL() << file.filename().string() << ": malformed case: " << e.what();
  }

  const fs::path report = dir_ / "report.asysrep";
  if (c.hasFixtureText) {
    std::ofstream(report, std::ios::binary) << c.fixtureText << "\n";
  } else if (c.fixture != "none") {
    buildFixture(kGoldenDir / "fixtures" / c.fixture, c.fixtureSql, report);
    if (HasFatalFailure()) return;
  }
  const fs::path target = dir_ / "target.asysrep";
  if (!c.targetFixture.empty()) {
    buildFixture(kGoldenDir / "fixtures" / c.targetFixture, c.targetSql, target);
    if (HasFatalFailure()) return;
  }
  if (!c.transform.empty()) {
    ASSERT_EQ(c.transform, "truncate-half") << "unknown fixture-transform";
    auto size = fs::file_size(report);
    fs::resize_file(report, size / 2);
  }

  auto subst = [&](std::string s) {
    s = replaceAll(s, "{report}", report.string());
    s = replaceAll(s, "{target}", target.string());
    return replaceAll(s, "{dir}", dir_.string());
  };
  std::vector<std::string> args = splitArgs(subst(c.args));

  std::ostringstream out, err;
  int rc = -1;
  try {
    rc = asys::runCli(args, out, err);
  } catch (const std::exception& e) {
    FAIL() << "runCli threw: " << e.what();
  } catch (...) {
    FAIL() << "runCli threw a non-std exception";
  }
  const std::string so = out.str(), se = err.str();
  const std::string where = file.filename().string() + "\n  args: " + subst(c.args) + "\n";

  if (c.exitCode) {
    EXPECT_EQ(rc, *c.exitCode) << where << "stderr: " << se;
  } else {
    EXPECT_NE(rc, 0) << where << "expected a non-zero exit status";
  }

  if (c.stdoutExact) {
    const std::string expected = subst(*c.stdoutExact);
    EXPECT_TRUE(so == expected) << where << "stdout differs (- expected, + actual):\n"
                                << lineDiff(expected, so);
  }
  for (const auto& s : c.stdoutContains) {
    const std::string needle = subst(s);
    EXPECT_TRUE(so.find(needle) != std::string::npos)
        << where << "stdout does not contain: " << needle << "\nstdout:\n" << so;
  }

  for (const auto& [name, text] : c.files) {
    const fs::path written = dir_ / name;
    ASSERT_TRUE(fs::exists(written)) << where << name << " was not written";
    const std::string actual = readFile(written), expected = subst(text);
    EXPECT_TRUE(actual == expected) << where << name << " differs (- expected, + actual):\n"
                                    << lineDiff(expected, actual);
  }

  const bool expectError = !c.exitCode || *c.exitCode != 0;
  if (c.stderrExact) {
    const std::string expected = subst(*c.stderrExact);
    EXPECT_TRUE(se == expected) << where << "stderr differs (- expected, + actual):\n" << lineDiff(expected, se);
  } else if (expectError) {
    // Exactly one line: non-empty, one newline, at the end.
    EXPECT_TRUE(!se.empty() && se.back() == '\n' && se.find('\n') == se.size() - 1 && se.size() > 1)
        << where << "stderr must be exactly one line, got:\n[" << se << "]";
  } else {
    EXPECT_EQ(se, "") << where << "stderr must be empty on success";
  }
  for (const auto& s : c.stderrContains) {
    const std::string needle = subst(s);
    EXPECT_TRUE(se.find(needle) != std::string::npos)
        << where << "stderr does not contain: " << needle << "\nstderr: " << se;
  }
}

std::string caseName(const ::testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, ::testing::ValuesIn(caseFiles()), caseName);

}  // namespace
