// asys::generateReport / generateRankReports: validate the options, write
// each report next to its destination and move it into place only once it
// is complete.
#include "core/gen/generator.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/gen/catalog.h"
#include "core/base/fp_contract.h"
#include "core/writer/report_writer.h"
#include "core/gen/workload.h"

namespace asys {
namespace {

constexpr int64_t kIterationsPerScale = 4;
constexpr double kMaxScale = 100000.0;
// Every rank's report is open at once: one file descriptor each.
constexpr int kMaxRanks = 512;

std::string formatScale(double scale) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", scale);
  return buf;
}

// The options as the workload takes them, after the checks both entry
// points make.
gen::WorkloadOptions workloadOptions(const GenOptions& options) {
  if (options.profile != "base" && options.profile != "slow") {
    throw Error("unknown generator profile '" + options.profile + "' (expected base or slow)");
  }
  if (!std::isfinite(options.scale) || options.scale <= 0.0 || options.scale > kMaxScale) {
    throw Error("invalid generator scale " + formatScale(options.scale) +
                " (expected a number above 0 and at most 100000)");
  }
  gen::WorkloadOptions wo;
  wo.seed = options.seed;
  wo.slow = options.profile == "slow";
  wo.iterations = static_cast<int64_t>(std::llround(options.scale * kIterationsPerScale));
  if (wo.iterations < 1) wo.iterations = 1;
  return wo;
}

// R for a file named rank-R.asysrep (R in decimal, no leading zeros), else -1.
int rankOfFileName(const std::string& name) {
  const std::string head = "rank-", tail = ".asysrep";
  if (name.size() <= head.size() + tail.size() || name.compare(0, head.size(), head) != 0 ||
      name.compare(name.size() - tail.size(), tail.size(), tail) != 0) {
    return -1;
  }
  const std::string digits = name.substr(head.size(), name.size() - head.size() - tail.size());
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  if (digits.size() > 1 && digits[0] == '0') return -1;
  return std::stoi(digits);
}

std::string generatorText(const GenOptions& options) {
  return "asys gen (seed=" + std::to_string(options.seed) + ", scale=" + formatScale(options.scale) +
         ", profile=" + options.profile;
}

void writeMeta(ReportWriter& w, const std::string& hostName, int64_t captureEnd, const std::string& generator) {
  w.metaData("format", "asysrep");
  w.metaData("formatVersion", "1");
  w.metaData("hostName", hostName);
  w.metaData("captureStart", "0");
  w.metaData("captureEnd", std::to_string(captureEnd));
  w.metaData("generator", generator);
}

}  // namespace

void generateReport(const GenOptions& options, const std::string& outPath) {
  const gen::WorkloadOptions wo = workloadOptions(options);
  if (outPath.empty()) throw Error("no output file given for the generated report");
  writeReportFile(outPath, [&](ReportWriter& w) {
    const gen::WorkloadResult r = gen::runWorkload(w, wo);
    writeMeta(w, gen::kHostName, r.captureEnd, generatorText(options) + ")");
  });
}

std::string rankReportPath(const std::string& dir, int rank) {
  return (std::filesystem::path(dir) / ("rank-" + std::to_string(rank) + ".asysrep")).string();
}

void generateRankReports(const GenOptions& options, int ranks, const std::string& dir) {
  const gen::WorkloadOptions wo = workloadOptions(options);
  if (ranks < 1 || ranks > kMaxRanks) {
    throw Error("invalid rank count " + std::to_string(ranks) + " (expected 1 to " + std::to_string(kMaxRanks) + ")");
  }
  if (dir.empty()) throw Error("no output directory given for the rank reports");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create directory '" + dir + "': " + ec.message());
  // A rank file of a larger job left in DIR would be merged with these by
  // `asys merge DIR/rank-*.asysrep`: refuse rather than mix two jobs.
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const int rank = rankOfFileName(entry.path().filename().string());
    if (rank >= ranks) {
      throw Error(entry.path().string() + " is a rank of a larger job (--ranks " + std::to_string(ranks) +
                  " writes rank-0 to rank-" + std::to_string(ranks - 1) + "): remove it or choose another --out-dir");
    }
  }

  // Every rank is simulated at once (the collectives need all of them), so
  // all N files are open together; each is written as OUT.partial and
  // renamed once all are complete.
  std::vector<std::string> finals, partials;
  for (int r = 0; r < ranks; ++r) {
    finals.push_back(rankReportPath(dir, r));
    partials.push_back(finals.back() + ".partial");
  }
  auto removePartials = [&] {
    for (const std::string& p : partials) std::remove(p.c_str());
  };
  try {
    std::vector<std::unique_ptr<ReportWriter>> writers;
    std::vector<ReportWriter*> out;
    for (int r = 0; r < ranks; ++r) {
      std::remove(partials[r].c_str());
      writers.push_back(std::make_unique<ReportWriter>(partials[r], finals[r]));
      // N connections at once: a small page cache each (rows are appended,
      // so a table's last pages are all a writer touches).
      writers.back()->execSql("PRAGMA cache_size=-2048");
      out.push_back(writers.back().get());
    }
    const std::vector<int64_t> ends = gen::runRankWorkload(out, wo);
    for (int r = 0; r < ranks; ++r) {
      writeMeta(*writers[r], gen::rankHostName(r), ends[r],
                generatorText(options) + ", rank " + std::to_string(r) + " of " + std::to_string(ranks) + ")");
      writers[r]->finish();
    }
  } catch (...) {
    removePartials();
    throw;
  }
  for (int r = 0; r < ranks; ++r) {
    if (std::rename(partials[r].c_str(), finals[r].c_str()) != 0) {
      const std::string reason = std::strerror(errno);
      removePartials();
      throw Error("cannot write report '" + finals[r] + "': " + reason);
    }
  }
}

}  // namespace asys
