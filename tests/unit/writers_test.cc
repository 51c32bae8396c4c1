// CSV/JSON/column rendering of a hand-built table.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/rules/common.h"
#include "core/table/writers.h"

using namespace asys;

namespace {
Table sample() {
  Table t({{"Time", "%", CellKind::Decimal1, ""},
           {"Total Time", "ns", CellKind::Int, ""},
           {"Name", "", CellKind::Text, ""}});
  t.setDecimal(0, 84.9);
  t.setInt(1, 393100090);
  t.setText(2, "hgMemcpyHtoDAsync_v2");
  t.endRow();
  t.setDecimal(0, 0.0);
  t.setText(2, "say \"hi\", then");  // Total Time left unset: "-"
  t.endRow();
  return t;
}
}  // namespace

TEST(CsvWriter, FollowsOutputConventions) {
  std::ostringstream out;
  writeCsv(sample(), out);
  EXPECT_EQ(out.str(),
            "Row#,Time (%),Total Time (ns),Name,\n"
            "1,84.9,393100090,\"hgMemcpyHtoDAsync_v2\",\n"
            "2,0.0,\"-\",\"say \"\"hi\"\", then\",\n");
}

TEST(JsonWriter, WritesRowObjects) {
  std::ostringstream out;
  writeJson(sample(), out);
  EXPECT_EQ(out.str(),
            "[\n"
            "  {\"Row#\": 1, \"Time (%)\": 84.9, \"Total Time (ns)\": 393100090, \"Name\": \"hgMemcpyHtoDAsync_v2\"},\n"
            "  {\"Row#\": 2, \"Time (%)\": 0.0, \"Total Time (ns)\": \"-\", \"Name\": \"say \\\"hi\\\", then\"}\n"
            "]\n");
}

TEST(ColumnWriter, AlignsNumbersRight) {
  std::ostringstream out;
  writeColumn(sample(), out);
  EXPECT_EQ(out.str(),
            "Row#  Time (%)  Total Time (ns)  Name\n"
            "----  --------  ---------------  --------------------\n"
            "   1      84.9        393100090  hgMemcpyHtoDAsync_v2\n"
            "   2       0.0                -  say \"hi\", then\n");
}

TEST(Table, TruncateKeepsFirstRows) {
  Table t = sample();
  t.truncate(1);
  EXPECT_EQ(t.rowCount(), 1u);
  std::ostringstream out;
  writeCsv(t, out);
  EXPECT_EQ(out.str(), "Row#,Time (%),Total Time (ns),Name,\n1,84.9,393100090,\"hgMemcpyHtoDAsync_v2\",\n");
}

TEST(OutputFormat, RejectsUnknown) {
  EXPECT_EQ(parseOutputFormat("csv"), OutputFormat::Csv);
  EXPECT_THROW(parseOutputFormat("xml"), Error);
}

TEST(SplitUnescaped, KeepsEscapedSeparators) {
  auto parts = splitUnescaped("ppu_op_sum:range-include=seqlen_q\\:1\\,x:rows=3", ':');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "range-include=seqlen_q\\:1\\,x");
  EXPECT_EQ(unescapeSeparators(parts[1]), "range-include=seqlen_q:1,x");
  EXPECT_EQ(splitUnescaped("a,b", ',').size(), 2u);
}

// The CSV writer prints one-decimal values from their integer tenths; every
// value a rule can produce (k / 10.0) must read exactly as printf's "%.1f".
TEST(CsvWriter, DecimalsMatchPrintf) {
  Table t({{"V", "", CellKind::Decimal1, ""}});
  std::string expected = "Row#,V,\n";
  std::vector<double> values = {0.0, -0.0, 0.1, 0.5, 9.9, 10.0, 99.95 /* not one decimal: printf's own rounding */,
                                -3.7, 123456789.1, 1e15, 3.5e17, -2.5e20};
  for (long long k = -2000; k <= 2000; k += 7) values.push_back(static_cast<double>(k) / 10.0);
  int row = 0;
  for (double v : values) {
    t.setDecimal(0, v);
    t.endRow();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    expected += std::to_string(++row) + "," + buf + ",\n";
  }
  std::ostringstream out;
  writeCsv(t, out);
  EXPECT_EQ(out.str(), expected);
}

namespace {
// A view whose rows repeat texts: "k0", "k1", "k0", ... (row i names k(i % 2))
// and a quote in every third row's second text. `repeat`: what it says of
// its texts (RowSource::textsRepeat), whatever they do.
class RepeatingRows : public RowSource {
 public:
  explicit RepeatingRows(size_t rows, bool repeat = false) : rows_(rows), repeat_(repeat) {}
  size_t rowCount() const override { return rows_; }
  bool textsRepeat() const override { return repeat_; }
  void appendRows(size_t first, size_t count, Table& t) override {
    for (size_t r = first; r < first + count; ++r) {
      t.setInt(0, static_cast<int64_t>(r));
      t.setText(1, r % 2 ? "k1" : "k0");
      t.setText(2, r % 3 == 0 ? "a \"q\"" : "k0");
      t.endRow();
    }
  }

 private:
  size_t rows_;
  bool repeat_;
};
}  // namespace

TEST(CsvWriter, ViewChunksAppendTextsUnsearchedWithTheSameBytes) {
  // writeCsvRows fills its chunks of a view with StringPool::append (no
  // search for equal texts): every cell still reads its own text.
  Table view({{"N", "", CellKind::Int, ""}, {"A", "", CellKind::Text, ""}, {"B", "", CellKind::Text, ""}},
             std::make_shared<RepeatingRows>(4));
  std::ostringstream out;
  writeCsv(view, out);
  EXPECT_EQ(out.str(),
            "Row#,N,A,B,\n"
            "1,0,\"k0\",\"a \"\"q\"\"\",\n"
            "2,1,\"k1\",\"k0\",\n"
            "3,2,\"k0\",\"k0\",\n"
            "4,3,\"k1\",\"a \"\"q\"\"\",\n");
  std::ostringstream part;
  writeCsvRows(view, 2, 2, false, part);
  EXPECT_EQ(part.str(), "3,2,\"k0\",\"k0\",\n4,3,\"k1\",\"a \"\"q\"\"\",\n");
}

TEST(CsvWriter, ChunksOfAViewWhoseTextsRepeatAreInterned) {
  // A writer asks for appended texts; a view whose texts repeat (a trace's
  // names) keeps them interned, each once a chunk: the appended chunk
  // (a summary's) gives each cell an id of its own.
  for (const bool repeat : {true, false}) {
    Table view({{"N", "", CellKind::Int, ""}, {"A", "", CellKind::Text, ""}, {"B", "", CellKind::Text, ""}},
               std::make_shared<RepeatingRows>(6, repeat));
    size_t chunks = 0;
    forEachChunk(view, [&](const Table& chunk, size_t) {
      ++chunks;
      ASSERT_EQ(chunk.rowCount(), 6u);
      EXPECT_EQ(chunk.textAt(0, 1), "k0");
      EXPECT_EQ(chunk.textAt(2, 1), "k0");
      EXPECT_EQ(chunk.textIdAt(0, 1) == chunk.textIdAt(2, 1), repeat) << repeat;
    }, kChunkRows, 0, SIZE_MAX, ChunkTexts::Appended);
    EXPECT_EQ(chunks, 1u);
    std::ostringstream out;
    writeCsv(view, out);
    EXPECT_EQ(out.str().substr(0, out.str().find('\n', out.str().find('\n') + 1)), "Row#,N,A,B,\n1,0,\"k0\",\"a \"\"q\"\"\",");
  }
}

TEST(StringPool, AppendGivesEachTextItsOwnId) {
  StringPool pool;
  const uint32_t a = pool.append("same");
  const uint32_t b = pool.append("same");
  const uint32_t c = pool.append("");
  EXPECT_NE(a, b);
  EXPECT_EQ(pool.get(a), "same");
  EXPECT_EQ(pool.get(b), "same");
  EXPECT_EQ(pool.get(c), "");
  EXPECT_EQ(pool.size(), 3u);
  // Ids go on from the appended ones; a chunk's pool is only read by id.
  Table chunk({{"A", "", CellKind::Text, ""}});
  chunk.appendTexts();
  chunk.setText(0, "x");
  chunk.endRow();
  chunk.setText(0, "x");
  chunk.endRow();
  EXPECT_NE(chunk.textIdAt(0, 0), chunk.textIdAt(1, 0));
  EXPECT_EQ(chunk.textAt(1, 0), "x");
}

TEST(DurationSummaryView, RowsAcrossItsLookUpBlocks) {
  // 5000 groups, group g with total 5000 - g (so row r is group r - 1) and
  // name "n<g>": the view looks a chunk's rows up 4096 at a time; every
  // row, the ones on either side of that boundary too, keeps its own
  // statistics and text.
  const size_t n = 5000;
  std::vector<DurationStats> stats(n);
  for (size_t g = 0; g < n; ++g) {
    const int64_t total = static_cast<int64_t>(n - g);
    stats[g] = {total, 1, total, total, total, total, 0};
  }
  std::vector<std::string> names(n);
  for (size_t g = 0; g < n; ++g) names[g] = "n" + std::to_string(g);
  std::vector<ColumnSpec> columns{{"Time", "%", CellKind::Decimal1, ""}, {"Total Time", "ns", CellKind::Int, ""},
                                  {"Instances", "", CellKind::Int, ""},  {"Avg", "ns", CellKind::Int, ""},
                                  {"Med", "ns", CellKind::Int, ""},      {"Min", "ns", CellKind::Int, ""},
                                  {"Max", "ns", CellKind::Int, ""},      {"StdDev", "ns", CellKind::Int, ""},
                                  {"Name", "", CellKind::Text, ""}};
  Table view = durationSummaryView(columns, stats, 1, [&names](size_t, uint32_t g) { return std::string_view(names[g]); });
  std::ostringstream out;
  writeCsv(view, out);
  std::istringstream lines(out.str());
  std::string line;
  std::getline(lines, line);  // the header
  size_t row = 0;
  while (std::getline(lines, line)) {
    ++row;
    const size_t g = row - 1;
    const std::string total = std::to_string(n - g);
    // Row#, Time (%) (not checked), then the statistics and the name.
    const std::string tail = "," + total + ",1," + total + "," + total + "," + total + "," + total + ",0,\"n" +
                             std::to_string(g) + "\",";
    ASSERT_GE(line.size(), tail.size()) << line;
    EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(row));
    EXPECT_EQ(line.substr(line.size() - tail.size()), tail) << "row " << row;
  }
  EXPECT_EQ(row, n);
}
