// libFuzzer target for the field-manager layer: the input is a YAML stream
// of up to three documents (live object, applied configuration, written
// object). Whatever they hold, Apply and Update return a result or an
// error, and never crash; a successful result's managedFields decode.
// They go to apimachinery's field manager alone (a Deployment), and to the
// field managers the embedding API makes, as the apiserver runs them
// (builtin_defaults, reset fields, the Scale): a Deployment's main
// resource and /scale, a Pod's, and a custom resource's main resource,
// /status and /scale.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace {

const smdx::FieldManager& Manager() {
  static const smdx::FieldManager* fm = [] {
    smdx::FieldManagerOptions o;
    o.api_version = "apps/v1";
    o.kind = "Deployment";
    static smdx::ManualClock clock(absl::FromUnixSeconds(1800000000));
    o.clock = &clock;
    o.max_update_managers = 2;
    return new smdx::FieldManager(*smdx::FieldManager::Create(
        *smdx::Type::Named(*smdx::KubernetesSchema(),
                           "io.k8s.api.apps.v1.Deployment"),
        o));
  }();
  return *fm;
}

// A custom resource with status and scale subresources, a defaulted
// field and a keyed list.
constexpr char kCrd[] = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: scalers.fuzz.smdx.dev}
spec:
  group: fuzz.smdx.dev
  scope: Namespaced
  names: {plural: scalers, singular: scaler, kind: Scaler, listKind: ScalerList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, default: 1}
              containers:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer, default: 80}
          status:
            type: object
            properties:
              replicas: {type: integer}
)";

const std::vector<smdx::FieldManager>& ServerManagers() {
  static const std::vector<smdx::FieldManager>* fms = [] {
    static smdx::ManualClock clock(absl::FromUnixSeconds(1800000000));
    auto* out = new std::vector<smdx::FieldManager>;
    auto add = [&](const smdx::Catalog& c, const char* gv, const char* kind,
                   const char* sub) {
      smdx::ResourceOptions r;
      r.api_version = gv;
      r.kind = kind;
      r.subresource = sub;
      r.clock = &clock;
      r.max_update_managers = 2;
      absl::StatusOr<smdx::FieldManager> fm = c.NewFieldManager(r);
      if (!fm.ok()) std::abort();
      out->push_back(*std::move(fm));
    };
    const smdx::Catalog builtin = smdx::Catalog::Builtin();
    add(builtin, "apps/v1", "Deployment", "");
    add(builtin, "apps/v1", "Deployment", "scale");
    add(builtin, "v1", "Pod", "");
    absl::StatusOr<smdx::Catalog> cr = smdx::Catalog::FromDocuments({kCrd});
    if (!cr.ok()) std::abort();
    for (const char* sub : {"", "status", "scale"})
      add(*cr, "fuzz.smdx.dev/v1", "Scaler", sub);
    return out;
  }();
  return *fms;
}

// A finding prints what failed to decode, and the object.
void CheckResult(const smdx::FieldManagerResult& r) {
  if (!r.ok()) return;
  absl::Status st = smdx::DecodeManagedFields(r.object).status();
  if (st.ok()) return;
  std::fprintf(stderr, "the result's managedFields do not decode: %s\n%s\n",
               std::string(st.message()).c_str(),
               smdx::ToJson(r.object).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<smdx::Value>> docs =
      smdx::ParseYamlDocuments(text);
  if (!docs.ok() || docs->empty()) return 0;
  const smdx::Value live = (*docs)[0];
  const smdx::Value config = docs->size() > 1 ? (*docs)[1] : smdx::Value();
  const smdx::Value written = docs->size() > 2 ? (*docs)[2] : config;
  const smdx::FieldManager& fm = Manager();
  smdx::FieldManagerResult a = fm.Apply(live, config, "kubectl", false);
  CheckResult(a);
  CheckResult(fm.Apply(live, config, "fuzz", true));
  smdx::FieldManagerResult u = fm.Update(live, written, "writer");
  CheckResult(u);
  if (a.ok()) CheckResult(fm.Update(a.object, written, "writer"));
  for (const smdx::FieldManager& server : ServerManagers()) {
    smdx::FieldManagerResult sa = server.Apply(live, config, "kubectl", false);
    CheckResult(sa);
    CheckResult(server.Update(live, written, "writer"));
    if (sa.ok()) CheckResult(server.Update(sa.object, written, "writer"));
  }
  return 0;
}
