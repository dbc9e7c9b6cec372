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
#include "smdx/openapi/openapi.h"
#include "smdx/value/parse.h"

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
                                            "patch",
                                            "patch-file",
                                            "now",
                                            "color",
                                            "max-object-bytes",
                                            "max-depth",
                                            "max-yaml-nodes",
                                            "max-list-items",
                                            "max-managed-fields-entries",
                                            "max-fields-v1-bytes"};
  static const char* const kBoolFlags[] = {
      "force",       "force-conflicts", "json", "server-side",         "apply",
      "no-defaults", "recursive",       "help", "no-builtin-defaults", "html",
      "as-kubectl",  "client-side",     "print-request"};
  Flags f;
  for (size_t i = start; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-R") {
      f.bools["recursive"] = true;
      continue;
    }
    if (a == "-p") {  // kubectl patch's short --patch
      if (i + 1 >= args.size())
        return absl::InvalidArgumentError("-p needs a value");
      f.values["patch"] = args[++i];
      f.lists["patch"].push_back(f.values["patch"]);
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
  out.catalog_ = Catalog::FromSet(*std::move(set));
  return out;
}

const SchemaKind* Schemas::KindOf(const Value& object) const {
  return catalog_.FindKind(StringAt(object, "apiVersion"),
                           StringAt(object, "kind"));
}

absl::StatusOr<Type> Schemas::TypeOf(const Value* object) const {
  absl::StatusOr<Type> t =
      type_flag_.empty() ? catalog_.TypeOf(object) : catalog_.Named(type_flag_);
  if (t.ok() || !type_flag_.empty()) return t;
  // Say how to tell the command.
  const char* hint =
      t.status().code() != absl::StatusCode::kNotFound ? "; pass --type"
      : catalog_.builtin()
          ? " (pass --schema with the cluster's OpenAPI or the CRD)"
          : " (pass --type, or the --schema that defines it)";
  return absl::Status(t.status().code(),
                      absl::StrCat(t.status().message(), hint));
}

int Fail(std::ostream& err, const absl::Status& st) {
  err << "error: " << st.message() << "\n";
  return 1;
}

}  // namespace smdx::cli
