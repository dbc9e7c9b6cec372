#include "cli/schema_cmd.h"

#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "smdx/openapi/openapi.h"
#include "smdx/schema/schema.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

namespace smdx::cli {

namespace {

constexpr absl::string_view kSchemaUsage =
    R"(usage: smdx schema convert FILE

Prints FILE as an SMD schema (the `types: [...]` format). FILE is an OpenAPI
v2 document (`definitions`), an OpenAPI v3 document (`components.schemas`),
one OpenAPI schema object (its root type is named "root"), a
CustomResourceDefinition (v1 or v1beta1; one document per version), or an SMD
schema. `-` reads standard input.
)";

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  std::stringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read the file");
  ss << in.rdbuf();
  return ss.str();
}

// The version schemas of every CRD in `text`, or nullopt when `text` is
// not a stream of CRDs.
absl::StatusOr<std::optional<std::vector<CrdVersionSchema>>> CrdSchemas(
    absl::string_view text) {
  using Result = std::optional<std::vector<CrdVersionSchema>>;
  absl::StatusOr<std::vector<Value>> all =
      ParseYamlOrJsonDocuments(text, SchemaDocumentLimits());
  if (!all.ok()) return Result();  // LoadAnySchema reports it
  std::vector<Value> docs = *std::move(all);
  std::vector<CrdVersionSchema> out;
  for (const Value& d : docs) {
    if (d.IsNull()) continue;
    if (DetectSchemaFormat(d) != SchemaFormat::kCrd) return Result();
    absl::StatusOr<std::vector<CrdVersionSchema>> v = SchemasFromCrd(d);
    if (!v.ok()) return v.status();
    for (CrdVersionSchema& s : *v) out.push_back(std::move(s));
  }
  if (out.empty()) return Result();
  return Result(std::move(out));
}

int Convert(const std::string& path, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    err << "error: " << path << ": " << text.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::optional<std::vector<CrdVersionSchema>>> crds =
      CrdSchemas(*text);
  if (!crds.ok()) {
    err << "error: " << path << ": " << crds.status().message() << "\n";
    return 1;
  }
  if (crds->has_value()) {
    bool first = true;
    for (const CrdVersionSchema& s : **crds) {
      if (!first) out << "---\n";
      first = false;
      out << "# " << s.api_version << " " << s.kind << ": root type "
          << s.type_name << "\n"
          << SchemaToSmdYaml(*s.schema);
    }
    return 0;
  }
  std::string root;
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      LoadAnySchema(*text, &root);
  if (!schema.ok()) {
    err << "error: " << path << ": " << schema.status().message() << "\n";
    return 1;
  }
  if (!root.empty()) out << "# root type " << root << "\n";
  out << SchemaToSmdYaml(**schema);
  return 0;
}

}  // namespace

int CmdSchema(const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err) {
  if (!args.empty() &&
      (args[0] == "help" || args[0] == "--help" || args[0] == "-h")) {
    out << kSchemaUsage;
    return 0;
  }
  if (args.size() != 2 || args[0] != "convert") {
    err << kSchemaUsage;
    return 2;
  }
  return Convert(args[1], out, err);
}

}  // namespace smdx::cli
