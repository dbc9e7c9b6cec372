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

// Field names are short: the hash for short byte strings.
inline size_t HashName(absl::string_view name) {
  return internal::HashBytes(name.data(), name.size());
}

inline const Interned* Probe(const Table& t, absl::string_view name,
                             size_t hash) {
  for (size_t i = hash & t.mask;; i = (i + 1) & t.mask) {
    const Interned* n = t.slots[i].load(std::memory_order_acquire);
    if (n == nullptr ||
        (n->name.size() == name.size() &&
         internal::SameBytes(n->name.data(), name.data(), name.size()))) {
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
  const Interned* n = Probe(*t, name, HashName(name));
  return n == nullptr ? nullptr : &n->name;
}

const std::string* InternName(absl::string_view name) {
  Interner& in = GetInterner();
  std::lock_guard<std::mutex> lock(in.mu);
  const size_t hash = HashName(name);
  Table* t = in.all.empty() ? nullptr : in.all.back().get();
  if (t != nullptr) {
    if (const Interned* n = Probe(*t, name, hash)) return &n->name;
  }
  in.names.push_back(Interned{std::string(name), JsonStringIsPlain(name)});
  const Interned* added = &in.names.back();
  constexpr size_t kFirstCapacity = 1024;
  if (t == nullptr || 2 * in.names.size() > t->mask + 1) {
    const size_t capacity = t == nullptr ? kFirstCapacity : 2 * (t->mask + 1);
    auto bigger = std::make_unique<Table>(capacity);
    for (const Interned& n : in.names)
      Place(bigger.get(), &n, HashName(n.name));
    in.all.push_back(std::move(bigger));
    current_table.store(in.all.back().get(), std::memory_order_release);
    return &added->name;
  }
  Place(t, added, hash);
  return &added->name;
}

}  // namespace smdx
