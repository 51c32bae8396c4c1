#pragma once
// The memory a rule may use: the engine refuses a rule whose estimate
// (core/rules/memory_estimate.h) is past it, in seconds, instead of running
// out of memory after minutes.
//
// The budget is, in this order: the environment variable
// ASYS_MEMORY_BUDGET (bytes, with an optional K, M or G suffix), the value
// set by setMemoryBudget, else the WebAssembly heap's maximum (2 GB) or the
// machine's physical memory. The whole budget, not what is free of it: a
// report's tables loaded by an earlier rule are counted again by the next
// rule's estimate, and refusing for that would refuse a rule that fits.
#include <cstdint>
#include <optional>
#include <string>

namespace asys {

uint64_t memoryBudget();
void setMemoryBudget(uint64_t bytes);

// "1.9 GB", "512.0 MB": one decimal, powers of 1024 written GB, MB, KB.
std::string bytesText(uint64_t bytes);

// "2G" -> 2147483648; nullopt when not a count of bytes.
std::optional<uint64_t> parseBytes(const std::string& text);

}  // namespace asys
