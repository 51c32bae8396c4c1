// JsonWriter places commas and colons by structure (the bridge's rule list and
// summary are written with it): expected texts worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "core/base/json.h"

namespace asys {
namespace {

TEST(JsonWriter, NestsObjectsAndArraysWithCommasBetweenItemsOnly) {
  JsonWriter w;
  w.beginArray();
  w.beginObject().key("name").string("a\"b").key("n").integer(-9007199254740993).key("ok").boolean(false);
  w.key("none").null().strings("list", std::vector<std::string>{"x", "y"}).key("empty").beginArray().endArray();
  w.endObject();
  w.beginObject().endObject();
  w.endArray();
  EXPECT_EQ(w.text(),
            R"([{"name":"a\"b","n":-9007199254740993,"ok":false,"none":null,"list":["x","y"],"empty":[]},{}])");
}

TEST(JsonWriter, ABareValueAndAKeyedEmptyList) {
  JsonWriter scalar;
  scalar.string("t\n");
  EXPECT_EQ(scalar.text(), R"("t\n")");
  JsonWriter w;
  w.beginObject().strings("k", std::vector<std::string>{}).key("b").boolean(true).endObject();
  EXPECT_EQ(w.text(), R"({"k":[],"b":true})");
}

}  // namespace
}  // namespace asys
