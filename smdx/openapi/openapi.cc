// OpenAPI documents and CRDs to TypeDefs (see openapi.h for the rules).
#include "smdx/openapi/openapi.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "smdx/schema/builtin.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace {

using absl::StrCat;

constexpr absl::string_view kQuantityName =
    "io.k8s.apimachinery.pkg.api.resource.Quantity";
constexpr absl::string_view kRawExtensionName =
    "io.k8s.apimachinery.pkg.runtime.RawExtension";
constexpr absl::string_view kObjectMetaName =
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
constexpr absl::string_view kListMetaName =
    "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

constexpr absl::string_view kListTypeExt = "x-kubernetes-list-type";
constexpr absl::string_view kListMapKeysExt = "x-kubernetes-list-map-keys";
constexpr absl::string_view kMapTypeExt = "x-kubernetes-map-type";
constexpr absl::string_view kPatchStrategyExt = "x-kubernetes-patch-strategy";
constexpr absl::string_view kPatchMergeKeyExt = "x-kubernetes-patch-merge-key";
constexpr absl::string_view kPreserveExt =
    "x-kubernetes-preserve-unknown-fields";

// Reports past this many problems are summarized.
constexpr size_t kMaxReportedErrors = 50;

bool IsTrue(const Value& m, absl::string_view key) {
  const Value* v = Find(m, key);
  return v != nullptr && v->IsBool() && v->AsBool();
}

TypeRef NamedRef(absl::string_view name) {
  TypeRef r;
  r.named_type = std::string(name);
  return r;
}

TypeRef InlineRef(Atom atom) {
  TypeRef r;
  r.inlined = std::make_shared<Atom>(std::move(atom));
  return r;
}

Atom ScalarAtom(ScalarType s) {
  Atom a;
  a.scalar = s;
  return a;
}

bool IsHelperName(absl::string_view name) {
  return name == kUntypedAtomicTypeName || name == kDeducedTypeName;
}

// Deep copies: linking writes into atoms (resolved pointers, field
// indexes), so types taken from a built schema, or built twice, must not
// share their lists, maps and inline atoms.
Atom CopyAtom(const Atom& a);

TypeRef CopyRef(const TypeRef& r) {
  TypeRef out;
  out.named_type = r.named_type;
  if (r.inlined) out.inlined = std::make_shared<Atom>(CopyAtom(*r.inlined));
  out.element_relationship = r.element_relationship;
  out.default_value = r.default_value;
  out.nullable = r.nullable;
  out.immutability = r.immutability;
  return out;
}

Atom CopyAtom(const Atom& a) {
  Atom out;
  out.scalar = a.scalar;
  if (a.list) {
    out.list = std::make_shared<ListType>();
    out.list->element_type = CopyRef(a.list->element_type);
    out.list->element_relationship = a.list->element_relationship;
    out.list->keys = a.list->keys;
  }
  if (a.map) {
    out.map = std::make_shared<MapType>();
    for (const StructField& f : a.map->fields) {
      StructField c;
      c.name = f.name;
      c.type = CopyRef(f.type);
      c.default_value = f.default_value;
      c.nullable = f.nullable;
      out.map->fields.push_back(std::move(c));
    }
    if (a.map->element_type)
      out.map->element_type = CopyRef(*a.map->element_type);
    out.map->element_relationship = a.map->element_relationship;
    out.map->unions = a.map->unions;
  }
  return out;
}

std::vector<TypeDef> CopyTypes(const std::vector<TypeDef>& types) {
  std::vector<TypeDef> out;
  out.reserve(types.size());
  for (const TypeDef& t : types)
    out.push_back(TypeDef{t.name, CopyAtom(t.atom)});
  return out;
}

void CollectNamedRefs(const Atom& a, std::vector<std::string>* out);

void CollectNamedRefs(const TypeRef& r, std::vector<std::string>* out) {
  if (!r.named_type.empty()) out->push_back(r.named_type);
  if (r.inlined) CollectNamedRefs(*r.inlined, out);
}

void CollectNamedRefs(const Atom& a, std::vector<std::string>* out) {
  if (a.list) CollectNamedRefs(a.list->element_type, out);
  if (a.map) {
    for (const StructField& f : a.map->fields) CollectNamedRefs(f.type, out);
    if (a.map->element_type) CollectNamedRefs(*a.map->element_type, out);
  }
}

// Sorts types by name, bytewise (Go's sort.Strings), helper types last.
void SortTypes(std::vector<TypeDef>* types) {
  std::stable_sort(types->begin(), types->end(),
                   [](const TypeDef& a, const TypeDef& b) {
                     bool ha = IsHelperName(a.name), hb = IsHelperName(b.name);
                     if (ha != hb) return hb;
                     if (ha) return false;
                     return a.name < b.name;
                   });
}

std::string JoinErrors(const std::vector<std::string>& errors) {
  if (errors.size() <= kMaxReportedErrors) return absl::StrJoin(errors, "\n");
  std::vector<std::string> head(errors.begin(),
                                errors.begin() + kMaxReportedErrors);
  return StrCat(absl::StrJoin(head, "\n"), "\n... and ",
                errors.size() - kMaxReportedErrors, " more problems");
}

// What a schema node holds, once `type` and the markers are read.
enum class NodeKind { kObject, kArray, kScalar, kAny };

absl::string_view NodeKindName(NodeKind k) {
  switch (k) {
    case NodeKind::kObject:
      return "object";
    case NodeKind::kArray:
      return "array";
    case NodeKind::kScalar:
      return "scalar";
    case NodeKind::kAny:
      return "untyped";
  }
  return "?";
}

struct OpenApiConverterOptions {
  // `$ref`s are `ref_prefix` + a name in `definitions`; no `$ref` resolves
  // when `definitions` is null.
  std::string ref_prefix;
  const Value* definitions = nullptr;
  // CRD mode: the root and embedded resources get apiVersion, kind and
  // metadata (ObjectMeta), as the apiextensions-apiserver adds them.
  bool crd = false;
  // Every node preserves unknown fields (a CRD's spec.preserveUnknownFields).
  bool preserve_unknown_fields = false;
};

// Converts the schema nodes of one document. Problems are collected, not
// returned at once, so that a document with several is fixed in one go;
// checks that need the referenced types are deferred to Finish.
class OpenApiConverter {
 public:
  explicit OpenApiConverter(OpenApiConverterOptions opts)
      : opts_(std::move(opts)) {}

  // The atom of the named definition `name`, or nullopt when the definition
  // is an alias (a `$ref`), which gets no type of its own.
  // `resource_root`: the definition is a resource's root schema (as a
  // CRD's openAPIV3Schema is), whose `metadata` may not hold defaults.
  std::optional<Atom> Definition(const std::string& name, const Value& node,
                                 const std::string& where,
                                 bool resource_root = false) {
    if (node.IsMap() && RefString(node, nullptr) != nullptr)
      return std::nullopt;
    if (resource_root) ForbidDefaultsInMetadata(node, where);
    return Convert(node, where, opts_.preserve_unknown_fields, name,
                   /*crd_root=*/false);
  }

  // The atom of a CRD version's root schema.
  Atom CrdRoot(const Value& node, const std::string& where) {
    return Convert(node, where, opts_.preserve_unknown_fields, "",
                   /*crd_root=*/true);
  }

  // Runs the deferred checks and the default checks against `types` (the
  // complete result). Returns every problem found during the conversion.
  absl::Status Finish(const std::vector<TypeDef>& types) {
    absl::flat_hash_map<std::string, const Atom*> by_name;
    for (const TypeDef& t : types) by_name.emplace(t.name, &t.atom);
    Resolver resolve = [&by_name](const TypeRef& r) -> const Atom* {
      if (r.inlined) return r.inlined.get();
      auto it = by_name.find(r.named_type);
      return it == by_name.end() ? nullptr : it->second;
    };
    for (const auto& check : deferred_) check(resolve);
    if (errors_.empty() && !defaults_.empty()) CheckDefaults(types);
    if (errors_.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(JoinErrors(errors_));
  }

 private:
  using Resolver = std::function<const Atom*(const TypeRef&)>;

  struct DefaultCheck {
    std::string where;
    TypeRef type;
    Value value;
  };

  void Error(const std::string& where, absl::string_view msg) {
    errors_.push_back(StrCat(where, ": ", msg));
  }

  // The `$ref` of a node: its own, or that of the only member of its
  // `allOf` (OpenAPI v3's way to put siblings beside a reference). Sets
  // *inner to that member.
  static const Value* RefString(const Value& node, const Value** inner) {
    if (const Value* r = Find(node, "$ref")) return r;
    const Value* all_of = Find(node, "allOf");
    if (all_of != nullptr && all_of->IsList() && all_of->list().size() == 1) {
      const Value& only = all_of->list()[0];
      if (const Value* r = Find(only, "$ref")) {
        if (inner != nullptr) *inner = &only;
        return r;
      }
    }
    return nullptr;
  }

  // An extension of a reference node: beside the `$ref`, or inside the
  // `allOf` member that holds it.
  static const Value* RefExtension(const Value& node, const Value* inner,
                                   absl::string_view key) {
    if (const Value* v = Find(node, key)) return v;
    return inner != nullptr ? Find(*inner, key) : nullptr;
  }

  // The definition a `$ref` names, following aliases; nullopt (and an
  // error) when it names nothing.
  std::optional<std::string> ResolveRef(const Value& ref,
                                        const std::string& where) {
    if (!ref.IsString()) {
      Error(where, "$ref must be a string");
      return std::nullopt;
    }
    std::string target = ref.AsString();
    absl::flat_hash_set<std::string> seen;
    while (true) {
      if (opts_.definitions == nullptr) {
        Error(where, StrCat("$ref \"", target,
                            "\" cannot be resolved: a schema object has no "
                            "definitions"));
        return std::nullopt;
      }
      if (!absl::StartsWith(target, opts_.ref_prefix)) {
        Error(where, StrCat("$ref \"", target, "\" does not start with \"",
                            opts_.ref_prefix, "\""));
        return std::nullopt;
      }
      std::string name = absl::StrReplaceAll(
          absl::string_view(target).substr(opts_.ref_prefix.size()),
          {{"~1", "/"}, {"~0", "~"}});
      const Value* def = opts_.definitions->map().Find(name);
      if (def == nullptr) {
        Error(where, StrCat("$ref \"", target, "\" names no definition"));
        return std::nullopt;
      }
      const Value* next = def->IsMap() ? RefString(*def, nullptr) : nullptr;
      if (next == nullptr) return name;
      if (!seen.insert(name).second || !next->IsString()) {
        Error(where, StrCat("$ref \"", ref.AsString(),
                            "\" leads to a cycle of aliases"));
        return std::nullopt;
      }
      target = next->AsString();
    }
  }

  void ReadImmutability(const Value& node, const Value* inner,
                        const std::string& where, Immutability* out) {
    struct Marker {
      absl::string_view ext;
      bool* dest;
    } markers[] = {{"x-kubernetes-immutable", &out->immutable},
                   {"x-kubernetes-immutable-keys", &out->immutable_keys},
                   {"x-kubernetes-addition-only", &out->addition_only},
                   {"x-kubernetes-deletion-only", &out->deletion_only}};
    for (const Marker& m : markers) {
      const Value* v = RefExtension(node, inner, m.ext);
      if (v == nullptr || v->IsNull()) continue;
      if (!v->IsBool()) {
        Error(where,
              StrCat(m.ext, " must be a boolean, got ", DebugString(*v)));
        continue;
      }
      // The immutability KEP: "with `true` as the only valid value" (false
      // cannot lift a parent's immutability).
      if (!v->AsBool() && (m.ext == "x-kubernetes-immutable" ||
                           m.ext == "x-kubernetes-immutable-keys")) {
        Error(where, StrCat(m.ext,
                            ": false is not allowed, true is the only "
                            "valid value"));
        continue;
      }
      *m.dest = v->AsBool();
    }
  }

  // The `default` and nullability of a node, for the place that holds it.
  void ReadDefault(const Value& node, const Value* inner,
                   const std::string& where, const TypeRef& type,
                   std::optional<Value>* default_value, bool* nullable) {
    const Value* d = RefExtension(node, inner, "default");
    if (d != nullptr && !d->IsNull()) {
      *default_value = *d;
      defaults_.push_back(DefaultCheck{where, type, *d});
    }
    for (absl::string_view key : {"nullable", "x-nullable"}) {
      const Value* n = RefExtension(node, inner, key);
      if (n == nullptr || n->IsNull()) continue;
      if (!n->IsBool()) {
        Error(where, StrCat(key, " must be a boolean, got ", DebugString(*n)));
        continue;
      }
      *nullable = *nullable || n->AsBool();
    }
  }

  // The type reference of a node: a named type for a `$ref`, else inline.
  TypeRef Ref(const Value& node, const std::string& where, bool preserve) {
    if (!node.IsMap()) {
      Error(where, StrCat("expected a schema object, got ", DebugString(node)));
      return NamedRef(kDeducedTypeName);
    }
    const Value* inner = nullptr;
    TypeRef ref;
    if (const Value* r = RefString(node, &inner)) {
      std::optional<std::string> name = ResolveRef(*r, where);
      if (!name) return NamedRef(kDeducedTypeName);
      if (*name == kRawExtensionName) {
        // Kubernetes' converter makes embedded raw objects opaque.
        ref = NamedRef(kUntypedAtomicTypeName);
      } else {
        ref = NamedRef(*name);
        RefRelationship(node, inner, where, &ref);
      }
    } else {
      ref = InlineRef(Convert(node, where, preserve, "", /*crd_root=*/false));
    }
    ReadImmutability(node, inner, where, &ref.immutability);
    return ref;
  }

  // A map or list type beside a `$ref`: an override of the referenced
  // type's relationship at this place.
  void RefRelationship(const Value& node, const Value* inner,
                       const std::string& where, TypeRef* ref) {
    const Value* map_type = RefExtension(node, inner, kMapTypeExt);
    const Value* list_type = RefExtension(node, inner, kListTypeExt);
    if (map_type != nullptr && list_type != nullptr) {
      Error(where,
            "both x-kubernetes-map-type and x-kubernetes-list-type "
            "are set beside a $ref");
      return;
    }
    std::string target = ref->named_type;
    if (map_type != nullptr) {
      std::optional<ElementRelationship> rel =
          MapRelationship(*map_type, where);
      if (!rel) return;
      ref->element_relationship = rel;
      deferred_.push_back([this, where, target, rel](const Resolver& resolve) {
        const Atom* a = resolve(NamedRef(target));
        if (a == nullptr || a->map) return;
        if (*rel == ElementRelationship::kAtomic && a->scalar && !a->list)
          return;
        Error(where, StrCat("x-kubernetes-map-type is set beside a $ref to \"",
                            target, "\", which is not an object"));
      });
    }
    if (list_type != nullptr) {
      if (!list_type->IsString()) {
        Error(where, "x-kubernetes-list-type must be a string");
        return;
      }
      std::string lt = list_type->AsString();
      if (lt == "atomic") {
        ref->element_relationship = ElementRelationship::kAtomic;
        deferred_.push_back([this, where, target](const Resolver& resolve) {
          const Atom* a = resolve(NamedRef(target));
          if (a == nullptr || !a->map) return;
          Error(where,
                StrCat("x-kubernetes-list-type is set beside a $ref to \"",
                       target, "\", which is not an array"));
        });
        return;
      }
      if (lt != "set" && lt != "map") {
        Error(where, StrCat("unknown x-kubernetes-list-type \"", lt,
                            "\" (expected atomic, set or map)"));
        return;
      }
      // An associative override would need keys of its own: only a marker
      // that repeats the referenced list's own type is accepted.
      deferred_.push_back([this, where, target, lt](const Resolver& resolve) {
        const Atom* a = resolve(NamedRef(target));
        if (a == nullptr) return;
        bool same = a->list && !a->map && a->list->IsAssociative() &&
                    (lt == "map") == !a->list->keys.empty();
        if (!same) {
          Error(where, StrCat("x-kubernetes-list-type \"", lt,
                              "\" beside a $ref cannot change the type of \"",
                              target, "\""));
        }
      });
    }
  }

  std::optional<ElementRelationship> MapRelationship(const Value& v,
                                                     const std::string& where) {
    if (v.IsString() && v.AsString() == "atomic")
      return ElementRelationship::kAtomic;
    if (v.IsString() && v.AsString() == "granular")
      return ElementRelationship::kSeparable;
    Error(where, StrCat("unknown x-kubernetes-map-type ", DebugString(v),
                        " (expected atomic or granular)"));
    return std::nullopt;
  }

  // The node's `type`: "" when absent. A list form may add "null".
  std::string TypeName(const Value& node, const std::string& where) {
    const Value* t = Find(node, "type");
    if (t == nullptr || t->IsNull()) return "";
    if (t->IsString()) return t->AsString();
    if (t->IsList()) {
      std::vector<std::string> types;
      for (const Value& e : t->list()) {
        if (!e.IsString()) {
          Error(where, StrCat("type must be a string, got ", DebugString(*t)));
          return "";
        }
        if (e.AsString() != "null") types.push_back(e.AsString());
      }
      if (types.size() > 1) {
        Error(where, StrCat("a schema with several types (", DebugString(*t),
                            ") is not supported"));
        return "";
      }
      return types.empty() ? "" : types[0];
    }
    Error(where, StrCat("type must be a string, got ", DebugString(*t)));
    return "";
  }

  // The scalar of a `type: string` node. Kubernetes makes every format but
  // `byte` untyped, and its built-in types carry those formats on named
  // definitions (Time, MicroTime, IntOrString). Formats on inline nodes come
  // from CRDs, whose value validations (`format` among them) the API server
  // strips before it builds the schema for server-side apply; only
  // `int-or-string`, which widens the type, is kept there.
  static ScalarType StringScalar(const std::string* format, bool definition) {
    if (format == nullptr || format->empty() || *format == "byte")
      return ScalarType::kString;
    if (definition || *format == "int-or-string") return ScalarType::kUntyped;
    return ScalarType::kString;
  }

  Atom Convert(const Value& node, const std::string& where, bool preserve,
               absl::string_view def_name, bool crd_root) {
    if (!node.IsMap()) {
      Error(where, StrCat("expected a schema object, got ", DebugString(node)));
      return DeducedAtom();
    }
    preserve = preserve || IsTrue(node, kPreserveExt);
    std::string type = TypeName(node, where);
    auto present = [&node](absl::string_view key) -> const Value* {
      const Value* v = Find(node, key);
      return v != nullptr && !v->IsNull() ? v : nullptr;
    };
    const Value* props = present("properties");
    const Value* items = present("items");
    const Value* addl = present("additionalProperties");
    bool embed = opts_.crd &&
                 (crd_root || IsTrue(node, "x-kubernetes-embedded-resource"));
    if (crd_root || IsTrue(node, "x-kubernetes-embedded-resource"))
      ForbidDefaultsInMetadata(node, where);

    NodeKind kind = NodeKind::kAny;
    std::optional<ScalarType> scalar;
    if (IsTrue(node, "x-kubernetes-int-or-string") ||
        def_name == kQuantityName) {
      kind = NodeKind::kScalar;
      scalar = ScalarType::kUntyped;
    } else if (type.empty()) {
      // Old Kubernetes documents omit `type: object` on structs.
      if (props != nullptr || (addl != nullptr && addl->IsMap()) || embed) {
        kind = NodeKind::kObject;
      } else if (items != nullptr) {
        kind = NodeKind::kArray;
      }
    } else if (type == "object") {
      kind = NodeKind::kObject;
    } else if (type == "array") {
      kind = NodeKind::kArray;
    } else if (type == "integer" || type == "number") {
      kind = NodeKind::kScalar;
      scalar = ScalarType::kNumeric;
    } else if (type == "boolean") {
      kind = NodeKind::kScalar;
      scalar = ScalarType::kBoolean;
    } else if (type == "string") {
      kind = NodeKind::kScalar;
      scalar = StringScalar(FindString(node, "format"), !def_name.empty());
    } else {
      Error(where, StrCat("unrecognized type \"", type, "\""));
      kind = NodeKind::kScalar;
      scalar = ScalarType::kUntyped;
    }
    if (embed && kind != NodeKind::kObject) {
      Error(where,
            StrCat("x-kubernetes-embedded-resource needs an object, not ",
                   NodeKindName(kind)));
      embed = false;
    }

    Atom atom;
    switch (kind) {
      case NodeKind::kScalar:
        atom.scalar = scalar;
        break;
      case NodeKind::kAny:
        atom = DeducedAtom();
        break;
      case NodeKind::kArray:
        atom.list = ConvertList(node, items, where, preserve);
        break;
      case NodeKind::kObject:
        atom.map = ConvertObject(node, props, addl, where, preserve, embed);
        break;
    }
    CheckMarkers(node, where, kind, &atom);
    return atom;
  }

  // The apiserver rejects a CRD with a `default` at or below the metadata
  // of a resource (its root, or an embedded resource): defaults there must
  // not be set.
  void ForbidDefaultsInMetadata(const Value& resource,
                                const std::string& where) {
    const Value* props = Find(resource, "properties");
    const Value* meta = props != nullptr ? Find(*props, "metadata") : nullptr;
    if (meta != nullptr)
      ForbidDefaults(*meta, StrCat(where, ".properties.metadata"));
  }

  void ForbidDefaults(const Value& node, const std::string& where) {
    if (!node.IsMap()) return;
    if (const Value* d = Find(node, "default"); d != nullptr && !d->IsNull())
      Error(StrCat(where, ".default"), "must not be set inside metadata");
    if (const Value* p = Find(node, "properties"); p != nullptr && p->IsMap()) {
      for (const MapEntry& e : p->map())
        ForbidDefaults(e.value, StrCat(where, ".properties.", e.key));
    }
    for (absl::string_view key : {"items", "additionalProperties", "not"}) {
      if (const Value* v = Find(node, key))
        ForbidDefaults(*v, StrCat(where, ".", key));
    }
    for (absl::string_view key : {"items", "allOf", "anyOf", "oneOf"}) {
      const Value* v = Find(node, key);
      if (v == nullptr || !v->IsList()) continue;
      for (size_t i = 0; i < v->list().size(); ++i)
        ForbidDefaults(v->list()[i], StrCat(where, ".", key, "[", i, "]"));
    }
  }

  // x-kubernetes-list-type and -map-type outside their own kind of node.
  void CheckMarkers(const Value& node, const std::string& where, NodeKind kind,
                    Atom* atom) {
    if (kind != NodeKind::kArray) {
      if (const Value* lt = Find(node, kListTypeExt)) {
        // Kubernetes marks byte strings `atomic`: harmless on a scalar.
        bool harmless = lt->IsString() && lt->AsString() == "atomic" &&
                        kind != NodeKind::kObject;
        if (!harmless) {
          Error(where,
                StrCat("x-kubernetes-list-type ", DebugString(*lt),
                       " is set on a schema of type ", NodeKindName(kind),
                       " (only arrays have a list "
                       "type)"));
        }
      }
      if (Find(node, kListMapKeysExt) != nullptr) {
        Error(where, StrCat("x-kubernetes-list-map-keys is set on a schema of "
                            "type ",
                            NodeKindName(kind), " (only arrays have keys)"));
      }
    }
    if (kind == NodeKind::kObject) return;  // ConvertObject read the map type
    const Value* mt = Find(node, kMapTypeExt);
    if (mt == nullptr) return;
    std::optional<ElementRelationship> rel = MapRelationship(*mt, where);
    if (!rel) return;
    if (kind == NodeKind::kAny) {
      atom->map->element_relationship = *rel;
    } else if (!(kind == NodeKind::kScalar &&
                 *rel == ElementRelationship::kAtomic)) {
      Error(where, StrCat("x-kubernetes-map-type ", DebugString(*mt),
                          " is set on a schema of type ", NodeKindName(kind),
                          " (only objects have a map type)"));
    }
  }

  std::shared_ptr<MapType> ConvertObject(const Value& node, const Value* props,
                                         const Value* addl,
                                         const std::string& where,
                                         bool preserve, bool embed) {
    auto map = std::make_shared<MapType>();
    if (props != nullptr && !props->IsMap()) {
      Error(where, "properties must be a map");
      props = nullptr;
    }
    std::vector<const MapEntry*> entries;
    if (props != nullptr) {
      for (const MapEntry& e : props->map()) entries.push_back(&e);
    }
    std::sort(
        entries.begin(), entries.end(),
        [](const MapEntry* a, const MapEntry* b) { return a->key < b->key; });
    for (const MapEntry* e : entries) {
      if (embed && (e->key == "apiVersion" || e->key == "kind" ||
                    e->key == "metadata")) {
        continue;  // replaced below, as the API server does
      }
      std::string fwhere = StrCat(where, ".properties.", e->key);
      StructField f;
      f.name = e->key;
      f.type = Ref(e->value, fwhere, preserve);
      if (e->value.IsMap()) {
        const Value* inner = nullptr;
        RefString(e->value, &inner);
        ReadDefault(e->value, inner, fwhere, f.type, &f.default_value,
                    &f.nullable);
      }
      map->fields.push_back(std::move(f));
    }
    if (embed) {
      StructField api_version{"apiVersion",
                              InlineRef(ScalarAtom(ScalarType::kString)),
                              std::nullopt, false};
      StructField kind{"kind", InlineRef(ScalarAtom(ScalarType::kString)),
                       std::nullopt, false};
      StructField metadata{"metadata", NamedRef(kObjectMetaName), std::nullopt,
                           false};
      map->fields.push_back(std::move(api_version));
      map->fields.push_back(std::move(kind));
      map->fields.push_back(std::move(metadata));
      std::sort(map->fields.begin(), map->fields.end(),
                [](const StructField& a, const StructField& b) {
                  return a.name < b.name;
                });
    }
    bool has_props = props != nullptr || embed;

    if (addl != nullptr && addl->IsBool()) {
      if (addl->AsBool()) map->element_type = NamedRef(kDeducedTypeName);
    } else if (addl != nullptr && addl->IsMap()) {
      std::string awhere = StrCat(where, ".additionalProperties");
      TypeRef et = Ref(*addl, awhere, preserve);
      const Value* inner = nullptr;
      RefString(*addl, &inner);
      ReadDefault(*addl, inner, awhere, et, &et.default_value, &et.nullable);
      map->element_type = std::move(et);
    } else if (addl != nullptr) {
      Error(where, "additionalProperties must be a boolean or a schema");
    } else if (!has_props) {
      // A free-form object: any keys, values deduced.
      map->element_type = InlineRef(DeducedAtom());
    } else if (preserve) {
      map->element_type = NamedRef(kDeducedTypeName);
    }

    if (const Value* mt = Find(node, kMapTypeExt)) {
      if (std::optional<ElementRelationship> rel = MapRelationship(*mt, where))
        map->element_relationship = *rel;
    }
    if (const Value* unions = Find(node, "x-kubernetes-unions")) {
      ReadUnions(*unions, where, map.get());
    }
    return map;
  }

  void ReadUnions(const Value& v, const std::string& where, MapType* map) {
    std::string uwhere = StrCat(where, ".x-kubernetes-unions");
    if (!v.IsList()) {
      Error(uwhere, "must be a list of unions");
      return;
    }
    std::set<std::string> used;
    auto use = [&](const std::string& field) {
      if (map->FindField(field) == nullptr) {
        Error(uwhere,
              StrCat("\"", field, "\" is not a property of the object"));
      }
      if (!used.insert(field).second) {
        Error(uwhere,
              StrCat("\"", field, "\" appears more than once in the unions"));
      }
    };
    for (const Value& u : v.list()) {
      if (!u.IsMap()) {
        Error(uwhere, StrCat("a union must be a map, got ", DebugString(u)));
        continue;
      }
      Union un;
      if (const Value* d = Find(u, "discriminator");
          d != nullptr && !d->IsNull()) {
        if (!d->IsString()) {
          Error(uwhere, "discriminator must be a string");
        } else {
          un.discriminator = d->AsString();
          use(d->AsString());
        }
      }
      un.deduce_invalid_discriminator = IsTrue(u, "deduceInvalidDiscriminator");
      if (const Value* fs = Find(u, "fields-to-discriminateBy");
          fs != nullptr && !fs->IsNull()) {
        if (!fs->IsMap()) {
          Error(uwhere,
                "fields-to-discriminateBy must map field names to "
                "discriminator values");
          continue;
        }
        std::vector<const MapEntry*> entries;
        for (const MapEntry& e : fs->map()) entries.push_back(&e);
        std::sort(entries.begin(), entries.end(),
                  [](const MapEntry* a, const MapEntry* b) {
                    return a->key < b->key;
                  });
        std::set<std::string> values;
        for (const MapEntry* e : entries) {
          if (!e->value.IsString()) {
            Error(uwhere, StrCat("fields-to-discriminateBy.", e->key,
                                 " must be a string"));
            continue;
          }
          if (!values.insert(e->value.AsString()).second) {
            Error(uwhere,
                  StrCat("several fields have the discriminator value \"",
                         e->value.AsString(), "\""));
          }
          use(e->key);
          un.fields.push_back(UnionField{e->key, e->value.AsString()});
        }
      }
      map->unions.push_back(std::move(un));
    }
  }

  std::shared_ptr<ListType> ConvertList(const Value& node, const Value* items,
                                        const std::string& where,
                                        bool preserve) {
    auto list = std::make_shared<ListType>();
    std::string iwhere = StrCat(where, ".items");
    if (items != nullptr && items->IsList()) {
      if (items->list().size() == 1) {
        items = &items->list()[0];
      } else {
        Error(where, "items must be exactly one schema");
        items = nullptr;
      }
    }
    if (items == nullptr) {
      Error(where, "an array needs `items`");
      list->element_type = NamedRef(kUntypedAtomicTypeName);
    } else {
      list->element_type = Ref(*items, iwhere, preserve);
      if (items->IsMap()) {
        const Value* inner = nullptr;
        RefString(*items, &inner);
        ReadDefault(*items, inner, iwhere, list->element_type,
                    &list->element_type.default_value,
                    &list->element_type.nullable);
      }
    }
    ListRelationship(node, where, list.get());
    return list;
  }

  // x-kubernetes-list-type (and -list-map-keys), else the strategic merge
  // patch markers.
  void ListRelationship(const Value& node, const std::string& where,
                        ListType* list) {
    const Value* lt = Find(node, kListTypeExt);
    const Value* keys = Find(node, kListMapKeysExt);
    if (lt != nullptr) {
      std::string t = lt->IsString() ? lt->AsString() : DebugString(*lt);
      if (keys != nullptr && t != "map") {
        Error(where, StrCat("x-kubernetes-list-map-keys is set but "
                            "x-kubernetes-list-type is \"",
                            t, "\", not map"));
      }
      if (t == "atomic") return;
      if (t == "set") {
        list->element_relationship = ElementRelationship::kAssociative;
        CheckItems(where, kListTypeExt, list);
        return;
      }
      if (t != "map") {
        Error(where, StrCat("unknown x-kubernetes-list-type \"", t,
                            "\" (expected atomic, set or map)"));
        return;
      }
      list->element_relationship = ElementRelationship::kAssociative;
      if (keys == nullptr) {
        Error(where,
              "x-kubernetes-list-type is map but "
              "x-kubernetes-list-map-keys is missing");
        return;
      }
      bool ok = keys->IsList() && !keys->list().empty();
      for (const Value& k : ok ? keys->list() : List{}) {
        ok = ok && k.IsString() && !k.AsString().empty();
      }
      if (!ok) {
        Error(where, StrCat("x-kubernetes-list-map-keys must be a non-empty "
                            "list of property names, got ",
                            DebugString(*keys)));
        return;
      }
      for (const Value& k : keys->list()) {
        if (std::find(list->keys.begin(), list->keys.end(), k.AsString()) !=
            list->keys.end()) {
          Error(where, StrCat("x-kubernetes-list-map-keys names \"",
                              k.AsString(), "\" twice"));
          return;
        }
        list->keys.push_back(k.AsString());
      }
      CheckItems(where, kListMapKeysExt, list);
      return;
    }
    if (keys != nullptr) {
      Error(where,
            "x-kubernetes-list-map-keys is set but "
            "x-kubernetes-list-type is not map");
      return;
    }
    const Value* ps = Find(node, kPatchStrategyExt);
    if (ps == nullptr) return;
    std::string s = ps->IsString() ? ps->AsString() : DebugString(*ps);
    if (s == "retainKeys") return;
    if (s != "merge" && s != "merge,retainKeys") {
      Error(where, StrCat("unknown x-kubernetes-patch-strategy \"", s,
                          "\" on an array (expected merge, retainKeys or "
                          "merge,retainKeys)"));
      return;
    }
    list->element_relationship = ElementRelationship::kAssociative;
    if (const Value* key = Find(node, kPatchMergeKeyExt)) {
      if (!key->IsString() || key->AsString().empty()) {
        Error(where, StrCat("x-kubernetes-patch-merge-key must be a property "
                            "name, got ",
                            DebugString(*key)));
        return;
      }
      list->keys.push_back(key->AsString());
      CheckItems(where, kPatchMergeKeyExt, list);
    } else {
      CheckItems(where, kPatchStrategyExt, list);
    }
  }

  // The items of an associative list, once the referenced types are known:
  // a set holds scalars, a keyed list objects whose keys are scalar
  // properties.
  void CheckItems(const std::string& where, absl::string_view ext,
                  const ListType* list) {
    TypeRef items = list->element_type;
    std::vector<std::string> keys = list->keys;
    std::string marker(ext);
    deferred_.push_back(
        [this, where, items, keys, marker](const Resolver& resolve) {
          const Atom* a = resolve(items);
          if (a == nullptr) return;
          if (keys.empty()) return;
          if (!a->map) {
            Error(where, StrCat(marker,
                                " names keys, but the items are not "
                                "objects"));
            return;
          }
          for (const std::string& k : keys) {
            const StructField* f = a->map->FindField(k);
            if (f == nullptr && IsMetadataProperty(*a, k, resolve)) continue;
            if (f == nullptr) {
              Error(where, StrCat(marker, " names \"", k,
                                  "\", which is not a property of the items"));
              continue;
            }
            const Atom* fa = resolve(f->type);
            if (fa != nullptr && !fa->scalar) {
              Error(where, StrCat(marker, " names \"", k,
                                  "\", which is not a scalar property of the "
                                  "items"));
            }
          }
        });
  }

  // Whether `key` is a property of the `metadata` of objects `a`. Kubernetes'
  // own API keys lists of objects by their metadata's name
  // (CSIStorageCapacityList.items: `x-kubernetes-list-map-keys: [name]`);
  // that is accepted as Kubernetes accepts it.
  static bool IsMetadataProperty(const Atom& a, const std::string& key,
                                 const Resolver& resolve) {
    const StructField* metadata = a.map->FindField("metadata");
    if (metadata == nullptr) return false;
    const Atom* m = resolve(metadata->type);
    return m != nullptr && m->map && m->map->FindField(key) != nullptr;
  }

  // Every default must validate against its own node.
  void CheckDefaults(const std::vector<TypeDef>& types) {
    std::vector<TypeDef> all = CopyTypes(types);
    std::vector<std::string> type_names(defaults_.size());
    for (size_t i = 0; i < defaults_.size(); ++i) {
      const TypeRef& t = defaults_[i].type;
      if (!t.named_type.empty()) {
        type_names[i] = t.named_type;
      } else {
        type_names[i] = StrCat("__smdx_default_check_", i);
        all.push_back(TypeDef{type_names[i], CopyAtom(*t.inlined)});
      }
    }
    absl::StatusOr<std::shared_ptr<const Schema>> schema =
        Schema::Build(std::move(all));
    if (!schema.ok()) return;  // the caller's own Build reports it
    for (size_t i = 0; i < defaults_.size(); ++i) {
      absl::StatusOr<Type> type = Type::Named(*schema, type_names[i]);
      if (!type.ok()) continue;
      absl::Status st = Validate(*type, defaults_[i].value);
      if (!st.ok()) {
        Error(defaults_[i].where,
              StrCat("default ", DebugString(defaults_[i].value),
                     " does not match the schema: ", st.message()));
      }
    }
  }

  OpenApiConverterOptions opts_;
  std::vector<std::string> errors_;
  std::vector<DefaultCheck> defaults_;
  std::vector<std::function<void(const Resolver&)>> deferred_;
};

absl::StatusOr<std::vector<TypeDef>> TypesFromDefinitions(
    const Value* definitions, absl::string_view where_prefix,
    std::string ref_prefix) {
  std::vector<TypeDef> types;
  Value empty = Value::MakeMap();
  if (definitions == nullptr || definitions->IsNull()) definitions = &empty;
  if (!definitions->IsMap()) {
    return absl::InvalidArgumentError(
        StrCat(where_prefix, ": expected a map of schemas"));
  }
  OpenApiConverterOptions opts;
  opts.ref_prefix = std::move(ref_prefix);
  opts.definitions = definitions;
  OpenApiConverter c(std::move(opts));
  std::vector<const MapEntry*> entries;
  for (const MapEntry& e : definitions->map()) entries.push_back(&e);
  std::sort(
      entries.begin(), entries.end(),
      [](const MapEntry* a, const MapEntry* b) { return a->key < b->key; });
  for (const MapEntry* e : entries) {
    std::string where = StrCat(where_prefix, ".", e->key);
    if (IsHelperName(e->key)) {
      return absl::InvalidArgumentError(
          StrCat(where, ": the name is reserved for a helper type"));
    }
    std::optional<Atom> atom = c.Definition(e->key, e->value, where);
    if (atom) types.push_back(TypeDef{e->key, *std::move(atom)});
  }
  for (TypeDef& t : DeducedTypes()) types.push_back(std::move(t));
  if (absl::Status st = c.Finish(types); !st.ok()) return st;
  return types;
}

// "monitoring.coreos.com/v1.Prometheus" ->
// "com.coreos.monitoring.v1.Prometheus", as the API server's definition namer
// spells types it has no Go type for.
std::string CrdTypeName(absl::string_view group, absl::string_view version,
                        absl::string_view kind) {
  std::vector<absl::string_view> parts = absl::StrSplit(group, '.');
  std::reverse(parts.begin(), parts.end());
  return StrCat(absl::StrJoin(parts, "."), ".", version, ".", kind);
}

// Marks every place in `a` nullable (the fields, the map values, the list
// items, inline types included).
void MarkNullable(Atom* a) {
  auto ref = [](TypeRef& r) {
    r.nullable = true;
    if (r.inlined) MarkNullable(r.inlined.get());
  };
  if (a->list) ref(a->list->element_type);
  if (a->map) {
    for (StructField& f : a->map->fields) {
      f.nullable = true;
      ref(f.type);
    }
    if (a->map->element_type) ref(*a->map->element_type);
  }
}

// ObjectMeta and ListMeta with everything they reference, copied from the
// built-in Kubernetes schema. Their places are nullable: the apiserver
// takes a custom resource's metadata out before it prunes the nulls its
// schema does not allow, and decodes it through the Go type, where a null
// is the zero value (a null label value is "", kubetypes' Coerce).
absl::StatusOr<std::vector<TypeDef>> MetaTypes() {
  absl::flat_hash_map<std::string, const TypeDef*> by_name;
  std::vector<std::shared_ptr<const Schema>> sources;
  for (absl::string_view root : {kObjectMetaName, kListMetaName}) {
    // Just these types' part of the embedded schema: parsing the whole
    // would cost every CRD load several milliseconds.
    absl::StatusOr<std::shared_ptr<const Schema>> k8s =
        KubernetesSchemaFor(root);
    if (!k8s.ok()) return k8s.status();
    for (const TypeDef& t : (*k8s)->types()) by_name.emplace(t.name, &t);
    sources.push_back(*std::move(k8s));
  }
  std::vector<TypeDef> out;
  std::set<std::string> seen;
  std::vector<std::string> todo = {std::string(kObjectMetaName),
                                   std::string(kListMetaName)};
  while (!todo.empty()) {
    std::string name = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(name).second) continue;
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      return absl::InternalError(
          StrCat("the built-in Kubernetes schema has no type \"", name, "\""));
    }
    out.push_back(TypeDef{name, CopyAtom(it->second->atom)});
    MarkNullable(&out.back().atom);
    CollectNamedRefs(it->second->atom, &todo);
  }
  return out;
}

const Value* CrdVersionSchemaNode(const Value& version, std::string* where,
                                  absl::string_view version_where) {
  const Value* s = Find(version, "schema");
  const Value* o = s != nullptr ? Find(*s, "openAPIV3Schema") : nullptr;
  if (o == nullptr || o->IsNull()) return nullptr;
  *where = StrCat(version_where, ".schema.openAPIV3Schema");
  return o;
}

// What a CRD says of all its versions.
struct CrdHeader {
  bool v1beta1 = false;
  const Value* spec = nullptr;
  std::string group;
  std::string kind;
  std::string list_kind;
  std::string plural;  // spec.names.plural
  // spec.preserveUnknownFields, which v1beta1 defaults to true.
  bool preserve_unknown_fields = false;
};

absl::StatusOr<CrdHeader> ReadCrdHeader(const Value& crd) {
  const std::string* api_version = FindString(crd, "apiVersion");
  const std::string* kind = FindString(crd, "kind");
  if (api_version == nullptr || kind == nullptr ||
      *kind != "CustomResourceDefinition" ||
      (*api_version != "apiextensions.k8s.io/v1" &&
       *api_version != "apiextensions.k8s.io/v1beta1")) {
    return absl::InvalidArgumentError(
        "expected a CustomResourceDefinition (apiextensions.k8s.io/v1 or "
        "v1beta1)");
  }
  CrdHeader h;
  h.v1beta1 = *api_version == "apiextensions.k8s.io/v1beta1";
  h.spec = Find(crd, "spec");
  if (h.spec == nullptr || !h.spec->IsMap())
    return absl::InvalidArgumentError("spec: missing");
  const std::string* group = FindString(*h.spec, "group");
  if (group == nullptr || group->empty())
    return absl::InvalidArgumentError("spec.group: missing");
  h.group = *group;
  const Value* names = Find(*h.spec, "names");
  const std::string* res_kind = names ? FindString(*names, "kind") : nullptr;
  if (res_kind == nullptr || res_kind->empty())
    return absl::InvalidArgumentError("spec.names.kind: missing");
  h.kind = *res_kind;
  if (const std::string* plural = FindString(*names, "plural"))
    h.plural = *plural;
  const std::string* list_kind = FindString(*names, "listKind");
  h.list_kind = list_kind != nullptr && !list_kind->empty()
                    ? *list_kind
                    : StrCat(*res_kind, "List");
  h.preserve_unknown_fields = h.v1beta1;
  if (const Value* p = Find(*h.spec, "preserveUnknownFields");
      p != nullptr && p->IsBool()) {
    h.preserve_unknown_fields = p->AsBool();
  }
  return h;
}

// One version of a CRD: its name, its schema (and where it is, for
// errors; v1beta1 falls back to spec.validation) and whether it has the
// status subresource (v1beta1 also from spec.subresources).
struct CrdVersionInput {
  std::string name;
  const Value* schema = nullptr;
  std::string where;
  bool status_subresource = false;
  std::vector<std::string> scale_replicas_path;
};

bool HasStatusSubresource(const Value& holder) {
  const Value* sub = Find(holder, "subresources");
  const Value* status = sub != nullptr ? Find(*sub, "status") : nullptr;
  return status != nullptr && !status->IsNull();
}

// The field names of subresources.scale.specReplicasPath (".spec.replicas"),
// or empty.
std::vector<std::string> ScaleReplicasPath(const Value& holder) {
  const Value* sub = Find(holder, "subresources");
  const Value* scale = sub != nullptr ? Find(*sub, "scale") : nullptr;
  const std::string* path =
      scale != nullptr ? FindString(*scale, "specReplicasPath") : nullptr;
  if (path == nullptr) return {};
  absl::string_view p = *path;
  absl::ConsumePrefix(&p, ".");
  if (p.empty()) return {};
  return absl::StrSplit(p, '.');
}

absl::StatusOr<std::vector<CrdVersionInput>> ReadCrdVersions(
    const CrdHeader& h) {
  const Value& spec = *h.spec;
  const bool top_status = h.v1beta1 && HasStatusSubresource(spec);
  const std::vector<std::string> top_scale =
      h.v1beta1 ? ScaleReplicasPath(spec) : std::vector<std::string>();
  const Value* top_schema = nullptr;
  std::string top_where;
  if (h.v1beta1) {
    const Value* validation = Find(spec, "validation");
    const Value* o =
        validation != nullptr ? Find(*validation, "openAPIV3Schema") : nullptr;
    if (o != nullptr && !o->IsNull()) {
      top_schema = o;
      top_where = "spec.validation.openAPIV3Schema";
    }
  }
  std::vector<CrdVersionInput> versions;
  const Value* vs = Find(spec, "versions");
  if (vs != nullptr && vs->IsList() && !vs->list().empty()) {
    for (size_t i = 0; i < vs->list().size(); ++i) {
      const Value& v = vs->list()[i];
      std::string vwhere = StrCat("spec.versions[", i, "]");
      const std::string* name = FindString(v, "name");
      if (name == nullptr || name->empty())
        return absl::InvalidArgumentError(StrCat(vwhere, ".name: missing"));
      CrdVersionInput in{*name, nullptr, "",
                         top_status || HasStatusSubresource(v),
                         ScaleReplicasPath(v)};
      if (in.scale_replicas_path.empty()) in.scale_replicas_path = top_scale;
      in.schema = CrdVersionSchemaNode(v, &in.where, vwhere);
      if (in.schema == nullptr && top_schema != nullptr) {
        in.schema = top_schema;
        in.where = top_where;
      }
      versions.push_back(std::move(in));
    }
    return versions;
  }
  if (const std::string* v = FindString(spec, "version");
      h.v1beta1 && v != nullptr && !v->empty()) {
    versions.push_back(
        CrdVersionInput{*v, top_schema, top_where, top_status, top_scale});
    return versions;
  }
  return absl::InvalidArgumentError("spec.versions: missing");
}

// The list kind's type: items of the version's type, ListMeta.
Atom CrdListAtom(const std::string& item_type) {
  Atom list;
  list.map = std::make_shared<MapType>();
  TypeRef items;
  items.inlined = std::make_shared<Atom>();
  items.inlined->list = std::make_shared<ListType>();
  items.inlined->list->element_type = NamedRef(item_type);
  list.map->fields = {
      StructField{"apiVersion", InlineRef(ScalarAtom(ScalarType::kString)),
                  std::nullopt, false},
      StructField{"items", std::move(items), std::nullopt, false},
      StructField{"kind", InlineRef(ScalarAtom(ScalarType::kString)),
                  std::nullopt, false},
      StructField{"metadata", NamedRef(kListMetaName), std::nullopt, false}};
  return list;
}

absl::StatusOr<CrdVersionSchema> ConvertCrdVersion(
    const CrdHeader& h, const CrdVersionInput& v,
    const std::vector<TypeDef>& meta) {
  CrdVersionSchema r;
  r.api_version = StrCat(h.group, "/", v.name);
  r.kind = h.kind;
  r.type_name = CrdTypeName(h.group, v.name, h.kind);
  r.list_kind = h.list_kind;
  r.list_type_name = CrdTypeName(h.group, v.name, h.list_kind);
  r.status_subresource = v.status_subresource;
  r.scale_replicas_path = v.scale_replicas_path;
  r.resource = h.plural;
  OpenApiConverterOptions opts;
  opts.crd = true;
  opts.preserve_unknown_fields = h.preserve_unknown_fields;
  OpenApiConverter c(std::move(opts));
  std::vector<TypeDef> types;
  Atom root;
  if (v.schema != nullptr) {
    root = c.CrdRoot(*v.schema, v.where);
  } else {
    // No schema: the API server publishes a bare `type: object`.
    root.map = std::make_shared<MapType>();
    root.map->element_type = InlineRef(DeducedAtom());
  }
  types.push_back(TypeDef{r.type_name, std::move(root)});
  types.push_back(TypeDef{r.list_type_name, CrdListAtom(r.type_name)});
  for (const TypeDef& t : meta) {
    if (t.name == r.type_name || t.name == r.list_type_name) {
      return absl::InvalidArgumentError(StrCat(
          "spec.names: the type name \"", t.name, "\" is taken by Kubernetes"));
    }
    if (!IsHelperName(t.name))
      types.push_back(TypeDef{t.name, CopyAtom(t.atom)});
  }
  for (TypeDef& t : DeducedTypes()) types.push_back(std::move(t));
  SortTypes(&types);
  if (absl::Status st = c.Finish(types); !st.ok()) return st;
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::Build(std::move(types));
  if (!s.ok()) return s.status();
  r.schema = *std::move(s);
  return r;
}

absl::StatusOr<std::vector<CrdVersionSchema>> ConvertCrd(const Value& crd) {
  absl::StatusOr<CrdHeader> header = ReadCrdHeader(crd);
  if (!header.ok()) return header.status();
  absl::StatusOr<std::vector<CrdVersionInput>> versions =
      ReadCrdVersions(*header);
  if (!versions.ok()) return versions.status();
  absl::StatusOr<std::vector<TypeDef>> meta = MetaTypes();
  if (!meta.ok()) return meta.status();
  std::vector<CrdVersionSchema> out;
  for (const CrdVersionInput& v : *versions) {
    absl::StatusOr<CrdVersionSchema> r = ConvertCrdVersion(*header, v, *meta);
    if (!r.ok()) return r.status();
    out.push_back(*std::move(r));
  }
  return out;
}

// A YAML stream or JSON text as its non-null documents.
absl::StatusOr<std::vector<Value>> ParseDocuments(absl::string_view text) {
  absl::StatusOr<std::vector<Value>> all =
      ParseYamlOrJsonDocuments(text, SchemaDocumentLimits());
  if (!all.ok()) return all.status();
  std::vector<Value> docs = *std::move(all);
  docs.erase(std::remove_if(docs.begin(), docs.end(),
                            [](const Value& v) { return v.IsNull(); }),
             docs.end());
  return docs;
}

}  // namespace

absl::StatusOr<std::vector<TypeDef>> TypesFromOpenApiV2(const Value& swagger) {
  if (!swagger.IsMap()) {
    return absl::InvalidArgumentError(
        "expected an OpenAPI v2 document (a map with `definitions`)");
  }
  return TypesFromDefinitions(Find(swagger, "definitions"), "definitions",
                              "#/definitions/");
}

absl::StatusOr<std::vector<TypeDef>> TypesFromOpenApiV3(const Value& doc) {
  if (!doc.IsMap()) {
    return absl::InvalidArgumentError(
        "expected an OpenAPI v3 document (a map with `components.schemas`)");
  }
  const Value* components = Find(doc, "components");
  const Value* schemas =
      components != nullptr ? Find(*components, "schemas") : nullptr;
  return TypesFromDefinitions(schemas, "components.schemas",
                              "#/components/schemas/");
}

absl::StatusOr<std::shared_ptr<const Schema>> SchemaFromOpenApiObject(
    const Value& schema_object, const std::string& root_name) {
  if (root_name.empty() || IsHelperName(root_name)) {
    return absl::InvalidArgumentError(
        StrCat("invalid root type name \"", root_name, "\""));
  }
  OpenApiConverter c(OpenApiConverterOptions{});
  std::vector<TypeDef> types;
  std::optional<Atom> root = c.Definition(root_name, schema_object, root_name,
                                          /*resource_root=*/true);
  if (!root) {
    return absl::InvalidArgumentError(
        StrCat(root_name, ": a schema object cannot be a $ref"));
  }
  types.push_back(TypeDef{root_name, *std::move(root)});
  for (TypeDef& t : DeducedTypes()) types.push_back(std::move(t));
  if (absl::Status st = c.Finish(types); !st.ok()) return st;
  return Schema::Build(std::move(types));
}

absl::StatusOr<std::vector<CrdVersionSchema>> SchemasFromCrd(const Value& crd) {
  absl::StatusOr<std::vector<CrdVersionSchema>> r = ConvertCrd(crd);
  if (r.ok()) return r;
  std::string prefix = "CustomResourceDefinition";
  const Value* metadata = Find(crd, "metadata");
  if (const std::string* name =
          metadata != nullptr ? FindString(*metadata, "name") : nullptr) {
    absl::StrAppend(&prefix, " ", *name);
  }
  return absl::Status(r.status().code(),
                      StrCat(prefix, ": ", r.status().message()));
}

SchemaFormat DetectSchemaFormat(const Value& doc) {
  if (!doc.IsMap()) return SchemaFormat::kUnknown;
  const std::string* kind = FindString(doc, "kind");
  const std::string* api_version = FindString(doc, "apiVersion");
  if (kind != nullptr && *kind == "CustomResourceDefinition" &&
      api_version != nullptr &&
      absl::StartsWith(*api_version, "apiextensions.k8s.io/")) {
    return SchemaFormat::kCrd;
  }
  bool schema_keys =
      Find(doc, "type") != nullptr || Find(doc, "properties") != nullptr;
  if (Find(doc, "swagger") != nullptr) return SchemaFormat::kOpenApiV2;
  if (Find(doc, "openapi") != nullptr) return SchemaFormat::kOpenApiV3;
  if (!schema_keys) {
    if (Find(doc, "definitions") != nullptr) return SchemaFormat::kOpenApiV2;
    if (Find(doc, "components") != nullptr) return SchemaFormat::kOpenApiV3;
    const Value* types = Find(doc, "types");
    if (types != nullptr && (types->IsList() || types->IsNull()))
      return SchemaFormat::kSmd;
  }
  for (const MapEntry& e : doc.map()) {
    static constexpr absl::string_view kSchemaKeys[] = {
        "type",  "properties", "items", "additionalProperties",
        "allOf", "anyOf",      "oneOf", "$ref"};
    for (absl::string_view k : kSchemaKeys) {
      if (e.key == k) return SchemaFormat::kOpenApiObject;
    }
    if (absl::StartsWith(e.key, "x-kubernetes-"))
      return SchemaFormat::kOpenApiObject;
  }
  return SchemaFormat::kUnknown;
}

absl::StatusOr<std::shared_ptr<const Schema>> LoadAnySchema(
    absl::string_view text, std::string* default_type) {
  if (default_type != nullptr) default_type->clear();
  absl::StatusOr<std::vector<Value>> docs = ParseDocuments(text);
  if (!docs.ok()) return docs.status();
  if (docs->empty()) return absl::InvalidArgumentError("empty schema document");
  std::vector<SchemaFormat> formats;
  for (const Value& d : *docs) formats.push_back(DetectSchemaFormat(d));
  if (docs->size() > 1) {
    for (SchemaFormat f : formats) {
      if (f != SchemaFormat::kCrd) {
        return absl::InvalidArgumentError(
            StrCat("expected one schema document, got ", docs->size(),
                   " (only CustomResourceDefinitions may be combined)"));
      }
    }
  }
  const Value& doc = docs->front();
  switch (formats.front()) {
    case SchemaFormat::kSmd:
      return Schema::ParseSmd(text);
    case SchemaFormat::kOpenApiV2:
    case SchemaFormat::kOpenApiV3: {
      absl::StatusOr<std::vector<TypeDef>> types =
          formats.front() == SchemaFormat::kOpenApiV2 ? TypesFromOpenApiV2(doc)
                                                      : TypesFromOpenApiV3(doc);
      if (!types.ok()) return types.status();
      return Schema::Build(*std::move(types));
    }
    case SchemaFormat::kOpenApiObject:
      if (default_type != nullptr)
        *default_type = std::string(kOpenApiObjectRootName);
      return SchemaFromOpenApiObject(doc, std::string(kOpenApiObjectRootName));
    case SchemaFormat::kCrd:
      break;
    case SchemaFormat::kUnknown:
      return absl::InvalidArgumentError(
          "unrecognized schema document: expected an SMD schema (`types`), an "
          "OpenAPI v2 or v3 document, an OpenAPI schema object or a "
          "CustomResourceDefinition");
  }
  std::vector<CrdVersionSchema> all;
  for (const Value& d : *docs) {
    absl::StatusOr<std::vector<CrdVersionSchema>> v = SchemasFromCrd(d);
    if (!v.ok()) return v.status();
    for (CrdVersionSchema& s : *v) all.push_back(std::move(s));
  }
  if (all.size() == 1) {
    if (default_type != nullptr) *default_type = all[0].type_name;
    return all[0].schema;
  }
  // Several versions or CRDs: one schema with all their types; the shared
  // ones (ObjectMeta, the helpers) once.
  std::vector<TypeDef> types;
  std::map<std::string, size_t> seen;
  for (const CrdVersionSchema& s : all) {
    for (const TypeDef& t : s.schema->types()) {
      if (seen.count(t.name) != 0) {
        bool shared = IsHelperName(t.name) ||
                      absl::StartsWith(t.name, "io.k8s.apimachinery.");
        if (!shared) {
          return absl::InvalidArgumentError(
              StrCat("type \"", t.name,
                     "\" is defined by two "
                     "CustomResourceDefinitions"));
        }
        continue;
      }
      seen.emplace(t.name, types.size());
      types.push_back(TypeDef{t.name, CopyAtom(t.atom)});
    }
  }
  SortTypes(&types);
  return Schema::Build(std::move(types));
}

const SchemaKind* SchemaSet::FindKind(absl::string_view api_version,
                                      absl::string_view kind) const {
  for (const SchemaKind& k : kinds) {
    if (k.api_version == api_version && k.kind == kind) return &k;
  }
  return nullptr;
}

absl::Status SchemaSetBuilder::AddTypes(std::vector<TypeDef> types) {
  for (TypeDef& t : types) {
    auto it = index_.find(t.name);
    if (it != index_.end()) {
      types_[it->second] = std::move(t);
      continue;
    }
    index_.emplace(t.name, types_.size());
    types_.push_back(std::move(t));
  }
  return absl::OkStatus();
}

namespace {

// The title of the documents the apiextensions-apiserver's OpenAPI builder
// makes of a group version of custom resources (its getOpenAPIV3Config),
// which the cluster's /openapi/v3 serves as they are.
constexpr absl::string_view kCustomResourceDocumentTitle =
    "Kubernetes CRD Swagger";

// The apiVersion and kind of an x-kubernetes-group-version-kind entry
// ({group, version, kind}); false when one is missing.
bool ReadGvk(const Value& g, std::string* api_version, std::string* kind) {
  const std::string* group = FindString(g, "group");
  const std::string* version = FindString(g, "version");
  const std::string* k = FindString(g, "kind");
  if (group == nullptr || version == nullptr || k == nullptr) return false;
  *api_version = group->empty() ? *version : StrCat(*group, "/", *version);
  *kind = *k;
  return true;
}

// Marks the kinds of a custom resources' /openapi/v3 document. Its paths
// name each resource ("/apis/G/V[/namespaces/{namespace}]/PLURAL/{name}",
// whose operations carry the kind's x-kubernetes-group-version-kind) and
// its subresources ("/{name}/status", "/{name}/scale"): every kind of a
// group version one of those resources is in is a custom resource (the
// resources' kinds and their list kinds).
void MarkCustomResources(const Value& doc, std::vector<SchemaKind>* kinds) {
  const Value* info = Find(doc, "info");
  const std::string* title =
      info != nullptr ? FindString(*info, "title") : nullptr;
  const Value* paths = Find(doc, "paths");
  if (title == nullptr || *title != kCustomResourceDocumentTitle ||
      paths == nullptr || !paths->IsMap()) {
    return;
  }
  struct Resource {
    std::string api_version;
    std::string kind;
    bool status = false;
    bool scale = false;
    std::string plural;  // the path's last name before /{name}
  };
  std::map<std::string, Resource> resources;  // by the path before /{name}
  constexpr absl::string_view kName = "/{name}";
  for (const MapEntry& p : paths->map()) {
    const absl::string_view path = p.key;
    const size_t at = path.rfind(kName);
    if (at == absl::string_view::npos) continue;
    Resource& r = resources[std::string(path.substr(0, at))];
    r.plural = std::string(path.substr(0, at).substr(
        path.substr(0, at).rfind('/') + 1));
    const absl::string_view rest = path.substr(at + kName.size());
    if (rest == "/status") r.status = true;
    if (rest == "/scale") r.scale = true;
    if (!rest.empty() || !p.value.IsMap()) continue;
    for (const MapEntry& op : p.value.map()) {
      const Value* gvk = Find(op.value, "x-kubernetes-group-version-kind");
      if (gvk != nullptr && ReadGvk(*gvk, &r.api_version, &r.kind)) break;
    }
  }
  for (const auto& [path, r] : resources) {
    if (r.kind.empty()) continue;
    for (SchemaKind& k : *kinds) {
      if (k.api_version != r.api_version) continue;
      k.custom_resource = true;
      if (k.kind == r.kind) {
        k.status_subresource = r.status;
        k.scale_replicas_unknown = r.scale;
        k.resource = r.plural;
      }
    }
  }
}

}  // namespace

std::vector<SchemaKind> OpenApiKinds(const Value& doc) {
  SchemaFormat format = DetectSchemaFormat(doc);
  const Value* defs = nullptr;
  if (format == SchemaFormat::kOpenApiV2) {
    defs = Find(doc, "definitions");
  } else if (const Value* c = Find(doc, "components"); c != nullptr) {
    defs = Find(*c, "schemas");
  }
  std::vector<SchemaKind> out;
  if (defs == nullptr || !defs->IsMap()) return out;
  for (const MapEntry& d : defs->map()) {
    const Value* gvks = Find(d.value, "x-kubernetes-group-version-kind");
    if (gvks == nullptr || !gvks->IsList()) continue;
    for (const Value& g : gvks->list()) {
      SchemaKind k;
      if (!ReadGvk(g, &k.api_version, &k.kind)) continue;
      k.type_name = d.key;
      out.push_back(std::move(k));
    }
  }
  if (format == SchemaFormat::kOpenApiV3) MarkCustomResources(doc, &out);
  return out;
}

absl::Status SchemaSetBuilder::Add(absl::string_view text) {
  absl::StatusOr<std::vector<Value>> docs = ParseDocuments(text);
  if (!docs.ok()) return docs.status();
  if (docs->empty()) return absl::InvalidArgumentError("empty schema document");
  for (size_t i = 0; i < docs->size(); ++i) {
    const Value& doc = (*docs)[i];
    ++documents_;
    std::string where =
        docs->size() > 1 ? StrCat("document ", i + 1, ": ") : std::string();
    auto fail = [&](const absl::Status& s) {
      return absl::Status(s.code(), StrCat(where, s.message()));
    };
    SchemaFormat format = DetectSchemaFormat(doc);
    switch (format) {
      case SchemaFormat::kSmd: {
        if (docs->size() > 1) {
          return fail(absl::InvalidArgumentError(
              "an SMD schema must be a document of its own"));
        }
        absl::StatusOr<std::shared_ptr<const Schema>> s =
            Schema::ParseSmd(text);
        if (!s.ok()) return s.status();
        std::vector<TypeDef> types;
        for (const TypeDef& t : (*s)->types())
          types.push_back(TypeDef{t.name, CopyAtom(t.atom)});
        if (absl::Status st = AddTypes(std::move(types)); !st.ok()) return st;
        break;
      }
      case SchemaFormat::kOpenApiV2:
      case SchemaFormat::kOpenApiV3: {
        absl::StatusOr<std::vector<TypeDef>> types =
            format == SchemaFormat::kOpenApiV2 ? TypesFromOpenApiV2(doc)
                                               : TypesFromOpenApiV3(doc);
        if (!types.ok()) return fail(types.status());
        if (absl::Status st = AddTypes(*std::move(types)); !st.ok()) return st;
        for (SchemaKind& k : OpenApiKinds(doc)) kinds_.push_back(std::move(k));
        openapi_meta_last_ = true;
        break;
      }
      case SchemaFormat::kOpenApiObject: {
        absl::StatusOr<std::shared_ptr<const Schema>> s =
            SchemaFromOpenApiObject(doc, std::string(kOpenApiObjectRootName));
        if (!s.ok()) return fail(s.status());
        std::vector<TypeDef> types;
        for (const TypeDef& t : (*s)->types())
          types.push_back(TypeDef{t.name, CopyAtom(t.atom)});
        if (absl::Status st = AddTypes(std::move(types)); !st.ok()) return st;
        default_types_.push_back(std::string(kOpenApiObjectRootName));
        break;
      }
      case SchemaFormat::kCrd: {
        absl::StatusOr<std::vector<CrdVersionSchema>> versions =
            SchemasFromCrd(doc);
        if (!versions.ok()) return fail(versions.status());
        for (const CrdVersionSchema& v : *versions) {
          std::vector<TypeDef> types;
          for (const TypeDef& t : v.schema->types())
            types.push_back(TypeDef{t.name, CopyAtom(t.atom)});
          if (absl::Status st = AddTypes(std::move(types)); !st.ok()) return st;
          kinds_.push_back(SchemaKind{v.api_version, v.kind, v.type_name, true,
                                      v.status_subresource,
                                      v.scale_replicas_path, false,
                                      v.resource});
          kinds_.push_back(SchemaKind{v.api_version, v.list_kind,
                                      v.list_type_name, true, false, {},
                                      false, ""});
        }
        openapi_meta_last_ = false;
        if (versions->size() == 1) {
          default_types_.push_back((*versions)[0].type_name);
        } else {
          default_types_.push_back("");
        }
        break;
      }
      case SchemaFormat::kUnknown:
        return fail(absl::InvalidArgumentError(
            "unrecognized schema document: expected an SMD schema (`types`), "
            "an OpenAPI v2 or v3 document, an OpenAPI schema object or a "
            "CustomResourceDefinition"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<SchemaSet> SchemaSetBuilder::Build() && {
  SchemaSet out;
  // A cluster's OpenAPI after the kind's CRD: the CRD says where the
  // scale's replicas are, which the OpenAPI cannot.
  for (size_t i = 0; i < kinds_.size(); ++i) {
    if (!kinds_[i].scale_replicas_unknown) continue;
    for (size_t j = 0; j < i; ++j) {
      if (kinds_[j].api_version == kinds_[i].api_version &&
          kinds_[j].kind == kinds_[i].kind &&
          !kinds_[j].scale_replicas_path.empty()) {
        kinds_[i].scale_replicas_path = kinds_[j].scale_replicas_path;
        kinds_[i].scale_replicas_unknown = false;
      }
    }
  }
  // With custom resources, ObjectMeta and ListMeta are theirs (MetaTypes,
  // which a CRD's types hold: nulls in them are the Go type's zero values,
  // never pruned), whatever document came last: a cluster's OpenAPI has
  // them without.
  if (openapi_meta_last_ &&
      std::any_of(kinds_.begin(), kinds_.end(),
                  [](const SchemaKind& k) { return k.custom_resource; })) {
    absl::StatusOr<std::vector<TypeDef>> meta = MetaTypes();
    if (!meta.ok()) return meta.status();
    if (absl::Status st = AddTypes(*std::move(meta)); !st.ok()) return st;
  }
  // Later kinds first, so FindKind sees the latest definition.
  for (auto it = kinds_.rbegin(); it != kinds_.rend(); ++it)
    out.kinds.push_back(std::move(*it));
  if (documents_ == 1 && default_types_.size() == 1)
    out.default_type = default_types_[0];
  SortTypes(&types_);
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::Build(std::move(types_));
  if (!s.ok()) return s.status();
  out.schema = *std::move(s);
  return out;
}

}  // namespace smdx
