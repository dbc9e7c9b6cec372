#include "cli/commands.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "conformance/harness.h"
#include "fieldpath/fields_v1.h"
#include "merge/managed_fields.h"
#include "merge/updater.h"
#include "schema/builtin.h"
#include "schema/openapi.h"
#include "cli/schema_cmd.h"
#include "typed/default.h"
#include "typed/emit.h"
#include "typed/parse.h"
#include "typed/typed.h"

namespace smdx::cli {

namespace {

constexpr absl::string_view kUsage = R"(usage: smdx COMMAND [flags] [args]

Structured merge and server-side apply for Kubernetes objects.

Commands:
  apply --manager NAME [--force] [--live LIVE.yaml] CONFIG.yaml
                        server-side apply CONFIG onto LIVE (or onto nothing);
                        prints the new live object with its managedFields
  update --manager NAME [--live LIVE.yaml] OBJECT.yaml
                        a plain write of OBJECT by NAME (ownership moves)
  validate FILE         check FILE against its type
  fieldset [--apply] FILE
                        print the fields FILE sets, as fieldsV1 JSON: what an
                        update creating FILE would own (containers included),
                        or with --apply what an apply of FILE would own
  merge --lhs A --rhs B merge B (a partial object) into A
  compare --lhs A --rhs B
                        the paths added, removed and modified from A to B
  list-types            the types of the schema
  default FILE          FILE pruned and defaulted from the schema's defaults
  schema convert FILE   an OpenAPI document or CRD as an SMD schema
  conformance [--json] [--filter REGEX] PATH...
                        replay conformance cases

Flags for every command:
  --schema FILE         an SMD schema, an OpenAPI v2/v3 document, an OpenAPI
                        schema object or a CRD manifest (detected; default:
                        the Kubernetes built-in types)
  --type NAME           the root type (default: from the object's apiVersion/kind)
  --field-manager NAME  same as --manager; --force-conflicts same as --force
)";

struct Flags {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> bools;
  std::vector<std::string> positional;
};

absl::StatusOr<Flags> ParseFlags(const std::vector<std::string>& args,
                                 size_t start) {
  static const char* const kValueFlags[] = {
      "schema", "type", "manager", "field-manager", "live",
      "lhs",    "rhs",  "filter",  "api-version"};
  static const char* const kBoolFlags[] = {"force", "force-conflicts", "json",
                                           "server-side", "apply"};
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
absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(const Flags& f,
                                                         std::string* default_type) {
  default_type->clear();
  auto it = f.values.find("schema");
  if (it == f.values.end()) return KubernetesSchema();
  absl::StatusOr<std::string> text = ReadFile(it->second);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::shared_ptr<const Schema>> s = LoadAnySchema(*text, default_type);
  if (!s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(it->second, ": ", s.status().message()));
  }
  return s;
}

absl::StatusOr<std::shared_ptr<const Schema>> LoadSchema(const Flags& f) {
  std::string ignored;
  return LoadSchema(f, &ignored);
}

// For a CRD --schema: the version's type for the object's apiVersion.
absl::StatusOr<Type> CrdType(const std::string& file, const std::string& api_version) {
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return text.status();
  absl::StatusOr<Value> doc = ParseYamlOrJson(*text);
  if (!doc.ok()) return doc.status();
  absl::StatusOr<std::vector<CrdVersionSchema>> versions = SchemasFromCrd(*doc);
  if (!versions.ok()) return versions.status();
  for (const CrdVersionSchema& v : *versions) {
    if (v.api_version == api_version) return Type::Named(v.schema, v.type_name);
  }
  return absl::NotFoundError(
      absl::StrCat(file, ": the CRD has no version for apiVersion \"", api_version, "\""));
}

// The type of `object`: --type, else the one the schema file names, else
// its apiVersion/kind in the schema.
absl::StatusOr<Type> ResolveType(const Flags& f, const Value* object) {
  std::string default_type;
  absl::StatusOr<std::shared_ptr<const Schema>> schema = LoadSchema(f, &default_type);
  if (!schema.ok()) return schema.status();
  if (auto it = f.values.find("type"); it != f.values.end()) {
    return Type::Named(*schema, it->second);
  }
  if (!default_type.empty()) return Type::Named(*schema, default_type);
  const Value* av = object != nullptr && object->IsMap() ? object->map().Find("apiVersion") : nullptr;
  const Value* kind = object != nullptr && object->IsMap() ? object->map().Find("kind") : nullptr;
  if (av == nullptr || kind == nullptr || !av->IsString() || !kind->IsString()) {
    return absl::InvalidArgumentError(
        "cannot tell the object's type: it has no apiVersion/kind; pass --type");
  }
  if (auto it = f.values.find("schema"); it != f.values.end()) {
    absl::StatusOr<std::string> text = ReadFile(it->second);
    absl::StatusOr<Value> doc = text.ok() ? ParseYamlOrJson(*text) : absl::StatusOr<Value>(text.status());
    if (doc.ok() && DetectSchemaFormat(*doc) == SchemaFormat::kCrd) {
      return CrdType(it->second, av->AsString());
    }
  }
  absl::StatusOr<std::string> name = KubernetesTypeName(**schema, av->AsString(), kind->AsString());
  if (!name.ok()) return name.status();
  return Type::Named(*schema, *name);
}

std::string Now() {
  std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

int Fail(std::ostream& err, const absl::Status& st) {
  err << "error: " << st.message() << "\n";
  return 1;
}

int CmdValidate(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.size() != 1)
    return Fail(err, absl::InvalidArgumentError("validate takes one FILE"));
  absl::StatusOr<Value> v = ReadObject(f.positional[0]);
  if (!v.ok()) return Fail(err, v.status());
  absl::StatusOr<Type> t = ResolveType(f, &*v);
  if (!t.ok()) return Fail(err, t.status());
  if (absl::Status st = Validate(*t, *v); !st.ok()) {
    err << f.positional[0] << ": invalid " << t->name() << ":\n"
        << st.message() << "\n";
    return 1;
  }
  out << f.positional[0] << ": valid " << t->name() << "\n";
  return 0;
}

int CmdFieldset(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.size() != 1)
    return Fail(err, absl::InvalidArgumentError("fieldset takes one FILE"));
  absl::StatusOr<Value> v = ReadObject(f.positional[0]);
  if (!v.ok()) return Fail(err, v.status());
  absl::StatusOr<Type> t = ResolveType(f, &*v);
  if (!t.ok()) return Fail(err, t.status());
  if (absl::Status st = Validate(*t, *v); !st.ok()) return Fail(err, st);
  if (f.bools.count("apply") != 0 && f.bools.at("apply")) {
    out << SerializeFieldsV1(ToFieldSet(*t, *v));
    return 0;
  }
  // As SMD's own tool: the fields a write of the object onto an empty
  // object adds, which includes the containers themselves.
  Value empty = Value::MakeMap();
  out << SerializeFieldsV1(Compare(*t, &empty, &*v).added);
  return 0;
}

int CmdListTypes(const Flags& f, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = LoadSchema(f);
  if (!s.ok()) return Fail(err, s.status());
  for (const TypeDef& t : (*s)->types()) out << t.name << "\n";
  return 0;
}

int CmdMergeOrCompare(const Flags& f, bool merge, std::ostream& out,
                      std::ostream& err) {
  auto lp = f.values.find("lhs");
  auto rp = f.values.find("rhs");
  if (lp == f.values.end() || rp == f.values.end()) {
    return Fail(err,
                absl::InvalidArgumentError("needs --lhs FILE and --rhs FILE"));
  }
  absl::StatusOr<Value> lhs = ReadObject(lp->second);
  if (!lhs.ok()) return Fail(err, lhs.status());
  absl::StatusOr<Value> rhs = ReadObject(rp->second);
  if (!rhs.ok()) return Fail(err, rhs.status());
  absl::StatusOr<Type> t = ResolveType(f, &*lhs);
  if (!t.ok()) return Fail(err, t.status());
  if (absl::Status st = Validate(*t, *lhs); !st.ok()) {
    return Fail(err, absl::InvalidArgumentError(
                         absl::StrCat(lp->second, ": ", st.message())));
  }
  if (absl::Status st = Validate(*t, *rhs); !st.ok()) {
    return Fail(err, absl::InvalidArgumentError(
                         absl::StrCat(rp->second, ": ", st.message())));
  }
  if (merge) {
    absl::StatusOr<Value> m = Merge(*t, &*lhs, &*rhs);
    if (!m.ok()) return Fail(err, m.status());
    out << ToYaml(*m);
    return 0;
  }
  Comparison c = Compare(*t, &*lhs, &*rhs);
  auto section = [&](const char* name, const Set& s) {
    out << name << ":\n";
    s.Iterate([&](const Path& p) { out << "- " << PathString(p) << "\n"; });
  };
  section("added", c.added);
  section("modified", c.modified);
  section("removed", c.removed);
  return 0;
}

int CmdApplyOrUpdate(const Flags& f, bool apply, std::ostream& out,
                     std::ostream& err) {
  auto m = f.values.find("manager");
  if (m == f.values.end() || m->second.empty()) {
    return Fail(err, absl::InvalidArgumentError(
                         "needs --manager NAME (or --field-manager)"));
  }
  if (f.positional.size() != 1) {
    return Fail(err, absl::InvalidArgumentError(
                         apply ? "apply takes one CONFIG file"
                               : "update takes one OBJECT file"));
  }
  absl::StatusOr<Value> config = ReadObject(f.positional[0]);
  if (!config.ok()) return Fail(err, config.status());
  Value live;
  if (auto l = f.values.find("live"); l != f.values.end()) {
    absl::StatusOr<Value> v = ReadObject(l->second);
    if (!v.ok()) return Fail(err, v.status());
    live = *std::move(v);
  }
  absl::StatusOr<Type> t = ResolveType(f, &*config);
  if (!t.ok()) return Fail(err, t.status());
  absl::StatusOr<DecodedManagedFields> before = DecodeManagedFields(live);
  if (!before.ok()) return Fail(err, before.status());
  std::string version;
  if (const Value* av =
          config->IsMap() ? config->map().Find("apiVersion") : nullptr;
      av != nullptr && av->IsString()) {
    version = av->AsString();
  }
  if (auto v = f.values.find("api-version"); v != f.values.end())
    version = v->second;
  ManagerIdentity id{m->second, apply ? "Apply" : "Update", version, ""};
  std::string key = EncodeManagerIdentity(id);
  Value live_body = StripManagedFields(live);
  Value config_body = StripManagedFields(*config);

  Updater u(*t);
  OpResult r =
      apply ? u.Apply(live_body, config_body, version, before->managers, key,
                      f.bools.count("force") != 0 && f.bools.at("force"))
            : u.Update(live_body, config_body, version, before->managers, key);
  if (r.kind == ErrorKind::kConflict) {
    err << "error: " << KubernetesConflictMessage(r.conflicts) << "\n"
        << "The fields above have other managers. To resolve this, either:\n"
        << "* apply again with --force to take them over (the other managers "
           "lose them),\n"
        << "* remove them from your configuration to leave them to their "
           "managers, or\n"
        << "* set them to the values they have now to share ownership.\n";
    return 2;
  }
  if (!r.ok()) {
    err << "error (" << ErrorKindName(r.kind) << "): " << r.status.message()
        << "\n";
    return 1;
  }
  Value result = std::move(r.object);
  if (!result.IsMap()) result = Value::MakeMap();
  Value* meta = result.map().Find("metadata");
  if (meta == nullptr || !meta->IsMap()) {
    result.map().Set("metadata", Value::MakeMap());
    meta = result.map().Find("metadata");
  }
  meta->map().Set("managedFields",
                  EncodeManagedFields(r.managers, *before, Now()));
  out << ToYaml(result);
  return 0;
}

int CmdDefault(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.size() != 1) {
    err << "error: default takes one FILE\n";
    return 2;
  }
  absl::StatusOr<Value> v = ReadObject(f.positional[0]);
  if (!v.ok()) return Fail(err, v.status());
  absl::StatusOr<Type> t = ResolveType(f, &*v);
  if (!t.ok()) return Fail(err, t.status());
  // As the apiserver's pipeline for custom resources: prune, then default.
  Value defaulted = ApplyDefaults(*t, Prune(*t, *v));
  if (absl::Status st = Validate(*t, defaulted); !st.ok()) {
    err << "warning: the defaulted object does not validate:\n" << st.message() << "\n";
  }
  out << ToYaml(defaulted);
  return 0;
}

int CmdConformance(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.empty()) {
    err << "usage: smdx conformance [--json] [--filter REGEX] PATH...\n";
    return 2;
  }
  ConformanceOptions opts;
  if (auto it = f.values.find("filter"); it != f.values.end())
    opts.filter = it->second;
  ConformanceReport rep;
  try {
    rep = RunConformance(f.positional, opts);
  } catch (const std::regex_error& e) {
    err << "error: --filter: " << e.what() << "\n";
    return 2;
  }
  bool json = f.bools.count("json") != 0 && f.bools.at("json");
  out << (json ? FormatReportJson(rep) : FormatReportText(rep));
  if (rep.file_error) return 2;
  return rep.failed > 0 ? 1 : 0;
}

}  // namespace

int Run(const std::vector<std::string>& args, std::ostream& out,
        std::ostream& err) {
  if (!args.empty() && args[0] == "schema") {
    return CmdSchema(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  }
  if (args.empty() || args[0] == "help" || args[0] == "--help" ||
      args[0] == "-h") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? 2 : 0;
  }
  absl::StatusOr<Flags> f = ParseFlags(args, 1);
  if (!f.ok()) {
    err << "error: " << f.status().message() << "\n" << kUsage;
    return 2;
  }
  const std::string& cmd = args[0];
  if (cmd == "validate") return CmdValidate(*f, out, err);
  if (cmd == "fieldset") return CmdFieldset(*f, out, err);
  if (cmd == "list-types") return CmdListTypes(*f, out, err);
  if (cmd == "merge") return CmdMergeOrCompare(*f, true, out, err);
  if (cmd == "compare") return CmdMergeOrCompare(*f, false, out, err);
  if (cmd == "apply") return CmdApplyOrUpdate(*f, true, out, err);
  if (cmd == "update") return CmdApplyOrUpdate(*f, false, out, err);
  if (cmd == "conformance") return CmdConformance(*f, out, err);
  if (cmd == "default") return CmdDefault(*f, out, err);
  err << "error: unknown command \"" << cmd << "\"\n" << kUsage;
  return 2;
}

}  // namespace smdx::cli
