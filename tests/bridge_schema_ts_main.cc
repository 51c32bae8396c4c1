// Prints web/src/engine/bridge_schema.gen.ts (the bridge's enum names, from
// core/rules/bridge_schema.h); CTest BridgeSchemaUpToDate diffs it with the file.
#include <iostream>

#include "core/rules/bridge_schema.h"

int main() {
  std::cout << asys::bridgeSchemaTypeScript();
  return 0;
}
