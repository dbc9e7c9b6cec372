// libFuzzer target for the field managers the embedding API makes, as the
// apiserver runs them (built-in defaults, reset fields, the Scale, the
// conversion between served versions): a Deployment's main resource and
// /scale, a Pod's, a HorizontalPodAutoscaler's at autoscaling/v1 and v2
// and its v1 /status, and a custom resource's main resource, /status and
// /scale. The input is a YAML stream of up to
// three documents (live object, applied configuration, written object), as
// for smdx/fieldmanager/field_manager_fuzzer.cc; the configuration is also
// a strategic merge patch of the live object (and of the apply's result),
// and the configuration of a client-side kubectl apply of it (then the
// written object's of the result).
// Whatever they hold, every apply, update and patch returns a result or an
// error and never crashes, a successful result's managedFields decode, and
// a result deletes the object only where the live one was being deleted.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/kubectl_apply.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/value/emit.h"
#include "testing/fuzz_documents.h"

namespace {

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

const std::vector<smdx::FieldManager>& Managers() {
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
    // Managers at the other version: objects converted between them.
    add(builtin, "autoscaling/v1", "HorizontalPodAutoscaler", "");
    add(builtin, "autoscaling/v2", "HorizontalPodAutoscaler", "");
    add(builtin, "autoscaling/v1", "HorizontalPodAutoscaler", "status");
    absl::StatusOr<smdx::Catalog> cr = smdx::Catalog::FromDocuments({kCrd});
    if (!cr.ok()) std::abort();
    for (const char* sub : {"", "status", "scale"})
      add(*cr, "fuzz.smdx.dev/v1", "Scaler", sub);
    return out;
  }();
  return *fms;
}

// A finding prints what failed to decode, and the object.
void CheckResult(const smdx::FieldManagerResult& r,
                 const smdx::Value& live) {
  if (!r.ok()) return;
  const smdx::Value* meta = smdx::Find(live, "metadata");
  const smdx::Value* deleting =
      meta != nullptr ? smdx::Find(*meta, "deletionTimestamp") : nullptr;
  if (r.deleted && (deleting == nullptr || deleting->IsNull())) {
    std::fprintf(stderr, "a write deletes an object not being deleted:\n%s\n",
                 smdx::ToJson(live).c_str());
    std::abort();
  }
  absl::Status st = smdx::DecodeManagedFields(r.object).status();
  if (st.ok()) return;
  std::fprintf(stderr, "the result's managedFields do not decode: %s\n%s\n",
               std::string(st.message()).c_str(),
               smdx::ToJson(r.object).c_str());
  std::abort();
}

// Client-side kubectl apply, checked as the other requests are when
// kubectl sends one (else the live object comes back as it is, invalid
// managedFields included).
smdx::FieldManagerResult ClientSideApply(const smdx::FieldManager& fm,
                                         const smdx::Value& live,
                                         const smdx::Value& config) {
  absl::StatusOr<smdx::ClientSideApplyRequest> req =
      smdx::KubectlClientSideRequest(fm, live, config);
  smdx::FieldManagerResult r = smdx::KubectlClientSideApply(fm, live, config);
  const bool sent = req.ok() && (req->create || !req->body.IsMap() ||
                                 !req->body.map().empty());
  if (sent) CheckResult(r, live);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smdx::testing::FuzzDocuments docs;
  if (!smdx::testing::ReadFuzzDocuments(data, size, &docs)) return 0;
  for (const smdx::FieldManager& fm : Managers()) {
    smdx::FieldManagerResult a =
        fm.Apply(docs.live, docs.config, "kubectl", false);
    CheckResult(a, docs.live);
    CheckResult(fm.Update(docs.live, docs.written, "writer"), docs.live);
    if (a.ok())
      CheckResult(fm.Update(a.object, docs.written, "writer"), a.object);
    CheckResult(smdx::Patch(fm, docs.live, docs.config,
                            smdx::PatchType::kStrategic, "patcher"),
                docs.live);
    if (a.ok()) {
      CheckResult(smdx::Patch(fm, a.object, docs.config,
                              smdx::PatchType::kStrategic, "patcher"),
                  a.object);
    }
    // Client-side kubectl apply: the patch it makes of the live object's
    // annotation, the configuration and the live object.
    smdx::FieldManagerResult csa = ClientSideApply(fm, docs.live, docs.config);
    if (csa.ok()) ClientSideApply(fm, csa.object, docs.written);
  }
  return 0;
}
