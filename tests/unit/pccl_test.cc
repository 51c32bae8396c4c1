// The PCCL analysis pieces: the kernel classifier, the operator annotation
// parser and its traffic, the communication groups (against a brute force
// over all pairs) and the rate statistics (nearest-rank P90, exact medians,
// halves rounded away from zero), with values worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "core/analysis/pccl_desync.h"
#include "core/analysis/pccl_kernels.h"
#include "core/analysis/pccl_operators.h"

namespace asys {
namespace {

TEST(PcclKernels, ClassifiedByTheShortNameElseTheDemangledName) {
  EXPECT_TRUE(isPcclKernelName("pcclKernel_AllReduce_RING_LL_Sum_float"));
  EXPECT_TRUE(isPcclKernelName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"));
  EXPECT_TRUE(isPcclKernelName("ncclDevKernel_Generic"));  // what HTA's matcher misses
  EXPECT_TRUE(isPcclKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_FALSE(isPcclKernelName("pccl_helper_copy"));
  EXPECT_FALSE(isPcclKernelName("void at::native::ncclKernel_x()"));  // a namespace: not a PCCL kernel
  EXPECT_FALSE(isPcclKernelName("PcclKernel_AllReduce"));              // case matters
  EXPECT_FALSE(isPcclKernelName("multimem_all_reduce_kernel"));
  // The name read: the short name, else the demangled one without "void ".
  EXPECT_EQ(pcclClassifiedName("pcclKernel_twoShotAllReduceKernel",
                               "void pcclKernel_twoShotAllReduceKernel<__ppu_bfloat16, 4>(twoShotDevParams)"),
            "pcclKernel_twoShotAllReduceKernel");
  EXPECT_EQ(pcclClassifiedName("", "void pcclKernel_twoShotAllReduceKernel<int>(p)"),
            "pcclKernel_twoShotAllReduceKernel<int>(p)");
  EXPECT_EQ(pcclClassifiedName("", "ncclKernel_Broadcast(x)"), "ncclKernel_Broadcast(x)");
}

TEST(PcclKernels, WarningCountsWhatWasLeftOut) {
  EXPECT_EQ(unclassifiedPcclWarning(0), "");
  EXPECT_EQ(unclassifiedPcclWarning(1),
            "1 kernel whose name contains 'pccl' or 'nccl' is not a PCCL kernel (its short name, else demangled "
            "name, does not start with pcclKernel, ncclKernel or ncclDevKernel) and was left out");
}

TEST(PcclOperators, ParsesTheFormatSpecAnnotation) {
  auto op = parsePcclOperator("AllReduce, p:0, c:442368, d:9, r:0, w:4, h:c70515c91cef61c7, t:1, b:0x119e800000/0x119e8d8000");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->type, "AllReduce");
  EXPECT_EQ(op->count, "442368");
  EXPECT_EQ(op->elements, 442368);
  EXPECT_EQ(op->dtype, 9);
  EXPECT_EQ(op->world, 4);
  EXPECT_EQ(op->hash, "c70515c91cef61c7");
  EXPECT_EQ(op->kind, PcclOpKind::Collective);
  // The Kineto importer's, with unknown fields.
  op = parsePcclOperator("Generic, p:0, c:-, d:-, r:-, w:8, h:1d6c8d1429e6580f, t:1, b:-");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->elements, -1);
  EXPECT_EQ(op->dtype, -1);
  EXPECT_EQ(op->count, "-");
  EXPECT_EQ(parsePcclOperator("Send, p:1, c:256, d:4, r:0, w:4, h:aa, t:1, b:0x20000")->kind, PcclOpKind::PointToPoint);
  EXPECT_EQ(parsePcclOperator("SendRecv, c:1, d:0, w:2, h:aa")->kind, PcclOpKind::PointToPoint);
  // Not operators.
  EXPECT_FALSE(parsePcclOperator("pcclAllReduce"));
  EXPECT_FALSE(parsePcclOperator("nccl:all_reduce"));
  EXPECT_FALSE(parsePcclOperator("AllReduce, p:0, c:442368, d:9, r:0, w:4"));  // no h
  EXPECT_FALSE(parsePcclOperator("aten::mm, op_id = 1529997, sizes = [[4, 1024]]"));
  EXPECT_FALSE(parsePcclOperator("All Reduce, c:1, d:0, w:2, h:aa"));
  EXPECT_FALSE(parsePcclOperator("AllReduce, c:1, d:0, w:2, h:aa, junk"));
}

TEST(PcclOperators, PerRankTrafficAsTheExampleComputesIt) {
  auto transfer = [](const char* text) { return pcclTransfer(*parsePcclOperator(text)); };
  // output-conventions.md: c:83886080, d:9 (bf16), w:4: 2 x 3/4 x c x 2 per rank.
  const PcclTransfer ar = transfer("AllReduce, p:0, c:83886080, d:9, r:1, w:4, h:9da3d23b9ccef54c, t:1, b:-");
  EXPECT_EQ(ar.bytes(1), 251658240);
  EXPECT_EQ(ar.bytes(4) * 461, 464057794560);
  EXPECT_EQ(transfer("AllGather, c:500, d:2, w:4, h:a").bytes(4), 6000);       // (w-1)/w x 500 x 4, 4 ranks
  EXPECT_EQ(transfer("ReduceScatter, c:10, d:7, w:3, h:a").bytes(3), 80);     // 3 x 10 x 4 x 2/3
  EXPECT_EQ(transfer("ReduceScatter, c:10, d:7, w:3, h:a").bytes(1), 26);     // 80/3 truncated
  EXPECT_EQ(transfer("AllToAll, c:8, d:4, w:8, h:a").bytes(2), 112);
  EXPECT_EQ(transfer("Broadcast, c:300, d:0, w:-, h:a").bytes(1), 300);       // factor 1 needs no w
  EXPECT_EQ(transfer("Reduce, c:3, d:8, w:2, h:a").bytes(2), 48);
  EXPECT_EQ(transfer("Send, c:256, d:4, w:4, h:a").bytes(1), 2048);
  EXPECT_EQ(transfer("AllReduce, c:1000, d:7, w:1, h:a").bytes(1), 0);        // alone: nothing moves
  // Unknown: the type, the count, the data type, a world size the factor needs.
  EXPECT_EQ(transfer("Generic, c:10, d:7, w:2, h:a").bytes(2), -1);
  EXPECT_EQ(transfer("AllReduce, c:-, d:7, w:2, h:a").bytes(2), -1);
  EXPECT_EQ(transfer("AllReduce, c:10, d:12, w:2, h:a").bytes(2), -1);
  EXPECT_EQ(transfer("AllReduce, c:10, d:7, w:-, h:a").bytes(2), -1);
  EXPECT_EQ(transfer("AllReduce, c:10, d:7, w:0, h:a").bytes(2), -1);
  // NCCL's data type sizes.
  const int sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  for (int d = 0; d < 12; ++d) EXPECT_EQ(pcclDataTypeSize(d), sizes[d]) << d;
  EXPECT_EQ(pcclDataTypeSize(12), 0);
  EXPECT_EQ(pcclDataTypeSize(-1), 0);
}

TEST(PcclDesync, GroupsOfTheDocumentationExample) {
  // One late rank (a kernel of 15400 ns starting 682627 ns in) and a chain.
  const std::vector<int64_t> start = {0, 100000, 682627, 1000000, 1000090, 1000190, 2000000, 2000100};
  const std::vector<int64_t> end = {697883, 699213, 698027, 1000100, 1000200, 1000300, 2000100, 2000200};
  const auto g = desyncGroups(start, end);
  ASSERT_EQ(g.size(), 4u);  // the two last only touch
  EXPECT_EQ(g[0].duration(), 699213);
  EXPECT_EQ(g[0].overlap, 15256);
  EXPECT_EQ(desyncPercent(g[0]), 97.8);
  EXPECT_EQ(g[0].last, 2u);
  EXPECT_EQ(g[0].first, 0u);
  EXPECT_EQ(g[0].count, 3u);
  EXPECT_EQ(g[0].minDuration, 15400);
  EXPECT_EQ(g[0].maxDuration, 697883);
  EXPECT_EQ(g[1].overlap, 0);  // min end 1000100 < max start 1000190
  EXPECT_EQ(desyncPercent(g[1]), 100.0);
  EXPECT_EQ(g[2].count, 1u);  // lone: rate 0
  EXPECT_EQ(g[2].overlap, 100);
  EXPECT_EQ(desyncPercent(g[2]), 0.0);
  // A zero-length kernel is a group of its own with rate 0.
  const std::vector<int64_t> s2 = {5, 5}, e2 = {5, 9};
  const auto z = desyncGroups(s2, e2);
  ASSERT_EQ(z.size(), 2u);
  EXPECT_EQ(z[0].duration(), 0);
  EXPECT_EQ(desyncPercent(z[0]), 0.0);
}

TEST(PcclDesync, LastIsTheLatestStartThenTheLaterEndThenTheHigherIndex) {
  const std::vector<int64_t> start = {0, 10, 10, 10}, end = {50, 40, 45, 45};
  const auto g = desyncGroups(start, end);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].last, 3u);
  EXPECT_EQ(g[0].overlap, 30);  // min end 40 - max start 10
}

TEST(PcclDesync, RandomGroupsAgainstAllPairs) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 200; ++round) {
    const int n = 1 + static_cast<int>(rng() % 25);
    std::vector<int64_t> start(n), end(n);
    for (int i = 0; i < n; ++i) {
      start[i] = static_cast<int64_t>(rng() % 300);
      end[i] = start[i] + static_cast<int64_t>(rng() % 40);
    }
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return start[a] < start[b]; });
    std::vector<int64_t> s(n), e(n);
    for (int i = 0; i < n; ++i) s[i] = start[order[i]], e[i] = end[order[i]];
    // Union-find over every pair that shares a nanosecond.
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    std::function<int(int)> root = [&](int x) { return parent[x] == x ? x : parent[x] = root(parent[x]); };
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        if (std::max(s[a], s[b]) < std::min(e[a], e[b])) parent[root(a)] = root(b);
    const auto groups = desyncGroups(s, e);
    int64_t members = 0;
    for (const DesyncGroup& g : groups) {
      members += g.count;
      int64_t lo = INT64_MAX, hi = INT64_MIN, minEnd = INT64_MAX, maxStart = INT64_MIN, total = 0;
      uint32_t count = 0;
      for (int i = 0; i < n; ++i) {
        if (root(i) != root(static_cast<int>(g.first))) continue;
        ++count;
        lo = std::min(lo, s[i]);
        hi = std::max(hi, e[i]);
        minEnd = std::min(minEnd, e[i]);
        maxStart = std::max(maxStart, s[i]);
        total += e[i] - s[i];
      }
      ASSERT_EQ(g.count, count) << "round " << round;
      ASSERT_EQ(g.start, lo);
      ASSERT_EQ(g.end, hi);
      ASSERT_EQ(g.overlap, std::max<int64_t>(0, minEnd - maxStart));
      ASSERT_EQ(g.totalDuration, total);
      ASSERT_EQ(s[g.last], maxStart);
    }
    ASSERT_EQ(members, n);
  }
}

// Groups with given rates num/den (as Duration = den, Overlap = den - num).
std::vector<DesyncGroup> withRates(const std::vector<std::pair<int64_t, int64_t>>& rates) {
  std::vector<DesyncGroup> g(rates.size());
  for (size_t i = 0; i < rates.size(); ++i) {
    g[i].start = 0;
    g[i].end = rates[i].second;
    g[i].overlap = rates[i].second - rates[i].first;
  }
  return g;
}

DesyncRateStats statsOf(std::vector<DesyncGroup>& g) {
  std::vector<const DesyncGroup*> p;
  for (const DesyncGroup& x : g) p.push_back(&x);
  return desyncRateStats(p);
}

TEST(PcclDesync, P90IsTheNearestRank) {
  // Rates 1/100 .. n/100 in shuffled order: P90 is the ceil(0.9 n)-th.
  for (int n : {1, 2, 9, 10, 11, 19, 20, 21}) {
    std::vector<std::pair<int64_t, int64_t>> r;
    for (int i = n; i >= 1; --i) r.push_back({i, 100});
    auto g = withRates(r);
    const int rank = (9 * n + 9) / 10;
    EXPECT_EQ(statsOf(g).p90, rank) << n;  // k/100 -> k %
  }
}

TEST(PcclDesync, RateStatisticsRoundHalvesAwayFromZero) {
  // 0.245 and 0: the mean 0.1225 is 12.25 %, a half: 12.3 (as the median, exact).
  auto g = withRates({{196, 800}, {0, 1}});
  DesyncRateStats s = statsOf(g);
  EXPECT_EQ(s.avg, 12.3);
  EXPECT_EQ(s.med, 12.3);
  EXPECT_EQ(s.stddev, 12.3);
  EXPECT_EQ(s.min, 0.0);
  EXPECT_EQ(s.max, 24.5);
  EXPECT_EQ(s.p90, 24.5);
  // 1/3, 2/3, 1: mean 2/3 = 66.7; median 66.7; sd sqrt(2/27) = 0.2722 -> 27.2.
  g = withRates({{1, 3}, {2, 3}, {3, 3}});
  s = statsOf(g);
  EXPECT_EQ(s.avg, 66.7);
  EXPECT_EQ(s.med, 66.7);
  EXPECT_EQ(s.stddev, 27.2);
  // An even count's median is the exact mean of the middle two: 0.1 and 0.275
  // (neither exact in binary) -> 0.1875 = 18.75 % -> 18.8.
  g = withRates({{1, 10}, {11, 40}, {9, 10}, {0, 1}});
  s = statsOf(g);
  EXPECT_EQ(s.med, 18.8);
  EXPECT_EQ(s.avg, 31.9);  // (0.1 + 0.275 + 0.9 + 0) / 4 = 0.31875 -> 31.875 -> 31.9
}

// Exact references with small denominators: every rate is a / L over L =
// lcm(1..20), so sums are integers.
TEST(PcclDesync, RandomRateStatisticsAgainstExactArithmetic) {
  using i128 = __int128;
  const int64_t L = 232792560;  // lcm(1, ..., 20)
  // round half away from zero of p / q (p, q > 0), in tenths of a percent.
  auto tenths = [](i128 p, i128 q) { return static_cast<double>((2 * p * 1000 + q) / (2 * q)) / 10.0; };
  std::mt19937_64 rng(7);
  for (int round = 0; round < 500; ++round) {
    const int n = 1 + static_cast<int>(rng() % 12);
    std::vector<std::pair<int64_t, int64_t>> r;
    std::vector<int64_t> a;  // rate x L
    for (int i = 0; i < n; ++i) {
      const int64_t den = 1 + static_cast<int64_t>(rng() % 20), num = static_cast<int64_t>(rng() % (den + 1));
      r.push_back({num, den});
      a.push_back(num * (L / den));
    }
    auto g = withRates(r);
    const DesyncRateStats s = statsOf(g);
    std::vector<int64_t> sorted = a;
    std::sort(sorted.begin(), sorted.end());
    i128 sum = 0, squares = 0;
    for (int64_t x : a) sum += x, squares += static_cast<i128>(x) * x;
    ASSERT_EQ(s.avg, tenths(sum, static_cast<i128>(n) * L)) << "round " << round;
    ASSERT_EQ(s.min, tenths(sorted.front(), L));
    ASSERT_EQ(s.max, tenths(sorted.back(), L));
    ASSERT_EQ(s.p90, tenths(sorted[(9 * n + 9) / 10 - 1], L));
    const i128 mid = n % 2 ? 2 * static_cast<i128>(sorted[n / 2]) : static_cast<i128>(sorted[n / 2 - 1]) + sorted[n / 2];
    ASSERT_EQ(s.med, tenths(mid, 2 * static_cast<i128>(L)));
    // StdDev: q tenths with (q - 1/2)^2 <= 10^6 V < (q + 1/2)^2, V = (n S2 - S^2) / (n L)^2.
    const i128 v = static_cast<i128>(n) * squares - sum * sum, nl = static_cast<i128>(n) * L;
    const i128 q = static_cast<i128>(std::llround(s.stddev * 10));
    if (q > 0) ASSERT_LE((2 * q - 1) * (2 * q - 1) * nl * nl, 4000000 * v) << "round " << round;
    ASSERT_LT(4000000 * v, (2 * q + 1) * (2 * q + 1) * nl * nl) << "round " << round;
  }
}

}  // namespace
}  // namespace asys
