// The limits smdx enforces on its input, in one struct a server can set.
//
// Every reader takes a Limits (value/parse.h for objects, fieldpath/
// fields_v1.h for fieldsV1, fieldmanager/managed_fields.h for managedFields)
// and so does the FieldManager (FieldManagerOptions::limits). Input over a
// limit fails with ResourceExhausted (malformed input is InvalidArgument),
// naming the limit by the name of its field here, and the figure:
//   document of 3145729 bytes is over the max_object_bytes limit of 3145728
//   .spec.items: list of more than 1048576 items is over the max_list_items
//   limit of 1048576
// The defaults follow the Kubernetes API server where it has a limit, and
// are far above what it stores where it has none (etcd keeps objects of at
// most 1.5 MiB). The `smdx` command takes each as a flag
// (--max-object-bytes and so on).
//
// Part of value/, the bottom layer.
#ifndef SMDX_VALUE_LIMITS_H_
#define SMDX_VALUE_LIMITS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"

namespace smdx {

struct Limits {
  // Bytes of one document: a JSON or YAML text, or one document of a YAML
  // stream. The API server's default request body limit (3 MiB).
  size_t max_object_bytes = 3 * 1024 * 1024;

  // Levels of nested lists and maps: a document whose top-level list or map
  // counts as level 1 may nest containers down to this level. The API
  // server's JSON reader allows 10000; smdx's algorithms recurse per level
  // on fixed-size C++ stacks, so it stops at 1000, deeper than any real
  // object (they nest a few dozen levels at most) and safe on a 1 MiB
  // thread stack. Values built in code are held to the same 1000 levels by
  // the typed layer (typed/typed.h). yaml-cpp, behind the YAML reader,
  // refuses 500 levels of its own, whatever this limit ("... is over the
  // YAML reader's own limit of 499 levels").
  size_t max_depth = 1000;

  // Nodes of one YAML document after its aliases are expanded, counted as
  // yaml.v2 counts them (the document, each scalar, list, map and map key,
  // and each alias as one node plus all of its anchor's): a bound on "billion laughs" documents, which
  // are small but expand exponentially. Besides this bound, aliases are held
  // to the API server's own rule (sigs.k8s.io/yaml, i.e. yaml.v2): once more
  // than 100 nodes of a document of more than 1000 come from aliases, they
  // may make up at most 99% of it, a share that falls linearly from 400,000
  // nodes to 10% at 4,000,000.
  size_t max_yaml_nodes = 10'000'000;

  // Items of one list. The API server has no limit of its own; a stored
  // object cannot come near this one.
  size_t max_list_items = 1 << 20;

  // Entries of one object's metadata.managedFields. The API server keeps at
  // most 10 Update entries (it merges older ones) but does not bound Apply
  // entries; real objects have a handful.
  size_t max_managed_fields_entries = 10'000;

  // Bytes of one fieldsV1 field set, in its compact JSON encoding.
  size_t max_fields_v1_bytes = 3 * 1024 * 1024;
};

// The limits for documents that are not objects (OpenAPI documents, CRDs
// and SMD schemas, the Kubernetes swagger is 4 MB): the defaults, with room
// for 256 MiB.
inline Limits SchemaDocumentLimits() {
  Limits l;
  l.max_object_bytes = size_t{256} << 20;
  return l;
}

// The ResourceExhausted error of an input over a limit: `what` (e.g.
// "document of 3145729 bytes", or "<path>: list of 12 items") "is over the
// <name> limit of <limit>".
absl::Status LimitError(const std::string& what, const char* name,
                        size_t limit);

// The API server's alias rule (see Limits::max_yaml_nodes): whether a YAML
// document of `nodes` nodes, `alias_nodes` of them from aliases, is within
// it.
bool WithinAliasRatio(size_t alias_nodes, size_t nodes);

}  // namespace smdx

#endif  // SMDX_VALUE_LIMITS_H_
