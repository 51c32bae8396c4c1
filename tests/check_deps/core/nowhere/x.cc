#include "core/base/b.h"
