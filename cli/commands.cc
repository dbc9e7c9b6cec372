#include "cli/commands.h"

#include <iostream>
#include <regex>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/kube_cmds.h"
#include "cli/schema_cmd.h"
#include "conformance/harness.h"
#include "fieldpath/fields_v1.h"
#include "typed/default.h"
#include "typed/emit.h"
#include "typed/parse.h"
#include "typed/typed.h"

namespace smdx::cli {

namespace {

constexpr absl::string_view kUsage = R"(usage: smdx COMMAND [flags] [args]

Structured merge and server-side apply for Kubernetes objects.

Commands:
  apply --field-manager NAME [--force-conflicts] [--live LIVE.yaml] CONFIG.yaml
                        server-side apply of CONFIG onto LIVE (or onto nothing),
                        as the apiserver does it; prints the object it would
                        store, with its metadata.managedFields
  update --field-manager NAME [--live LIVE.yaml] OBJECT.yaml
                        a write of OBJECT (create, update, patch result) by
                        NAME: ownership of what it changes moves to NAME
  diff --field-manager NAME [--force-conflicts] [LIVE.yaml] CONFIG.yaml
                        what applying CONFIG to LIVE (or creating it) would
                        change: a unified
                        diff of the object, the ownership that moves, and
                        the conflicts (exit 0: no change, 1: changes,
                        2: conflicts or an error)
  blame LIVE.yaml       every field of LIVE with the managers that own it
                        (also: managers)
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

Flags of apply, update and diff (kubectl's names; --manager and --force also work):
  --field-manager NAME  the manager ("unknown" when empty)
  --force-conflicts     take fields other managers own instead of conflicting
  --server-side         accepted for kubectl compatibility (apply is server-side)
  --subresource NAME    the request goes to a subresource (status, scale)
  --now TIME            the time stamped into managedFields (RFC 3339;
                        default: the system clock)
  --no-defaults         do not default results from the schema's defaults
  --color auto|always|never
                        color the diff (default auto: when a terminal)
Objects without apiVersion and kind (values typed with --type) are merged
by the structured-merge rules alone, without managedFields handling.
)";

int CmdValidate(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.size() != 1)
    return Fail(err, absl::InvalidArgumentError("validate takes one FILE"));
  absl::StatusOr<TypedObject> obj = ReadTypedObject(f, f.positional[0]);
  if (!obj.ok()) return Fail(err, obj.status());
  const Value* v = &obj->value;
  const Type* t = &obj->type;
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
  absl::StatusOr<TypedObject> obj = ReadTypedObject(f, f.positional[0]);
  if (!obj.ok()) return Fail(err, obj.status());
  const Value* v = &obj->value;
  const Type* t = &obj->type;
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

int CmdDefault(const Flags& f, std::ostream& out, std::ostream& err) {
  if (f.positional.size() != 1) {
    err << "error: default takes one FILE\n";
    return 2;
  }
  absl::StatusOr<TypedObject> obj = ReadTypedObject(f, f.positional[0]);
  if (!obj.ok()) return Fail(err, obj.status());
  const Value* v = &obj->value;
  const Type* t = &obj->type;
  // As the apiserver's pipeline for custom resources: prune, then default.
  Value defaulted = ApplyDefaults(*t, Prune(*t, *v));
  if (absl::Status st = Validate(*t, defaulted); !st.ok()) {
    err << "warning: the defaulted object does not validate:\n"
        << st.message() << "\n";
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
    return CmdSchema(std::vector<std::string>(args.begin() + 1, args.end()),
                     out, err);
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
  if (cmd == "apply") return CmdApply(*f, /*apply=*/true, out, err);
  if (cmd == "update") return CmdApply(*f, /*apply=*/false, out, err);
  if (cmd == "diff") return CmdDiff(*f, out, err);
  if (cmd == "blame" || cmd == "managers") return CmdBlame(*f, out, err);
  if (cmd == "conformance") return CmdConformance(*f, out, err);
  if (cmd == "default") return CmdDefault(*f, out, err);
  err << "error: unknown command \"" << cmd << "\"\n" << kUsage;
  return 2;
}

}  // namespace smdx::cli
