// A fast reader for the YAML that Kubernetes manifests are written in.
//
// ParseYaml and ParseYamlDocuments (value/parse.h) first try this reader:
// one pass over the text, building Values directly, for the block-style
// subset real manifests use — block mappings and sequences (including a
// sequence at the same indentation as its parent key), flow collections,
// plain, quoted and block scalars, comments, `---`/`...` document markers,
// anchors and aliases, and `!!type`/`!name` tags. Scalars resolve through
// the same YAML 1.1 rules as the full parser (internal::
// ResolvePlainYamlScalar and friends in value/parse.h).
//
// The full parser (yaml-cpp, in value/parse.cc) stays the reference: for
// every text this reader accepts it yields the same documents, and the
// reader declines everything else. It declines every error (so messages
// are yaml-cpp's) and whatever is outside the subset or where yaml-cpp has
// quirks of its own: complex keys (`? `), directives (`%`), tabs in
// indentation, carriage returns, control characters and byte order marks,
// content after `---` on its line, keys that are not a plain or quoted
// scalar on one line (or longer than 1000 bytes), anchors, tags or aliases
// as keys, a tag with no node after it, anchors or tags before a block
// scalar where yaml-cpp could start a key, multi-line plain scalars,
// single-pair mappings, anchors and tags inside flow collections, verbatim
// and named tags,
// and nesting deeper than kFastYamlMaxDepth. Declining is always safe: the
// caller then runs yaml-cpp, which gives the result or error it always has.
//
// Internal to the value/ readers; not part of the API.
#ifndef SMDX_VALUE_YAML_FAST_H_
#define SMDX_VALUE_YAML_FAST_H_

#include <cstddef>
#include <vector>

#include "absl/strings/string_view.h"
#include "value/value.h"

namespace smdx {
namespace internal {

// The deepest nesting of collections the fast reader handles (it recurses);
// yaml-cpp's own limit is 499 levels.
inline constexpr int kFastYamlMaxDepth = 200;

struct FastYamlDocument {
  Value value;
  // Byte offset of the document's first token, as yaml-cpp reports it for
  // documents that start with `---` or `...` (for others: where their
  // content starts).
  size_t start_pos = 0;
};

// Reads every document of `text` into `docs` (as yaml-cpp's event stream
// gives them, before ParseYamlDocuments drops a trailing empty document).
// Returns false when the full parser must decide; `docs` is then
// unspecified.
bool FastParseYamlStream(absl::string_view text,
                         std::vector<FastYamlDocument>* docs);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_YAML_FAST_H_
