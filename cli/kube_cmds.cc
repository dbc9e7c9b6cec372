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
#include "cli/blame_lines.h"
#include "cli/html_page.h"
#include "cli/objects.h"
#include "cli/progress.h"
#include "cli/text_diff.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/kubectl_apply.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/value/parse.h"
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
  // The request goes to the version the configuration names, as kubectl
  // sends it, and the apiserver reads the stored object at that version:
  // the resource is the configuration's when it is another version of the
  // live object's group and kind. Otherwise it is the live object's (an
  // apply to another resource is then the apiserver's badRequest), and
  // without one the configuration's.
  const bool same_resource =
      req->live.IsMap() && !StringAt(req->config, "apiVersion").empty() &&
      GroupKindKey(req->config) == GroupKindKey(req->live);
  const Value& target =
      req->live.IsMap() && !same_resource ? req->live : req->config;
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
  // The live object at the request's version, as the requests read it and
  // diff shows it.
  absl::StatusOr<Value> read = req->fm->ReadLive(req->live);
  if (!read.ok()) return read.status();
  req->live = *std::move(read);
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
  if (r.kind == ErrorKind::kConflict && r.conflicts.empty()) {
    // Storage's 409: the object changed since the request's was read.
    err << "error: " << what << ": " << r.status.message() << "\n"
        << "The request names a resourceVersion or uid the live object does "
           "not have: read the object again and make the request from it.\n";
    return 2;
  }
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

// The apply of request `q` by `manager`: the apiserver's (one request), or
// with --as-kubectl all that `kubectl apply --server-side` sends, or with
// --client-side what client-side `kubectl apply` sends
// (fieldmanager/kubectl_apply.h). `force` overrides --force-conflicts.
FieldManagerResult ApplyRequest(const Flags& f, const Request& q,
                                const std::string& manager,
                                std::optional<bool> force = std::nullopt) {
  if (f.Bool("client-side"))
    return KubectlClientSideApply(*q.fm, q.live, q.config, manager);
  const bool forced = force.value_or(f.Bool("force"));
  if (f.Bool("as-kubectl"))
    return KubectlServerSideApply(*q.fm, q.live, q.config, manager, forced);
  return q.fm->Apply(q.live, q.config, manager, forced);
}

// What a write that deletes the object (FieldManagerResult::deleted) is.
constexpr absl::string_view kDeletedNote =
    "the apiserver deletes the object: the write leaves it, being deleted, "
    "without finalizers";

// Prints the result of a request on `what`: its failure and warnings on
// `err`, the object stored on `out` (after a `---` unless `*first`).
// Returns the exit status (ReportFailure's on a failure).
int PrintResult(const FieldManagerResult& r, const std::string& what,
                bool* first, std::ostream& out, std::ostream& err) {
  if (!r.ok()) return ReportFailure(r, what, err);
  for (const std::string& w : r.server_warnings)
    err << "warning: " << what << ": " << w << "\n";
  for (const std::string& w : r.warnings)
    err << "warning: " << what << ": " << w << "\n";
  if (r.deleted) {
    err << "warning: " << what << ": " << kDeletedNote
        << " (the object below is its answer, which it no longer holds)\n";
  }
  if (!*first) out << "---\n";
  *first = false;
  out << ToYaml(r.object);
  return 0;
}

std::string ManagerFlag(const Flags& f, bool apply) {
  // kubectl's default field managers.
  if (!apply) return f.Get("manager", "");
  return f.Get("manager", f.Bool("client-side")
                              ? std::string(kKubectlClientSideManager)
                              : std::string(kKubectlManager));
}

// The request client-side kubectl apply makes of `q`, on `out` (after a
// `---` unless `*first`): a comment naming it, then its body.
int PrintClientSideRequest(const Request& q, const std::string& what,
                           bool* first, std::ostream& out, std::ostream& err) {
  absl::StatusOr<ClientSideApplyRequest> r =
      KubectlClientSideRequest(*q.fm, q.live, q.config);
  if (!r.ok()) {
    err << "error: " << what << ": " << r.status().message() << "\n";
    return 1;
  }
  if (!*first) out << "---\n";
  *first = false;
  if (r->create) {
    out << "# POST (a create), application/json\n";
  } else if (r->body.IsMap() && r->body.map().empty()) {
    out << "# no request: the patch is empty (kubectl reports the object "
           "unchanged)\n";
  } else {
    out << "# PATCH, "
        << (r->type == PatchType::kStrategic
                ? "application/strategic-merge-patch+json"
                : "application/merge-patch+json")
        << "\n";
  }
  out << ToYaml(r->body);
  return 0;
}

// --client-side's refusals: the flags of server-side apply, and
// --print-request without it.
absl::Status CheckClientSide(const Flags& f, bool apply) {
  if (f.Bool("print-request") && !(apply && f.Bool("client-side"))) {
    return absl::InvalidArgumentError(
        "--print-request is for apply --client-side");
  }
  if (!f.Bool("client-side")) return absl::OkStatus();
  if (!apply) {
    return absl::InvalidArgumentError(
        "--client-side is for apply and diff: an update is one request");
  }
  for (const char* flag : {"server-side", "as-kubectl", "force"}) {
    if (f.Bool(flag)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--client-side does not go with --",
          std::string(flag) == "force" ? "force-conflicts" : flag,
          " (kubectl's client-side apply overwrites what it changes)"));
    }
  }
  return absl::OkStatus();
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
  if (absl::Status st = CheckClientSide(f, apply); !st.ok()) {
    return Fail(err, st);
  }
  if (!apply && f.Bool("as-kubectl")) {
    return Fail(err, absl::InvalidArgumentError(
                         "--as-kubectl is for apply and diff: kubectl's "
                         "steps follow a server-side apply"));
  }
  if (!apply && manager.empty()) {
    return Fail(
        err, absl::InvalidArgumentError("update needs --field-manager NAME"));
  }
  absl::StatusOr<Schemas> schemas = Schemas::Load(f);
  if (!schemas.ok()) return Fail(err, schemas.status());
  int status = 0;
  Batch b = ReadBatch(f, f.positional, f.Get("live"), in, err, &status, 1);
  LiveObjects live(b.live.objects);
  Progress progress(err, apply ? "apply" : "update", b.configs.objects.size(),
                    Progress::ShownOn(err));
  // Each result is written as it comes, and each configuration let go
  // once it is applied (the request holds what it needs): many objects
  // then take little more memory than the largest of them.
  bool first = true;
  for (InputObject& config : b.configs.objects) {
    progress.Step();
    std::string what = Describe(config);
    std::unique_ptr<Request> req = b.Prepare(f, *schemas, live, config, err);
    config.value = Value();
    if (req == nullptr) {
      status = std::max(status, 1);
      continue;
    }
    const Request& q = *req;
    if (f.Bool("print-request")) {
      progress.Clear();
      status = std::max(status, PrintClientSideRequest(q, what, &first, out,
                                                       err));
      continue;
    }
    FieldManagerResult r =
        apply ? ApplyRequest(f, q, manager)
              : q.fm->Update(q.live, q.config, manager);
    progress.Clear();
    status = std::max(status, PrintResult(r, what, &first, out, err));
  }
  return status;
}

int CmdPatch(const Flags& f, std::istream& in, std::ostream& out,
             std::ostream& err) {
  if (f.positional.empty()) {
    return Fail(err, absl::InvalidArgumentError(
                         "patch takes LIVE: the objects to patch (files, "
                         "directories or -)"));
  }
  // kubectl patch's default type.
  absl::StatusOr<PatchType> type =
      ParsePatchType(f.Get("type", "strategic"));
  if (!type.ok()) return Fail(err, type.status());
  const bool inline_patch = f.values.count("patch") != 0;
  if (inline_patch == (f.values.count("patch-file") != 0)) {
    return Fail(err, absl::InvalidArgumentError(
                         "patch needs one of --patch TEXT (-p) and "
                         "--patch-file FILE"));
  }
  std::string text = f.Get("patch");
  if (!inline_patch) {
    absl::StatusOr<std::string> read = ReadFile(f.Get("patch-file"));
    if (!read.ok()) return Fail(err, read.status());
    text = *std::move(read);
  }
  absl::StatusOr<Value> patch = ParseYamlOrJson(text, f.limits);
  if (!patch.ok()) {
    return Fail(err, absl::InvalidArgumentError(
                         absl::StrCat("the patch: ", patch.status().message())));
  }
  // kubectl patch's field manager.
  const std::string manager = f.Get("manager", "kubectl-patch");
  // (--type is the patch's here, as kubectl's: objects are typed by their
  // apiVersion and kind.)
  Flags typed_by_kind = f;
  typed_by_kind.values.erase("type");
  absl::StatusOr<Schemas> schemas = Schemas::Load(typed_by_kind);
  if (!schemas.ok()) return Fail(err, schemas.status());
  int status = 0;
  InputObjects objects =
      ReadObjects(f.positional, f.Bool("recursive"), f.limits, in);
  for (const absl::Status& e : objects.errors) {
    err << "error: " << e.message() << "\n";
    status = 1;
  }
  bool first = true;
  for (const InputObject& live : objects.objects) {
    const std::string what = Describe(live);
    absl::StatusOr<std::unique_ptr<Request>> req =
        PrepareRequest(f, *schemas, &live.value, live.value);
    if (!req.ok()) {
      err << "error: " << what << ": " << req.status().message() << "\n";
      status = 1;
      continue;
    }
    const Request& q = **req;
    FieldManagerResult r = Patch(*q.fm, q.live, *patch, *type, manager);
    status = std::max(status, PrintResult(r, what, &first, out, err));
  }
  return status;
}

namespace {

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

// What one manager gains and loses in an apply: paths, a gained one with
// whom it comes from (".spec.replicas  (taken from hpa)").
struct OwnershipChange {
  std::string key;
  std::vector<std::string> gained;
  std::vector<std::string> lost;
};

// The managers whose fields an apply by `applier` changes: the applier
// first, then the others in managedFields order.
std::vector<OwnershipChange> OwnershipChanges(
    const std::string& applier, const ManagedState& before,
    const ManagedState& after,
    const std::map<std::string, std::string>& labels) {
  const ManagedFields& was = before.fields;
  const ManagedFields& now = after.fields;
  std::vector<std::string> keys = {applier};
  for (const ManagedState* m : {&after, &before}) {
    for (const std::string& k : CanonicalOrder(*m)) {
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
    }
  }
  std::vector<OwnershipChange> changes;
  static const Set kEmpty;
  for (const std::string& key : keys) {
    const Set& a = was.count(key) != 0 ? was.at(key).set() : kEmpty;
    const Set& b = now.count(key) != 0 ? now.at(key).set() : kEmpty;
    Set gained = b.Difference(a), lost = a.Difference(b);
    if (gained.Empty() && lost.Empty()) continue;
    OwnershipChange c{key, {}, {}};
    gained.Iterate([&](const Path& p) {
      std::vector<std::string> from, with;
      for (const auto& [other, vs] : was) {
        if (other == key || !vs.set().Has(p)) continue;
        bool keeps = now.count(other) != 0 && now.at(other).set().Has(p);
        (keeps ? with : from).push_back(labels.at(other));
      }
      std::string line = PathString(p);
      if (!from.empty())
        absl::StrAppend(&line, "  (taken from ", absl::StrJoin(from, ", "),
                        ")");
      if (!with.empty())
        absl::StrAppend(&line, "  (shared with ", absl::StrJoin(with, ", "),
                        ")");
      c.gained.push_back(std::move(line));
    });
    lost.Iterate([&](const Path& p) { c.lost.push_back(PathString(p)); });
    changes.push_back(std::move(c));
  }
  return changes;
}

std::string ApplierKey(const Flags& f, const std::string& manager) {
  return EncodeManagerIdentity(
      ManagerIdentity{manager.empty() ? "unknown" : manager,
                      f.Bool("client-side") ? "Update" : "Apply", "",
                      f.Get("subresource")});
}

// The diff of one object; `what` names it when there are several. Returns
// 0 (no change), 1 (changes) or 2 (conflicts or an error).
int DiffOne(const Flags& f, const std::string& manager, const Request& q,
            const std::string& what, bool color, std::ostream& out,
            std::ostream& err) {
  FieldManagerResult r = ApplyRequest(f, q, manager);
  if (r.kind == ErrorKind::kConflict && !r.conflicts.empty()) {
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
  if (r.deleted) {
    // Nothing stays to own anything.
    out << kDeletedNote << "\n"
        << UnifiedDiff(old_text, "", dopts);
    return 1;
  }
  std::string text =
      UnifiedDiff(old_text, ToYaml(StripManagedFields(r.object)), dopts);
  out << text;

  std::map<std::string, std::string> labels =
      ManagerLabels(before->fields, r.managed.fields);
  std::string own;
  for (const OwnershipChange& c :
       OwnershipChanges(ApplierKey(f, manager), *before, r.managed, labels)) {
    if (!c.gained.empty()) {
      absl::StrAppend(&own, "  ", labels.at(c.key), " gains ",
                      Plural(c.gained.size(), "field"), ":\n");
      for (const std::string& p : c.gained)
        absl::StrAppend(&own, "    ", p, "\n");
    }
    if (!c.lost.empty()) {
      absl::StrAppend(&own, "  ", labels.at(c.key), " loses ",
                      Plural(c.lost.size(), "field"), ":\n");
      for (const std::string& p : c.lost)
        absl::StrAppend(&own, "    ", p, "\n");
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

// The legend row of the entry `key` of `state`.
HtmlManager LegendRow(const std::string& key, const ManagedState& state,
                      const std::map<std::string, std::string>& labels) {
  const VersionedSet& vs = state.fields.at(key);
  absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
  HtmlManager m;
  m.label = labels.at(key);
  m.manager = id.ok() ? id->manager : key;
  m.operation = vs.applied() ? "Apply" : "Update";
  m.api_version = vs.api_version();
  if (id.ok()) m.subresource = id->subresource;
  if (auto t = state.times.find(key); t != state.times.end())
    m.time = FormatManagedTime(t->second);
  m.fields = vs.set().Size();
  return m;
}

// The legend's index of each of `keys` owning `line` (its item's owners
// too), in the legend's order.
std::vector<int> OwnerIndices(const BlameLine& line,
                              const std::map<std::string, int>& index) {
  std::vector<int> owners;
  for (const std::vector<std::string>* keys :
       {&line.item_owners, &line.owners}) {
    for (const std::string& k : *keys) {
      auto it = index.find(k);
      if (it != index.end()) owners.push_back(it->second);
    }
  }
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  return owners;
}

// The object after an apply (`now`) with what the apply removes in place,
// from the lines before (`was`). Lines are the same when their field and
// text are; a deleted and an added line of one field make a changed line.
std::vector<HtmlLine> MarkedLines(const std::vector<BlameLine>& was,
                                  const std::vector<BlameLine>& now,
                                  const std::map<std::string, int>& index) {
  std::vector<std::string> was_keys, now_keys;
  for (const BlameLine& l : was) was_keys.push_back(l.path + "\n" + l.text);
  for (const BlameLine& l : now) now_keys.push_back(l.path + "\n" + l.text);
  std::vector<LineEdit> edits = DiffLines(
      std::vector<absl::string_view>(was_keys.begin(), was_keys.end()),
      std::vector<absl::string_view>(now_keys.begin(), now_keys.end()));
  auto line = [&](const BlameLine& l, HtmlMark mark) {
    HtmlLine h;
    h.text = l.text;
    h.path = l.path;
    h.owners = OwnerIndices(l, index);
    h.mark = mark;
    return h;
  };
  auto after = [&](const BlameLine* old, const BlameLine& l, HtmlMark mark) {
    HtmlLine h = line(l, mark);
    if (old != nullptr) {
      std::vector<int> old_owners = OwnerIndices(*old, index);
      h.owners_changed = old_owners != h.owners;
      if (h.owners_changed) h.old_owners = std::move(old_owners);
      if (mark == HtmlMark::kChanged) h.old_text = old->text;
    }
    return h;
  };
  std::vector<HtmlLine> out;
  for (size_t i = 0; i < edits.size();) {
    if (edits[i].op == LineOp::kKeep) {
      out.push_back(after(&was[edits[i].old_line], now[edits[i].new_line],
                          HtmlMark::kNone));
      ++i;
      continue;
    }
    size_t end = i;
    while (end < edits.size() && edits[end].op != LineOp::kKeep) ++end;
    std::map<std::string, int> deleted;  // path -> its first deleted line
    for (size_t j = i; j < end; ++j) {
      if (edits[j].op == LineOp::kDel && !was[edits[j].old_line].path.empty())
        deleted.emplace(was[edits[j].old_line].path, edits[j].old_line);
    }
    std::map<int, int> changed;  // deleted line -> added line
    std::map<int, int> changed_from;
    for (size_t j = i; j < end; ++j) {
      if (edits[j].op != LineOp::kAdd) continue;
      auto d = deleted.find(now[edits[j].new_line].path);
      if (d == deleted.end() || changed.count(d->second) != 0) continue;
      changed[d->second] = edits[j].new_line;
      changed_from[edits[j].new_line] = d->second;
    }
    for (size_t j = i; j < end; ++j) {
      const LineEdit& e = edits[j];
      if (e.op == LineOp::kDel) {
        if (changed.count(e.old_line) == 0)
          out.push_back(line(was[e.old_line], HtmlMark::kRemoved));
      } else if (auto c = changed_from.find(e.new_line);
                 c != changed_from.end()) {
        out.push_back(
            after(&was[c->second], now[e.new_line], HtmlMark::kChanged));
      } else {
        out.push_back(after(nullptr, now[e.new_line], HtmlMark::kAdded));
      }
    }
    i = end;
  }
  return out;
}

// One object's section of `smdx diff --html`. Returns the exit status as
// DiffOne does. When the apply conflicts, the section shows what the
// configuration asks for (the forced apply's object) over the current
// owners, and marks the conflicts.
int DiffSection(const Flags& f, const std::string& manager, const Request& q,
                const std::string& what, HtmlSection* s, std::ostream& err) {
  FieldManagerResult r = ApplyRequest(f, q, manager);
  const bool conflicts =
      r.kind == ErrorKind::kConflict && !r.conflicts.empty();
  FieldManagerResult forced;
  if (conflicts) forced = ApplyRequest(f, q, manager, /*force=*/true);
  const FieldManagerResult& applied = conflicts ? forced : r;
  if (!applied.ok()) {
    ReportFailure(applied, what, err);
    return 2;
  }
  absl::StatusOr<ManagedState> before = DecodeManagedFields(q.live, f.limits);
  if (!before.ok()) {
    err << "error: " << what << ": " << before.status().message() << "\n";
    return 2;
  }
  const ManagedState& now = conflicts ? *before : applied.managed;
  std::map<std::string, std::string> labels =
      ManagerLabels(before->fields, now.fields);
  // The entries after the apply, then those it removes.
  std::vector<std::string> keys = CanonicalOrder(now);
  for (const std::string& k : CanonicalOrder(*before)) {
    if (now.fields.count(k) == 0) keys.push_back(k);
  }
  std::map<std::string, int> index;
  for (const std::string& key : keys) {
    index[key] = static_cast<int>(s->managers.size());
    bool kept = now.fields.count(key) != 0;
    HtmlManager m = LegendRow(key, kept ? now : *before, labels);
    if (!kept) m.fields = 0;
    if (auto b = before->fields.find(key); b != before->fields.end())
      m.fields_before = b->second.set().Size();
    s->managers.push_back(std::move(m));
  }

  s->title = what;
  s->subtitle =
      absl::StrCat(StringAt(q.live.IsMap() ? q.live : q.config, "apiVersion"),
                   " \xc2\xb7 ", q.live.IsMap() ? "applied" : "created", " by ",
                   manager.empty() ? "unknown" : manager,
                   f.Bool("force") ? " with --force-conflicts" : "",
                   applied.deleted ? absl::StrCat(" \xc2\xb7 ", kDeletedNote)
                                   : "");
  s->diff = true;
  std::vector<BlameLine> was;
  if (q.live.IsMap())
    was = BlameLines(*q.type, before->fields, StripManagedFields(q.live));
  s->lines = MarkedLines(
      was, BlameLines(*q.type, now.fields, StripManagedFields(applied.object)),
      index);
  if (conflicts) {
    std::map<std::string, std::vector<std::string>> owners;
    for (const Conflict& c : r.conflicts.list()) {
      s->conflicts.push_back(
          HtmlConflict{PathString(c.path), DisplayManager(c.manager)});
      auto l = labels.find(c.manager);
      owners[PathString(c.path)].push_back(
          l != labels.end() ? l->second : DisplayManager(c.manager));
    }
    for (HtmlLine& l : s->lines) {
      if (auto o = owners.find(l.path); o != owners.end())
        l.conflict = absl::StrJoin(o->second, ", ");
    }
    return 2;
  }
  for (const OwnershipChange& c :
       OwnershipChanges(ApplierKey(f, manager), *before, now, labels)) {
    s->ownership.push_back(
        HtmlOwnershipChange{labels.at(c.key), c.gained, c.lost});
  }
  bool changed =
      !s->ownership.empty() ||
      std::any_of(s->lines.begin(), s->lines.end(),
                  [](const HtmlLine& l) { return l.mark != HtmlMark::kNone; });
  return changed ? 1 : 0;
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
  if (absl::Status st = CheckClientSide(f, /*apply=*/true); !st.ok()) {
    Fail(err, st);
    return 2;
  }
  int status = 0;
  Batch b = ReadBatch(f, configs, live_arg, in, err, &status, 2);
  LiveObjects live(b.live.objects);
  const bool html = f.Bool("html");
  const bool color = UseColor(f, out);
  const bool several = b.configs.objects.size() > 1;
  bool first = true;
  HtmlPage page;
  page.title = "smdx diff";
  page.intro = absl::StrCat(
      "What an apply by ", manager.empty() ? "unknown" : manager,
      " would store, each line colored by the managedFields entries that "
      "would own its field (stripes: several). + added, ~ changed (the old "
      "value struck through), - removed, \xe2\x80\xa2 new owners, ! "
      "conflict. Click a manager to see only its fields.");
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
    if (html) {
      HtmlSection s;
      int st = DiffSection(f, manager, *req, what, &s, err);
      if (!s.lines.empty()) page.sections.push_back(std::move(s));
      status = std::max(status, st);
      continue;
    }
    std::stringstream one;
    int s = DiffOne(f, manager, *req, several ? what : "", color, one, err);
    if (!one.str().empty()) {
      progress.Clear();
      if (!first) out << "\n";
      out << one.str();
      first = false;
    }
    status = std::max(status, s);
  }
  if (html) out << RenderHtmlPage(page);
  return status;
}

namespace {

// An object's ownership: its managedFields and its lines.
struct Blame {
  ManagedState state;
  std::map<std::string, std::string> labels;
  std::vector<BlameLine> lines;
};

absl::StatusOr<Blame> BlameOf(const Type& type, const Value& live,
                              const Limits& limits) {
  absl::StatusOr<ManagedState> state = DecodeManagedFields(live, limits);
  if (!state.ok()) return state.status();
  Value body = StripManagedFields(live);
  if (absl::Status st = Validate(type, body, ValidateOptions{true}); !st.ok()) {
    return st;
  }
  Blame b;
  b.labels = ManagerLabels(state->fields, ManagedFields());
  b.lines = BlameLines(type, state->fields, body);
  b.state = *std::move(state);
  return b;
}

void PrintBlame(const Blame& b, std::ostream& out) {
  out << "managers:\n";
  if (b.state.fields.empty())
    out << "  (none: the object has no managedFields)\n";
  size_t width = 0;
  for (const auto& [key, label] : b.labels)
    width = std::max(width, label.size());
  for (const std::string& key : CanonicalOrder(b.state)) {
    const VersionedSet& vs = b.state.fields.at(key);
    std::string op = vs.applied() ? "Apply" : "Update";
    std::string time = "-";
    if (auto t = b.state.times.find(key); t != b.state.times.end())
      time = FormatManagedTime(t->second);
    const std::string& label = b.labels.at(key);
    out << "  " << label << std::string(width - label.size() + 2, ' ') << op
        << std::string(8 - op.size(), ' ') << vs.api_version() << "  " << time
        << "  " << Plural(vs.set().Size(), "field") << "\n";
  }
  out << "\n";
  std::vector<std::string> owners;
  size_t col = 0;
  for (const BlameLine& l : b.lines) {
    owners.push_back(OwnerColumn(l, b.labels));
    col = std::max(col, owners.back().size());
  }
  col = std::min<size_t>(col, 40);
  for (size_t i = 0; i < b.lines.size(); ++i) {
    std::string& o = owners[i];
    if (o.size() < col) o += std::string(col - o.size(), ' ');
    out << o << " | " << b.lines[i].text << "\n";
  }
}

HtmlSection BlameSection(const Blame& b, const InputObject& o) {
  HtmlSection s;
  s.title = Describe(o);
  s.subtitle = StringAt(o.value, "apiVersion");
  std::map<std::string, int> index;
  for (const std::string& key : CanonicalOrder(b.state)) {
    index[key] = static_cast<int>(s.managers.size());
    s.managers.push_back(LegendRow(key, b.state, b.labels));
  }
  for (const BlameLine& l : b.lines) {
    HtmlLine h;
    h.text = l.text;
    h.path = l.path;
    h.owners = OwnerIndices(l, index);
    s.lines.push_back(std::move(h));
  }
  return s;
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
  const bool html = f.Bool("html");
  const bool several = objects.objects.size() > 1;
  bool first = true;
  HtmlPage page;
  page.title = "smdx blame";
  page.intro =
      "Each line of the object is colored by the managedFields entries that "
      "own its field (stripes: several). Click a manager to see only its "
      "fields.";
  for (const InputObject& o : objects.objects) {
    std::string what = Describe(o);
    absl::StatusOr<Type> type = schemas->TypeOf(&o.value);
    absl::StatusOr<Blame> b =
        type.ok() ? BlameOf(*type, o.value, f.limits) : type.status();
    if (!b.ok()) {
      err << "error: " << what << ": " << b.status().message() << "\n";
      status = 1;
      continue;
    }
    if (html) {
      page.sections.push_back(BlameSection(*b, o));
      continue;
    }
    if (!first) out << "\n";
    first = false;
    if (several) out << "# " << what << "\n";
    PrintBlame(*b, out);
  }
  if (html) out << RenderHtmlPage(page);
  return status;
}

}  // namespace smdx::cli
