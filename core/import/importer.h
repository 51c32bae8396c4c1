#pragma once
// Foreign profiles (Nsight Systems SQLite exports, PyTorch/Kineto traces) are
// imported into an asysrep database, so every rule runs on them unchanged.
// Formats are recognised by content, never by file name.
#include <memory>
#include <string>
#include <vector>

namespace asys {

class Report;
class ReportWriter;

enum class InputFormat {
  Asysrep,     // SQLite with META_DATA format=asysrep
  NsysSqlite,  // `nsys export --type sqlite`
  NsysRep,     // an Nsight Systems .nsys-rep / .qdrep (must be exported first)
  KinetoJson,  // Chrome-trace JSON of the PyTorch profiler, plain or gzip
  Unknown,
};

// Looks at the file's first bytes (and, for SQLite, its tables).
InputFormat sniffFormat(const std::string& path);

// Writes one asysrep report at outPath from one or more inputs of one
// foreign format (several Kineto rank files become one multi-process
// report). Throws Error with one line naming the file and the problem.
void importReports(const std::vector<std::string>& inputs, const std::string& outPath);

// Opens inputs for analysis: an asysrep file directly; foreign files are
// imported into a temporary asysrep under tempDir first.
std::unique_ptr<Report> openAnyReport(const std::vector<std::string>& inputs, const std::string& tempDir);

// The importers, each filling a ReportWriter (core/writer/report_writer.h).
void importNsysSqlite(const std::string& input, ReportWriter& out);
void importKineto(const std::vector<std::string>& inputs, ReportWriter& out);

}  // namespace asys
