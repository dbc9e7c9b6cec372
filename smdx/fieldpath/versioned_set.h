// ManagedFields: who owns which fields of an object.
//
// Each manager (a field manager name such as "kubectl" or
// "kube-controller-manager") has one VersionedSet: the fields it owns, the
// apiVersion it last used, and whether its last operation was an apply.
// Sets are shared immutable data, so copying ManagedFields is cheap; an
// operation that fails simply drops its copy.
#ifndef SMDX_FIELDPATH_VERSIONED_SET_H_
#define SMDX_FIELDPATH_VERSIONED_SET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "smdx/fieldpath/set.h"

namespace smdx {

class VersionedSet {
 public:
  // Empty, sharing one empty set that nothing owns: making one allocates
  // nothing (a map's operator[] makes one before every assignment).
  VersionedSet() : set_(std::shared_ptr<void>(), &Set::EmptyInstance()) {}
  VersionedSet(Set set, std::string api_version, bool applied)
      : set_(std::make_shared<Set>(std::move(set))),
        api_version_(std::move(api_version)),
        applied_(applied),
        owns_set_(true) {}
  VersionedSet(std::shared_ptr<const Set> set, std::string api_version,
               bool applied)
      : set_(std::move(set)),
        api_version_(std::move(api_version)),
        applied_(applied) {}

  const Set& set() const { return *set_; }
  // The set, to change in place, when this VersionedSet built it and no
  // copy shares it yet; null otherwise (then make a new one). A change
  // forgets that the set was reconciled.
  Set* MutableSetIfUnshared() {
    if (!owns_set_ || set_.use_count() != 1) return nullptr;
    reconciled_root_ = nullptr;
    return const_cast<Set*>(set_.get());
  }
  const std::shared_ptr<const Set>& shared_set() const { return set_; }
  const std::string& api_version() const { return api_version_; }
  bool applied() const { return applied_; }

  // Which type (a schema's unique id and a root type within it) this set
  // was last made consistent with, so that an unchanged schema does not
  // reconcile it again on every operation. Unset for sets from outside.
  bool IsReconciledFor(uint64_t schema_id, const void* root) const {
    return reconciled_root_ == root && reconciled_schema_ == schema_id &&
           root != nullptr;
  }
  void MarkReconciled(uint64_t schema_id, const void* root) {
    reconciled_schema_ = schema_id;
    reconciled_root_ = root;
  }

 private:
  std::shared_ptr<const Set> set_;
  std::string api_version_;
  bool applied_ = false;
  // Whether set_ points at a Set made non-const by the constructor (one
  // taking a shared set may be given a const object).
  bool owns_set_ = false;
  uint64_t reconciled_schema_ = 0;
  const void* reconciled_root_ = nullptr;
};

// Keyed by manager name; std::map keeps iteration deterministic.
using ManagedFields = std::map<std::string, VersionedSet>;

bool operator==(const VersionedSet& a, const VersionedSet& b);
inline bool operator!=(const VersionedSet& a, const VersionedSet& b) {
  return !(a == b);
}

}  // namespace smdx

#endif  // SMDX_FIELDPATH_VERSIONED_SET_H_
