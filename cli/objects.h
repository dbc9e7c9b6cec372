// The objects a command reads, as kubectl takes them: files holding one
// object, a multi-document YAML stream or a `kind: List`; `-` for standard
// input; directories (their .yaml, .yml and .json files in name order, and
// with `recursive` their subdirectories' too). Objects pair with their live
// versions by API group, kind, namespace and name.
#ifndef SMDX_CLI_OBJECTS_H_
#define SMDX_CLI_OBJECTS_H_

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx::cli {

// One object of the input and where it came from.
struct InputObject {
  Value value;
  std::string source;  // the file, or "-" for standard input
  // The object's place in its file, counting from 1 (documents, then the
  // items of a List), or 0 when the file holds just this object.
  size_t position = 0;
};

// Everything `paths` hold, in order. A file or directory that cannot be
// read, and a document that is not an object, is an error of its own (named
// by file, and by document when the file has several); the other objects
// are still read. Empty documents are skipped, as kubectl skips them.
struct InputObjects {
  std::vector<InputObject> objects;
  std::vector<absl::Status> errors;
};
// Each document is held to `limits` (value/limits.h).
InputObjects ReadObjects(const std::vector<std::string>& paths, bool recursive,
                         const Limits& limits, std::istream& stdin_stream);

// How people know an object: `Deployment default/web (app.yaml)`, with the
// document number when its file holds several.
std::string Describe(const InputObject& o);

// An object's API group (apiVersion without its version) and kind, as one
// string: equal for two versions of the same resource.
std::string GroupKindKey(const Value& object);

// The key objects pair by: API group, kind, namespace and name.
std::string ObjectKey(const Value& object);

// Live objects by key. A configuration without a namespace also finds the
// one live object of its group, kind and name whatever its namespace (as
// kubectl fills in the context's namespace).
class LiveObjects {
 public:
  explicit LiveObjects(const std::vector<InputObject>& live);
  // The live version of `config`, or nullptr (it does not exist yet).
  const InputObject* Find(const Value& config) const;

 private:
  std::map<std::string, const InputObject*> by_key_;
  std::multimap<std::string, const InputObject*> by_name_;
};

}  // namespace smdx::cli

#endif  // SMDX_CLI_OBJECTS_H_
