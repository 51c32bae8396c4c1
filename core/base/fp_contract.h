#pragma once
// Included first by every source whose floating-point results must not
// depend on the compiler or the target: forbids fusing a*b+c into one FMA
// instruction (GCC fuses by default in C++ when the target has FMA; clang
// within an expression). The generator's sources (the same seed gives the
// same bytes whatever the compiler or -march), and the analysis and
// operator sources whose sums the CLI and the WebAssembly engine must print
// alike (pccl_desync.cc, utilisation.cc).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
