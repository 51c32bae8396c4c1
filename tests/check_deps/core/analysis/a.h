#pragma once
#include "core/base/b.h"
#include "core/rules/r.h"
