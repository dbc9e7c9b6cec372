// A CustomResourceDefinition's JSON values: the default, example and enum
// items of each schema in spec.versions[].schema.openAPIV3Schema, at any
// depth. Their v1 type (apiextensions v1 JSON) holds raw JSON; the
// apiextensions-apiserver converts it to its internal type, an interface{}
// decoded with integers kept (k8s.io/apimachinery/pkg/util/json.Unmarshal:
// an integer literal that fits is an int64, any other number a float64),
// and back with encoding/json (v1/conversion.go). So:
//
//   - the strategy's Semantic.DeepEqual, which counts the generation,
//     compares the request's values with their Go types: `1.0` (float64)
//     differs from the stored `1` (int64), and `[]` from no value;
//   - what is stored is the float written by encoding/json and read back:
//     a whole float below 2^63 is an integer (`1.0` and `1e3` are stored
//     as 1 and 1000, `-0.0` as 0).
//
// An apply's merged object reaches the strategy through the unstructured
// converter, which writes its floats with encoding/json too: its values are
// stored ones already (BuiltinKind::ReadBack).
//
// Example:
//   if (SpecsEqualSemantically(a, b) && CrdJsonValuesDiffer(a_spec, b_spec))
//     ...  // a new generation
//   StoreCrdSpecNumbers(crd);  // whole floats of its spec: integers
#ifndef SMDX_KUBETYPES_INTERNAL_CRD_H_
#define SMDX_KUBETYPES_INTERNAL_CRD_H_

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// Whether api_version/kind is a CustomResourceDefinition.
bool IsCrd(absl::string_view api_version, absl::string_view kind);

// Whether the JSON values of two CRD specs (`spec`, either may be null)
// that are semantically equal differ as the strategy's DeepEqual sees
// them: a value's Go type counts (an integer is not a float), a null or
// absent value is none.
bool CrdJsonValuesDiffer(const Value* a, const Value* b);

// The CRD `crd` (a whole object) with the numbers of its spec as storage
// gives them back: whole floats below 2^63 as integers. They are the JSON
// values' and the schemas' float64 fields' (maximum, minimum, multipleOf),
// which encoding/json writes alike; the spec's other numbers are integers.
void StoreCrdSpecNumbers(Value& crd);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_CRD_H_
