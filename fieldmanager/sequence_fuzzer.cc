// libFuzzer target for sequences through the FieldManager: the input
// chooses a random schema (testing/random_schema.h) and a run of applies,
// forced applies and updates by three managers with random objects of it.
// After every step:
//  - a failed operation left the live object (and its managedFields)
//    byte-identical;
//  - managedFields decode, encode back to the same list, and every fieldsV1
//    survives serialize and parse;
//  - no manager owns a field the object does not have.
// Any broken rule aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "fieldmanager/field_manager.h"
#include "fieldpath/fields_v1.h"
#include "schema/schema.h"
#include "testing/random_schema.h"
#include "typed/typed.h"

namespace {

using smdx::Set;
using smdx::Value;

void Check(bool rule) {
  if (!rule) std::abort();
}

// Every path of `set` and every prefix of one: the nodes the paths need.
Set WithPrefixes(const Set& set) {
  Set out;
  set.Iterate([&](const smdx::Path& p) {
    for (size_t n = 1; n <= p.size(); ++n) {
      out.Insert(absl::MakeConstSpan(p.data(), n));
    }
  });
  return out;
}

void CheckLive(const smdx::Type& type, const Value& live) {
  absl::StatusOr<smdx::ManagedState> state = smdx::DecodeManagedFields(live);
  Check(state.ok());
  const Value* list = smdx::FindManagedFields(live);
  if (list != nullptr) {
    Check(smdx::Identical(smdx::EncodeManagedFields(*state), *list));
  }
  const Set nodes =
      WithPrefixes(smdx::ToFieldSet(type, smdx::StripManagedFields(live)));
  for (const auto& [manager, versioned] : state->fields) {
    const Set& owned = versioned.set();
    absl::StatusOr<Set> again =
        smdx::ParseFieldsV1(smdx::SerializeFieldsV1(owned));
    Check(again.ok() && *again == owned);
    Check(owned.IsSubsetOf(nodes));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smdx::testing::ByteChoices choices(data, size);
  smdx::testing::RandomSchema random =
      smdx::testing::MakeSchema(choices, /*kubernetes=*/true);
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
      smdx::Schema::ParseSmd(random.smd_yaml);
  Check(schema.ok());
  absl::StatusOr<smdx::Type> type = smdx::Type::Named(*schema, "root");
  Check(type.ok());
  smdx::ManualClock clock(absl::FromUnixSeconds(1800000000));
  smdx::FieldManagerOptions opts;
  opts.api_version = smdx::testing::kApiVersion;
  opts.kind = smdx::testing::kKind;
  opts.clock = &clock;
  opts.max_update_managers = 1 + static_cast<int>(choices.Below(3));
  absl::StatusOr<smdx::FieldManager> fm =
      smdx::FieldManager::Create(*type, opts);
  Check(fm.ok());

  static const char* const kManagers[] = {"alice", "bob", "carol"};
  Value live;
  for (int step = 0; step < 12; ++step) {
    clock.Advance(absl::Seconds(1));
    const Value object = smdx::testing::MakeObject(random, choices);
    const char* manager = kManagers[choices.Below(3)];
    const Value before = live;
    const uint32_t op = choices.Below(3);
    smdx::FieldManagerResult r =
        op == 2 ? fm->Update(live, object, manager)
                : fm->Apply(live, object, manager, /*force=*/op == 1);
    Check(smdx::Identical(before, live));
    if (!r.ok()) continue;
    live = r.object;
    CheckLive(*type, live);
  }
  return 0;
}
