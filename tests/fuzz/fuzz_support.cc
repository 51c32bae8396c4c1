#include "tests/fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/base/error.h"
#include "core/gen/generator.h"
#include "core/report/report.h"
#include "core/rules/rule.h"
#include "core/rules/rule_config.h"
#include "core/writer/report_writer.h"

namespace asys::fuzz {

std::string scratchPath(const std::string& suffix) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/asys-fuzz-" + std::to_string(::getpid()) + suffix;
}

void writeFile(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();  // the harness itself is broken, not the input
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
}

void removeFile(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

Report& sampleReport() {
  static std::unique_ptr<Report> report = [] {
    const std::string path = scratchPath("-sample.asysrep");
    GenOptions options;
    options.seed = 7;
    options.scale = 0.01;
    generateReport(options, path);
    static const std::string kept = path;
    std::atexit([] { removeFile(kept); });
    return Report::open(path);
  }();
  return *report;
}

void runRulesWithConfig(const char* option, const std::string& entry, std::initializer_list<const char*> rules) {
  RuleConfig config;
  try {
    config.add(option, entry);
  } catch (const Error&) {
    return;
  }
  for (const char* name : rules) {
    const RuleSpec* rule = findRule(name);
    try {
      runRule(*rule, sampleReport(), parseRuleOptions(*rule, {}), {}, config);
    } catch (const Error&) {
    }
  }
}

void importBytes(const char* inputSuffix, const uint8_t* data, size_t size,
                 const std::function<void(const std::string& input, ReportWriter& out)>& import) {
  const std::string input = scratchPath(inputSuffix);
  const std::string output = scratchPath("-imported.asysrep");
  writeFile(input, data, size);
  removeFile(output);
  try {
    writeReportFile(output, [&](ReportWriter& w) { import(input, w); });
  } catch (const Error&) {
  }
}

}  // namespace asys::fuzz
