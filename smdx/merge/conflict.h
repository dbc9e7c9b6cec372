// Conflicts: fields an operation would take from other managers.
//
// A conflict names the manager that owns a field and the field's path. An
// apply that is not forced fails with the full list, so a client can show
// every field it would have to force or give up.
#ifndef SMDX_MERGE_CONFLICT_H_
#define SMDX_MERGE_CONFLICT_H_

#include <string>
#include <vector>

#include "smdx/fieldpath/path.h"
#include "smdx/fieldpath/versioned_set.h"

namespace smdx {

struct Conflict {
  std::string manager;
  Path path;
};

bool operator==(const Conflict& a, const Conflict& b);

class Conflicts {
 public:
  Conflicts() = default;
  // One conflict for every path of every manager's set.
  static Conflicts FromManagers(const ManagedFields& sets);

  bool empty() const { return list_.empty(); }
  size_t size() const { return list_.size(); }
  const std::vector<Conflict>& list() const { return list_; }
  void Add(Conflict c) { list_.push_back(std::move(c)); }

  // As SMD words it: `conflict with "kubectl": .spec.replicas` for one
  // conflict; otherwise the paths grouped by manager, managers sorted:
  //   conflicts with "a":
  //   - .spec.replicas
  std::string ToString() const;

 private:
  std::vector<Conflict> list_;
};

}  // namespace smdx

#endif  // SMDX_MERGE_CONFLICT_H_
