// Helpers shared by the `smdx` subcommands: flags, reading objects and
// schemas, and finding an object's type.
#ifndef SMDX_CLI_COMMON_H_
#define SMDX_CLI_COMMON_H_

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schema/schema.h"
#include "typed/typed.h"
#include "typed/value.h"

namespace smdx::cli {

struct Flags {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> bools;
  std::vector<std::string> positional;

  bool Bool(const std::string& name) const {
    auto it = bools.find(name);
    return it != bools.end() && it->second;
  }
  // The value of --name, or `def`.
  std::string Get(const std::string& name, const std::string& def = "") const {
    auto it = values.find(name);
    return it == values.end() ? def : it->second;
  }
};

// Parses `args` from index `start`: --name VALUE, --name=VALUE, --bool.
// --field-manager is --manager and --force-conflicts is --force.
absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args,
                                 size_t start);

absl::StatusOr<std::string> ReadFile(const std::string& path);
// A YAML or JSON document; errors name the file.
absl::StatusOr<smdx::Value> ReadObject(const std::string& path);

// The --schema file (any format LoadAnySchema detects), or the embedded
// Kubernetes schema. `default_type` names the type when the file makes it
// obvious (a single-type document).
absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(
    const Flags& f, std::string* default_type);
absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(const Flags& f);

// The type of `object`: --type, else the one the schema file names, else
// its apiVersion/kind in the schema (for a CRD, the version's schema).
absl::StatusOr<Type> ResolveType(const Flags& f, const smdx::Value* object);

// An object read from a file, with its type (ResolveType).
struct TypedObject {
  smdx::Value value;
  Type type;
};
absl::StatusOr<TypedObject> ReadTypedObject(const Flags& f,
                                            const std::string& path);

// Prints "error: MESSAGE" and returns 1.
int Fail(std::ostream& err, const absl::Status& st);

}  // namespace smdx::cli

#endif  // SMDX_CLI_COMMON_H_
