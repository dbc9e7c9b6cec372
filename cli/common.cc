#include "cli/common.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "schema/builtin.h"
#include "schema/openapi.h"
#include "typed/parse.h"

namespace smdx::cli {

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args,
                                 size_t start) {
  static const char* const kValueFlags[] = {
      "schema", "type",   "manager",     "field-manager", "live", "lhs",
      "rhs",    "filter", "subresource", "now",           "color"};
  static const char* const kBoolFlags[] = {"force", "force-conflicts",
                                           "json",  "server-side",
                                           "apply", "no-defaults"};
  Flags f;
  for (size_t i = start; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
      f.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool has_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    bool known = false;
    for (const char* b : kBoolFlags) {
      if (name == b) {
        f.bools[name] = !has_value || value == "true";
        known = true;
      }
    }
    for (const char* v : kValueFlags) {
      if (name != v) continue;
      known = true;
      if (!has_value) {
        if (i + 1 >= args.size())
          return absl::InvalidArgumentError(
              absl::StrCat("--", name, " needs a value"));
        value = args[++i];
      }
      f.values[name] = value;
    }
    if (!known)
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
  }
  if (f.values.count("field-manager") != 0)
    f.values["manager"] = f.values["field-manager"];
  if (f.bools["force-conflicts"]) f.bools["force"] = true;
  return f;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat(path, ": cannot read the file"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

absl::StatusOr<Value> ReadObject(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<Value> v = ParseYamlOrJson(*text);
  if (!v.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", v.status().message()));
  return v;
}

// The --schema file: an SMD schema, an OpenAPI v2/v3 document, a bare
// OpenAPI schema object or a CRD manifest (detected). Without --schema, the
// embedded Kubernetes schema. `default_type` names the type when the file
// makes it obvious.
absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(
    const Flags& f, std::string* default_type) {
  default_type->clear();
  auto it = f.values.find("schema");
  if (it == f.values.end()) return KubernetesSchema();
  absl::StatusOr<std::string> text = ReadFile(it->second);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      LoadAnySchema(*text, default_type);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(it->second, ": ", s.status().message()));
  }
  return s;
}

absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(const Flags& f) {
  std::string ignored;
  return LoadSchema(f, &ignored);
}

namespace {

// For a CRD --schema: the version's type for the object's apiVersion.
absl::StatusOr<Type> CrdType(const std::string& file,
                             const std::string& api_version) {
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return text.status();
  absl::StatusOr<Value> doc = ParseYamlOrJson(*text);
  if (!doc.ok()) return doc.status();
  absl::StatusOr<std::vector<CrdVersionSchema>> versions = SchemasFromCrd(*doc);
  if (!versions.ok()) return versions.status();
  for (const CrdVersionSchema& v : *versions) {
    if (v.api_version == api_version) return Type::Named(v.schema, v.type_name);
  }
  return absl::NotFoundError(absl::StrCat(
      file, ": the CRD has no version for apiVersion \"", api_version, "\""));
}

// apiVersion and kind of `object`, or an error saying they are missing.
absl::Status ApiVersionAndKind(const Value* object, std::string* api_version,
                               std::string* kind) {
  const Value* av = object != nullptr && object->IsMap()
                        ? object->map().Find("apiVersion")
                        : nullptr;
  const Value* k = object != nullptr && object->IsMap()
                       ? object->map().Find("kind")
                       : nullptr;
  if (av == nullptr || k == nullptr || !av->IsString() || !k->IsString()) {
    return absl::InvalidArgumentError(
        "cannot tell the object's type: it has "
        "no apiVersion/kind; pass --type");
  }
  *api_version = av->AsString();
  *kind = k->AsString();
  return absl::OkStatus();
}

// Without --schema: the embedded schema cut down to the one type, which a
// process parses in a fraction of the time of the whole.
absl::StatusOr<Type> BuiltinType(const Flags& f, const Value* object) {
  std::string name = f.Get("type");
  if (name.empty()) {
    std::string api_version, kind;
    if (absl::Status s = ApiVersionAndKind(object, &api_version, &kind);
        !s.ok()) {
      return s;
    }
    std::vector<KubernetesKind> kinds = KubernetesKinds();
    for (const KubernetesKind& k : kinds) {
      if (k.api_version == api_version && k.kind == kind) name = k.type_name;
    }
    if (name.empty()) {
      return absl::NotFoundError(absl::StrCat(
          "the built-in Kubernetes schema has no kind \"", kind,
          "\" in apiVersion \"", api_version,
          "\" (pass --schema with the cluster's OpenAPI or the CRD)"));
    }
  }
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      KubernetesSchemaFor(name);
  if (!schema.ok()) return schema.status();
  return Type::Named(*std::move(schema), name);
}

}  // namespace

// The type of `object`: --type, else the one the schema file names, else
// its apiVersion/kind in the schema.
absl::StatusOr<Type> ResolveType(const Flags& f, const Value* object) {
  if (f.values.count("schema") == 0) return BuiltinType(f, object);
  std::string default_type;
  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      LoadSchema(f, &default_type);
  if (!schema.ok()) return schema.status();
  if (auto it = f.values.find("type"); it != f.values.end()) {
    return Type::Named(*schema, it->second);
  }
  if (!default_type.empty()) return Type::Named(*schema, default_type);
  const Value* av = object != nullptr && object->IsMap()
                        ? object->map().Find("apiVersion")
                        : nullptr;
  const Value* kind = object != nullptr && object->IsMap()
                          ? object->map().Find("kind")
                          : nullptr;
  if (av == nullptr || kind == nullptr || !av->IsString() ||
      !kind->IsString()) {
    return absl::InvalidArgumentError(
        "cannot tell the object's type: it has "
        "no apiVersion/kind; pass --type");
  }
  if (auto it = f.values.find("schema"); it != f.values.end()) {
    absl::StatusOr<std::string> text = ReadFile(it->second);
    absl::StatusOr<Value> doc = text.ok()
                                    ? ParseYamlOrJson(*text)
                                    : absl::StatusOr<Value>(text.status());
    if (doc.ok() && DetectSchemaFormat(*doc) == SchemaFormat::kCrd) {
      return CrdType(it->second, av->AsString());
    }
  }
  absl::StatusOr<std::string> name =
      KubernetesTypeName(**schema, av->AsString(), kind->AsString());
  if (!name.ok()) return name.status();
  return Type::Named(*schema, *name);
}

absl::StatusOr<TypedObject> ReadTypedObject(const Flags& f,
                                            const std::string& path) {
  absl::StatusOr<Value> v = ReadObject(path);
  if (!v.ok()) return v.status();
  absl::StatusOr<Type> t = ResolveType(f, &*v);
  if (!t.ok()) return t.status();
  return TypedObject{*std::move(v), *std::move(t)};
}

int Fail(std::ostream& err, const absl::Status& st) {
  err << "error: " << st.message() << "\n";
  return 1;
}

}  // namespace smdx::cli
