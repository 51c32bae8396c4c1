// importKineto: one or more PyTorch profiler (Kineto) Chrome-trace files,
// plain or gzip JSON, streamed into one asysrep report. Each file is one
// rank: its own process; devices keep their ids (docs/import-kineto.md).
#include "core/base/error.h"
#include "core/import/importer.h"
#include "core/import/kineto_event.h"
#include "core/import/kineto_mapper.h"

namespace asys {

void importKineto(const std::vector<std::string>& inputs, ReportWriter& out) {
  if (inputs.empty()) throw Error("no Kineto trace given");
  kineto::Mapper mapper(out);
  for (size_t i = 0; i < inputs.size(); ++i) {
    mapper.beginInput(i, inputs.size(), inputs[i]);
    kineto::parseTrace(inputs[i], mapper);
    mapper.endInput();
  }
  mapper.finish();
}

}  // namespace asys
