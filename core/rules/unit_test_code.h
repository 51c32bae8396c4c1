#pragma once
// The Python of ppu_op_unit_test (2.3.30): one plain test function per
// TorchFunction call, and the file around them (imports, the input helper,
// the test list, the runner with --top / --warm-up / --repeat / --test /
// --device / --list). docs/rules.md describes the file; it imports only
// torch and the standard library.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace asys {

// One group's test: its function, or why it has none.
struct UnitTestCode {
  std::string function;  // "def mm_1(device):\n..." ("" when not generated)
  std::string device;    // the recorded device it runs on unless --device ("cpu" when it has no tensor)
  std::string reason;    // why there is no test ("" when generated)
};

// The name stem of a TorchFunction text's test: "mm" for
// torch.ops.aten.mm.default, "add_Tensor" for torch.ops.aten.add.Tensor;
// characters Python names cannot hold become '_'. "" for other texts.
std::string unitTestStem(std::string_view text);

// The test function `name` for one recorded call (a TorchFunction text).
UnitTestCode unitTestCode(const std::string& name, std::string_view text);

struct UnitTestEntry {
  std::string name;    // the test's name, as listed
  std::string target;  // "torch.ops.aten.mm.default", or the OP Name of a group that is no call
  UnitTestCode code;
  int64_t avg = 0, instances = 0;  // the report's, for the group
};

// The whole file: the generated tests in the order given (descending Total
// Time), then the groups without a test and their reasons.
std::string unitTestFile(const std::vector<UnitTestEntry>& tests, const std::vector<UnitTestEntry>& notGenerated);

}  // namespace asys
