#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace asys {

// `asys stats ...` (args after "stats").
int statsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys analyze ...`: the same syntax, for the expert-system rules; without
// -r it runs all of them.
int analyzeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys compare [options] BASE TARGET`: the default compare rules to CSV
// files, with a short summary on the console.
int compareReportsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys gen ...` (args after "gen").
int genCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys merge ...` (args after "merge").
int mergeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys import ...` (args after "import").
int importCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `asys fleet ...`: runs the Python package's fleet analysis (asys.fleet).
int fleetCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// The directory for temporary files: $TMPDIR, else /tmp.
std::string tempDirectory();

}  // namespace asys
