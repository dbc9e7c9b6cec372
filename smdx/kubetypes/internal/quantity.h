// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource) as
// the apiserver's decoding leaves them: parsed (ParseQuantity, which rounds
// up below a nanounit) and written back in canonical form (Quantity.String:
// "1000m" is "1", "1024Mi" is "1Gi", "0.5" is "500m"). Internal to
// kubetypes/.
#ifndef SMDX_KUBETYPES_INTERNAL_QUANTITY_H_
#define SMDX_KUBETYPES_INTERNAL_QUANTITY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// A parsed quantity: its exact value, digits * 10^exponent (at nanounits
// or coarser), and the format it prints in (Go's Quantity.Format, from
// the suffix it was written with). `text` is what it prints as when it is
// not the canonical form of the value (the Go Quantity's cached string:
// ParseQuantity keeps "1Ki" and "5." as written), else empty.
struct Quantity {
  enum class Format { kDecimalSI, kBinarySI, kDecimalExponent };
  bool negative = false;
  std::string digits = "0";  // no leading zeros
  int64_t exponent = 0;
  Format format = Format::kDecimalSI;
  std::string text;
};

// ParseQuantity of `v` (a string, or a number as JSON holds it), or
// nullopt when it is no quantity. `round_up_milli` as below.
std::optional<Quantity> ParseQuantity(const Value& v,
                                      bool round_up_milli = false);

// Quantity.String: the kept text, else the canonical form; nullopt when
// the value has no suffix to print with (beyond 10^18).
std::optional<std::string> QuantityString(const Quantity& q);

// Quantity.Add: the exact sum, in the format of `a` (of `b` where `a` is
// zero), printing in canonical form.
Quantity AddQuantities(const Quantity& a, const Quantity& b);

// Quantity.Cmp: -1, 0 or 1.
int CompareQuantities(const Quantity& a, const Quantity& b);

// The canonical form of the quantity `v` (a string, or a number as JSON
// holds it), or nullopt when it is no quantity (the apiserver refuses the
// request; smdx leaves the value to validation). With `round_up_milli`,
// the value is first rounded up to a thousandth (SetDefaults_ResourceList,
// for the values of resource lists).
std::optional<std::string> CanonicalQuantity(const Value& v,
                                             bool round_up_milli = false);

}  // namespace smdx::internal

#endif  // SMDX_KUBETYPES_INTERNAL_QUANTITY_H_
