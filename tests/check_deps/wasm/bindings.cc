#include "core/rules/r.h"
#include "core/top.h"
