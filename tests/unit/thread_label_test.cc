// A thread's row label names the thread once (issue 23): Kineto's thread
// names repeat the tid ("thread 25738 (python)"), Nsight's do not.
#include <gtest/gtest.h>

#include "core/timeline/pending.h"

namespace asys::timeline_detail {
namespace {

TEST(ThreadLabel, KinetoNameRepeatingTheTidIsNotRepeated) {
  EXPECT_EQ(threadLabelOf(25738, "thread 25738 (python)"), "Thread 25738 (python)");
  EXPECT_EQ(threadLabelOf(25738, "Thread 25738"), "Thread 25738");
  EXPECT_EQ(threadLabelOf(7, "THREAD 7: loader"), "Thread 7: loader");
}

TEST(ThreadLabel, OtherNamesInBrackets) {
  EXPECT_EQ(threadLabelOf(101, "python"), "Thread 101 (python)");
  EXPECT_EQ(threadLabelOf(101, ""), "Thread 101");
  // Another thread's number is a name like any other, not this thread's.
  EXPECT_EQ(threadLabelOf(25, "thread 257 (x)"), "Thread 25 (thread 257 (x))");
  EXPECT_EQ(threadLabelOf(25, "thread 2"), "Thread 25 (thread 2)");
}

}  // namespace
}  // namespace asys::timeline_detail
