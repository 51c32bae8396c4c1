// `asys stats --help-report` in the documentation's layout (the
// device_memory_usage_summary example of asys-stats-rules.zh.txt 2.3.1),
// generated from the rule declaration; written out here by hand.
#include <gtest/gtest.h>

#include <sstream>

#include "core/cli/cli.h"

namespace {
std::string run(const std::vector<std::string>& args, int expectStatus = 0) {
  std::ostringstream out, err;
  EXPECT_EQ(asys::runCli(args, out, err), expectStatus) << err.str();
  return out.str() + err.str();
}
}  // namespace

TEST(HelpReport, KernelSummaryFollowsTheDocumentedLayout) {
  EXPECT_EQ(run({"stats", "--help-report", "hggc_ppu_kern_sum"}),
            "hggc_ppu_kern_sum -- HGGC PPU Kernel Summary\n"
            "\n"
            "    Options:\n"
            "        rows=<limit>\n"
            "            Maximum number of kernels to output. Default is no limit (-1).\n"
            "        hgtx-name\n"
            "            Prefix each kernel's name with the innermost HGTX range around its launch\n"
            "            call on the launching thread, joined by '/'.\n"
            "        base\n"
            "            Use the kernel's short name (function name only, no parameters).\n"
            "        mangled\n"
            "            Use the kernel's mangled name.\n"
            "        device=<device_list>\n"
            "            PPU device IDs to include, separated by '/' (e.g. device=0/1).\n"
            "            Default is all PPU devices.\n"
            "        Use --filter-time / --filter-hgtx to specify report time range.\n"
            "        Try 'asys stats --help' for more information.\n"
            "\n"
            "    Output:\n"
            "        Row# : Row number of the kernel summary\n"
            "        Time [%] : Percentage of 'Total Time'\n"
            "        Total Time [ns] : Total time used by all executions of this kernel\n"
            "        Instances : Number of calls to this kernel\n"
            "        Avg [ns] : Average execution time of this kernel\n"
            "        Med [ns] : Median execution time of this kernel\n"
            "        Min [ns] : Smallest execution time of this kernel\n"
            "        Max [ns] : Largest execution time of this kernel\n"
            "        StdDev [ns] : Standard deviation of the time of this kernel\n"
            "        Name : Name of the kernel\n"
            "\n"
            "    Time spent in each HGGC kernel, summed over all executions of the same name,\n"
            "    sorted by total time descending. The name is the demangled name (with its\n"
            "    parameter list) unless base or mangled is given. Time (%) is the share of the\n"
            "    listed kernels' total time, not of the application's run time.\n");
}

TEST(HelpReport, DeviceMemorySummaryFollowsTheDocumentedExample) {
  // The documentation's example (2.3.1), line for line, then the rule's own
  // paragraph on pairing and groups.
  const std::string help = run({"stats", "--help-report", "device_memory_usage_summary"});
  const std::string documented =
      "device_memory_usage_summary -- Device Memory Usage Summary\n"
      "\n"
      "    Options:\n"
      "        match-first-group\n"
      "            Optional argument. When used with --callstack-group-config:\n"
      "            If given, only matching the first callstack group.\n"
      "            Default is matching all callstack group.\n"
      "        usage-mode=<mode>\n"
      "            Possible values are 'alloc-size', 'unreleased-size', 'alloc-count' or 'unreleased-count'.\n"
      "            Specify the memory usage mode.\n"
      "            If 'alloc-size', statistic overall allocated device memory usage.\n"
      "            If 'unreleased-size', statistic allocated but not freed device memory usage.\n"
      "            If 'alloc-count', statistic overall allocated device memory count.\n"
      "            If 'unreleased-count', statistic allocated but not freed device memory count.\n"
      "            Default is 'unreleased-size'.\n"
      "        Use --filter-time / --filter-hgtx to specify report time range.\n"
      "        Use --callstack-group-config to create report group configuration.\n"
      "        Try 'asys stats --help' for more information.\n"
      "\n"
      "    Output:\n"
      "        Row# : Row number of the device memory usage\n"
      "        PID : Process identifier\n"
      "        Device ID : PPU device identifier\n"
      "        Group List : Memory usage belonged group list, splited by '/'\n"
      "        Memory Usage [bytes] : Device memory usage\n"
      "\n"
      "    Group and statistic device memory usage of specified mode,\n"
      "    If 'alloc-size' mode,  display allocated device memory usage summary.\n"
      "    If 'alloc-count' mode, display allocated device memory count summary.\n"
      "    If 'unreleased-size' mode, display allocated but not freed device memory usage summary.\n"
      "    If 'unreleased-count' mode, display allocated but not freed device memory count summary.\n";
  EXPECT_EQ(help.substr(0, documented.size()), documented);
}

TEST(HelpReport, RuleWithoutOptionsSaysSo) {
  std::string help = run({"stats", "--help-report", "hggc_api_sum"});
  EXPECT_NE(help.find("    Options:\n        This rule has no options.\n"), std::string::npos) << help;
  EXPECT_NE(help.find("        Row# : Row number of the HGGC API summary\n"), std::string::npos) << help;
}

TEST(HelpReport, UnknownRuleIsOneLineAndNonZero) {
  std::string msg = run({"stats", "--help-report", "no_such_rule"}, 2);
  EXPECT_EQ(msg, "asys stats: unknown rule 'no_such_rule' (asys stats --help-reports lists the rules)\n");
}

TEST(HelpReports, ListsEveryRuleOnOneLine) {
  std::string list = run({"stats", "--help-reports"});
  EXPECT_NE(list.find("hggc_api_sum -- HGGC API Summary\n"), std::string::npos);
  EXPECT_NE(list.find("ppu_device_attribute -- PPU Device Attributes\n"), std::string::npos);
  EXPECT_NE(list.find("hgtx_pushpop_trace -- "), std::string::npos);
}
