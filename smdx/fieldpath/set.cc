#include "smdx/fieldpath/set.h"

#include <algorithm>

#include "absl/base/attributes.h"
#include "smdx/fieldpath/sort_few.h"

namespace smdx {

namespace {

using Entries = absl::Span<const SetEntry>;

// The first entry of `v` not ordered before `pe`.
const SetEntry* LowerEntry(Entries v, const PathElement& pe) {
  return std::lower_bound(
      v.begin(), v.end(), pe,
      [](const SetEntry& e, const PathElement& p) { return e.pe < p; });
}

// The entry for `pe`, or null.
const SetEntry* FindEntry(Entries v, const PathElement& pe) {
  const SetEntry* it = LowerEntry(v, pe);
  if (it != v.end() && it->pe == pe) return it;
  return nullptr;
}

// Moves `*j` past the entries of `b` (sorted) that sort before `pe`, and
// says whether the entry it stops at is `pe`: one comparison per entry
// (a < and then an == would compare the entry it stops at twice, and two
// list items' keys cost a walk of their fields each time).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool SeekTo(
    const internal::CompactVector<SetEntry>& b, const PathElement& pe,
    size_t* j) {
  for (; *j < b.size(); ++*j) {
    const int c = Compare(b[*j].pe, pe);
    if (c >= 0) return c == 0;
  }
  return false;
}

// Whether an entry holds anything: a member, or a member below it.
bool Holds(bool member, const Set& children) {
  return member || !children.Empty();
}

// Sizes `v` for up to `n` results when that is many: growing a big node one
// push at a time moves it log n times, while reserving for small ones would
// allocate even when the result is empty (the common case of a difference).
void ReserveForLargeOutput(internal::CompactVector<SetEntry>* v, size_t n) {
  constexpr size_t kLarge = 64;
  if (n >= kLarge) v->reserve(n);
}

}  // namespace

bool Set::HasMember(const PathElement& pe) const {
  const SetEntry* e = FindEntry(entries(), pe);
  return e != nullptr && e->member();
}

const Set* Set::Child(const PathElement& pe) const {
  const SetEntry* e = FindEntry(entries(), pe);
  if (e == nullptr || e->children.entries_.empty()) return nullptr;
  return &e->children;
}

Set& Set::Descend(const PathElement& pe) {
  // The position is found in the read view; writing below may unshare
  // the node, so nothing of the view is kept past it.
  const absl::Span<const SetEntry> read = entries();
  const size_t i = static_cast<size_t>(LowerEntry(read, pe) - read.data());
  if (i < read.size() && read[i].pe == pe) return entries_[i].children;
  return entries_.emplace_at(i, pe, false, Set()).children;
}

void Set::Insert(absl::Span<const PathElement> path) {
  if (path.empty()) return;
  Set* s = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) s = &s->Descend(path[i]);
  const PathElement& last = path.back();
  internal::CompactVector<SetEntry>& v = s->entries_;
  const absl::Span<const SetEntry> read = s->entries();
  if (read.empty() || read.back().pe < last) {
    v.emplace_back(last, true, Set());
    return;
  }
  const size_t i = static_cast<size_t>(LowerEntry(read, last) - read.data());
  if (i < read.size() && read[i].pe == last) {
    v[i].set_member(true);
    return;
  }
  v.emplace_at(i, last, true, Set());
}

bool Set::Has(absl::Span<const PathElement> path) const {
  if (path.empty()) return false;
  const Set* s = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    s = s->Child(path[i]);
    if (s == nullptr) return false;
  }
  return s->HasMember(path.back());
}

void Set::AppendMemberUnsorted(PathElement pe) {
  entries_.emplace_back(std::move(pe), true);
}

PathElement Set::PopLastEntry() {
  PathElement pe = std::move(entries_.back().pe);
  entries_.pop_back();
  return pe;
}

bool Set::Normalize() {
  // Builders mostly append in order already, without repeats or empty
  // entries: one pass of three-way comparisons confirms it and nothing
  // else is done.
  // (Read through a const view: a shared node that is clean stays shared.)
  const internal::CompactVector<SetEntry>& read = entries_;
  bool clean = true;
  for (size_t i = 0; i < read.size() && clean; ++i) {
    const SetEntry& e = read[i];
    clean = Holds(e.member(), e.children) &&
            (i == 0 || Compare(read[i - 1].pe, e.pe) < 0);
  }
  if (clean) return true;
  auto less = [](const SetEntry& a, const SetEntry& b) { return a.pe < b.pe; };
  if (!std::is_sorted(read.begin(), read.end(), less)) {
    // Unstably: entries with one element are merged below, in any order.
    internal::SortFew(entries_.begin(), entries_.end(), less,
                      [](auto first, auto last, auto l) {
                        std::sort(first, last, l);
                      });
  }
  // Merge entries that share an element and drop empty ones, compacting in
  // place: the kept ones are entries_[0, kept).
  size_t kept = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    SetEntry& e = entries_[i];
    if (kept > 0 && entries_[kept - 1].pe == e.pe) {
      SetEntry& into = entries_[kept - 1];
      into.set_member(into.member() || e.member());
      into.children = into.children.Union(e.children);
    } else if (Holds(e.member(), e.children)) {
      if (kept != i) entries_[kept] = std::move(e);
      ++kept;
    }
  }
  entries_.truncate(kept);
  return false;
}

Set Set::Union(const Set& other) const {
  // Nodes that share a block are equal: the union of one is itself (a
  // copy shares it again), and so on below for the operations that follow.
  if (entries_.SharesWith(other.entries_)) return *this;
  Set out;
  const internal::CompactVector<SetEntry>& a = entries_;
  const internal::CompactVector<SetEntry>& b = other.entries_;
  out.entries_.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    int c = j == b.size() ? -1 : i == a.size() ? 1 : Compare(a[i].pe, b[j].pe);
    if (c < 0) {
      out.entries_.emplace_back(a[i++]);
    } else if (c > 0) {
      out.entries_.emplace_back(b[j++]);
    } else {
      out.entries_.emplace_back(a[i].pe, a[i].member() || b[j].member(),
                                a[i].children.Union(b[j].children));
      ++i;
      ++j;
    }
  }
  return out;
}

Set Set::Intersection(const Set& other) const {
  if (entries_.SharesWith(other.entries_)) return *this;
  Set out;
  // Keeps the common part of two entries for one element.
  auto both = [&out](const SetEntry& x, const SetEntry& y) {
    Set sub = x.children.Intersection(y.children);
    const bool member = x.member() && y.member();
    if (Holds(member, sub))
      out.entries_.emplace_back(x.pe, member, std::move(sub));
  };
  // A big set intersected with a small one (the fields a change touched
  // against a manager's whole set) looks the few up instead of walking
  // both.
  constexpr size_t kLopsided = 16;
  const Set& small = entries_.size() <= other.entries_.size() ? *this : other;
  const Set& big = &small == this ? other : *this;
  if (small.entries_.size() * kLopsided < big.entries_.size()) {
    for (const SetEntry& e : small.entries_) {
      const SetEntry* f = FindEntry(big.entries(), e.pe);
      if (f != nullptr) both(e, *f);
    }
    return out;
  }
  const internal::CompactVector<SetEntry>& a = entries_;
  const internal::CompactVector<SetEntry>& b = other.entries_;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    int c = Compare(a[i].pe, b[j].pe);
    if (c < 0) {
      ++i;
    } else if (c > 0) {
      ++j;
    } else {
      both(a[i++], b[j++]);
    }
  }
  return out;
}

Set Set::Difference(const Set& other) const {
  if (entries_.SharesWith(other.entries_)) return Set();
  Set out;
  ReserveForLargeOutput(&out.entries_, entries_.size());
  const internal::CompactVector<SetEntry>& b = other.entries_;
  size_t j = 0;
  for (const SetEntry& e : entries_) {
    if (!SeekTo(b, e.pe, &j)) {
      out.entries_.emplace_back(e);
      continue;
    }
    // Members below a removed member stay.
    const bool member = e.member() && !b[j].member();
    Set sub = e.children.Difference(b[j].children);
    if (Holds(member, sub)) {
      out.entries_.emplace_back(e.pe, member, std::move(sub));
    }
  }
  return out;
}

void Set::Subtract(const Set& other) {
  const internal::CompactVector<SetEntry>& b = other.entries_;
  size_t j = 0, kept = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    SetEntry& e = entries_[i];
    if (SeekTo(b, e.pe, &j)) {
      // Members below a removed member stay.
      e.set_member(e.member() && !b[j].member());
      e.children.Subtract(b[j].children);
    }
    if (!Holds(e.member(), e.children)) continue;
    if (kept != i) entries_[kept] = std::move(e);
    ++kept;
  }
  entries_.truncate(kept);
}

bool Set::IsSubsetOf(const Set& other) const {
  if (entries_.SharesWith(other.entries_)) return true;
  // Both sides are sorted: one forward pass over the other's entries.
  const internal::CompactVector<SetEntry>& b = other.entries_;
  size_t j = 0;
  for (const SetEntry& e : entries_) {
    if (!SeekTo(b, e.pe, &j)) {
      // Nothing of it in `other`: no subset, unless it holds nothing (a
      // normalized set has no such entry).
      if (Holds(e.member(), e.children)) return false;
      continue;
    }
    if (e.member() && !b[j].member()) return false;
    if (!e.children.IsSubsetOf(b[j].children)) return false;
  }
  return true;
}

Set Set::RecursiveDifference(const Set& other) const {
  if (entries_.SharesWith(other.entries_)) return Set();
  Set out;
  ReserveForLargeOutput(&out.entries_, entries_.size());
  const internal::CompactVector<SetEntry>& b = other.entries_;
  size_t j = 0;
  for (const SetEntry& e : entries_) {
    if (!SeekTo(b, e.pe, &j)) {
      out.entries_.emplace_back(e);
      continue;
    }
    // A member of `other` removes everything below it too.
    if (b[j].member()) continue;
    Set sub = e.children.RecursiveDifference(b[j].children);
    if (Holds(e.member(), sub)) {
      out.entries_.emplace_back(e.pe, e.member(), std::move(sub));
    }
  }
  return out;
}

Set Set::Leaves() const {
  Set out;
  for (const SetEntry& e : entries_) {
    // A member with members below it is no leaf (a normalized set holds no
    // empty children).
    const bool member = e.member() && e.children.entries_.empty();
    Set sub = e.children.Leaves();
    if (Holds(member, sub)) {
      out.entries_.emplace_back(e.pe, member, std::move(sub));
    }
  }
  return out;
}

const Set& Set::WithPrefix(const PathElement& pe) const {
  const SetEntry* e = FindEntry(entries(), pe);
  return e != nullptr ? e->children : EmptyInstance();
}

Set Set::WithPathPrefix(const PathElement& pe) const {
  Set out;
  if (!Empty()) out.entries_.emplace_back(pe, false, *this);
  return out;
}

bool Set::Empty() const {
  for (const SetEntry& e : entries_) {
    if (Holds(e.member(), e.children)) return false;
  }
  return true;
}

const Set& Set::EmptyInstance() {
  static const Set* const empty = new Set();
  return *empty;
}

size_t Set::Size() const {
  size_t n = 0;
  for (const SetEntry& e : entries_)
    n += (e.member() ? 1 : 0) + e.children.Size();
  return n;
}

void Set::IterateInto(Path* prefix,
                      const std::function<void(const Path&)>& f) const {
  for (const SetEntry& e : entries_) {
    if (!e.member()) continue;
    prefix->push_back(e.pe);
    f(*prefix);
    prefix->pop_back();
  }
  for (const SetEntry& e : entries_) {
    if (e.children.entries_.empty()) continue;
    prefix->push_back(e.pe);
    e.children.IterateInto(prefix, f);
    prefix->pop_back();
  }
}

void Set::Iterate(const std::function<void(const Path&)>& f) const {
  Path prefix;
  IterateInto(&prefix, f);
}

std::vector<Path> Set::Paths() const {
  std::vector<Path> out;
  Iterate([&](const Path& p) { out.push_back(p); });
  return out;
}

std::string Set::ToString() const {
  std::string out;
  Iterate([&](const Path& p) {
    out += PathString(p);
    out += "\n";
  });
  return out;
}

bool operator==(const Set& a, const Set& b) {
  if (a.entries_.SharesWith(b.entries_)) return true;
  if (a.entries_.size() != b.entries_.size()) return false;
  for (size_t i = 0; i < a.entries_.size(); ++i) {
    const SetEntry& x = a.entries_[i];
    const SetEntry& y = b.entries_[i];
    if (x.member() != y.member() || x.pe != y.pe || x.children != y.children)
      return false;
  }
  return true;
}

}  // namespace smdx
