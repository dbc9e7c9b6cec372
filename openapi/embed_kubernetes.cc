// Build tool: turns the Kubernetes API documents in schema/data into the
// C++ source of the embedded Kubernetes schema (schema/builtin.h).
//
// Usage: embed_kubernetes SWAGGER.json OLD-SMD.yaml DEFAULTS.json OUT.cc
//
//  - SWAGGER.json, the newest Kubernetes OpenAPI v2 document, is converted
//    by smdx's own converter (openapi/openapi.h). Every
//    `x-kubernetes-group-version-kind` of its definitions becomes an entry
//    of the apiVersion/kind table.
//  - DEFAULTS.json lists the `default`s of the built-in types (their
//    `+default=` markers, KEP-1929) that the OpenAPI v2 document leaves out
//    and the v3 documents, which the apiserver's server-side apply reads,
//    carry: `{"defaults": [{"definition", "property", "default"}]}`. Each is
//    set on its property before the conversion; one that names no property
//    stops the build.
//  - OLD-SMD.yaml, an older SMD schema, supplies the kinds of
//    apiVersions the new document no longer serves (extensions/v1beta1,
//    apps/v1beta1, ...): their root types, and what they reference that the
//    new document does not define. References to types the new document
//    defines resolve to the new ones.
//
// The output holds the merged schema as SMD YAML text, an index of the
// types (their spans in the text and the types each refers to, so that a
// process can parse just one kind's closure) and the apiVersion/kind table.
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
#include "openapi/openapi.h"
#include "schema/builtin.h"
#include "schema/schema.h"
#include "value/parse.h"

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

}  // namespace
}  // namespace smdx

int main(int argc, char** argv) {
  using namespace smdx;  // NOLINT(build/namespaces): a tool's main
  if (argc != 5) {
    Die("usage: embed_kubernetes SWAGGER.json OLD-SMD.yaml DEFAULTS.json "
        "OUT.cc");
  }
  absl::StatusOr<Value> swagger =
      ParseJson(ReadAll(argv[1]), SchemaDocumentLimits());
  if (!swagger.ok())
    Die(absl::StrCat(argv[1], ": ", swagger.status().message()));
  AddDefaults(argv[3], &*swagger);
  absl::StatusOr<std::vector<TypeDef>> new_types = TypesFromOpenApiV2(*swagger);
  if (!new_types.ok()) {
    Die(absl::StrCat(argv[1], ": ", new_types.status().message()));
  }
  absl::StatusOr<std::shared_ptr<const Schema>> old_schema =
      Schema::ParseSmd(ReadAll(argv[2]));
  if (!old_schema.ok()) {
    Die(absl::StrCat(argv[2], ": ", old_schema.status().message()));
  }

  // The new document's kinds.
  std::vector<Gvk> gvks;
  std::set<std::pair<std::string, std::string>> served;
  for (const SchemaKind& k : OpenApiKinds(*swagger)) {
    gvks.push_back(Gvk{k.api_version, k.kind, k.type_name});
    served.emplace(k.api_version, k.kind);
  }
  if (gvks.empty()) Die("the document declares no kinds");

  // The old schema's kinds that the new one does not serve, with what they
  // need that the new one lacks.
  std::map<std::string, const TypeDef*> defined;
  std::vector<TypeDef> merged = *std::move(new_types);
  for (const TypeDef& t : merged) defined[t.name] = &t;
  std::map<std::string, const TypeDef*> old_by_name;
  for (const TypeDef& t : (*old_schema)->types()) old_by_name[t.name] = &t;
  std::vector<std::string> pending;
  for (const TypeDef& t : (*old_schema)->types()) {
    if (!absl::StartsWith(t.name, "io.k8s.api.")) continue;
    if (!t.atom.map || t.atom.map->FindField("apiVersion") == nullptr ||
        t.atom.map->FindField("kind") == nullptr) {
      continue;
    }
    // The old schema carries no group/version/kind table: its names say.
    std::string av, kind;
    if (!KubernetesKindOfTypeName(t.name, &av, &kind)) continue;
    if (served.count({av, kind}) != 0 || defined.count(t.name) != 0) continue;
    gvks.push_back(Gvk{av, kind, t.name});
    pending.push_back(t.name);
  }
  std::vector<TypeDef> added;
  std::set<std::string> taken;
  while (!pending.empty()) {
    std::string name = pending.back();
    pending.pop_back();
    if (defined.count(name) != 0 || !taken.insert(name).second) continue;
    auto it = old_by_name.find(name);
    if (it == old_by_name.end()) Die(absl::StrCat("no type ", name));
    added.push_back(*it->second);
    std::set<std::string> refs;
    RefsOfAtom(it->second->atom, &refs);
    for (const std::string& r : refs) pending.push_back(r);
  }
  std::sort(added.begin(), added.end(),
            [](const TypeDef& a, const TypeDef& b) { return a.name < b.name; });
  for (TypeDef& t : added) merged.push_back(std::move(t));

  absl::StatusOr<std::shared_ptr<const Schema>> schema =
      Schema::Build(std::move(merged));
  if (!schema.ok()) Die(std::string(schema.status().message()));
  std::string text = SchemaToSmdYaml(**schema);

  // Each type's span: from its "- name: " line to the next one.
  std::map<std::string, size_t> index_of;
  const std::deque<TypeDef>& types = (*schema)->types();
  for (size_t i = 0; i < types.size(); ++i) index_of[types[i].name] = i;
  std::vector<size_t> begins;
  for (size_t pos = text.find("\n- name: "); pos != std::string::npos;
       pos = text.find("\n- name: ", pos + 1)) {
    begins.push_back(pos + 1);
  }
  if (begins.size() != types.size()) {
    Die(absl::StrCat("found ", begins.size(), " types in the text, expected ",
                     types.size()));
  }
  begins.push_back(text.size());

  std::string out;
  absl::StrAppend(&out, "// Generated by openapi/embed_kubernetes.cc from ",
                  argv[1], ", ", argv[2], " and ", argv[3],
                  "; do not edit.\n",
                  "#include \"schema/builtin_data.h\"\n\n",
                  "namespace smdx::internal {\nnamespace {\n",
                  "const char kText[] = {");
  for (size_t i = 0; i < text.size(); ++i) {
    if (i % 24 == 0) out += "\n";
    absl::StrAppend(&out, static_cast<int>(static_cast<unsigned char>(text[i])),
                    ",");
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
    absl::StrAppend(&out, "    {", CString(types[i].name), ", ", begins[i],
                    ", ", begins[i + 1], ", ", first, ", ", deps.size(),
                    "},\n");
  }
  out += "};\n\nconst uint32_t kDeps[] = {";
  for (size_t i = 0; i < deps.size(); ++i) {
    if (i % 16 == 0) out += "\n";
    absl::StrAppend(&out, deps[i], ",");
  }
  out += "0};\n\nconst EmbeddedKind kKinds[] = {\n";
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
                  "    absl::string_view(kText, sizeof(kText) - 1),\n",
                  "    absl::MakeConstSpan(kTypes),\n",
                  "    absl::MakeConstSpan(kDeps),\n",
                  "    absl::MakeConstSpan(kKinds),\n};\n\n",
                  "}  // namespace smdx::internal\n");
  std::ofstream file(argv[4], std::ios::binary);
  file << out;
  if (!file) Die(absl::StrCat(argv[4], ": cannot write"));
  std::cerr << "embed_kubernetes: " << types.size() << " types ("
            << added.size() << " from the older schema), " << gvks.size()
            << " kinds, " << text.size() << " bytes\n";
  return 0;
}
