#pragma once
// What the fuzz targets share: a scratch file per process for inputs the
// engine reads by path (SQLite files, traces), and the one small report the
// option targets run their rules against.
#include <cstddef>
#include <cstdint>
#include <string>

namespace asys {
class Report;
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

}  // namespace asys::fuzz
