#include "smdx/value/value.h"

#include <algorithm>
#include <cmath>

#include "smdx/value/same_bytes.h"

namespace smdx {

namespace {
// Whether `key` is `want`, compared inline (keys are short).
bool KeyIs(const std::string& key, absl::string_view want) {
  return key.size() == want.size() &&
         internal::SameBytes(key.data(), want.data(), want.size());
}
}  // namespace

const Value* Map::Find(absl::string_view key) const {
  for (const MapEntry& e : entries_) {
    if (KeyIs(e.key, key)) return &e.value;
  }
  return nullptr;
}

Value* Map::Find(absl::string_view key) {
  for (MapEntry& e : entries_) {
    if (KeyIs(e.key, key)) return &e.value;
  }
  return nullptr;
}

void Map::Set(absl::string_view key, Value v) {
  if (Value* existing = Find(key)) {
    *existing = std::move(v);
    return;
  }
  entries_.push_back(MapEntry{std::string(key), std::move(v)});
}

void Map::Append(std::string key, Value v) {
  entries_.push_back(MapEntry{std::move(key), std::move(v)});
}

bool Map::Erase(absl::string_view key) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->key == key) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

size_t Value::NodeCount() const {
  size_t n = 1;
  if (IsList()) {
    for (const Value& c : list()) n += c.NodeCount();
  } else if (IsMap()) {
    for (const MapEntry& e : map()) n += e.value.NodeCount();
  }
  return n;
}

namespace {

// Sorted views of a map's entries, for order-independent comparison.
std::vector<const MapEntry*> SortedEntries(const Map& m) {
  std::vector<const MapEntry*> out;
  out.reserve(m.size());
  for (const MapEntry& e : m) out.push_back(&e);
  std::sort(out.begin(), out.end(), [](const MapEntry* a, const MapEntry* b) {
    return a->key < b->key;
  });
  return out;
}

int CompareDoubles(double a, double b) {
  if (a > b) return 1;
  if (a < b) return -1;
  return 0;
}

// Equals (kStrict false) and Identical (true): one walk, which differ in
// numbers (equal across ints and floats, or by kind and bits) and maps (key
// order ignored, or entry by entry).
// `where`, when given, receives the positions that lead to the first
// difference found (internal::EqualsNoting); it is touched only on the way
// out of a false.
// (kNote: whether it does; Equals and Identical pay nothing for it.)
template <bool kStrict, bool kNote = false>
bool EqualsImpl(const Value& a, const Value& b, std::vector<uint32_t>* where);

// Out of line and cold: the walk that notes compares as fast as the one
// that does not, until it has found a difference.
[[gnu::noinline, gnu::cold]] void NoteAt(size_t i,
                                         std::vector<uint32_t>* where) {
  where->push_back(static_cast<uint32_t>(i));
}

// Notes position `i` on the way out of a difference.
template <bool kNote>
inline bool DiffersAt(size_t i, std::vector<uint32_t>* where) {
  if constexpr (kNote) NoteAt(i, where);
  return false;
}

// The walk over a long list of maps or lists: a map's node and then its
// entries are two loads, each waiting on the one before, and an object of
// a thousand items (the Endpoints of bench/) is bigger than the cache, so
// the walk spent a third of its time waiting on memory. Items a few places
// ahead are asked for in two steps: the node of the item kNodeAhead on (its
// address is in the list's own block), then the entries or items of the one
// kBlockAhead on, whose node the first step has brought in by then. Hints
// only; for short lists the walk ends before they would matter.
constexpr size_t kNodeAhead = 8;
constexpr size_t kBlockAhead = 4;
// At most this many cache lines of a block are asked for.
constexpr size_t kBlockLines = 8;

inline void PrefetchNode(const Value& v) {
  if (v.IsMap()) {
    __builtin_prefetch(&v.map());
  } else if (v.IsList()) {
    __builtin_prefetch(&v.list());
  }
}

inline void PrefetchLines(const void* begin, const void* end) {
  // By offsets within the block: an empty one may have no storage at all
  // (a null data()), where any offset is undefined.
  const char* const p = static_cast<const char*>(begin);
  const size_t size = static_cast<size_t>(static_cast<const char*>(end) - p);
  const size_t n = std::min(size, kBlockLines * 64);
  for (size_t at = 0; at < n; at += 64) __builtin_prefetch(p + at);
}

inline void PrefetchBlock(const Value& v) {
  if (v.IsMap()) {
    const Map::Entries& e = v.map().entries();
    PrefetchLines(e.data(), e.data() + e.size());
  } else if (v.IsList()) {
    const List& l = v.list();
    PrefetchLines(l.data(), l.data() + l.size());
  }
}

// A list item or map entry's value: strings (most leaves) are compared in
// place, without the call.
template <bool kStrict, bool kNote>
inline bool EqualsBelow(const Value& a, const Value& b,
                        std::vector<uint32_t>* where) {
  if (a.IsString() && b.IsString())
    return internal::SameString(a.AsString(), b.AsString());
  return EqualsImpl<kStrict, kNote>(a, b, where);
}

template <bool kNote>
bool MapEquals(const Map& a, const Map& b, std::vector<uint32_t>* where) {
  // Sizes and entries read once: the calls below could change them as far
  // as the compiler knows, which reloaded and divided them per entry.
  const size_t n = a.size();
  if (n != b.size()) return false;
  const MapEntry* const ea = a.entries().data();
  const MapEntry* const eb = b.entries().data();
  for (size_t i = 0; i < n; ++i) {
    const MapEntry& e = ea[i];
    // Maps compared are mostly in the same key order: the entry at the
    // same position is tried before a search.
    const Value* other =
        internal::SameString(eb[i].key, e.key) ? &eb[i].value : b.Find(e.key);
    if (other == nullptr || !EqualsBelow<false, kNote>(e.value, *other, where))
      return DiffersAt<kNote>(i, where);
  }
  return true;
}

// SMD walks the union of both key sets in lexical order. The first key where
// the maps differ decides: running out of entries first makes a map smaller,
// and a key missing on one side makes that side larger.
int MapCompare(const Map& a, const Map& b) {
  if (a.empty() && b.empty()) return 0;
  auto sa = SortedEntries(a);
  auto sb = SortedEntries(b);
  size_t i = 0, j = 0, pos = 0;
  while (i < sa.size() || j < sb.size()) {
    const MapEntry* ea = nullptr;
    const MapEntry* eb = nullptr;
    if (i < sa.size() && j < sb.size()) {
      int c = sa[i]->key.compare(sb[j]->key);
      if (c == 0) {
        ea = sa[i++];
        eb = sb[j++];
      } else if (c < 0) {
        ea = sa[i++];
      } else {
        eb = sb[j++];
      }
    } else if (i < sa.size()) {
      ea = sa[i++];
    } else {
      eb = sb[j++];
    }
    int c;
    if (pos == sa.size()) {
      c = -1;
    } else if (pos == sb.size()) {
      c = 1;
    } else if (ea == nullptr) {
      c = 1;
    } else if (eb == nullptr) {
      c = -1;
    } else {
      c = Compare(ea->value, eb->value);
    }
    ++pos;
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace

namespace {

template <bool kStrict, bool kNote>
bool EqualsImpl(const Value& a, const Value& b, std::vector<uint32_t>* where) {
  if (SameNode(a, b)) return true;
  if (!kStrict && (a.IsFloat() || b.IsFloat())) {
    if (!a.IsNumber() || !b.IsNumber()) return false;
    return a.AsNumber() == b.AsNumber();
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kBool:
      return a.AsBool() == b.AsBool();
    case Value::Kind::kInt:
      return a.AsInt() == b.AsInt();
    case Value::Kind::kFloat: {
      const double x = a.AsFloat();
      const double y = b.AsFloat();
      if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
      return x == y && std::signbit(x) == std::signbit(y);
    }
    case Value::Kind::kString:
      return internal::SameString(a.AsString(), b.AsString());
    case Value::Kind::kList: {
      const size_t n = a.list().size();
      if (n != b.list().size()) return false;
      const Value* const la = a.list().data();
      const Value* const lb = b.list().data();
      for (size_t i = 0; i < n; ++i) {
        if (i + kNodeAhead < n) {
          PrefetchNode(la[i + kNodeAhead]);
          PrefetchNode(lb[i + kNodeAhead]);
        }
        if (i + kBlockAhead < n) {
          PrefetchBlock(la[i + kBlockAhead]);
          PrefetchBlock(lb[i + kBlockAhead]);
        }
        if (!EqualsBelow<kStrict, kNote>(la[i], lb[i], where))
          return DiffersAt<kNote>(i, where);
      }
      return true;
    }
    case Value::Kind::kMap: {
      if (!kStrict) return MapEquals<kNote>(a.map(), b.map(), where);
      const size_t n = a.map().size();
      if (n != b.map().size()) return false;
      const MapEntry* const ma = a.map().entries().data();
      const MapEntry* const mb = b.map().entries().data();
      for (size_t i = 0; i < n; ++i) {
        const MapEntry& ea = ma[i];
        const MapEntry& eb = mb[i];
        if (!internal::SameString(ea.key, eb.key) ||
            !EqualsBelow<kStrict, kNote>(ea.value, eb.value, where)) {
          return DiffersAt<kNote>(i, where);
        }
      }
      return true;
    }
  }
  return false;
}

}  // namespace

bool Equals(const Value& a, const Value& b) {
  return EqualsImpl<false>(a, b, nullptr);
}

bool Identical(const Value& a, const Value& b) {
  return EqualsImpl<true>(a, b, nullptr);
}

namespace internal {
bool EqualsNoting(const Value& a, const Value& b,
                  std::vector<uint32_t>* where) {
  return EqualsImpl<false, true>(a, b, where);
}
}  // namespace internal

namespace {
// Rank of a kind in SMD's order; ints and floats share the number rank.
int KindRank(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      return 0;
    case Value::Kind::kString:
      return 1;
    case Value::Kind::kBool:
      return 2;
    case Value::Kind::kList:
      return 3;
    case Value::Kind::kMap:
      return 4;
    case Value::Kind::kNull:
      return 5;
  }
  return 6;
}
}  // namespace

int Compare(const Value& a, const Value& b) {
  int ra = KindRank(a), rb = KindRank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.kind()) {
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      if (a.IsInt() && b.IsInt()) {
        return a.AsInt() < b.AsInt() ? -1 : (a.AsInt() > b.AsInt() ? 1 : 0);
      }
      return CompareDoubles(a.AsNumber(), b.AsNumber());
    case Value::Kind::kString: {
      int c = a.AsString().compare(b.AsString());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Value::Kind::kBool:
      if (a.AsBool() == b.AsBool()) return 0;
      return a.AsBool() ? 1 : -1;
    case Value::Kind::kList: {
      const List& la = a.list();
      const List& lb = b.list();
      for (size_t i = 0;; ++i) {
        if (i == la.size() && i == lb.size()) return 0;
        if (i == la.size()) return -1;
        if (i == lb.size()) return 1;
        if (int c = Compare(la[i], lb[i]); c != 0) return c;
      }
    }
    case Value::Kind::kMap:
      return MapCompare(a.map(), b.map());
    case Value::Kind::kNull:
      return 0;
  }
  return 0;
}

absl::string_view KindName(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBool:
      return "boolean";
    case Value::Kind::kInt:
      return "integer";
    case Value::Kind::kFloat:
      return "float";
    case Value::Kind::kString:
      return "string";
    case Value::Kind::kList:
      return "list";
    case Value::Kind::kMap:
      return "map";
  }
  return "unknown";
}

const Value* Find(const Value& v, absl::string_view key) {
  return v.IsMap() ? v.map().Find(key) : nullptr;
}

const std::string* FindString(const Value& v, absl::string_view key) {
  const Value* f = Find(v, key);
  return f != nullptr && f->IsString() ? &f->AsString() : nullptr;
}

std::string StringAt(const Value& v, absl::string_view key) {
  const std::string* s = FindString(v, key);
  return s != nullptr ? *s : std::string();
}

}  // namespace smdx
