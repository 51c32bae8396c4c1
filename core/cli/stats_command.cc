#include "core/cli/stats_command.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/import/importer.h"
#include "core/report/report.h"
#include "core/rules/help.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"

namespace asys {

namespace {

constexpr const char* kStatsUsage =
    "usage: asys stats -r RULE[:OPT[:OPT=VALUE]...] [-r RULE...] [--format csv|json|column]\n"
    "                  [--output %|.|DIR/PREFIX] [-f true|false]\n"
    "                  [--filter-time START/END | --filter-hgtx NAME[@DOMAIN][/INDEX]] REPORT\n"
    "       asys stats --help-report RULE | --help-reports\n"
    "REPORT is an asysrep report, an Nsight Systems SQLite export or PyTorch/Kineto\n"
    "trace JSON (several rank files make one report); foreign files are imported\n"
    "into a temporary asysrep under $TMPDIR (or /tmp) first.\n";

// Whether a rule reads `table` (its data needs name it).
bool readsTable(const RuleSpec& rule, const std::string& table) {
  for (const DataNeed& need : rule.needs) {
    if (need.table == table) return true;
    for (const auto& t : need.alternatives)
      if (t == table) return true;
  }
  return false;
}

struct RuleRun {
  const RuleSpec* rule;
  RuleOptions options;
};

struct StatsArgs {
  std::vector<std::string> ruleSpecs, formats, outputs, reports;
  std::string filterTime, filterHgtx;
  bool force = false;
};

bool parseBool(const std::string& option, const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  throw Error(option + ": expected true or false, got '" + v + "'");
}

StatsArgs parseArgs(const std::vector<std::string>& args) {
  StatsArgs a;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= args.size()) throw Error(arg + ": missing value");
      return args[++i];
    };
    auto appendList = [&](std::vector<std::string>& to) {
      for (auto& part : splitUnescaped(next(), ',')) to.push_back(part);
    };
    if (arg == "-r" || arg == "--report") appendList(a.ruleSpecs);
    else if (arg == "--format") appendList(a.formats);
    else if (arg == "--output" || arg == "-o") a.outputs.push_back(next());
    else if (arg == "-f") a.force = parseBool(arg, next());
    else if (arg == "--force-overwrite") {
      if (i + 1 < args.size() && (args[i + 1] == "true" || args[i + 1] == "false")) a.force = parseBool(arg, args[++i]);
      else a.force = true;
    } else if (arg == "--filter-time") {
      a.filterTime = next();
    } else if (arg == "--filter-hgtx") {
      a.filterHgtx = next();
    } else if (arg == "--callstack-group-config" || arg == "--ppu-op-config") {
      throw Error(arg + ": not supported by this build yet");
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw Error("unknown option '" + arg + "' (see asys stats --help)");
    } else {
      a.reports.push_back(arg);
    }
  }
  return a;
}

RuleRun parseRuleSpec(const std::string& spec) {
  std::vector<std::string> parts = splitUnescaped(spec, ':');
  const RuleSpec* rule = findRule(parts[0]);
  if (!rule) throw Error("unknown rule '" + parts[0] + "' (asys stats --help-reports lists the rules)");
  std::vector<std::string> items;
  for (size_t i = 1; i < parts.size(); ++i) items.push_back(unescapeSeparators(parts[i]));
  return {rule, parseRuleOptions(*rule, items)};
}

// The i-th element, or the last one for shorter lists.
std::string nth(const std::vector<std::string>& list, size_t i, const char* fallback) {
  if (list.empty()) return fallback;
  return list[std::min(i, list.size() - 1)];
}

std::string outputPath(const std::string& output, const std::string& report, const std::string& rule,
                       OutputFormat format) {
  std::string ext = formatExtension(format);
  if (output == ".") {
    std::filesystem::path p(report);
    return (p.parent_path() / (p.stem().string() + "_" + rule + "." + ext)).string();
  }
  // DIR/PREFIX: an empty prefix (a path ending in '/') gives DIR/<rule>.<ext>.
  if (!output.empty() && output.back() == '/') return output + rule + "." + ext;
  return output + "_" + rule + "." + ext;
}

}  // namespace

int statsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    out << kStatsUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--help-reports") {
    out << ruleListHelp();
    return 0;
  }
  if (args[0] == "--help-report") {
    if (args.size() < 2) {
      err << "asys stats: --help-report: missing rule name\n";
      return 2;
    }
    const RuleSpec* rule = findRule(args[1]);
    if (!rule) {
      err << "asys stats: unknown rule '" << args[1] << "' (asys stats --help-reports lists the rules)\n";
      return 2;
    }
    out << ruleHelp(*rule);
    return 0;
  }

  StatsArgs a;
  std::vector<RuleRun> runs;
  std::vector<OutputFormat> formats;
  try {
    a = parseArgs(args);
    if (a.ruleSpecs.empty()) throw Error("no rule given (-r RULE)");
    if (a.reports.empty()) throw Error("no report given");
    // Only Kineto rank files are read together (into one multi-process report).
    if (a.reports.size() > 1 && sniffFormat(a.reports[0]) != InputFormat::KinetoJson) {
      throw Error("the rules given compare nothing: give one report, got " + std::to_string(a.reports.size()));
    }
    for (const auto& spec : a.ruleSpecs) runs.push_back(parseRuleSpec(spec));
    for (size_t i = 0; i < runs.size(); ++i) formats.push_back(parseOutputFormat(nth(a.formats, i, "csv")));
  } catch (const Error& e) {
    err << "asys stats: " << e.what() << '\n';
    return 2;
  }

  std::unique_ptr<Report> report;
  TimeWindow window;
  try {
    report = openAnyReport(a.reports, tempDirectory());
    window = resolveTimeWindow(*report, a.filterTime, a.filterHgtx);
  } catch (const Error& e) {
    err << "asys stats: " << e.what() << '\n';
    return 1;
  }

  // Several rules over the kernels: read every column in the first scan, so
  // HGGC_KERNEL is read from the file once, not once per rule.
  if (std::count_if(runs.begin(), runs.end(), [](const RuleRun& r) { return readsTable(*r.rule, "HGGC_KERNEL"); }) > 1) {
    report->planKernelColumns(kcol::all);
  }

  int status = 0;
  const bool framed = runs.size() > 1;
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string& rule = runs[i].rule->name;
    try {
      Table t = runRule(*runs[i].rule, *report, runs[i].options, window);
      const std::string output = nth(a.outputs, i, "%");
      if (output == "%") {
        if (framed) out << "# " << rule << '\n';
        writeTable(t, formats[i], out);
        if (framed) out << '\n';
        continue;
      }
      std::string path = outputPath(output, a.reports[0], rule, formats[i]);
      if (!a.force && std::filesystem::exists(path)) {
        throw Error(path + " exists (use -f true to overwrite)");
      }
      std::ofstream file(path, std::ios::binary | std::ios::trunc);
      if (!file) throw Error(path + ": cannot write");
      writeTable(t, formats[i], file);
      if (!file.flush()) throw Error(path + ": write failed");
    } catch (const Error& e) {
      err << "asys stats: " << rule << ": " << e.what() << '\n';
      status = 1;
    }
  }
  return status;
}

}  // namespace asys
