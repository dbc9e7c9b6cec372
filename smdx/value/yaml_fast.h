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
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

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

// Counts the nodes of one YAML document the way the API server's reader
// (yaml.v2) does: the document, every scalar, list, map and map key, and
// an alias one node plus all the nodes of its anchor's node again (aliases
// in there included). Holds the count to Limits::max_yaml_nodes and the
// alias rule (WithinAliasRatio). Shared by both YAML readers so they agree.
class YamlNodeBudget {
 public:
  explicit YamlNodeBudget(const Limits& limits) : limits_(&limits) {}

  // A new document (which counts as a node).
  void Reset() {
    nodes_ = 1;
    aliased_ = checked_ = 0;
  }
  // One node read from the text.
  void Add() { ++nodes_; }
  // The nodes counted so far: an anchor's node counts the difference
  // between before and after it.
  size_t nodes() const { return nodes_; }
  // An alias whose anchor's node counted `count` nodes. Returns the error,
  // or "" when the document stays within the limits.
  std::string AddAlias(size_t count);
  // The document has ended: "" or the error.
  std::string Finish();

 private:
  // The alias rule between the last check and now (no aliases since).
  std::string CheckSinceLast();
  std::string RatioError(size_t nodes) const;

  const Limits* limits_;
  size_t nodes_ = 0;
  size_t aliased_ = 0;
  size_t checked_ = 0;  // nodes_ at the last check of the alias rule
};

// Reads every document of `text` into `docs` (as yaml-cpp's event stream
// gives them, before ParseYamlDocuments drops a trailing empty document).
// Returns false when the full parser must decide, which includes every
// document over a limit; `docs` is then unspecified.
//
// `known` says what the caller already checked of the text's bytes, so that
// they are not gone over twice.
enum class YamlBytes {
  kUnchecked,
  // UTF-8 of YAML's printable characters (the apiserver's check of a
  // document's characters passed), and no carriage return.
  kPrintableWithoutCr,
};
bool FastParseYamlStream(absl::string_view text, const Limits& limits,
                         std::vector<FastYamlDocument>* docs,
                         YamlBytes known = YamlBytes::kUnchecked);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_YAML_FAST_H_
