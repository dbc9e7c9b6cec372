// What the apiserver's Go types do to an object they decode: for each
// struct type of the built-in API (by its OpenAPI name), each JSON field's
// Go kind, its omitempty and omitzero options, and the value the
// unstructured converter gives its zero value. The facts are data
// (schema/data/kubernetes-v1.37-go-types.json, from reflection over the
// Go types: conformance/realapi/cmd/gotypes); builtin_kind.h uses them.
#ifndef SMDX_KUBETYPES_INTERNAL_GO_TYPES_H_
#define SMDX_KUBETYPES_INTERNAL_GO_TYPES_H_

#include <memory>
#include <string>
#include <vector>

#include <algorithm>
#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// A field's Go kind.
enum class GoKind : char {
  kString = 's',
  kInt = 'i',
  kFloat = 'f',
  kBool = 'b',
  kPointer = 'p',
  kSlice = 'l',
  kMap = 'm',
  kStruct = 't',
  kMarshaler = 'x',  // a struct with its own JSON form (Time, Quantity, ...)
  kInterface = 'a',
};

struct GoField {
  std::string name;
  GoKind kind = GoKind::kString;
  bool omitempty = false;
  bool omitzero = false;
  // The unstructured form of the field's zero value.
  Value zero;
  // For a map or slice: the unstructured form of its elements' zero value,
  // which a null element decodes to ("" in a map[string]string, a zero
  // struct in a slice of structs; null where the element is nilable).
  Value element_zero;
  // For a map or slice of byte slices: storage (protobuf) reads a null
  // element back as an empty one, "".
  bool byte_elements = false;
  // 32 or 64 where the field, what it points to, or its elements are
  // int32 or int64 (a float there is whole, or refused); else 0.
  uint8_t int_bits = 0;
};

struct GoStruct {
  std::vector<GoField> fields;
  // The fields' indexes in name order (cheaper to build than a hash map,
  // and a struct is looked up only while a kind's plan is made).
  std::vector<uint32_t> by_name;

  const GoField* Find(absl::string_view name) const {
    auto it = std::lower_bound(
        by_name.begin(), by_name.end(), name,
        [&](uint32_t i, absl::string_view n) { return fields[i].name < n; });
    return it == by_name.end() || fields[*it].name != name ? nullptr
                                                           : &fields[*it];
  }
};

// A struct's facts from the compact JSON the generator writes
// ({"field":["kind","flags",zero(,element zero)],...}): read directly in
// that shape, by
// ParseGoStructGeneral (through the JSON reader) otherwise; both give the
// same struct for any text.
std::unique_ptr<GoStruct> ParseGoStruct(const char* text);
std::unique_ptr<GoStruct> ParseGoStructGeneral(const char* text);

// The struct type named `openapi_name`, or nullptr when the built-in API
// has none. Thread-safe; each type is parsed once per process.
const GoStruct* FindGoStruct(absl::string_view openapi_name);

// Whether `v` is an empty or zero value in any Go kind's encoding: null,
// "", 0, false, [] or {}.
bool IsZeroLike(const Value& v);

// Go's notion of an empty value for omitempty (encoding/json isEmptyValue
// on the unstructured form): "", 0, false, null, and for slices and maps
// an empty one. Structs are never empty.
bool IsGoEmpty(GoKind kind, const Value& v);

// Whether a field of `kind` holding `v` (nullptr: absent) is its Go zero
// value: what a defaulter's "if obj.X == nil" or `== ""` tests.
bool IsGoUnset(GoKind kind, const Value* v);

// `v`, a value a Go interface{} holds (a custom resource's, a CRD's JSON
// values), as storage gives it back: encoding/json writes a whole float
// below 2^63 without a fraction or an exponent, and the decoder that keeps
// integers (util/json) then reads an int64. Written only where there are
// such floats (a write unshares); HoldsWholeFloat says where.
void StoreWholeFloatsAsIntegers(Value& v);
bool HoldsWholeFloat(const Value& v);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_GO_TYPES_H_
