// A document as a Go client reads it with encoding/json into interface
// values, where every number is a float64, and back as an apiserver reads
// what the client wrote (json.Marshal writes a whole float64 below 1e21
// without a fraction; a decoder that keeps integers reads it as one where
// it fits an int64). Internal to value/.
#ifndef SMDX_VALUE_INTERNAL_GO_NUMBERS_H_
#define SMDX_VALUE_INTERNAL_GO_NUMBERS_H_

#include "smdx/value/value.h"

namespace smdx::internal {

// Every integer of `v` becomes a float (rounded as float64 rounds it).
void ToGoFloats(Value* v);

// Every whole float of `v` below 1e21 that fits an int64 becomes an
// integer.
void FromGoFloats(Value* v);

}  // namespace smdx::internal

#endif  // SMDX_VALUE_INTERNAL_GO_NUMBERS_H_
