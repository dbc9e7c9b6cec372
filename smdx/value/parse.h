// Parsing JSON and YAML text into Values.
//
// Each parser first tries a hand-written reader that builds Values in one
// pass over the text (value/json_fast.h, value/yaml_fast.h). Those accept
// only what they are sure of; anything else — every error, and YAML outside
// the block-style subset manifests use — goes to the full parsers, which
// build Values from parser events (nlohmann's SAX interface, yaml-cpp's
// event handler) and define the results: the readers give the same Values
// for what they accept. They read documents the way the Kubernetes API
// server does:
//
//  - JSON: integers that fit int64 stay ints, larger unsigned integers become
//    floats, and anything written with a fraction or exponent is a float
//    (`1.0` is a float). Duplicate object keys are an error, as is trailing
//    text after the document.
//  - YAML: scalars resolve by YAML 1.1 rules as gopkg.in/yaml.v2 (under
//    sigs.k8s.io/yaml) does: `yes`/`on`/`y` are booleans, `0x1F` and `017`
//    are ints, `~` is null, quoted scalars are always strings. Map keys become
//    strings the way Kubernetes converts YAML to JSON (`1: a` has key "1",
//    `true: a` has key "true"). Aliases are expanded by copying.
//
// Errors are absl::InvalidArgumentError and say where: a line and column, and
// for semantic errors the path in the document in `.spec.containers[0].name`
// form (`["a.b"]` for field names that are not identifier-like; `.` alone is
// the root).
//
// Differences from Kubernetes, all deliberate or outside yaml-cpp's control:
//  - The YAML merge key `<<` is not supported: it stays an ordinary key.
//  - Plain scalars that yaml.v2 reads as timestamps (`2001-12-14`) stay
//    strings here (the API server would turn them into RFC 3339 strings).
//  - `!!binary` scalars stay as their base64 text; other unknown tags are
//    ignored and the scalar is a string.
//  - A null map key becomes the key "null" (sigs.k8s.io/yaml rejects it).
//  - JSON strings with invalid UTF-8 or unpaired surrogate escapes are
//    rejected (Go would substitute U+FFFD).
//
// Part of value/, the bottom layer: it depends on nothing else in smdx (and
// on value/emit.h only for number
// formatting).
//
// Example:
//   absl::StatusOr<smdx::Value> v = smdx::ParseYaml("replicas: 3\n");
//   if (v.ok()) { /* v->map().Find("replicas")->AsInt() == 3 */ }
#ifndef SMDX_VALUE_PARSE_H_
#define SMDX_VALUE_PARSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx {

// Every reader holds its input to `limits` (value/limits.h: document bytes,
// nesting depth, list items, YAML nodes after alias expansion); input over
// one fails with an error naming the limit.

// Parses one JSON document (RFC 8259; no comments, no trailing commas).
// Empty or whitespace-only input is the error "empty document".
absl::StatusOr<Value> ParseJson(absl::string_view text,
                                const Limits& limits = Limits());

// Parses a single YAML document. An empty document (or a stream of only
// comments) is null. More than one document is an error, except that an
// empty document after a final `---` is ignored.
absl::StatusOr<Value> ParseYaml(absl::string_view text,
                                const Limits& limits = Limits());

// Parses a stream of `---`-separated YAML documents. Empty documents are kept
// as null, except an empty one after a final `---` (as in "a: 1\n---\n"),
// which is dropped. An empty stream yields no documents. max_object_bytes
// holds for each document, not the stream.
absl::StatusOr<std::vector<Value>> ParseYamlDocuments(
    absl::string_view text, const Limits& limits = Limits());

// Parses text that is either JSON or YAML. Text whose first non-whitespace
// character is `{` or `[` is parsed as JSON first. If that fails with a
// syntax error, it is parsed as YAML (YAML flow style allows things JSON
// does not, e.g. `{a: 1}`), and if that fails too the JSON error is
// returned, since it describes what a JSON document was missing. JSON errors
// that are not syntax errors (duplicate keys, nesting depth) are returned
// at once: YAML would reject the same document. Any other text is YAML.
absl::StatusOr<Value> ParseYamlOrJson(absl::string_view text,
                                      const Limits& limits = Limits());

// The documents of a file that is either one JSON document (its first
// non-whitespace character is `{` or `[`, read as ParseYamlOrJson reads it)
// or a YAML stream (ParseYamlDocuments), as kubectl reads files.
absl::StatusOr<std::vector<Value>> ParseYamlOrJsonDocuments(
    absl::string_view text, const Limits& limits = Limits());

}  // namespace smdx

#endif  // SMDX_VALUE_PARSE_H_
