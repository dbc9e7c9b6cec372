#include "cli/kube_cmds.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/objects.h"
#include "cli/progress.h"
#include "cli/text_diff.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/typed/internal/typed.h"
#include "smdx/value/emit.h"

namespace smdx::cli {

namespace {

// Everything an apply, update or diff of one object needs: the objects,
// the type and a field manager for the resource.
struct Request {
  Value live;  // null when there is no live object
  Value config;
  std::optional<Type> type;
  std::unique_ptr<ManualClock> clock;  // with --now
  std::optional<FieldManager> fm;
};

absl::StatusOr<std::unique_ptr<Request>> PrepareRequest(const Flags& f,
                                                        const Schemas& schemas,
                                                        const Value* live,
                                                        const Value& config) {
  auto req = std::make_unique<Request>();
  req->config = config;
  if (live != nullptr) req->live = *live;
  // The resource is the live object's; without one, the configuration's.
  const Value& target = req->live.IsMap() ? req->live : req->config;
  ResourceOptions opts;
  opts.limits = f.limits;
  opts.api_version = StringAt(target, "apiVersion");
  opts.kind = StringAt(target, "kind");
  if (opts.api_version.empty() || opts.kind.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        req->live.IsMap() ? "the live object" : "the object",
        " has no apiVersion and kind: apply, update and diff work on "
        "Kubernetes objects (smdx merge merges plain values)"));
  }
  absl::StatusOr<Type> type = schemas.TypeOf(&target);
  if (!type.ok()) return type.status();
  req->type = *type;
  opts.type = *type;
  opts.subresource = f.Get("subresource");
  opts.apply_defaults = !f.Bool("no-defaults");
  opts.builtin_defaults = !f.Bool("no-builtin-defaults");
  if (std::string now = f.Get("now"); !now.empty()) {
    absl::StatusOr<absl::Time> t = ParseManagedTime(now);
    if (!t.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--now: ", t.status().message()));
    req->clock = std::make_unique<ManualClock>(*t);
    opts.clock = req->clock.get();
  }
  absl::StatusOr<FieldManager> fm = schemas.catalog().NewFieldManager(opts);
  if (!fm.ok()) return fm.status();
  req->fm.emplace(*std::move(fm));
  return req;
}

// The configurations (positional arguments) and live objects (--live, or
// `live_arg`) of an apply, update or diff; read errors are printed and
// counted in `*status`.
struct Batch {
  InputObjects configs;
  InputObjects live;

  // The live object of `config`. One configuration and one live object
  // pair whatever their names (an apply to another resource is then the
  // apiserver's badRequest, as it would be for that request).
  const InputObject* LiveOf(const LiveObjects& index,
                            const InputObject& config) const {
    if (configs.objects.size() == 1 && live.objects.size() == 1)
      return &live.objects[0];
    return index.Find(config.value);
  }

  // The request for `config`, or null after saying on `err` why there is
  // none.
  std::unique_ptr<Request> Prepare(const Flags& f, const Schemas& schemas,
                                   const LiveObjects& index,
                                   const InputObject& config,
                                   std::ostream& err) const {
    const InputObject* l = LiveOf(index, config);
    absl::StatusOr<std::unique_ptr<Request>> req = PrepareRequest(
        f, schemas, l != nullptr ? &l->value : nullptr, config.value);
    if (!req.ok()) {
      err << "error: " << Describe(config) << ": " << req.status().message()
          << "\n";
      return nullptr;
    }
    return *std::move(req);
  }
};

Batch ReadBatch(const Flags& f, const std::vector<std::string>& config_args,
                const std::string& live_arg, std::istream& in,
                std::ostream& err, int* status, int error_status) {
  Batch b;
  bool recursive = f.Bool("recursive");
  b.configs = ReadObjects(config_args, recursive, f.limits, in);
  if (!live_arg.empty())
    b.live = ReadObjects({live_arg}, recursive, f.limits, in);
  for (const InputObjects* io : {&b.live, &b.configs}) {
    for (const absl::Status& e : io->errors) {
      err << "error: " << e.message() << "\n";
      *status = std::max(*status, error_status);
    }
  }
  return b;
}

// Prints a failed operation on `what`; returns the exit status (2:
// conflicts).
int ReportFailure(const FieldManagerResult& r, const std::string& what,
                  std::ostream& err) {
  if (r.kind == ErrorKind::kConflict) {
    err << "error: " << what << ": " << KubernetesConflictMessage(r.conflicts)
        << "\n"
        << "The fields above have other managers. To resolve this, either:\n"
        << "* apply again with --force-conflicts to take them over (the "
           "other managers lose them),\n"
        << "* remove them from your configuration to leave them to their "
           "managers, or\n"
        << "* set them to the values they have now to share ownership.\n";
    return 2;
  }
  err << "error (" << ErrorKindName(r.kind) << "): " << what << ": "
      << r.status.message() << "\n";
  return 1;
}

std::string ManagerFlag(const Flags& f, bool apply) {
  // kubectl's default field manager for server-side apply.
  return f.Get("manager", apply ? "kubectl" : "");
}

}  // namespace

int CmdApply(const Flags& f, bool apply, std::istream& in, std::ostream& out,
             std::ostream& err) {
  if (f.positional.empty()) {
    return Fail(err, absl::InvalidArgumentError(
                         apply ? "apply takes CONFIG (files, directories or -)"
                               : "update takes OBJECT (files, directories or "
                                 "-)"));
  }
  std::string manager = ManagerFlag(f, apply);
  if (!apply && manager.empty()) {
    return Fail(
        err, absl::InvalidArgumentError("update needs --field-manager NAME"));
  }
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  int status = 0;
  Batch b = ReadBatch(f, f.positional, f.Get("live"), in, err, &status, 1);
  LiveObjects live(b.live.objects);
  std::vector<std::string> results;
  Progress progress(err, apply ? "apply" : "update", b.configs.objects.size(),
                    Progress::ShownOn(err));
  for (const InputObject& config : b.configs.objects) {
    progress.Step();
    std::string what = Describe(config);
    std::unique_ptr<Request> req = b.Prepare(f, *schemas, live, config, err);
    if (req == nullptr) {
      status = std::max(status, 1);
      continue;
    }
    const Request& q = *req;
    FieldManagerResult r =
        apply ? q.fm->Apply(q.live, q.config, manager, f.Bool("force"))
              : q.fm->Update(q.live, q.config, manager);
    if (!r.ok()) {
      status = std::max(status, ReportFailure(r, what, err));
      continue;
    }
    for (const std::string& w : r.warnings)
      err << "warning: " << what << ": " << w << "\n";
    results.push_back(ToYaml(r.object));
  }
  out << absl::StrJoin(results, "---\n");
  return status;
}

namespace {

// The managers' display names: the manager name, with the operation when
// the same name has entries of both kinds, and the subresource.
std::map<std::string, std::string> ManagerLabels(const ManagedFields& a,
                                                 const ManagedFields& b) {
  std::map<std::string, ManagerIdentity> ids;
  for (const ManagedFields* m : {&a, &b}) {
    for (const auto& [key, vs] : *m) {
      absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
      ids[key] = id.ok() ? *id : ManagerIdentity{key, "", "", ""};
      if (id.ok()) ids[key].api_version = vs.api_version();
    }
  }
  std::map<std::string, int> name_count;
  for (const auto& [key, id] : ids) name_count[id.manager]++;
  std::map<std::string, std::string> labels;
  for (const auto& [key, id] : ids) {
    std::string label = id.manager;
    if (!id.subresource.empty()) absl::StrAppend(&label, "/", id.subresource);
    if (name_count[id.manager] > 1)
      absl::StrAppend(&label, " (", id.operation, ")");
    labels[key] = label;
  }
  return labels;
}

bool UseColor(const Flags& f, const std::ostream& out) {
  std::string mode = f.Get("color", "auto");
  if (mode == "always") return true;
  if (mode == "never") return false;
  return &out == &std::cout && isatty(STDOUT_FILENO) != 0;
}

std::string ObjectName(const Value& obj) {
  const Value* meta = Find(obj, "metadata");
  std::string ns = meta != nullptr ? StringAt(*meta, "namespace") : "";
  std::string name = meta != nullptr ? StringAt(*meta, "name") : "";
  std::vector<std::string> parts = {StringAt(obj, "apiVersion"),
                                    StringAt(obj, "kind")};
  if (!ns.empty()) parts.push_back(ns);
  if (!name.empty()) parts.push_back(name);
  return absl::StrJoin(parts, "/");
}

std::string Plural(size_t n, absl::string_view word) {
  return absl::StrCat(n, " ", word, n == 1 ? "" : "s");
}

}  // namespace

namespace {

// The diff of one object; `what` names it when there are several. Returns
// 0 (no change), 1 (changes) or 2 (conflicts or an error).
int DiffOne(const Flags& f, const std::string& manager, const Request& q,
            const std::string& what, bool color, std::ostream& out,
            std::ostream& err) {
  FieldManagerResult r =
      q.fm->Apply(q.live, q.config, manager, f.Bool("force"));
  if (r.kind == ErrorKind::kConflict) {
    out << (color ? "\033[1;31m" : "") << "conflicts"
        << (color ? "\033[0m" : "")
        << (what.empty() ? "" : absl::StrCat(" in ", what))
        << " (the apply would fail; --force-conflicts takes the fields):\n";
    for (const Conflict& c : r.conflicts.list()) {
      out << "  " << PathString(c.path) << "  owned by "
          << DisplayManager(c.manager) << "\n";
    }
    return 2;
  }
  if (!r.ok()) {
    ReportFailure(r, what.empty() ? "the object" : what, err);
    return 2;
  }
  absl::StatusOr<ManagedState> before = DecodeManagedFields(q.live, f.limits);
  if (!before.ok()) {
    err << "error: " << (what.empty() ? "the live object" : what) << ": "
        << before.status().message() << "\n";
    return 2;
  }
  std::string name = ObjectName(q.live.IsMap() ? q.live : q.config);
  UnifiedDiffOptions dopts;
  dopts.old_label = absl::StrCat("live/", name);
  dopts.new_label = absl::StrCat("applied/", name, " (field manager ",
                                 manager.empty() ? "unknown" : manager, ")");
  dopts.color = color;
  std::string old_text =
      q.live.IsNull() ? "" : ToYaml(StripManagedFields(q.live));
  std::string text =
      UnifiedDiff(old_text, ToYaml(StripManagedFields(r.object)), dopts);
  out << text;

  // Ownership: what each manager gains and loses.
  const ManagedFields& was = before->fields;
  const ManagedFields& now = r.managed.fields;
  std::map<std::string, std::string> labels = ManagerLabels(was, now);
  // The applier first, then the others in managedFields order.
  std::vector<std::string> keys = {EncodeManagerIdentity(
      ManagerIdentity{manager.empty() ? "unknown" : manager, "Apply", "",
                      f.Get("subresource")})};
  for (const ManagedState* m : {&r.managed, &*before}) {
    for (const std::string& k : CanonicalOrder(*m)) {
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
    }
  }
  std::string own;
  static const Set kEmpty;
  for (const std::string& key : keys) {
    const Set& a = was.count(key) != 0 ? was.at(key).set() : kEmpty;
    const Set& b = now.count(key) != 0 ? now.at(key).set() : kEmpty;
    Set gained = b.Difference(a), lost = a.Difference(b);
    if (gained.Empty() && lost.Empty()) continue;
    if (!gained.Empty()) {
      absl::StrAppend(&own, "  ", labels[key], " gains ",
                      Plural(gained.Size(), "field"), ":\n");
      gained.Iterate([&](const Path& p) {
        std::vector<std::string> from, with;
        for (const auto& [other, vs] : was) {
          if (other == key || !vs.set().Has(p)) continue;
          bool keeps = now.count(other) != 0 && now.at(other).set().Has(p);
          (keeps ? with : from).push_back(labels[other]);
        }
        absl::StrAppend(&own, "    ", PathString(p));
        if (!from.empty())
          absl::StrAppend(&own, "  (taken from ", absl::StrJoin(from, ", "),
                          ")");
        if (!with.empty())
          absl::StrAppend(&own, "  (shared with ", absl::StrJoin(with, ", "),
                          ")");
        own += "\n";
      });
    }
    if (!lost.Empty()) {
      absl::StrAppend(&own, "  ", labels[key], " loses ",
                      Plural(lost.Size(), "field"), ":\n");
      lost.Iterate([&](const Path& p) {
        absl::StrAppend(&own, "    ", PathString(p), "\n");
      });
    }
  }
  if (!own.empty()) {
    if (!text.empty()) out << "\n";
    out << (color ? "\033[1m" : "")
        << "ownership changes:" << (color ? "\033[0m" : "") << "\n"
        << own;
  }
  return text.empty() && own.empty() ? 0 : 1;
}

}  // namespace

int CmdDiff(const Flags& f, std::istream& in, std::ostream& out,
            std::ostream& err) {
  // diff [LIVE] CONFIG, or diff --live LIVE CONFIG...
  std::vector<std::string> configs = f.positional;
  std::string live_arg = f.Get("live");
  if (live_arg.empty() && configs.size() == 2) {
    live_arg = configs[0];
    configs.erase(configs.begin());
  }
  if (configs.empty() || (f.Get("live").empty() && configs.size() > 2)) {
    err << "error: diff takes [LIVE] CONFIG, or --live LIVE CONFIG... "
           "(without LIVE: a create)\n";
    return 2;
  }
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) {
    Fail(err, schemas.status());
    return 2;
  }
  std::string manager = ManagerFlag(f, /*apply=*/true);
  int status = 0;
  Batch b = ReadBatch(f, configs, live_arg, in, err, &status, 2);
  LiveObjects live(b.live.objects);
  const bool color = UseColor(f, out);
  const bool several = b.configs.objects.size() > 1;
  bool first = true;
  Progress progress(err, "diff", b.configs.objects.size(),
                    Progress::ShownOn(err));
  for (const InputObject& config : b.configs.objects) {
    progress.Step();
    std::string what = Describe(config);
    std::unique_ptr<Request> req = b.Prepare(f, *schemas, live, config, err);
    if (req == nullptr) {
      status = 2;
      continue;
    }
    std::stringstream one;
    int s = DiffOne(f, manager, *req, several ? what : "", color, one, err);
    if (!one.str().empty()) {
      if (!first) out << "\n";
      out << one.str();
      first = false;
    }
    status = std::max(status, s);
  }
  return status;
}

namespace {

// Renders an object as YAML with, on every line, the managers that own the
// field the line shows (or the atomic list or map it lies in).
class Blamer {
 public:
  Blamer(const Type& type, const ManagedFields& managers,
         std::map<std::string, std::string> labels)
      : type_(type), managers_(managers), labels_(std::move(labels)) {}

  struct Line {
    std::string owners;
    std::string text;
  };

  std::vector<Line> Render(const Value& object) {
    Path path;
    Node(type_.root(), object, &path, 0, /*inherited=*/"", "");
    return std::move(lines_);
  }

 private:
  std::string OwnersOf(const Path& p) const {
    std::vector<std::string> names;
    for (const auto& [key, vs] : managers_) {
      if (vs.set().Has(p)) names.push_back(labels_.at(key));
    }
    return absl::StrJoin(names, ", ");
  }

  static std::string Scalar(const Value& v) {
    std::string y = ToYaml(v);
    while (!y.empty() && y.back() == '\n') y.pop_back();
    // Block scalars span lines; one line of JSON (valid YAML) keeps the
    // one-line-one-field layout.
    if (y.find('\n') != std::string::npos) return ToJson(v);
    return y;
  }

  // The owners of a line: an atomic container's owners cover what lies in
  // it.
  std::string Owners(const Path& p, const std::string& inherited) const {
    return inherited.empty() ? OwnersOf(p) : inherited;
  }

  void Emit(std::string owners, int indent, const std::string& prefix,
            const std::string& text) {
    lines_.push_back(
        Line{std::move(owners), std::string(indent, ' ') + prefix + text});
  }

  // Writes the entries of map `v` (of type `atom`) at `indent`; the first
  // line gets `first_prefix` ("- " for a list item) and `first_owners`.
  void Node(const Atom* atom, const Value& v, Path* path, int indent,
            const std::string& inherited, const std::string& first_prefix) {
    internal::Narrowed n =
        atom != nullptr
            ? internal::Narrow(atom, &v)
            : internal::Narrowed{nullptr, internal::Narrowed::kNone};
    if (v.IsMap()) {
      bool atomic = n.kind == internal::Narrowed::kMap && n.atom->IsAtomicMap();
      std::string inner = inherited;
      if (atomic && inner.empty()) inner = OwnersOf(*path);
      bool first = true;
      for (const MapEntry& e : v.map()) {
        const Atom* child = n.kind == internal::Narrowed::kMap
                                ? n.atom->map->EntryAtom(e.key)
                                : nullptr;
        path->push_back(PathElement::Field(e.key));
        std::string prefix = first ? first_prefix : "";
        int ind =
            first ? indent : indent + static_cast<int>(first_prefix.size());
        std::string owners = Owners(*path, inner);
        if (first && !first_prefix.empty() && inherited.empty()) {
          // The item's own line also stands for the item.
          Path item(path->begin(), path->end() - 1);
          std::string item_owners = OwnersOf(item);
          if (!item_owners.empty() && item_owners != owners)
            owners = owners.empty() ? item_owners
                                    : absl::StrCat(item_owners, "; ", owners);
        }
        Entry(child, e.key, e.value, path, ind, prefix, owners, inner);
        path->pop_back();
        first = false;
      }
      return;
    }
    Emit(Owners(*path, inherited), indent, first_prefix, Scalar(v));
  }

  void Entry(const Atom* atom, const std::string& key, const Value& v,
             Path* path, int indent, const std::string& prefix,
             const std::string& owners, const std::string& inherited) {
    std::string k = Scalar(Value(key));
    if (v.IsMap() && !v.map().empty()) {
      Emit(owners, indent, prefix, k + ":");
      Node(atom, v, path, indent + static_cast<int>(prefix.size()) + 2,
           inherited, "");
      return;
    }
    if (v.IsList() && !v.list().empty()) {
      Emit(owners, indent, prefix, k + ":");
      List(atom, v, path, indent + static_cast<int>(prefix.size()), inherited);
      return;
    }
    Emit(owners, indent, prefix,
         absl::StrCat(k, ": ",
                      v.IsMap()    ? "{}"
                      : v.IsList() ? "[]"
                                   : Scalar(v)));
  }

  void List(const Atom* atom, const Value& v, Path* path, int indent,
            const std::string& inherited) {
    internal::Narrowed n =
        atom != nullptr
            ? internal::Narrow(atom, &v)
            : internal::Narrowed{nullptr, internal::Narrowed::kNone};
    const bool typed = n.kind == internal::Narrowed::kList;
    std::string inner = inherited;
    if (typed && n.atom->IsAtomicList() && inner.empty())
      inner = OwnersOf(*path);
    if (!typed && inner.empty()) inner = OwnersOf(*path);
    const Atom* elem = typed ? n.atom->list->element_type.resolved : nullptr;
    for (size_t i = 0; i < v.list().size(); ++i) {
      const Value& item = v.list()[i];
      PathElement pe = PathElement::Index(static_cast<int64_t>(i));
      if (typed && !n.atom->IsAtomicList()) {
        absl::StatusOr<PathElement> e =
            internal::ListItemElement(*n.atom, item, i);
        if (e.ok()) pe = *std::move(e);
      }
      path->push_back(pe);
      if (item.IsMap() && !item.map().empty()) {
        Node(elem, item, path, indent, inner, "- ");
      } else if (item.IsList() && !item.list().empty()) {
        Emit(Owners(*path, inner), indent, "- ", "");
        List(elem, item, path, indent + 2, inner);
      } else {
        Emit(Owners(*path, inner), indent, "- ",
             item.IsMap()    ? "{}"
             : item.IsList() ? "[]"
                             : Scalar(item));
      }
      path->pop_back();
    }
  }

  const Type& type_;
  const ManagedFields& managers_;
  std::map<std::string, std::string> labels_;
  std::vector<Line> lines_;
};

}  // namespace

namespace {

absl::Status BlameOne(const Type& type, const Value& live, const Limits& limits,
                      std::ostream& out) {
  absl::StatusOr<ManagedState> state = DecodeManagedFields(live, limits);
  if (!state.ok()) return state.status();
  Value body = StripManagedFields(live);
  if (absl::Status st = Validate(type, body, ValidateOptions{true}); !st.ok()) {
    return st;
  }
  std::map<std::string, std::string> labels =
      ManagerLabels(state->fields, ManagedFields());

  out << "managers:\n";
  if (state->fields.empty())
    out << "  (none: the object has no managedFields)\n";
  size_t width = 0;
  for (const auto& [key, label] : labels) width = std::max(width, label.size());
  for (const std::string& key : CanonicalOrder(*state)) {
    const VersionedSet& vs = state->fields.at(key);
    std::string op = vs.applied() ? "Apply" : "Update";
    std::string time = "-";
    if (auto t = state->times.find(key); t != state->times.end())
      time = FormatManagedTime(t->second);
    std::string label = labels[key];
    out << "  " << label << std::string(width - label.size() + 2, ' ') << op
        << std::string(8 - op.size(), ' ') << vs.api_version() << "  " << time
        << "  " << Plural(vs.set().Size(), "field") << "\n";
  }
  out << "\n";
  std::vector<Blamer::Line> lines =
      Blamer(type, state->fields, labels).Render(body);
  size_t col = 0;
  for (const Blamer::Line& l : lines) col = std::max(col, l.owners.size());
  col = std::min<size_t>(col, 40);
  for (const Blamer::Line& l : lines) {
    std::string owners = l.owners;
    if (owners.size() < col) owners += std::string(col - owners.size(), ' ');
    out << owners << " | " << l.text << "\n";
  }
  return absl::OkStatus();
}

}  // namespace

int CmdBlame(const Flags& f, std::istream& in, std::ostream& out,
             std::ostream& err) {
  if (f.positional.empty()) {
    err << "error: blame takes LIVE (files, directories or -)\n";
    return 2;
  }
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  InputObjects objects =
      ReadObjects(f.positional, f.Bool("recursive"), f.limits, in);
  int status = 0;
  for (const absl::Status& e : objects.errors) status = Fail(err, e);
  const bool several = objects.objects.size() > 1;
  bool first = true;
  for (const InputObject& o : objects.objects) {
    std::string what = Describe(o);
    absl::StatusOr<Type> type = schemas->TypeOf(&o.value);
    std::stringstream one;
    absl::Status st =
        type.ok() ? BlameOne(*type, o.value, f.limits, one) : type.status();
    if (!st.ok()) {
      err << "error: " << what << ": " << st.message() << "\n";
      status = 1;
      continue;
    }
    if (!first) out << "\n";
    first = false;
    if (several) out << "# " << what << "\n";
    out << one.str();
  }
  return status;
}

}  // namespace smdx::cli
