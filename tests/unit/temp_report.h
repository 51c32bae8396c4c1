#pragma once
// A test's own scratch report: a path of its own in GoogleTest's temporary
// folder, unique to the process (ctest runs test binaries side by side),
// removed first so that nothing a killed earlier run left is read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "core/writer/report_writer.h"

namespace asys::test {

// TempDir()/asys_<name>_<pid><extension>, with nothing there.
inline std::string freshTempPath(const std::string& name, const std::string& extension = ".asysrep") {
  const std::string path = ::testing::TempDir() + "asys_" + name + "_" + std::to_string(getpid()) + extension;
  std::filesystem::remove(path);
  return path;
}

// A v1 asysrep report at freshTempPath(name): the format's two META_DATA
// rows, then whatever `fill` writes. Returns its path.
inline std::string writeTempReport(const std::string& name, const std::function<void(ReportWriter&)>& fill) {
  const std::string path = freshTempPath(name);
  writeReportFile(path, [&](ReportWriter& w) {
    w.metaData("format", "asysrep");
    w.metaData("formatVersion", "1");
    fill(w);
  });
  return path;
}

}  // namespace asys::test
