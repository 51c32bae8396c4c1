#pragma once
// The tables and columns SQLite reads for a report, as SQLite itself sees
// them: while a ReadSet lives, every statement prepared on the connection
// names each column it reads to SQLite's authorizer, which records it. What
// `asys stats --print-reads` prints, so that bench/rules.sh scans exactly
// what a rule reads: derived from the code's own loads (the column bits a
// rule asks for, the hand-written readers), never listed by hand.
#include <string>
#include <utility>
#include <vector>

namespace asys {

class SqliteDb;

class ReadSet {
 public:
  // Records the reads of statements prepared on `db` from now on.
  explicit ReadSet(SqliteDb& db);
  ~ReadSet();  // stops recording
  ReadSet(const ReadSet&) = delete;
  ReadSet& operator=(const ReadSet&) = delete;

  // Per table, in the order first read, its columns in the order first
  // read. Not reads: SQLite's own tables (the schema, the pragmas), a table named with no
  // column (`SELECT 1 FROM t LIMIT 1`) and the rowid, which is the b-tree's
  // key, read with every row at no cost of its own.
  const std::vector<std::pair<std::string, std::vector<std::string>>>& tables() const { return tables_; }

  // Called by the authorizer.
  void add(const char* table, const char* column);

 private:
  SqliteDb& db_;
  std::vector<std::pair<std::string, std::vector<std::string>>> tables_;
};

}  // namespace asys
