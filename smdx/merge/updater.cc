#include "smdx/merge/updater.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/typed/default.h"
#include "smdx/typed/immutable.h"

namespace smdx {

absl::string_view ErrorKindName(ErrorKind k) {
  switch (k) {
    case ErrorKind::kNone:
      return "none";
    case ErrorKind::kInvalid:
      return "invalid";
    case ErrorKind::kConflict:
      return "conflict";
    case ErrorKind::kImmutable:
      return "immutable";
    case ErrorKind::kBadRequest:
      return "badRequest";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "?";
}

namespace {

OpResult Fail(ErrorKind kind, absl::Status status) {
  OpResult r;
  r.kind = kind;
  r.status = std::move(status);
  return r;
}

OpResult Immutable(const std::vector<ImmutabilityViolation>& violations) {
  OpResult r = Fail(ErrorKind::kImmutable, ImmutabilityError(violations));
  for (const ImmutabilityViolation& v : violations)
    r.error_paths.push_back(v.path);
  return r;
}

OpResult Invalid(absl::string_view what, const absl::Status& st) {
  return Fail(ErrorKind::kInvalid, absl::InvalidArgumentError(
                                       absl::StrCat(what, ": ", st.message())));
}

Set FilterIgnored(Set s, const Set* ignored) {
  if (ignored == nullptr || ignored->Empty()) return s;
  return s.RecursiveDifference(*ignored);
}

}  // namespace

Updater::Updater(Type type, UpdaterOptions opts)
    : type_(std::move(type)), opts_(std::move(opts)) {}

const Set* Updater::Ignored(const std::string& version) const {
  auto it = opts_.ignored_fields.find(version);
  return it == opts_.ignored_fields.end() ? nullptr : &it->second;
}

absl::StatusOr<Value> Updater::Convert(const Value& v,
                                       const std::string& version) const {
  if (opts_.converter == nullptr) return v;
  return opts_.converter->Convert(v, version);
}

const Type& Updater::TypeAt(const std::string& version) const {
  if (opts_.converter != nullptr) {
    if (const Type* t = opts_.converter->TypeAt(version)) return *t;
  }
  return type_;
}

void Updater::MarkReconciled(ManagedFields* managers) const {
  for (auto& entry : *managers) {
    const Type& t = TypeAt(entry.second.api_version());
    entry.second.MarkReconciled(t.schema().id(), t.root());
  }
}

absl::StatusOr<ManagedFields> Updater::Reconcile(
    const Value& live, const ManagedFields& managers) const {
  ManagedFields out;
  // Whether the live object converts to each version (once per version, of
  // which there are few: the conversion's result is not needed, its failure
  // is).
  std::vector<std::pair<absl::string_view, absl::Status>> converts;
  for (const auto& [name, vs] : managers) {
    if (opts_.converter != nullptr) {
      const std::string& version = vs.api_version();
      auto it = std::find_if(converts.begin(), converts.end(),
                             [&](auto& c) { return c.first == version; });
      if (it == converts.end()) {
        converts.emplace_back(version, Convert(live, version).status());
        it = converts.end() - 1;
      }
      if (absl::IsNotFound(it->second)) continue;  // obsolete version: dropped
      if (!it->second.ok()) return it->second;
    }
    const Type& t = TypeAt(vs.api_version());
    if (vs.IsReconciledFor(t.schema().id(), t.root())) {
      out.emplace(name, vs);  // made by this type's operations already
      continue;
    }
    std::optional<Set> reconciled = ReconcileFieldSetWithSchema(t, vs.set());
    if (reconciled) {
      out.emplace(name, VersionedSet(*std::move(reconciled), vs.api_version(),
                                     vs.applied()));
    } else {
      out.emplace(name, vs);
    }
  }
  return out;
}

namespace {

// `st` with `prefix` before its message, unless it is NotFound (a version
// that no longer exists, which callers tell by its code).
absl::Status Prefixed(absl::string_view prefix, const absl::Status& st) {
  if (absl::IsNotFound(st)) return st;
  return absl::Status(st.code(), absl::StrCat(prefix, st.message()));
}

}  // namespace

OpResult Updater::Transfer(const Value& old_obj, const Value& new_obj,
                           const std::string& version, ManagedFields managers,
                           const std::string& manager, bool force,
                           Comparison* compare) const {
  auto compare_at = [&](const std::string& v) -> absl::StatusOr<Comparison> {
    Comparison c;
    if (opts_.converter == nullptr || v == version) {
      c = CompareFields(type_, &old_obj, &new_obj);
    } else {
      // (SMD's messages; a version that no longer exists stays NotFound.)
      absl::StatusOr<Value> o = Convert(old_obj, v);
      if (!o.ok())
        return Prefixed("failed to convert old object: ", o.status());
      absl::StatusOr<Value> n = Convert(new_obj, v);
      if (!n.ok())
        return Prefixed("failed to convert new object: ", n.status());
      c = CompareFields(TypeAt(v), &*o, &*n);
    }
    if (const Set* ignored = Ignored(v)) {
      c.added = FilterIgnored(std::move(c.added), ignored);
      c.removed = FilterIgnored(std::move(c.removed), ignored);
      c.modified = FilterIgnored(std::move(c.modified), ignored);
    }
    return c;
  };

  std::map<std::string, Comparison> by_version;
  bool others = false;
  for (const auto& entry : managers) others = others || entry.first != manager;
  // Only other managers need the comparison, and the caller when it asks
  // for it; creating an object that nobody else manages skips it.
  if (others || compare != nullptr) {
    absl::StatusOr<Comparison> own = compare_at(version);
    if (!own.ok()) return Fail(ErrorKind::kInternal, own.status());
    by_version.emplace(version, *std::move(own));
  }

  ManagedFields conflicts;
  std::map<std::string, const Set*> removed;
  std::vector<std::string> obsolete;
  for (const auto& [name, vs] : managers) {
    if (name == manager) continue;
    auto it = by_version.find(vs.api_version());
    if (it == by_version.end()) {
      absl::StatusOr<Comparison> c = compare_at(vs.api_version());
      if (absl::IsNotFound(c.status())) {
        obsolete.push_back(name);
        continue;
      }
      if (!c.ok()) return Fail(ErrorKind::kInternal, c.status());
      it = by_version.emplace(vs.api_version(), *std::move(c)).first;
    }
    const Comparison& c = it->second;
    Set taken = vs.set().Intersection(c.modified.Union(c.added));
    if (!taken.Empty())
      conflicts.emplace(
          name, VersionedSet(std::move(taken), vs.api_version(), false));
    if (!c.removed.Empty()) removed.emplace(name, &c.removed);
  }
  for (const std::string& name : obsolete) managers.erase(name);

  if (!force && !conflicts.empty()) {
    OpResult r = Fail(ErrorKind::kConflict, absl::OkStatus());
    r.conflicts = Conflicts::FromManagers(conflicts);
    r.status = absl::AbortedError(r.conflicts.ToString());
    return r;
  }
  for (const auto& [name, taken] : conflicts) {
    const VersionedSet& vs = managers[name];
    managers[name] = VersionedSet(vs.set().Difference(taken.set()),
                                  vs.api_version(), vs.applied());
  }
  for (const auto& [name, gone] : removed) {
    const VersionedSet& vs = managers[name];
    managers[name] = VersionedSet(vs.set().Difference(*gone), vs.api_version(),
                                  vs.applied());
  }
  for (auto it = managers.begin(); it != managers.end();) {
    it = it->second.set().Empty() ? managers.erase(it) : std::next(it);
  }
  if (compare != nullptr) *compare = std::move(by_version[version]);
  OpResult r;
  r.managers = std::move(managers);
  return r;
}

OpResult Updater::Update(const Value& live, const Value& written,
                         const std::string& version,
                         const ManagedFields& managers,
                         const std::string& manager) const {
  ValidateOptions dup_ok{/*allow_duplicates=*/true};
  // The apiserver defaults a written object when it decodes it.
  const bool defaulting = opts_.apply_defaults && type_.schema().has_defaults();
  Value defaulted = !defaulting ? Value()
                    : live.IsNull()
                        ? ApplyDefaults(type_, written)
                        : ApplyDefaultsIncremental(type_, written, live);
  const Value& object = defaulting ? defaulted : written;
  if (absl::Status st = opts_.validate_input ? Validate(type_, object, dup_ok)
                                             : absl::OkStatus();
      !st.ok()) {
    return Invalid("the updated object is invalid", st);
  }
  if (opts_.validate_live) {
    if (absl::Status st = Validate(type_, live, dup_ok); !st.ok()) {
      return Invalid("the live object is invalid", st);
    }
  }
  absl::StatusOr<ManagedFields> reconciled = Reconcile(live, managers);
  if (!reconciled.ok()) return Fail(ErrorKind::kInternal, reconciled.status());

  Comparison compare;
  OpResult r = Transfer(live, object, version, *std::move(reconciled), manager,
                        /*force=*/true, &compare);
  if (!r.ok()) return r;
  Set mine;
  if (auto it = r.managers.find(manager); it != r.managers.end())
    mine = it->second.set();
  mine = mine.Difference(compare.removed)
             .Union(compare.modified)
             .Union(compare.added);
  mine = FilterIgnored(std::move(mine), Ignored(version));
  if (std::vector<ImmutabilityViolation> v =
          CheckImmutability(type_, live, object);
      !v.empty()) {
    return Immutable(v);
  }
  if (mine.Empty()) {
    r.managers.erase(manager);
  } else {
    r.managers[manager] =
        VersionedSet(std::move(mine), version, /*applied=*/false);
  }
  MarkReconciled(&r.managers);
  // The object as written: where it equals the live one but not to the
  // letter (a float for an integer, another key order), the written one
  // is stored (an interface{} field of a Go type keeps a float).
  r.changed = !Equals(live, object);
  r.object = r.changed || !Identical(live, object) ? object : live;
  return r;
}

PreparedConfig Updater::Prepare(const Value& config,
                                const std::string& version,
                                const Set* set_aside) const {
  PreparedConfig p;
  Set fields = FilterIgnored(ToFieldSet(type_, config), Ignored(version));
  if (set_aside != nullptr) {
    // (A few paths, taken out in place rather than by copying the set.)
    p.aside = fields.Intersection(*set_aside);
    fields.Subtract(*set_aside);
  }
  p.fields = std::make_shared<const Set>(std::move(fields));
  return p;
}

OpResult Updater::Apply(const Value& live, const Value& config,
                        const std::string& version,
                        const ManagedFields& managers,
                        const std::string& manager, bool force) const {
  return Apply(live, config, version, managers, manager, force,
               Prepare(config, version));
}

OpResult Updater::Apply(const Value& live, const Value& config,
                        const std::string& version,
                        const ManagedFields& managers,
                        const std::string& manager, bool force,
                        const PreparedConfig& prepared) const {
  // The merge comes first: the atomic parts of the configuration it finds
  // identical to the live object's are valid when the live object is
  // (validated here, or by the caller when validate_live is off), so the
  // configuration's validation does not walk them again. Errors are still
  // reported in this order: the configuration's, the live object's, the
  // reconcile's, the merge's. (The merge and the field set are memory-safe
  // on any value, as with validate_input off.)
  absl::Status live_valid =
      opts_.validate_live ? Validate(type_, live, ValidateOptions{true})
                          : absl::OkStatus();
  // (Noted only for the validation that uses them: with room for most
  // objects' from the start.)
  std::vector<TrustedNode> same;
  if (opts_.validate_input) same.reserve(64);
  absl::StatusOr<Value> merged = MergeNotingSame(
      type_, &live, &config, opts_.validate_input ? &same : nullptr);
  if (opts_.validate_input) {
    if (!live_valid.ok() || !merged.ok()) same.clear();
    if (absl::Status st = ValidateTrusting(type_, config, {}, same);
        !st.ok()) {
      return Invalid("the applied configuration is invalid", st);
    }
  }
  if (!live_valid.ok()) return Invalid("the live object is invalid", live_valid);
  absl::StatusOr<ManagedFields> reconciled = Reconcile(live, managers);
  if (!reconciled.ok()) return Fail(ErrorKind::kInternal, reconciled.status());
  ManagedFields mf = *std::move(reconciled);
  if (!merged.ok())
    return Invalid("failed to merge the configuration", merged.status());

  std::optional<VersionedSet> last;
  if (auto it = mf.find(manager); it != mf.end()) last = it->second;
  mf[manager] = VersionedSet(prepared.fields, version, /*applied=*/true);
  const bool last_within = last && last->shared_set() == prepared.fields;
  // The last set is not filtered: it was filtered at its own version when
  // it was recorded, and SMD prunes it as it is (a field the applier owned
  // at a version that did not ignore it goes, even when it applies it now
  // at a version that does).
  bool keyless_item = false;
  absl::StatusOr<Value> pruned_or =
      RemoveDroppedFields(*merged, mf, manager, last ? &*last : nullptr,
                          last_within, prepared.aside, &keyless_item);
  if (!pruned_or.ok()) {
    return Fail(ErrorKind::kInternal,
                absl::InternalError(absl::StrCat(
                    "failed to prune fields: ", pruned_or.status().message())));
  }
  Value pruned = *std::move(pruned_or);
  // An item left with no field, or without a key field, but kept (another
  // manager owns the item itself) is null or keyless after SMD's prune,
  // and its update then refuses to compare the objects (merge/update.go:
  // "failed to compare objects").
  if (keyless_item) {
    if (absl::Status st = Validate(type_, pruned); !st.ok())
      return Invalid("failed to compare objects", st);
  }
  // Only `pruned` holds the nodes the merge built now, so defaulting below
  // changes them in place instead of copying them.
  *merged = Value();

  OpResult r = Transfer(live, pruned, version, std::move(mf), manager, force,
                        /*compare=*/nullptr);
  if (!r.ok()) return r;
  r.changed = !Equals(live, pruned);
  // As the apiserver: ownership is settled on the merged object, then a
  // changed result is defaulted (what defaulting adds is nobody's), and the
  // immutability rules see the object that would be stored.
  if (r.changed && opts_.apply_defaults && type_.schema().has_defaults()) {
    // The live object was defaulted when it was written.
    pruned = live.IsNull()
                 ? ApplyDefaults(type_, std::move(pruned))
                 : ApplyDefaultsIncremental(type_, std::move(pruned), live);
  }
  if (std::vector<ImmutabilityViolation> v =
          CheckImmutability(type_, live, pruned);
      !v.empty()) {
    return Immutable(v);
  }
  MarkReconciled(&r.managers);
  r.object = r.changed ? std::move(pruned) : live;
  return r;
}

absl::StatusOr<Value> Updater::RemoveDroppedFields(
    const Value& merged, const ManagedFields& managers,
    const std::string& manager, const VersionedSet* last, bool last_within,
    const Set& aside, bool* left_keyless_item) const {
  *left_keyless_item = false;
  if (last == nullptr || last->set().Empty()) return merged;
  const VersionedSet& now = managers.at(manager);
  const std::string& last_version = last->api_version();
  // At its last version, an applier that still applies everything it
  // applied before drops nothing: every path of the last set, and every
  // ancestor of one, is owned now, so the removal below is undone but for
  // fields nobody owns, and the result is built from the merged object
  // with only the last set's paths that vanished taken out. A path
  // vanishes only when what is left below it yields no path at all, and
  // only an empty list (no items, not atomic) yields none: without one,
  // nothing goes (an empty list inside an atomic list or map is no field:
  // the atomic one is). (SMD's Updater.prune; the differential found an
  // owned parent that went with the unowned field below it, leaving an
  // empty list.)
  if (last_version == now.api_version() &&
      (last_within || last->set().IsSubsetOf(now.set()) ||
       (!aside.Empty() && last->set().IsSubsetOf(now.set().Union(aside)))) &&
      !HasEmptyGranularList(type_, merged)) {
    return merged;
  }
  // Objects at a version are typed as that version's.
  auto members = [](const Type& t, const Set& s) {
    return EnsureNamedFieldsAreMembers(t, s);
  };
  auto fields_of = [&](const Type& t, const Value& v) {
    return members(t, ToFieldSet(t, v));
  };

  // The pruning happens at the version the applier last applied at (a
  // version that no longer exists prunes nothing): remove what it owned
  // then, put back what anybody (its new configuration included) owns at
  // each version, and what it never owned; then back to its version now.
  absl::StatusOr<Value> at_last = Convert(merged, last_version);
  if (absl::IsNotFound(at_last.status())) return merged;
  if (!at_last.ok()) return at_last.status();
  const Type& last_type = TypeAt(last_version);
  Value pruned =
      RemoveItems(last_type, *at_last, members(last_type, last->set()));
  const Set at_last_fields = fields_of(last_type, *at_last);

  // Owned at each version: the last applied version first (the removal
  // may have taken fields its conversions need), then the others in order.
  // One pass per version even without a converter: the passes do not add
  // up to one over everything owned. A pass that removes a list item whose
  // own path nobody owns at its version takes the item's owned fields with
  // it, and the next pass keeps only what it or the pruned object names
  // (SMD's Updater.addBackOwnedItems; the differential found a case).
  std::map<std::string, Set> owned;
  for (const auto& [name, vs] : managers)
    owned[vs.api_version()] = owned[vs.api_version()].Union(vs.set());
  if (!aside.Empty())
    owned[now.api_version()] = owned[now.api_version()].Union(aside);
  std::vector<std::string> versions;
  if (owned.count(last_version) != 0) versions.push_back(last_version);
  for (const auto& entry : owned) {
    if (entry.first != last_version) versions.push_back(entry.first);
  }
  Value full = *at_last;
  for (const std::string& v : versions) {
    absl::StatusOr<Value> f = Convert(full, v);
    if (absl::IsNotFound(f.status())) continue;
    if (!f.ok()) return f.status();
    absl::StatusOr<Value> p = Convert(pruned, v);
    if (absl::IsNotFound(p.status())) continue;
    if (!p.ok()) return p.status();
    full = *std::move(f);
    const Type& t = TypeAt(v);
    Set keep = fields_of(t, *p).Union(members(t, owned[v]));
    // Without a converter (or with one that gives an object back as it
    // is) every version is the same object.
    Set full_fields = opts_.converter == nullptr || SameNode(full, *at_last)
                          ? at_last_fields
                          : fields_of(t, full);
    pruned = RemoveItems(t, full, full_fields.Difference(keep));
  }

  // Only what the applier owned last time may go.
  absl::StatusOr<Value> pruned_at_last = Convert(pruned, last_version);
  if (absl::IsNotFound(pruned_at_last.status())) {
    pruned = *at_last;
  } else if (!pruned_at_last.ok()) {
    return pruned_at_last.status();
  } else {
    Set gone = at_last_fields.Difference(fields_of(last_type, *pruned_at_last));
    pruned = RemoveItems(last_type, *at_last,
                         gone.Intersection(members(last_type, last->set())),
                         left_keyless_item);
  }
  return Convert(pruned, now.api_version());
}

}  // namespace smdx
