#pragma once
// Included first by every generator source that does floating-point
// arithmetic: forbids fusing a*b+c into one FMA instruction, so that the same
// seed gives the same bytes whatever the compiler or -march (GCC fuses by
// default in C++ when the target has FMA; clang within an expression).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
