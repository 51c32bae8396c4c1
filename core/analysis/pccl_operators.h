#pragma once
// PCCL operator annotations (the HGTX ranges instrumented PCCL and the Kineto
// importer write, asysrep-format-v1.md "Operator annotations"):
//   AllReduce, p:0, c:442368, d:9, r:0, w:4, h:c70515c91cef61c7, t:1, b:0x119e800000/0x119e8d8000
// the operator type, then `key:value` fields: c element count, d data type
// (NCCL's ncclDataType_t numbering), r rank, w world size, h communicator
// hash, b buffers (p and t undocumented). A value may be "-" (unknown).
// And what pccl_op_sum derives from one: the bytes a rank moves.
#include <cstdint>
#include <optional>
#include <string_view>

namespace asys {

enum class PcclOpKind : uint8_t {
  Collective,    // AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, Gather, Scatter, others
  PointToPoint,  // Send, Recv, SendRecv
};

struct PcclOperator {
  std::string_view type;                 // "AllReduce"
  std::string_view count, dataType, hash;  // the c, d, h values as written
  int64_t elements = -1;   // c; -1 unknown
  int32_t dtype = -1;      // d; -1 unknown
  int64_t world = -1;      // w; -1 unknown
  PcclOpKind kind = PcclOpKind::Collective;
};

// The operator a range's text names, or nothing: the text must be a type
// (letters, digits, '_') followed by comma-separated `key:value` fields that
// include c, d, w and h.
std::optional<PcclOperator> parsePcclOperator(std::string_view text);

// Bytes of one element of NCCL data type `dtype`: int8 0, uint8 1, int32 2,
// uint32 3, int64 4, uint64 5, float16 6, float32 7, float64 8, bfloat16 9,
// float8 e4m3 10, float8 e5m2 11; 0 for a number outside the table.
int pcclDataTypeSize(int32_t dtype);

// What pccl_op_sum needs of an operator, with no reference to its text.
//
// The traffic of one rank in one execution is count x sizeof(type) x a
// factor: AllReduce 2(w-1)/w; AllGather, ReduceScatter, AllToAll, Gather,
// Scatter (w-1)/w; Broadcast, Reduce, Send, Recv, SendRecv 1 (nccl-tests'
// bus bandwidth factors). Unknown for another type, an unknown count or data
// type, or a world size that is unknown or below 1 where the factor needs it.
struct PcclTransfer {
  PcclOpKind kind = PcclOpKind::Collective;
  int64_t elements = -1;     // c
  int bytesPerElement = 0;   // sizeof(d); 0 unknown
  int64_t num = 0, den = 0;  // the factor; den 0 unknown
  bool known() const { return elements >= 0 && bytesPerElement > 0 && den > 0; }
  // floor(participants x c x sizeof(d) x num / den); -1 when unknown.
  int64_t bytes(int64_t participants) const;
};
PcclTransfer pcclTransfer(const PcclOperator& op);

}  // namespace asys
