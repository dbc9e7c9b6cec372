// Set: a set of field paths, the unit of ownership in server-side apply.
//
// The representation mirrors the shape of the object and of its fieldsV1
// encoding: a node is one list of entries sorted by PathElement order, and
// an entry says whether the path ending at its element is a member and
// holds the node of the paths that continue below it. A leaf costs no
// allocation; a node with anything below costs one. Union, intersection
// and difference are linear merges of sorted lists. No entry is ever
// stored empty (neither a member nor anything below).
//
// Example:
//   Set s;
//   s.Insert({PathElement::Field("spec"), PathElement::Field("replicas")});
//   s.Has({PathElement::Field("spec"), PathElement::Field("replicas")});  //
//   true s.Has({PathElement::Field("spec")}); // false
#ifndef SMDX_FIELDPATH_SET_H_
#define SMDX_FIELDPATH_SET_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "smdx/fieldpath/compact_vector.h"
#include "smdx/fieldpath/path.h"

namespace smdx {

struct SetEntry;

class Set {
 public:
  Set() = default;

  // Adds `path`. The empty path is ignored (no one owns the whole object).
  void Insert(absl::Span<const PathElement> path);
  // Whether `path` is a member. The empty path never is.
  bool Has(absl::Span<const PathElement> path) const;

  Set Union(const Set& other) const;
  Set Intersection(const Set& other) const;
  // Members of this set that are not members of `other`; children of a
  // removed member stay.
  Set Difference(const Set& other) const;
  // Like Difference, but a member of `other` also removes everything below it.
  Set RecursiveDifference(const Set& other) const;
  // Difference in place: removes the members of `other`, copying nothing
  // (for a few paths removed from a big set).
  void Subtract(const Set& other);
  // The members that have no members below them.
  Set Leaves() const;

  // The subtree below `pe` (empty when there is none).
  const Set& WithPrefix(const PathElement& pe) const;
  // Prefixes every member with `pe`.
  Set WithPathPrefix(const PathElement& pe) const;

  // Whether every member of this set is a member of `other` (the same as
  // Difference(other).Empty(), without building the difference).
  bool IsSubsetOf(const Set& other) const;

  bool Empty() const;
  // One empty set for the process, never destroyed (to point at where an
  // empty set is wanted and none is at hand).
  static const Set& EmptyInstance();
  // Number of member paths.
  size_t Size() const;

  // Calls `f` for every member path: members of a node before its children,
  // each in canonical order. The path passed is reused between calls.
  void Iterate(const std::function<void(const Path&)>& f) const;
  std::vector<Path> Paths() const;

  // Direct access to the tree, for encoders and typed walks: this node's
  // entries, in PathElement order.
  absl::Span<const SetEntry> entries() const;
  // Child set for `pe`, or nullptr when nothing is below it.
  const Set* Child(const PathElement& pe) const;
  bool HasMember(const PathElement& pe) const;

  // Builders for bulk construction: append in any order, then Normalize()
  // once to sort and merge duplicates.
  //
  // Appends an entry for `pe`, neither a member nor with anything below,
  // and returns it for the builder to fill in place (set `member`, build
  // `children`). The reference is valid until this node's entries change
  // again.
  SetEntry& AppendEntry(PathElement&& pe);
  void AppendMemberUnsorted(PathElement pe);
  // Removes the entry appended last and returns its element (for a builder
  // whose entry stayed empty).
  PathElement PopLastEntry();
  // Takes over `entries` by copying their bytes, with one exactly sized
  // allocation (for builders that collect a node in scratch space first):
  // the builder then forgets them, without destroying them. Set entries
  // may move so: nothing points into one.
  void AppendRelocated(absl::Span<SetEntry> entries);
  // Capacity for that many appended entries.
  void Reserve(size_t entries) { entries_.reserve(entries); }
  // Returns whether the entries were normalized already (nothing changed).
  bool Normalize();
  // Mutable child, created when missing. Keeps order.
  Set& Descend(const PathElement& pe);

  // One path per line, in iteration order.
  std::string ToString() const;

  friend bool operator==(const Set& a, const Set& b);
  friend bool operator!=(const Set& a, const Set& b) { return !(a == b); }

 private:
  void IterateInto(Path* prefix,
                   const std::function<void(const Path&)>& f) const;

  // The node's pointer holds, in a bit of its own, whether the entry that
  // owns this node is a member (see SetEntry); a set that is no entry's
  // children leaves it clear.
  friend struct SetEntry;

  internal::CompactVector<SetEntry> entries_;
};

// One element of a node: whether the path ending here is a member, and the
// paths that continue below it. 24 bytes: `member` is the flag bit of the
// pointer to the child node (internal::CompactVector::flag), which copies
// and moves of the node leave where it is and those of the entry carry.
struct SetEntry {
  SetEntry() = default;
  SetEntry(PathElement&& e, bool m) : pe(std::move(e)) { set_member(m); }
  SetEntry(const PathElement& e, bool m, Set c)
      : pe(e), children(std::move(c)) {
    set_member(m);
  }
  SetEntry(PathElement&& e, bool m, Set c)
      : pe(std::move(e)), children(std::move(c)) {
    set_member(m);
  }
  SetEntry(const SetEntry& o) : pe(o.pe), children(o.children) {
    set_member(o.member());
  }
  SetEntry(SetEntry&& o) noexcept
      : pe(std::move(o.pe)), children(std::move(o.children)) {
    set_member(o.member());
  }
  SetEntry& operator=(const SetEntry& o) {
    pe = o.pe;
    children = o.children;
    set_member(o.member());
    return *this;
  }
  SetEntry& operator=(SetEntry&& o) noexcept {
    pe = std::move(o.pe);
    children = std::move(o.children);
    set_member(o.member());
    return *this;
  }

  bool member() const { return children.entries_.flag(); }
  void set_member(bool m) { children.entries_.set_flag(m); }

  PathElement pe;
  Set children;
};

static_assert(sizeof(SetEntry) == 24, "an entry is an element and a pointer");

inline SetEntry& Set::AppendEntry(PathElement&& pe) {
  // Built in place: `pe` is moved once.
  return entries_.emplace_back(std::move(pe), false);
}

inline void Set::AppendRelocated(absl::Span<SetEntry> entries) {
  entries_.append_relocated(entries.data(), entries.size());
}

inline absl::Span<const SetEntry> Set::entries() const {
  return absl::Span<const SetEntry>(entries_.data(), entries_.size());
}

}  // namespace smdx

#endif  // SMDX_FIELDPATH_SET_H_
