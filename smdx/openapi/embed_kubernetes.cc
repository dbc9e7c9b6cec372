// Build tool: turns the Kubernetes API documents in schema/data into the
// C++ source of the embedded Kubernetes schema (schema/builtin.h).
//
// Usage: embed_kubernetes OUT.cc SOURCE[:DEFAULTS.json]...
//
// The sources come newest first; each is an OpenAPI v2 or v3 document
// (.json) or an SMD schema (.yaml), converted by smdx's own converter
// (openapi/openapi.h).
//  - The newest document's kinds (its `x-kubernetes-group-version-kind`s)
//    and types make the schema. An older source adds the kinds no newer one
//    serves (extensions/v1beta1, flowcontrol v1beta3, ...), with the types
//    they need that no newer one defines; references to types a newer
//    source defines resolve to the newer ones. An SMD schema's kinds are
//    its io.k8s.api types that have apiVersion and kind.
//  - Of a document's `default`s only those of list-map keys stay:
//    server-side apply fills a list item's missing key from them (KEP-1929;
//    a container port without a protocol is the item keyed by TCP). The
//    OpenAPI v3 documents also give every non-pointer field of a Go type
//    its zero value as `default`, which is not what the apiserver stores
//    (omitempty fields are left out); defaulting the built-in kinds is the
//    Go defaulters' business.
//  - DEFAULTS.json lists `default`s to set on a document's properties
//    first: `{"defaults": [{"definition", "property", "default"}]}` (the
//    list-map key defaults a v2 document leaves out). One that names no
//    property stops the build.
//
// The output holds the merged schema's types in the binary form of
// schema/typedef_codec.h (checked to give back the schema its SMD YAML
// describes), an index of the types (their spans in the bytes and the types
// each refers to, so that a process can read just one kind's closure) and
// the apiVersion/kind table.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "smdx/openapi/openapi.h"
#include "smdx/schema/builtin.h"
#include "smdx/schema/schema.h"
#include "smdx/schema/typedef_codec.h"
#include "smdx/value/parse.h"

namespace smdx {
namespace {

[[noreturn]] void Die(const std::string& msg) {
  std::cerr << "embed_kubernetes: " << msg << "\n";
  std::exit(1);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die(absl::StrCat(path, ": cannot open"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void RefsOfAtom(const Atom& atom, std::set<std::string>* out);

void RefsOfRef(const TypeRef& ref, std::set<std::string>* out) {
  if (!ref.named_type.empty()) out->insert(ref.named_type);
  if (ref.inlined) RefsOfAtom(*ref.inlined, out);
}

void RefsOfAtom(const Atom& atom, std::set<std::string>* out) {
  if (atom.list) RefsOfRef(atom.list->element_type, out);
  if (atom.map) {
    for (const StructField& f : atom.map->fields) RefsOfRef(f.type, out);
    if (atom.map->element_type) RefsOfRef(*atom.map->element_type, out);
  }
}

struct Gvk {
  std::string api_version;
  std::string kind;
  std::string type_name;
};

std::string CString(absl::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Sets the defaults `path` lists on the properties of `swagger`.
void AddDefaults(const std::string& path, Value* swagger) {
  absl::StatusOr<Value> doc = ParseJson(ReadAll(path));
  if (!doc.ok()) Die(absl::StrCat(path, ": ", doc.status().message()));
  const Value* list = Find(*doc, "defaults");
  if (list == nullptr || !list->IsList()) {
    Die(absl::StrCat(path, ": expected {\"defaults\": [...]}"));
  }
  Value* defs = swagger->IsMap() ? swagger->map().Find("definitions") : nullptr;
  for (const Value& d : list->list()) {
    const std::string def = StringAt(d, "definition");
    const std::string prop = StringAt(d, "property");
    const Value* value = Find(d, "default");
    Value* node = defs != nullptr && defs->IsMap() ? defs->map().Find(def)
                                                   : nullptr;
    node = node != nullptr && node->IsMap() ? node->map().Find("properties")
                                            : nullptr;
    node = node != nullptr && node->IsMap() ? node->map().Find(prop) : nullptr;
    if (node == nullptr || !node->IsMap() || value == nullptr) {
      Die(absl::StrCat(path, ": no property ", def, ".", prop,
                       " to default (or no default given)"));
    }
    node->map().Set("default", *value);
  }
}

// The definitions of a v2 (definitions) or v3 (components.schemas)
// document.
Value* Definitions(Value* doc) {
  if (!doc->IsMap()) return nullptr;
  if (Value* d = doc->map().Find("definitions")) return d;
  Value* c = doc->map().Find("components");
  return c != nullptr && c->IsMap() ? c->map().Find("schemas") : nullptr;
}

// The name a property's schema refers to ($ref, or a $ref in allOf).
std::string RefName(const Value& prop) {
  const std::string* ref = FindString(prop, "$ref");
  if (ref == nullptr) {
    const Value* all = Find(prop, "allOf");
    if (all != nullptr && all->IsList()) {
      for (const Value& a : all->list()) {
        if ((ref = FindString(a, "$ref")) != nullptr) break;
      }
    }
  }
  if (ref == nullptr) return "";
  size_t slash = ref->rfind('/');
  return slash == std::string::npos ? *ref : ref->substr(slash + 1);
}

// Keeps the `default`s of list-map keys only (see the file comment).
size_t KeepKeyDefaults(Value* doc) {
  Value* defs = Definitions(doc);
  if (defs == nullptr || !defs->IsMap()) return 0;
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& [name, def] : defs->map()) {
    const Value* props = Find(def, "properties");
    if (props == nullptr || !props->IsMap()) continue;
    for (const auto& [pname, prop] : props->map()) {
      if (StringAt(prop, "x-kubernetes-list-type") != "map") continue;
      const Value* items = Find(prop, "items");
      const Value* ks = Find(prop, "x-kubernetes-list-map-keys");
      if (items == nullptr || ks == nullptr || !ks->IsList()) continue;
      const std::string item = RefName(*items);
      for (const Value& k : ks->list()) {
        if (k.IsString()) keys.emplace(item, k.AsString());
      }
    }
  }
  size_t kept = 0;
  for (auto& [name, def] : defs->map().entries()) {
    Value* props = def.IsMap() ? def.map().Find("properties") : nullptr;
    if (props == nullptr || !props->IsMap()) continue;
    for (auto& [pname, prop] : props->map().entries()) {
      if (!prop.IsMap() || prop.map().Find("default") == nullptr) continue;
      if (keys.count({name, pname}) != 0) {
        ++kept;
      } else {
        prop.map().Erase("default");
      }
    }
  }
  return kept;
}

// One source: an OpenAPI v2 or v3 document (and a DEFAULTS.json for it),
// or an SMD schema, as types, the kinds it declares and whether it is
// OpenAPI.
struct Source {
  std::string path;
  std::vector<TypeDef> types;
  std::vector<SchemaKind> kinds;  // OpenAPI only
  bool openapi = false;
  std::string version;  // info.version
};

Source ReadSource(const std::string& arg) {
  Source src;
  std::string defaults;
  if (size_t colon = arg.find(':'); colon != std::string::npos) {
    src.path = arg.substr(0, colon);
    defaults = arg.substr(colon + 1);
  } else {
    src.path = arg;
  }
  if (absl::EndsWith(src.path, ".yaml")) {
    absl::StatusOr<std::shared_ptr<const Schema>> smd =
        Schema::ParseSmd(ReadAll(src.path));
    if (!smd.ok()) Die(absl::StrCat(src.path, ": ", smd.status().message()));
    for (const TypeDef& t : (*smd)->types()) src.types.push_back(t);
    return src;
  }
  absl::StatusOr<Value> doc =
      ParseJson(ReadAll(src.path), SchemaDocumentLimits());
  if (!doc.ok()) Die(absl::StrCat(src.path, ": ", doc.status().message()));
  const size_t kept = KeepKeyDefaults(&*doc);
  if (!defaults.empty()) AddDefaults(defaults, &*doc);
  const bool v3 = Find(*doc, "openapi") != nullptr;
  absl::StatusOr<std::vector<TypeDef>> types =
      v3 ? TypesFromOpenApiV3(*doc) : TypesFromOpenApiV2(*doc);
  if (!types.ok()) Die(absl::StrCat(src.path, ": ", types.status().message()));
  src.types = *std::move(types);
  src.kinds = OpenApiKinds(*doc);
  src.openapi = true;
  if (const Value* info = Find(*doc, "info")) {
    src.version = StringAt(*info, "version");
  }
  std::cerr << "embed_kubernetes: " << src.path << ": " << src.types.size()
            << " types, " << src.kinds.size() << " kinds, " << kept
            << " list-map key defaults\n";
  return src;
}

}  // namespace
}  // namespace smdx

int main(int argc, char** argv) {
  using namespace smdx;  // NOLINT(build/namespaces): a tool's main
  if (argc < 3) {
    Die("usage: embed_kubernetes OUT.cc SOURCE[:DEFAULTS.json]... (newest "
        "first)");
  }
  std::vector<Source> sources;
  for (int i = 2; i < argc; ++i) sources.push_back(ReadSource(argv[i]));
  if (!sources[0].openapi || sources[0].kinds.empty())
    Die(absl::StrCat(sources[0].path, ": the newest source declares no kinds"));

  std::vector<Gvk> gvks;
  std::set<std::pair<std::string, std::string>> served;
  for (const SchemaKind& k : sources[0].kinds) {
    gvks.push_back(Gvk{k.api_version, k.kind, k.type_name});
    served.emplace(k.api_version, k.kind);
  }
  std::vector<TypeDef> merged = std::move(sources[0].types);
  std::set<std::string> defined;
  for (const TypeDef& t : merged) defined.insert(t.name);
  size_t from_older = 0;
  // Each older source adds the kinds no newer one serves, with the types
  // they need that no newer one defines.
  for (size_t s = 1; s < sources.size(); ++s) {
    std::map<std::string, const TypeDef*> by_name;
    for (const TypeDef& t : sources[s].types) by_name[t.name] = &t;
    std::vector<Gvk> found;
    if (sources[s].openapi) {
      for (const SchemaKind& k : sources[s].kinds)
        found.push_back(Gvk{k.api_version, k.kind, k.type_name});
    } else {
      for (const TypeDef& t : sources[s].types) {
        if (!absl::StartsWith(t.name, "io.k8s.api.")) continue;
        if (!t.atom.map || t.atom.map->FindField("apiVersion") == nullptr ||
            t.atom.map->FindField("kind") == nullptr) {
          continue;
        }
        std::string av, kind;
        if (KubernetesKindOfTypeName(t.name, &av, &kind))
          found.push_back(Gvk{av, kind, t.name});
      }
    }
    std::vector<std::string> pending;
    for (const Gvk& g : found) {
      if (served.count({g.api_version, g.kind}) != 0) continue;
      served.emplace(g.api_version, g.kind);
      gvks.push_back(g);
      pending.push_back(g.type_name);
    }
    std::vector<TypeDef> added;
    while (!pending.empty()) {
      std::string name = pending.back();
      pending.pop_back();
      if (!defined.insert(name).second) continue;
      auto it = by_name.find(name);
      if (it == by_name.end())
        Die(absl::StrCat(sources[s].path, ": no type ", name));
      added.push_back(*it->second);
      std::set<std::string> refs;
      RefsOfAtom(it->second->atom, &refs);
      for (const std::string& r : refs) pending.push_back(r);
    }
    std::sort(added.begin(), added.end(), [](const TypeDef& a,
                                             const TypeDef& b) {
      return a.name < b.name;
    });
    from_older += added.size();
    for (TypeDef& t : added) merged.push_back(std::move(t));
  }

  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      Schema::Build(std::move(merged));
  if (!schema.ok()) Die(std::string(schema.status().message()));
  std::string text = SchemaToSmdYaml(**schema);

  std::map<std::string, size_t> index_of;
  const std::deque<TypeDef>& types = (*schema)->types();
  for (size_t i = 0; i < types.size(); ++i) index_of[types[i].name] = i;

  // The types as the program reads them: in the binary form of
  // schema/typedef_codec.h, which must give back exactly the schema the
  // text describes (checked here, so that a build never embeds a schema
  // that differs from it).
  absl::StatusOr<std::vector<TypeDef>> reread = Schema::ParseSmdTypes(text);
  if (!reread.ok()) Die(std::string(reread.status().message()));
  if (reread->size() != types.size()) Die("the text reads as other types");
  std::string binary;
  std::vector<size_t> bin_begins;
  std::vector<TypeDef> decoded;
  for (const TypeDef& t : *reread) {
    bin_begins.push_back(binary.size());
    const size_t at = binary.size();
    AppendEncodedTypeDef(t, &binary);
    absl::StatusOr<TypeDef> back = DecodeTypeDef(
        absl::string_view(binary).substr(at));
    if (!back.ok()) Die(std::string(back.status().message()));
    decoded.push_back(*std::move(back));
  }
  bin_begins.push_back(binary.size());
  absl::StatusOr<std::shared_ptr<const Schema>> from_binary =
      Schema::Build(std::move(decoded));
  if (!from_binary.ok()) Die(std::string(from_binary.status().message()));
  if (SchemaToSmdYaml(**from_binary) != text)
    Die("the binary form of the types does not give back the same schema");

  std::string out;
  std::string from;
  for (const Source& src : sources) {
    absl::StrAppend(&from, from.empty() ? "" : ", ",
                    src.path.substr(src.path.rfind('/') + 1));
  }
  absl::StrAppend(&out, "// Generated by smdx/openapi/embed_kubernetes.cc from ",
                  from, "; do not edit.\n",
                  "#include \"smdx/schema/builtin_data.h\"\n\n",
                  "namespace smdx::internal {\nnamespace {\n",
                  "const char kBinary[] = {");
  for (size_t i = 0; i < binary.size(); ++i) {
    if (i % 24 == 0) out += "\n";
    absl::StrAppend(
        &out, static_cast<int>(static_cast<unsigned char>(binary[i])), ",");
  }
  out += "0};\n\nconst EmbeddedType kTypes[] = {\n";
  std::vector<uint32_t> deps;
  for (size_t i = 0; i < types.size(); ++i) {
    std::set<std::string> refs;
    RefsOfAtom(types[i].atom, &refs);
    uint32_t first = static_cast<uint32_t>(deps.size());
    for (const std::string& r : refs) {
      auto it = index_of.find(r);
      if (it == index_of.end()) Die(absl::StrCat("dangling reference ", r));
      if (it->second != i) deps.push_back(static_cast<uint32_t>(it->second));
    }
    absl::StrAppend(&out, "    {", CString(types[i].name), ", ",
                    bin_begins[i], ", ", bin_begins[i + 1], ", ", first, ", ",
                    deps.size(), "},\n");
  }
  out += "};\n\nconst uint32_t kDeps[] = {";
  for (size_t i = 0; i < deps.size(); ++i) {
    if (i % 16 == 0) out += "\n";
    absl::StrAppend(&out, deps[i], ",");
  }
  out += "0};\n\nconst uint32_t kByName[] = {";
  {
    size_t i = 0;
    for (const auto& [name, index] : index_of) {  // a std::map: by name
      if (i++ % 16 == 0) out += "\n";
      absl::StrAppend(&out, index, ",");
    }
  }
  out += "};\n\nconst EmbeddedKind kKinds[] = {\n";
  std::stable_sort(gvks.begin(), gvks.end(), [](const Gvk& a, const Gvk& b) {
    return std::tie(a.api_version, a.kind) < std::tie(b.api_version, b.kind);
  });
  gvks.erase(std::unique(gvks.begin(), gvks.end(),
                         [](const Gvk& a, const Gvk& b) {
                           return a.api_version == b.api_version &&
                                  a.kind == b.kind;
                         }),
             gvks.end());
  for (const Gvk& g : gvks) {
    absl::StrAppend(&out, "    {", CString(g.api_version), ", ",
                    CString(g.kind), ", ", index_of.at(g.type_name), "},\n");
  }
  absl::StrAppend(&out, "};\n\n}  // namespace\n\n",
                  "const EmbeddedSchema kEmbeddedKubernetes = {\n",
                  "    absl::string_view(kBinary, sizeof(kBinary) - 1),\n",
                  "    absl::MakeConstSpan(kTypes),\n",
                  "    absl::MakeConstSpan(kDeps),\n",
                  "    absl::MakeConstSpan(kByName),\n",
                  "    absl::MakeConstSpan(kKinds),\n",
                  "    ", CString(sources[0].version), ",\n};\n\n",
                  "}  // namespace smdx::internal\n");
  std::ofstream file(argv[1], std::ios::binary);
  file << out;
  if (!file) Die(absl::StrCat(argv[1], ": cannot write"));
  std::cerr << "embed_kubernetes: " << types.size() << " types ("
            << from_older << " from the older sources), " << gvks.size()
            << " kinds, " << binary.size() << " bytes (" << text.size()
            << " as SMD YAML)\n";
  return 0;
}
