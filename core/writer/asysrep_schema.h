#pragma once
// The CREATE TABLE statements of asysrep format version 1
// (/work/shared/spec/asysrep-format-v1.md), in the contract's order.
#include <cstddef>

namespace asys {

extern const char* const kSchemaStatements[];
extern const size_t kSchemaStatementCount;

}  // namespace asys
