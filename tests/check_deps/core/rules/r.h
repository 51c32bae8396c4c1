#pragma once
#include "core/analysis/a.h"
#include "core/base/b.h"
