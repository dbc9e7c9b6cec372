// A compact binary form of type definitions, for schemas compiled into the
// program (schema/builtin.h): written at build time by the generator of
// the embedded Kubernetes schema and read back straight into TypeDefs, which
// costs a fraction of parsing the same types from their SMD YAML (no text
// to scan, no Value tree in between).
//
// The form is private to one build of smdx: the writer and the reader are
// compiled together, so it has no version and is not a storage format.
// What the reader returns is what the writer was given: every field of the
// definition (defaults and immutability markers included), nothing that
// linking builds. Reading checks every length and tag against the bytes it
// has, so damaged input is an error, never a read past the end.
//
// Example:
//   std::string bytes;
//   AppendEncodedTypeDef(def, &bytes);
//   absl::StatusOr<TypeDef> back = DecodeTypeDef(bytes);
#ifndef SMDX_SCHEMA_TYPEDEF_CODEC_H_
#define SMDX_SCHEMA_TYPEDEF_CODEC_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/schema/schema.h"

namespace smdx {

// Appends the binary form of `def` (not linked: what Schema::ParseSmdTypes
// returns, or a CopyTypeDef) to `*out`.
void AppendEncodedTypeDef(const TypeDef& def, std::string* out);

// Reads one type definition that takes all of `bytes`. InvalidArgument for
// bytes that are not one.
absl::StatusOr<TypeDef> DecodeTypeDef(absl::string_view bytes);

}  // namespace smdx

#endif  // SMDX_SCHEMA_TYPEDEF_CODEC_H_
