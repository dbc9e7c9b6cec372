// apply_controller: what a controller does with smdx, in one program.
//
//   apply_controller MANIFEST [LIVE]
//
// A controller owns a manifest and applies it to the live object (absent:
// the object is created) with its own field manager, forcing conflicts as
// controllers do; it then stores the result and, before the next reconcile,
// would apply again. This program applies MANIFEST, prints the stored object
// (with metadata.managedFields) as YAML, re-applies to show that the second
// reconcile is a no-op, and exits 1 if anything failed.
#include <smdx/smdx.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

smdx::Value ReadOrDie(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<smdx::Value> v = smdx::ParseYamlOrJson(text.str());
  if (!in || !v.ok()) {
    std::cerr << path << ": "
              << (in ? v.status().message() : "cannot read the file") << "\n";
    std::exit(1);
  }
  return *std::move(v);
}

std::string Field(const smdx::Value& object, const char* name) {
  const smdx::Value* v = object.IsMap() ? object.map().Find(name) : nullptr;
  return v != nullptr && v->IsString() ? v->AsString() : "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::cerr << "usage: apply_controller MANIFEST [LIVE]\n";
    return 2;
  }
  smdx::Value manifest = ReadOrDie(argv[1]);
  smdx::Value live = argc == 3 ? ReadOrDie(argv[2]) : smdx::Value();

  // The Kubernetes built-in types are embedded in the library; the catalog
  // finds the manifest's type from its apiVersion and kind.
  smdx::Catalog catalog = smdx::Catalog::Builtin();
  smdx::ResourceOptions resource;
  resource.api_version = Field(manifest, "apiVersion");
  resource.kind = Field(manifest, "kind");
  absl::StatusOr<smdx::FieldManager> fm = catalog.NewFieldManager(resource);
  if (!fm.ok()) {
    std::cerr << fm.status().message() << "\n";
    return 1;
  }

  smdx::FieldManagerResult r =
      fm->Apply(live, manifest, "example-controller", /*force=*/true);
  if (!r.ok()) {
    std::cerr << "apply failed (" << smdx::ErrorKindName(r.kind)
              << "): " << r.status.message() << "\n";
    return 1;
  }
  std::cout << smdx::ToYaml(r.object);

  // The next reconcile applies the same manifest to what was stored.
  smdx::FieldManagerResult again =
      fm->Apply(r.object, manifest, "example-controller", /*force=*/true);
  if (!again.ok() || again.changed) {
    std::cerr << "the second reconcile was not a no-op\n";
    return 1;
  }
  std::cerr << "reconciled: " << r.managed.fields.size()
            << " manager(s); second apply: no change\n";
  return 0;
}
