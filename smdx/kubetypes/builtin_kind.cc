#include "smdx/kubetypes/builtin_kind.h"

#include <cmath>
#include <deque>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "smdx/kubetypes/internal/crd.h"
#include "smdx/kubetypes/internal/defaulters.h"
#include "smdx/kubetypes/internal/go_types.h"
#include "smdx/kubetypes/internal/hpa.h"
#include "smdx/kubetypes/internal/quantity.h"
#include "smdx/kubetypes/internal/times.h"
#include "smdx/kubetypes/internal/registry.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace {

// Marks the status of a body Decode refused (BodyRefusedError).
constexpr absl::string_view kBodyRefusedPayload = "smdx.dev/body-refused";

}  // namespace

namespace internal {

// What happens at the map nodes of one named type.
struct NodePlan {
  const GoStruct* go = nullptr;
  // The Go struct's name (DeploymentSpec), for errors.
  std::string go_name;
  // Per declared field of the schema's map (by index), its Go field.
  std::vector<const GoField*> by_field;
  // The Go fields whose zero value is encoded (not omitted): a value that
  // lacks them gets their zero value.
  std::vector<const GoField*> present;
  // Per declared field of the schema's map, what scalar it holds that its
  // Go type writes back in a form of its own.
  enum class Scalar : uint8_t {
    kOther,
    kQuantity,
    kResourceQuantity,  // a value of a resource list
    kTime,
    kMicroTime
  };
  std::vector<Scalar> scalar;
  // Per declared field of the schema's map, its Go field when that is a
  // map or slice whose elements the decoder changes (Decoder::Elements: a
  // null that decodes to something else, byte slices, integers), else
  // nullptr.
  std::vector<const GoField*> elements;
  std::vector<DefaultRuleFn> rules;
  // Field defaults: the field, its Go kind, the value.
  struct Field {
    std::string name;
    GoKind kind;
    Value value;
  };
  std::vector<Field> defaults;
  // Fields set to the server's clock when nil (ClockDefaults).
  std::vector<std::string> clock_fields;
  // Whether the schema declares every field of the Go struct.
  bool compatible = true;
};

struct KindPlan {
  absl::flat_hash_map<const Atom*, const NodePlan*> nodes;
  // The nodes only this plan has (those of shared atoms are kept for good,
  // see SharedNodes).
  std::vector<std::unique_ptr<NodePlan>> owned;
  // Maps whose values are quantities (resource lists).
  absl::flat_hash_set<const Atom*> resource_lists;
};

// The plans of the nodes of the embedded schema's shared types
// (SharesEmbeddedKubernetesTypes), which live as long as the process: made
// once and kept for every kind that reaches them. Immutable once in.
struct SharedNodes {
  std::mutex mu;
  absl::flat_hash_map<const Atom*, std::unique_ptr<const NodePlan>> nodes;
};
SharedNodes& Shared() {
  static SharedNodes* const shared = new SharedNodes();
  return *shared;
}

constexpr absl::string_view kQuantity =
    "io.k8s.apimachinery.pkg.api.resource.Quantity";
constexpr absl::string_view kTime = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
constexpr absl::string_view kMicroTime =
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";

namespace {

// The defaulters by type name, built once.
struct DefaulterIndex {
  absl::flat_hash_map<std::string, std::vector<DefaultRuleFn>> rules;
  absl::flat_hash_map<std::string, std::vector<std::pair<std::string, Value>>>
      fields;
};

const DefaulterIndex& Defaulters() {
  static const DefaulterIndex* const index = [] {
    auto* idx = new DefaulterIndex();
    for (const DefaultRule& r : DefaultRules())
      idx->rules[r.type].push_back(r.fn);
    for (const FieldDefault& d : FieldDefaults()) {
      absl::StatusOr<Value> v = ParseJson(d.value);
      idx->fields[d.type].emplace_back(d.field, v.ok() ? *v : Value());
    }
    return idx;
  }();
  return *index;
}

bool Omitted(const GoField& f, const Value& v);

class PlanBuilder {
 public:
  // `shared`: the atoms are the embedded schema's shared ones.
  PlanBuilder(KindPlan* plan, bool shared) : plan_(plan), shared_(shared) {}

  void Visit(const Atom* atom, const std::string& name) {
    // Scalars hold nothing to plan: most fields are, and each would cost
    // a set insert.
    if (atom == nullptr || (!atom->map && !atom->list)) return;
    if (!seen_.insert(atom).second) return;
    if (!name.empty()) Named(atom, name);
    if (atom->map && atom->map->element_type &&
        atom->map->element_type->named_type == kQuantity) {
      plan_->resource_lists.insert(atom);
    }
    if (atom->map) {
      for (const StructField& f : atom->map->fields) {
        Visit(f.type.resolved, f.type.named_type);
      }
      if (atom->map->element_type) {
        Visit(atom->map->element_type->resolved,
              atom->map->element_type->named_type);
      }
    }
    if (atom->list) {
      Visit(atom->list->element_type.resolved,
            atom->list->element_type.named_type);
    }
  }

  // Whether every Go struct met has each of its fields declared in the
  // schema: a schema of another Kubernetes release does not.
  bool compatible() const { return compatible_; }

 private:
  void Named(const Atom* atom, const std::string& name) {
    if (!atom->map) return;
    const NodePlan* node = nullptr;
    if (shared_) {
      SharedNodes& shared = Shared();
      std::lock_guard<std::mutex> lock(shared.mu);
      auto it = shared.nodes.find(atom);
      if (it == shared.nodes.end()) {
        it = shared.nodes.emplace(atom, Make(atom, name)).first;
      }
      node = it->second.get();
    } else {
      node = plan_->owned.emplace_back(Make(atom, name)).get();
    }
    if (node == nullptr) return;
    compatible_ = compatible_ && node->compatible;
    plan_->nodes[atom] = node;
  }

  // The plan of the map `atom`, of the named type `name`; null when no Go
  // struct has that name.
  static std::unique_ptr<NodePlan> Make(const Atom* atom,
                                        const std::string& name) {
    const GoStruct* go = FindGoStruct(name);
    if (go == nullptr) return nullptr;
    auto made = std::make_unique<NodePlan>();
    NodePlan& node = *made;
    node.go_name = name.substr(name.rfind('.') + 1);
    for (const GoField& f : go->fields) {
      if (atom->map->FindField(f.name) == nullptr) node.compatible = false;
    }
    node.go = go;
    node.by_field.resize(atom->map->fields.size());
    node.scalar.resize(atom->map->fields.size());
    node.elements.resize(atom->map->fields.size());
    for (size_t i = 0; i < atom->map->fields.size(); ++i) {
      const GoField* gf = go->Find(atom->map->fields[i].name);
      node.by_field[i] = gf;
      if (gf != nullptr &&
          (gf->kind == GoKind::kMap || gf->kind == GoKind::kSlice) &&
          (!gf->element_zero.IsNull() || gf->byte_elements ||
           gf->int_bits != 0)) {
        node.elements[i] = gf;
      }
      const std::string& t = atom->map->fields[i].type.named_type;
      node.scalar[i] = t == kQuantity    ? NodePlan::Scalar::kQuantity
                       : t == kTime      ? NodePlan::Scalar::kTime
                       : t == kMicroTime ? NodePlan::Scalar::kMicroTime
                                         : NodePlan::Scalar::kOther;
    }
    for (const GoField& f : go->fields) {
      if (!Omitted(f, f.zero)) node.present.push_back(&f);
    }
    const DefaulterIndex& d = Defaulters();
    if (auto r = d.rules.find(name); r != d.rules.end()) node.rules = r->second;
    for (const ClockDefault& c : ClockDefaults()) {
      if (name == c.type && go->Find(c.field) != nullptr)
        node.clock_fields.push_back(c.field);
    }
    if (auto f = d.fields.find(name); f != d.fields.end()) {
      for (const auto& [field, value] : f->second) {
        const GoField* gf = go->Find(field);
        if (gf == nullptr) continue;
        node.defaults.push_back({field, gf->kind, value});
      }
    }
    return made;
  }

  KindPlan* plan_;
  const bool shared_;
  absl::flat_hash_set<const Atom*> seen_;
  bool compatible_ = true;
};

// Whether a field holding `v` is dropped by the encoding.
bool Omitted(const GoField& f, const Value& v) {
  return (f.omitempty && IsGoEmpty(f.kind, v)) ||
         (f.omitzero && Equals(v, f.zero));
}

// The first value the decoder met that its Go type cannot hold: a number
// that does not fit the integer its Go type has (a float that is not
// whole, a number out of range), or (decoding a request body) a value of
// another JSON kind than the Go type takes (a bool where it has a string).
struct DecodeError {
  bool set = false;
  Value value;
  // For a number refused by an integer type: its bits; else 0.
  uint8_t bits = 0;
  // Go's type there, as encoding/json names it ("int32", "[]v1.Container").
  std::string go_type;
  // The Go struct that holds the field (DeploymentSpec).
  std::string go_struct;
  // The path to the value, innermost first: field names, map keys and list
  // indexes.
  enum class StepKind : uint8_t { kField, kMapKey, kIndex };
  struct Step {
    std::string key;
    StepKind kind = StepKind::kField;
  };
  std::vector<Step> path;

  // Records the number `v` at `key`, if no error was recorded before.
  void Record(const Value& v, uint8_t int_bits, std::string key,
              StepKind kind) {
    if (set) return;
    RecordType(v, absl::StrCat("int", int_bits), std::move(key), kind);
    bits = int_bits;
  }
  // Records the value `v` at `key`, which Go's `type` cannot hold.
  void RecordType(const Value& v, std::string type, std::string key,
                  StepKind kind) {
    if (set) return;
    set = true;
    value = v;
    go_type = std::move(type);
    path.push_back({std::move(key), kind});
  }
  // ".spec.template.spec.containers[0].ports[0].containerPort".
  std::string Path() const {
    std::string out;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const bool index = it->kind == StepKind::kIndex;
      absl::StrAppend(&out, index ? "[" : ".", it->key, index ? "]" : "");
    }
    return out;
  }
  // Go's encoding/json names the field by its struct fields' JSON names
  // alone: "spec.template.spec.containers.ports.containerPort".
  std::string JsonField() const {
    std::string out;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (it->kind != StepKind::kField) continue;
      absl::StrAppend(&out, out.empty() ? "" : ".", it->key);
    }
    return out;
  }
  // The error as encoding/json words it (OK when none was set).
  absl::Status AsJsonError() const {
    if (!set) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("json: cannot unmarshal ", Found(),
                     " into Go struct field ", go_struct, ".", JsonField(),
                     " of type ", go_type));
  }
  // What encoding/json says it found: "number 2.5" for a number an integer
  // type refuses, else the JSON kind ("bool", "array", ...).
  std::string Found() const {
    if (bits != 0) return absl::StrCat("number ", ToJson(value));
    switch (value.kind()) {
      case Value::Kind::kString:
        return "string";
      case Value::Kind::kInt:
      case Value::Kind::kFloat:
        return "number";
      case Value::Kind::kBool:
        return "bool";
      case Value::Kind::kList:
        return "array";
      default:
        return "object";
    }
  }
};

// A named type as Go prints it: the OpenAPI name's package and type
// ("io.k8s.api.core.v1.Container" is "v1.Container").
std::string GoTypeOfNamed(absl::string_view openapi_name) {
  const size_t last = openapi_name.rfind('.');
  const size_t pkg = last == absl::string_view::npos
                         ? absl::string_view::npos
                         : openapi_name.rfind('.', last - 1);
  return std::string(pkg == absl::string_view::npos
                         ? openapi_name
                         : openapi_name.substr(pkg + 1));
}

// The Go type of a value of the schema type `t` (an integer's `bits` where
// known), as Go prints it. Named string types (v1.Protocol) have no name of
// their own in the schema and print as string.
std::string GoTypeOf(const TypeRef& t, uint8_t bits) {
  if (!t.named_type.empty()) return GoTypeOfNamed(t.named_type);
  const Atom* a = t.resolved;
  if (a == nullptr) return "interface {}";
  if (a->list) return absl::StrCat("[]", GoTypeOf(a->list->element_type, bits));
  if (a->map) {
    return a->map->element_type
               ? absl::StrCat("map[string]",
                              GoTypeOf(*a->map->element_type, bits))
               : "map[string]interface {}";
  }
  if (!a->scalar) return "interface {}";
  switch (*a->scalar) {
    case ScalarType::kString:
      return "string";
    case ScalarType::kBoolean:
      return "bool";
    case ScalarType::kNumeric:
      return bits != 0 ? absl::StrCat("int", bits) : "float64";
    case ScalarType::kUntyped:
      break;
  }
  return "interface {}";
}

// Whether values of the schema type `t` are left to decode themselves
// here: untyped ones (IntOrString, anything deduced) and named scalars
// (Time, Quantity, Duration: their own UnmarshalJSON, with messages of
// their own).
bool DecodesItself(const TypeRef& t) {
  const Atom* a = t.resolved;
  if (a == nullptr) return true;
  if (a->scalar && *a->scalar == ScalarType::kUntyped) return true;
  return !t.named_type.empty() && a->scalar.has_value();
}

// Whether `t` is a type that decodes itself from a JSON string alone
// (metav1.Time, MicroTime and Duration unmarshal the text into a string
// first): any other value is refused as a string would refuse it.
bool IsTextOnly(const TypeRef& t) {
  return t.named_type == kTime || t.named_type == kMicroTime ||
         t.named_type == "io.k8s.apimachinery.pkg.apis.meta.v1.Duration";
}

// Whether a value of the schema type `a` (one that does not decode itself)
// may be `v` as encoding/json reads it: a map for a struct or map, a list
// for a slice, a scalar of the schema's scalar type.
bool TakesKindOf(const Atom& a, const Value& v) {
  if (a.map) return v.IsMap();
  if (a.list) return v.IsList();
  if (!a.scalar) return true;
  switch (*a.scalar) {
    case ScalarType::kString:
      return v.IsString();
    case ScalarType::kBoolean:
      return v.IsBool();
    case ScalarType::kNumeric:
      return v.IsNumber();
    case ScalarType::kUntyped:
      break;
  }
  return true;
}

// Whether encoding/json refuses `v` for the Go field `f` (schema type `t`),
// with the Go type it would name: a value of another JSON kind. Nulls,
// numbers an integer type takes or refuses (FitInteger), and the types that
// decode themselves (Time, Quantity, IntOrString, ...) are not looked at.
std::optional<std::string> Mismatch(const GoField& f, const TypeRef& t,
                                    const Value& v) {
  if (v.IsNull()) return std::nullopt;
  if (IsTextOnly(t)) {
    if (v.IsString()) return std::nullopt;
    return std::string("string");
  }
  if (DecodesItself(t)) return std::nullopt;
  const Atom* a = t.resolved;
  switch (f.kind) {
    case GoKind::kString:
      if (v.IsString()) return std::nullopt;
      return std::string("string");
    case GoKind::kBool:
      if (v.IsBool()) return std::nullopt;
      return std::string("bool");
    case GoKind::kInt:
      if (v.IsNumber()) return std::nullopt;
      return absl::StrCat("int", f.int_bits != 0 ? f.int_bits : 64);
    case GoKind::kFloat:
      if (v.IsNumber()) return std::nullopt;
      return std::string("float64");
    case GoKind::kSlice:
      // A byte slice is a string (base64).
      if (a != nullptr && a->scalar)
        return v.IsString() ? std::nullopt
                            : std::optional<std::string>("[]uint8");
      if (v.IsList()) return std::nullopt;
      return GoTypeOf(t, f.int_bits);
    case GoKind::kMap:
    case GoKind::kStruct:
      if (v.IsMap()) return std::nullopt;
      return GoTypeOf(t, f.int_bits);
    case GoKind::kPointer:
      // What it points to, from the schema: a struct, slice or plain
      // scalar.
      if (TakesKindOf(*a, v)) return std::nullopt;
      return GoTypeOf(t, f.int_bits);
    case GoKind::kMarshaler:
    case GoKind::kInterface:
      break;
  }
  return std::nullopt;
}

// Whether encoding/json refuses `e`, an element of the map or slice field
// `f` whose elements have the schema type `et`, with the Go type it would
// name. Elements whose zero is null (pointers, slices) and those that
// decode themselves are not looked at.
std::optional<std::string> ElementMismatch(const GoField& f,
                                           const TypeRef& et,
                                           const Value& e) {
  if (e.IsNull()) return std::nullopt;
  if (f.byte_elements) {
    if (e.IsString()) return std::nullopt;
    return std::string("[]uint8");
  }
  if (f.element_zero.IsNull() || DecodesItself(et) ||
      TakesKindOf(*et.resolved, e)) {
    return std::nullopt;
  }
  return GoTypeOf(et, f.int_bits);
}

// `v`, a value where the Go type has an integer of `bits`, as Go's decoders
// take it: a whole float is that integer (the unstructured converter
// converts it; a YAML body's whole floats are written as integers before
// encoding/json reads them). An integer out of an int32's range wraps
// around with `wrap` (the converter's reflect conversion) and is refused
// without (encoding/json). False when `v` is refused: a float that is not
// whole or does not fit, or an integer that does not fit.
bool FitInteger(Value& v, uint8_t bits, bool wrap) {
  if (v.IsInt()) {
    const int64_t x = v.AsInt();
    if (bits != 32 || (x >= INT32_MIN && x <= INT32_MAX)) return true;
    if (!wrap) return false;
    v = Value(static_cast<int64_t>(
        static_cast<int32_t>(static_cast<uint32_t>(x))));
    return true;
  }
  if (!v.IsFloat()) return true;
  const double x = v.AsFloat();
  const double limit = bits == 32 ? 2147483648.0 : 9223372036854775808.0;
  if (x != std::trunc(x) || x < -limit || x >= limit) return false;
  v = Value(static_cast<int64_t>(x));
  return true;
}

bool Nilable(GoKind k) {
  return k == GoKind::kPointer || k == GoKind::kSlice || k == GoKind::kMap ||
         k == GoKind::kInterface;
}

// The Go field of the entry `key` of a map of type `mt` (nullptr: the Go
// type has none).
const GoField* GoFieldOf(const NodePlan& np, const MapType& mt,
                         absl::string_view key, size_t* hint) {
  const StructField* sf = mt.FindFieldFrom(key, hint);
  if (sf == nullptr) return nullptr;
  return np.by_field[static_cast<size_t>(sf - mt.fields.data())];
}

// The fields of one struct as its Go type decodes and encodes them:
// undeclared fields dropped, nulls of value types their zero values,
// empty omitempty (and zero omitzero) fields dropped, and the fields whose
// zero value is encoded present. With `stored`, also as they come back
// from storage: the apiserver stores built-in kinds as protobuf, which
// keeps no empty slice or map, so one that the JSON encoding writes (no
// omitempty) reads back null. With `dropped_only`, only the dropping of
// empty fields (after the defaulters). Returns whether an empty slice or
// map stayed that storage would read back null (never with `stored`).
bool ThroughGoType(const NodePlan& np, const MapType& mt, Map& m, bool stored,
                   bool dropped_only = false, DecodeError* error = nullptr) {
  // Storage's read-back is what an apply's merged object goes through: the
  // unstructured converter (FitInteger).
  const bool wrap = stored;
  Map::Entries& entries = m.entries();
  size_t out = 0;
  size_t hint = 0;
  bool kept_empty = false;
  for (size_t i = 0; i < entries.size(); ++i) {
    Value& v = entries[i].value;
    if (!dropped_only || IsZeroLike(v)) {
      const GoField* f = GoFieldOf(np, mt, entries[i].key, &hint);
      if (f == nullptr) continue;  // undeclared: the decoder drops it
      if (f->int_bits != 0 && v.IsNumber() &&
          !FitInteger(v, f->int_bits, wrap) && error != nullptr &&
          !error->set) {
        error->Record(v, f->int_bits, entries[i].key,
                      DecodeError::StepKind::kField);
        error->go_struct = np.go_name;
      }
      if (IsZeroLike(v)) {
        if (v.IsNull() && !Nilable(f->kind)) {
          v = f->zero;
        } else if ((v.IsList() && f->kind == GoKind::kSlice) ||
                   (v.IsMap() && f->kind == GoKind::kMap)) {
          if (stored) {
            v = Value();
          } else if (!Omitted(*f, v)) {
            kept_empty = true;
          }
        }
        if (Omitted(*f, v)) continue;
      } else if (f->omitzero && Omitted(*f, v)) {
        continue;
      }
    }
    if (out != i) entries[out] = std::move(entries[i]);
    ++out;
  }
  entries.resize(out);
  if (dropped_only) return kept_empty;
  for (const GoField* f : np.present) {
    if (m.Find(f->name) == nullptr) m.Append(f->name, f->zero);
  }
  return kept_empty;
}

class Decoder {
 public:
  // With `stored`, as storage reads the object back (ThroughGoType); `now`
  // for the clock's defaults (none: they stay unset).
  Decoder(const KindPlan& plan, bool stored,
          std::optional<absl::Time> now = std::nullopt)
      : plan_(plan), stored_(stored), now_(now) {}

  // Only through the Go types, without the defaulters (an object the
  // scheme converted, which it does not default).
  void SkipDefaulters() { defaulters_ = false; }

  // Whether an empty slice or map stayed that storage reads back null.
  bool kept_empty() const { return kept_empty_; }

  // The first number that does not fit its Go integer type; the walk stops
  // there.
  const DecodeError& error() const { return error_; }

  // Top-down, as the generated defaulters: a struct's fields through its Go
  // type, its defaulters, then what it holds. `elements`: the Go field
  // whose value `v` is, when its elements decode to something else
  // (NodePlan::elements). On an error, each frame adds its step to the
  // error's path and returns.
  void Walk(const Atom* atom, Value& v, const Value* prev, int depth,
            const GoField* elements = nullptr) {
    if (atom == nullptr || depth > kMaxValueDepth) return;
    if (prev != nullptr && SameNode(v, *prev)) return;
    if (elements != nullptr && !Elements(*elements, v)) return;
    if (atom->map && v.IsMap()) {
      const MapType& mt = *atom->map;
      auto node = plan_.nodes.find(atom);
      const NodePlan* plan = node != plan_.nodes.end() ? node->second : nullptr;
      if (plan != nullptr) {
        const NodePlan& np = *plan;
        // A request body's values of another JSON kind than their Go
        // types' (the apiserver's 400), before the Go type drops an empty
        // one or a defaulter overwrites it.
        if (!stored_ && !KindsFit(np, mt, static_cast<const Value&>(v).map()))
          return;
        Map& m = v.map();
        kept_empty_ |= ThroughGoType(np, mt, m, stored_, false, &error_);
        if (error_.set) return;
        if (defaulters_ &&
            (!np.rules.empty() || !np.defaults.empty() ||
             (!np.clock_fields.empty() && now_.has_value()))) {
          for (DefaultRuleFn rule : np.rules) rule(m, *np.go);
          for (const NodePlan::Field& f : np.defaults) {
            if (IsGoUnset(f.kind, m.Find(f.name))) m.Set(f.name, f.value);
          }
          if (now_.has_value()) {
            for (const std::string& f : np.clock_fields) {
              if (IsGoUnset(GoKind::kPointer, m.Find(f)))
                m.Set(f, Value(FormatGoTime(*now_)));
            }
          }
          kept_empty_ |=
              ThroughGoType(np, mt, m, stored_, /*dropped_only=*/true);
        }
      }
      const Map* pm = prev != nullptr && prev->IsMap() ? &prev->map() : nullptr;
      Map& m = v.map();
      const bool resource_list = plan_.resource_lists.contains(atom);
      size_t hint = 0;
      for (MapEntry& e : m.entries()) {
        const StructField* sf = mt.FindFieldFrom(e.key, &hint);
        const size_t at =
            sf != nullptr ? static_cast<size_t>(sf - mt.fields.data()) : 0;
        NodePlan::Scalar scalar = NodePlan::Scalar::kOther;
        if (resource_list && sf == nullptr) {
          scalar = NodePlan::Scalar::kResourceQuantity;
        } else if (sf != nullptr && plan != nullptr) {
          scalar = plan->scalar[at];
        }
        if (scalar != NodePlan::Scalar::kOther) {
          // The previous version's value was written back already.
          const Value* pv = pm != nullptr ? pm->Find(e.key) : nullptr;
          if (pv == nullptr || !Equals(*pv, e.value)) {
            // An apply's merged object has its schema's kinds, so the
            // converter meets only a time's value that is no string (its
            // 500).
            if (stored_ && !e.value.IsString() &&
                (scalar == NodePlan::Scalar::kTime ||
                 scalar == NodePlan::Scalar::kMicroTime) &&
                !Fits(*plan, at, sf->type, e)) {
              return;
            }
            WriteBack(e.value, scalar);
          }
          continue;
        }
        if (!e.value.IsMap() && !e.value.IsList()) continue;
        const Atom* child = sf != nullptr ? sf->type.resolved
                            : mt.element_type ? mt.element_type->resolved
                                              : nullptr;
        const GoField* elements =
            sf != nullptr && plan != nullptr ? plan->elements[at] : nullptr;
        Walk(child, e.value, pm != nullptr ? pm->Find(e.key) : nullptr,
             depth + 1, elements);
        if (error_.set) {
          error_.path.push_back({e.key, DecodeError::StepKind::kField});
          if (error_.go_struct.empty() && plan != nullptr)
            error_.go_struct = plan->go_name;
          return;
        }
      }
      return;
    }
    if (atom->list && v.IsList()) {
      const Atom* elem = atom->list->element_type.resolved;
      if (elem == nullptr || (!elem->map && !elem->list)) return;
      const List* pl =
          prev != nullptr && prev->IsList() ? &prev->list() : nullptr;
      List& l = v.list();
      for (size_t i = 0; i < l.size(); ++i) {
        Walk(elem, l[i], pl != nullptr && i < pl->size() ? &(*pl)[i] : nullptr,
             depth + 1);
        if (error_.set) {
          error_.path.push_back(
              {std::to_string(i), DecodeError::StepKind::kIndex});
          return;
        }
      }
    }
  }

 private:
  // The elements of a map or slice held by the Go field `f`, as Go decodes
  // them: a null is the elements' zero value (with `stored_`, a null byte
  // slice reads back from storage empty), a number where they are
  // integers as FitInteger takes it (wrapping with `stored_`, the
  // converter's way). (A request body's element kinds were checked with
  // their struct's fields: KindsFit.) False, with error_ set, at a value
  // refused.
  bool Elements(const GoField& f, Value& v) {
    const bool empty_bytes = stored_ && f.byte_elements;
    const bool nulls = !f.element_zero.IsNull() || empty_bytes;
    auto zero = [&] {
      return empty_bytes ? Value(std::string()) : f.element_zero;
    };
    // Each element is looked at first: a node is unshared (copied) only to
    // change it. `key`: the map key, or null for the list index `i` (made
    // into a path step only for an error).
    auto element = [&](const Value& e, auto&& writable, const std::string* key,
                       size_t i) {
      if (e.IsNull() && nulls) {
        writable() = zero();
      } else if (e.IsNumber() && f.int_bits != 0) {
        Value fit = e;
        if (!FitInteger(fit, f.int_bits, /*wrap=*/stored_)) {
          error_.Record(e, f.int_bits,
                        key != nullptr ? *key : std::to_string(i),
                        key != nullptr ? DecodeError::StepKind::kMapKey
                                       : DecodeError::StepKind::kIndex);
          return false;
        }
        if (!Identical(fit, e)) writable() = std::move(fit);
      }
      return true;
    };
    const Value& cv = v;
    if (cv.IsMap()) {
      const Map::Entries& entries = cv.map().entries();
      for (size_t i = 0; i < entries.size(); ++i) {
        const Value& e = entries[i].value;
        if (!e.IsNull() && !e.IsNumber()) continue;
        if (!element(e, [&]() -> Value& { return v.map().entries()[i].value; },
                     &entries[i].key, i)) {
          return false;
        }
      }
    } else if (cv.IsList()) {
      const List& items = cv.list();
      for (size_t i = 0; i < items.size(); ++i) {
        const Value& e = items[i];
        if (!e.IsNull() && !e.IsNumber()) continue;
        if (!element(e, [&]() -> Value& { return v.list()[i]; }, nullptr, i)) {
          return false;
        }
      }
    }
    return true;
  }

  // Whether the fields of `m` (a struct of `plan`, schema map `mt`) and
  // their elements have JSON kinds their Go types take; false, with error_
  // set, at the first that has not. Go decodes the whole body before its
  // defaulters run, so this comes before the struct's Go type drops its
  // empty values and its defaulters run, which would drop or overwrite a
  // zero-like or misplaced value (`terminationMessagePath: false`; a
  // pod's serviceAccountName, which the deprecated serviceAccount
  // follows). (Deeper values are checked as the walk reaches them: of two
  // values that do not fit, a deeper one met earlier in the body is
  // reported after this struct's own, where encoding/json reports the
  // first in the body.)
  bool KindsFit(const NodePlan& np, const MapType& mt, const Map& m) {
    size_t hint = 0;
    for (const MapEntry& e : m.entries()) {
      const StructField* sf = mt.FindFieldFrom(e.key, &hint);
      if (sf == nullptr) continue;
      const size_t at = static_cast<size_t>(sf - mt.fields.data());
      if (!Fits(np, at, sf->type, e)) return false;
      const GoField* elements = np.elements[at];
      if (elements != nullptr &&
          !ElementKinds(*elements, sf->type.resolved, e.value)) {
        error_.path.push_back({e.key, DecodeError::StepKind::kField});
        error_.go_struct = np.go_name;
        return false;
      }
    }
    return true;
  }

  // Whether the entry `e`, the field `at` of the struct `plan` (schema type
  // `t`), has a JSON kind its Go type takes (Mismatch); false, with error_
  // set, where it has not.
  bool Fits(const NodePlan& plan, size_t at, const TypeRef& t,
            const MapEntry& e) {
    const GoField* f = plan.by_field[at];
    if (f == nullptr) return true;
    std::optional<std::string> type = Mismatch(*f, t, e.value);
    if (!type) return true;
    error_.RecordType(e.value, *std::move(type), e.key,
                      DecodeError::StepKind::kField);
    error_.go_struct = plan.go_name;
    return false;
  }

  // Whether each element of `v` (a map or list of the schema type `atom`,
  // held by the Go field `f`) has a JSON kind its Go type takes (see
  // ElementMismatch); false, with error_ set, at the first that has not.
  bool ElementKinds(const GoField& f, const Atom* atom, const Value& v) {
    const TypeRef* et = atom == nullptr ? nullptr
                        : atom->list    ? &atom->list->element_type
                        : atom->map && atom->map->element_type
                            ? &*atom->map->element_type
                            : nullptr;
    if (et == nullptr) return true;
    auto check = [&](const Value& e, std::string key,
                     DecodeError::StepKind kind) {
      std::optional<std::string> type = ElementMismatch(f, *et, e);
      if (!type) return true;
      error_.RecordType(e, *std::move(type), std::move(key), kind);
      return false;
    };
    if (v.IsMap()) {
      for (const MapEntry& e : v.map()) {
        if (!check(e.value, e.key, DecodeError::StepKind::kMapKey))
          return false;
      }
    } else if (v.IsList()) {
      const List& items = v.list();
      for (size_t i = 0; i < items.size(); ++i) {
        if (!check(items[i], std::to_string(i), DecodeError::StepKind::kIndex))
          return false;
      }
    }
    return true;
  }

  // A quantity or time as its Go type writes it back; values that are
  // none stay (validation has the last word on them). (A resource list's
  // null value is its elements' zero Quantity, "0", by then: Elements.)
  static void WriteBack(Value& v, NodePlan::Scalar scalar) {
    if (v.IsNull()) return;
    std::optional<Value> c;
    switch (scalar) {
      case NodePlan::Scalar::kQuantity:
      case NodePlan::Scalar::kResourceQuantity:
        // SetDefaults_ResourceList rounds a list's values up to a thousandth.
        if (std::optional<std::string> q = CanonicalQuantity(
                v, scalar == NodePlan::Scalar::kResourceQuantity)) {
          c = Value(*std::move(q));
        }
        break;
      case NodePlan::Scalar::kTime:
      case NodePlan::Scalar::kMicroTime:
        c = CanonicalTime(v, scalar == NodePlan::Scalar::kMicroTime);
        break;
      case NodePlan::Scalar::kOther:
        break;
    }
    if (c && !Equals(*c, v)) v = *std::move(c);
  }

  const KindPlan& plan_;
  const bool stored_;
  const std::optional<absl::Time> now_;
  bool defaulters_ = true;
  bool kept_empty_ = false;
  DecodeError error_;
};

// Whether `v`, of the schema node `atom`, holds a Go slice or map that is
// empty but not nil: an empty list or map where the Go type has a slice
// or map (a list is always a slice; a map without a Go struct's plan, a
// map), or "" where it has a byte slice; unless `decoded`, the same place
// of `v` decoded, holds something there (a defaulter filled the empty
// slice: a NetworkPolicy's policyTypes).
bool HoldsEmptyContainer(const KindPlan& plan, const Atom* atom,
                         const Value& v, const Value* decoded, int depth) {
  if (atom == nullptr || depth > kMaxValueDepth) return false;
  auto filled = [](const Value* d) {
    return d != nullptr && ((d->IsList() && !d->list().empty()) ||
                            (d->IsMap() && !d->map().empty()) ||
                            (d->IsString() && !d->AsString().empty()));
  };
  if (atom->list && v.IsList()) {
    const Atom* elem = atom->list->element_type.resolved;
    const List* dl = decoded != nullptr && decoded->IsList() ? &decoded->list()
                                                             : nullptr;
    for (size_t i = 0; i < v.list().size(); ++i) {
      const Value& item = v.list()[i];
      const Value* di = dl != nullptr && i < dl->size() ? &(*dl)[i] : nullptr;
      if (elem != nullptr && elem->list && item.IsList() &&
          item.list().empty() && !filled(di)) {
        return true;
      }
      if ((item.IsMap() || item.IsList()) &&
          HoldsEmptyContainer(plan, elem, item, di, depth + 1)) {
        return true;
      }
    }
    return false;
  }
  if (!atom->map || !v.IsMap()) return false;
  const MapType& mt = *atom->map;
  auto node = plan.nodes.find(atom);
  const NodePlan* np = node != plan.nodes.end() ? node->second : nullptr;
  const Map* dm =
      decoded != nullptr && decoded->IsMap() ? &decoded->map() : nullptr;
  size_t hint = 0;
  for (const MapEntry& e : v.map()) {
    const StructField* sf = mt.FindFieldFrom(e.key, &hint);
    const GoField* f =
        sf != nullptr && np != nullptr
            ? np->by_field[static_cast<size_t>(sf - mt.fields.data())]
            : nullptr;
    const Atom* child = sf != nullptr ? sf->type.resolved
                        : mt.element_type ? mt.element_type->resolved
                                          : nullptr;
    const Value* dv = dm != nullptr ? dm->Find(e.key) : nullptr;
    const bool container =
        f != nullptr ? f->kind == GoKind::kSlice || f->kind == GoKind::kMap
                     : child != nullptr && (child->list != nullptr ||
                                            (child->map != nullptr &&
                                             !plan.nodes.contains(child)));
    if (container && !filled(dv) &&
        ((e.value.IsList() && e.value.list().empty()) ||
         (e.value.IsMap() && e.value.map().empty()) ||
         (f != nullptr && f->kind == GoKind::kSlice && e.value.IsString() &&
          e.value.AsString().empty()))) {
      return true;
    }
    if ((e.value.IsMap() || e.value.IsList()) &&
        HoldsEmptyContainer(plan, child, e.value, dv, depth + 1)) {
      return true;
    }
  }
  return false;
}

}  // namespace

}  // namespace internal

std::shared_ptr<const BuiltinKind> BuiltinKind::For(
    const Type& type, absl::string_view api_version, absl::string_view kind) {
  if (type.root() == nullptr || internal::FindGoStruct(type.name()) == nullptr)
    return nullptr;
  // The last kinds made, by schema, type, apiVersion and kind: a command
  // over many objects makes a field manager per object, and the plan of a
  // kind (a walk over every type it reaches) is the same each time. Room
  // for the kinds of a whole cluster's manifests (with 16, a stream that
  // cycles through 34 kinds made a plan for nearly every object), and no
  // more: each entry keeps its schema alive.
  static std::mutex mu;
  static auto* const recent =
      new std::deque<std::pair<std::string, std::shared_ptr<const BuiltinKind>>>();
  const std::string key = absl::StrCat(type.schema().id(), " ", type.name(), " ",
                                       api_version, " ", kind);
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [k, v] : *recent) {
      if (k == key) return v;
    }
  }
  std::shared_ptr<const BuiltinKind> made = Make(type, api_version, kind);
  std::lock_guard<std::mutex> lock(mu);
  recent->emplace_front(key, made);
  if (recent->size() > 64) recent->pop_back();
  return made;
}

std::shared_ptr<const BuiltinKind> BuiltinKind::Make(
    const Type& type, absl::string_view api_version, absl::string_view kind) {
  auto plan = std::make_shared<internal::KindPlan>();
  internal::PlanBuilder builder(plan.get(),
                                SharesEmbeddedKubernetesTypes(type.schema()));
  builder.Visit(type.root(), type.name());
  if (!builder.compatible()) return nullptr;
  std::shared_ptr<BuiltinKind> k(new BuiltinKind());
  k->api_version_ = std::string(api_version);
  k->kind_ = std::string(kind);
  k->type_ = type;
  k->plan_ = std::move(plan);
  Map m;
  m.Set("apiVersion", Value(k->api_version_));
  m.Set("kind", Value(k->kind_));
  Value zero(std::move(m));
  // The zero object goes through the Go type only (no defaulters).
  if (auto node = k->plan_->nodes.find(type.root());
      node != k->plan_->nodes.end()) {
    internal::ThroughGoType(*node->second, *type.root()->map, zero.map(),
                            /*stored=*/false);
  }
  k->new_object_ = std::move(zero);
  return k;
}

Value BuiltinKind::Decode(Value object, const Value* previous,
                          bool* reads_back_otherwise, absl::Status* error,
                          std::optional<absl::Time> now) const {
  internal::Decoder d(*plan_, /*stored=*/false, now);
  d.Walk(type_.root(), object, previous, 0);
  if (reads_back_otherwise != nullptr) *reads_back_otherwise = d.kept_empty();
  if (error != nullptr) {
    *error = d.error().AsJsonError();
  }
  return object;
}

bool BuiltinKind::Converts(absl::string_view kind, absl::string_view from,
                           absl::string_view to) {
  return kind == "HorizontalPodAutoscaler" &&
         ((from == "autoscaling/v1" && to == "autoscaling/v2") ||
          (from == "autoscaling/v2" && to == "autoscaling/v1"));
}

std::optional<Value> BuiltinKind::ConvertTo(const Value& object,
                                            const BuiltinKind& to) const {
  if (!ConvertsTo(to)) return std::nullopt;
  Value converted = api_version_ == "autoscaling/v1"
                        ? internal::HpaV1ToV2(object)
                        : internal::HpaV2ToV1(object);
  internal::Decoder d(*to.plan_, /*stored=*/false);
  d.SkipDefaulters();
  d.Walk(to.type_.root(), converted, nullptr, 0);
  return converted;
}

absl::Status BuiltinKind::BodyRefusedError(absl::string_view api_version,
                                           absl::string_view kind,
                                           const absl::Status& error) {
  const size_t slash = api_version.find('/');
  absl::Status st = absl::InvalidArgumentError(absl::StrCat(
      kind, " in version \"",
      slash == absl::string_view::npos ? api_version
                                       : api_version.substr(slash + 1),
      "\" cannot be handled as a ", kind, ": ", error.message()));
  st.SetPayload(kBodyRefusedPayload, absl::Cord("1"));
  return st;
}

bool BuiltinKind::IsBodyRefused(const absl::Status& st) {
  return st.GetPayload(kBodyRefusedPayload).has_value();
}

Value BuiltinKind::ReadBack(Value object, const Value* previous,
                            absl::Status* error,
                            std::optional<absl::Time> now) const {
  internal::Decoder d(*plan_, /*stored=*/true, now);
  d.Walk(type_.root(), object, previous, 0);
  // The converter writes a CRD's floats with encoding/json, and its
  // internal type reads integers back (crd.h).
  if (internal::IsCrd(api_version_, kind_))
    internal::StoreCrdSpecNumbers(object);
  if (error != nullptr) {
    const internal::DecodeError& e = d.error();
    // As the unstructured converter words it, with the path: a number
    // its integer type refuses, or a time's value that is not a string
    // (the time's own decoder's words).
    *error = !e.set      ? absl::OkStatus()
             : e.bits != 0 ? absl::InternalError(absl::StrCat(
                                 e.Path(), ": cannot convert float64 ",
                                 ToJson(e.value), " to int", e.bits))
                           : absl::InternalError(absl::StrCat(
                                 e.Path(), ": json: cannot unmarshal ",
                                 e.Found(), " into Go value of type ",
                                 e.go_type));
  }
  return object;
}

std::shared_ptr<const CustomResourceMetadata> CustomResourceMetadata::For(
    const Type& type) {
  constexpr absl::string_view kObjectMeta =
      "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
  const Atom* root = type.root();
  if (root == nullptr || !root->map) return nullptr;
  const StructField* md = root->map->FindField("metadata");
  if (md == nullptr || md->type.named_type != kObjectMeta ||
      md->type.resolved == nullptr) {
    return nullptr;
  }
  auto plan = std::make_shared<internal::KindPlan>();
  internal::PlanBuilder builder(plan.get(),
                                SharesEmbeddedKubernetesTypes(type.schema()));
  builder.Visit(md->type.resolved, md->type.named_type);
  if (!builder.compatible()) return nullptr;
  std::shared_ptr<CustomResourceMetadata> c(new CustomResourceMetadata());
  c->type_ = type;
  c->metadata_ = md->type.resolved;
  c->plan_ = std::move(plan);
  return c;
}

Value CustomResourceMetadata::Coerce(Value object, absl::Status* error) const {
  Value* md = object.IsMap() ? object.map().Find("metadata") : nullptr;
  if (md != nullptr && md->IsMap()) {
    internal::Decoder d(*plan_, /*stored=*/false);
    d.Walk(metadata_, *md, nullptr, /*depth=*/1);
    // (Decoded into ObjectMeta on its own: the path starts there.)
    if (error != nullptr) *error = d.error().AsJsonError();
  }
  return object;
}

Value CustomResourceMetadata::AsStored(Value object, const Value& live,
                                       bool status_write) {
  object = internal::CustomResourceGeneration(std::move(object), live,
                                              live.IsNull(), status_write);
  internal::StoreWholeFloatsAsIntegers(object);
  return object;
}

bool BuiltinKind::ReadHidesStoredFields(const Value& live) const {
  if (api_version_ != "v1" || kind_ != "Service") return false;
  const Value* spec = Find(live, "spec");
  return spec != nullptr && StringAt(*spec, "type") == "ExternalName" &&
         Find(*spec, "internalTrafficPolicy") == nullptr;
}

Value BuiltinKind::AsStored(Value live, const ManagedFields& managers) const {
  if (!ReadHidesStoredFields(live)) return live;
  const Path path = {PathElement::Field("spec"),
                     PathElement::Field("internalTrafficPolicy")};
  for (const auto& [name, owned] : managers) {
    if (owned.set().Has(path)) {
      internal::EnsureMap(live.map(), "spec")
          .Set("internalTrafficPolicy", Value("Cluster"));
      break;
    }
  }
  return live;
}

Value BuiltinKind::PrepareForCreate(Value object, const Value& request,
                                    std::optional<absl::Time> now,
                                    bool status_store) const {
  return internal::PrepareForCreate(api_version_, kind_, std::move(object),
                                    request, now, status_store);
}

bool BuiltinKind::StatusWriteCreates(bool apply) const {
  return internal::StatusWriteCreates(api_version_, kind_, apply);
}

Value BuiltinKind::PrepareForUpdate(Value object, const Value& live,
                                    const UpdateContext& context) const {
  return internal::PrepareForUpdate(api_version_, kind_, std::move(object),
                                    live, context.status_write,
                                    context.empties_differ, context.now,
                                    context.subresource);
}

bool BuiltinKind::ComparesEmpties() const {
  return !internal::ReflectComparedField(api_version_, kind_).empty();
}

bool BuiltinKind::EmptiesDiffer(const Value& request,
                                const Value& decoded) const {
  const absl::string_view field =
      internal::ReflectComparedField(api_version_, kind_);
  const Atom* root = type_.root();
  if (field.empty() || root == nullptr || !root->map) return false;
  const StructField* sf = root->map->FindField(field);
  const Value* v = Find(request, field);
  if (sf == nullptr || v == nullptr) return false;
  const Value* d = Find(decoded, field);
  // The field itself: `webhooks: []` is an empty slice too.
  if (v->IsList() && v->list().empty())
    return d == nullptr || !d->IsList() || d->list().empty();
  return internal::HoldsEmptyContainer(*plan_, sf->type.resolved, *v, d,
                                       /*depth=*/1);
}

}  // namespace smdx
