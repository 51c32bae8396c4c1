#pragma once
// #include "core/rules/r.h" (a comment is no include)
#include "core/operators/o.h"
