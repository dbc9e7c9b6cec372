// Parsing JSON and YAML text into Values.
//
// Each parser first tries a hand-written reader that builds Values in one
// pass over the text (typed/json_fast.h, typed/yaml_fast.h). Those accept
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
// This layer depends only on typed/value.h (and typed/emit.h for number
// formatting).
//
// Example:
//   absl::StatusOr<smdx::Value> v = smdx::ParseYaml("replicas: 3\n");
//   if (v.ok()) { /* v->map().Find("replicas")->AsInt() == 3 */ }
#ifndef SMDX_TYPED_PARSE_H_
#define SMDX_TYPED_PARSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "typed/value.h"

namespace smdx {

// The deepest nesting of lists and maps the parsers accept: a document whose
// top-level list or map counts as level 1 may nest containers down to level
// 1000. Deeper input is rejected with "nesting deeper than 1000 levels at
// <path>" rather than risking the stack of the recursive algorithms that run
// on Values later. Real Kubernetes objects nest a few dozen levels at most.
//
// yaml-cpp imposes a stricter limit of its own on YAML: it refuses nodes
// nested 500 deep, i.e. allows at most 499 levels (counting scalars). That is
// reported with the same message naming 499 levels.
inline constexpr size_t kMaxParseDepth = 1000;

// The most nodes one YAML document may expand to through aliases. Protects
// against "billion laughs" documents that are small but expand
// exponentially. Checked whenever an alias is expanded.
inline constexpr size_t kMaxYamlAliasExpansionNodes = 10'000'000;

// Parses one JSON document (RFC 8259; no comments, no trailing commas).
// Empty or whitespace-only input is the error "empty document".
absl::StatusOr<Value> ParseJson(absl::string_view text);

// Parses a single YAML document. An empty document (or a stream of only
// comments) is null. More than one document is an error, except that an
// empty document after a final `---` is ignored.
absl::StatusOr<Value> ParseYaml(absl::string_view text);

// Parses a stream of `---`-separated YAML documents. Empty documents are kept
// as null, except an empty one after a final `---` (as in "a: 1\n---\n"),
// which is dropped. An empty stream yields no documents.
absl::StatusOr<std::vector<Value>> ParseYamlDocuments(absl::string_view text);

// Parses text that is either JSON or YAML. Text whose first non-whitespace
// character is `{` or `[` is parsed as JSON first. If that fails with a
// syntax error, it is parsed as YAML (YAML flow style allows things JSON
// does not, e.g. `{a: 1}`), and if that fails too the JSON error is
// returned, since it describes what a JSON document was missing. JSON errors
// that are not syntax errors (duplicate keys, nesting depth) are returned
// at once: YAML would reject the same document. Any other text is YAML.
absl::StatusOr<Value> ParseYamlOrJson(absl::string_view text);

namespace internal {

// How a plain (unquoted, untagged) YAML scalar resolves under the YAML 1.1
// rules described above: null, bool, int, float, or else a string. Exposed
// so that the YAML emitter quotes exactly the strings that would not read
// back as strings.
Value ResolvePlainYamlScalar(absl::string_view text);

// How a YAML scalar resolves given the tag yaml-cpp reports for it: "?" for
// a plain scalar without a tag (as ResolvePlainYamlScalar), "!" for quoted
// and block scalars and `!` (a string), "tag:yaml.org,2002:int" and so on
// for `!!int` etc. Returns nullopt when the text does not fit the tag
// (ParseYaml's "cannot read ... as !!int" error).
std::optional<Value> ResolveTaggedYamlScalar(absl::string_view tag,
                                             absl::string_view text);

// Sets `*key` to the map key a plain YAML scalar becomes (see the file
// comment): `1` has key "1", `true` "true", `~` "null".
void YamlPlainKeyText(absl::string_view text, std::string* key);

// The parsers behind ParseJson, ParseYaml and ParseYamlDocuments without
// their fast readers (typed/json_fast.h, typed/yaml_fast.h): nlohmann's and
// yaml-cpp's. They define the results the fast readers must match; exposed
// for the tests that check that they do.
absl::StatusOr<Value> ParseJsonWithNlohmann(absl::string_view text);
absl::StatusOr<Value> ParseYamlWithYamlCpp(absl::string_view text);
absl::StatusOr<std::vector<Value>> ParseYamlDocumentsWithYamlCpp(
    absl::string_view text);

}  // namespace internal

}  // namespace smdx

#endif  // SMDX_TYPED_PARSE_H_
