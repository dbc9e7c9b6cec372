// Writing a Schema in the SMD YAML format (the inverse of parse_smd.cc).
//
// The layout is the one Kubernetes' converter output has (gopkg.in/yaml.v2
// of schema.Schema): `types`, each with `name` then `scalar`, `list`, `map`;
// lists always state their elementRelationship, maps only when it is not
// the default (separable). smdx's extensions follow the standard keys of a
// type reference or field: `default`, `nullable` and the immutability
// markers.
#include <string>

#include "absl/strings/str_cat.h"
#include "smdx/schema/schema.h"
#include "smdx/value/emit.h"

namespace smdx {

namespace {

// A scalar as YAML text on one line: plain when that reads back the same,
// else quoted.
std::string ScalarText(const Value& v) {
  std::string text = ToYaml(v);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (text.find('\n') == std::string::npos) return text;
  // A multi-line string: a JSON string is a valid YAML double-quoted one.
  std::string quoted;
  AppendJsonString(&quoted, v.AsString());
  return quoted;
}

std::string Name(absl::string_view s) { return ScalarText(Value(s)); }

class SmdWriter {
 public:
  std::string Write(const Schema& schema) {
    if (schema.types().empty()) return "types: []\n";
    out_ = "types:\n";
    for (const TypeDef& t : schema.types()) {
      Line(0, absl::StrCat("- name: ", Name(t.name)));
      AtomKeys(t.atom, 2);
    }
    return std::move(out_);
  }

 private:
  void Line(int indent, absl::string_view text) {
    out_.append(static_cast<size_t>(indent), ' ');
    out_.append(text.data(), text.size());
    out_.push_back('\n');
  }

  // `key: value`: a scalar (or an empty list or map) on the same line when
  // it fits on one, anything else as an indented block below the key.
  void KeyValue(int indent, absl::string_view key, const Value& v) {
    std::string text = ToYaml(v);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    bool block =
        (v.IsMap() && !v.map().empty()) || (v.IsList() && !v.list().empty());
    if (!block && text.find('\n') == std::string::npos) {
      Line(indent, absl::StrCat(key, ": ", text));
      return;
    }
    Line(indent, absl::StrCat(key, ":"));
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      absl::string_view line(text.data() + start, end - start);
      if (line.empty()) {
        out_.push_back('\n');
      } else {
        Line(indent + 2, line);
      }
      start = end + 1;
    }
  }

  void AtomKeys(const Atom& a, int indent) {
    if (a.scalar) {
      Line(indent, absl::StrCat("scalar: ", ScalarTypeName(*a.scalar)));
    }
    if (a.list) {
      const ListType& l = *a.list;
      Line(indent, "list:");
      Line(indent + 2, "elementType:");
      Ref(l.element_type, indent + 4);
      Line(indent + 2, absl::StrCat("elementRelationship: ",
                                    RelationshipName(l.element_relationship)));
      if (!l.keys.empty()) {
        Line(indent + 2, "keys:");
        for (const std::string& k : l.keys)
          Line(indent + 2, absl::StrCat("- ", Name(k)));
      }
    }
    if (a.map) {
      const MapType& m = *a.map;
      bool rel = m.element_relationship != ElementRelationship::kSeparable;
      if (m.fields.empty() && !m.element_type && !rel && m.unions.empty()) {
        Line(indent, "map: {}");
        return;
      }
      Line(indent, "map:");
      if (!m.fields.empty()) {
        Line(indent + 2, "fields:");
        for (const StructField& f : m.fields) Field(f, indent + 2);
      }
      if (m.element_type) {
        Line(indent + 2, "elementType:");
        Ref(*m.element_type, indent + 4);
      }
      if (rel) {
        Line(indent + 2,
             absl::StrCat("elementRelationship: ",
                          RelationshipName(m.element_relationship)));
      }
      if (!m.unions.empty()) {
        Line(indent + 2, "unions:");
        for (const Union& u : m.unions) UnionKeys(u, indent + 2);
      }
    }
  }

  void Field(const StructField& f, int indent) {
    Line(indent, absl::StrCat("- name: ", Name(f.name)));
    Line(indent + 2, "type:");
    Ref(f.type, indent + 4);
    if (f.default_value) KeyValue(indent + 2, "default", *f.default_value);
    if (f.nullable) Line(indent + 2, "nullable: true");
  }

  void UnionKeys(const Union& u, int indent) {
    // The first key of the list item carries the "- ".
    std::string dash = "- ";
    auto item_line = [&](absl::string_view text) {
      Line(dash.empty() ? indent + 2 : indent, absl::StrCat(dash, text));
      dash.clear();
    };
    if (u.discriminator)
      item_line(absl::StrCat("discriminator: ", Name(*u.discriminator)));
    if (u.deduce_invalid_discriminator)
      item_line("deduceInvalidDiscriminator: true");
    if (u.fields.empty()) {
      item_line("fields: []");
      return;
    }
    item_line("fields:");
    for (const UnionField& f : u.fields) {
      Line(indent + 2, absl::StrCat("- fieldName: ", Name(f.field_name)));
      Line(indent + 4,
           absl::StrCat("discriminatorValue: ", Name(f.discriminator_value)));
    }
  }

  void Ref(const TypeRef& r, int indent) {
    if (!r.named_type.empty()) {
      Line(indent, absl::StrCat("namedType: ", Name(r.named_type)));
    } else if (r.inlined) {
      AtomKeys(*r.inlined, indent);
    }
    if (r.element_relationship) {
      Line(indent, absl::StrCat("elementRelationship: ",
                                RelationshipName(*r.element_relationship)));
    }
    if (r.default_value) KeyValue(indent, "default", *r.default_value);
    if (r.nullable) Line(indent, "nullable: true");
    const Immutability& im = r.immutability;
    if (im.immutable) Line(indent, "immutable: true");
    if (im.immutable_keys) Line(indent, "immutableKeys: true");
    if (im.addition_only) Line(indent, "additionOnly: true");
    if (im.deletion_only) Line(indent, "deletionOnly: true");
  }

  std::string out_;
};

}  // namespace

std::string SchemaToSmdYaml(const Schema& schema) {
  return SmdWriter().Write(schema);
}

}  // namespace smdx
