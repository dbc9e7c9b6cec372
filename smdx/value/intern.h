// Interned field names: one copy of each name, kept for the life of the
// process, so that path elements can hold a pointer instead of a string and
// two interned names compare by address (names over 15 bytes: a shorter
// name sits in the element itself, fieldpath/path.h).
//
// Schemas intern the names of their fields when they are linked (a set
// bounded by the schemas loaded, not by the data). Readers of field sets
// only look names up: a name no schema declared (a label key, say) is
// never added, so untrusted input cannot grow the table.
//
// Example:
//   const std::string* a = InternName("spec");
//   assert(FindInternedName("spec") == a);
//   assert(FindInternedName("no-schema-has-this") == nullptr);
#ifndef SMDX_VALUE_INTERN_H_
#define SMDX_VALUE_INTERN_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace smdx {

// The one copy of `name`; equal names get the same pointer. Thread-safe.
const std::string* InternName(absl::string_view name);

// The interned copy of `name`, or null when `name` was never interned.
// Thread-safe and lock-free: readers call it for every field name they read.
const std::string* FindInternedName(absl::string_view name);

namespace internal {

// How an interned name is stored: the string first, so that a pointer to it
// is a pointer to the whole, then what writers want to know about it, then
// what lookups compare first (intern.cc).
struct InternedName {
  std::string name;
  bool plain;  // JsonStringIsPlain(name)
  uint64_t head;
  uint64_t tail;
  // For a name of up to 15 bytes, its length and then its bytes, zero
  // after: the form path elements hold such names in (ShortForm).
  alignas(8) unsigned char short_form[16];
};

}  // namespace internal

// The 16 bytes of the interned `name`'s short form (see InternedName).
// REQUIRES: `name` was returned by InternName or FindInternedName, and is
// at most 15 bytes.
inline const unsigned char* ShortForm(const std::string* name) {
  return reinterpret_cast<const internal::InternedName*>(name)->short_form;
}

// Whether JSON writes the interned `name` as it is, between quotes (no
// byte needs escaping as Go's encoder escapes it).
// REQUIRES: `name` was returned by InternName or FindInternedName.
inline bool InternedNameIsPlain(const std::string* name) {
  return reinterpret_cast<const internal::InternedName*>(name)->plain;
}

}  // namespace smdx

#endif  // SMDX_VALUE_INTERN_H_
