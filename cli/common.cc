#include "cli/common.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "openapi/openapi.h"
#include "schema/builtin.h"
#include "value/parse.h"

namespace smdx::cli {

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args,
                                 size_t start) {
  static const char* const kValueFlags[] = {"schema",
                                            "type",
                                            "manager",
                                            "field-manager",
                                            "live",
                                            "lhs",
                                            "rhs",
                                            "filter",
                                            "subresource",
                                            "now",
                                            "color",
                                            "max-object-bytes",
                                            "max-depth",
                                            "max-yaml-nodes",
                                            "max-list-items",
                                            "max-managed-fields-entries",
                                            "max-fields-v1-bytes"};
  static const char* const kBoolFlags[] = {
      "force",       "force-conflicts", "json", "server-side",      "apply",
      "no-defaults", "recursive",       "help", "ignore-list-order"};
  Flags f;
  for (size_t i = start; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-R") {
      f.bools["recursive"] = true;
      continue;
    }
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
      f.lists[name].push_back(value);
    }
    if (!known)
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
  }
  if (f.values.count("field-manager") != 0)
    f.values["manager"] = f.values["field-manager"];
  if (f.bools["force-conflicts"]) f.bools["force"] = true;
  const std::pair<const char*, size_t Limits::*> kLimitFlags[] = {
      {"max-object-bytes", &Limits::max_object_bytes},
      {"max-depth", &Limits::max_depth},
      {"max-yaml-nodes", &Limits::max_yaml_nodes},
      {"max-list-items", &Limits::max_list_items},
      {"max-managed-fields-entries", &Limits::max_managed_fields_entries},
      {"max-fields-v1-bytes", &Limits::max_fields_v1_bytes},
  };
  for (const auto& [name, field] : kLimitFlags) {
    auto it = f.values.find(name);
    if (it == f.values.end()) continue;
    uint64_t n = 0;
    if (!absl::SimpleAtoi(it->second, &n) || n == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, ": expected a positive whole number, got \"",
                       it->second, "\""));
    }
    f.limits.*field = static_cast<size_t>(n);
  }
  return f;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot read the file: it is a directory"));
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int e = errno;
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot read the file: ",
                     e != 0 ? std::strerror(e) : "it cannot be opened"));
  }
  // One read into a string of the file's size (a 4 MB OpenAPI document is
  // read on every call with --schema); streams of unknown size in chunks.
  std::string text;
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size > 0) {
    text.resize(static_cast<size_t>(size));
    in.seekg(0, std::ios::beg);
    in.read(text.data(), size);
    text.resize(static_cast<size_t>(in.gcount()));
  } else {
    in.clear();
    in.seekg(0, std::ios::beg);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  if (in.bad()) {
    return absl::DataLossError(
        absl::StrCat(path, ": cannot read the file: a read failed"));
  }
  return text;
}

namespace {

// The files of a --schema path: the file itself, or a directory's .json,
// .yaml and .yml files in name order.
absl::StatusOr<std::vector<std::string>> SchemaFiles(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec))
    return std::vector<std::string>{path};
  std::vector<std::string> files;
  for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string ext = it->path().extension().string();
    if (ext == ".json" || ext == ".yaml" || ext == ".yml")
      files.push_back(it->path().string());
  }
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot read the directory: ", ec.message()));
  }
  if (files.empty()) {
    return absl::NotFoundError(
        absl::StrCat(path, ": the directory holds no .json or .yaml files"));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

absl::StatusOr<Schemas> Schemas::Load(const Flags& f) {
  Schemas out;
  out.type_flag_ = f.Get("type");
  std::vector<std::string> paths = f.All("schema");
  if (paths.empty()) {
    const char* env = std::getenv(kSchemaEnv);
    if (env != nullptr && *env != '\0') {
      for (absl::string_view p : absl::StrSplit(env, ':', absl::SkipEmpty()))
        paths.emplace_back(p);
    }
  }
  if (paths.empty()) return out;
  SchemaSetBuilder builder;
  for (const std::string& path : paths) {
    absl::StatusOr<std::vector<std::string>> files = SchemaFiles(path);
    if (!files.ok()) return files.status();
    for (const std::string& file : *files) {
      absl::StatusOr<std::string> text = ReadFile(file);
      if (!text.ok()) return text.status();
      if (absl::Status st = builder.Add(*text); !st.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(file, ": ", st.message()));
      }
    }
  }
  absl::StatusOr<SchemaSet> set = std::move(builder).Build();
  if (!set.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--schema ", absl::StrJoin(paths, ", "), ": ", set.status().message()));
  }
  out.set_ = *std::move(set);
  return out;
}

const SchemaKind* Schemas::KindOf(const Value& object) const {
  if (!set_.has_value()) return nullptr;
  return set_->FindKind(StringAt(object, "apiVersion"),
                        StringAt(object, "kind"));
}

absl::StatusOr<std::shared_ptr<const Schema>> Schemas::Whole() const {
  if (!set_.has_value()) return KubernetesSchema();
  return set_->schema;
}

namespace {

// A built-in kind's type, from the embedded schema cut down to that type
// (which a process parses in a fraction of the time of the whole); empty
// `name` looks the kind up.
absl::StatusOr<Type> BuiltinType(std::string name,
                                 const std::string& api_version,
                                 const std::string& kind) {
  if (name.empty()) {
    for (const KubernetesKind& k : KubernetesKinds()) {
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

absl::Status NoKindError() {
  return absl::InvalidArgumentError(
      "cannot tell the object's type: it has no apiVersion/kind; pass --type");
}

}  // namespace

absl::StatusOr<Type> Schemas::TypeOf(const Value* object) const {
  std::string api_version =
      object != nullptr ? StringAt(*object, "apiVersion") : "";
  std::string kind = object != nullptr ? StringAt(*object, "kind") : "";
  const bool has_kind = !api_version.empty() && !kind.empty();
  if (!set_.has_value()) {
    if (type_flag_.empty() && !has_kind) return NoKindError();
    return BuiltinType(type_flag_, api_version, kind);
  }
  if (!type_flag_.empty()) return Type::Named(set_->schema, type_flag_);
  if (const SchemaKind* k = set_->FindKind(api_version, kind)) {
    return Type::Named(set_->schema, k->type_name);
  }
  if (!has_kind) {
    if (!set_->default_type.empty()) {
      return Type::Named(set_->schema, set_->default_type);
    }
    return NoKindError();
  }
  // Kubernetes' naming in the documents (an SMD schema of the built-in
  // types), then the built-in kinds the documents leave out (CRD files
  // extend the built-in API), then the one type they make obvious.
  if (absl::StatusOr<std::string> name =
          KubernetesTypeName(*set_->schema, api_version, kind);
      name.ok()) {
    return Type::Named(set_->schema, *name);
  }
  absl::StatusOr<Type> builtin = BuiltinType("", api_version, kind);
  if (builtin.ok()) return builtin;
  // A bare schema object declares no kinds: its type is every object's.
  if (!set_->default_type.empty() && set_->kinds.empty()) {
    return Type::Named(set_->schema, set_->default_type);
  }
  return absl::NotFoundError(absl::StrCat(
      "neither the schema nor the built-in Kubernetes types have kind \"", kind,
      "\" in apiVersion \"", api_version,
      "\" (pass --type, or the --schema that defines it)"));
}

int Fail(std::ostream& err, const absl::Status& st) {
  err << "error: " << st.message() << "\n";
  return 1;
}

}  // namespace smdx::cli
