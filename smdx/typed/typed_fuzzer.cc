// libFuzzer target for the typed operations: the input chooses a random
// schema (testing/random_schema.h) and objects that fit it, and the
// operations must keep their algebra:
//   merge(a, a) = a;  compare(a, a) is empty;
//   every field b sets is in merge(a, b);
//   remove(a, set(a)) keeps none of a's fields;
//   a fieldsV1 value read for the type is the set read without it, and it
//   comes marked reconciled exactly when the reconcile changes nothing;
//   validating an object that trusts the nodes a merge onto a valid object
//   found the same as that object's is validating it (copies of a, of
//   merge(a, b) and an object of another schema, merged onto a);
// and validating, merging or comparing an object of another schema never
// crashes. Any broken law aborts.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/schema/schema.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "testing/fuzz_check.h"
#include "testing/nodes.h"
#include "testing/random_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using smdx::Value;
  smdx::testing::ByteChoices choices(data, size);
  smdx::testing::RandomSchema random = smdx::testing::MakeSchema(choices);
  absl::StatusOr<std::shared_ptr<const smdx::Schema>> schema =
      smdx::Schema::ParseSmd(random.smd_yaml);
  SMDX_FUZZ_CHECK(schema.ok());
  absl::StatusOr<smdx::Type> type = smdx::Type::Named(*schema, "root");
  SMDX_FUZZ_CHECK(type.ok());
  const Value a = smdx::testing::MakeObject(random, choices);
  const Value b = smdx::testing::MakeObject(random, choices);
  smdx::testing::FuzzContext() =
      absl::StrCat(random.smd_yaml, "--- a:\n", smdx::ToYaml(a), "--- b:\n",
                   smdx::ToYaml(b));
  SMDX_FUZZ_CHECK(smdx::Validate(*type, a).ok() &&
                  smdx::Validate(*type, b).ok());

  absl::StatusOr<Value> aa = smdx::Merge(*type, &a, &a);
  SMDX_FUZZ_CHECK(aa.ok() && *aa == a);
  SMDX_FUZZ_CHECK(smdx::CompareFields(*type, &a, &a).IsSame());
  absl::StatusOr<Value> ab = smdx::Merge(*type, &a, &b);
  SMDX_FUZZ_CHECK(ab.ok());
  // Every field b sets is a node of merge(a, b) (an empty map of b merged
  // into a's full one is no longer a field of its own).
  SMDX_FUZZ_CHECK(
      smdx::ToFieldSet(*type, b).IsSubsetOf(smdx::testing::Nodes(*type, *ab)));
  // What is left has none of a's fields (maps whose every field went stay
  // behind as null, as in the reference).
  const smdx::Set set_a = smdx::ToFieldSet(*type, a);
  Value removed = smdx::RemoveItems(*type, a, set_a);
  absl::StrAppend(&smdx::testing::FuzzContext(), "--- remove(a, set(a)):\n",
                  smdx::ToYaml(removed));
  SMDX_FUZZ_CHECK(smdx::ToFieldSet(*type, removed).Intersection(set_a).Empty());
  // What a merge produced compares to its inputs without surprises: from b
  // to merge(a, b) nothing b set is removed.
  SMDX_FUZZ_CHECK(smdx::CompareFields(*type, &b, &*ab)
                      .removed.Intersection(smdx::ToFieldSet(*type, b))
                      .Empty());

  // An object of another schema: errors, never crashes.
  smdx::testing::RandomSchema other = smdx::testing::MakeSchema(choices);
  const Value x = smdx::testing::MakeObject(other, choices);

  // Sets read for the type: a's own, and sets made without the schema
  // (every map granular), which the reconcile may collapse.
  const smdx::Type deduced = smdx::Type::Deduced();
  for (const smdx::Set& s :
       {set_a, smdx::ToFieldSet(deduced, a), smdx::ToFieldSet(deduced, x)}) {
    const Value v = smdx::FieldsV1ToValue(s);
    bool canonical = false, typed_canonical = false, reconciled = false;
    absl::StatusOr<smdx::Set> plain =
        smdx::FieldsV1FromValue(v, smdx::Limits(), &canonical);
    absl::StatusOr<smdx::Set> typed = smdx::FieldsV1FromValueFor(
        *type, v, smdx::Limits(), &typed_canonical, &reconciled);
    SMDX_FUZZ_CHECK(plain.ok() && typed.ok() && *plain == *typed &&
                    canonical == typed_canonical);
    SMDX_FUZZ_CHECK(
        reconciled ==
        !smdx::ReconcileFieldSetWithSchema(*type, *typed).has_value());
  }
  // Copies share no node with a: what the merge notes, it compared.
  absl::StatusOr<Value> a_copy = smdx::ParseYaml(smdx::ToYaml(a));
  absl::StatusOr<Value> ab_copy = smdx::ParseYaml(smdx::ToYaml(*ab));
  SMDX_FUZZ_CHECK(a_copy.ok() && ab_copy.ok());
  const Value* copies[] = {&*a_copy, &*ab_copy, &x};
  for (const Value* cp : copies) {
    const Value& c = *cp;
    std::vector<smdx::TrustedNode> same;
    absl::StatusOr<Value> noting = smdx::MergeNotingSame(*type, &a, &c, &same);
    // On valid sides, what it takes whole unwalked is what the walk gives.
    if (cp != &x) {
      absl::StatusOr<Value> walked = smdx::Merge(*type, &a, &c);
      SMDX_FUZZ_CHECK(noting.ok() && walked.ok() &&
                      smdx::Identical(*noting, *walked));
    }
    SMDX_FUZZ_CHECK(smdx::ValidateTrusting(*type, c, {}, same) ==
                    smdx::Validate(*type, c));
  }
  (void)smdx::Validate(*type, x);
  (void)smdx::Merge(*type, &a, &x);
  (void)smdx::Merge(*type, &x, &a);
  (void)smdx::CompareFields(*type, &a, &x);
  (void)smdx::ToFieldSet(*type, x);
  return 0;
}
