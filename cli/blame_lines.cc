#include "cli/blame_lines.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldpath/path.h"
#include "smdx/typed/internal/typed.h"
#include "smdx/value/emit.h"

namespace smdx::cli {

namespace {

using Keys = std::vector<std::string>;

// Walks an object as YAML, one field a line, with the keys that own each
// line's field (or the atomic list or map it lies in).
class Blamer {
 public:
  Blamer(const Type& type, const ManagedFields& managers)
      : type_(type), managers_(managers) {}

  std::vector<BlameLine> Render(const Value& object) {
    Path path;
    Node(type_.root(), object, &path, 0, /*inherited=*/{}, "");
    return std::move(lines_);
  }

 private:
  Keys OwnersOf(const Path& p) const {
    Keys keys;
    for (const auto& [key, vs] : managers_) {
      if (vs.set().Has(p)) keys.push_back(key);
    }
    return keys;
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
  Keys Owners(const Path& p, const Keys& inherited) const {
    return inherited.empty() ? OwnersOf(p) : inherited;
  }

  void Emit(const Path& p, Keys owners, Keys item_owners, int indent,
            const std::string& prefix, const std::string& text) {
    lines_.push_back(BlameLine{std::string(indent, ' ') + prefix + text,
                               p.empty() ? "" : PathString(p),
                               std::move(owners), std::move(item_owners)});
  }

  // Writes the entries of map `v` (of type `atom`) at `indent`; the first
  // line gets `first_prefix` ("- " for a list item) and stands for the
  // item too.
  void Node(const Atom* atom, const Value& v, Path* path, int indent,
            const Keys& inherited, const std::string& first_prefix) {
    internal::Narrowed n =
        atom != nullptr
            ? internal::Narrow(atom, &v)
            : internal::Narrowed{nullptr, internal::Narrowed::kNone};
    if (v.IsMap()) {
      bool atomic = n.kind == internal::Narrowed::kMap && n.atom->IsAtomicMap();
      Keys inner = inherited;
      if (atomic && inner.empty()) inner = OwnersOf(*path);
      bool first = true;
      for (const MapEntry& e : v.map()) {
        const Atom* child = n.kind == internal::Narrowed::kMap
                                ? n.atom->map->EntryAtom(e.key)
                                : nullptr;
        Keys item_owners;
        if (first && !first_prefix.empty() && inherited.empty())
          item_owners = OwnersOf(*path);
        path->push_back(PathElement::Field(e.key));
        std::string prefix = first ? first_prefix : "";
        int ind =
            first ? indent : indent + static_cast<int>(first_prefix.size());
        Entry(child, e.key, e.value, path, ind, prefix, Owners(*path, inner),
              std::move(item_owners), inner);
        path->pop_back();
        first = false;
      }
      return;
    }
    Emit(*path, Owners(*path, inherited), {}, indent, first_prefix, Scalar(v));
  }

  void Entry(const Atom* atom, const std::string& key, const Value& v,
             Path* path, int indent, const std::string& prefix, Keys owners,
             Keys item_owners, const Keys& inherited) {
    std::string k = Scalar(Value(key));
    if (v.IsMap() && !v.map().empty()) {
      Emit(*path, std::move(owners), std::move(item_owners), indent, prefix,
           k + ":");
      Node(atom, v, path, indent + static_cast<int>(prefix.size()) + 2,
           inherited, "");
      return;
    }
    if (v.IsList() && !v.list().empty()) {
      Emit(*path, std::move(owners), std::move(item_owners), indent, prefix,
           k + ":");
      List(atom, v, path, indent + static_cast<int>(prefix.size()), inherited);
      return;
    }
    Emit(*path, std::move(owners), std::move(item_owners), indent, prefix,
         absl::StrCat(k, ": ",
                      v.IsMap()    ? "{}"
                      : v.IsList() ? "[]"
                                   : Scalar(v)));
  }

  void List(const Atom* atom, const Value& v, Path* path, int indent,
            const Keys& inherited) {
    internal::Narrowed n =
        atom != nullptr
            ? internal::Narrow(atom, &v)
            : internal::Narrowed{nullptr, internal::Narrowed::kNone};
    const bool typed = n.kind == internal::Narrowed::kList;
    Keys inner = inherited;
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
        Emit(*path, Owners(*path, inner), {}, indent, "- ", "");
        List(elem, item, path, indent + 2, inner);
      } else {
        Emit(*path, Owners(*path, inner), {}, indent, "- ",
             item.IsMap()    ? "{}"
             : item.IsList() ? "[]"
                             : Scalar(item));
      }
      path->pop_back();
    }
  }

  const Type& type_;
  const ManagedFields& managers_;
  std::vector<BlameLine> lines_;
};

std::string Labels(const Keys& keys,
                   const std::map<std::string, std::string>& labels) {
  return absl::StrJoin(keys, ", ", [&](std::string* out, const std::string& k) {
    auto it = labels.find(k);
    out->append(it != labels.end() ? it->second : k);
  });
}

}  // namespace

std::vector<BlameLine> BlameLines(const Type& type,
                                  const ManagedFields& managers,
                                  const Value& object) {
  return Blamer(type, managers).Render(object);
}

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

std::string OwnerColumn(const BlameLine& line,
                        const std::map<std::string, std::string>& labels) {
  std::string owners = Labels(line.owners, labels);
  std::string item = Labels(line.item_owners, labels);
  if (item.empty() || item == owners) return owners;
  return owners.empty() ? item : absl::StrCat(item, "; ", owners);
}

}  // namespace smdx::cli
