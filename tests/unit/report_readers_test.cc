// The readers derived from the table descriptors (core/report/asysrep_tables.h)
// on a hand-built report: where a reader differs from its table (a field
// named otherwise, an Int32 column read as int64 so that NULL is kNoValue,
// HGTX names from `text` or `textId`, a memset in the memcpy shape, rates
// that say nothing read as 0), each difference is what the reader's consumers
// rely on. The expected values are the rows written below.
#include <gtest/gtest.h>

#include <string>

#include "core/report/report.h"
#include "core/writer/report_writer.h"
#include "tests/unit/temp_report.h"

namespace asys {
namespace {

constexpr int64_t kGpid = int64_t{100} << 24, kTid = kGpid | 7;

std::string fixture() {
  static const std::string path = test::writeTempReport("readers", [](ReportWriter& w) {
    w.process(kGpid, 100, "train.py");
    // Two names of one thread: NULL priority loses to -5 (NULL is the
    // lowest priority, not -1).
    w.threadName(kTid, w.intern("unnamed"), kNull32);
    w.threadName(kTid, w.intern("worker"), -5);
    DeviceInfoRow d;
    d.id = 0;
    d.name = "PPU 0";
    d.computeMajor = kNull;
    d.peakFlopsFp32 = 2e12;
    d.peakFlopsFp16 = -5;  // not positive: says nothing
    w.device(d);
    // HGTX: one name by id, one inline, the same text.
    const uint32_t forward = w.intern("forward");
    w.hgtx({.start = 10, .end = 20, .eventType = kHgtxPushPop, .globalTid = kTid, .textId = forward});
    w.hgtx({.start = 30, .end = 40, .eventType = kHgtxPushPop, .text = "forward", .globalTid = kTid});
    // A memcpy without a copy kind, a memset of memory kind 2.
    w.memcpy({.start = 100, .end = 110, .deviceId = 0, .contextId = 1, .streamId = 7, .correlationId = 5,
              .globalPid = kGpid, .bytes = 64, .copyKind = kNull32, .srcKind = 0, .dstKind = 2});
    w.memset({.start = 200, .end = 210, .deviceId = 0, .contextId = 1, .streamId = 7, .correlationId = 6,
              .globalPid = kGpid, .value = 0, .bytes = 32, .memKind = 2});
    // Memory events: NULL context and access flags, then set ones.
    w.memoryEvent({.start = 300, .globalPid = kGpid, .globalTid = kTid, .deviceId = 0, .contextId = kNull32,
                   .eventId = 1, .address = 4096, .bytes = 256, .memKind = 2,
                   .memoryOperationType = kMemoryAllocation, .accessFlags = kNull32, .correlationId = 5,
                   .callchainId = 9});
    w.memoryEvent({.start = 400, .globalPid = kGpid, .globalTid = kTid, .deviceId = 0, .contextId = 1,
                   .eventId = 2, .address = 4096, .bytes = 256, .memKind = 2,
                   .memoryOperationType = kMemoryRelease, .accessFlags = 1, .correlationId = 6,
                   .callchainId = 9});
    w.callchainFrame(9, 0, w.intern("hggcMalloc"), w.intern("libhggc.so"), 0);
    w.callchainFrame(9, 4, w.intern("main"), kNoStringId, 0);
    // PCCL stages: a NULL channel, then channel 3.
    const uint32_t allReduce = w.intern("AllReduce");
    w.pcclStage(500, 510, kTid, 0, kNull32, "TX", allReduce);
    w.pcclStage(520, 530, kTid, 0, 3, "RX", allReduce);
  });
  return path;
}

TEST(ReportReaders, HgtxNamesFromTextIdOrTextAreOneName) {
  auto r = Report::open(fixture());
  const HgtxEvents& h = r->hgtx();
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h.nameId[0], h.nameId[1]);
  EXPECT_EQ(r->strings().get(h.nameId[0]), "forward");
  EXPECT_EQ(h.eventType[1], kHgtxPushPop);
  EXPECT_EQ(h.rangeId[0], kNoValue);
}

TEST(ReportReaders, AMemsetHasTheMemcpyShape) {
  auto r = Report::open(fixture());
  const MemoryOps& copies = r->memcpys();
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies.copyKind[0], kNoValue);  // int64: NULL is kNoValue, not -1
  EXPECT_EQ(copies.dstKind[0], 2);
  EXPECT_EQ(copies.bytes[0], 64);
  const MemoryOps& sets = r->memsets();
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets.srcKind[0], 2);  // its memKind
  EXPECT_EQ(sets.copyKind[0], kNoValue);
  EXPECT_EQ(sets.dstKind[0], kNoValue);
  EXPECT_EQ(sets.correlationId[0], 6);
  EXPECT_EQ(sets.streamId[0], 7);
}

TEST(ReportReaders, MemoryEventsLoadByColumnBits) {
  auto r = Report::open(fixture());
  const MemoryUsageEvents& only = r->memoryUsage(mcol::operation);
  ASSERT_EQ(only.size(), 2u);
  EXPECT_EQ(only.operation[0], kMemoryAllocation);  // memoryOperationType
  EXPECT_EQ(only.operation[1], kMemoryRelease);
  EXPECT_TRUE(only.start.empty());
  const MemoryUsageEvents& m = r->memoryUsage(mcol::all);
  EXPECT_EQ(m.start[1], 400);
  EXPECT_EQ(m.contextId[0], kNoValue);
  EXPECT_EQ(m.contextId[1], 1);
  EXPECT_EQ(m.accessFlags[0], kNoValue);
  EXPECT_EQ(m.accessFlags[1], 1);
  EXPECT_EQ(m.callchainId[1], 9);
  EXPECT_EQ(mcol::count, 11u);  // 13 columns, memKind and correlationId unread
}

TEST(ReportReaders, CallchainDepthIsStackDepth) {
  auto r = Report::open(fixture());
  const CallchainFrames& f = r->callchains();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f.depth[1], 4);
  EXPECT_EQ(r->strings().get(f.symbol[1]), "main");
  EXPECT_EQ(f.module[1], kNoString);
}

TEST(ReportReaders, PcclChannelNullIsNoValue) {
  auto r = Report::open(fixture());
  const PcclStages& p = r->pcclStages();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.channelId[0], kNoValue);
  EXPECT_EQ(p.channelId[1], 3);
  EXPECT_EQ(r->strings().get(p.channelTypeId[1]), "RX");
  EXPECT_EQ(r->strings().get(p.nameId[0]), "AllReduce");
}

TEST(ReportReaders, DevicesProcessesAndThreadNames) {
  auto r = Report::open(fixture());
  ASSERT_EQ(r->devices().size(), 1u);
  const Device& d = r->devices()[0];
  EXPECT_EQ(d.name, "PPU 0");
  EXPECT_EQ(d.computeMajor, kNoValue);
  EXPECT_EQ(d.peakFlopsFp32, 2e12);
  EXPECT_EQ(d.peakFlopsFp16, 0.0);
  EXPECT_EQ(d.hbmBandwidth, 0.0);  // written as 0
  ASSERT_EQ(r->processes().size(), 1u);
  EXPECT_EQ(r->processes()[0].pid, 100);
  EXPECT_EQ(r->processes()[0].name, "train.py");
  EXPECT_EQ(r->strings().get(r->threadNames().at(kTid)), "worker");
}

}  // namespace
}  // namespace asys
