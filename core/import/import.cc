// importReports / openAnyReport: dispatch by the sniffed format of the
// inputs, write the asysrep next to its destination and move it into place
// only once it is complete.
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/writer/report_writer.h"

namespace asys {

namespace {

const char* describe(InputFormat f) {
  switch (f) {
    case InputFormat::Asysrep: return "an asysrep report";
    case InputFormat::NsysSqlite: return "an Nsight Systems SQLite export";
    case InputFormat::NsysRep: return "an Nsight Systems .nsys-rep report";
    case InputFormat::KinetoJson: return "a PyTorch/Kineto trace";
    case InputFormat::Unknown: break;
  }
  return "not a report asys can read";
}

uint32_t bigEndian(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// The file must exist and be readable; an SQLite file must be complete (its
// header's page count times page size must fit in the file).
void checkInput(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  unsigned char header[100] = {};
  in.read(reinterpret_cast<char*>(header), sizeof header);
  const std::streamsize got = in.gcount();
  if (got < 16 || std::memcmp(header, "SQLite format 3\0", 16) != 0) return;
  if (got < 100) throw Error(path + ": truncated SQLite file (" + std::to_string(got) + " bytes)");
  uint32_t pageSize = bigEndian(header + 16, 2);
  if (pageSize == 1) pageSize = 65536;
  const bool pageCountValid = bigEndian(header + 24, 4) == bigEndian(header + 92, 4);
  const uint64_t pageCount = bigEndian(header + 28, 4);
  in.seekg(0, std::ios::end);
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  if (pageCountValid && pageCount > 0 && size < pageCount * pageSize) {
    throw Error(path + ": truncated SQLite file (" + std::to_string(size) + " of " +
                std::to_string(pageCount * pageSize) + " bytes)");
  }
}

// Sniffs every input and rejects what cannot be imported, one line each.
InputFormat formatOfInputs(const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw Error("no input given");
  InputFormat first = InputFormat::Unknown;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& path = inputs[i];
    checkInput(path);
    const InputFormat f = sniffFormat(path);
    if (f == InputFormat::NsysRep) {
      throw Error(path + ": an Nsight Systems .nsys-rep report; export it first with `nsys export --type sqlite " +
                  path + "`");
    }
    if (f == InputFormat::Unknown) {
      throw Error(path + ": not a report asys can read (asysrep, Nsight Systems SQLite export, "
                         "PyTorch/Kineto trace JSON)");
    }
    if (i == 0) {
      first = f;
    } else if (f != first) {
      throw Error(path + " is " + describe(f) + " but " + inputs[0] + " is " + describe(first) +
                  ": give inputs of one format");
    }
  }
  return first;
}

void writeImport(InputFormat format, const std::vector<std::string>& inputs, const std::string& outPath) {
  writeReportFile(outPath, [&](ReportWriter& w) {
    if (format == InputFormat::NsysSqlite) importNsysSqlite(inputs[0], w);
    else importKineto(inputs, w);
  });
}

}  // namespace

void importReports(const std::vector<std::string>& inputs, const std::string& outPath) {
  const InputFormat format = formatOfInputs(inputs);
  if (format == InputFormat::Asysrep) {
    throw Error(inputs[0] + ": already an asysrep report (asys stats and the viewer open it directly)");
  }
  if (format == InputFormat::NsysSqlite && inputs.size() != 1) {
    throw Error("an Nsight Systems export is imported on its own: give one .sqlite file per report, got " +
                std::to_string(inputs.size()));
  }
  std::error_code ec;
  for (const std::string& in : inputs) {
    if (std::filesystem::equivalent(in, outPath, ec)) {
      throw Error(outPath + ": is also an input; choose another output file");
    }
  }
  writeImport(format, inputs, outPath);
}

std::unique_ptr<Report> openAnyReport(const std::vector<std::string>& inputs, const std::string& tempDir) {
  if (inputs.empty()) throw Error("no report given");
  const InputFormat format = formatOfInputs(inputs);
  if (format == InputFormat::Asysrep) {
    if (inputs.size() != 1) {
      throw Error("give one asysrep report, got " + std::to_string(inputs.size()));
    }
    return Report::open(inputs[0]);
  }
  if (format == InputFormat::NsysSqlite && inputs.size() != 1) {
    throw Error("give one Nsight Systems export, got " + std::to_string(inputs.size()));
  }

  // A name nobody else uses: process id, a counter and the clock.
  static std::atomic<uint64_t> counter{0};
  const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string dir = tempDir.empty() ? std::string(".") : tempDir;
  const std::string temp = dir + "/asys-import-" + std::to_string(static_cast<long long>(getpid())) + "-" +
                           std::to_string(counter++) + "-" + std::to_string(static_cast<long long>(ticks)) +
                           ".asysrep";
  writeImport(format, inputs, temp);
  std::unique_ptr<Report> report;
  try {
    report = Report::open(temp);
  } catch (...) {
    std::remove(temp.c_str());
    throw;
  }
  // SQLite keeps the open file: unlinking now leaves nothing behind, even if
  // the process is killed later.
  std::remove(temp.c_str());
  std::string name = inputs[0];
  if (inputs.size() > 1) name += " (and " + std::to_string(inputs.size() - 1) + " more)";
  report->setDisplayPath(name);
  return report;
}

}  // namespace asys
