// Helpers shared by the `smdx` subcommands: flags, reading objects and
// schemas, and finding an object's type.
#ifndef SMDX_CLI_COMMON_H_
#define SMDX_CLI_COMMON_H_

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "smdx/embed/catalog.h"
#include "smdx/openapi/openapi.h"
#include "smdx/schema/schema.h"
#include "smdx/typed/typed.h"
#include "smdx/value/limits.h"
#include "smdx/value/value.h"

namespace smdx::cli {

struct Flags {
  std::map<std::string, std::string> values;
  // Every value of flags that may be repeated (--schema), in order.
  std::map<std::string, std::vector<std::string>> lists;
  std::map<std::string, bool> bools;
  std::vector<std::string> positional;
  // The input limits: the defaults, or what --max-object-bytes,
  // --max-depth, --max-yaml-nodes, --max-list-items,
  // --max-managed-fields-entries and --max-fields-v1-bytes set.
  Limits limits;

  bool Bool(const std::string& name) const {
    auto it = bools.find(name);
    return it != bools.end() && it->second;
  }
  // The value of --name (the last one), or `def`.
  std::string Get(const std::string& name, const std::string& def = "") const {
    auto it = values.find(name);
    return it == values.end() ? def : it->second;
  }
  std::vector<std::string> All(const std::string& name) const {
    auto it = lists.find(name);
    return it == lists.end() ? std::vector<std::string>() : it->second;
  }
};

// Parses `args` from index `start`: --name VALUE, --name=VALUE, --bool, and
// -R (--recursive). --field-manager is --manager and --force-conflicts is
// --force. A lone `-` is a positional argument (standard input).
absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args,
                                 size_t start);

// The file's contents; the error names the file and says why it cannot be
// read.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// The environment variable that gives the default --schema: one path, or
// several separated by ':'.
inline constexpr char kSchemaEnv[] = "SMDX_SCHEMA";

// The schemas a command types objects with: every --schema (a file, or a
// directory of them such as the /openapi/v3 group documents; SMDX_SCHEMA
// when there is no --schema), combined as SchemaSetBuilder does, or without
// any the embedded Kubernetes schema (embed/catalog.h).
class Schemas {
 public:
  static absl::StatusOr<Schemas> Load(const Flags& f);

  // The type of `object`: --type, else the catalog's type of its
  // apiVersion and kind (Catalog::TypeOf).
  absl::StatusOr<Type> TypeOf(const Value* object) const;
  // The kind of `object` as the documents declare it (nullptr with the
  // embedded schema, or when they do not).
  const SchemaKind* KindOf(const Value& object) const;
  // The whole schema (the embedded one parsed whole).
  absl::StatusOr<std::shared_ptr<const Schema>> Whole() const {
    return catalog_.Whole();
  }
  const Catalog& catalog() const { return catalog_; }

 private:
  std::string type_flag_;
  Catalog catalog_ = Catalog::Builtin();
};

// An object with its type.
struct TypedObject {
  smdx::Value value;
  Type type;
};

// Prints "error: MESSAGE" and returns 1.
int Fail(std::ostream& err, const absl::Status& st);

}  // namespace smdx::cli

#endif  // SMDX_CLI_COMMON_H_
