#include "smdx/fieldpath/versioned_set.h"

namespace smdx {

bool operator==(const VersionedSet& a, const VersionedSet& b) {
  return a.api_version() == b.api_version() && a.applied() == b.applied() &&
         (a.shared_set() == b.shared_set() || a.set() == b.set());
}

}  // namespace smdx
