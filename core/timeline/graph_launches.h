#pragma once
// The graph work a timeline's graph rows are made from (graph_rows.cc):
// each graph activity's table row and launch, and the launches' keys.
// Collected while the device tracks read the activity tables (timeline.cc),
// so that making the rows reads no table again (at 9.8 M kernels that
// second scan was 0.9 s natively, 2.0 s in the WebAssembly engine). Held
// from the build until the rows are made, then given back: 8 bytes a graph
// activity, and a launch's key (24 bytes) and index entry.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace asys {

class GraphLaunches {
 public:
  // A launch by what names it: (process, graph exec, correlation id).
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  // A graph activity of one activity table: its row and its launch (an
  // index into keys()).
  struct Activity {
    uint32_t row, launch;
    bool operator<(const Activity& o) const { return row < o.row; }
  };
  // The activity tables, in the order they are read.
  enum Table : int { kKernels = 0, kMemcpys = 1, kMemsets = 2 };

  GraphLaunches(size_t maxLaunches, size_t maxActivities) : maxLaunches_(maxLaunches), maxActivities_(maxActivities) {}
  // Row `row` of `table` ran from graph exec `exec`, launched by the call of
  // `correlationId` in process `pid`. Past a bound nothing more is kept and
  // refused() says why.
  void add(Table table, size_t row, int64_t pid, int64_t exec, int64_t correlationId);
  // Every activity added: the index by key goes, each table's activities
  // are in row order.
  void finish();
  // Why no graph rows are made (empty when they are).
  const std::string& refused() const { return refused_; }
  const std::vector<Key>& keys() const { return keys_; }
  const std::vector<Activity>& of(Table table) const { return work_[table]; }
  bool empty() const { return keys_.empty(); }

 private:
  size_t maxLaunches_, maxActivities_, activities_ = 0;
  std::string refused_;
  std::map<Key, uint32_t> index_;
  std::vector<Key> keys_;
  std::vector<Activity> work_[3];
};

}  // namespace asys
