#pragma once
// An Nsight Systems SQLite export ATTACHed (read-only) to the connection of
// the asysrep being written, with what the importer needs to map it: which
// tables and columns this export has (they differ across nsys versions, and
// lazy exports omit empty tables), and SQL helpers whose errors name the
// input file.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace asys {

class ReportWriter;

namespace nsys {

// The schema name the export is attached under.
constexpr const char* kSchema = "nsys";

// Bits 0-47 of nsys's serialized global ids: nsys puts a VM/hardware id in
// bits 56-63, asysrep's globalTid/globalPid are pid<<24 | tid only.
constexpr int64_t kGlobalIdMask = 0xFFFFFFFFFFFFLL;

// `s` as an SQL string literal.
std::string sqlText(const std::string& s);

class Source {
 public:
  // Attaches `input` and reads its table list. Throws Error naming `input`.
  Source(ReportWriter& out, const std::string& input);

  const std::string& input() const { return input_; }
  ReportWriter& out() { return out_; }

  bool has(const std::string& table) const { return columns_.count(table) != 0; }
  // Present and holding at least one row.
  bool hasRows(const std::string& table);
  bool hasColumn(const std::string& table, const std::string& column) const;
  // `alias."column"` when the table has it, else `fallback` (SQL).
  std::string col(const std::string& table, const std::string& column, const std::string& alias,
                  const std::string& fallback = "NULL") const;
  // The same for a serialized global id, masked to bits 0-47.
  std::string globalId(const std::string& table, const std::string& column, const std::string& alias) const;
  // `nsys."table"`.
  static std::string ref(const std::string& table);
  // Throws unless the table has every column named (comma-separated).
  void require(const std::string& table, const char* columns) const;

  // Runs SQL on the report's connection; failures name the input.
  void exec(const std::string& sql);
  std::optional<int64_t> integer(const std::string& sql);
  std::optional<std::string> text(const std::string& sql);
  // name -> value of a two-column (name, value) metadata table; later rows
  // with the same name do not replace earlier ones.
  std::map<std::string, std::string> nameValues(const std::string& table);

 private:
  [[noreturn]] void fail(const std::string& what);
  ReportWriter& out_;
  std::string input_;
  std::map<std::string, std::set<std::string>> columns_;
};

}  // namespace nsys
}  // namespace asys
