// libFuzzer target for the typed operations: the input chooses a random
// schema (testing/random_schema.h) and objects that fit it, and the
// operations must keep their algebra:
//   merge(a, a) = a;  compare(a, a) is empty;
//   the field set of merge(a, b) contains b's;
//   remove(a, set(a)) is empty;
// and validating, merging or comparing an object of another schema never
// crashes. Any broken law aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "schema/schema.h"
#include "testing/random_schema.h"
#include "typed/typed.h"

namespace {

void Check(bool law) {
  if (!law) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using smdx::Value;
  smdx::testing::ByteChoices choices(data, size);
  smdx::testing::RandomSchema random = smdx::testing::MakeSchema(choices);
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
      smdx::Schema::ParseSmd(random.smd_yaml);
  Check(schema.ok());
  absl::StatusOr<smdx::Type> type = smdx::Type::Named(*schema, "root");
  Check(type.ok());
  const Value a = smdx::testing::MakeObject(random, choices);
  const Value b = smdx::testing::MakeObject(random, choices);
  Check(smdx::Validate(*type, a).ok() && smdx::Validate(*type, b).ok());

  absl::StatusOr<Value> aa = smdx::Merge(*type, &a, &a);
  Check(aa.ok() && *aa == a);
  Check(smdx::CompareFields(*type, &a, &a).IsSame());
  absl::StatusOr<Value> ab = smdx::Merge(*type, &a, &b);
  Check(ab.ok());
  Check(smdx::ToFieldSet(*type, b).IsSubsetOf(smdx::ToFieldSet(*type, *ab)));
  Value removed = smdx::RemoveItems(*type, a, smdx::ToFieldSet(*type, a));
  Check(removed.IsNull() || (removed.IsMap() && removed.map().empty()));
  // What a merge produced compares to its inputs without surprises: from b
  // to merge(a, b) nothing b set is removed.
  Check(smdx::CompareFields(*type, &b, &*ab)
            .removed.Intersection(smdx::ToFieldSet(*type, b))
            .Empty());

  // An object of another schema: errors, never crashes.
  smdx::testing::RandomSchema other = smdx::testing::MakeSchema(choices);
  const Value x = smdx::testing::MakeObject(other, choices);
  (void)smdx::Validate(*type, x);
  (void)smdx::Merge(*type, &a, &x);
  (void)smdx::Merge(*type, &x, &a);
  (void)smdx::CompareFields(*type, &a, &x);
  (void)smdx::ToFieldSet(*type, x);
  return 0;
}
