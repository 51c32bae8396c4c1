#include "core/cli/stats_command.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/cli/force_overwrite.h"
#include "core/import/importer.h"
#include "core/report/read_set.h"
#include "core/report/report.h"
#include "core/rules/help.h"
#include "core/rules/rule.h"
#include "core/table/writers.h"
#include "core/table/xlsx_writer.h"

namespace asys {

namespace {

// The two commands that run rules differ in their name, their rules and
// whether -r is required; everything else is shared.
struct CommandInfo {
  RuleCommand command;
  const char* name;  // "stats"
  const char* other; // the other command, for a rule given to the wrong one
};

std::string usage(const CommandInfo& c) {
  const std::string n = c.name, pad(n.size(), ' ');
  std::string text = "usage: asys " + n + " -r RULE[:OPT[:OPT=VALUE]...] [-r RULE...] [--format csv|json|column|xlsx]\n" +
                     "             " + pad + "[--output %|.|DIR/PREFIX] [-f true|false]\n" + "             " + pad +
                     "[--filter-time START/END | --filter-hgtx NAME[@DOMAIN][/INDEX]]\n" + "             " + pad +
                     "[--callstack-group-config NAME=FRAME_RE[/FRAME_RE...]]...\n" + "             " + pad +
                     "[--ppu-op-config TYPE=kernel:REGEX|TYPE=hgtx:REGEX]... REPORT\n" + "       asys " + n +
                     " --help-report RULE | --help-reports\n";
  if (c.command == RuleCommand::Analyze) text += "Without -r, every expert rule runs.\n";
  return text +
         "REPORT is an asysrep report, an Nsight Systems SQLite export or PyTorch/Kineto\n"
         "trace JSON (several rank files make one report); foreign files are imported\n"
         "into a temporary asysrep under $TMPDIR (or /tmp) first.\n";
}

// Whether `out` is the process's standard output on a terminal.
bool isTerminal(const std::ostream& out) { return &out == &std::cout && isatty(STDOUT_FILENO) == 1; }

// Whether a rule reads `table` (its data needs name it).
bool readsTable(const RuleSpec& rule, const std::string& table) {
  for (const DataNeed& need : rule.needs) {
    if (need.table == table) return true;
    for (const auto& t : need.alternatives)
      if (t == table) return true;
  }
  return false;
}

// A stream buffer that takes every byte and keeps none.
struct DiscardingBuffer : std::streambuf {
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// One line per report (0: the report or base, 1: the target) and table read:
// "0 HGGC_KERNEL start end deviceId".
void printReadSets(const std::vector<std::unique_ptr<ReadSet>>& reads, std::ostream& out) {
  for (size_t r = 0; r < reads.size(); ++r) {
    for (const auto& [table, columns] : reads[r]->tables()) {
      out << r << ' ' << table;
      for (const std::string& c : columns) out << ' ' << c;
      out << '\n';
    }
  }
}

struct RuleRun {
  const RuleSpec* rule;
  RuleOptions options;
};

struct StatsArgs {
  std::vector<std::string> ruleSpecs, formats, outputs, reports;
  std::string filterTime, filterHgtx;
  // Global rule options (rule_config.h), in the order given: option name, value.
  std::vector<std::pair<std::string, std::string>> global;
  bool force = false;
  // --print-reads (for bench/rules.sh, not in the usage): run the rules, and
  // print the tables and columns they read instead of their tables.
  bool printReads = false;
};

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
    else if (parseForceOption(args, i, a.force)) continue;
    else if (arg == "--print-reads") a.printReads = true;
    else if (arg == "--filter-time") {
      a.filterTime = next();
    } else if (arg == "--filter-hgtx") {
      a.filterHgtx = next();
    } else if (arg.rfind("--", 0) == 0 && findGlobalOption(arg.substr(2))) {
      a.global.emplace_back(arg.substr(2), next());
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw Error("unknown option '" + arg + "' (see asys stats --help)");
    } else {
      a.reports.push_back(arg);
    }
  }
  return a;
}

RuleRun parseRuleSpec(const CommandInfo& c, const std::string& spec) {
  std::vector<std::string> parts = splitUnescaped(spec, ':');
  const RuleSpec* rule = findRule(parts[0]);
  if (!rule || rule->command != c.command) {
    if (rule) throw Error("'" + parts[0] + "' is a rule of asys " + c.other + " (run it with asys " + c.other + ")");
    throw Error("unknown rule '" + parts[0] + "' (asys " + c.name + " --help-reports lists the rules)");
  }
  std::vector<std::string> items;
  for (size_t i = 1; i < parts.size(); ++i) items.push_back(unescapeSeparators(parts[i]));
  return {rule, parseRuleOptions(*rule, items)};
}

// The i-th element, or the last one for shorter lists.
std::string nth(const std::vector<std::string>& list, size_t i, const char* fallback) {
  if (list.empty()) return fallback;
  return list[std::min(i, list.size() - 1)];
}

// Where `--output` puts a file named `name` ("<rule>.<ext>"): beside the
// report for ".", DIR/PREFIX_<name> otherwise.
std::string namedOutputPath(const std::string& output, const std::string& report, const std::string& name) {
  if (output == ".") {
    std::filesystem::path p(report);
    return (p.parent_path() / (p.stem().string() + "_" + name)).string();
  }
  // DIR/PREFIX: an empty prefix (a path ending in '/') gives DIR/<name>.
  if (!output.empty() && output.back() == '/') return output + name;
  return output + "_" + name;
}

std::string outputPath(const std::string& output, const std::string& report, const std::string& rule,
                       OutputFormat format) {
  return namedOutputPath(output, report, rule + "." + formatExtension(format));
}

// Writes `path` whole or not at all: into `path.partial` first, renamed
// over `path` once complete. A write that fails (a broken cell found while
// a view's rows are made, a full disk) leaves no file behind and an older
// `path` untouched.
void writeWhole(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string partial = path + ".partial";
  try {
    {
      std::ofstream file(partial, std::ios::binary | std::ios::trunc);
      if (!file) throw Error(path + ": cannot write");
      write(file);
      if (!file.flush()) throw Error(path + ": write failed");
    }
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    if (ec) throw Error(path + ": cannot write: " + ec.message());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
}

void writeText(const std::string& path, const std::string& text) {
  writeWhole(path, [&](std::ostream& file) { file << text; });
}

int rulesCommand(const CommandInfo& c, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::string prefix = std::string("asys ") + c.name + ": ";
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    out << usage(c);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--help-reports") {
    out << ruleListHelp(c.command);
    return 0;
  }
  if (args[0] == "--help-report") {
    if (args.size() < 2) {
      err << prefix << "--help-report: missing rule name\n";
      return 2;
    }
    const RuleSpec* rule = findRule(args[1]);
    if (!rule) {
      err << prefix << "unknown rule '" << args[1] << "' (asys " << c.name << " --help-reports lists the rules)\n";
      return 2;
    }
    out << ruleHelp(*rule);
    return 0;
  }

  StatsArgs a;
  bool compare = false;  // the rules compare a base and a target report
  std::vector<RuleRun> runs;
  std::vector<OutputFormat> formats;
  RuleConfig config;
  try {
    a = parseArgs(args);
    for (const auto& [option, value] : a.global) config.add(option, value);
    if (a.ruleSpecs.empty() && c.command == RuleCommand::Analyze) {
      for (const RuleSpec* r : allRules())
        if (r->command == c.command) a.ruleSpecs.push_back(r->name);
    }
    if (a.ruleSpecs.empty()) throw Error("no rule given (-r RULE)");
    if (a.reports.empty()) throw Error("no report given");
    for (const auto& spec : a.ruleSpecs) runs.push_back(parseRuleSpec(c, spec));
    compare = runs[0].rule->compare != nullptr;
    for (const RuleRun& r : runs) {
      if ((r.rule->compare != nullptr) != compare) {
        throw Error("'" + r.rule->name + "' and '" + runs[0].rule->name +
                    "' cannot run together: one compares two reports, the other reads one");
      }
    }
    if (compare && a.reports.size() != 2) {
      throw Error("'" + runs[0].rule->name + "' compares two reports: give a base and a target report, got " +
                  std::to_string(a.reports.size()));
    }
    // Only Kineto rank files are read together (into one multi-process report).
    if (!compare && a.reports.size() > 1 && sniffFormat(a.reports[0]) != InputFormat::KinetoJson) {
      throw Error("the rules given compare nothing: give one report, got " + std::to_string(a.reports.size()));
    }
    for (size_t i = 0; i < runs.size(); ++i) formats.push_back(parseOutputFormat(nth(a.formats, i, "csv")));
    // A workbook on standard output: on a terminal (useless there) the
    // column format, as the manual says; redirected, the workbook's bytes,
    // which cannot share the output with another rule's.
    for (size_t i = 0; i < runs.size(); ++i) {
      if (formats[i] != OutputFormat::Xlsx || nth(a.outputs, i, "%") != "%") continue;
      if (isTerminal(out)) formats[i] = OutputFormat::Column;
      else if (runs.size() > 1) throw Error("--format xlsx: one workbook per rule: give --output DIR/ for several rules");
    }
  } catch (const Error& e) {
    err << prefix << e.what() << '\n';
    return 2;
  }

  // One report, or a base and a target, each with its own statistics range
  // (--filter-hgtx finds its range in each report).
  std::unique_ptr<Report> report, target;
  TimeWindow window, targetWindow;
  try {
    if (compare) {
      report = openAnyReport({a.reports[0]}, tempDirectory());
      target = openAnyReport({a.reports[1]}, tempDirectory());
      targetWindow = resolveTimeWindow(*target, a.filterTime, a.filterHgtx);
    } else {
      report = openAnyReport(a.reports, tempDirectory());
    }
    window = resolveTimeWindow(*report, a.filterTime, a.filterHgtx);
  } catch (const Error& e) {
    err << prefix << e.what() << '\n';
    return 1;
  }

  // Several rules over the kernels: read every column in the first scan, so
  // HGGC_KERNEL is read from the file once, not once per rule.
  if (std::count_if(runs.begin(), runs.end(), [](const RuleRun& r) { return readsTable(*r.rule, "HGGC_KERNEL"); }) > 1) {
    report->planKernelColumns(kcol::all);
  }

  // --print-reads: what the rules read once the reports are open, each
  // table made whole (a view's rows may read the file as they are written).
  std::vector<std::unique_ptr<ReadSet>> reads;
  if (a.printReads) {
    reads.push_back(report->recordReads());
    if (target) reads.push_back(target->recordReads());
  }

  int status = 0;
  const bool framed = runs.size() > 1;
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string& rule = runs[i].rule->name;
    try {
      Table t = compare
                    ? runCompareRule(*runs[i].rule, *report, *target, runs[i].options, window, targetWindow, config)
                    : runRule(*runs[i].rule, *report, runs[i].options, window, config);
      for (const auto& w : t.warnings()) err << prefix << rule << ": warning: " << w << '\n';
      if (a.printReads) {
        DiscardingBuffer buffer;
        std::ostream discarded(&buffer);
        writeCsv(t, discarded);
        continue;
      }
      const std::string output = nth(a.outputs, i, "%");
      // A rule's own files (ppu_op_unit_test's tests) go where its table
      // file would, or beside the report when the table goes to stdout;
      // every path is checked before anything is written.
      const std::string path = output == "%" ? "" : outputPath(output, a.reports[0], rule, formats[i]);
      std::vector<std::string> filePaths;
      for (const Table::File& f : t.files()) {
        filePaths.push_back(namedOutputPath(output == "%" ? "." : output, a.reports[0], f.name));
        checkOverwrite(filePaths.back(), a.force);
      }
      if (!path.empty()) checkOverwrite(path, a.force);
      for (size_t f = 0; f < filePaths.size(); ++f) {
        writeText(filePaths[f], t.files()[f].text);
        err << prefix << rule << ": wrote " << filePaths[f] << '\n';
      }
      // Streamed: a view's rows are made a chunk at a time as they are
      // written, so a trace never sits in memory whole.
      auto write = [&](std::ostream& to) {
        if (formats[i] == OutputFormat::Xlsx) writeXlsx(t, rule, to);
        else writeTable(t, formats[i], to);
      };
      if (output == "%") {
        if (framed) out << "# " << rule << '\n';
        write(out);
        if (framed) out << '\n';
        // A stream that failed (a full disk, a closed pipe) drops what it
        // is given without a word: the table would end short and the run
        // still say 0 (found writing traces on a full disk).
        if (!out.flush()) throw Error("standard output: cannot write (the table is incomplete)");
        continue;
      }
      writeWhole(path, write);
    } catch (const Error& e) {
      err << prefix << rule << ": " << e.what() << '\n';
      status = 1;
    }
  }
  printReadSets(reads, out);
  return status;
}

// asys compare's default set: the manual's, in its order.
const char* const kCompareDefaults[] = {"ppu_operator_type_summary_compare",   "ppu_time_util_compare",
                                        "ppu_operator_summary_compare",        "ppu_operator_kernel_breakdown_compare",
                                        "pccl_desync_summary_compare",         "ppu_kernel_summary_compare"};

constexpr const char* kCompareUsage =
    "usage: asys compare [-f true|false] [--output DIR/PREFIX] [-r RULE[:OPT...]...]\n"
    "                    [--filter-time START/END | --filter-hgtx NAME[@DOMAIN][/INDEX]]\n"
    "                    [--ppu-op-config TYPE=kernel:REGEX|TYPE=hgtx:REGEX]... BASE TARGET\n"
    "Runs the compare rules (by default ppu_operator_type_summary_compare,\n"
    "ppu_time_util_compare, ppu_operator_summary_compare,\n"
    "ppu_operator_kernel_breakdown_compare, pccl_desync_summary_compare,\n"
    "ppu_kernel_summary_compare), prints the first rows of each and writes one CSV per\n"
    "rule: DIR/PREFIX_<rule>.csv, or <base>_vs_<target>_<rule>.csv beside the base\n"
    "report. Existing files are kept unless -f true. --filter-time and --filter-hgtx\n"
    "apply to each report on its own (each finds its own range); --ppu-op-config adds\n"
    "operator recognition rules for the operator compare rules.\n";

// The rows of a compare table the console summary shows.
constexpr size_t kSummaryRows = 5;

int compareCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::string prefix = "asys compare: ";
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    out << kCompareUsage;
    return args.empty() ? 2 : 0;
  }
  const CommandInfo stats{RuleCommand::Stats, "stats", "analyze"};
  StatsArgs a;
  std::vector<RuleRun> runs;
  std::vector<std::string> paths;
  RuleConfig config;
  try {
    a = parseArgs(args);
    for (const auto& [option, value] : a.global) config.add(option, value);
    if (a.reports.size() != 2) {
      throw Error("give a base and a target report, got " + std::to_string(a.reports.size()));
    }
    if (!a.formats.empty()) throw Error("--format: asys compare writes CSV files");
    if (a.outputs.size() > 1) throw Error("--output: give one DIR/PREFIX");
    if (a.ruleSpecs.empty()) {
      for (const char* name : kCompareDefaults)
        if (findRule(name)) a.ruleSpecs.emplace_back(name);
    }
    for (const auto& spec : a.ruleSpecs) {
      runs.push_back(parseRuleSpec(stats, spec));
      if (!runs.back().rule->compare) throw Error("'" + runs.back().rule->name + "' is not a compare rule");
    }
    // Every file is checked before anything is written: all or nothing.
    const std::filesystem::path base(a.reports[0]), target(a.reports[1]);
    const std::string output = a.outputs.empty()
                                   ? (base.parent_path() / (base.stem().string() + "_vs_" + target.stem().string())).string()
                                   : a.outputs[0];
    for (const RuleRun& r : runs) {
      paths.push_back(outputPath(output, a.reports[0], r.rule->name, OutputFormat::Csv));
      if (!a.force && std::filesystem::exists(paths.back())) {
        throw Error(paths.back() + " exists (use -f true to overwrite); nothing was written");
      }
    }
  } catch (const Error& e) {
    err << prefix << e.what() << '\n';
    return 2;
  }

  std::unique_ptr<Report> base, target;
  TimeWindow baseWindow, targetWindow;
  try {
    base = openAnyReport({a.reports[0]}, tempDirectory());
    target = openAnyReport({a.reports[1]}, tempDirectory());
    baseWindow = resolveTimeWindow(*base, a.filterTime, a.filterHgtx);
    targetWindow = resolveTimeWindow(*target, a.filterTime, a.filterHgtx);
  } catch (const Error& e) {
    err << prefix << e.what() << '\n';
    return 1;
  }

  int status = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string& rule = runs[i].rule->name;
    try {
      Table t = runCompareRule(*runs[i].rule, *base, *target, runs[i].options, baseWindow, targetWindow, config);
      for (const auto& w : t.warnings()) err << prefix << rule << ": warning: " << w << '\n';
      writeWhole(paths[i], [&](std::ostream& file) { writeCsv(t, file); });
      const size_t total = t.rowCount();
      t.truncate(kSummaryRows);
      out << "# " << rule << ": " << total << (total == 1 ? " row" : " rows") << ", written to " << paths[i] << '\n';
      writeColumn(t, out);
      out << '\n';
    } catch (const MissingDataError& e) {
      // A rule whose data one report lacks: said, the others still run.
      err << prefix << rule << ": " << e.what() << '\n';
      status = 1;
    } catch (const Error& e) {
      err << prefix << rule << ": " << e.what() << '\n';
      status = 1;
    }
  }
  return status;
}

}  // namespace

int statsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return rulesCommand({RuleCommand::Stats, "stats", "analyze"}, args, out, err);
}

int analyzeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return rulesCommand({RuleCommand::Analyze, "analyze", "stats"}, args, out, err);
}

int compareReportsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return compareCommand(args, out, err);
}

}  // namespace asys
