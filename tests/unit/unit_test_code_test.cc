// ppu_op_unit_test's code generation, one recorded call at a time (each
// expected function written out by hand from docs/rules.md). The CLI's
// rules for the file it writes are in cli_output_test.cc.
#include <gtest/gtest.h>

#include "core/rules/unit_test_code.h"

namespace {

const std::string kCall = "TorchFunction: torch.ops.aten.gelu.default | ";
const std::string kTensor = "arg_type=torch.Tensor, dtype=torch.float32, device=cuda:1, shape=(2, 3), requires_grad=False";

std::string reasonFor(const std::string& args) { return asys::unitTestCode("t_1", kCall + args).reason; }

TEST(UnitTestCode, ScalarsStringsAndDevicesAsPython) {
  const asys::UnitTestCode c = asys::unitTestCode(
      "gelu_1", kCall + kTensor +
                    " | kwarg_name=approximate, arg_type=str, value=ta\"n\\h | arg_type=float, value=-inf | "
                    "arg_type=torch.device, value=cuda:1 | arg_type=torch.device, value=cpu | "
                    "arg_type=tuple, value=(1,) | arg_type=torch.dtype, value=torch.bfloat16");
  // A positional argument after a keyword: no test.
  EXPECT_EQ(c.function, "");
  EXPECT_EQ(c.reason, "argument arg1 follows a keyword argument");

  const asys::UnitTestCode d = asys::unitTestCode(
      "gelu_1", kCall + kTensor +
                    " | arg_type=float, value=-inf | arg_type=torch.device, value=cuda:1 | "
                    "arg_type=torch.device, value=cpu | arg_type=tuple, value=(1,) | "
                    "arg_type=torch.dtype, value=torch.bfloat16 | kwarg_name=approximate, arg_type=str, "
                    "value=ta\"n\\h");
  EXPECT_EQ(d.reason, "");
  EXPECT_EQ(d.device, "cuda:1");
  EXPECT_EQ(d.function,
            "def gelu_1(device):\n"
            "    \"\"\"torch.ops.aten.gelu.default\"\"\"\n"
            "    arg0 = tensor((2, 3), torch.float32, device)\n"
            "    return lambda: torch.ops.aten.gelu.default(arg0, float(\"-inf\"), device, \"cpu\", (1,), "
            "torch.bfloat16, approximate=\"ta\\\"n\\\\h\")\n");
}

TEST(UnitTestCode, KeywordTensorsAvoidTheFilesNames) {
  const asys::UnitTestCode c = asys::unitTestCode(
      "mm_1", "TorchFunction: torch.ops.aten.mm.out | " + kTensor + " | " + kTensor + " | kwarg_name=out, " + kTensor +
                  " | kwarg_name=device, " + kTensor);
  EXPECT_EQ(c.function,
            "def mm_1(device):\n"
            "    \"\"\"torch.ops.aten.mm.out\"\"\"\n"
            "    arg0 = tensor((2, 3), torch.float32, device)\n"
            "    arg1 = tensor((2, 3), torch.float32, device)\n"
            "    out = tensor((2, 3), torch.float32, device)\n"
            "    kw_device = tensor((2, 3), torch.float32, device)\n"
            "    return lambda: torch.ops.aten.mm.out(arg0, arg1, out=out, device=kw_device)\n");
}

TEST(UnitTestCode, WhatCannotBeGenerated) {
  EXPECT_EQ(reasonFor("arg_type=int, value=3.5"), "argument arg0 has the value '3.5', not a valid int");
  EXPECT_EQ(reasonFor("arg_type=float, value=1e"), "argument arg0 has the value '1e', not a valid float");
  EXPECT_EQ(reasonFor("arg_type=bool, value=true"), "argument arg0 has the value 'true', not a valid bool");
  EXPECT_EQ(reasonFor("arg_type=list, value=[1, x]"), "argument arg0 has the value '[1, x]', not a valid list of numbers");
  EXPECT_EQ(reasonFor("arg_type=list, value=[1 2]"), "argument arg0 has the value '[1 2]', not a valid list of numbers");
  EXPECT_EQ(reasonFor("arg_type=torch.dtype, value=float; import os"),
            "argument arg0 has the value 'float; import os', not a valid torch.dtype");
  EXPECT_EQ(reasonFor("arg_type=torch.Tensor, dtype=torch.float32, device=cuda:0"),
            "argument arg0 is a tensor without a recorded shape");
  EXPECT_EQ(reasonFor("arg_type=torch.Tensor, shape=(2,)"), "argument arg0 is a tensor without a torch dtype");
  EXPECT_EQ(reasonFor("arg_type=torch.Tensor, dtype=torch.float32, shape=(2, 2), stride=(1,)"),
            "argument arg0 has the strides '(1,)', not one per dimension");
  EXPECT_EQ(reasonFor("kwarg_name=lambda, arg_type=int, value=1"), "keyword argument 'lambda' is not a Python name");
  EXPECT_EQ(reasonFor("value=1"), "argument arg0 has no arg_type");
  EXPECT_EQ(reasonFor("arg_type=torch._C.ScriptObject, value=<obj>"),
            "argument arg0 is a torch._C.ScriptObject, an object the report does not record");
  EXPECT_EQ(asys::unitTestCode("x_1", "aten::mm, op_id = 3").reason,
            "not a TorchFunction range (recorded without --pytorch=dispatch-function)");
}

TEST(UnitTestCode, TheRecordedDevice) {
  // No tensor: the device a torch.device argument names, else cpu.
  EXPECT_EQ(asys::unitTestCode("t_1", kCall + "arg_type=torch.device, value=cuda:2").device, "cuda:2");
  EXPECT_EQ(asys::unitTestCode("t_1", kCall + "arg_type=int, value=2").device, "cpu");
  // A CPU tensor first: the first other device.
  EXPECT_EQ(asys::unitTestCode("t_1", kCall + "arg_type=torch.Tensor, dtype=torch.float32, device=cpu, shape=() | " +
                                          kTensor).device,
            "cuda:1");
}

TEST(UnitTestCode, TestNameStems) {
  EXPECT_EQ(asys::unitTestStem("TorchFunction: torch.ops.aten.mm.default | x"), "mm");
  EXPECT_EQ(asys::unitTestStem("TorchFunction: torch.ops.aten.add_.Tensor"), "add__Tensor");
  EXPECT_EQ(asys::unitTestStem("TorchFunction: torch.ops.aten.mm"), "mm");
  EXPECT_EQ(asys::unitTestStem("TorchFunction: torch.ops.my-lib.op-1.default"), "op_1");
  EXPECT_EQ(asys::unitTestStem("aten::mm, op_id = 1"), "");
}

}  // namespace
