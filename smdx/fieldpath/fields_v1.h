// The Kubernetes `fieldsV1` encoding of a field set (metadata.managedFields).
//
// A set is a JSON object whose keys are path elements: `f:<name>` for a
// field, `k:<json object>` for an associative-list key (fields sorted by
// name), `v:<json>` for a set item, `i:<n>` for a list index. A key's value
// is the object for the children below it; `{}` marks a member with no
// children and `".": {}` marks a node that is both a member and a parent.
//
// Serialization is byte-identical to what Kubernetes writes. Parsing accepts
// any valid encoding in any key order and rejects malformed input (unknown
// prefixes, bad JSON in keys, non-object children) with an error that names
// where in the encoding the problem is.
#ifndef SMDX_FIELDPATH_FIELDS_V1_H_
#define SMDX_FIELDPATH_FIELDS_V1_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/fieldpath/path.h"
#include "smdx/fieldpath/set.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {

// Compact JSON, as found in managedFields[].fieldsV1.
std::string SerializeFieldsV1(const Set& set);
// The same encoding as a Value (a map), for embedding in an object.
Value FieldsV1ToValue(const Set& set);

// What a schema says about the set a reader reads (typed/ implements it,
// see FieldsV1FromValueFor in typed/typed.h): the reader tells the guide
// each step down to a node it reads, and the guide answers with the
// schema's interned field name, and checks the set against the schema on
// the way. Members with nothing below them are not reported.
class FieldsV1Guide {
 public:
  virtual ~FieldsV1Guide() = default;
  // A step down to the node below the field `name` of the current node.
  // Returns the name as the schema interned it, or null (the reader then
  // names it itself).
  virtual const std::string* DescendField(absl::string_view name) = 0;
  // A step down below an element that is not a field (`k:`, `v:`, `i:`).
  virtual void DescendElement() = 0;
  // The node below the last step down was read; `below` says whether it
  // holds any element (as opposed to only ".").
  virtual void Ascend(bool below) = 0;
};

// Both hold the encoding to limits.max_fields_v1_bytes (for a Value: the
// bytes of its compact JSON) and limits.max_depth (value/limits.h).
absl::StatusOr<Set> ParseFieldsV1(absl::string_view json,
                                  const Limits& limits = Limits());
// `*canonical`, when given, says whether `v` is exactly what
// FieldsV1ToValue returns for the set read (so that a caller may keep `v`
// in its place while the set is unchanged). `guide`, when given, is told
// the steps (see FieldsV1Guide); the set read is the same without it.
absl::StatusOr<Set> FieldsV1FromValue(const Value& v,
                                      const Limits& limits = Limits(),
                                      bool* canonical = nullptr,
                                      FieldsV1Guide* guide = nullptr);

// Whether `v` is exactly FieldsV1ToValue(set) and within `limits`: then
// FieldsV1FromValue(v, limits) reads `set` and says it is canonical. Builds
// nothing (for a caller that knows which set to expect).
bool FieldsV1ValueEncodes(const Value& v, const Set& set,
                          const Limits& limits = Limits());

// One path element in its `f:`/`k:`/`v:`/`i:` string form, and back.
std::string SerializePathElement(const PathElement& pe);
absl::StatusOr<PathElement> ParsePathElement(absl::string_view s);

}  // namespace smdx

#endif  // SMDX_FIELDPATH_FIELDS_V1_H_
