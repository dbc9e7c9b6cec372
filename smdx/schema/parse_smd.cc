// Reading the SMD schema YAML format into TypeDefs.
#include <initializer_list>

#include "absl/strings/str_cat.h"
#include "smdx/schema/schema.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace {

using absl::InvalidArgumentError;
using absl::StrCat;

class SmdReader {
 public:
  absl::StatusOr<std::vector<TypeDef>> ReadSchema(const Value& root) {
    if (!root.IsMap())
      return InvalidArgumentError("schema: expected a map with `types`");
    if (absl::Status st = CheckKeys(root, {"types"}, "schema"); !st.ok())
      return st;
    const Value* types = root.map().Find("types");
    std::vector<TypeDef> out;
    if (types == nullptr || types->IsNull()) return out;
    if (!types->IsList())
      return InvalidArgumentError("schema: `types` must be a list");
    for (size_t i = 0; i < types->list().size(); ++i) {
      const Value& t = types->list()[i];
      std::string where = StrCat("types[", i, "]");
      if (!t.IsMap())
        return InvalidArgumentError(StrCat(where, ": expected a map"));
      const Value* name = t.map().Find("name");
      if (name != nullptr && name->IsString())
        where = StrCat("type \"", name->AsString(), "\"");
      if (absl::Status st =
              CheckKeys(t, {"name", "scalar", "list", "map", "untyped"}, where);
          !st.ok()) {
        return st;
      }
      TypeDef def;
      if (name == nullptr || !name->IsString() || name->AsString().empty()) {
        return InvalidArgumentError(StrCat(where, ": type has no `name`"));
      }
      def.name = name->AsString();
      absl::StatusOr<Atom> atom = ReadAtom(t, where);
      if (!atom.ok()) return atom.status();
      def.atom = *std::move(atom);
      out.push_back(std::move(def));
    }
    return out;
  }

 private:
  static absl::Status CheckKeys(
      const Value& m, std::initializer_list<absl::string_view> allowed,
      absl::string_view where) {
    for (const MapEntry& e : m.map()) {
      bool ok = false;
      for (absl::string_view a : allowed) ok = ok || e.key == a;
      if (!ok) {
        std::string list;
        for (absl::string_view a : allowed)
          absl::StrAppend(&list, list.empty() ? "" : ", ", a);
        return InvalidArgumentError(StrCat(where, ": unknown key \"", e.key,
                                           "\" (expected one of: ", list, ")"));
      }
    }
    return absl::OkStatus();
  }

  static absl::StatusOr<std::string> GetString(const Value& m,
                                               absl::string_view key,
                                               absl::string_view where) {
    const Value* v = m.map().Find(key);
    if (v == nullptr || v->IsNull()) return std::string();
    if (!v->IsString()) {
      return InvalidArgumentError(
          StrCat(where, ".", key, ": expected a string"));
    }
    return v->AsString();
  }

  static absl::StatusOr<std::optional<ElementRelationship>> GetRelationship(
      const Value& m, absl::string_view where) {
    absl::StatusOr<std::string> s = GetString(m, "elementRelationship", where);
    if (!s.ok()) return s.status();
    if (s->empty()) return std::optional<ElementRelationship>();
    if (*s == "atomic") return std::optional(ElementRelationship::kAtomic);
    if (*s == "associative")
      return std::optional(ElementRelationship::kAssociative);
    if (*s == "separable" || *s == "granular") {
      return std::optional(ElementRelationship::kSeparable);
    }
    return InvalidArgumentError(
        StrCat(where, ".elementRelationship: unknown value \"", *s,
               "\" (expected atomic, associative, separable or granular)"));
  }

  // Reads the atom keys (scalar, list, map, untyped) of `m`.
  absl::StatusOr<Atom> ReadAtom(const Value& m, const std::string& where) {
    Atom atom;
    if (const Value* s = m.map().Find("scalar"); s != nullptr && !s->IsNull()) {
      if (!s->IsString())
        return InvalidArgumentError(
            StrCat(where, ".scalar: expected a string"));
      const std::string& n = s->AsString();
      if (n == "numeric") {
        atom.scalar = ScalarType::kNumeric;
      } else if (n == "string") {
        atom.scalar = ScalarType::kString;
      } else if (n == "boolean") {
        atom.scalar = ScalarType::kBoolean;
      } else if (n == "untyped") {
        atom.scalar = ScalarType::kUntyped;
      } else {
        return InvalidArgumentError(
            StrCat(where, ".scalar: unknown scalar type \"", n,
                   "\" (expected numeric, string, boolean or untyped)"));
      }
    }
    if (const Value* l = m.map().Find("list"); l != nullptr && !l->IsNull()) {
      absl::StatusOr<std::shared_ptr<ListType>> list =
          ReadList(*l, StrCat(where, ".list"));
      if (!list.ok()) return list.status();
      atom.list = *std::move(list);
    }
    if (const Value* mp = m.map().Find("map"); mp != nullptr && !mp->IsNull()) {
      absl::StatusOr<std::shared_ptr<MapType>> map =
          ReadMap(*mp, StrCat(where, ".map"));
      if (!map.ok()) return map.status();
      atom.map = *std::move(map);
    }
    if (const Value* u = m.map().Find("untyped"); u != nullptr) {
      // `untyped: {elementRelationship: R}`: any scalar, an atomic list of
      // untyped items, and a map of untyped values with relationship R.
      if (!u->IsNull() && !u->IsMap()) {
        return InvalidArgumentError(StrCat(where, ".untyped: expected a map"));
      }
      ElementRelationship rel = ElementRelationship::kAtomic;
      if (u->IsMap()) {
        if (absl::Status st = CheckKeys(*u, {"elementRelationship"},
                                        StrCat(where, ".untyped"));
            !st.ok()) {
          return st;
        }
        absl::StatusOr<std::optional<ElementRelationship>> r =
            GetRelationship(*u, StrCat(where, ".untyped"));
        if (!r.ok()) return r.status();
        if (*r) rel = **r;
      }
      auto self = std::make_shared<Atom>();
      self->scalar = ScalarType::kUntyped;
      if (!atom.scalar) atom.scalar = ScalarType::kUntyped;
      if (!atom.list) {
        atom.list = std::make_shared<ListType>();
        atom.list->element_type.inlined = self;
      }
      if (!atom.map) {
        atom.map = std::make_shared<MapType>();
        atom.map->element_type.emplace();
        atom.map->element_type->inlined = self;
        atom.map->element_relationship = rel;
      }
    }
    return atom;
  }

  absl::StatusOr<TypeRef> ReadTypeRef(const Value& v,
                                      const std::string& where) {
    if (!v.IsMap())
      return InvalidArgumentError(StrCat(where, ": expected a type (a map)"));
    if (absl::Status st = CheckKeys(
            v,
            {"namedType", "scalar", "list", "map", "untyped",
             "elementRelationship", "default", "nullable", "immutable",
             "immutableKeys", "additionOnly", "deletionOnly"},
            where);
        !st.ok()) {
      return st;
    }
    TypeRef ref;
    if (const Value* d = v.map().Find("default");
        d != nullptr && !d->IsNull()) {
      ref.default_value = *d;
    }
    struct Flag {
      const char* key;
      bool* dest;
    } flags[] = {{"nullable", &ref.nullable},
                 {"immutable", &ref.immutability.immutable},
                 {"immutableKeys", &ref.immutability.immutable_keys},
                 {"additionOnly", &ref.immutability.addition_only},
                 {"deletionOnly", &ref.immutability.deletion_only}};
    for (const Flag& f : flags) {
      const Value* b = v.map().Find(f.key);
      if (b == nullptr || b->IsNull()) continue;
      if (!b->IsBool()) {
        return InvalidArgumentError(
            StrCat(where, ".", f.key, ": expected a boolean"));
      }
      *f.dest = b->AsBool();
    }
    absl::StatusOr<std::string> named = GetString(v, "namedType", where);
    if (!named.ok()) return named.status();
    ref.named_type = *named;
    absl::StatusOr<std::optional<ElementRelationship>> rel =
        GetRelationship(v, where);
    if (!rel.ok()) return rel.status();
    ref.element_relationship = *rel;
    if (ref.named_type.empty()) {
      absl::StatusOr<Atom> atom = ReadAtom(v, where);
      if (!atom.ok()) return atom.status();
      ref.inlined = std::make_shared<Atom>(*std::move(atom));
    }
    return ref;
  }

  absl::StatusOr<std::shared_ptr<ListType>> ReadList(const Value& v,
                                                     const std::string& where) {
    if (!v.IsMap())
      return InvalidArgumentError(StrCat(where, ": expected a map"));
    if (absl::Status st =
            CheckKeys(v, {"elementType", "elementRelationship", "keys"}, where);
        !st.ok()) {
      return st;
    }
    auto list = std::make_shared<ListType>();
    const Value* et = v.map().Find("elementType");
    if (et == nullptr || et->IsNull()) {
      return InvalidArgumentError(StrCat(where, ": list has no elementType"));
    }
    absl::StatusOr<TypeRef> ref =
        ReadTypeRef(*et, StrCat(where, ".elementType"));
    if (!ref.ok()) return ref.status();
    list->element_type = *std::move(ref);
    absl::StatusOr<std::optional<ElementRelationship>> rel =
        GetRelationship(v, where);
    if (!rel.ok()) return rel.status();
    if (*rel) list->element_relationship = **rel;
    if (const Value* keys = v.map().Find("keys");
        keys != nullptr && !keys->IsNull()) {
      if (!keys->IsList())
        return InvalidArgumentError(StrCat(where, ".keys: expected a list"));
      for (const Value& k : keys->list()) {
        if (!k.IsString() || k.AsString().empty()) {
          return InvalidArgumentError(
              StrCat(where, ".keys: every key must be a field name"));
        }
        list->keys.push_back(k.AsString());
      }
    }
    return list;
  }

  absl::StatusOr<std::shared_ptr<MapType>> ReadMap(const Value& v,
                                                   const std::string& where) {
    if (!v.IsMap())
      return InvalidArgumentError(StrCat(where, ": expected a map"));
    if (absl::Status st = CheckKeys(
            v, {"fields", "elementType", "elementRelationship", "unions"},
            where);
        !st.ok()) {
      return st;
    }
    auto map = std::make_shared<MapType>();
    absl::StatusOr<std::optional<ElementRelationship>> rel =
        GetRelationship(v, where);
    if (!rel.ok()) return rel.status();
    if (*rel) map->element_relationship = **rel;
    if (const Value* et = v.map().Find("elementType");
        et != nullptr && !et->IsNull()) {
      absl::StatusOr<TypeRef> ref =
          ReadTypeRef(*et, StrCat(where, ".elementType"));
      if (!ref.ok()) return ref.status();
      map->element_type = *std::move(ref);
    }
    if (const Value* fields = v.map().Find("fields");
        fields != nullptr && !fields->IsNull()) {
      if (!fields->IsList())
        return InvalidArgumentError(StrCat(where, ".fields: expected a list"));
      for (size_t i = 0; i < fields->list().size(); ++i) {
        absl::StatusOr<StructField> f =
            ReadField(fields->list()[i], where, i, *map);
        if (!f.ok()) return f.status();
        map->fields.push_back(*std::move(f));
      }
    }
    if (const Value* unions = v.map().Find("unions");
        unions != nullptr && !unions->IsNull()) {
      if (!unions->IsList())
        return InvalidArgumentError(StrCat(where, ".unions: expected a list"));
      for (size_t i = 0; i < unions->list().size(); ++i) {
        absl::StatusOr<Union> u =
            ReadUnion(unions->list()[i], StrCat(where, ".unions[", i, "]"));
        if (!u.ok()) return u.status();
        map->unions.push_back(*std::move(u));
      }
    }
    return map;
  }

  // Field `i` of a map's `fields` (errors name it by name once it has one);
  // `map` holds the fields read before it.
  absl::StatusOr<StructField> ReadField(const Value& f,
                                        const std::string& where, size_t i,
                                        const MapType& map) {
    std::string fwhere = StrCat(where, ".fields[", i, "]");
    if (!f.IsMap())
      return InvalidArgumentError(StrCat(fwhere, ": expected a map"));
    if (absl::Status st =
            CheckKeys(f, {"name", "type", "default", "nullable"}, fwhere);
        !st.ok()) {
      return st;
    }
    StructField sf;
    // A name is required; "" is one (a JSON object may have the key "",
    // and OpenAPI a property of that name, as SMD's reader allows).
    const Value* given = f.map().Find("name");
    if (given == nullptr || given->IsNull())
      return InvalidArgumentError(StrCat(fwhere, ": field has no name"));
    absl::StatusOr<std::string> name = GetString(f, "name", fwhere);
    if (!name.ok()) return name.status();
    sf.name = *name;
    fwhere = StrCat(where, ".fields[", sf.name, "]");
    for (const StructField& prev : map.fields) {
      if (prev.name == sf.name) {
        return InvalidArgumentError(
            StrCat(fwhere, ": field is declared twice"));
      }
    }
    const Value* type = f.map().Find("type");
    if (type == nullptr || type->IsNull()) {
      return InvalidArgumentError(StrCat(fwhere, ": field has no type"));
    }
    absl::StatusOr<TypeRef> ref = ReadTypeRef(*type, StrCat(fwhere, ".type"));
    if (!ref.ok()) return ref.status();
    sf.type = *std::move(ref);
    if (const Value* d = f.map().Find("default");
        d != nullptr && !d->IsNull()) {
      sf.default_value = *d;
    }
    if (const Value* n = f.map().Find("nullable");
        n != nullptr && !n->IsNull()) {
      if (!n->IsBool())
        return InvalidArgumentError(
            StrCat(fwhere, ".nullable: expected a boolean"));
      sf.nullable = n->AsBool();
    }
    return sf;
  }

  absl::StatusOr<Union> ReadUnion(const Value& u, const std::string& uwhere) {
    if (!u.IsMap())
      return InvalidArgumentError(StrCat(uwhere, ": expected a map"));
    if (absl::Status st = CheckKeys(
            u, {"discriminator", "deduceInvalidDiscriminator", "fields"},
            uwhere);
        !st.ok()) {
      return st;
    }
    Union un;
    absl::StatusOr<std::string> disc = GetString(u, "discriminator", uwhere);
    if (!disc.ok()) return disc.status();
    if (!disc->empty()) un.discriminator = *disc;
    if (const Value* d = u.map().Find("deduceInvalidDiscriminator");
        d != nullptr && d->IsBool()) {
      un.deduce_invalid_discriminator = d->AsBool();
    }
    if (const Value* uf = u.map().Find("fields");
        uf != nullptr && uf->IsList()) {
      for (const Value& e : uf->list()) {
        if (!e.IsMap())
          return InvalidArgumentError(StrCat(uwhere, ".fields: expected maps"));
        absl::StatusOr<std::string> fn = GetString(e, "fieldName", uwhere);
        absl::StatusOr<std::string> dv =
            GetString(e, "discriminatorValue", uwhere);
        if (!fn.ok()) return fn.status();
        if (!dv.ok()) return dv.status();
        un.fields.push_back(UnionField{*fn, *dv});
      }
    }
    return un;
  }
};

}  // namespace

absl::StatusOr<std::vector<TypeDef>> Schema::ParseSmdTypes(
    absl::string_view yaml) {
  absl::StatusOr<Value> root = ParseYaml(yaml, SchemaDocumentLimits());
  if (!root.ok())
    return InvalidArgumentError(StrCat("schema: ", root.status().message()));
  absl::StatusOr<std::vector<TypeDef>> types = SmdReader().ReadSchema(*root);
  if (!types.ok())
    return InvalidArgumentError(StrCat("schema: ", types.status().message()));
  return types;
}

absl::StatusOr<std::shared_ptr<const Schema>> Schema::ParseSmd(
    absl::string_view yaml) {
  absl::StatusOr<std::vector<TypeDef>> types = ParseSmdTypes(yaml);
  if (!types.ok()) return types.status();
  absl::StatusOr<std::shared_ptr<const Schema>> s = Build(*std::move(types));
  if (!s.ok())
    return InvalidArgumentError(StrCat("schema: ", s.status().message()));
  return s;
}

}  // namespace smdx
