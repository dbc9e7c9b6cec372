// Merge and Compare: one walk over two values of the same type.
//
// Both operations visit lhs and rhs together: maps by field, associative
// lists by item key, everything else (scalars, atomic lists and maps, and
// lists or maps that are empty on both sides) as a leaf. Merge keeps the rhs
// leaf when there is one; Compare records which paths were added, removed or
// modified.
//
// Merge shares nodes instead of building them: a leaf identical on both
// sides is taken from the lhs (the live object), and a map or list whose
// every entry comes out as the lhs's own (or every one as the rhs's) is
// that side's node. A live object and a configuration parsed apart (as in a
// server) then merge into a result that shares every unchanged subtree
// with the live object, which is what lets the later steps (the no-op
// check, defaulting, immutability checks) skip them as unchanged.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "smdx/typed/internal/typed.h"
#include "smdx/typed/typed.h"

namespace smdx {

namespace {

using internal::Narrowed;

// The type of an entry declared as `f` (or not, null) in `mt`.
const Atom* EntryAtom(const MapType& mt, const StructField* f) {
  if (f != nullptr) return f->type.resolved;
  return mt.element_type ? mt.element_type->resolved : nullptr;
}

// Lookup of map entries by key; hashes only large maps.
class MapLookup {
 public:
  explicit MapLookup(const Map* m) : m_(m) {
    constexpr size_t kHashThreshold = 16;
    if (m_ != nullptr && m_->size() > kHashThreshold) {
      index_.reserve(m_->size());
      for (const MapEntry& e : *m_) index_.emplace(e.key, &e.value);
    }
  }
  const Value* Find(absl::string_view key) const {
    if (m_ == nullptr) return nullptr;
    if (index_.empty()) return m_->Find(key);
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : it->second;
  }

 private:
  const Map* m_;
  absl::flat_hash_map<absl::string_view, const Value*> index_;
};

// The items of one side of a list, by path element.
struct IndexedList {
  struct Slot {
    const Value* first = nullptr;
    size_t first_pos = 0;  // position in `pes` of the first occurrence
    int count = 0;
    mutable bool merged = false;  // merge bookkeeping (right side)
  };
  // Hashes and compares the path elements stored in `pes`, so the index
  // needs no copies of them.
  struct PtrHash {
    using is_transparent = void;
    size_t operator()(const PathElement* pe) const {
      return HashPathElement(*pe);
    }
  };
  struct PtrEq {
    using is_transparent = void;
    bool operator()(const PathElement* a, const PathElement* b) const {
      return *a == *b;
    }
  };
  std::vector<PathElement> pes;  // one per item that has a path element
  std::vector<size_t> items;     // index of that item in the list
  absl::flat_hash_map<const PathElement*, Slot, PtrHash, PtrEq> observed;
  // Per entry of `pes`: its own slot, and the other side's slot for the
  // same element (null when the other side does not have it). Filled once
  // so that the walks below never hash an element again.
  std::vector<Slot*> own;
  std::vector<const Slot*> other;

  // The item of entry `k` when its element occurs exactly once.
  const Value* UniqueAt(size_t k) const {
    return own[k]->count == 1 ? own[k]->first : nullptr;
  }
  static const Value* UniqueOf(const Slot* s) {
    return s != nullptr && s->count == 1 ? s->first : nullptr;
  }

  const Slot* Find(const PathElement& pe) const {
    auto it = observed.find(&pe);
    return it == observed.end() ? nullptr : &it->second;
  }
  // The items of slot `s` of `list` (the list indexed; null when that side
  // has none, and then no slot), in order: none for no slot, and for an
  // element that occurs more than once all of its, grouped in one pass
  // over `pes` at the first call, so that a list of many repeated elements
  // takes linear time, not a scan per element.
  std::vector<const Value*> ItemsOf(const List* list, const Slot* s) const {
    if (s == nullptr) return {};
    if (s->count == 1) return {s->first};
    if (!grouped_) {
      for (size_t k = 0; k < pes.size(); ++k) {
        if (own[k]->count > 1) groups_[own[k]].push_back(&(*list)[items[k]]);
      }
      grouped_ = true;
    }
    return groups_.at(s);
  }

  // The item for `pe` when it occurs exactly once.
  const Value* Unique(const PathElement& pe) const {
    const Slot* s = Find(pe);
    return s != nullptr && s->count == 1 ? s->first : nullptr;
  }

 private:
  // ItemsOf's groups, made at its first call.
  mutable absl::flat_hash_map<const Slot*, std::vector<const Value*>> groups_;
  mutable bool grouped_ = false;
};

enum class Mode { kMerge, kCompare };

// What a merge walk produced for one node: nothing (`has` false), or the
// node, and whether it is the left side's own node or the right side's
// (both when the sides are one node), so that a parent whose children all
// come out as one side's own can share that side's node.
struct Produced {
  Value value;
  bool has = false;
  bool is_lhs = false;
  bool is_rhs = false;

  void Set(const Value& v, bool lhs_own, bool rhs_own) {
    value = v;
    has = true;
    is_lhs = lhs_own;
    is_rhs = rhs_own;
  }
};

class Walker {
 public:
  // `same`, when given (a merge), receives the right side's nodes whose
  // merge is the left side's identical node at the same place (NoteSame).
  // `skip_identical` (a merge) takes identical maps and lists below the
  // root whole from the left side, unwalked: nothing inside them is checked.
  Walker(Mode mode, Comparison* cmp, std::vector<TrustedNode>* same = nullptr,
         bool skip_identical = false)
      : mode_(mode), cmp_(cmp), same_(same), skip_identical_(skip_identical) {}

  // Walks one node; in merge mode `*out` is what it produced.
  void Walk(const Atom* atom, const Value* lhs, const Value* rhs,
            Produced* out) {
    out->has = out->is_lhs = out->is_rhs = false;
    if (lhs == nullptr && rhs == nullptr) return;
    if (mode_ == Mode::kMerge &&
        (rhs == nullptr || lhs == nullptr || lhs->IsNull())) {
      // Merging with nothing (or onto null) changes nothing: the result is
      // the side that is there, shared rather than rebuilt.
      out->Set(rhs == nullptr ? *lhs : *rhs, rhs == nullptr, rhs != nullptr);
      return;
    }
    if (lhs != nullptr && rhs != nullptr && SameNode(*lhs, *rhs)) {
      // One shared node on both sides: nothing changed below it, and the
      // merge of a value with itself is that value.
      if (mode_ == Mode::kMerge) {
        out->Set(*rhs, true, true);
      }
      return;
    }
    // Maps and lists alike on both sides (two parses of one object, as an
    // update's live and written objects and most of a re-applied
    // configuration are): a compare would find nothing added, removed or
    // modified below, entry by entry, and a merge would come out as the
    // left side's own node, at many times the cost of comparing the values.
    // (Not at the root, which is hardly ever alike.)
    if (lhs != nullptr && rhs != nullptr && !path_.empty() &&
        path_.size() < kMaxEqualsDepth && IsContainer(*lhs)) {
      // A compare notes where the first difference lies, so that the walk
      // below passes over what that comparison found alike instead of
      // comparing it again at every level (see OnLead). A node the lead
      // goes through is known to differ.
      if (mode_ == Mode::kCompare && !OnLead()) {
        lead_.clear();
        if (internal::EqualsNoting(*lhs, *rhs, &lead_)) return;
        std::reverse(lead_.begin(), lead_.end());
        lead_next_ = 0;
        lead_level_ = path_.size();
        lead_on_ = true;
      }
      // (Atomic ones go on as leaves, which note them in `same_`.)
      if (mode_ == Mode::kMerge && skip_identical_ && !IsAtomic(atom, *lhs) &&
          Identical(*lhs, *rhs)) {
        out->Set(*lhs, true, false);
        NoteSame(atom, lhs, rhs, *out);
        return;
      }
    }
    if (atom == nullptr) {
      Error("field not declared in schema");
      return;
    }
    Narrowed::Kind kl = internal::Narrow(atom, lhs).kind;
    Narrowed::Kind kr = internal::Narrow(atom, rhs).kind;
    if (kl != kr) {
      // The two sides are of different kinds (untyped data): the lhs kind is
      // walked for its side effects on the comparison, the rhs kind decides.
      Produced ignored;
      bool ignored_leaf = false;
      WalkKind(kl, atom, lhs, rhs, &ignored, &ignored_leaf);
    }
    bool in_leaf = false;
    WalkKind(kr, atom, lhs, rhs, out, &in_leaf);
    // A lead into this node or below it is spent.
    if (lead_on_ && lead_level_ >= path_.size()) lead_on_ = false;
    if (!in_leaf && mode_ == Mode::kCompare) {
      if (lhs == nullptr) {
        Record(Change::kAdded);
      } else if (rhs == nullptr) {
        Record(Change::kRemoved);
      }
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  // Below this depth a walk first asks whether two maps or lists are
  // equal (Walk). A merge, which follows no lead, compares the values up to
  // the change again at each level of a changed path, so a deep chain would
  // cost depth times its size: the depth bounds that, well below where
  // objects keep their fields.
  static constexpr size_t kMaxEqualsDepth = 16;

  static bool IsContainer(const Value& v) { return v.IsMap() || v.IsList(); }

  // The lead of a compare (EqualsNoting's positions, outermost first): the
  // node at depth lead_level_ is on it, and lead_[lead_next_] is the entry
  // or item of that node where the difference lies; everything before it
  // is alike. Set by the node that compared, followed down by the walks of
  // maps and aligned lists, and spent when the node it leads into is done.
  bool OnLead() const { return lead_on_ && lead_level_ == path_.size(); }
  // The position the lead gives for the children of the node being walked
  // (at depth path_.size()), or kNoLead.
  size_t LeadHere() const {
    return OnLead() && lead_next_ < lead_.size() ? lead_[lead_next_] : kNoLead;
  }
  static constexpr size_t kNoLead = ~size_t{0};
  // For a loop over the children of a node from `lead` (LeadHere(); the
  // ones before it are alike): where the loop starts, what to call before
  // child `i` (the lead goes on into child `lead`, and is spent after it),
  // and after the loop.
  static size_t LeadStart(size_t lead) { return lead == kNoLead ? 0 : lead; }
  void LeadStep(size_t i, size_t lead) {
    if (i == lead) {
      ++lead_next_;
      lead_level_ = path_.size() + 1;
    } else if (i == lead + 1) {
      lead_on_ = false;
    }
  }
  void LeadEnd(size_t lead) {
    if (lead != kNoLead) lead_on_ = false;
  }
  // Whether `atom` makes the map or list `v` atomic.
  static bool IsAtomic(const Atom* atom, const Value& v) {
    if (atom == nullptr) return false;
    return v.IsMap() ? atom->map != nullptr && atom->IsAtomicMap()
                     : atom->list != nullptr && atom->IsAtomicList();
  }

  void Error(absl::string_view msg) {
    Materialize();
    errors_.push_back(absl::StrCat(PathString(path_), ": ", msg));
  }

  void Leaf(const Value* lhs, const Value* rhs, Produced* out, bool* in_leaf) {
    if (*in_leaf) return;
    *in_leaf = true;
    if (mode_ == Mode::kMerge) {
      if (rhs != nullptr && lhs != nullptr && Identical(*lhs, *rhs)) {
        // Unchanged: the live side's value, so that the result shares it.
        out->Set(*lhs, true, false);
        return;
      }
      out->Set(rhs != nullptr ? *rhs : *lhs, rhs == nullptr, rhs != nullptr);
      return;
    }
    if (lhs == nullptr) {
      Record(Change::kAdded);
    } else if (rhs == nullptr) {
      Record(Change::kRemoved);
    } else if (!Equals(*lhs, *rhs)) {
      Record(Change::kModified);
    }
  }

  // After a leaf's merge, or a map or list taken whole: `rhs` came out as
  // the left side's value.
  void NoteSame(const Atom* atom, const Value* lhs, const Value* rhs,
                const Produced& out) {
    if (same_ != nullptr && lhs != nullptr && rhs != nullptr && out.has &&
        out.is_lhs) {
      same_->push_back(TrustedNode{rhs, atom, path_.size()});
    }
  }

  void WalkKind(Narrowed::Kind kind, const Atom* atom, const Value* lhs,
                const Value* rhs, Produced* out, bool* in_leaf) {
    switch (kind) {
      case Narrowed::kScalar:
        Leaf(lhs, rhs, out, in_leaf);
        return;
      case Narrowed::kList:
        WalkList(atom, lhs, rhs, out, in_leaf);
        return;
      case Narrowed::kMap:
        WalkMap(atom, lhs, rhs, out, in_leaf);
        return;
      case Narrowed::kNone:
        Error("schema error: invalid atom");
        return;
    }
  }

  void WalkMap(const Atom* atom, const Value* lhs, const Value* rhs,
               Produced* out, bool* in_leaf) {
    const Map* ml = lhs != nullptr && lhs->IsMap() ? &lhs->map() : nullptr;
    const Map* mr = rhs != nullptr && rhs->IsMap() ? &rhs->map() : nullptr;
    bool empty =
        (ml == nullptr || ml->empty()) && (mr == nullptr || mr->empty());
    if (atom->IsAtomicMap() || empty) {
      Leaf(lhs, rhs, out, in_leaf);
      NoteSame(atom, lhs, rhs, *out);
      return;
    }
    const MapType& mt = *atom->map;
    Map result;
    // A merge whose every entry comes out as the left side's own value, or
    // every one as the right side's, key for key, is that side's node: it is
    // shared instead of rebuilt (the left side preferred), and `result` is
    // only filled from the first entry that is neither, with `origin`
    // (bit 1: the left's value, bit 2: the right's) telling what came
    // before.
    bool share_l = mode_ == Mode::kMerge && ml != nullptr;
    bool share_r = mode_ == Mode::kMerge && ml != nullptr && mr != nullptr &&
                   ml->size() == mr->size();
    bool built = mode_ == Mode::kMerge && !share_l && !share_r;
    absl::InlinedVector<uint8_t, 16> origin;
    auto build = [&](size_t done) {
      share_l = share_r = false;
      built = true;
      result.Reserve((ml ? ml->size() : 0) + (mr ? mr->size() : 0));
      for (size_t j = 0; j < done; ++j) {
        const MapEntry& from =
            (origin[j] & 1) != 0 ? ml->entries()[j] : mr->entries()[j];
        result.Append(from.key, from.value);
      }
    };
    MapLookup rlook(mr);
    Produced child;
    size_t hint = 0;
    // Both sides mostly list the same keys in the same order (a live object
    // and a configuration derived from it): the entry at the same position
    // is tried before a search, and when all of them line up the right side
    // has no key of its own.
    bool aligned = ml != nullptr && mr != nullptr && ml->size() == mr->size();
    // A compare's lead: the entries before it are alike (and present on
    // both sides, in a map of one size), the one at it differs.
    const size_t lead = mode_ == Mode::kCompare ? LeadHere() : kNoLead;
    if (ml != nullptr) {
      for (size_t i = LeadStart(lead); i < ml->size(); ++i) {
        const MapEntry& e = ml->entries()[i];
        LeadStep(i, lead);
        const Value* r = nullptr;
        if (mr != nullptr && i < mr->size() && mr->entries()[i].key == e.key) {
          r = &mr->entries()[i].value;
        } else {
          aligned = false;
          r = rlook.Find(e.key);
        }
        const StructField* f = mt.FindFieldFrom(e.key, &hint);
        const Atom* child_atom = EntryAtom(mt, f);
        // Scalars on both sides (most entries) are leaves whatever their
        // type: a merge settles them here, and a compare an unchanged one,
        // without building their paths.
        bool settled = false;
        if (child_atom != nullptr && r != nullptr && e.value.IsScalar() &&
            r->IsScalar()) {
          if (mode_ == Mode::kCompare) {
            if (Equals(e.value, *r)) continue;
          } else {
            // What Leaf would give, without comparing the two again there.
            const bool same = Identical(e.value, *r);
            child.Set(same ? e.value : *r, same, !same);
            settled = true;
          }
        }
        if (!settled) {
          Push(internal::FieldElement(f, e.key));
          Walk(child_atom, &e.value, r, &child);
          Pop();
        }
        if (share_l || share_r) {
          // (share_r implies sides of one size, so entry i exists.)
          const bool l_ok = child.has && child.is_lhs;
          const bool r_ok = child.has && share_r && child.is_rhs &&
                            r == &mr->entries()[i].value;
          if (KeepSharing(l_ok, r_ok, &share_l, &share_r, &origin)) continue;
          build(i);
        }
        if (child.has && built) result.Append(e.key, std::move(child.value));
      }
    }
    LeadEnd(lead);
    if (mr != nullptr && !aligned) {
      MapLookup llook(ml);
      for (const MapEntry& e : *mr) {
        if (llook.Find(e.key) != nullptr) continue;
        const StructField* f = mt.FindField(e.key);
        Push(internal::FieldElement(f, e.key));
        Walk(EntryAtom(mt, f), nullptr, &e.value, &child);
        Pop();
        if (!child.has || mode_ != Mode::kMerge) continue;
        if (!built) build(ml != nullptr ? ml->size() : 0);
        result.Append(e.key, std::move(child.value));
      }
    }
    Finish(share_l, share_r, lhs, rhs, &result, out);
  }

  void Index(const Atom& atom, const List* list, IndexedList* idx) {
    if (list == nullptr) return;
    idx->pes.reserve(list->size());
    idx->items.reserve(list->size());
    idx->observed.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
      absl::StatusOr<PathElement> pe =
          internal::ListItemElement(atom, (*list)[i], i);
      if (!pe.ok()) {
        Error(absl::StrCat("element ", i, ": ", pe.status().message()));
        continue;
      }
      // `pes` was reserved, so pointers into it stay valid.
      idx->pes.push_back(*std::move(pe));
      idx->items.push_back(i);
      IndexedList::Slot& slot = idx->observed[&idx->pes.back()];
      if (slot.count++ == 0) {
        slot.first = &(*list)[i];
        slot.first_pos = idx->pes.size() - 1;
      }
      // `observed` was reserved for every item: slots do not move.
      idx->own.push_back(&slot);
    }
  }

  void WalkList(const Atom* atom, const Value* lhs, const Value* rhs,
                Produced* out, bool* in_leaf) {
    const List* ll = lhs != nullptr && lhs->IsList() ? &lhs->list() : nullptr;
    const List* lr = rhs != nullptr && rhs->IsList() ? &rhs->list() : nullptr;
    bool empty =
        (ll == nullptr || ll->empty()) && (lr == nullptr || lr->empty());
    if (atom->IsAtomicList() || empty) {
      Leaf(lhs, rhs, out, in_leaf);
      NoteSame(atom, lhs, rhs, *out);
      return;
    }
    if (ll == nullptr && lr == nullptr) return;
    if (ll != nullptr && lr != nullptr &&
        WalkAligned(*atom, *ll, *lr, *lhs, *rhs, out)) {
      return;
    }
    IndexedList il, ir;
    Index(*atom, ll, &il);
    Index(*atom, lr, &ir);
    il.other.resize(il.pes.size());
    for (size_t k = 0; k < il.pes.size(); ++k) il.other[k] = ir.Find(il.pes[k]);
    ir.other.resize(ir.pes.size());
    for (size_t k = 0; k < ir.pes.size(); ++k) ir.other[k] = il.Find(ir.pes[k]);
    const Atom* elem = atom->list->element_type.resolved;
    if (mode_ == Mode::kCompare) {
      CompareItems(elem, ll, lr, il, ir);
      return;
    }
    List result;
    MergeItems(elem, ll, lr, il, ir, &result);
    if (!result.empty()) out->Set(Value(std::move(result)), false, false);
  }

  // Lists whose items line up key for key (a re-apply or an update of a big
  // list, as it mostly is) are walked pair by pair: no index of either side,
  // and no path element for pairs that share their node. The general walk
  // gives the same result then; it still handles everything else (items
  // moved, added or removed, duplicated keys, items without keys).
  bool WalkAligned(const Atom& atom, const List& ll, const List& lr,
                   const Value& lhs, const Value& rhs, Produced* out) {
    if (!atom.IsAssociativeList() || ll.size() != lr.size()) return false;
    const size_t n = ll.size();
    std::vector<size_t> hashes(n);
    for (size_t i = 0; i < n; ++i) {
      size_t hr = 0;
      if (!internal::HashListItemKey(atom, ll[i], &hashes[i]) ||
          !internal::HashListItemKey(atom, lr[i], &hr) || hashes[i] != hr) {
        return false;
      }
      if (!SameNode(ll[i], lr[i]) &&
          !internal::SameListItemKey(atom, ll[i], lr[i])) {
        return false;
      }
    }
    // The sides have the same keys in the same order, so one side tells
    // whether any key repeats; equal hashes (repeats, or collisions) leave
    // it to the general walk.
    absl::flat_hash_set<size_t> seen;
    seen.reserve(n);
    for (size_t h : hashes) {
      if (!seen.insert(h).second) return false;
    }
    const Atom* elem = atom.list->element_type.resolved;
    // As in WalkMap: while every item comes out as the left side's own (or
    // every one as the right side's), that side's list is the result.
    List result;
    bool share_l = mode_ == Mode::kMerge;
    bool share_r = mode_ == Mode::kMerge;
    absl::InlinedVector<uint8_t, 16> origin;
    auto build = [&](size_t done) {
      share_l = share_r = false;
      result.reserve(n);
      for (size_t j = 0; j < done; ++j)
        result.push_back((origin[j] & 1) != 0 ? ll[j] : lr[j]);
    };
    // A compare's lead: the items before it are alike.
    const size_t lead = mode_ == Mode::kCompare ? LeadHere() : kNoLead;
    for (size_t i = LeadStart(lead); i < n; ++i) {
      LeadStep(i, lead);
      if (SameNode(ll[i], lr[i])) {
        if (share_l || share_r) {
          origin.push_back(3);
          continue;
        }
        if (mode_ == Mode::kMerge) result.push_back(ll[i]);
        continue;
      }
      if (mode_ != Mode::kMerge) {
        WalkItemLazy(elem, atom, i, &ll[i], &lr[i]);
        continue;
      }
      Produced item = WalkItemLazy(elem, atom, i, &ll[i], &lr[i]);
      if (share_l || share_r) {
        if (KeepSharing(item.has && item.is_lhs, item.has && item.is_rhs,
                        &share_l, &share_r, &origin)) {
          continue;
        }
        build(i);
      }
      if (item.has) result.push_back(std::move(item.value));
    }
    LeadEnd(lead);
    Finish(share_l, share_r, &lhs, &rhs, &result, out);
    return true;
  }

  // Per entry of a map or list merge that still shares a side: whether the
  // entry came out as the left side's own value (`l_ok`) or the right
  // side's (`r_ok`) keeps the sharing it fits. True while one is left, with
  // the entry's origin (bit 1: left, bit 2: right) noted for building the
  // result from it later.
  static bool KeepSharing(bool l_ok, bool r_ok, bool* share_l, bool* share_r,
                          absl::InlinedVector<uint8_t, 16>* origin) {
    *share_l = *share_l && l_ok;
    *share_r = *share_r && r_ok;
    if (!*share_l && !*share_r) return false;
    origin->push_back(static_cast<uint8_t>((l_ok ? 1 : 0) | (r_ok ? 2 : 0)));
    return true;
  }

  // The output of a map or list merge: the left side's node when every
  // entry came out as its own, else the right side's when every entry came
  // out as its own, else what was `built` (nothing when it is empty).
  template <typename Container>
  void Finish(bool share_l, bool share_r, const Value* lhs, const Value* rhs,
              Container* built, Produced* out) {
    if (share_l || share_r) {
      out->Set(share_l ? *lhs : *rhs, share_l, !share_l && share_r);
    } else if (mode_ == Mode::kMerge && !built->empty()) {
      out->Set(Value(std::move(*built)), false, false);
    }
  }

  void WalkItem(const Atom* elem, const PathElement& pe, const Value* l,
                const Value* r, List* result) {
    Push(pe);
    Produced child;
    Walk(elem, l, r, &child);
    Pop();
    if (child.has && result != nullptr)
      result->push_back(std::move(child.value));
  }

  // The walk of item `i` of both sides of an aligned list, with its path
  // element built only if needed.
  Produced WalkItemLazy(const Atom* elem, const Atom& list_atom, size_t i,
                        const Value* l, const Value* r) {
    PushLazyItem(list_atom, *r, i);
    Produced child;
    Walk(elem, l, r, &child);
    Pop();
    return child;
  }

  // Compare by path element. An item whose key occurs more than once on
  // either side (duplicates tolerated in updated objects) is compared as a
  // whole group: an unchanged group records nothing; a changed one is
  // modified, and a single item on the other side is walked against nothing
  // so that its own fields are released or claimed.
  void CompareItems(const Atom* elem, const List* ll, const List* lr,
                    const IndexedList& il, const IndexedList& ir) {
    // `k` is the element's first position in il.pes (left) or ir.pes.
    auto visit = [&](size_t k, bool left, int cl, int cr) {
      const PathElement& pe = left ? il.pes[k] : ir.pes[k];
      if (cl <= 1 && cr <= 1) {
        const Value* l = left ? il.UniqueAt(k) : nullptr;
        const Value* r =
            left ? IndexedList::UniqueOf(il.other[k]) : ir.UniqueAt(k);
        WalkItem(elem, pe, l, r, nullptr);
        return;
      }
      std::vector<const Value*> gl =
          il.ItemsOf(ll, left ? il.own[k] : nullptr);
      std::vector<const Value*> gr =
          ir.ItemsOf(lr, left ? il.other[k] : ir.own[k]);
      bool same = gl.size() == gr.size();
      for (size_t k = 0; same && k < gl.size(); ++k)
        same = Equals(*gl[k], *gr[k]);
      if (same) return;
      Push(pe);
      if (cl == 1) {
        Pop();
        WalkItem(elem, pe, gl[0], nullptr, nullptr);
        Push(pe);
        Record(Change::kModified);
      } else if (cr == 1) {
        Pop();
        WalkItem(elem, pe, nullptr, gr[0], nullptr);
        Push(pe);
      } else if (cl == 0) {
        Record(Change::kAdded);
      } else if (cr == 0) {
        Record(Change::kRemoved);
      } else {
        Record(Change::kModified);
      }
      Pop();
    };
    for (size_t k = 0; k < il.pes.size(); ++k) {
      const IndexedList::Slot* sl = il.own[k];
      if (sl->first_pos != k) continue;  // visited with its first occurrence
      const IndexedList::Slot* sr = il.other[k];
      visit(k, true, sl->count, sr != nullptr ? sr->count : 0);
    }
    for (size_t k = 0; k < ir.pes.size(); ++k) {
      const IndexedList::Slot* sr = ir.own[k];
      if (sr->first_pos != k || ir.other[k] != nullptr) continue;
      visit(k, false, 0, sr->count);
    }
  }

  // The merged order: items only on the left keep their place among their
  // neighbours, items on both sides follow the right's order, items only on
  // the right come where the right has them. A key duplicated on the left is
  // replaced as a whole by the right's item, or kept as is when the right
  // does not mention it.
  void MergeItems(const Atom* elem, const List* ll, const List* lr,
                  const IndexedList& il, const IndexedList& ir, List* result) {
    result->reserve(std::max(il.pes.size(), ir.pes.size()));
    // Positions in ir.pes of the items the left has too, in the right's order.
    std::vector<size_t> shared;
    for (size_t k = 0; k < ir.pes.size(); ++k) {
      if (ir.other[k] != nullptr) shared.push_back(k);
    }
    size_t next_shared = 0;
    auto next_is = [&](const PathElement& pe) {
      return next_shared < shared.size() && ir.pes[shared[next_shared]] == pe;
    };
    size_t li = 0, ri = 0;
    const size_t ln = il.pes.size(), rn = ir.pes.size();
    while (li < ln || ri < rn) {
      if (li < ln && ri < rn) {
        const PathElement& pe = il.pes[li];
        if (pe == ir.pes[ri]) {
          ir.own[ri]->merged = true;
          WalkItem(elem, pe, il.UniqueAt(li), &(*lr)[ir.items[ri]], result);
          ++li;
          ++ri;
          if (next_shared < shared.size()) ++next_shared;
          continue;
        }
        if (il.other[li] != nullptr && next_shared < shared.size() &&
            !next_is(pe)) {
          ++li;  // shared, but its turn comes with the right's order
          continue;
        }
      }
      if (li < ln) {
        if (il.other[li] == nullptr) {
          WalkItem(elem, il.pes[li], &(*ll)[il.items[li]], nullptr, result);
          ++li;
          continue;
        }
        if (il.other[li]->merged) {
          ++li;
          continue;
        }
      }
      if (ri < rn) {
        const PathElement& pe = ir.pes[ri];
        ir.own[ri]->merged = true;
        WalkItem(elem, pe, IndexedList::UniqueOf(ir.other[ri]),
                 &(*lr)[ir.items[ri]], result);
        ++ri;
        if (next_is(pe)) ++next_shared;
        continue;
      }
      // Only left items that the right already merged remain.
      ++li;
    }
  }

  void Push(PathElement pe) { path_.push_back(std::move(pe)); }
  void Pop() {
    path_.pop_back();
    if (!pending_.empty() && pending_.back().depth == path_.size())
      pending_.pop_back();
    for (size_t& v : valid_) v = std::min(v, path_.size());
  }
  // Pushes the element of item `index` of an associative list without
  // building it: most items walked record nothing, and the element (a key
  // block) is only made when something below needs the path.
  void PushLazyItem(const Atom& list_atom, const Value& item, size_t index) {
    path_.emplace_back();
    pending_.push_back(Pending{path_.size() - 1, &list_atom, &item, index});
  }
  void Materialize() {
    for (const Pending& p : pending_) {
      path_[p.depth] =
          *internal::ListItemElement(*p.list_atom, *p.item, p.index);
    }
    pending_.clear();
  }

  // Which of the comparison's sets a path goes to.
  enum class Change : int { kAdded = 0, kRemoved = 1, kModified = 2 };

  // Adds the current path to the comparison's set for `change`. The set
  // nodes along the current path are cached, so a record costs one
  // insertion instead of a walk from the root.
  void Record(Change change) {
    if (path_.empty()) return;
    Materialize();
    const int k = static_cast<int>(change);
    Set* roots[3] = {&cmp_->added, &cmp_->removed, &cmp_->modified};
    std::vector<Set*>& nodes = nodes_[k];
    if (nodes.empty()) nodes.push_back(roots[k]);
    size_t want = path_.size() - 1;  // the node holding the last element
    if (nodes.size() < path_.size()) nodes.resize(path_.size());
    for (size_t i = valid_[k]; i < want; ++i)
      nodes[i + 1] = &nodes[i]->Descend(path_[i]);
    valid_[k] = std::max(valid_[k], want);
    nodes[want]->Insert(absl::MakeConstSpan(&path_.back(), 1));
  }

  Mode mode_;
  Comparison* cmp_;
  std::vector<TrustedNode>* same_;
  bool skip_identical_;
  std::vector<uint32_t> lead_;
  size_t lead_next_ = 0;
  size_t lead_level_ = 0;
  bool lead_on_ = false;
  // Path elements not built yet (PushLazyItem), by depth in `path_`.
  struct Pending {
    size_t depth;
    const Atom* list_atom;
    const Value* item;
    size_t index;
  };
  std::vector<Pending> pending_;
  Path path_;
  std::vector<Set*> nodes_[3];
  size_t valid_[3] = {0, 0, 0};
  std::vector<std::string> errors_;
};

}  // namespace

Comparison CompareFields(const Type& type, const Value* lhs, const Value* rhs) {
  Comparison cmp;
  Walker w(Mode::kCompare, &cmp);
  Produced ignored;
  w.Walk(type.root(), lhs, rhs, &ignored);
  return cmp;
}

namespace {

absl::StatusOr<Value> MergeWalk(const Type& type, const Value* lhs,
                                const Value* rhs,
                                std::vector<TrustedNode>* same,
                                bool skip_identical) {
  Walker w(Mode::kMerge, nullptr, same, skip_identical);
  Produced out;
  w.Walk(type.root(), lhs, rhs, &out);
  if (!w.errors().empty()) {
    return absl::InvalidArgumentError(absl::StrJoin(w.errors(), "\n"));
  }
  return std::move(out.value);
}

}  // namespace

absl::StatusOr<Value> Merge(const Type& type, const Value* lhs,
                            const Value* rhs) {
  return MergeWalk(type, lhs, rhs, nullptr, /*skip_identical=*/false);
}

absl::StatusOr<Value> MergeNotingSame(const Type& type, const Value* lhs,
                                      const Value* rhs,
                                      std::vector<TrustedNode>* same) {
  return MergeWalk(type, lhs, rhs, same, /*skip_identical=*/true);
}

}  // namespace smdx
