// smdx_bench: the benchmark workloads of bench/README.md, on smdx.
//
// Every workload has the same name and does the same work as its twin in
// bench/go/main.go (the Go reference), so that bench/compare can put them
// side by side. Set-up (reading files, parsing schemas and the inputs of an
// operation) happens outside the timed loop and only for the benchmarks that
// run, so a filtered run is quick.
//
// Allocations: this binary replaces the global operator new/delete with
// versions that count calls; each benchmark reports the mean number of
// operator new calls per iteration as the counter `allocs`. (Direct malloc
// calls, which smdx does not make, are not counted.)
//
// Other modes:
//   smdx_bench --rss=OBJECT    peak RSS of a full apply of OBJECT (pod, node,
//                              endpoints, k8s-deployment, apiresourceimport-cr)
//                              printed as one JSON line
//   smdx_bench --list-workloads   the workload names, one per line
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/alloc_counter.h"
#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/fieldpath/set.h"
#include "smdx/merge/updater.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/schema.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

namespace smdx {
namespace bench {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "smdx_bench: %s\n", what.c_str());
  std::exit(2);
}

template <typename T>
T Must(absl::StatusOr<T> s, const std::string& what) {
  if (!s.ok()) Die(absl::StrCat(what, ": ", s.status().ToString()));
  return *std::move(s);
}

void MustOk(const absl::Status& s, const std::string& what) {
  if (!s.ok()) Die(absl::StrCat(what, ": ", s.ToString()));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string DataDir() {
  if (const char* d = std::getenv("SMDX_BENCH_DATA")) return d;
  return std::string(SMDX_SHARED_DIR) + "/testdata/smd";
}

// The manager names and the apiVersion every workload uses. The converter is
// the identity (null), as in the Go side.
const char kVersion[] = "v1";
const char kManager[] = "kubectl";
const char kOtherManager[] = "controller";

// ---------------------------------------------------------------------------
// The real objects.

struct ObjectSpec {
  const char* name;         // workload prefix
  const char* file;         // in DataDir()
  const char* schema_file;  // in DataDir()
  const char* type_name;
  // The leaf changed by the "one change" workloads: map keys, and list
  // indexes written as numbers. Its string value gets "-changed" appended.
  std::vector<std::string> leaf;
};

const std::vector<ObjectSpec>& Objects() {
  static const auto* specs = new std::vector<ObjectSpec>{
      {"pod",
       "pod.yaml",
       "k8s-schema.yaml",
       "io.k8s.api.core.v1.Pod",
       {"spec", "containers", "0", "image"}},
      {"node",
       "node.yaml",
       "k8s-schema.yaml",
       "io.k8s.api.core.v1.Node",
       {"spec", "podCIDR"}},
      {"endpoints",
       "endpoints.yaml",
       "k8s-schema.yaml",
       "io.k8s.api.core.v1.Endpoints",
       {"metadata", "labels", "app"}},
      {"k8s-deployment",
       "k8s-deployment.yaml",
       "k8s-schema.yaml",
       "io.k8s.api.extensions.v1beta1.Deployment",
       {"spec", "template", "spec", "containers", "0", "image"}},
      {"apiresourceimport-cr",
       "apiresourceimport-cr.yaml",
       "apiresourceimport.yaml",
       "apiresourceimport",
       {"spec", "location"}},
  };
  return *specs;
}

const ObjectSpec& FindObject(const std::string& name) {
  for (const ObjectSpec& s : Objects()) {
    if (name == s.name) return s;
  }
  Die("unknown object " + name);
}

// The Kubernetes schema with every `kind` field outside meta/v1 marked
// immutable (markers all over, so the immutability check walks whole
// objects), or with a
// default on every `restartPolicy` and `dnsPolicy` (so defaulting walks them).
std::string SchemaVariant(const std::string& text, const std::string& variant) {
  std::string out;
  std::istringstream in(text);
  std::string line, prev, type_name;
  while (std::getline(in, line)) {
    out += line;
    out += "\n";
    if (line.rfind("- name: ", 0) == 0) type_name = line.substr(8);
    // Markers are not allowed inside .metadata, which holds meta/v1 types.
    bool in_meta = type_name.find(".meta.v1.") != std::string::npos;
    if (variant == "immutable" && !in_meta &&
        prev.find("- name: kind") != std::string::npos &&
        line.find("type:") != std::string::npos) {
      out += std::string(line.find("type:") + 2, ' ') + "immutable: true\n";
    }
    if (variant == "defaults" &&
        (line.find("- name: restartPolicy") != std::string::npos ||
         line.find("- name: dnsPolicy") != std::string::npos)) {
      out += std::string(line.find('-') + 2, ' ') + "default: Always\n";
    }
    prev = line;
  }
  return out;
}

std::shared_ptr<const Schema> LoadSchemaVariant(const std::string& file,
                                                const std::string& variant) {
  static auto* cache = new std::map<std::string, std::shared_ptr<const Schema>>;
  std::string key = file + "#" + variant;
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  auto s = Must(Schema::ParseSmd(
                    SchemaVariant(ReadFile(DataDir() + "/" + file), variant)),
                "parsing schema variant " + key);
  (*cache)[key] = s;
  return s;
}

std::shared_ptr<const Schema> LoadSchema(const std::string& file) {
  static auto* cache = new std::map<std::string, std::shared_ptr<const Schema>>;
  auto it = cache->find(file);
  if (it != cache->end()) return it->second;
  auto s = Must(Schema::ParseSmd(ReadFile(DataDir() + "/" + file)),
                "parsing schema " + file);
  (*cache)[file] = s;
  return s;
}

Value ChangeLeaf(Value v, const std::vector<std::string>& leaf) {
  Value* cur = &v;
  for (const std::string& step : leaf) {
    if (cur->IsList()) {
      size_t i = std::stoul(step);
      if (i >= cur->list().size()) Die("leaf path: index out of range");
      cur = &cur->list()[i];
    } else if (cur->IsMap()) {
      cur = cur->map().Find(step);
      if (cur == nullptr) Die("leaf path: no field " + step);
    } else {
      Die("leaf path goes through a scalar");
    }
  }
  if (!cur->IsString()) Die("leaf is not a string");
  *cur = Value(cur->AsString() + "-changed");
  return v;
}

UpdaterOptions BenchUpdaterOptions() {
  UpdaterOptions o;
  // The objects handed to the updater here were validated when they were
  // parsed (as Go's TypedValues are when they are typed; the `parse`
  // workloads include that validation on both sides).
  o.validate_live = false;
  o.validate_input = false;
  return o;
}

struct ObjectFixture {
  const ObjectSpec* spec;
  std::string yaml;
  Type type;
  Value obj;
  Value changed;  // obj with the leaf changed
  Set set;
  std::string fields_v1;
  std::unique_ptr<Updater> updater;
  OpResult applied;  // obj applied onto nothing by kManager
  std::unique_ptr<Updater> deduced_updater;
  // Updaters over schemas with immutability markers / defaults (only for
  // objects typed by the Kubernetes schema).
  std::unique_ptr<Updater> immutable_updater;
  std::unique_ptr<Updater> defaulting_updater;
  // The baselines of the defaulting rows: the schema with defaults, with
  // apply_defaults off; and the plain schema with apply_defaults on.
  std::unique_ptr<Updater> defaults_off_updater;
  std::unique_ptr<Updater> plain_defaulting_updater;
  // `obj` applied onto nothing by each of those updaters. The variant rows
  // start from these, not from `applied`: managed fields made under the
  // plain schema carry its reconcile mark, so starting from them would add
  // a schema-reconcile walk to every op and bill it to the markers.
  OpResult immutable_applied;
  OpResult defaulting_applied;
  // The apiserver's layer (objects typed by the Kubernetes schema): `obj`
  // applied onto nothing by kManager, managedFields inside.
  std::optional<FieldManager> field_manager;
  Value fm_live;
  // The same through the embedded Kubernetes v1.37 schema, with the
  // apiserver's handling of built-in kinds (Go types, defaulters) and
  // without: index 1 with builtin_defaults, 0 without. Each has its own
  // live object (the first apply's result).
  std::optional<FieldManager> v137_fm[2];
  Value v137_live[2];
  Value null_live;

  explicit ObjectFixture(const ObjectSpec& s)
      : spec(&s),
        yaml(ReadFile(DataDir() + "/" + s.file)),
        type(
            Must(Type::Named(LoadSchema(s.schema_file), s.type_name), "type")) {
    obj = Must(ParseYaml(yaml), absl::StrCat("parsing ", s.file));
    MustOk(Validate(type, obj), absl::StrCat("validating ", s.file));
    // The live objects and the changed configuration come from parses of
    // their own, as in a server (stored object, request body): values share
    // nodes only with copies of themselves, and the merge, compare and
    // defaulting shortcuts for shared nodes must not fire between inputs
    // that would never share them.
    changed = ChangeLeaf(Must(ParseYaml(yaml), "parsing"), s.leaf);
    const Value live_source = Must(ParseYaml(yaml), "parsing");
    set = ToFieldSet(type, obj);
    fields_v1 = SerializeFieldsV1(set);
    updater = std::make_unique<Updater>(type, BenchUpdaterOptions());
    deduced_updater =
        std::make_unique<Updater>(Type::Deduced(), BenchUpdaterOptions());
    if (std::string(s.schema_file) == "k8s-schema.yaml") {
      immutable_updater = std::make_unique<Updater>(
          Must(Type::Named(LoadSchemaVariant(s.schema_file, "immutable"),
                           s.type_name),
               "type"),
          BenchUpdaterOptions());
      UpdaterOptions d = BenchUpdaterOptions();
      d.apply_defaults = true;
      const Type defaults_type =
          Must(Type::Named(LoadSchemaVariant(s.schema_file, "defaults"),
                           s.type_name),
               "type");
      defaulting_updater = std::make_unique<Updater>(defaults_type, d);
      defaults_off_updater =
          std::make_unique<Updater>(defaults_type, BenchUpdaterOptions());
      plain_defaulting_updater = std::make_unique<Updater>(type, d);
      immutable_applied = immutable_updater->Apply(
          null_live, live_source, kVersion, {}, kManager, false);
      defaulting_applied = defaulting_updater->Apply(
          null_live, live_source, kVersion, {}, kManager, false);
      if (!immutable_applied.ok() || !defaulting_applied.ok())
        Die(absl::StrCat(s.name, ": apply under a schema variant failed"));
      FieldManagerOptions fo;
      fo.api_version = obj.map().Find("apiVersion")->AsString();
      fo.kind = obj.map().Find("kind")->AsString();
      fo.validate_live = false;
      field_manager.emplace(
          Must(FieldManager::Create(type, fo), "field manager"));
      FieldManagerResult first = field_manager->Apply(
          null_live, live_source, kManager, /*force=*/false);
      if (!first.ok())
        Die(absl::StrCat(s.name,
                         ": field manager apply: ", first.status.ToString()));
      fm_live = first.object;
      absl::StatusOr<std::shared_ptr<const Schema>> k8s = KubernetesSchema();
      const std::string k8s_type = Must(
          KubernetesTypeName(*Must(std::move(k8s), "schema"), fo.api_version,
                             fo.kind),
          "type name");
      for (int builtin = 0; builtin < 2; ++builtin) {
        FieldManagerOptions vo = fo;
        vo.builtin_defaults = builtin == 1;
        v137_fm[builtin].emplace(Must(
            FieldManager::Create(
                Must(Type::Named(*KubernetesSchema(), k8s_type), "type"), vo),
            "field manager"));
        // (An apply that creates names no uid: the apiserver refuses one.)
        Value created = Must(ParseYaml(yaml), "parsing");
        if (Value* m = created.map().Find("metadata"); m && m->IsMap())
          m->map().Erase("uid");
        FieldManagerResult r =
            v137_fm[builtin]->Apply(null_live, created, kManager, false);
        if (!r.ok())
          Die(absl::StrCat(s.name, ": v1.37 apply: ", r.status.ToString()));
        v137_live[builtin] = Must(ParseYaml(ToJson(r.object)), "parsing");
      }
    }
    applied =
        updater->Apply(null_live, live_source, kVersion, {}, kManager, false);
    if (!applied.ok())
      Die(absl::StrCat(s.name, ": apply: ", applied.status.ToString()));
    // Check once that the workloads do what they say.
    OpResult noop = updater->Apply(applied.object, obj, kVersion,
                                   applied.managers, kManager, false);
    if (!noop.ok() || noop.changed)
      Die(absl::StrCat(s.name, ": re-apply is not a no-op"));
    OpResult conflict = updater->Apply(applied.object, changed, kVersion,
                                       applied.managers, kOtherManager, false);
    if (conflict.kind != ErrorKind::kConflict)
      Die(absl::StrCat(s.name,
                       ": the second manager's apply does not conflict"));
    OpResult change = updater->Apply(applied.object, changed, kVersion,
                                     applied.managers, kManager, false);
    if (!change.ok() || !change.changed)
      Die(absl::StrCat(s.name,
                       ": the re-apply with one change fails or "
                       "changes nothing: ",
                       change.status.ToString()));
  }
};

const ObjectFixture& GetObject(const std::string& name) {
  static auto* cache =
      new std::map<std::string, std::unique_ptr<ObjectFixture>>;
  auto& f = (*cache)[name];
  if (!f) f = std::make_unique<ObjectFixture>(FindObject(name));
  return *f;
}

// ---------------------------------------------------------------------------
// The scaling cases: an associative list (keyed by `name`) of N items.
// Keep this schema identical to scaleSchema in bench/go/main.go.

constexpr char kScaleSchema[] = R"(types:
- name: scaleRoot
  map:
    fields:
    - name: apiVersion
      type:
        scalar: string
    - name: kind
      type:
        scalar: string
    - name: items
      type:
        list:
          elementType:
            namedType: scaleItem
          elementRelationship: associative
          keys:
          - name
- name: scaleItem
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
    - name: data
      type:
        scalar: string
)";

// {apiVersion: v1, kind: Scale, items: [{name: item-000000, value: 0,
// data: payload-0}, ...]}; item N/2 gets `value` -1 when `changed_value` and
// data "payload-changed" when `changed_data`.
Value ScaleObject(int n, bool changed_value, bool changed_data) {
  Value root = Value::MakeMap();
  root.map().Append("apiVersion", Value("v1"));
  root.map().Append("kind", Value("Scale"));
  List items;
  items.reserve(n);
  for (int i = 0; i < n; ++i) {
    Value item = Value::MakeMap();
    item.map().Append("name", Value(absl::StrFormat("item-%06d", i)));
    bool mid = i == n / 2;
    item.map().Append("value", Value(int64_t{mid && changed_value ? -1 : i}));
    item.map().Append("data",
                      Value(mid && changed_data ? std::string("payload-changed")
                                                : absl::StrCat("payload-", i)));
    items.push_back(std::move(item));
  }
  root.map().Append("items", Value(std::move(items)));
  return root;
}

struct ScaleFixture {
  Type type;
  Value obj;
  Value changed_value;
  Value changed_data;
  std::unique_ptr<Updater> updater;
  OpResult applied;
  Value null_live;

  explicit ScaleFixture(int n)
      : type(Must(Type::Named(Must(Schema::ParseSmd(kScaleSchema), "schema"),
                              "scaleRoot"),
                  "type")) {
    obj = ScaleObject(n, false, false);
    changed_value = ScaleObject(n, true, false);
    changed_data = ScaleObject(n, false, true);
    MustOk(Validate(type, obj), "validating the scale object");
    updater = std::make_unique<Updater>(type, BenchUpdaterOptions());
    applied = updater->Apply(null_live, obj, kVersion, {}, kManager, false);
    if (!applied.ok()) Die("scale apply: " + applied.status.ToString());
    OpResult re = updater->Apply(applied.object, changed_value, kVersion,
                                 applied.managers, kManager, false);
    if (!re.ok() || !re.changed) Die("scale re-apply: " + re.status.ToString());
    OpResult up = updater->Update(applied.object, changed_data, kVersion,
                                  applied.managers, kOtherManager);
    if (!up.ok() || !up.changed) Die("scale update: " + up.status.ToString());
  }
};

const ScaleFixture& GetScale(int n) {
  static auto* cache = new std::map<int, std::unique_ptr<ScaleFixture>>;
  auto& f = (*cache)[n];
  if (!f) f = std::make_unique<ScaleFixture>(n);
  return *f;
}

const std::vector<int>& ScaleSizes() {
  static const auto* sizes = new std::vector<int>{100, 1000, 10000, 100000};
  return *sizes;
}

// ---------------------------------------------------------------------------
// Running a workload: times `op` and reports allocations per iteration.

// Not inlined: bench/compare counts the instructions inside it.
template <typename Op>
__attribute__((noinline)) void Run(benchmark::State& state, Op&& op) {
  uint64_t a0 = AllocCount();
  for (auto _ : state) {
    op();
  }
  uint64_t a1 = AllocCount();
  state.counters["allocs"] = benchmark::Counter(
      static_cast<double>(a1 - a0), benchmark::Counter::kAvgIterations);
}

void CheckOp(benchmark::State& state, const OpResult& r, ErrorKind want) {
  if (r.kind != want) {
    state.SkipWithError(
        absl::StrCat("unexpected result: ", ErrorKindName(r.kind), " ",
                     r.status.ToString())
            .c_str());
  }
}

// pod.yaml applied by kManager through the built-in schema's field manager
// for v1 Pod, and the same pod with its first image changed.
struct BindingFixture {
  std::optional<FieldManager> fm;
  Value live;
  Value changed;
};

const BindingFixture& GetBinding() {
  static const BindingFixture* f = [] {
    auto* b = new BindingFixture;
    ResourceOptions r;
    r.api_version = "v1";
    r.kind = "Pod";
    b->fm.emplace(Must(Catalog::Builtin().NewFieldManager(r), "field manager"));
    const std::string yaml = ReadFile(DataDir() + "/pod.yaml");
    FieldManagerResult first = b->fm->Apply(
        Value(), Must(ParseYaml(yaml), "parsing"), kManager, false);
    if (!first.ok()) Die("binding: the first apply failed");
    b->live = first.object;
    b->changed = ChangeLeaf(Must(ParseYaml(yaml), "parsing"),
                            {"spec", "containers", "0", "image"});
    return b;
  }();
  return *f;
}

// threads/pod_reapply_one_change: the binding row's re-apply from one and
// from two threads through the same FieldManager, each thread on its own
// objects (it parses and applies them itself, so no value is shared between
// threads). items_per_second over the wall-clock time is the applies of all
// threads; bench/compare reports two threads' rate against one's.
void ThreadsReapply(benchmark::State& state) {
  const BindingFixture& b = GetBinding();
  const std::string yaml = ReadFile(DataDir() + "/pod.yaml");
  FieldManagerResult first =
      b.fm->Apply(Value(), Must(ParseYaml(yaml), "parsing"), kManager, false);
  if (!first.ok()) {
    state.SkipWithError("the first apply failed");
    return;
  }
  const Value live = first.object;
  const Value changed = ChangeLeaf(Must(ParseYaml(yaml), "parsing"),
                                   {"spec", "containers", "0", "image"});
  for (auto _ : state) {
    FieldManagerResult r = b.fm->Apply(live, changed, kManager, false);
    if (!r.ok()) state.SkipWithError("apply failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

using Workload = std::function<void(benchmark::State&)>;

// name -> body, in registration order.
std::vector<std::pair<std::string, Workload>> Workloads() {
  std::vector<std::pair<std::string, Workload>> w;
  for (const ObjectSpec& spec : Objects()) {
    const std::string o = spec.name;
    auto add = [&](const std::string& op, Workload fn) {
      w.emplace_back(o + "/" + op, std::move(fn));
    };
    // YAML text to a validated value of the type (Go: FromYAML).
    add("parse", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        absl::StatusOr<Value> v = ParseYaml(f.yaml);
        absl::Status s = v.ok() ? Validate(f.type, *v) : v.status();
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(v);
      });
    });
    add("validate", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        absl::Status s = Validate(f.type, f.obj);
        benchmark::DoNotOptimize(s);
      });
    });
    add("to_field_set", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        Set s = ToFieldSet(f.type, f.obj);
        benchmark::DoNotOptimize(s);
      });
    });
    add("fieldsv1_serialize", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        std::string s = SerializeFieldsV1(f.set);
        benchmark::DoNotOptimize(s);
      });
    });
    add("fieldsv1_deserialize", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        absl::StatusOr<Set> s = ParseFieldsV1(f.fields_v1);
        benchmark::DoNotOptimize(s);
      });
    });
    add("compare_one_leaf", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        Comparison c = CompareFields(f.type, &f.obj, &f.changed);
        benchmark::DoNotOptimize(c);
      });
    });
    add("apply_empty", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      const ManagedFields none;
      Run(st, [&] {
        OpResult r = f.updater->Apply(f.null_live, f.obj, kVersion, none,
                                      kManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
    add("reapply_noop", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        OpResult r = f.updater->Apply(f.applied.object, f.obj, kVersion,
                                      f.applied.managers, kManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
    add("reapply_one_change", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        OpResult r = f.updater->Apply(f.applied.object, f.changed, kVersion,
                                      f.applied.managers, kManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
    // Overheads: the same re-apply under a schema with immutability markers
    // and under one with defaults (smdx only; compare with reapply_one_change).
    if (std::string(spec.schema_file) == "k8s-schema.yaml") {
      add("reapply_one_change_immutable", [o](benchmark::State& st) {
        const ObjectFixture& f = GetObject(o);
        Run(st, [&] {
          OpResult r = f.immutable_updater->Apply(
              f.immutable_applied.object, f.changed, kVersion,
              f.immutable_applied.managers, kManager, false);
          if (!r.ok()) st.SkipWithError("apply failed");
          benchmark::DoNotOptimize(r);
        });
      });
      add("reapply_one_change_defaults", [o](benchmark::State& st) {
        const ObjectFixture& f = GetObject(o);
        Run(st, [&] {
          OpResult r = f.defaulting_updater->Apply(
              f.defaulting_applied.object, f.changed, kVersion,
              f.defaulting_applied.managers, kManager, false);
          if (!r.ok()) st.SkipWithError("apply failed");
          benchmark::DoNotOptimize(r);
        });
      });
      // Its baseline: the same op from the same state, defaulting off.
      add("reapply_one_change_defaults_off", [o](benchmark::State& st) {
        const ObjectFixture& f = GetObject(o);
        Run(st, [&] {
          OpResult r = f.defaults_off_updater->Apply(
              f.defaulting_applied.object, f.changed, kVersion,
              f.defaulting_applied.managers, kManager, false);
          if (!r.ok()) st.SkipWithError("apply failed");
          benchmark::DoNotOptimize(r);
        });
      });
      // Defaulting on, under the schema without defaults (compare with
      // reapply_one_change: it should cost nothing).
      add("reapply_one_change_no_defaults_defaulting_on",
          [o](benchmark::State& st) {
            const ObjectFixture& f = GetObject(o);
            Run(st, [&] {
              OpResult r = f.plain_defaulting_updater->Apply(
                  f.applied.object, f.changed, kVersion, f.applied.managers,
                  kManager, false);
              if (!r.ok()) st.SkipWithError("apply failed");
              benchmark::DoNotOptimize(r);
            });
          });
    }
    // The same re-apply through the apiserver's field-manager layer (smdx
    // only): managedFields decoded from the live object and encoded into the
    // result, and the applied configuration validated (as the apiserver
    // types it; the other rows skip that); compare with reapply_one_change.
    // The live object is not validated again, as in the other rows.
    if (std::string(spec.schema_file) == "k8s-schema.yaml") {
      add("fieldmanager_reapply_one_change", [o](benchmark::State& st) {
        const ObjectFixture& f = GetObject(o);
        Run(st, [&] {
          FieldManagerResult r =
              f.field_manager->Apply(f.fm_live, f.changed, kManager, false);
          if (!r.ok()) st.SkipWithError("apply failed");
          benchmark::DoNotOptimize(r);
        });
      });
    }
    // The same through the embedded v1.37 schema: without the apiserver's
    // handling of built-in kinds, and with it (the object through its Go
    // types, Kubernetes' defaulters on the result; smdx only). The second
    // row's cost over the first is what defaulting costs.
    if (std::string(spec.schema_file) == "k8s-schema.yaml") {
      for (int builtin = 0; builtin < 2; ++builtin) {
        add(builtin == 1 ? "fieldmanager_v137_reapply_one_change_builtin_defaults"
                         : "fieldmanager_v137_reapply_one_change",
            [o, builtin](benchmark::State& st) {
              const ObjectFixture& f = GetObject(o);
              Run(st, [&] {
                FieldManagerResult r = f.v137_fm[builtin]->Apply(
                    f.v137_live[builtin], f.changed, kManager, false);
                if (!r.ok()) st.SkipWithError("apply failed");
                benchmark::DoNotOptimize(r);
              });
            });
      }
    }
    add("update_second_manager", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        OpResult r = f.updater->Update(f.applied.object, f.changed, kVersion,
                                       f.applied.managers, kOtherManager);
        benchmark::DoNotOptimize(r);
      });
    });
    add("apply_conflict", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      Run(st, [&] {
        OpResult r = f.updater->Apply(f.applied.object, f.changed, kVersion,
                                      f.applied.managers, kOtherManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
    add("deduced_apply", [o](benchmark::State& st) {
      const ObjectFixture& f = GetObject(o);
      const ManagedFields none;
      OpResult first = f.deduced_updater->Apply(f.null_live, f.obj, kVersion,
                                                none, kManager, false);
      CheckOp(st, first, ErrorKind::kNone);
      Run(st, [&] {
        OpResult r = f.deduced_updater->Apply(f.null_live, f.obj, kVersion,
                                              none, kManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
  }
  for (int n : ScaleSizes()) {
    const std::string suffix = "/" + std::to_string(n);
    w.emplace_back("scale/apply" + suffix, [n](benchmark::State& st) {
      const ScaleFixture& f = GetScale(n);
      const ManagedFields none;
      Run(st, [&] {
        OpResult r = f.updater->Apply(f.null_live, f.obj, kVersion, none,
                                      kManager, false);
        benchmark::DoNotOptimize(r);
      });
    });
    w.emplace_back(
        "scale/reapply_one_change" + suffix, [n](benchmark::State& st) {
          const ScaleFixture& f = GetScale(n);
          Run(st, [&] {
            OpResult r =
                f.updater->Apply(f.applied.object, f.changed_value, kVersion,
                                 f.applied.managers, kManager, false);
            benchmark::DoNotOptimize(r);
          });
        });
    w.emplace_back("scale/update" + suffix, [n](benchmark::State& st) {
      const ScaleFixture& f = GetScale(n);
      Run(st, [&] {
        OpResult r =
            f.updater->Update(f.applied.object, f.changed_data, kVersion,
                              f.applied.managers, kOtherManager);
        benchmark::DoNotOptimize(r);
      });
    });
  }
  // One pod re-apply with one change through the embedding API, the call
  // the bindings make (bench/compare times the same call from Python,
  // bench/python_bench.py): the built-in schema's field manager for v1 Pod
  // with defaults and reset fields on and the live object validated, as
  // smdx.FieldManager("v1", "Pod") runs it. smdx only.
  w.emplace_back("binding/pod_reapply_one_change", [](benchmark::State& st) {
    const BindingFixture& f = GetBinding();
    Run(st, [&] {
      FieldManagerResult r = f.fm->Apply(f.live, f.changed, kManager, false);
      if (!r.ok() || !r.changed) st.SkipWithError("apply failed");
      benchmark::DoNotOptimize(r);
    });
  });
  return w;
}

// ---------------------------------------------------------------------------
// --rss=OBJECT: peak resident memory of a full apply (parse the object,
// validate it, apply it onto nothing) in a fresh process.

long StatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') {
      return std::strtol(line.c_str() + n + 1, nullptr, 10);
    }
  }
  return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not allowed.
bool ResetPeakRss() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f == nullptr) return false;
  bool ok = std::fputs("5", f) >= 0;
  ok = std::fclose(f) == 0 && ok;
  return ok;
}

int RunRss(const std::string& name) {
  const ObjectSpec& spec = FindObject(name);
  std::string yaml = ReadFile(DataDir() + "/" + spec.file);
  Type type =
      Must(Type::Named(LoadSchema(spec.schema_file), spec.type_name), "type");
  Updater updater(type, BenchUpdaterOptions());
  long setup_peak = StatusKb("VmHWM");
  bool reset = ResetPeakRss();
  long before = StatusKb("VmRSS");
  {
    Value obj = Must(ParseYaml(yaml), "parse");
    MustOk(Validate(type, obj), "validate");
    OpResult r = updater.Apply(Value(), obj, kVersion, {}, kManager, false);
    if (!r.ok()) Die("apply: " + r.status.ToString());
    std::string fields = SerializeFieldsV1(r.managers.at(kManager).set());
    benchmark::DoNotOptimize(fields);
    benchmark::DoNotOptimize(r);
  }
  long peak = StatusKb("VmHWM");
  long total_peak = peak > setup_peak ? peak : setup_peak;
  std::printf(
      "{\"side\":\"smdx\",\"object\":\"%s\",\"peak_rss_kb\":%ld,"
      "\"rss_before_apply_kb\":%ld,\"apply_peak_rss_kb\":%ld}\n",
      name.c_str(), total_peak, before, reset ? peak : -1);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace smdx

int main(int argc, char** argv) {
  using namespace smdx::bench;
  // --iterations=N runs every workload exactly N times (for counting
  // instructions under callgrind, as bench/overheads does).
  int64_t iterations = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--rss=", 6) == 0) return RunRss(argv[i] + 6);
    if (std::strcmp(argv[i], "--list-workloads") == 0) {
      for (const auto& w : Workloads()) std::printf("%s\n", w.first.c_str());
      return 0;
    }
    if (std::strncmp(argv[i], "--iterations=", 13) == 0) {
      iterations = std::atoll(argv[i] + 13);
      if (iterations <= 0) Die("--iterations wants a positive count");
      // Hidden from benchmark::Initialize, which rejects unknown flags.
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      --i;
    }
  }
  for (auto& w : Workloads()) {
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark(w.first.c_str(), w.second)
            ->Unit(benchmark::kNanosecond);
    if (iterations > 0) b->Iterations(iterations);
  }
  {
    benchmark::internal::Benchmark* b =
        benchmark::RegisterBenchmark("threads/pod_reapply_one_change",
                                     ThreadsReapply)
            ->Threads(1)
            ->Threads(2)
            ->UseRealTime()
            ->Unit(benchmark::kNanosecond);
    if (iterations > 0) b->Iterations(iterations);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
