#include "smdx/fieldmanager/managed_fields.h"

#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/value/emit.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using smdx::testing::Yaml;

Value Object(const std::string& entries) {
  return Yaml("metadata:\n  name: x\n  managedFields:\n" + entries);
}

TEST(ManagedFieldsTest, DecodesEntriesByIdentity) {
  absl::StatusOr<ManagedState> m = DecodeManagedFields(Object(R"(
  - manager: kubectl
    operation: Apply
    apiVersion: apps/v1
    time: "2026-01-02T03:04:05Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {"f:replicas": {}}}
  - manager: kubectl
    operation: Update
    apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1: {"f:metadata": {"f:labels": {}}}
    subresource: status
)"));
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->fields.size(), 2u);
  const std::string apply = R"({"manager":"kubectl","operation":"Apply"})";
  const std::string update =
      R"({"manager":"kubectl","operation":"Update","apiVersion":"apps/v1","subresource":"status"})";
  ASSERT_EQ(m->fields.count(apply), 1u);
  ASSERT_EQ(m->fields.count(update), 1u);
  EXPECT_TRUE(m->fields.at(apply).applied());
  EXPECT_EQ(m->fields.at(apply).api_version(), "apps/v1");
  EXPECT_EQ(SerializeFieldsV1(m->fields.at(apply).set()),
            R"({"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(FormatManagedTime(m->times.at(apply)), "2026-01-02T03:04:05Z");
  EXPECT_EQ(m->times.count(update), 0u);  // no time: none invented
  EXPECT_EQ(DisplayManager(update),
            R"("kubectl" with subresource "status" using apps/v1)");
}

TEST(ManagedFieldsTest, TimesKeepFourDigitYearsAsGoWritesThem) {
  // Kubernetes' capmanagers tests stamp entries at time.Time{} + N hours:
  // year 1, which Go's RFC 3339 writes as 0001.
  absl::StatusOr<absl::Time> t = ParseManagedTime("0001-01-01T02:00:00Z");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(FormatManagedTime(*t), "0001-01-01T02:00:00Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("0999-12-31T23:59:59Z")),
            "0999-12-31T23:59:59Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("2026-01-02T03:04:05Z")),
            "2026-01-02T03:04:05Z");
}

TEST(ManagedFieldsTest, InvalidEntriesNameTheEntryAndField) {
  struct Case {
    std::string entry, want;
  } cases[] = {
      {"  - {manager: a, operation: Patch, apiVersion: v1, fieldsType: "
       "FieldsV1}\n",
       ".metadata.managedFields[0].operation: must be Apply or Update, got "
       "\"Patch\""},
      {"  - {manager: a, operation: Apply, fieldsType: FieldsV1}\n",
       ".metadata.managedFields[0].apiVersion: must not be empty"},
      {"  - {manager: a, operation: Apply, apiVersion: v1}\n",
       ".metadata.managedFields[0].fieldsType: missing (must be FieldsV1)"},
      {"  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: "
       "FieldsV2}\n",
       ".metadata.managedFields[0].fieldsType: must be FieldsV1, got "
       "\"FieldsV2\""},
      {"  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: "
       "FieldsV1, time: yesterday}\n",
       ".metadata.managedFields[0].time: not an RFC 3339 time: \"yesterday\""},
      {"  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: "
       "FieldsV1, fieldsV1: {\"x:y\": {}}}\n",
       ".metadata.managedFields[0].fieldsV1: "},
      {"  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: "
       "FieldsV1, colour: red}\n",
       ".metadata.managedFields[0].colour: unknown field"},
      {"  - 3\n", ".metadata.managedFields[0]: expected a map"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<ManagedState> m = DecodeManagedFields(Object(c.entry));
    ASSERT_FALSE(m.ok()) << c.entry;
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(m.status().message()).rfind(c.want, 0), 0u)
        << m.status().message() << "\nwant prefix: " << c.want;
  }
}

TEST(ManagedFieldsTest, EncodesInTheApiserversOrder) {
  ManagedState s;
  auto add = [&](ManagerIdentity id, const char* time, bool applied) {
    std::string key = EncodeManagerIdentity(id);
    Set set;
    set.Insert({PathElement::Field("spec")});
    s.fields[key] = VersionedSet(set, id.api_version, applied);
    if (time != nullptr) s.times[key] = *ParseManagedTime(time);
  };
  add({"zed", "Update", "v1", ""}, "2026-01-01T00:00:01Z", false);
  add({"amy", "Update", "v1", ""}, "2026-01-01T00:00:02+01:00", false);
  add({"bob", "Apply", "v1", ""}, "2026-01-01T00:00:09Z", true);
  add({"amy", "Update", "v2", ""}, "2026-01-01T00:00:01.9Z", false);
  add({"old", "Update", "v1", ""}, nullptr, false);
  Value list = EncodeManagedFields(s);
  ASSERT_TRUE(list.IsList());
  std::vector<std::string> got;
  for (const Value& e : list.list()) {
    const Value* t = e.map().Find("time");
    got.push_back(e.map().Find("manager")->AsString() + "@" +
                  e.map().Find("apiVersion")->AsString() + "@" +
                  (t ? t->AsString() : "-"));
  }
  // Apply first; then by time (seconds; none = 0), manager, apiVersion.
  EXPECT_EQ(got, (std::vector<std::string>{
                     "bob@v1@2026-01-01T00:00:09Z",
                     "old@v1@-",
                     "amy@v1@2025-12-31T23:00:02Z",
                     "amy@v2@2026-01-01T00:00:01Z",
                     "zed@v1@2026-01-01T00:00:01Z",
                 }));
  absl::StatusOr<ManagedState> back = DecodeManagedFieldsList(list);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->fields.size(), s.fields.size());
  EXPECT_EQ(back->times, s.times);
}

// Encoding writes an entry's fieldsV1 as it was read while its set is
// unchanged, and that is only kept when it is the canonical encoding: the
// output is the same as encoding every set anew.
TEST(ManagedFieldsTest, EncodingMatchesFreshEncodingWhateverWasRead) {
  absl::StatusOr<ManagedState> m = DecodeManagedFields(Object(R"(
  - manager: canonical
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {"f:metadata": {"f:labels": {".": {}, "f:a": {}}}, "f:spec": {}}
  - manager: unordered
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {}, "f:metadata": {"f:labels": {"f:a": {}, ".": {}}}}
)"));
  ASSERT_TRUE(m.ok()) << m.status();
  const std::string canonical = R"({"manager":"canonical","operation":"Apply"})";
  const std::string unordered = R"({"manager":"unordered","operation":"Apply"})";
  EXPECT_EQ(m->decoded.count(canonical), 1u);
  EXPECT_EQ(m->decoded.count(unordered), 0u);
  auto fresh = [](const ManagedState& state) {
    ManagedState copy = state;
    copy.decoded.clear();
    return EncodeManagedFields(copy);
  };
  EXPECT_EQ(ToJson(EncodeManagedFields(*m)), ToJson(fresh(*m)));
  // A changed set (an equal one built anew, and a different one).
  Set same = m->fields.at(canonical).set();
  m->fields[canonical] = VersionedSet(std::move(same), "v1", true);
  EXPECT_EQ(ToJson(EncodeManagedFields(*m)), ToJson(fresh(*m)));
  Set more = m->fields.at(canonical).set();
  more.Insert({PathElement::Field("spec"), PathElement::Field("replicas")});
  m->fields[canonical] = VersionedSet(std::move(more), "v1", true);
  const std::string out = ToJson(EncodeManagedFields(*m));
  EXPECT_EQ(out, ToJson(fresh(*m)));
  EXPECT_NE(out.find(R"("f:spec":{".":{},"f:replicas":{}})"),
            std::string::npos)
      << out;
}

TEST(ManagedFieldsTest, IdentitiesDecodeWithAndWithoutEscapes) {
  const ManagerIdentity ids[] = {
      {"kubectl", "Apply", "", ""},
      {"kube-controller-manager", "Update", "apps/v1", "status"},
      {"with \"quotes\" and \\", "Update", "v1", ""},
      {"caf\u00e9", "Apply", "", "scale"},
      {"", "Update", "v1", ""},
  };
  for (const ManagerIdentity& id : ids) {
    absl::StatusOr<ManagerIdentity> back =
        DecodeManagerIdentity(EncodeManagerIdentity(id));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->manager, id.manager);
    EXPECT_EQ(back->operation, id.operation);
    EXPECT_EQ(back->api_version, id.operation == "Apply" ? "" : id.api_version);
    EXPECT_EQ(back->subresource, id.subresource);
  }
  // Other shapes go through the JSON reader: fields in any order, unknown
  // ones ignored, spaces allowed; a key that is not an object fails.
  absl::StatusOr<ManagerIdentity> odd = DecodeManagerIdentity(
      R"({ "operation" : "Update", "x": 1, "manager":"m\u0041"})");
  ASSERT_TRUE(odd.ok()) << odd.status();
  EXPECT_EQ(odd->manager, "mA");
  EXPECT_EQ(odd->operation, "Update");
  EXPECT_FALSE(DecodeManagerIdentity(R"({"manager":"a",})").ok());
  EXPECT_FALSE(DecodeManagerIdentity("kubectl").ok());
}

TEST(ManagedFieldsTest, TimesOfEveryShapeParseAsRfc3339) {
  // The apiserver's own shape, and others the general reader takes.
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("2024-02-29T12:00:00Z")),
            "2024-02-29T12:00:00Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("2026-03-31T23:59:59Z")),
            "2026-03-31T23:59:59Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("2026-01-01T00:00:00+02:00")),
            "2025-12-31T22:00:00Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("2026-01-01T00:00:00.75Z")),
            "2026-01-01T00:00:00Z");
  EXPECT_EQ(FormatManagedTime(*ParseManagedTime("9999-12-31T23:59:59Z")),
            "9999-12-31T23:59:59Z");
  for (const char* bad : {"2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
                          "2026-01-01T24:00:00Z", "2026-01-01 00:00:00Z",
                          "20x6-01-01T00:00:00Z"}) {
    EXPECT_FALSE(ParseManagedTime(bad).ok()) << bad;
  }
}

TEST(ManagedFieldsTest, LongManagerNamesDecodeButDoNotValidate) {
  absl::StatusOr<ManagedState> m = DecodeManagedFields(
      Object("  - {manager: " + std::string(129, 'm') +
             ", operation: Apply, apiVersion: v1, fieldsType: FieldsV1}\n"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(ValidateManagerNames(*m).message(),
            ".metadata.managedFields[0].manager: Too long: must have at most "
            "128 bytes");
}

TEST(ManagedFieldsTest, ALaterEntryWithTheSameIdentityWins) {
  absl::StatusOr<ManagedState> m = DecodeManagedFields(
      Object("  - {manager: a, operation: Apply, apiVersion: v1, fieldsType: "
             "FieldsV1, time: \"2026-01-01T00:00:00Z\", fieldsV1: {f:x: {}}}\n"
             "  - {manager: a, operation: Apply, apiVersion: v2, fieldsType: "
             "FieldsV1, fieldsV1: {f:y: {}}}\n"));
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->fields.size(), 1u);
  const VersionedSet& vs = m->fields.begin()->second;
  EXPECT_EQ(vs.api_version(), "v2");
  EXPECT_EQ(SerializeFieldsV1(vs.set()), R"({"f:y":{}})");
  EXPECT_TRUE(m->times.empty());
}

TEST(ManagedFieldsTest, ResetForms) {
  EXPECT_TRUE(IsManagedFieldsReset(Yaml("[]")));
  EXPECT_TRUE(IsManagedFieldsReset(Yaml("[{}]")));
  EXPECT_FALSE(IsManagedFieldsReset(Yaml("[{}, {}]")));
  EXPECT_FALSE(IsManagedFieldsReset(Yaml("[{manager: a}]")));
  EXPECT_FALSE(IsManagedFieldsReset(Yaml("null")));
}

std::string Entries(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&out, "  - {manager: m", i,
                    ", operation: Apply, apiVersion: v1, fieldsType: FieldsV1,"
                    " fieldsV1: {\"f:data\": {\"f:k\": {}}}}\n");
  }
  return out;
}

TEST(ManagedFieldsTest, EntriesStopAtTheLimit) {
  Limits l;
  l.max_managed_fields_entries = 3;
  EXPECT_TRUE(DecodeManagedFields(Object(Entries(3)), l).ok());
  EXPECT_EQ(DecodeManagedFields(Object(Entries(4)), l).status().message(),
            ".metadata.managedFields: 4 entries is over the "
            "max_managed_fields_entries limit of 3");
}

TEST(ManagedFieldsTest, FieldsV1BytesAndDepthStopAtTheLimits) {
  // {"f:data":{"f:k":{}}} is 21 bytes of compact JSON.
  Limits l;
  l.max_fields_v1_bytes = 21;
  EXPECT_TRUE(DecodeManagedFields(Object(Entries(1)), l).ok());
  l.max_fields_v1_bytes = 20;
  EXPECT_EQ(DecodeManagedFields(Object(Entries(1)), l).status().message(),
            ".metadata.managedFields[0].fieldsV1: fieldsV1[\"f:data\"]: field "
            "set of at least 21 bytes is over the max_fields_v1_bytes limit "
            "of 20");
  l = Limits();
  l.max_depth = 2;
  EXPECT_TRUE(DecodeManagedFields(Object(Entries(1)), l).ok());
  l.max_depth = 1;
  EXPECT_EQ(DecodeManagedFields(Object(Entries(1)), l).status().message(),
            ".metadata.managedFields[0].fieldsV1: fieldsV1[\"f:data\"]: "
            "nesting at level 2 is over the max_depth limit of 1");
}

// An expected entry is taken without reading it only when its fieldsV1 is
// exactly the expected set's encoding; the state decoded is the same as
// without the expectation, errors and limits included.
TEST(ManagedFieldsTest, AnExpectedEntryDecodesAsAnyOther) {
  const std::string key = R"({"manager":"m0","operation":"Apply"})";
  auto expect = [&](const std::string& fields_v1) {
    absl::StatusOr<Set> s = ParseFieldsV1(fields_v1);
    EXPECT_TRUE(s.ok()) << s.status();
    return ExpectedEntry{key, std::make_shared<const Set>(*s)};
  };
  auto same = [](const ManagedState& a, const ManagedState& b) {
    EXPECT_EQ(ToJson(EncodeManagedFields(a)), ToJson(EncodeManagedFields(b)));
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (const auto& [k, vs] : a.fields) {
      ASSERT_EQ(b.fields.count(k), 1u) << k;
      EXPECT_EQ(vs, b.fields.at(k)) << k;
      EXPECT_EQ(a.decoded.count(k), b.decoded.count(k)) << k;
    }
  };
  const Value two = Object(Entries(2));
  const absl::StatusOr<ManagedState> plain = DecodeManagedFields(two);
  ASSERT_TRUE(plain.ok()) << plain.status();

  // The same set, written as the encoder writes it: taken, shared.
  const ExpectedEntry hit = expect(R"({"f:data":{"f:k":{}}})");
  absl::StatusOr<ManagedState> m = DecodeManagedFields(two, Limits(), nullptr, &hit);
  ASSERT_TRUE(m.ok()) << m.status();
  same(*m, *plain);
  EXPECT_EQ(m->fields.at(key).shared_set(), hit.set);
  EXPECT_EQ(m->decoded.at(key).set, hit.set);
  // Another manager's entry with that set is read as before.
  const std::string other = R"({"manager":"m1","operation":"Apply"})";
  EXPECT_NE(m->fields.at(other).shared_set(), hit.set);

  // Another set, or the same set spelled otherwise: read.
  const ExpectedEntry miss = expect(R"({"f:data":{"f:j":{}}})");
  m = DecodeManagedFields(two, Limits(), nullptr, &miss);
  ASSERT_TRUE(m.ok()) << m.status();
  same(*m, *plain);
  EXPECT_NE(m->fields.at(key).shared_set(), miss.set);
  const Value unordered = Object(
      "  - {manager: m0, operation: Apply, apiVersion: v1, fieldsType: "
      "FieldsV1, fieldsV1: {\"f:b\": {}, \"f:a\": {}}}\n");
  const ExpectedEntry ab = expect(R"({"f:a":{},"f:b":{}})");
  m = DecodeManagedFields(unordered, Limits(), nullptr, &ab);
  ASSERT_TRUE(m.ok()) << m.status();
  same(*m, *DecodeManagedFields(unordered));
  EXPECT_NE(m->fields.at(key).shared_set(), ab.set);
  EXPECT_EQ(m->decoded.count(key), 0u);

  // Over a limit, or with another field of the entry invalid, the entry
  // fails as it does without the expectation.
  Limits l;
  l.max_fields_v1_bytes = 20;
  EXPECT_EQ(DecodeManagedFields(two, l, nullptr, &hit).status(),
            DecodeManagedFields(two, l).status());
  l = Limits();
  l.max_depth = 1;
  EXPECT_EQ(DecodeManagedFields(two, l, nullptr, &hit).status(),
            DecodeManagedFields(two, l).status());
  const Value bad_time = Object(
      "  - {manager: m0, operation: Apply, apiVersion: v1, time: yesterday, "
      "fieldsType: FieldsV1, fieldsV1: {\"f:data\": {\"f:k\": {}}}}\n");
  EXPECT_FALSE(DecodeManagedFields(bad_time).ok());
  EXPECT_EQ(DecodeManagedFields(bad_time, Limits(), nullptr, &hit).status(),
            DecodeManagedFields(bad_time).status());
}

}  // namespace
}  // namespace smdx
