// The operator recognisers over one arbitrary name: as an HGTX range text
// (GEMM, MoE, PCCL, flash attention and PyTorch annotations, the
// `TorchFunction:` format alone as ppu_op_unit_test reads it) and as a
// kernel name (PCCL, flash attention, MoE, GEMM, elementwise). A recogniser
// either claims the name or not; it never throws, so any exception, crash
// or sanitizer report is a finding.
#include <cstdint>
#include <string_view>

#include "core/base/string_pool.h"
#include "core/operators/moe_ops.h"
#include "core/operators/op_recognizer.h"
#include "core/operators/torch_function.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  asys::StringPool names;
  const uint32_t id = names.intern(text);
  for (bool torchOnly : {false, true}) {
    asys::OpRecognizerSettings settings;
    settings.torchFunctionOnly = torchOnly;
    asys::OpRecognizer recognizer(names, settings);
    const uint32_t range = recognizer.range(id, id);
    const uint32_t kernel = recognizer.kernel(id);
    for (uint32_t op : {range, kernel}) {
      if (op == asys::OpRecognizer::kNone) continue;
      const asys::OpInfo& info = recognizer.info(op);
      (void)recognizer.typeName(info.type);
      (void)recognizer.keyText(info.key);
    }
    if (range != asys::OpRecognizer::kNone && kernel != asys::OpRecognizer::kNone) recognizer.paired(range, kernel);
  }
  if (auto call = asys::parseTorchFunction(text)) {
    for (const asys::TorchArgument& arg : call->args)
      if (auto shape = arg.get("shape")) asys::torchDims(*shape);
  }
  asys::parseMoeShape(text);
  return 0;
}
