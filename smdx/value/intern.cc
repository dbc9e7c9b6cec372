#include "smdx/value/intern.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "smdx/value/emit.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

namespace {

using Interned = internal::InternedName;
static_assert(std::is_standard_layout_v<Interned>,
              "a name's address must be its Interned's address");

// Open addressing, linear probing, at most half full. Readers load the
// current table and probe it without a lock; the writer (under the lock)
// fills empty slots in place, or builds a table twice the size and
// publishes it. Old tables are kept, so a reader that loaded one before a
// publish still reads valid memory.
struct Table {
  explicit Table(size_t capacity)
      : mask(capacity - 1), slots(new std::atomic<const Interned*>[capacity]) {
    for (size_t i = 0; i < capacity; ++i)
      slots[i].store(nullptr, std::memory_order_relaxed);
  }
  const size_t mask;
  std::unique_ptr<std::atomic<const Interned*>[]> slots;
};

struct Interner {
  std::mutex mu;
  std::deque<Interned> names;               // guarded by mu; never shrinks
  std::vector<std::unique_ptr<Table>> all;  // guarded by mu; never shrinks
};

// The table readers probe: null until a name is interned. A namespace-scope
// atomic is initialized before any code runs, so a lookup (one per field
// name read) needs no guard for a function-local static.
std::atomic<const Table*> current_table{nullptr};

Interner& GetInterner() {
  static Interner* const interner = new Interner();
  return *interner;
}

// A name as lookups see it: two words of its bytes, which with its length
// are all of a name of up to 16 bytes (the first and last eight, which
// overlap below 16; below 8, the first and last four, or single bytes),
// and the first and last of a longer one. Field names are short: nearly
// every lookup compares these and its length, and hashes them, with no
// loop over the bytes.
struct NameWords {
  uint64_t head = 0;
  uint64_t tail = 0;
};

inline NameWords WordsOf(absl::string_view name) {
  const char* p = name.data();
  const size_t n = name.size();
  NameWords w;
  if (n >= 8) {
    w.head = internal::LoadWord(p);
    w.tail = internal::LoadWord(p + n - 8);
  } else if (n > 0) {
    w.head = internal::ShortWord(p, n);
  }
  return w;
}

inline size_t HashName(const NameWords& w, size_t size) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  const uint64_t h = ((w.head ^ size) * kMul ^ w.tail) * kMul;
  return static_cast<size_t>(h ^ (h >> 31));
}

inline const Interned* Probe(const Table& t, absl::string_view name,
                             const NameWords& w, size_t hash) {
  for (size_t i = hash & t.mask;; i = (i + 1) & t.mask) {
    const Interned* n = t.slots[i].load(std::memory_order_acquire);
    if (n == nullptr) return nullptr;
    if (n->head == w.head && n->tail == w.tail &&
        n->name.size() == name.size() &&
        (name.size() <= 16 ||
         internal::SameBytes(n->name.data() + 8, name.data() + 8,
                             name.size() - 16))) {
      return n;
    }
  }
}

void Place(Table* t, const Interned* n, size_t hash) {
  size_t i = hash & t->mask;
  while (t->slots[i].load(std::memory_order_relaxed) != nullptr)
    i = (i + 1) & t->mask;
  t->slots[i].store(n, std::memory_order_release);
}

}  // namespace

const std::string* FindInternedName(absl::string_view name) {
  const Table* t = current_table.load(std::memory_order_acquire);
  if (t == nullptr) return nullptr;
  const NameWords w = WordsOf(name);
  const Interned* n = Probe(*t, name, w, HashName(w, name.size()));
  return n == nullptr ? nullptr : &n->name;
}

const std::string* InternName(absl::string_view name) {
  Interner& in = GetInterner();
  std::lock_guard<std::mutex> lock(in.mu);
  const NameWords w = WordsOf(name);
  const size_t hash = HashName(w, name.size());
  Table* t = in.all.empty() ? nullptr : in.all.back().get();
  if (t != nullptr) {
    if (const Interned* n = Probe(*t, name, w, hash)) return &n->name;
  }
  Interned& added_name = in.names.emplace_back();
  added_name.name = std::string(name);
  added_name.plain = JsonStringIsPlain(name);
  added_name.head = w.head;
  added_name.tail = w.tail;
  std::memset(added_name.short_form, 0, sizeof(added_name.short_form));
  if (name.size() < sizeof(added_name.short_form)) {
    added_name.short_form[0] = static_cast<unsigned char>(name.size());
    std::memcpy(added_name.short_form + 1, name.data(), name.size());
  }
  const Interned* added = &in.names.back();
  constexpr size_t kFirstCapacity = 1024;
  if (t == nullptr || 2 * in.names.size() > t->mask + 1) {
    const size_t capacity = t == nullptr ? kFirstCapacity : 2 * (t->mask + 1);
    auto bigger = std::make_unique<Table>(capacity);
    for (const Interned& n : in.names) {
      Place(bigger.get(), &n,
            HashName(NameWords{n.head, n.tail}, n.name.size()));
    }
    in.all.push_back(std::move(bigger));
    current_table.store(in.all.back().get(), std::memory_order_release);
    return &added->name;
  }
  Place(t, added, hash);
  return &added->name;
}

}  // namespace smdx
