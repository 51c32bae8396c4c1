#include "core/operators/o.h"
#include "core/timeline/t.h"
