// hgtx_ppu_projection_summary_compare (HGTX向PPU投影汇总比较): the HGTX
// projection summary of two reports, matched by range name and style.
#include "core/rules/compare.h"
#include "core/rules/common.h"
#include "core/rules/compare_options.h"
#include "core/rules/hgtx_association_options.h"
#include "core/rules/registry.h"

namespace asys {

namespace {

CompareValue timeValue(const char* from, const char* ratio, const char* ratioHelp) {
  return {.from = from, .ratio = ratio, .ratioHelp = ratioHelp};
}

const CompareSpec& spec() {
  static const CompareSpec s{
      .side = hgtxPpuProjSumRule().compute,
      .sideColumns = hgtxPpuProjSumRule().columns,
      .shownKey = "Range",
      .shownLabel = "Range",
      .shownHelp = "Name of the HGTX range",
      .share = "In-Use",
      .values = {{.from = "In-Use"},
                 {.from = "Range Instances", .name = "Range Instance"},
                 timeValue("Proj Avg", "Proj Avg Ratio", "Base average projected time / target's"),
                 timeValue("Proj Active Time", "Proj Active Ratio",
                           "Base projected time excluding overlaps / target's"),
                 timeValue("Total Proj Time", "Total Proj Ratio", "Base total projected time / target's"),
                 timeValue("Total Range Time", "Total Range Ratio", "Base total original range time / target's")},
  };
  return s;
}

}  // namespace

const RuleSpec& hgtxPpuProjectionSummaryCompareRule() {
  static const RuleSpec rule{
      .name = "hgtx_ppu_projection_summary_compare",
      .title = "HGTX Range PPU Projection Summary Compare",
      .titleZh = "HGTX向PPU投影汇总比较",
      .rowHelp = "Row number of the compare result",
      .topic = "Compare",
      .description = std::string(
                         "hgtx_ppu_proj_sum of a base and a target report, matched by range name and\n"
                         "style, ordered by the larger of the two reports' In-Use descending.\n") +
                     kRatioDirection,
      .descriptionZh = std::string(
              "比较两个asysrep报告中的HGTX range向PPU侧投影的汇总结果，匹配和比较两个报告中的HGTX range PPU投影汇总的执行时间差异。\n"
              "HGTX range在PPU侧的投影时间，从本HGTX关联的最早的PPU活动开始，到最晚的PPU活动结束。\n"
              "HGTX range投影的PPU侧占比In-Use计算方式为：Proj Active Time/ PPU侧统计时间范围，其中PPU侧统计时间范围计算方式取决于range-mode选项。\n"
              "对每个asysrep报告，按照相同HGTX range汇总PPU侧的投影时间信息。通过HGTX range匹配两个asysrep汇总结果的投影信息，按照每个报告的In-Use降序排列。\n") +
          kRatioDirectionZh,
      .options = {deviceOption(), rangeModeOption(), rangeIncludeOption(), rangeExcludeOption(),
                  graphMappingOption(), matchedOnlyOption()},
      .columns = compareColumns(spec()),
      .needs = hgtxPpuProjSumRule().needs,
      .pie = {},
      .compare = &spec(),
      // Per row of the larger side (HGGC_API), 2026-12-06 (wasmcmp20): natively 87,548 KiB at scale 250 and
      // 627,376 at 2500 (29.5 and 21.2 bytes); in the WebAssembly engine under Node, its heap after the run
      // 920.5 MiB at 2500 and 1,525.1 at 4000 (31.8 and 32.9 bytes; the 3 GB pair answers, the native CSV's
      // bytes). At 250 that heap is 223.3 MiB (77 bytes a row), most of it the engine's own (two reports'
      // block caches, the heap's growth steps), not rows. 48 had refused the 3 GB pair. Before the engine gave
      // a report's names back after its summary (engine_bindings.cc, open) the base side's report stayed loaded
      // beside the target side: 1,269.1 and 1,952.2 MiB (43.8 and 42.1 bytes, over 40; docs/big-reports.md).
      .memoryPerRow = 40,
  };
  return rule;
}

}  // namespace asys
