// The XLSX writer's limits (the cells themselves are read back with an
// independent reader in tests/wasm/xlsx.test.mjs).
#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/table/xlsx_writer.h"

using namespace asys;

TEST(XlsxWriter, RefusesMoreRowsThanASheetHolds) {
  // A sheet has 1 048 576 rows (Excel's limit); the header takes one.
  Table t({{"Total Time", "ns", CellKind::Int, ""}});
  for (int64_t i = 0; i < 1048576; ++i) {
    t.setInt(0, i);
    t.endRow();
  }
  try {
    xlsxBytes(t, "hggc_ppu_trace");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "xlsx: 1048576 rows do not fit a sheet (at most 1048575 besides the header): use --format csv");
  }
}

// libxlsxwriter refuses a sheet name past Excel's 31 characters; the writer
// cuts a long rule name (ppu_operator_kernel_breakdown_compare) instead.
TEST(XlsxWriter, CutsALongRuleNameToASheetName) {
  Table t({{"Name", "", CellKind::Text, ""}});
  t.setText(0, "=1+1");
  t.endRow();
  const std::string bytes = xlsxBytes(t, "a_rule_name_longer_than_thirty_one_characters");
  ASSERT_GT(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 4), std::string("PK\x03\x04", 4));  // a zip's local file header
}
