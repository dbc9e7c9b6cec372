#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/kube_cmds.h"
#include "cli/objects.h"
#include "cli/progress.h"
#include "cli/schema_cmd.h"
#include "conformance/harness.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/kubetypes/builtin_kind.h"
#include "smdx/schema/builtin.h"
#include "smdx/typed/default.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::cli {

namespace {

constexpr absl::string_view kVersion = "0.2.0";

constexpr absl::string_view kUsage = R"(usage: smdx COMMAND [flags] [args]

Structured merge and server-side apply for Kubernetes objects, as the
apiserver does them, without a cluster.

Commands (smdx COMMAND --help for one command):
  apply       server-side apply of configurations onto live objects
  update      a write (create, update, patch result) by a field manager
  patch       a merge or JSON patch of live objects, as kubectl patch
  diff        what an apply would change, and the conflicts it would meet
  blame       every field of live objects with the managers that own it
              (also: managers)
  validate    check objects against their types
  fieldset    the fields objects set, as fieldsV1 JSON
  default     objects pruned and defaulted from the schema's defaults
  merge       merge one value into another (structured-merge rules alone)
  compare     the paths added, removed and modified between two values
  list-types  the types of the schema
  schema convert FILE
              an OpenAPI document or CRD as an SMD schema
  conformance replay conformance cases

Objects (CONFIG, LIVE, OBJECT, FILE) are files holding one object, a
multi-document YAML stream or a kind: List, - for standard input, or
directories (-R: recursively), as kubectl -f takes them. Configurations pair
with live objects by API group, kind, namespace and name, and go to the
version they name (a live object of another version is read there first);
results print as a multi-document stream in the configurations' order.

Flags for every command:
  --schema PATH         an SMD schema, an OpenAPI v2 or v3 document (a
                        cluster's /openapi/v2, or a directory of its
                        /openapi/v3 group documents), an OpenAPI schema
                        object or a CRD manifest (detected). Repeat it to
                        combine documents (the later wins). Default: the
                        paths in $SMDX_SCHEMA (separated by :), else the
                        embedded Kubernetes v1.37 types
  --type NAME           the root type (default: from apiVersion/kind)
  -R, --recursive       read directories recursively
  --max-object-bytes N  input limits, each failing with an error that names
  --max-depth N         it: bytes of a document (default 3145728, the
  --max-yaml-nodes N    apiserver's request body limit), levels of nesting
  --max-list-items N    (1000), YAML nodes after alias expansion (10000000;
  --max-managed-fields-entries N  aliases also follow the apiserver's rule),
  --max-fields-v1-bytes N         items of a list (1048576), managedFields
                        entries (10000) and bytes of one fieldsV1 (3145728)
  --help                this command's usage
  --version             smdx's version
)";

struct Command {
  const char* name;
  const char* usage;
};

constexpr Command kCommands[] = {
    {"apply",
     R"(usage: smdx apply [--field-manager NAME] [--force-conflicts | --client-side]
                  [--live LIVE] CONFIG...

Server-side apply of each configuration onto its live object in LIVE (or
onto nothing: a create), as the apiserver does it. Prints the objects the
server would store, with their metadata.managedFields.

  --field-manager NAME  the manager (default "kubectl", as kubectl's)
  --force-conflicts     take fields other managers own instead of conflicting
  --live LIVE           the live objects (files, directories or -)
  --subresource NAME    the request goes to a subresource (status, scale;
                        a Pod's resize, ephemeralcontainers; a Namespace's
                        finalize; a CSR's approval)
  --now TIME            the time stamped into managedFields (RFC 3339;
                        default: the system clock)
  --no-defaults         do not default results from the schema's defaults
  --no-builtin-defaults the bare merge: objects of built-in kinds are not
                        decoded and defaulted as the apiserver does (Go
                        types' zero values, Kubernetes 1.37's defaulters,
                        what a create gets from the registry)
  --server-side         accepted for kubectl compatibility
  --as-kubectl          all that `kubectl apply --server-side` sends, not
                        the apply alone: on an object kubectl once applied
                        client-side, it then moves the client-side
                        applier's fields to the manager and applies again,
                        which removes the fields the configuration dropped
                        (and for the manager "kubectl" keeps the
                        last-applied annotation, owned by
                        "kubectl-last-applied"). Later steps that fail are
                        warnings, as kubectl prints them
  --client-side         what `kubectl apply` without --server-side sends:
                        the configuration with its last-applied annotation,
                        created, or patched as kubectl makes the patch
                        (three-way, from the annotation, the configuration
                        and the live object: a strategic merge patch by the
                        Go type's tags, a merge patch for a custom
                        resource; none when nothing changed), as the
                        manager "kubectl-client-side-apply" by default
  --print-request       with --client-side: print the request kubectl would
                        send instead (a comment naming it, then its body:
                        the object created, or the patch; for debugging
                        what client-side apply does)

Exit status: 0 when every object applied, 2 when one conflicted (or named
a resourceVersion or uid the live object does not have: the apiserver's
other 409), 1 on any other error (the other objects' results still print).
A write that leaves an object being deleted without finalizers deletes it:
a warning says so, beside the apiserver's answer.
)"},
    {"update",
     R"(usage: smdx update --field-manager NAME [--live LIVE] OBJECT...

A write of each object (create, update, or the result of a non-apply patch)
by NAME over its live object in LIVE: ownership of what it changes moves to
NAME. Prints the objects the server would store.

  --field-manager NAME  the manager (required)
  --live LIVE           the live objects (files, directories or -)
  --subresource NAME    the request goes to a subresource (status, scale;
                        a Pod's resize, ephemeralcontainers; a Namespace's
                        finalize; a CSR's approval)
  --now TIME, --no-defaults, --no-builtin-defaults  as for apply

Exit status: 0 when every object was written, 2 when one named a
resourceVersion or uid the live object does not have (the apiserver's 409),
1 on another error.
)"},
    {"patch",
     R"(usage: smdx patch [--type strategic|merge|json] (-p PATCH | --patch-file FILE) LIVE...

A non-apply patch of each live object in LIVE (the objects as stored, with
their managedFields), as `kubectl patch` sends it and the apiserver runs
it: the patch applied to the object (a strategic merge patch, whose lists
merge by the Go types' patchMergeKey, with its $patch, $retainKeys,
$setElementOrder and $deleteFromPrimitiveList directives, for built-in
kinds only; a JSON merge patch, RFC 7386; a JSON patch, RFC 6902, as the
apiserver's json-patch library reads it: negative indexes count from the
end, a replace of a missing key adds it, ...), the result checked (the
name kept, the namespace kept or put back), then written as an update by
the manager. Prints the objects the server would store.

  --type TYPE           the patch's type: strategic (the default, as
                        kubectl's), merge or json
  -p, --patch PATCH     the patch, JSON or YAML
  --patch-file FILE     the patch from a file
  --field-manager NAME  the manager (default "kubectl-patch", as kubectl's)
  --subresource NAME    the request goes to a subresource (status; scale,
                        where the patch applies to the Scale)
  --now TIME, --no-defaults, --no-builtin-defaults  as for apply

Exit status: 0 when every object was patched, 2 when a patch set another
resourceVersion (the apiserver's 409), 1 on another error (a patch that
does not apply names the operation).
)"},
    {"diff",
     R"(usage: smdx diff [--field-manager NAME] [--force-conflicts] [LIVE] CONFIG
       smdx diff [flags] --live LIVE CONFIG...

What applying each configuration to its live object (or creating it) would
change: a unified diff of the object (without managedFields, as kubectl
diff shows it; colored on a terminal), the ownership that moves, and the
conflicts.

  --field-manager NAME  the manager (default "kubectl")
  --force-conflicts     as for apply
  --as-kubectl          as for apply: what kubectl's steps would change
  --client-side         as for apply: what client-side `kubectl apply`
                        would change
  --color auto|always|never
  --html                instead, one self-contained HTML page (on standard
                        output): the object as the apply would store it,
                        each line colored by its owners, the lines added,
                        changed and removed marked in place, the ownership
                        that moves and the conflicts
  --subresource, --now, --no-defaults, --no-builtin-defaults  as for apply

Exit status: 0 when nothing would change, 1 when something would, 2 on a
conflict or an error.
)"},
    {"blame", R"(usage: smdx blame [--html] LIVE...

The managers of each live object (from metadata.managedFields), then every
line of the object with the managers that own it.

  --html                instead, one self-contained HTML page (on standard
                        output; no network needed to view it): a legend of
                        the managedFields entries and each object with every
                        line colored by the entries that own it

Exit status: 0, or 1 on an error.
)"},
    {"managers", nullptr},
    {"validate", R"(usage: smdx validate FILE...

Checks each object against its type.

Exit status: 0 when all are valid, 1 otherwise.
)"},
    {"fieldset", R"(usage: smdx fieldset [--apply] FILE...

The fields each object sets, as fieldsV1 JSON (byte-identical to what
Kubernetes writes): what an update creating it would own (containers
included), or with --apply what an apply of it would own. Several objects
print as a stream of documents.

Exit status: 0, or 1 on an error.
)"},
    {"default", R"(usage: smdx default FILE...

Each object as the apiserver decodes it. An object of a built-in kind goes
through its Go types (zero values of fields that are not omitempty, empty
omitempty fields dropped) and Kubernetes 1.37's defaulters, as a request
body does before the field manager sees it (--no-builtin-defaults: as a
custom resource). Other objects are pruned of fields their schema does not
declare and defaulted from the schema's defaults, as the apiserver does for
custom resources.

  --json                one JSON object per line instead of a YAML stream
  --no-builtin-defaults objects of built-in kinds as custom resources

Exit status: 0, or 1 on an error.
)"},
    {"merge", R"(usage: smdx merge --lhs A --rhs B

Merges value B (a partial object) into A by the structured-merge rules
alone (no managedFields).

Exit status: 0, or 1 on an error.
)"},
    {"compare", R"(usage: smdx compare --lhs A --rhs B

The paths added, modified and removed from A to B.

Exit status: 0, or 1 on an error.
)"},
    {"list-types", R"(usage: smdx list-types

The names of the schema's types.

Exit status: 0, or 1 on an error.
)"},
    {"conformance", R"(usage: smdx conformance [--json] [--filter REGEX] PATH...

Replays the conformance cases in PATH (files, or folders searched for
*.yaml).

Exit status: 0 when all pass, 1 when a case fails or --filter matches none,
2 when a file cannot be read or the filter is invalid.
)"},
};

const char* UsageOf(const std::string& name) {
  for (const Command& c : kCommands) {
    if (name == c.name) return c.usage != nullptr ? c.usage : UsageOf("blame");
  }
  return nullptr;
}

// The objects of the positional arguments; read errors are printed.
InputObjects ReadInputs(const Flags& f, std::istream& in, std::ostream& err,
                        int* status) {
  InputObjects objects =
      ReadObjects(f.positional, f.Bool("recursive"), f.limits, in);
  for (const absl::Status& e : objects.errors) *status = Fail(err, e);
  return objects;
}

// Runs `one` on each object of the positional arguments with its type;
// `one` writes its result and returns an error or OK. Returns the exit
// status.
template <typename Fn>
int ForEachObject(const Flags& f, const char* cmd, std::istream& in,
                  std::ostream& err, Fn one) {
  if (f.positional.empty()) {
    return Fail(err, absl::InvalidArgumentError(absl::StrCat(
                         cmd, " takes FILE (files, directories or -)")));
  }
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  int status = 0;
  InputObjects objects = ReadInputs(f, in, err, &status);
  Progress progress(err, cmd, objects.objects.size(), Progress::ShownOn(err));
  for (const InputObject& o : objects.objects) {
    progress.Step();
    absl::StatusOr<Type> t = schemas->TypeOf(&o.value);
    absl::Status st =
        t.ok() ? one(o, *t, objects.objects.size() > 1) : t.status();
    if (!st.ok()) {
      err << "error: " << Describe(o) << ": " << st.message() << "\n";
      status = 1;
    }
  }
  return status;
}

int CmdValidate(const Flags& f, std::istream& in, std::ostream& out,
                std::ostream& err) {
  return ForEachObject(
      f, "validate", in, err,
      [&](const InputObject& o, const Type& t, bool) -> absl::Status {
        if (absl::Status st = Validate(t, o.value); !st.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("invalid ", t.name(), ":\n", st.message()));
        }
        out << Describe(o) << ": valid " << t.name() << "\n";
        return absl::OkStatus();
      });
}

int CmdFieldset(const Flags& f, std::istream& in, std::ostream& out,
                std::ostream& err) {
  bool first = true;
  return ForEachObject(
      f, "fieldset", in, err,
      [&](const InputObject& o, const Type& t, bool several) -> absl::Status {
        if (absl::Status st = Validate(t, o.value); !st.ok()) return st;
        std::string text;
        if (f.Bool("apply")) {
          text = SerializeFieldsV1(ToFieldSet(t, o.value));
        } else {
          // As SMD's own tool: the fields a write of the object onto an
          // empty object adds, which includes the containers themselves.
          Value empty = Value::MakeMap();
          text = SerializeFieldsV1(CompareFields(t, &empty, &o.value).added);
        }
        if (several) {
          out << (first ? "" : "---\n") << text << "\n";
        } else {
          out << text;
        }
        first = false;
        return absl::OkStatus();
      });
}

int CmdDefault(const Flags& f, std::istream& in, std::ostream& out,
               std::ostream& err) {
  bool first = true;
  return ForEachObject(
      f, "default", in, err,
      [&](const InputObject& o, const Type& t, bool) -> absl::Status {
        // A built-in kind as the apiserver decodes a request body: through
        // its Go types, then Kubernetes' defaulters.
        std::shared_ptr<const BuiltinKind> builtin =
            f.Bool("no-builtin-defaults")
                ? nullptr
                : BuiltinKind::For(t, StringAt(o.value, "apiVersion"),
                                   StringAt(o.value, "kind"));
        auto print = [&](const Value& v) {
          if (f.Bool("json")) {
            out << ToJson(v) << "\n";
          } else {
            out << (first ? "" : "---\n") << ToYaml(v);
          }
          first = false;
        };
        if (builtin != nullptr) {
          // A value its Go type cannot hold is the apiserver's 400.
          absl::Status decoded;
          Value v = builtin->Decode(o.value, nullptr, nullptr, &decoded);
          if (!decoded.ok()) return builtin->BodyRefused(decoded);
          print(v);
          return absl::OkStatus();
        }
        // As the apiserver's pipeline for custom resources: prune, then
        // default.
        Value defaulted = ApplyDefaults(t, PruneUndeclared(t, o.value));
        if (absl::Status st = Validate(t, defaulted); !st.ok()) {
          err << "warning: " << Describe(o)
              << ": the defaulted object does not validate:\n"
              << st.message() << "\n";
        }
        print(defaulted);
        return absl::OkStatus();
      });
}

int CmdListTypes(const Flags& f, std::ostream& out, std::ostream& err) {
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  absl::StatusOr<std::shared_ptr<const Schema>> s = schemas->Whole();
  if (!s.ok()) return Fail(err, s.status());
  for (const TypeDef& t : (*s)->types()) out << t.name << "\n";
  return 0;
}

// The one value of a --lhs or --rhs file.
absl::StatusOr<Value> ReadOneValue(const std::string& path,
                                   const Limits& limits) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<Value> v = ParseYamlOrJson(*text, limits);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", v.status().message()));
  }
  return v;
}

int CmdMergeOrCompare(const Flags& f, bool merge, std::ostream& out,
                      std::ostream& err) {
  auto lp = f.values.find("lhs");
  auto rp = f.values.find("rhs");
  if (lp == f.values.end() || rp == f.values.end()) {
    return Fail(err,
                absl::InvalidArgumentError("needs --lhs FILE and --rhs FILE"));
  }
  absl::StatusOr<Value> lhs = ReadOneValue(lp->second, f.limits);
  if (!lhs.ok()) return Fail(err, lhs.status());
  absl::StatusOr<Value> rhs = ReadOneValue(rp->second, f.limits);
  if (!rhs.ok()) return Fail(err, rhs.status());
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  absl::StatusOr<Type> t = schemas->TypeOf(&*lhs);
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
  Comparison c = CompareFields(*t, &*lhs, &*rhs);
  auto section = [&](const char* name, const Set& s) {
    out << name << ":\n";
    s.Iterate([&](const Path& p) { out << "- " << PathString(p) << "\n"; });
  };
  section("added", c.added);
  section("modified", c.modified);
  section("removed", c.removed);
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
  ConformanceReport rep = RunConformance(f.positional, opts);
  if (!rep.error.empty()) {
    err << "error: " << rep.error << "\n";
    return 2;
  }
  out << (f.Bool("json") ? FormatReportJson(rep) : FormatReportText(rep));
  if (rep.file_error) return 2;
  if (!opts.filter.empty() && rep.passed + rep.failed + rep.skipped == 0) {
    err << "error: --filter \"" << opts.filter << "\" matches no case\n";
    return 1;
  }
  return rep.failed > 0 ? 1 : 0;
}

}  // namespace

int Run(const std::vector<std::string>& args, std::istream& in,
        std::ostream& out, std::ostream& err) {
  if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
    out << "smdx " << kVersion << " (Kubernetes " << KubernetesVersion()
        << " built in)\n";
    return 0;
  }
  if (args.empty() || args[0] == "help" || args[0] == "--help" ||
      args[0] == "-h") {
    if (args.size() > 1 && UsageOf(args[1]) != nullptr) {
      out << UsageOf(args[1]);
      return 0;
    }
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string& cmd = args[0];
  const bool wants_help =
      std::find(args.begin() + 1, args.end(), "--help") != args.end() ||
      std::find(args.begin() + 1, args.end(), "-h") != args.end();
  if (cmd == "schema") {
    return CmdSchema(std::vector<std::string>(args.begin() + 1, args.end()),
                     out, err);
  }
  if (UsageOf(cmd) == nullptr) {
    err << "error: unknown command \"" << cmd << "\"\n" << kUsage;
    return 2;
  }
  if (wants_help) {
    out << UsageOf(cmd);
    return 0;
  }
  if (std::find(args.begin() + 1, args.end(), "--version") != args.end()) {
    out << "smdx " << kVersion << " (Kubernetes " << KubernetesVersion()
        << " built in)\n";
    return 0;
  }
  absl::StatusOr<Flags> f = ParseFlags(args, 1);
  if (!f.ok()) {
    err << "error: " << f.status().message() << "\n" << UsageOf(cmd);
    return 2;
  }
  if (cmd == "validate") return CmdValidate(*f, in, out, err);
  if (cmd == "fieldset") return CmdFieldset(*f, in, out, err);
  if (cmd == "list-types") return CmdListTypes(*f, out, err);
  if (cmd == "merge") return CmdMergeOrCompare(*f, true, out, err);
  if (cmd == "compare") return CmdMergeOrCompare(*f, false, out, err);
  if (cmd == "apply") return CmdApply(*f, /*apply=*/true, in, out, err);
  if (cmd == "update") return CmdApply(*f, /*apply=*/false, in, out, err);
  if (cmd == "patch") return CmdPatch(*f, in, out, err);
  if (cmd == "diff") return CmdDiff(*f, in, out, err);
  if (cmd == "blame" || cmd == "managers") return CmdBlame(*f, in, out, err);
  if (cmd == "conformance") return CmdConformance(*f, out, err);
  return CmdDefault(*f, in, out, err);
}

int Run(const std::vector<std::string>& args, std::ostream& out,
        std::ostream& err) {
  std::istringstream none;
  return Run(args, none, out, err);
}

}  // namespace smdx::cli
