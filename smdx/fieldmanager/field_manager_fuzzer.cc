// libFuzzer target for the field-manager layer: the input is a YAML stream
// of up to three documents (live object, applied configuration, written
// object). Whatever they hold, Apply and Update return a result or an
// error, and never crash; a successful result's managedFields decode.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "smdx/fieldmanager/field_manager.h"
#include "smdx/schema/builtin.h"
#include "testing/fuzz_documents.h"

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

void CheckResult(const smdx::FieldManagerResult& r) {
  if (r.ok() && !smdx::DecodeManagedFields(r.object).ok()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smdx::testing::FuzzDocuments in;
  if (!smdx::testing::ReadFuzzDocuments(data, size, &in)) return 0;
  const smdx::Value& live = in.live;
  const smdx::Value& config = in.config;
  const smdx::Value& written = in.written;
  const smdx::FieldManager& fm = Manager();
  smdx::FieldManagerResult a = fm.Apply(live, config, "kubectl", false);
  CheckResult(a);
  CheckResult(fm.Apply(live, config, "fuzz", true));
  smdx::FieldManagerResult u = fm.Update(live, written, "writer");
  CheckResult(u);
  if (a.ok()) CheckResult(fm.Update(a.object, written, "writer"));
  return 0;
}
