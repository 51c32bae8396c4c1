// Report::readMemoryOps: HGGC_MEMCPY and HGGC_MEMSET with a few columns
// kept (the activity list's), read a chunk at a time, checked and noted as
// memcpys() and memsets() load them, and not held by the report. The
// expected values are the rows written below.
#include <gtest/gtest.h>

#include <string>

#include "core/report/report.h"
#include "core/writer/report_writer.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

constexpr int64_t kGpid = int64_t{100} << 24;
// More rows than a chunk of readMemoryOps (16,384), so that the kept
// columns are appended from several chunks.
constexpr int64_t kCopies = 40000;

int64_t startOf(int64_t i) { return 1000 + 10 * i; }
int64_t graphNodeOf(int64_t i) { return i % 1000 == 7 ? 500 + i : kNull; }

std::string fixture() {
  static const std::string path = test::writeTempReport("memops", [](ReportWriter& w) {
    w.process(kGpid, 100, "train.py");
    for (int64_t i = 0; i < kCopies; ++i)
      w.memcpy({.start = startOf(i), .end = startOf(i) + 4, .deviceId = static_cast<int32_t>(i % 3),
                .contextId = 1, .streamId = 7, .correlationId = 2 * i + 1, .globalPid = kGpid, .bytes = 64,
                .copyKind = 1, .srcKind = 0, .dstKind = 2, .graphNodeId = graphNodeOf(i)});
    // A memset on no device: a NULL deviceId, which a load notes.
    w.memset({.start = 50, .end = 60, .deviceId = kNull32, .contextId = 1, .streamId = 7, .correlationId = 9,
              .globalPid = kGpid, .value = 0, .bytes = 32, .memKind = 2});
    w.memset({.start = 70, .end = 75, .deviceId = 1, .contextId = 1, .streamId = 7, .correlationId = 11,
              .globalPid = kGpid, .value = 0, .bytes = 16, .memKind = 2});
  });
  return path;
}

constexpr uint32_t kKept = ocol::start | ocol::end | ocol::deviceId | ocol::correlationId | ocol::graphNodeId;

TEST(MemoryOpsColumns, KeptColumnsHoldEveryRowTheOthersNone) {
  auto r = Report::open(fixture());
  const MemoryOps c = r->readMemoryOps(false, kKept);
  ASSERT_EQ(c.size(), static_cast<size_t>(kCopies));
  ASSERT_EQ(c.end.size(), c.size());
  ASSERT_EQ(c.graphNodeId.size(), c.size());
  for (int64_t i = 0; i < kCopies; ++i) {
    const auto k = static_cast<size_t>(i);
    ASSERT_EQ(c.start[k], startOf(i)) << i;
    ASSERT_EQ(c.end[k], startOf(i) + 4) << i;
    ASSERT_EQ(c.deviceId[k], i % 3) << i;
    ASSERT_EQ(c.correlationId[k], 2 * i + 1) << i;
    ASSERT_EQ(c.graphNodeId[k], graphNodeOf(i) == kNull ? kNoValue : graphNodeOf(i)) << i;
  }
  EXPECT_TRUE(c.globalPid.empty());
  EXPECT_TRUE(c.bytes.empty());
  EXPECT_TRUE(c.copyKind.empty());
  EXPECT_TRUE(c.contextId.empty());
  EXPECT_FALSE(r->memoryOpsLoaded());  // not held by the report
}

TEST(MemoryOpsColumns, AMemsetKeepsItsShape) {
  auto r = Report::open(fixture());
  const MemoryOps s = r->readMemoryOps(true, ocol::start | ocol::deviceId | ocol::srcKind | ocol::copyKind);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s.start[1], 70);
  EXPECT_EQ(s.deviceId[0], -1);  // NULL, as memsets() reads it
  EXPECT_EQ(s.deviceId[1], 1);
  EXPECT_EQ(s.srcKind[0], 2);  // its memKind
  ASSERT_EQ(s.copyKind.size(), 2u);
  EXPECT_EQ(s.copyKind[1], kNoValue);
  EXPECT_TRUE(s.dstKind.empty());  // not asked for
  EXPECT_TRUE(s.end.empty());
}

TEST(MemoryOpsColumns, NotesAreTheWholeLoadsEvenForColumnsNotKept) {
  auto lean = Report::open(fixture());
  lean->readMemoryOps(true, ocol::start);  // deviceId read and checked, not kept
  const std::vector<std::string> notes = lean->notesOn({"HGGC_MEMSET"});
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1 row"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("deviceId"), std::string::npos) << notes[0];
  auto whole = Report::open(fixture());
  whole->memsets();
  EXPECT_EQ(whole->notesOn({"HGGC_MEMSET"}), notes);
}

}  // namespace
}  // namespace asys
