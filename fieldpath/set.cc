#include "fieldpath/set.h"

#include <algorithm>

namespace smdx {

namespace {

const Set& EmptySet() {
  static const Set* const kEmpty = new Set();
  return *kEmpty;
}

std::vector<PathElement>::const_iterator FindMember(
    const std::vector<PathElement>& v, const PathElement& pe) {
  auto it = std::lower_bound(
      v.begin(), v.end(), pe,
      [](const PathElement& a, const PathElement& b) { return a < b; });
  if (it != v.end() && *it == pe) return it;
  return v.end();
}

std::vector<SetNode>::const_iterator LowerChild(const std::vector<SetNode>& v,
                                                const PathElement& pe) {
  return std::lower_bound(
      v.begin(), v.end(), pe,
      [](const SetNode& n, const PathElement& p) { return n.pe < p; });
}

// Sizes `v` for up to `n` results when that is many: growing a big node one
// push at a time moves it log n times, while reserving for small ones would
// allocate even when the result is empty (the common case of a difference).
template <typename T>
void ReserveForLargeOutput(std::vector<T>* v, size_t n) {
  constexpr size_t kLarge = 64;
  if (n >= kLarge) v->reserve(n);
}

}  // namespace

// Members plus children of the top node: the width a linear merge walks.
size_t Set::Width(const Set& s) {
  return s.members_.size() + s.children_.size();
}

bool Set::HasMember(const PathElement& pe) const {
  return FindMember(members_, pe) != members_.end();
}

const Set* Set::Child(const PathElement& pe) const {
  auto it = LowerChild(children_, pe);
  if (it != children_.end() && it->pe == pe) return &it->set;
  return nullptr;
}

Set& Set::Descend(const PathElement& pe) {
  auto it = std::lower_bound(
      children_.begin(), children_.end(), pe,
      [](const SetNode& n, const PathElement& p) { return n.pe < p; });
  if (it != children_.end() && it->pe == pe) return it->set;
  it = children_.insert(it, SetNode{pe, Set()});
  return it->set;
}

void Set::Insert(absl::Span<const PathElement> path) {
  if (path.empty()) return;
  Set* s = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) s = &s->Descend(path[i]);
  const PathElement& last = path.back();
  auto& m = s->members_;
  if (m.empty() || m.back() < last) {
    m.push_back(last);
    return;
  }
  auto it = std::lower_bound(
      m.begin(), m.end(), last,
      [](const PathElement& a, const PathElement& b) { return a < b; });
  if (it != m.end() && *it == last) return;
  m.insert(it, last);
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

void Set::AppendMoved(absl::Span<PathElement> members,
                      absl::Span<SetNode> children) {
  members_.reserve(members_.size() + members.size());
  for (PathElement& m : members) members_.push_back(std::move(m));
  children_.reserve(children_.size() + children.size());
  for (SetNode& c : children) children_.push_back(std::move(c));
}

void Set::AppendChildUnsorted(PathElement pe, Set child) {
  children_.push_back(SetNode{std::move(pe), std::move(child)});
}

PathElement Set::PopLastChild() {
  PathElement pe = std::move(children_.back().pe);
  children_.pop_back();
  return pe;
}

namespace {

// Sorts `v`: insertion sort for the few members of a typical object node
// (std::sort's setup costs more there), std::sort beyond.
template <typename T, typename Less>
void SortSmall(std::vector<T>& v, Less less) {
  constexpr size_t kSmall = 16;
  if (v.size() > kSmall) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  for (size_t i = 1; i < v.size(); ++i) {
    if (!less(v[i], v[i - 1])) continue;
    T x = std::move(v[i]);
    size_t j = i;
    for (; j > 0 && less(x, v[j - 1]); --j) v[j] = std::move(v[j - 1]);
    v[j] = std::move(x);
  }
}

}  // namespace

void Set::Normalize() {
  auto pe_less = [](const PathElement& a, const PathElement& b) {
    return a < b;
  };
  auto node_less = [](const SetNode& a, const SetNode& b) {
    return a.pe < b.pe;
  };
  // Builders mostly append in order already, without repeats: one pass of
  // three-way comparisons confirms it and nothing else is done.
  bool strict = true;
  for (size_t i = 1; i < members_.size() && strict; ++i)
    strict = Compare(members_[i - 1], members_[i]) < 0;
  if (!strict) {
    if (!std::is_sorted(members_.begin(), members_.end(), pe_less))
      SortSmall(members_, pe_less);
    members_.erase(std::unique(members_.begin(), members_.end()),
                   members_.end());
  }
  bool clean = true;
  for (size_t i = 0; i < children_.size() && clean; ++i) {
    clean = !children_[i].set.Empty() &&
            (i == 0 || Compare(children_[i - 1].pe, children_[i].pe) < 0);
  }
  if (clean) return;
  if (!std::is_sorted(children_.begin(), children_.end(), node_less)) {
    SortSmall(children_, node_less);
  }
  // Merge children that share an element and drop empty ones, compacting in
  // place: the kept ones are children_[0, kept).
  size_t kept = 0;
  for (size_t i = 0; i < children_.size(); ++i) {
    SetNode& n = children_[i];
    if (kept > 0 && children_[kept - 1].pe == n.pe) {
      children_[kept - 1].set = children_[kept - 1].set.Union(n.set);
    } else if (!n.set.Empty()) {
      if (kept != i) children_[kept] = std::move(n);
      ++kept;
    }
  }
  children_.erase(children_.begin() + kept, children_.end());
}

Set Set::Union(const Set& other) const {
  Set out;
  out.members_.reserve(members_.size() + other.members_.size());
  std::set_union(
      members_.begin(), members_.end(), other.members_.begin(),
      other.members_.end(), std::back_inserter(out.members_),
      [](const PathElement& a, const PathElement& b) { return a < b; });
  out.children_.reserve(children_.size() + other.children_.size());
  size_t i = 0, j = 0;
  while (i < children_.size() || j < other.children_.size()) {
    if (j == other.children_.size()) {
      out.children_.push_back(children_[i++]);
    } else if (i == children_.size()) {
      out.children_.push_back(other.children_[j++]);
    } else {
      int c = Compare(children_[i].pe, other.children_[j].pe);
      if (c < 0) {
        out.children_.push_back(children_[i++]);
      } else if (c > 0) {
        out.children_.push_back(other.children_[j++]);
      } else {
        out.children_.push_back(SetNode{
            children_[i].pe, children_[i].set.Union(other.children_[j].set)});
        ++i;
        ++j;
      }
    }
  }
  return out;
}

Set Set::Intersection(const Set& other) const {
  Set out;
  auto pe_less = [](const PathElement& a, const PathElement& b) {
    return a < b;
  };
  // A big set intersected with a small one (the fields a change touched
  // against a manager's whole set) looks the few up instead of walking
  // both.
  constexpr size_t kLopsided = 16;
  const Set& small = Width(*this) <= Width(other) ? *this : other;
  const Set& big = &small == this ? other : *this;
  if (Width(small) * kLopsided < Width(big)) {
    for (const PathElement& m : small.members_) {
      if (big.HasMember(m)) out.members_.push_back(m);
    }
    for (const SetNode& n : small.children_) {
      const Set* b = big.Child(n.pe);
      if (b == nullptr) continue;
      Set sub = n.set.Intersection(*b);
      if (!sub.Empty()) out.children_.push_back(SetNode{n.pe, std::move(sub)});
    }
    return out;
  }
  std::set_intersection(members_.begin(), members_.end(),
                        other.members_.begin(), other.members_.end(),
                        std::back_inserter(out.members_), pe_less);
  size_t i = 0, j = 0;
  while (i < children_.size() && j < other.children_.size()) {
    int c = Compare(children_[i].pe, other.children_[j].pe);
    if (c < 0) {
      ++i;
    } else if (c > 0) {
      ++j;
    } else {
      Set sub = children_[i].set.Intersection(other.children_[j].set);
      if (!sub.Empty())
        out.children_.push_back(SetNode{children_[i].pe, std::move(sub)});
      ++i;
      ++j;
    }
  }
  return out;
}

Set Set::Difference(const Set& other) const {
  Set out;
  ReserveForLargeOutput(&out.children_, children_.size());
  std::set_difference(
      members_.begin(), members_.end(), other.members_.begin(),
      other.members_.end(), std::back_inserter(out.members_),
      [](const PathElement& a, const PathElement& b) { return a < b; });
  size_t j = 0;
  for (const SetNode& n : children_) {
    while (j < other.children_.size() && other.children_[j].pe < n.pe) ++j;
    if (j < other.children_.size() && other.children_[j].pe == n.pe) {
      Set sub = n.set.Difference(other.children_[j].set);
      if (!sub.Empty()) out.children_.push_back(SetNode{n.pe, std::move(sub)});
    } else {
      out.children_.push_back(n);
    }
  }
  return out;
}

bool Set::IsSubsetOf(const Set& other) const {
  // Both sides are sorted: one forward pass over each list of the other.
  size_t j = 0;
  for (const PathElement& m : members_) {
    while (j < other.members_.size() && Compare(other.members_[j], m) < 0) ++j;
    if (j == other.members_.size() || other.members_[j] != m) return false;
    ++j;
  }
  j = 0;
  for (const SetNode& n : children_) {
    while (j < other.children_.size() &&
           Compare(other.children_[j].pe, n.pe) < 0)
      ++j;
    // A child with nothing of it in `other` is no subset, unless it is
    // empty (a normalized set has none).
    if (j == other.children_.size() || other.children_[j].pe != n.pe) {
      if (n.set.Empty()) continue;
      return false;
    }
    if (!n.set.IsSubsetOf(other.children_[j].set)) return false;
  }
  return true;
}

Set Set::RecursiveDifference(const Set& other) const {
  Set out;
  ReserveForLargeOutput(&out.children_, children_.size());
  std::set_difference(
      members_.begin(), members_.end(), other.members_.begin(),
      other.members_.end(), std::back_inserter(out.members_),
      [](const PathElement& a, const PathElement& b) { return a < b; });
  size_t j = 0;
  for (const SetNode& n : children_) {
    if (other.HasMember(n.pe)) continue;
    while (j < other.children_.size() && other.children_[j].pe < n.pe) ++j;
    if (j < other.children_.size() && other.children_[j].pe == n.pe) {
      Set sub = n.set.RecursiveDifference(other.children_[j].set);
      if (!sub.Empty()) out.children_.push_back(SetNode{n.pe, std::move(sub)});
    } else {
      out.children_.push_back(n);
    }
  }
  return out;
}

Set Set::Leaves() const {
  Set out;
  size_t c = 0;
  for (const PathElement& m : members_) {
    while (c < children_.size() && children_[c].pe < m) ++c;
    if (c < children_.size() && children_[c].pe == m) continue;
    out.members_.push_back(m);
  }
  for (const SetNode& n : children_) {
    Set sub = n.set.Leaves();
    if (!sub.Empty()) out.children_.push_back(SetNode{n.pe, std::move(sub)});
  }
  return out;
}

const Set& Set::WithPrefix(const PathElement& pe) const {
  const Set* s = Child(pe);
  return s != nullptr ? *s : EmptySet();
}

Set Set::WithPathPrefix(const PathElement& pe) const {
  Set out;
  if (!Empty()) out.children_.push_back(SetNode{pe, *this});
  return out;
}

bool Set::Empty() const {
  if (!members_.empty()) return false;
  for (const SetNode& n : children_) {
    if (!n.set.Empty()) return false;
  }
  return true;
}

size_t Set::Size() const {
  size_t n = members_.size();
  for (const SetNode& c : children_) n += c.set.Size();
  return n;
}

void Set::IterateInto(Path* prefix,
                      const std::function<void(const Path&)>& f) const {
  for (const PathElement& m : members_) {
    prefix->push_back(m);
    f(*prefix);
    prefix->pop_back();
  }
  for (const SetNode& n : children_) {
    prefix->push_back(n.pe);
    n.set.IterateInto(prefix, f);
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
  if (a.members_.size() != b.members_.size() ||
      a.children_.size() != b.children_.size()) {
    return false;
  }
  for (size_t i = 0; i < a.members_.size(); ++i) {
    if (a.members_[i] != b.members_[i]) return false;
  }
  for (size_t i = 0; i < a.children_.size(); ++i) {
    if (a.children_[i].pe != b.children_[i].pe ||
        a.children_[i].set != b.children_[i].set) {
      return false;
    }
  }
  return true;
}

}  // namespace smdx
