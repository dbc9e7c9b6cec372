// The walkers' shared pieces: how an atom narrows for a value, and the path
// elements of map entries and list items. Internal to typed/ (and the
// command's blame, which walks objects the same way); not installed.
#ifndef SMDX_TYPED_INTERNAL_TYPED_H_
#define SMDX_TYPED_INTERNAL_TYPED_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "smdx/fieldpath/path.h"
#include "smdx/schema/schema.h"
#include "smdx/value/value.h"

namespace smdx {
namespace internal {

// Resolution of an atom for a concrete value: untyped atoms (several kinds)
// narrow to the kind of the value.
struct Narrowed {
  const Atom* atom;  // the full atom
  enum Kind : uint8_t { kNone, kScalar, kList, kMap } kind;
};
Narrowed Narrow(const Atom* atom, const Value* v);

// The path element of map entry `key`, declared in the schema as `f` (null
// when undeclared): declared fields use the schema's interned name, which
// is a pointer, or for a name of up to 15 bytes its ready inline form.
PathElement FieldElement(const StructField* f, const std::string& key);

// The path element of a list item, or an error message.
absl::StatusOr<PathElement> ListItemElement(const Atom& list_atom,
                                            const Value& item, size_t index);

// For an associative list: a hash of the path element `item` would get,
// without building it (equal elements hash alike). False when the item has
// no element (ListItemElement would fail).
bool HashListItemKey(const Atom& list_atom, const Value& item, size_t* hash);
// Whether two items of an associative list that both have path elements
// have equal ones.
bool SameListItemKey(const Atom& list_atom, const Value& a, const Value& b);

}  // namespace internal

}  // namespace smdx

#endif  // SMDX_TYPED_INTERNAL_TYPED_H_
