// Set: a set of field paths, the unit of ownership in server-side apply.
//
// The representation mirrors the shape of the object: each node keeps its
// members (paths that end here) and its children (paths that continue), both
// sorted by PathElement order. Union, intersection and difference are linear
// merges of sorted vectors; no node is ever stored empty.
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
#include "fieldpath/path.h"

namespace smdx {

class Set;

struct SetNode;

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
  // Number of member paths.
  size_t Size() const;

  // Calls `f` for every member path: members of a node before its children,
  // each in canonical order. The path passed is reused between calls.
  void Iterate(const std::function<void(const Path&)>& f) const;
  std::vector<Path> Paths() const;

  // Direct access to the tree, for encoders and typed walks.
  const std::vector<PathElement>& members() const { return members_; }
  const std::vector<SetNode>& children() const { return children_; }
  // Child set for `pe`, or nullptr.
  const Set* Child(const PathElement& pe) const;
  bool HasMember(const PathElement& pe) const;

  // Builders for bulk construction: append in any order, then Normalize()
  // once to sort and merge duplicates.
  void AppendMemberUnsorted(const PathElement& pe) { members_.push_back(pe); }
  void AppendMemberUnsorted(PathElement&& pe) {
    members_.push_back(std::move(pe));
  }
  void AppendChildUnsorted(PathElement pe, Set child);
  // Appends an empty child for `pe` and returns it, for a builder to fill in
  // place rather than build a Set elsewhere and move it in. The reference is
  // valid until this node's children change again.
  Set& AppendChildInPlace(PathElement&& pe);
  // Removes the child appended last and returns its element (for a builder
  // whose child stayed empty).
  PathElement PopLastChild();
  // Appends the members and children moved out of the given ranges, with
  // one exactly sized allocation each (for builders that collect a node in
  // scratch space first).
  void AppendMoved(absl::Span<PathElement> members,
                   absl::Span<SetNode> children);
  // Capacity for that many appended members and children.
  void Reserve(size_t members, size_t children) {
    members_.reserve(members);
    children_.reserve(children);
  }
  void Normalize();
  // Mutable child, created when missing. Keeps order.
  Set& Descend(const PathElement& pe);

  // One path per line, in iteration order.
  std::string ToString() const;

  friend bool operator==(const Set& a, const Set& b);
  friend bool operator!=(const Set& a, const Set& b) { return !(a == b); }

 private:
  static size_t Width(const Set& s);
  void IterateInto(Path* prefix,
                   const std::function<void(const Path&)>& f) const;

  std::vector<PathElement> members_;
  std::vector<SetNode> children_;
};

struct SetNode {
  PathElement pe;
  Set set;
};

inline Set& Set::AppendChildInPlace(PathElement&& pe) {
  // Assigned into an empty node, `pe` is moved once instead of twice.
  SetNode& n = children_.emplace_back();
  n.pe = std::move(pe);
  return n.set;
}

}  // namespace smdx

#endif  // SMDX_FIELDPATH_SET_H_
