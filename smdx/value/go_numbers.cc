#include <cmath>
#include <cstdint>

#include "smdx/value/internal/go_numbers.h"

namespace smdx::internal {

void ToGoFloats(Value* v) {
  if (v->IsInt()) {
    *v = Value(static_cast<double>(v->AsInt()));
  } else if (v->IsMap()) {
    for (MapEntry& e : v->map().entries()) ToGoFloats(&e.value);
  } else if (v->IsList()) {
    for (Value& item : v->list()) ToGoFloats(&item);
  }
}

void FromGoFloats(Value* v) {
  if (v->IsFloat()) {
    const double f = v->AsFloat();
    constexpr double kInt64End = 9223372036854775808.0;  // 2^63
    if (std::isfinite(f) && f == std::trunc(f) && std::fabs(f) < 1e21 &&
        f >= -kInt64End && f < kInt64End) {
      *v = Value(static_cast<int64_t>(f));
    }
  } else if (v->IsMap()) {
    for (MapEntry& e : v->map().entries()) FromGoFloats(&e.value);
  } else if (v->IsList()) {
    for (Value& item : v->list()) FromGoFloats(&item);
  }
}

}  // namespace smdx::internal
