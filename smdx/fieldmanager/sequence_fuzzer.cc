// libFuzzer target for sequences through the FieldManager: the input
// chooses a random schema (testing/random_schema.h) and a run of applies,
// forced applies, updates, kubectl's applies and merge patches by three
// managers with random objects of it.
// After every step:
//  - a failed operation left the live object (and its managedFields)
//    byte-identical;
//  - managedFields decode, encode back to the same list, and every fieldsV1
//    survives serialize and parse;
//  - no manager owns a field below one the object does not have (the
//    reference itself can leave a field the object lost owned), but after
//    an update stored with the live entries (builtin_defaults, chosen by
//    the input).
// Any broken rule aborts.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/kubectl_apply.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/schema/schema.h"
#include "testing/fuzz_check.h"
#include "testing/nodes.h"
#include "testing/random_schema.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"

namespace {

using smdx::Set;
using smdx::Value;

void CheckLive(const smdx::Type& type, const Value& live, bool ownership) {
  absl::StatusOr<smdx::ManagedState> state = smdx::DecodeManagedFields(live);
  SMDX_FUZZ_CHECK(state.ok());
  const Value* list = smdx::FindManagedFields(live);
  if (list != nullptr) {
    SMDX_FUZZ_CHECK(smdx::Identical(smdx::EncodeManagedFields(*state), *list));
  }
  const Set nodes = smdx::testing::Nodes(type, smdx::StripManagedFields(live));
  for (const auto& entry : state->fields) {
    const std::string& manager = entry.first;
    const smdx::VersionedSet& versioned = entry.second;
    const Set& owned = versioned.set();
    absl::StatusOr<Set> again =
        smdx::ParseFieldsV1(smdx::SerializeFieldsV1(owned));
    SMDX_FUZZ_CHECK(again.ok() && *again == owned);
    if (!ownership) continue;
    // The reference can keep a field the object lost owned (an applier's
    // empty struct whose old content was pruned: conformance case
    // struct/applied-empty-struct-pruned-but-owned), never one below a node
    // the object lacks.
    owned.Iterate([&](const smdx::Path& path) {
      if (path.size() < 2) return;
      const bool parent_present =
          nodes.Has(absl::MakeConstSpan(path.data(), path.size() - 1));
      if (!parent_present) {
        absl::StrAppend(&smdx::testing::FuzzContext(), "--- ", manager,
                        " owns ", smdx::SerializeFieldsV1(owned),
                        " below a node the object lacks\n");
      }
      SMDX_FUZZ_CHECK(parent_present);
    });
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smdx::testing::ByteChoices choices(data, size);
  smdx::testing::RandomSchema random =
      smdx::testing::MakeSchema(choices, /*kubernetes=*/true);
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
      smdx::Schema::ParseSmd(random.smd_yaml);
  SMDX_FUZZ_CHECK(schema.ok());
  absl::StatusOr<smdx::Type> type = smdx::Type::Named(*schema, "root");
  SMDX_FUZZ_CHECK(type.ok());
  smdx::ManualClock clock(absl::FromUnixSeconds(1800000000));
  smdx::FieldManagerOptions opts;
  opts.api_version = smdx::testing::kApiVersion;
  opts.kind = smdx::testing::kKind;
  opts.clock = &clock;
  opts.max_update_managers = 1 + static_cast<int>(choices.Below(3));
  // As the apiserver runs it (the embedding API's default): an update the
  // field manager cannot take is stored with the live entries, and a
  // write that changes only times keeps the live ones.
  opts.builtin_defaults = choices.Below(2) == 1;
  absl::StatusOr<smdx::FieldManager> fm =
      smdx::FieldManager::Create(*type, opts);
  SMDX_FUZZ_CHECK(fm.ok());
  smdx::testing::FuzzContext() = random.smd_yaml;

  static const char* const kManagers[] = {"alice", "bob", "carol"};
  Value live;
  for (int step = 0; step < 12; ++step) {
    clock.Advance(absl::Seconds(1));
    const Value object = smdx::testing::MakeObject(random, choices);
    const char* manager = kManagers[choices.Below(3)];
    const Value before = live;
    const uint32_t op = choices.Below(5);
    static const char* const kOps[] = {"apply", "forced apply", "update",
                                       "kubectl's apply", "merge patch"};
    absl::StrAppend(&smdx::testing::FuzzContext(), "--- step ", step, ": ",
                    kOps[op], " by ", manager, "\n", smdx::ToYaml(object));
    smdx::FieldManagerResult r =
        op == 2   ? fm->Update(live, object, manager)
        : op == 3 ? smdx::KubectlServerSideApply(*fm, live, object, manager,
                                                 /*force=*/false)
        : op == 4 ? smdx::Patch(*fm, live, object, smdx::PatchType::kMerge,
                                manager)
                  : fm->Apply(live, object, manager, /*force=*/op == 1);
    SMDX_FUZZ_CHECK(smdx::Identical(before, live));
    if (!r.ok()) {
      absl::StrAppend(&smdx::testing::FuzzContext(),
                      "--- failed: ", r.status.message(), "\n");
      continue;
    }
    live = r.object;
    absl::StrAppend(&smdx::testing::FuzzContext(), "--- live:\n",
                    smdx::ToYaml(live));
    // An update stored with the live entries keeps what they owned, the
    // fields the body dropped too (UpdateNoErrors).
    const bool kept_entries =
        !r.warnings.empty() &&
        r.warnings.back().find("the managed fields were not updated") == 0;
    CheckLive(*type, live, /*ownership=*/!kept_entries);
    // Moving one manager's Update entry into another's Apply entry
    // (kubectl's csaupgrade) keeps the entries valid, and changes nothing
    // when it says so.
    const std::string from = kManagers[choices.Below(3)];
    absl::StatusOr<smdx::ManagedFieldsUpgrade> up =
        smdx::UpgradeManagedFields(live, {from}, manager);
    SMDX_FUZZ_CHECK(up.ok());
    SMDX_FUZZ_CHECK(smdx::DecodeManagedFields(up->object).ok());
    SMDX_FUZZ_CHECK(up->changed || smdx::Identical(up->object, live));
  }
  return 0;
}
