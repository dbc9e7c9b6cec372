#include "conformance/harness.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/reset_fields.h"
#include "smdx/fieldmanager/scale.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/kubetypes/builtin_kind.h"
#include "smdx/merge/updater.h"
#include "smdx/openapi/openapi.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/schema.h"
#include "smdx/typed/default.h"
#include "smdx/typed/immutable.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace {

namespace fs = std::filesystem;

// The error kinds of the format.
constexpr char kInvalid[] = "invalid";
constexpr char kSchemaError[] = "schema";
constexpr char kParse[] = "parse";

absl::StatusOr<std::string> ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", p.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A case failure: the reason and the diff lines.
struct Failure {
  std::string reason;
  std::vector<std::string> diff;
};

std::string StringOr(const Value* v, std::string def = "") {
  return v != nullptr && v->IsString() ? v->AsString() : def;
}

// An object written inline, or as a string of YAML/JSON text.
absl::StatusOr<Value> ObjectOf(const Value* v) {
  if (v == nullptr) return Value::MakeMap();
  if (v->IsString()) return ParseYamlOrJson(v->AsString());
  return *v;
}

std::vector<std::string> YamlLines(const Value& v) {
  std::string y = ToYaml(v);
  std::vector<std::string> lines = absl::StrSplit(y, '\n');
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// A compact line diff (longest common subsequence) of two YAML renderings.
std::vector<std::string> DiffValues(const Value& want, const Value& got) {
  std::vector<std::string> a = YamlLines(want), b = YamlLines(got);
  size_t n = a.size(), m = b.size();
  std::vector<std::string> out;
  if (n * m > 4'000'000) {
    out.push_back("  (objects too large to diff line by line)");
    return out;
  }
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1
                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      out.push_back(absl::StrCat("    ", a[i]));
      ++i;
      ++j;
    } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push_back(absl::StrCat("  + ", b[j++]));
    } else {
      out.push_back(absl::StrCat("  - ", a[i++]));
    }
  }
  return out;
}

absl::StatusOr<Path> ParsePathList(const Value& v) {
  if (!v.IsList())
    return absl::InvalidArgumentError("a path must be a list of path elements");
  Path p;
  for (const Value& e : v.list()) {
    if (!e.IsString())
      return absl::InvalidArgumentError("a path element must be a string");
    absl::StatusOr<PathElement> pe = ParsePathElement(e.AsString());
    if (!pe.ok()) return pe.status();
    p.push_back(*std::move(pe));
  }
  return p;
}

std::string PathRepr(const Path& p) {
  std::vector<std::string> parts;
  for (const PathElement& pe : p) parts.push_back(SerializePathElement(pe));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

absl::StatusOr<ManagedFields> ParseManaged(const Value& v) {
  ManagedFields out;
  if (v.IsNull()) return out;
  if (!v.IsMap())
    return absl::InvalidArgumentError("`managed` must be a map of managers");
  for (const MapEntry& e : v.map()) {
    const Value& m = e.value;
    std::string op = StringOr(Find(m, "operation"), "Apply");
    if (op != "Apply" && op != "Update") {
      return absl::InvalidArgumentError(absl::StrCat(
          "manager \"", e.key, "\": operation must be Apply or Update"));
    }
    const Value* f = Find(m, "fieldsV1");
    absl::StatusOr<Set> set =
        f == nullptr ? Set()
                     : (f->IsString() ? ParseFieldsV1(f->AsString())
                                      : FieldsV1FromValue(*f));
    if (!set.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("manager \"", e.key, "\": ", set.status().message()));
    }
    out.emplace(e.key,
                VersionedSet(*std::move(set), StringOr(Find(m, "apiVersion")),
                             op == "Apply"));
  }
  return out;
}

void DiffManaged(const ManagedFields& want, const ManagedFields& got,
                 Failure* f) {
  for (const auto& entry : want) {
    // Named references: lambdas cannot capture structured bindings in C++17.
    const std::string& name = entry.first;
    const VersionedSet& w = entry.second;
    auto it = got.find(name);
    if (it == got.end()) {
      f->diff.push_back(absl::StrCat("  manager \"", name, "\": missing"));
      continue;
    }
    const VersionedSet& g = it->second;
    if (w.api_version() != g.api_version()) {
      f->diff.push_back(absl::StrCat("  manager \"", name,
                                     "\": apiVersion want ", w.api_version(),
                                     ", got ", g.api_version()));
    }
    if (w.applied() != g.applied()) {
      f->diff.push_back(absl::StrCat("  manager \"", name,
                                     "\": operation want ",
                                     w.applied() ? "Apply" : "Update", ", got ",
                                     g.applied() ? "Apply" : "Update"));
    }
    w.set().Difference(g.set()).Iterate([&](const Path& p) {
      f->diff.push_back(
          absl::StrCat("  manager \"", name, "\": missing ", PathString(p)));
    });
    g.set().Difference(w.set()).Iterate([&](const Path& p) {
      f->diff.push_back(
          absl::StrCat("  manager \"", name, "\": unexpected ", PathString(p)));
    });
  }
  for (const auto& [name, g] : got) {
    if (want.count(name) == 0) {
      f->diff.push_back(absl::StrCat("  manager \"", name,
                                     "\": unexpected, owns ",
                                     SerializeFieldsV1(g.set())));
    }
  }
}

// The `managedFields` expectation of a fieldManager case: entries in order,
// each field compared when the expectation has it (subresource always),
// fieldsV1 as a set of paths, or with `exact_fields_v1` a fieldsV1 written
// as a string as the exact JSON text stored.
void DiffManagedFieldsList(const Value& want, const Value* got_list,
                           bool exact_fields_v1, Failure* f) {
  static const Value kNone = Value::MakeList();
  const Value& got =
      got_list != nullptr && got_list->IsList() ? *got_list : kNone;
  const size_t nw = want.IsList() ? want.list().size() : 0;
  const size_t ng = got.list().size();
  auto label = [](const Value& e) {
    return absl::StrCat(StringOr(Find(e, "manager")), "/",
                        StringOr(Find(e, "operation")), "/",
                        StringOr(Find(e, "apiVersion")));
  };
  for (size_t i = 0; i < std::max(nw, ng); ++i) {
    if (i >= nw) {
      f->diff.push_back(absl::StrCat("  entry ", i, ": unexpected ",
                                     label(got.list()[i]), " ",
                                     ToJson(got.list()[i])));
      continue;
    }
    const Value& w = want.list()[i];
    if (i >= ng) {
      f->diff.push_back(absl::StrCat("  entry ", i, ": missing ", label(w)));
      continue;
    }
    const Value& g = got.list()[i];
    for (const char* key : {"manager", "operation", "apiVersion", "time",
                            "fieldsType", "subresource"}) {
      const Value* wv = Find(w, key);
      const Value* gv = Find(g, key);
      if (wv == nullptr && std::string(key) != "subresource") continue;
      std::string ws = StringOr(wv), gs = StringOr(gv);
      if (ws != gs) {
        f->diff.push_back(absl::StrCat("  entry ", i, " (", label(w),
                                       "): ", key, " want \"", ws, "\", got \"",
                                       gs, "\""));
      }
    }
    const Value* wf = Find(w, "fieldsV1");
    if (wf == nullptr) continue;
    if (exact_fields_v1 && wf->IsString()) {
      const Value* gf = Find(g, "fieldsV1");
      std::string text = gf != nullptr ? ToJson(*gf) : "";
      if (text != wf->AsString()) {
        f->diff.push_back(absl::StrCat("  entry ", i, " (", label(w),
                                       "): fieldsV1 want ", wf->AsString()));
        f->diff.push_back(absl::StrCat("  entry ", i, " (", label(w),
                                       "): fieldsV1  got ", text));
      }
      continue;
    }
    absl::StatusOr<Set> ws =
        wf->IsString() ? ParseFieldsV1(wf->AsString()) : FieldsV1FromValue(*wf);
    const Value* gf = Find(g, "fieldsV1");
    absl::StatusOr<Set> gs = gf != nullptr ? FieldsV1FromValue(*gf) : Set();
    if (!ws.ok() || !gs.ok()) {
      f->diff.push_back(absl::StrCat("  entry ", i, ": bad fieldsV1: ",
                                     (ws.ok() ? gs : ws).status().message()));
      continue;
    }
    ws->Difference(*gs).Iterate([&](const Path& p) {
      f->diff.push_back(absl::StrCat("  entry ", i, " (", label(w),
                                     "): missing ", PathString(p)));
    });
    gs->Difference(*ws).Iterate([&](const Path& p) {
      f->diff.push_back(absl::StrCat("  entry ", i, " (", label(w),
                                     "): unexpected ", PathString(p)));
    });
  }
}

// `object` with only metadata.managedFields removed.
Value WithoutManagedFieldsKey(Value object) {
  if (object.IsMap()) {
    if (Value* meta = object.map().Find("metadata");
        meta != nullptr && meta->IsMap()) {
      meta->map().Erase("managedFields");
    }
  }
  return object;
}

// The case-level `fieldManager` settings (a project extension of FORMAT.md,
// see conformance/README.md).
struct FieldManagerCase {
  std::string api_version, kind, subresource;
  absl::Time start;
  int max_update_managers = 10;
  bool defaults = true;
  bool track_on_create = true;
  // Reset what the apiserver's registry strategy of each endpoint resets.
  bool reset_fields = false;
  // A fieldsV1 expected as a string is the exact text stored.
  bool exact_fields_v1 = false;
};

// What one operation did: the error it ended with (its kind as the case
// format names it, empty when it succeeded, and the message), the
// conflicts and error paths it reported, and for a `default` op the
// defaulted object.
struct Outcome {
  std::string error_kind;
  std::string message;
  Conflicts conflicts;
  std::vector<Path> error_paths;
  std::optional<Value> defaulted;

  static Outcome Error(std::string kind, const absl::Status& status) {
    Outcome out;
    out.error_kind = std::move(kind);
    out.message = std::string(status.message());
    return out;
  }
  // An engine error (not a conflict), named as ErrorKindName names it.
  static Outcome Failed(const OpOutcome& r) {
    Outcome out = Error(std::string(ErrorKindName(r.kind)), r.status);
    out.error_paths = r.error_paths;
    return out;
  }
};

class CaseRunner {
 public:
  CaseRunner(fs::path dir, ConformanceOptions opts)
      : dir_(std::move(dir)), opts_(std::move(opts)) {}

  // Returns nullopt on success.
  std::optional<Failure> Run(const Value& doc) {
    if (const Value* fmt = Find(doc, "format")) {
      if (!fmt->IsInt() || fmt->AsInt() != 1) {
        return Failure{"unknown format version (this harness reads format 1)",
                       {}};
      }
    }
    const Value* schema = Find(doc, "schema");
    if (schema == nullptr) return Failure{"the case has no schema", {}};
    LoadSchema(*schema, StringOr(Find(doc, "type")));
    if (!parse_error_.empty()) return Failure{parse_error_, {}};

    if (const Value* ign = Find(doc, "ignoredFields");
        ign != nullptr && !ign->IsNull()) {
      if (!ign->IsMap())
        return Failure{"ignoredFields must map apiVersions to path lists", {}};
      for (const MapEntry& e : ign->map()) {
        Set s;
        if (!e.value.IsList())
          return Failure{"ignoredFields: expected a list of paths", {}};
        for (const Value& p : e.value.list()) {
          absl::StatusOr<Path> path = ParsePathList(p);
          if (!path.ok())
            return Failure{
                absl::StrCat("ignoredFields: ", path.status().message()), {}};
          s.Insert(*path);
        }
        ignored_[e.key] = std::move(s);
      }
    }
    if (const Value* fm = Find(doc, "fieldManager");
        fm != nullptr && !fm->IsNull()) {
      if (std::optional<Failure> f = ParseFieldManager(*fm)) return f;
    }
    if (const Value* init = Find(doc, "initial");
        init != nullptr && !init->IsNull()) {
      absl::StatusOr<Value> obj = ObjectOf(Find(*init, "object"));
      if (!obj.ok())
        return Failure{absl::StrCat("initial.object: ", obj.status().message()),
                       {}};
      live_ = *std::move(obj);
      if (const Value* m = Find(*init, "managed"); m != nullptr && fm_) {
        return Failure{
            "initial.managed is not used with fieldManager: put "
            "metadata.managedFields in initial.object",
            {}};
      } else if (m != nullptr) {
        absl::StatusOr<ManagedFields> mf = ParseManaged(*m);
        if (!mf.ok())
          return Failure{
              absl::StrCat("initial.managed: ", mf.status().message()), {}};
        managers_ = *std::move(mf);
      }
    }
    const Value* ops = Find(doc, "ops");
    if (ops != nullptr && !ops->IsNull()) {
      if (!ops->IsList()) return Failure{"ops must be a list", {}};
      for (size_t i = 0; i < ops->list().size(); ++i) {
        if (std::optional<Failure> f = RunOp(ops->list()[i], i)) return f;
      }
    }
    if (const Value* exp = Find(doc, "expect");
        exp != nullptr && !exp->IsNull()) {
      if (std::optional<Failure> f = CheckState(*exp, "final state", nullptr))
        return f;
    }
    return std::nullopt;
  }

 private:
  std::optional<Failure> ParseFieldManager(const Value& v) {
    FieldManagerCase c;
    c.api_version = StringOr(Find(v, "apiVersion"));
    c.kind = StringOr(Find(v, "kind"));
    c.subresource = StringOr(Find(v, "subresource"));
    if (c.api_version.empty() || c.kind.empty())
      return Failure{"fieldManager needs apiVersion and kind", {}};
    absl::StatusOr<absl::Time> start =
        ParseManagedTime(StringOr(Find(v, "time"), "2026-01-01T00:00:00Z"));
    if (!start.ok())
      return Failure{
          absl::StrCat("fieldManager.time: ", start.status().message()), {}};
    c.start = *start;
    if (const Value* m = Find(v, "maxUpdateManagers"); m != nullptr) {
      if (!m->IsInt() || m->AsInt() < 1 || m->AsInt() > 1000000)
        return Failure{
            "fieldManager.maxUpdateManagers must be a positive integer", {}};
      c.max_update_managers = static_cast<int>(m->AsInt());
    }
    if (const Value* d = Find(v, "defaults"); d != nullptr && d->IsBool())
      c.defaults = d->AsBool();
    if (const Value* t = Find(v, "trackOnCreate"); t != nullptr) {
      if (!t->IsBool())
        return Failure{"fieldManager.trackOnCreate must be a boolean", {}};
      c.track_on_create = t->AsBool();
    }
    if (const Value* r = Find(v, "resetFields"); r != nullptr) {
      if (!r->IsBool())
        return Failure{"fieldManager.resetFields must be a boolean", {}};
      c.reset_fields = r->AsBool();
    }
    if (const Value* x = Find(v, "exactFieldsV1"); x != nullptr) {
      if (!x->IsBool())
        return Failure{"fieldManager.exactFieldsV1 must be a boolean", {}};
      c.exact_fields_v1 = x->AsBool();
    }
    fm_ = std::move(c);
    return std::nullopt;
  }

  // An apply, forceApply or update through the field-manager layer.
  // An apply or update through the field-manager layer (cases with a
  // `fieldManager` block).
  Outcome FieldManagerWrite(const Value& op, size_t index,
                            const std::string& kind, const Value& obj) {
    absl::Time now = fm_->start + absl::Seconds(static_cast<int64_t>(index));
    if (const Value* t = Find(op, "time"); t != nullptr) {
      absl::StatusOr<absl::Time> parsed = ParseManagedTime(StringOr(t));
      if (!parsed.ok()) return Outcome::Error(kParse, parsed.status());
      now = *parsed;
    }
    ManualClock clock(now);
    FieldManagerOptions o;
    // An op may name another version of a custom resource than the case's.
    o.api_version = StringOr(Find(op, "apiVersion"), fm_->api_version);
    // The request reads the live object at its own version; a failed
    // request leaves live_ as it was.
    Value live = live_;
    if (crd_versions_.size() > 1) {
      // The CRD's versions convert as its strategy None does.
      o.converter = &crd_converter_;
      if (live.IsMap()) {
        absl::StatusOr<Value> at = crd_converter_.Convert(live, o.api_version);
        if (!at.ok()) return Outcome::Error(kSchemaError, at.status());
        live = *std::move(at);
      }
    }
    o.kind = fm_->kind;
    o.subresource = StringOr(Find(op, "subresource"), fm_->subresource);
    o.clock = &clock;
    o.max_update_managers = fm_->max_update_managers;
    o.apply_defaults = fm_->defaults;
    o.track_on_create = fm_->track_on_create;
    o.ignored_fields = ignored_;
    if (crd_versions_.empty()) {
      o.scale_replicas_paths = BuiltinReplicasPaths(o.api_version, o.kind);
    } else {
      ReplicasPaths paths;
      for (const CrdVersionSchema& v : crd_versions_) {
        if (v.kind == o.kind) paths[v.api_version] = v.scale_replicas_path;
      }
      if (auto p = paths.find(o.api_version);
          p != paths.end() && !p->second.empty()) {
        o.scale_replicas_paths = std::move(paths);
      }
      o.custom_resource = true;
    }
    if (fm_->reset_fields) {
      // A custom resource's CRD says whether it has a status subresource;
      // other kinds are the built-in ones.
      // The status endpoint also takes the status resets of the CRD's
      // other versions with the subresource (as the Catalog does).
      const CrdVersionSchema* crd = nullptr;
      std::vector<std::string> status_versions;
      for (const CrdVersionSchema& v : crd_versions_) {
        if (v.kind != o.kind) continue;
        if (v.api_version == o.api_version) {
          crd = &v;
        } else if (v.status_subresource) {
          status_versions.push_back(v.api_version);
        }
      }
      SetResetFields(
          ResetFieldsFor(o.api_version, o.kind, o.subresource,
                         crd != nullptr
                             ? std::optional<bool>(crd->status_subresource)
                             : std::nullopt,
                         status_versions),
          &o);
    }
    absl::StatusOr<FieldManager> fm = FieldManager::Create(*type_, o);
    if (!fm.ok()) return Outcome::Error("internal", fm.status());
    std::string manager = StringOr(Find(op, "manager"));
    // With resetFields, a custom resource is written as the
    // apiextensions-apiserver decodes it: its metadata through ObjectMeta,
    // on an update's body and on the stored result (an emptied or null
    // labels map goes).
    std::shared_ptr<const CustomResourceMetadata> cr_meta =
        fm_->reset_fields && !crd_versions_.empty() &&
                o.subresource != "scale"
            ? CustomResourceMetadata::For(*type_)
            : nullptr;
    const Value body =
        cr_meta != nullptr && kind == "update" ? cr_meta->Coerce(obj) : obj;
    FieldManagerResult r =
        kind == "update" ? fm->Update(live, body, manager)
                         : fm->Apply(live, body, manager, kind == "forceApply");
    if (cr_meta != nullptr && r.ok()) r.object = cr_meta->Coerce(std::move(r.object));
    if (r.kind == ErrorKind::kConflict) {
      Outcome out = Outcome::Error(
          "conflict",
          absl::AbortedError(FailureMessage(r)));
      // Conflicts name the manager by name in these cases.
      for (const Conflict& c : r.conflicts.list()) {
        absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(c.manager);
        out.conflicts.Add(Conflict{id.ok() ? id->manager : c.manager, c.path});
      }
      return out;
    }
    if (!r.ok()) return Outcome::Failed(r);
    live_ = std::move(r.object);
    return Outcome();
  }

  // A structural OpenAPI v3 schema object as the root type. Markers on the
  // root itself are forbidden (immutable-fields KEP); its default and
  // nullable apply to the whole object.
  void LoadOpenApi(const Value& oa) {
    root_ = RootNode();
    if (oa.IsMap()) {
      for (const char* marker :
           {"x-kubernetes-immutable", "x-kubernetes-immutable-keys",
            "x-kubernetes-addition-only", "x-kubernetes-deletion-only"}) {
        if (oa.map().Find(marker) != nullptr) {
          schema_error_ =
              absl::StrCat("the root: ", marker, " is not allowed at the root");
          return;
        }
      }
      if (const Value* d = oa.map().Find("default");
          d != nullptr && !d->IsNull()) {
        root_.default_value = *d;
      }
      if (const Value* n = oa.map().Find("nullable");
          n != nullptr && n->IsBool()) {
        root_.nullable = n->AsBool();
      }
    }
    absl::StatusOr<std::shared_ptr<const Schema>> s =
        SchemaFromOpenApiObject(oa, "root");
    if (!s.ok()) {
      schema_error_ = std::string(s.status().message());
      return;
    }
    absl::StatusOr<Type> t = Type::Named(*s, "root");
    if (!t.ok()) {
      schema_error_ = std::string(t.status().message());
      return;
    }
    type_ = *std::move(t);
  }

  // A CRD manifest: every version's schema; the op's apiVersion picks one.
  void LoadCrd(const fs::path& file) {
    absl::StatusOr<std::string> text = ReadFile(file);
    if (!text.ok()) {
      parse_error_ = std::string(text.status().message());
      return;
    }
    absl::StatusOr<Value> doc = ParseYamlOrJson(*text);
    if (!doc.ok()) {
      parse_error_ = absl::StrCat(file.string(), ": ", doc.status().message());
      return;
    }
    absl::StatusOr<std::vector<CrdVersionSchema>> versions =
        SchemasFromCrd(*doc);
    if (!versions.ok()) {
      schema_error_ = std::string(versions.status().message());
      return;
    }
    crd_versions_ = *std::move(versions);
    if (crd_versions_.size() == 1) SelectCrdVersion("");
  }

  // Picks the CRD version of `api_version` (or the only one).
  void SelectCrdVersion(const std::string& api_version) {
    for (const CrdVersionSchema& v : crd_versions_) {
      if (crd_versions_.size() == 1 || v.api_version == api_version) {
        absl::StatusOr<Type> t = Type::Named(v.schema, v.type_name);
        if (!t.ok()) {
          schema_error_ = std::string(t.status().message());
        } else {
          type_ = *std::move(t);
          schema_error_.clear();
        }
        return;
      }
    }
    schema_error_ = absl::StrCat("the CRD has no version ", api_version);
  }

  // Sets type_ or schema_error_ (a case may expect a schema error).
  void LoadSchema(const Value& schema, const std::string& type_name) {
    type_.reset();
    schema_error_.clear();
    crd_versions_.clear();
    root_ = RootNode();
    if (!schema.IsMap()) {
      parse_error_ = "schema must be a map";
      return;
    }
    absl::StatusOr<std::shared_ptr<const Schema>> s;
    if (const Value* d = Find(schema, "deduced");
        d != nullptr && d->IsBool() && d->AsBool()) {
      type_ = Type::Deduced();
      return;
    } else if (const Value* k = Find(schema, "kubernetes");
               k != nullptr && k->IsBool() && k->AsBool()) {
      s = KubernetesSchema();  // the built-in one (this project's extension)
    } else if (const Value* smd = Find(schema, "smd")) {
      s = Schema::ParseSmd(StringOr(smd));
    } else if (const Value* file = Find(schema, "smdFile")) {
      absl::StatusOr<std::string> text = ReadFile(dir_ / StringOr(file));
      if (!text.ok()) {
        parse_error_ = std::string(text.status().message());
        return;
      }
      s = Schema::ParseSmd(*text);
    } else if (const Value* oa = Find(schema, "openapi")) {
      LoadOpenApi(*oa);
      return;
    } else if (const Value* crd = Find(schema, "crdFile")) {
      LoadCrd(dir_ / StringOr(crd));
      return;
    } else {
      parse_error_ =
          "schema needs one of smd, smdFile, openapi, crdFile, kubernetes or "
          "deduced";
      return;
    }
    if (!s.ok()) {
      schema_error_ = std::string(s.status().message());
      return;
    }
    absl::StatusOr<Type> t = Type::Named(*s, type_name);
    if (!t.ok()) {
      schema_error_ = std::string(t.status().message());
      return;
    }
    type_ = *std::move(t);
  }

  std::optional<Failure> RunOp(const Value& op, size_t index) {
    std::string kind = StringOr(Find(op, "op"));
    if (crd_versions_.size() > 1)
      SelectCrdVersion(StringOr(Find(op, "apiVersion"),
                                fm_ ? fm_->api_version : std::string()));
    Outcome got = Dispatch(op, index, kind);
    return CheckOutcome(Find(op, "expect"),
                        absl::StrCat("op ", index, " (", kind, ")"), got);
  }

  Outcome Dispatch(const Value& op, size_t index, const std::string& kind) {
    if (kind == "setSchema") return SetSchemaOp(op);
    if (!schema_error_.empty()) {
      return Outcome::Error(kSchemaError,
                            absl::InvalidArgumentError(schema_error_));
    }
    if (kind == "apply" || kind == "forceApply" || kind == "update") {
      return WriteOp(op, index, kind);
    }
    if (kind == "validate") return ValidateOp(op);
    if (kind == "default") return DefaultOp(op);
    if (kind == "immutable") return ImmutableOp(op);
    return Outcome::Error(
        "unsupported",
        absl::UnimplementedError(absl::StrCat(
            "op `", kind, "` is not supported by this engine yet")));
  }

  Outcome SetSchemaOp(const Value& op) {
    const Value* schema = Find(op, "schema");
    if (schema == nullptr) {
      return Outcome::Error(
          kSchemaError, absl::InvalidArgumentError("setSchema needs a schema"));
    }
    std::optional<Type> old = type_;
    LoadSchema(*schema, StringOr(Find(op, "type")));
    if (!schema_error_.empty()) {
      Outcome out = Outcome::Error(kSchemaError,
                                   absl::InvalidArgumentError(schema_error_));
      type_ = old;
      schema_error_.clear();
      return out;
    }
    if (absl::Status st = Validate(*type_, live_, ValidateOptions{true});
        !st.ok()) {
      type_ = old;
      return Outcome::Error(kInvalid, st);
    }
    return Outcome();
  }

  // apply, forceApply and update: through the field manager when the case
  // has one, else through the bare updater.
  Outcome WriteOp(const Value& op, size_t index, const std::string& kind) {
    absl::StatusOr<Value> obj = ObjectOf(Find(op, "object"));
    if (!obj.ok()) return Outcome::Error(kParse, obj.status());
    if (fm_) return FieldManagerWrite(op, index, kind, *obj);
    UpdaterOptions uo;
    uo.ignored_fields = ignored_;
    Updater u(*type_, uo);
    std::string manager = StringOr(Find(op, "manager"));
    std::string version = StringOr(Find(op, "apiVersion"));
    OpResult r = kind == "update"
                     ? u.Update(live_, *obj, version, managers_, manager)
                     : u.Apply(live_, *obj, version, managers_, manager,
                               kind == "forceApply");
    if (r.kind == ErrorKind::kConflict) {
      Outcome out = Outcome::Error("conflict",
                                   absl::AbortedError(r.conflicts.ToString()));
      out.conflicts = r.conflicts;
      return out;
    }
    if (!r.ok()) return Outcome::Failed(r);
    live_ = std::move(r.object);
    managers_ = std::move(r.managers);
    return Outcome();
  }

  Outcome ValidateOp(const Value& op) {
    absl::StatusOr<Value> obj = ObjectOf(Find(op, "object"));
    if (!obj.ok()) return Outcome::Error(kParse, obj.status());
    if (absl::Status st = Validate(*type_, *obj); !st.ok()) {
      return Outcome::Error(kInvalid, st);
    }
    return Outcome();
  }

  Outcome DefaultOp(const Value& op) {
    absl::StatusOr<Value> obj = ObjectOf(Find(op, "object"));
    if (!obj.ok()) return Outcome::Error(kParse, obj.status());
    Outcome out;
    out.defaulted = ApplyDefaults(*type_, *obj, root_);
    return out;
  }

  Outcome ImmutableOp(const Value& op) {
    absl::StatusOr<Value> old_obj = ObjectOf(Find(op, "old"));
    if (!old_obj.ok()) return Outcome::Error(kParse, old_obj.status());
    absl::StatusOr<Value> new_obj = ObjectOf(Find(op, "new"));
    if (!new_obj.ok()) return Outcome::Error(kParse, new_obj.status());
    std::vector<ImmutabilityViolation> v =
        CheckImmutability(*type_, *old_obj, *new_obj);
    if (v.empty()) return Outcome();
    Outcome out = Outcome::Error("immutable", ImmutabilityError(v));
    for (const ImmutabilityViolation& iv : v)
      out.error_paths.push_back(iv.path);
    return out;
  }

  // Compares what an op did with its `expect` block (may be null).
  std::optional<Failure> CheckOutcome(const Value* expect,
                                      const std::string& where,
                                      const Outcome& got) {
    const Value* want_err =
        expect != nullptr ? Find(*expect, "error") : nullptr;
    const Value* want_conf =
        expect != nullptr ? Find(*expect, "conflicts") : nullptr;
    bool want_conflicts = want_conf != nullptr && want_conf->IsList() &&
                          !want_conf->list().empty();
    if (got.error_kind == "conflict") {
      if (!want_conflicts) {
        return Failure{absl::StrCat(where, ": unexpected conflicts"),
                       {absl::StrCat("  ", got.message)}};
      }
    } else if (!got.error_kind.empty()) {
      if (want_err == nullptr || StringOr(want_err) != got.error_kind) {
        return Failure{
            absl::StrCat(where, ": unexpected error (", got.error_kind, ")",
                         want_err != nullptr
                             ? absl::StrCat(", want error ", StringOr(want_err))
                             : ""),
            {absl::StrCat("  ", got.message)}};
      }
    } else {
      if (want_err != nullptr) {
        return Failure{
            absl::StrCat(where, ": succeeded, want error ", StringOr(want_err)),
            {}};
      }
      if (want_conflicts)
        return Failure{absl::StrCat(where, ": succeeded, want conflicts"), {}};
    }
    if (want_conflicts) {
      if (std::optional<Failure> f =
              CheckConflicts(*want_conf, got.conflicts, where))
        return f;
    }
    if (const Value* want_msg =
            expect != nullptr ? Find(*expect, "message") : nullptr) {
      if (!want_msg->IsString() || got.error_kind.empty()) {
        return Failure{absl::StrCat(where,
                                    ": expect.message goes with an error or "
                                    "conflicts and must be a string"),
                       {}};
      }
      if (want_msg->AsString() != got.message) {
        return Failure{absl::StrCat(where, ": error message differs"),
                       {absl::StrCat("  want ", want_msg->AsString()),
                        absl::StrCat("   got ", got.message)}};
      }
    }
    if (const Value* want_paths =
            expect != nullptr ? Find(*expect, "errorPaths") : nullptr) {
      if (std::optional<Failure> f = CheckErrorPaths(
              *want_paths, got.error_kind, got.error_paths, where)) {
        return f;
      }
    }
    if (expect != nullptr) {
      return CheckState(*expect, where,
                        got.defaulted ? &*got.defaulted : nullptr);
    }
    return std::nullopt;
  }

  std::optional<Failure> CheckConflicts(const Value& want, const Conflicts& got,
                                        const std::string& where) {
    std::vector<Conflict> expected;
    for (const Value& c : want.list()) {
      absl::StatusOr<Path> p =
          ParsePathList(Find(c, "path") ? *Find(c, "path") : Value());
      if (!p.ok())
        return Failure{absl::StrCat(where, ": bad expected conflict path"), {}};
      expected.push_back(Conflict{StringOr(Find(c, "manager")), *std::move(p)});
    }
    Failure f{absl::StrCat(where, ": conflicts differ"), {}};
    for (const Conflict& c : expected) {
      if (std::find(got.list().begin(), got.list().end(), c) ==
          got.list().end()) {
        f.diff.push_back(absl::StrCat("  missing conflict with \"", c.manager,
                                      "\" at ", PathRepr(c.path)));
      }
    }
    for (const Conflict& c : got.list()) {
      if (std::find(expected.begin(), expected.end(), c) == expected.end()) {
        f.diff.push_back(absl::StrCat("  unexpected conflict with \"",
                                      c.manager, "\" at ", PathRepr(c.path)));
      }
    }
    if (f.diff.empty()) return std::nullopt;
    return f;
  }

  std::optional<Failure> CheckErrorPaths(const Value& want,
                                         const std::string& kind,
                                         const std::vector<Path>& got,
                                         const std::string& where) {
    if (kind != "immutable") {
      return Failure{
          absl::StrCat(where,
                       ": errorPaths are only reported for immutable errors"),
          {}};
    }
    if (!want.IsList())
      return Failure{
          absl::StrCat(where, ": errorPaths must be a list of paths"), {}};
    std::vector<Path> expected;
    for (const Value& p : want.list()) {
      absl::StatusOr<Path> path = ParsePathList(p);
      if (!path.ok())
        return Failure{absl::StrCat(where, ": bad errorPaths entry"), {}};
      expected.push_back(*std::move(path));
    }
    Failure f{absl::StrCat(where, ": error paths differ"), {}};
    for (const Path& p : expected) {
      if (std::find(got.begin(), got.end(), p) == got.end()) {
        f.diff.push_back(absl::StrCat("  missing ", PathRepr(p)));
      }
    }
    for (const Path& p : got) {
      if (std::find(expected.begin(), expected.end(), p) == expected.end()) {
        f.diff.push_back(absl::StrCat("  unexpected ", PathRepr(p)));
      }
    }
    if (f.diff.empty()) return std::nullopt;
    return f;
  }

  std::optional<Failure> CheckState(const Value& expect,
                                    const std::string& where,
                                    const Value* defaulted) {
    if (const Value* obj = Find(expect, "object")) {
      absl::StatusOr<Value> want =
          obj->IsString() ? ParseYamlOrJson(obj->AsString()) : *obj;
      if (!want.ok())
        return Failure{
            absl::StrCat(where, ": expect.object: ", want.status().message()),
            {}};
      const Value got = defaulted != nullptr ? *defaulted
                        : fm_                ? WithoutManagedFieldsKey(live_)
                                             : live_;
      if (!Equals(*want, got)) {
        return Failure{absl::StrCat(where, ": object differs (- want, + got)"),
                       DiffValues(*want, got)};
      }
    }
    if (const Value* mf = Find(expect, "managedFields")) {
      if (!fm_) {
        return Failure{
            absl::StrCat(where, ": expect.managedFields needs fieldManager"),
            {}};
      }
      Failure f{absl::StrCat(where, ": managedFields differ"), {}};
      DiffManagedFieldsList(*mf, FindManagedFields(live_), fm_->exact_fields_v1,
                            &f);
      if (!f.diff.empty()) return f;
    }
    if (const Value* m = Find(expect, "managed"); m != nullptr && fm_) {
      return Failure{absl::StrCat(where,
                                  ": fieldManager cases expect managedFields, "
                                  "not managed"),
                     {}};
    } else if (m != nullptr) {
      absl::StatusOr<ManagedFields> want = ParseManaged(*m);
      if (!want.ok())
        return Failure{
            absl::StrCat(where, ": expect.managed: ", want.status().message()),
            {}};
      Failure f{absl::StrCat(where, ": managed fields differ"), {}};
      DiffManaged(*want, managers_, &f);
      if (!f.diff.empty()) return f;
    }
    return std::nullopt;
  }

  fs::path dir_;
  ConformanceOptions opts_;
  std::optional<Type> type_;
  RootNode root_;
  std::vector<CrdVersionSchema> crd_versions_;
  // Conversion between the versions of crd_versions_ (strategy None).
  class NoneConverter : public Converter {
   public:
    explicit NoneConverter(const std::vector<CrdVersionSchema>* versions)
        : versions_(versions) {}
    absl::StatusOr<Value> Convert(const Value& object,
                                  const std::string& version) const override {
      for (const CrdVersionSchema& v : *versions_) {
        if (v.api_version != version) continue;
        Value out = object;
        if (out.IsMap()) out.map().Set("apiVersion", Value(version));
        return out;
      }
      return absl::NotFoundError(absl::StrCat("no version ", version));
    }

   private:
    const std::vector<CrdVersionSchema>* versions_;
  };
  NoneConverter crd_converter_{&crd_versions_};
  std::string schema_error_;
  std::string parse_error_;
  std::map<std::string, Set> ignored_;
  Value live_;
  ManagedFields managers_;
  std::optional<FieldManagerCase> fm_;
};

void CollectFiles(const fs::path& p, std::vector<fs::path>* out,
                  ConformanceReport* report) {
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(p, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_regular_file() && it->path().extension() == ".yaml")
        found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    out->insert(out->end(), found.begin(), found.end());
  } else if (fs::exists(p, ec)) {
    out->push_back(p);
  } else {
    report->file_error = true;
    report->failed++;
    report->cases.push_back(CaseResult{
        p.string(), "", CaseResult::Status::kFail, "no such file or folder"});
  }
}

}  // namespace

void RunConformanceText(const std::string& file, const std::string& text,
                        const ConformanceOptions& opts,
                        ConformanceReport* report) {
  absl::StatusOr<std::vector<Value>> docs = ParseYamlDocuments(text);
  if (!docs.ok()) {
    report->file_error = true;
    report->failed++;
    report->cases.push_back(
        CaseResult{file, "", CaseResult::Status::kFail,
                   absl::StrCat("cannot parse: ", docs.status().message())});
    return;
  }
  std::optional<std::regex> filter;
  if (!opts.filter.empty()) {
    try {
      filter.emplace(opts.filter);
    } catch (const std::regex_error& e) {
      report->error = absl::StrCat("--filter: ", e.what());
      return;
    }
  }
  fs::path dir = fs::path(file).parent_path();
  for (size_t i = 0; i < docs->size(); ++i) {
    const Value& doc = (*docs)[i];
    if (doc.IsNull()) continue;
    CaseResult r;
    r.file = file;
    r.name = StringOr(Find(doc, "name"), absl::StrCat("document ", i + 1));
    if (filter &&
        !std::regex_search(absl::StrCat(r.file, "#", r.name), *filter))
      continue;
    if (const Value* skip = Find(doc, "skip");
        skip != nullptr && !skip->IsNull()) {
      r.status = CaseResult::Status::kSkip;
      r.message = skip->IsString() ? skip->AsString() : ToJson(*skip);
      report->skipped++;
      report->cases.push_back(std::move(r));
      continue;
    }
    CaseRunner runner(dir, opts);
    std::optional<Failure> f = runner.Run(doc);
    if (f) {
      r.status = CaseResult::Status::kFail;
      r.message = f->reason;
      for (const std::string& line : f->diff)
        absl::StrAppend(&r.message, "\n", line);
      report->failed++;
    } else {
      report->passed++;
    }
    report->cases.push_back(std::move(r));
  }
}

ConformanceReport RunConformance(const std::vector<std::string>& paths,
                                 const ConformanceOptions& opts) {
  ConformanceReport report;
  if (!opts.filter.empty()) {
    try {
      std::regex check(opts.filter);
    } catch (const std::regex_error& e) {
      report.error = absl::StrCat("--filter: ", e.what());
      return report;
    }
  }
  std::vector<fs::path> files;
  for (const std::string& p : paths) CollectFiles(p, &files, &report);
  for (const fs::path& f : files) {
    absl::StatusOr<std::string> text = ReadFile(f);
    if (!text.ok()) {
      report.file_error = true;
      report.failed++;
      report.cases.push_back(CaseResult{f.string(), "",
                                        CaseResult::Status::kFail,
                                        std::string(text.status().message())});
      continue;
    }
    RunConformanceText(f.string(), *text, opts, &report);
  }
  return report;
}

std::string FormatReportText(const ConformanceReport& report) {
  std::string out;
  for (const CaseResult& c : report.cases) {
    if (c.status != CaseResult::Status::kFail) continue;
    std::vector<std::string> lines = absl::StrSplit(c.message, '\n');
    absl::StrAppend(&out, "FAIL ", c.file, c.name.empty() ? "" : "#", c.name,
                    ": ", lines[0], "\n");
    for (size_t i = 1; i < lines.size(); ++i)
      absl::StrAppend(&out, "    ", lines[i], "\n");
  }
  absl::StrAppend(&out, "conformance: ", report.passed, " passed, ",
                  report.failed, " failed");
  if (report.skipped > 0)
    absl::StrAppend(&out, ", ", report.skipped, " skipped");
  out += "\n";
  return out;
}

std::string FormatReportJson(const ConformanceReport& report) {
  Map root;
  root.Append("passed", Value(int64_t{report.passed}));
  root.Append("failed", Value(int64_t{report.failed}));
  root.Append("skipped", Value(int64_t{report.skipped}));
  List cases;
  for (const CaseResult& c : report.cases) {
    Map m;
    m.Append("file", Value(c.file));
    m.Append("name", Value(c.name));
    const char* st = c.status == CaseResult::Status::kPass   ? "pass"
                     : c.status == CaseResult::Status::kFail ? "fail"
                                                             : "skip";
    m.Append("status", Value(st));
    m.Append("message", Value(c.message));
    cases.push_back(Value(std::move(m)));
  }
  root.Append("cases", Value(std::move(cases)));
  return ToJson(Value(std::move(root))) + "\n";
}

}  // namespace smdx
