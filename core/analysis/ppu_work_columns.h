// The columns a PPU work row (a kernel, memcpy or memset) shows after its
// start and duration: its correlation id, launch configuration and memory
// operation, as hggc_ppu_trace declares them (2.3.10). The rule and the
// timeline's Events view list them alike from here.
#pragma once

#include <vector>

#include "core/table/table.h"

namespace asys {

inline void appendPpuWorkColumns(std::vector<ColumnSpec>& c) {
  c.insert(c.end(), {
                        {"CorrId", "", CellKind::Int, "Correlation ID"},
                        {"GrdX", "", CellKind::Int, "Grid X values"},
                        {"GrdY", "", CellKind::Int, "Grid Y values"},
                        {"GrdZ", "", CellKind::Int, "Grid Z values"},
                        {"BlkX", "", CellKind::Int, "Block X values"},
                        {"BlkY", "", CellKind::Int, "Block Y values"},
                        {"BlkZ", "", CellKind::Int, "Block Z values"},
                        {"Reg/Trd", "", CellKind::Int, "Registers per thread"},
                        {"StcSMem", "bytes", CellKind::Int, "Size of Static Shared Memory"},
                        {"DymSMem", "bytes", CellKind::Int, "Size of Dynamic Shared Memory"},
                        {"Bytes", "bytes", CellKind::Int, "Size of memory operation"},
                        {"Throughput", "B/s", CellKind::Int, "Memory throughput"},
                        {"SrcMemKd", "", CellKind::Text, "Memcpy source memory kind or memset memory kind"},
                        {"DstMemKd", "", CellKind::Text, "Memcpy destination memory kind"},
                    });
}

}  // namespace asys
