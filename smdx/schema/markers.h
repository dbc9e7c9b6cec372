// Where the immutability markers may sit (the immutable-fields KEP):
// checked once per root type, when a Type is made (typed/typed.h).
#ifndef SMDX_SCHEMA_MARKERS_H_
#define SMDX_SCHEMA_MARKERS_H_

#include "absl/status/status.h"
#include "smdx/schema/schema.h"

namespace smdx {

// Checks that the markers of the schema reachable from `root` are placed
// as the KEP allows: not inside the root's `.metadata`, immutableKeys only
// on maps with an element type and on keyed lists (whose key fields must
// then be immutable), immutable and immutableKeys not together,
// additionOnly/deletionOnly not with either nor with each other, and only
// on maps with an element type, keyed lists and sets. The error names the
// place (`.spec.ports[]`) and the rule.
absl::Status CheckImmutabilityMarkers(const Schema& schema, const Atom* root);

}  // namespace smdx

#endif  // SMDX_SCHEMA_MARKERS_H_
