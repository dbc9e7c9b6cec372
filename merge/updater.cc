#include "merge/updater.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "typed/default.h"
#include "typed/immutable.h"

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

absl::StatusOr<ManagedFields> Updater::Reconcile(
    const Value& live, const ManagedFields& managers) const {
  ManagedFields out;
  for (const auto& [name, vs] : managers) {
    if (opts_.converter != nullptr) {
      absl::StatusOr<Value> converted = Convert(live, vs.api_version());
      if (absl::IsNotFound(converted.status()))
        continue;  // obsolete version: dropped
      if (!converted.ok()) return converted.status();
    }
    if (vs.IsReconciledFor(type_.schema().id(), type_.root())) {
      out.emplace(name, vs);  // made by this type's operations already
      continue;
    }
    std::optional<Set> reconciled =
        ReconcileFieldSetWithSchema(type_, vs.set());
    if (reconciled) {
      out.emplace(name, VersionedSet(*std::move(reconciled), vs.api_version(),
                                     vs.applied()));
    } else {
      out.emplace(name, vs);
    }
  }
  return out;
}

OpResult Updater::Transfer(const Value& old_obj, const Value& new_obj,
                           const std::string& version, ManagedFields managers,
                           const std::string& manager, bool force,
                           Comparison* compare) const {
  auto compare_at = [&](const std::string& v) -> absl::StatusOr<Comparison> {
    Comparison c;
    if (opts_.converter == nullptr || v == version) {
      c = CompareFields(type_, &old_obj, &new_obj);
    } else {
      absl::StatusOr<Value> o = Convert(old_obj, v);
      if (!o.ok()) return o.status();
      absl::StatusOr<Value> n = Convert(new_obj, v);
      if (!n.ok()) return n.status();
      c = CompareFields(type_, &*o, &*n);
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
  for (auto& entry : r.managers)
    entry.second.MarkReconciled(type_.schema().id(), type_.root());
  r.changed = !Equals(live, object);
  r.object = r.changed ? object : live;
  return r;
}

OpResult Updater::Apply(const Value& live, const Value& config,
                        const std::string& version,
                        const ManagedFields& managers,
                        const std::string& manager, bool force) const {
  if (absl::Status st =
          opts_.validate_input ? Validate(type_, config) : absl::OkStatus();
      !st.ok()) {
    return Invalid("the applied configuration is invalid", st);
  }
  if (opts_.validate_live) {
    if (absl::Status st = Validate(type_, live, ValidateOptions{true});
        !st.ok()) {
      return Invalid("the live object is invalid", st);
    }
  }
  absl::StatusOr<ManagedFields> reconciled = Reconcile(live, managers);
  if (!reconciled.ok()) return Fail(ErrorKind::kInternal, reconciled.status());
  ManagedFields mf = *std::move(reconciled);

  absl::StatusOr<Value> merged = Merge(type_, &live, &config);
  if (!merged.ok())
    return Invalid("failed to merge the configuration", merged.status());

  std::optional<VersionedSet> last;
  if (auto it = mf.find(manager); it != mf.end()) last = it->second;
  const Set* ignored = Ignored(version);
  mf[manager] =
      VersionedSet(FilterIgnored(ToFieldSet(type_, config), ignored), version,
                   /*applied=*/true);
  if (last && ignored != nullptr) {
    last = VersionedSet(FilterIgnored(last->set(), ignored),
                        last->api_version(), last->applied());
  }
  Value pruned = RemoveDroppedFields(*merged, mf, last ? &*last : nullptr,
                                     mf[manager].set());
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
  for (auto& entry : r.managers)
    entry.second.MarkReconciled(type_.schema().id(), type_.root());
  r.object = r.changed ? std::move(pruned) : live;
  return r;
}

Value Updater::RemoveDroppedFields(const Value& merged,
                                   const ManagedFields& managers,
                                   const VersionedSet* last,
                                   const Set& applied) const {
  if (last == nullptr || last->set().Empty()) return merged;
  // An applier that still applies everything it applied before drops
  // nothing. Every path of the last set, and every ancestor of it (the new
  // set comes from a configuration, so it holds them), is owned now, so the
  // removal below would be entirely undone.
  if (last->set().IsSubsetOf(applied)) return merged;
  // Remove what the applier owned last time, then put back what anybody
  // (the applier's new configuration included) still owns, and what the
  // applier never owned.
  Value pruned = RemoveItems(type_, merged,
                             EnsureNamedFieldsAreMembers(type_, last->set()));

  Set managed;
  for (const auto& [name, vs] : managers) managed = managed.Union(vs.set());
  Set merged_set =
      EnsureNamedFieldsAreMembers(type_, ToFieldSet(type_, merged));
  Set pruned_set =
      EnsureNamedFieldsAreMembers(type_, ToFieldSet(type_, pruned));
  Set keep = pruned_set.Union(EnsureNamedFieldsAreMembers(type_, managed));
  pruned = RemoveItems(type_, merged, merged_set.Difference(keep));

  pruned_set = EnsureNamedFieldsAreMembers(type_, ToFieldSet(type_, pruned));
  Set last_set = EnsureNamedFieldsAreMembers(type_, last->set());
  return RemoveItems(type_, merged,
                     merged_set.Difference(pruned_set).Intersection(last_set));
}

}  // namespace smdx
