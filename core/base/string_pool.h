#pragma once
// Every name of a report, identified by its text: StringIds rows, inline
// `text` cells and labels the loaders read all end up as one dense id per
// distinct text, so two ids never name the same string (a name stored inline
// in one row and through StringIds in the next is one name, and so are two
// StringIds rows that repeat a text). Lookups hash the text in place: adding
// a name that is already there allocates nothing.
//
// Lean for a report's million names (docs/big-reports.md, "The string pool
// made lean"): the texts are kept in blocks of kBlockBytes, so the pool never
// copies them to grow; an id costs 4 bytes (where its text starts; its length
// is where the next text starts, or its block's end) and its index slot 8
// (kept at most three quarters full).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace asys {

constexpr uint32_t kNoString = 0xFFFFFFFFu;

class StringPool {
 public:
  StringPool();
  // A copy holds its own blocks (a Table, and its texts, may be copied).
  StringPool(const StringPool& other);
  StringPool& operator=(const StringPool& other);
  StringPool(StringPool&&) = default;
  StringPool& operator=(StringPool&&) = default;

  // Empty again, its memory given back. Assigning an empty pool would not
  // give back its texts: libstdc++'s std::string keeps its buffer when
  // assigned a short one (15.7 MB of range names at scale 250).
  void release() {
    StringPool fresh;
    std::swap(*this, fresh);
  }

  // The text of an id; "" for kNoString.
  std::string_view get(uint32_t id) const;

  // Transient texts (docs/big-reports.md, "The range texts"): a reader that
  // needs texts only while it runs (the association's choice of ranges)
  // interns them into a pool of its own and tags their ids with kOverlayBit;
  // while that pool is this one's overlay, get() reads tagged ids there, so
  // code that reads names by id need not know. Ids of this pool stay below
  // the bit. A tagged id is never stored past the overlay's life.
  static constexpr uint32_t kOverlayBit = 0x80000000u;
  static bool tagged(uint32_t id) { return id != kNoString && (id & kOverlayBit) != 0; }
  void setOverlay(const StringPool* overlay) { overlay_ = overlay; }
  // The id of a text, added when new.
  uint32_t intern(std::string_view s);
  // A new id for `s`, without looking for an equal text: for a pool that is
  // filled once, read by id and dropped (a writer's chunk of a view's rows),
  // where hashing and probing every cell cost more than the copies they
  // save (a fifth of the CPU of the fleet's 55 MB hgtx_sum CSV,
  // docs/fleet.md). Such a pool may hold a text twice, so it is never
  // interned into (Table::appendTexts).
  uint32_t append(std::string_view s);
  // Ids given so far (the texts forgotten included).
  size_t size() const { return base_ + start_.size(); }
  // Every text forgotten, its memory kept for the next ones, the ids going
  // on from where they were, so that no id is given twice (a cache by id
  // stays right): transient texts read a chunk of rows at a time (the
  // association's choice of ranges, as the scan finds them). A forgotten
  // id reads as "".
  void forget();

  // StringIds: `storedId` (the file's id) names `s`. Ids are kept apart from
  // the pool's own, so a file's id 7 need not be pool id 7.
  void addStored(int64_t storedId, std::string_view s);
  // The pool id of a file's string id; kNoString when the file has no such
  // id. Inline: every name cell of a table load asks.
  uint32_t fromStored(int64_t storedId) const {
    if (storedId >= 0 && static_cast<uint64_t>(storedId) < storedDirect_.size()) return storedDirect_[storedId];
    return fromStoredSparse(storedId);
  }
  // Stored texts a reader is told about, kept as stored either way: not
  // UTF-8, or holding a NUL. Few or none, in addStored order.
  struct OddText {
    uint32_t id;
    int64_t storedId;
    bool notUtf8, nul;
  };
  const std::vector<OddText>& oddTexts() const { return odd_; }

  // Before a run of addStored: the largest id, to size a direct table.
  void reserveStored(int64_t maxStoredId, size_t count);

  // Texts are placed in blocks of this size; a text longer than a block has
  // a block of its own. Public for the tests of its edges.
  static constexpr unsigned kBlockBits = 20;
  static constexpr size_t kBlockBytes = size_t{1} << kBlockBits;

 private:
  // A text's place: blocks are numbered, block b holding the places
  // [b * kBlockBytes, (b + 1) * kBlockBytes) (a long text's block takes the
  // numbers its length needs); a text never crosses from one block into the
  // next, so a place is its block's number and the offset in it.
  uint64_t startOf(uint32_t local) const {
    if (wraps_.empty()) return start_[local];
    return startHigh(local) | start_[local];
  }
  uint64_t startHigh(uint32_t local) const;
  std::string_view text(uint32_t local) const;
  uint32_t find(std::string_view s, uint64_t hash, size_t& slot) const;
  uint32_t fromStoredSparse(int64_t storedId) const;
  uint32_t place(std::string_view s);  // copies s, gives its local id
  void openBlock(size_t bytes);
  void rehash(size_t slots);           // an index of `slots` slots (a power of two)

  std::vector<std::unique_ptr<char[]>> blocks_;  // by block number; none for the numbers a long text also takes
  std::vector<uint32_t> blockEnd_;               // by block number: where its last text ends, from its start
  std::vector<std::unique_ptr<char[]>> spare_;   // full-size blocks kept by forget()
  size_t lastBlock_ = 0;                         // the block texts go to (blocks_ not empty)
  size_t firstCapacity_ = 0;  // block 0's bytes: a small pool's block grows by doubling up to kBlockBytes
  std::vector<uint32_t> start_;  // by id: the low 32 bits of its text's place
  std::vector<uint32_t> wraps_;  // the first local id placed in each further 4 GiB of places (a pool of more)
  std::vector<uint64_t> slots_;  // open addressing: the hash's high 32 bits, then local id + 1; 0 = empty
  std::vector<uint32_t> storedDirect_;                  // file id -> pool id, for dense file ids
  std::unordered_map<int64_t, uint32_t> storedSparse_;  // for the others
  std::vector<OddText> odd_;
  const StringPool* overlay_ = nullptr;
  uint32_t base_ = 0;  // the first id of start_[0] (forget())
};

}  // namespace asys
