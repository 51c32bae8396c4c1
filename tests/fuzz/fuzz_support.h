#pragma once
// What the fuzz targets share: a scratch file per process for inputs the
// engine reads by path (SQLite files, traces), and the one small report the
// option targets run their rules against.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>

namespace asys {
class Report;
class ReportWriter;
}

namespace asys::fuzz {

// $TMPDIR/asys-fuzz-<pid><suffix> (TMPDIR unset: /tmp). One per process, so
// libFuzzer's -jobs/-fork workers never share a file.
std::string scratchPath(const std::string& suffix);

// Replaces `path` with exactly these bytes.
void writeFile(const std::string& path, const uint8_t* data, size_t size);

// Removes `path` if it exists (an importer's output between two inputs).
void removeFile(const std::string& path);

// A small realistic report (`asys gen --seed 7 --scale 0.01`: about a
// thousand kernels and ranges, memory events with call stacks), generated
// once per process and kept open.
Report& sampleReport();

// The global option targets: `entry` as one value of `option` (RuleConfig::add);
// when accepted, each of `rules` runs with it on sampleReport(). asys::Error
// is the only accepted failure.
void runRulesWithConfig(const char* option, const std::string& entry, std::initializer_list<const char*> rules);

// The importer targets: the bytes as an input file named `inputSuffix`,
// imported by `import` into a fresh report as `asys import` writes one.
// asys::Error is the only accepted failure.
void importBytes(const char* inputSuffix, const uint8_t* data, size_t size,
                 const std::function<void(const std::string& input, ReportWriter& out)>& import);

}  // namespace asys::fuzz
