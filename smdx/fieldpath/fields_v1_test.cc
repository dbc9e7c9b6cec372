#include "smdx/fieldpath/fields_v1.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/internal/json_text.h"
#include "smdx/value/parse.h"

namespace smdx {
namespace {

TEST(FieldsV1Test, RoundTripsByteIdentically) {
  const std::string text =
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})";
  absl::StatusOr<Set> s = ParseFieldsV1(text);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SerializeFieldsV1(*s), text);
  EXPECT_TRUE(
      s->Has({PathElement::Field("spec"), PathElement::Field("finalizers"),
              PathElement::OfValue(Value(int64_t{1}))}));
}

TEST(FieldsV1Test, AcceptsAnyKeyOrderAndSortsOnOutput) {
  absl::StatusOr<Set> s =
      ParseFieldsV1(R"({"f:b":{},"f:a":{"f:y":{},".":{},"f:x":{}}})");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SerializeFieldsV1(*s),
            R"({"f:a":{".":{},"f:x":{},"f:y":{}},"f:b":{}})");
}

// The reader's scratch space is kept per thread between reads: a read that
// fails midway, deeper than the space kept, leaves nothing for the next.
// The failed read leaves entries of its own on the reader's stack (names
// too long to sit inline, and keys, which own blocks): the next read must
// not see them, and they are freed (under a leak checker, in the
// sanitizer build).
TEST(FieldsV1Test, AReadAfterAFailedDeepReadSeesNothingOfIt) {
  std::string deep;
  for (int i = 0; i < 40; ++i) {
    absl::StrAppend(&deep, "{\"f:a-name-longer-than-an-inline-one-", i,
                    "\":{},\"k:{\\\"name\\\":\\\"x", i,
                    "\\\"}\":{},\"f:b\":");
  }
  // Whole, it reads: the failure below is the one at its end.
  absl::StatusOr<Set> whole =
      ParseFieldsV1(deep + "{\"f:c\":{}}" + std::string(40, '}'));
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(whole->Size(), 40u * 2 + 1);  // f:b holds, not a member
  deep += "{\"f:c\":{},oops";
  EXPECT_FALSE(ParseFieldsV1(deep).ok());
  const std::string text =
      R"({"f:x":{"f:y":{},"f:z":{"f:w":{}}},"f:xx":{}})";
  absl::StatusOr<Set> s = ParseFieldsV1(text);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SerializeFieldsV1(*s), text);
}

// FieldsV1FromValue says whether the value is exactly what FieldsV1ToValue
// writes for the set read: then a caller may keep the value in its place.
TEST(FieldsV1Test, ValuesReadSayWhetherTheyAreTheCanonicalEncoding) {
  auto read = [](const std::string& json, bool* canonical) {
    absl::StatusOr<Value> v = ParseJson(json);
    EXPECT_TRUE(v.ok()) << v.status();
    absl::StatusOr<Set> s = FieldsV1FromValue(*v, Limits(), canonical);
    EXPECT_TRUE(s.ok()) << s.status();
    return std::make_pair(*v, *s);
  };
  const std::string canonical_texts[] = {
      R"({})",
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}})",
  };
  for (const std::string& text : canonical_texts) {
    bool canonical = false;
    auto [v, set] = read(text, &canonical);
    EXPECT_TRUE(canonical) << text;
    EXPECT_TRUE(Identical(FieldsV1ToValue(set), v)) << text;
  }
  // Each reads as a set whose encoding differs from it.
  const std::string other_texts[] = {
      R"({"f:b":{},"f:a":{}})",                  // keys out of order
      R"({"f:a":{"f:x":{},".":{}}})",            // "." not first
      R"({"f:a":{".":{}}})",                     // "." alone: a bare {}
      R"({".":{},"f:a":{}})",                    // "." at the top
      R"({"k:{\"port\":80, \"x\":\"y\"}":{}})",  // a space in a key
      R"({"k:{\"b\":1,\"a\":2}":{}})",       // key fields out of order
      R"({"v:\"\\u0061\"":{}})",                 // a value spelled otherwise
      R"({"f:a":{"f:y":{},"f:x":{}}})",          // out of order below
  };
  for (const std::string& text : other_texts) {
    bool canonical = true;
    auto [v, set] = read(text, &canonical);
    EXPECT_FALSE(canonical) << text;
    EXPECT_FALSE(Identical(FieldsV1ToValue(set), v)) << text;
  }
}

// FieldsV1ValueEncodes matches a value against a set's encoding in place:
// true exactly when reading the value gives that set, canonically.
TEST(FieldsV1Test, AValueIsMatchedAgainstTheEncodingOfASet) {
  std::vector<Set> sets;
  for (const char* f : {"podset.json", "nodeset.json", "endpointsset.json",
                        "prometheus-crdset.json"}) {
    absl::StatusOr<Set> s = ParseFieldsV1(testing::ReadTestFile(
        testing::SharedPath(std::string("testdata/smd/") + f)));
    ASSERT_TRUE(s.ok()) << f << ": " << s.status();
    sets.push_back(*std::move(s));
  }
  absl::StatusOr<Set> small = ParseFieldsV1(
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})");
  ASSERT_TRUE(small.ok()) << small.status();
  sets.push_back(*small);
  absl::StatusOr<Set> escaped = ParseFieldsV1(R"({"f:we\"ird":{"f:x\\":{}}})");
  ASSERT_TRUE(escaped.ok()) << escaped.status();
  sets.push_back(*escaped);
  sets.push_back(Set());
  for (size_t i = 0; i < sets.size(); ++i) {
    const Value v = FieldsV1ToValue(sets[i]);
    EXPECT_TRUE(FieldsV1ValueEncodes(v, sets[i])) << i;
    // Another set's encoding is not this one's.
    EXPECT_FALSE(FieldsV1ValueEncodes(v, sets[(i + 1) % sets.size()])) << i;
  }

  const Set& s = *small;
  auto is = [&](const std::string& json) {
    absl::StatusOr<Value> v = ParseJson(json);
    EXPECT_TRUE(v.ok()) << v.status();
    return FieldsV1ValueEncodes(*v, s);
  };
  EXPECT_TRUE(is(SerializeFieldsV1(s)));
  // Each reads as `s` (or fails to read), but is not its encoding.
  const std::string others[] = {
      // keys out of order
      R"({"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}},"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}}})",
      // "." not first
      R"({"f:metadata":{"f:labels":{".":{},"f:app":{}},".":{}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})",
      // a key spelled otherwise
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\": \"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})",
      // a member missing, one too many, a leaf with something below
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}}}})",
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}},"f:z":{}}})",
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":{"f:x":{}}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})",
      // not the member marker, not objects
      R"({"f:metadata":{".":{"x":{}},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})",
      R"({"f:metadata":{".":{},"f:labels":{".":{},"f:app":1}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}},"f:finalizers":{"v:1":{},"v:\"a\"":{}},"f:list":{"i:0":{}}}})",
      R"([])",
  };
  for (const std::string& text : others) EXPECT_FALSE(is(text)) << text;

  // Within the limits only, as reading holds it to them.
  const Value v = FieldsV1ToValue(s);
  // Its compact JSON, counted as reading counts it: without the escapes of
  // the quotes in keys.
  const std::string text = SerializeFieldsV1(s);
  const size_t bytes =
      text.size() - static_cast<size_t>(std::count(text.begin(), text.end(), '\\'));
  Limits l;
  l.max_fields_v1_bytes = bytes;
  l.max_depth = 4;
  EXPECT_TRUE(FieldsV1ValueEncodes(v, s, l));
  EXPECT_TRUE(FieldsV1FromValue(v, l).ok());
  l.max_fields_v1_bytes = bytes - 1;
  EXPECT_FALSE(FieldsV1ValueEncodes(v, s, l));
  EXPECT_FALSE(FieldsV1FromValue(v, l).ok());
  l.max_fields_v1_bytes = bytes;
  l.max_depth = 3;
  EXPECT_FALSE(FieldsV1ValueEncodes(v, s, l));
  EXPECT_FALSE(FieldsV1FromValue(v, l).ok());
}

TEST(FieldsV1Test, KeyFieldsAreSortedAndEscapedAsKubernetesWritesThem) {
  Set s;
  s.Insert({PathElement::Field("ports"),
            PathElement::Key({KeyField{"protocol", Value("TCP")},
                              KeyField{"port", Value(int64_t{80})}})});
  s.Insert({PathElement::Field("a<b>&")});
  EXPECT_EQ(
      SerializeFieldsV1(s),
      R"({"f:a\u003cb\u003e\u0026":{},"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{}}})");
}

TEST(FieldsV1Test, NamesASchemaInternedAreReadInterned) {
  const std::string* known = InternName("fields-v1-test-known");
  // A name that needs escapes, interned: written escaped all the same.
  const std::string* odd = InternName("fields-v1-test-<odd>");
  absl::StatusOr<Set> s = ParseFieldsV1(
      R"({"f:fields-v1-test-known":{},"f:fields-v1-test-unknown":{},)"
      R"("f:fields-v1-test-\u003codd\u003e":{}})");
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->entries().size(), 3u);
  EXPECT_EQ(s->entries()[0].pe.interned_name(), odd);
  EXPECT_EQ(s->entries()[1].pe.interned_name(), known);
  EXPECT_EQ(s->entries()[2].pe.interned_name(), nullptr);
  EXPECT_EQ(s->entries()[2].pe.field_name(), "fields-v1-test-unknown");
  EXPECT_EQ(
      SerializeFieldsV1(*s),
      R"({"f:fields-v1-test-\u003codd\u003e":{},"f:fields-v1-test-known":{},)"
      R"("f:fields-v1-test-unknown":{}})");
}

TEST(FieldsV1Test, NamesWithSpecialBytesAnywhereRoundTrip) {
  // The reader scans names eight bytes at a time: a byte that needs care
  // must be found at every offset, in every name length.
  for (const std::string& special :
       {std::string("\"", 1), std::string("\\", 1), std::string("\0", 1),
        std::string("\x01"), std::string("\n"), std::string("\xc3\xa9"),
        std::string("<"), std::string(">"), std::string("&"),
        std::string("\x7f"), std::string("?"), std::string("0"),
        std::string("-")}) {
    for (size_t len = 0; len < 20; ++len) {
      for (size_t at = 0; at <= len; ++at) {
        std::string name(len, 'a');
        name.insert(at, special);
        Set s;
        s.Insert({PathElement::Field(name), PathElement::Field("x")});
        s.Insert({PathElement::Field(name + name)});
        const std::string text = SerializeFieldsV1(s);
        // Escaped as the general JSON writer escapes it (Go's, with its
        // HTML escapes): a byte the writer's shortcuts let through shows.
        ASSERT_EQ(text, ToJson(FieldsV1ToValue(s)));
        absl::StatusOr<Set> back = ParseFieldsV1(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.status();
        ASSERT_EQ(*back, s) << text;
      }
    }
  }
}

TEST(FieldsV1Test, InternedNamesOfEveryLengthAreWrittenWhole) {
  // Interned names are copied inline in word-sized pieces.
  for (size_t len = 0; len <= 24; ++len) {
    std::string name;
    for (size_t i = 0; i < len; ++i) name.push_back(static_cast<char>('a' + i));
    Set s;
    s.Insert({PathElement::InternedField(InternName(name)),
              PathElement::InternedField(InternName("x" + name))});
    s.Insert({PathElement::InternedField(InternName(name + "z"))});
    const std::string text = SerializeFieldsV1(s);
    EXPECT_EQ(text, "{\"f:" + name + "\":{\"f:x" + name + "\":{}},\"f:" + name +
                        "z\":{}}");
    absl::StatusOr<Set> back = ParseFieldsV1(text);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, s);
  }
}

TEST(FieldsV1Test, RejectsMalformedInput) {
  for (const char* bad :
       {R"({"x:a":{}})", R"({"f:a":1})", R"({"k:[1]":{}})", R"({"i:z":{}})",
        R"({"v:{":{}})", R"({"f:a":{}} trailing)", R"([])",
        R"({"f:a":{".":1}})", R"({"a":{}})", "", "{", R"({"k":{}})",
        R"({"1":{}})", R"({"":{}})"}) {
    absl::StatusOr<Set> s = ParseFieldsV1(bad);
    EXPECT_FALSE(s.ok()) << bad;
  }
  absl::StatusOr<Set> s = ParseFieldsV1(R"({"f:spec":{"f:a":[]}})");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.status().message()).find("f:spec"), std::string::npos)
      << s.status();
  // The error names the keys down to the problem, outermost first, and
  // none of the nodes read and closed before it.
  s = ParseFieldsV1(
      R"({"f:a":{"f:x":{"f:y":{}}},"f:spec":{".":{},"f:b":{},)"
      R"("k:{\"n\":1}":{"f:c":{"f:d":{}},"f:e":[]}}})");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()),
              ::testing::StartsWith(
                  R"(fieldsV1["f:spec"]["k:{\"n\":1}"]["f:e"]: )"))
      << s.status();
}

TEST(FieldsV1Test, DecodesEscapesInKeys) {
  absl::StatusOr<Set> s =
      ParseFieldsV1(R"({"f:a\u003cb\u00e9":{},"f:q\"x":{}})");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->Has({PathElement::Field("a<b\xc3\xa9")}));
  EXPECT_TRUE(s->Has({PathElement::Field("q\"x")}));
  EXPECT_FALSE(ParseFieldsV1(R"({"f:\ud800":{}})").ok());  // lone surrogate
}

TEST(FieldsV1Test, EncodingsOfEverySizeOneAfterAnother) {
  // Encodings beyond the stack go to space each thread keeps (up to a
  // MiB): one after another, small and big and over that, each is whole.
  // (Names in order, each appended: 20,000 of them encode in 1.3 MB.)
  for (const size_t leaves : {10, 1000, 100, 20000, 3000, 40, 20000}) {
    Set s;
    for (size_t i = 0; i < leaves; ++i) {
      s.Insert({PathElement::Field("spec"),
                PathElement::Field(absl::StrCat(
                    "field-with-a-name-long-enough-to-fill-a-mebibyte-",
                    absl::Dec(i, absl::kZeroPad6)))});
    }
    const std::string text = SerializeFieldsV1(s);
    EXPECT_EQ(text.substr(0, 20), R"({"f:spec":{"f:field-)") << leaves;
    EXPECT_EQ(text.substr(text.size() - 5), R"(:{}}})") << leaves;
    absl::StatusOr<Set> back = ParseFieldsV1(text);
    ASSERT_TRUE(back.ok()) << leaves << ": " << back.status();
    EXPECT_EQ(back->Size(), leaves) << leaves;
    EXPECT_EQ(*back, s) << leaves;
    EXPECT_EQ(ToJson(FieldsV1ToValue(s)), text) << leaves;
  }
}

TEST(FieldsV1Test, EmptyObjectIsEmptySet) {
  absl::StatusOr<Set> s = ParseFieldsV1("{}");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->Empty());
  EXPECT_EQ(SerializeFieldsV1(Set()), "{}");
}

TEST(FieldsV1Test, RealFieldSetsRoundTrip) {
  for (const char* f : {"podset.json", "nodeset.json", "endpointsset.json",
                        "prometheus-crdset.json"}) {
    std::string text = testing::ReadTestFile(
        testing::SharedPath(std::string("testdata/smd/") + f));
    absl::StatusOr<Set> s = ParseFieldsV1(text);
    ASSERT_TRUE(s.ok()) << f << ": " << s.status();
    EXPECT_EQ(SerializeFieldsV1(*s), text) << f;
    EXPECT_EQ(ToJson(FieldsV1ToValue(*s)), text) << f;
  }
}

// The reader takes shortcuts for keys spelled as encoders write them
// (`"f:name":`, `".":`, `"k:{\"name\":\"value\"}":`) and reads anything
// else through its general path. The same JSON spaced out (SpaceOutJson)
// takes the general path at every key: both must read the same set, or
// fail with the same message (byte positions aside).
std::string WithoutPositions(absl::string_view message) {
  std::string out(message);
  const size_t at = out.find(" (at byte ");
  if (at != std::string::npos) out.erase(at);
  return out;
}

void ExpectReadAlikeSpacedOut(const std::string& text) {
  const std::string spaced = internal::SpaceOutJson(text);
  absl::StatusOr<Set> fast = ParseFieldsV1(text);
  absl::StatusOr<Set> general = ParseFieldsV1(spaced);
  ASSERT_EQ(fast.ok(), general.ok())
      << text << "\n"
      << fast.status() << "\n"
      << spaced << "\n"
      << general.status();
  if (fast.ok()) {
    EXPECT_EQ(*fast, *general) << text;
    EXPECT_EQ(SerializeFieldsV1(*fast), SerializeFieldsV1(*general)) << text;
  } else {
    EXPECT_EQ(WithoutPositions(fast.status().message()),
              WithoutPositions(general.status().message()))
        << text;
  }
}

TEST(FieldsV1Test, ShortcutsReadAsTheGeneralPathDoes) {
  for (const char* text : {
           // Field names: order, duplicates, shared prefixes of eight
           // bytes and more, the empty name, bytes beyond ASCII, escapes.
           R"({"f:b":{},"f:a":{}})",
           R"({"f:a":{},"f:a":{"f:x":{}},"f:a":{".":{}}})",
           R"({"f:abcdefgh1":{},"f:abcdefgh0":{},"f:abcdefgh":{}})",
           R"({"f:abcdefgh":{},"f:abcdefghij":{},"f:abcdefgi":{}})",
           R"({"f:bbbbbbbbb":{},"f:aaaaaaaaa":{},"f:b":{},"f:a":{}})",
           R"({"f:":{},".":{},"f:x":{},".":{}})",
           R"({"f:h\u00e9":{},"f:hé":{},"f:a\"b":{},"f:a\\b":{}})",
           R"({"f:a":{"f:b":{"f:c":{".":{}}},".":{}},"f:d":{}})",
           // A name and the same name with a byte after it that sorts
           // below the quote that ends a key: only the name's own bytes
           // order it.
           R"({"f:a ":{},"f:a":{}})", R"({"f:a!":{},"f:a":{}})",
           R"({"f:abcdefg ":{},"f:abcdefg":{}})",
           // Keys: sorted or not, strings and integers as JSON writes
           // them, and everything the shortcut leaves to the general path.
           R"({"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}})",
           R"({"k:{\"protocol\":\"TCP\",\"port\":80}":{}})",
           R"({"k:{\"b\":\"1\"}":{},"k:{\"a\":\"2\"}":{},"f:z":{}})",
           R"({"k:{\"c\":3,\"a\":\"more than 15 bytes\",\"b\":2}":{}})",
           // More fields than the shortcut holds (four), sorted or not.
           R"({"k:{\"a\":1,\"b\":2,\"c\":3,\"d\":4}":{}})",
           R"({"k:{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":\"5\"}":{}})",
           R"({"k:{\"e\":1,\"d\":2,\"c\":3,\"b\":4,\"a\":5}":{}})",
           R"({"k:{\"a\":-5}":{},"k:{\"a\":0}":{},"k:{\"a\":-0}":{}})",
           R"({"k:{\"a\":01}":{}})", R"({"k:{\"a\":1.5}":{}})",
           R"({"k:{\"a\":1e3}":{}})", R"({"k:{\"a\":true}":{}})",
           R"({"k:{\"a\":null}":{}})", R"({"k:{\"a\":[1]}":{}})",
           R"({"k:{\"a\":\"x\",\"a\":\"y\"}":{}})", R"({"k:{}":{}})",
           R"({"k:{\"a\\\\b\":\"c\\\"d\"}":{}})",
           R"({"k:{\"a\":\"\\u0041\"}":{}})",
           R"({"k:{\"a\":99999999999999999999}":{}})",
           R"({"k:{\"a\":9223372036854775807}":{}})",
           R"({"k:{\"a\":"x"}":{}})", R"({"k:{\"a\":\"x\"":{}})",
           R"({"k:{\"a\":\"x\"}x":{}})",
           R"({"k:{\"a\" :\"x\"}":{}})", R"({"k:{\"a\":\"x\",}":{}})",
           R"({"k:{\"a\":\"x\"}":{"k:{\"a\":\"x\"}":{}}})",
           // Keys read in place in a row: in order, out of order, equal,
           // one the other's prefix, a string and a number of one name,
           // fields before and after them, keys below keys.
           R"({"f:z":{},"k:{\"a\":\"1\"}":{},"k:{\"a\":\"2\"}":{}})",
           R"({"k:{\"a\":\"1\"}":{},"k:{\"a\":\"2\"}":{},"f:z":{}})",
           // A field between two keys in order (found by fields_v1_fuzzer:
           // the reader once checked only the fields after the last key).
           R"({"k:{\"a\":\"1\"}":{},"f:z":{},"k:{\"a\":\"2\"}":{}})",
           R"({"f:":{"k:{\"\":\"\"}":{},"f:P":{},"k:{\"p\":\"\"}":{}}})",
           R"({"k:{\"a\":\"2\"}":{},"k:{\"a\":\"1\"}":{}})",
           R"({"k:{\"a\":\"1\"}":{},"k:{\"a\":\"1\"}":{".":{}}})",
           R"({"k:{\"a\":1}":{},"k:{\"a\":1,\"b\":2}":{},"k:{\"a\":2}":{}})",
           R"({"k:{\"a\":1,\"b\":2}":{},"k:{\"a\":1}":{}})",
           R"({"k:{\"a\":1}":{},"k:{\"a\":\"1\"}":{},"k:{\"a\":0}":{}})",
           R"({"k:{\"a\":\"1\"}":{},"k:{\"a\":1}":{}})",
           R"({"k:{\"a\":-1}":{},"k:{\"a\":-2}":{},"k:{\"b\":-3}":{}})",
           R"({"k:{\"ab\":\"x\"}":{},"k:{\"a\":\"y\"}":{}})",
           R"({"k:{\"a\":\"x\"}":{},"k:{\"a\":\"xy\"}":{},"k:{\"a\":\"w\"}":{}})",
           R"({"k:{\"a\":\"2\"}":{"k:{\"a\":\"9\"}":{}},"k:{\"a\":\"1\"}":{}})",
           R"({"k:{\"a\":\"1\"}":{"k:{\"a\":\"0\"}":{}},"k:{\"a\":\"2\"}":{}})",
           R"({"k:{\"a\":\"1\"}":{},"v:1":{},"k:{\"a\":\"0\"}":{}})",
           // Values and indexes.
           R"({"v:\"a\"":{},"v:1":{},"i:0":{},"i:2":{"f:a":{}}})",
           // Malformed: each problem at a shortcut's door.
           R"({"f:a":{},})", R"({"f:a":{}")", R"({"f:a"{}})",
           R"({"f:a":{"f:b":{}})", R"({".":{"f:a":{}}})", R"({".":1})",
           R"({"f:a":{}}})", R"({"f:a:{}})", R"({"f)", R"({"k:{\")",
           R"({"f:a":{},"f:b"})", R"({"x:a":{}})", R"({"f:a":[]})",
       }) {
    ExpectReadAlikeSpacedOut(text);
  }
}

// Wide nodes below wide nodes: a node's entries wait on one stack while
// the nodes below it are read, and the stack grows meanwhile.
TEST(FieldsV1Test, WideNodesBelowWideNodesReadWhole) {
  std::string text = "{";
  Set expected;
  for (int i = 0; i < 300; ++i) {
    const std::string a = absl::StrCat("a", 1000 + i);
    absl::StrAppend(&text, i == 0 ? "" : ",", "\"f:", a, "\":{}");
    expected.Insert({PathElement::Field(a)});
  }
  absl::StrAppend(&text, ",\"f:b\":{");
  for (int i = 0; i < 3000; ++i) {
    const std::string c = absl::StrCat("c", 10000 + i);
    absl::StrAppend(&text, i == 0 ? "" : ",", "\"f:", c, "\":{}");
    expected.Insert({PathElement::Field("b"), PathElement::Field(c)});
  }
  text += "}}";
  absl::StatusOr<Set> s = ParseFieldsV1(text);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, expected);
  EXPECT_EQ(SerializeFieldsV1(*s), text);
  ExpectReadAlikeSpacedOut(text);
}

// A key of as many fields as the byte limit lets a fieldsV1 hold reads in
// about the time of its bytes (the duplicate check and the sort are not
// quadratic: 84 s for this one when they were), and a repeated name among
// them is still refused.
TEST(FieldsV1Test, KeysOfVeryManyFieldsRead) {
  constexpr int kFields = 150000;
  auto key_text = [](bool repeat) {
    std::string k = "{\"k:{";
    for (int i = kFields - 1; i >= 0; --i) {
      absl::StrAppend(&k, i == kFields - 1 ? "" : ",", "\\\"n", i,
                      "\\\":", i);
    }
    if (repeat) k += ",\\\"n7\\\":1";
    return k + "}\":{}}";
  };
  absl::StatusOr<Set> s = ParseFieldsV1(key_text(false));
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->entries().size(), 1u);
  const absl::Span<const KeyPart> key = s->entries()[0].pe.key();
  ASSERT_EQ(key.size(), static_cast<size_t>(kFields));
  EXPECT_EQ(key[0].name(), "n0");
  EXPECT_EQ(key[1].name(), "n1");
  EXPECT_EQ(key[2].name(), "n10");
  EXPECT_EQ(key[0].AsInt(), 0);
  // A repeated name is refused: the error names it, and quotes the key's
  // head only.
  const absl::Status bad = ParseFieldsV1(key_text(true)).status();
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.message()),
              ::testing::HasSubstr("duplicate key \"n7\""));
  EXPECT_THAT(std::string(bad.message()), ::testing::HasSubstr(" bytes)"));
  EXPECT_LT(bad.message().size(), 400u) << bad.message();
  // The same as a value (managedFields inside an object), and written back.
  absl::StatusOr<Value> v = ParseJson(key_text(false));
  ASSERT_TRUE(v.ok()) << v.status();
  absl::StatusOr<Set> from_value = FieldsV1FromValue(*v);
  ASSERT_TRUE(from_value.ok()) << from_value.status();
  EXPECT_EQ(*from_value, *s);
  absl::StatusOr<Value> repeated = ParseJson(key_text(true));
  ASSERT_TRUE(repeated.ok()) << repeated.status();
  const absl::Status bad_value = FieldsV1FromValue(*repeated).status();
  EXPECT_THAT(std::string(bad_value.message()),
              ::testing::HasSubstr("duplicate key \"n7\""));
  EXPECT_LT(bad_value.message().size(), 400u) << bad_value.message();
  absl::StatusOr<Set> again = ParseFieldsV1(SerializeFieldsV1(*s));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *s);
}

TEST(FieldsV1Test, ValuesDecodeAsTheirText) {
  // managedFields entries hold fieldsV1 as an object: decoded from the
  // value, it is the set the text decodes to.
  for (const char* f : {"podset.json", "nodeset.json", "endpointsset.json",
                        "prometheus-crdset.json"}) {
    std::string text = testing::ReadTestFile(
        testing::SharedPath(std::string("testdata/smd/") + f));
    absl::StatusOr<Set> from_text = ParseFieldsV1(text);
    absl::StatusOr<Set> from_value = FieldsV1FromValue(testing::Yaml(text));
    ASSERT_TRUE(from_text.ok() && from_value.ok()) << f;
    EXPECT_EQ(*from_value, *from_text) << f;
  }
  absl::StatusOr<Set> s = FieldsV1FromValue(testing::Yaml(
      R"({"f:b":{},"f:a":{"f:y":{},".":{},"f:x":{}},"f:c":{".":{}}})"));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SerializeFieldsV1(*s),
            R"({"f:a":{".":{},"f:x":{},"f:y":{}},"f:b":{},"f:c":{}})");
}

// A float key value of -0.0 is written "-0", as the reference writes it;
// reading that back must give -0.0 again, not the int 0 (which writes "0").
// Found by fields_v1_fuzzer.
TEST(FieldsV1Test, NegativeZeroSurvivesRoundTrips) {
  for (const char* text :
       {"{\"k:{\\\"\\\":-0e785}\":{\"f:ay\\n'oww,w\":{}}}",
        R"({"k:{\"a\":-0.0}":{}})", R"({"k:{\"a\":-0}":{}})",
        R"({"v:[-0,\"-0\",{\"-0\":-0}]":{}})", R"({"v:-0":{}})"}) {
    absl::StatusOr<Set> s = ParseFieldsV1(text);
    ASSERT_TRUE(s.ok()) << text << ": " << s.status();
    std::string once = SerializeFieldsV1(*s);
    EXPECT_NE(once.find("-0"), std::string::npos) << once;
    absl::StatusOr<Set> again = ParseFieldsV1(once);
    ASSERT_TRUE(again.ok()) << once << ": " << again.status();
    EXPECT_EQ(*again, *s) << text;
    EXPECT_EQ(SerializeFieldsV1(*again), once) << text;
  }
  absl::StatusOr<Set> s = ParseFieldsV1(R"({"v:[-0,\"-0\",-0.5,-01]":{}})");
  EXPECT_FALSE(s.ok());  // -01 is not JSON
  s = ParseFieldsV1(R"({"v:[-0,\"-0\",-0.5,-0e1]":{}})");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(SerializeFieldsV1(*s), R"({"v:[-0,\"-0\",-0.5,-0]":{}})");
}

TEST(FieldsV1Test, BadValuesNameTheirPath) {
  for (const char* bad :
       {R"({"x:a":{}})", R"({"f:a":1})", R"({"k:[1]":{}})",
        R"({"f:a":{".":1}})", R"([])", R"({"f:s":{"i:z":{}}})",
        // Keys too short to name an element (a fuzzer's find).
        R"({"1":{}})", R"({"k":{}})", R"({"v":{}})", R"({"f":{}})",
        R"({"":{}})"}) {
    EXPECT_FALSE(FieldsV1FromValue(testing::Yaml(bad)).ok()) << bad;
  }
  absl::StatusOr<Set> s =
      FieldsV1FromValue(testing::Yaml(R"({"f:spec":{"f:a":{"f:b":[]}}})"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.status().message(),
      "fieldsV1[\"f:spec\"][\"f:a\"][\"f:b\"]: expected an object, got list");
  // Nesting deeper than any parser lets through is an error, not a crash.
  Value deep = Value::MakeMap();
  for (int i = 0; i < 5000; ++i) {
    Map m;
    m.Append("f:a", std::move(deep));
    deep = Value(std::move(m));
  }
  s = FieldsV1FromValue(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.status().message())
                .find("nesting at level 1001 is over the max_depth limit of "
                      "1000"),
            std::string::npos)
      << s.status();
  // Taken apart from the top: a value is destroyed recursively, and 5,000
  // levels of it overflow the stack of a sanitizer build.
  while (deep.IsMap() && !deep.map().empty()) {
    Value inner = std::move(deep.map().entries()[0].value);
    deep = std::move(inner);
  }
}

TEST(FieldsV1Test, BytesAndDepthStopAtTheLimits) {
  const std::string text = R"({"f:a":{"f:b":{}},"f:c":{}})";  // 27 bytes
  Limits l;
  l.max_fields_v1_bytes = 27;
  l.max_depth = 2;
  absl::StatusOr<Set> parsed = ParseFieldsV1(text, l);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  // The value form counts the bytes of its compact JSON: the same 27.
  Value v = FieldsV1ToValue(*parsed);
  EXPECT_TRUE(FieldsV1FromValue(v, l).ok());
  l.max_fields_v1_bytes = 26;
  EXPECT_EQ(ParseFieldsV1(text, l).status().message(),
            "fieldsV1 of 27 bytes is over the max_fields_v1_bytes limit of 26");
  EXPECT_EQ(FieldsV1FromValue(v, l).status().message(),
            "fieldsV1[\"f:a\"]: field set of at least 27 bytes is over the "
            "max_fields_v1_bytes limit of 26");
  l = Limits();
  l.max_depth = 1;
  EXPECT_THAT(std::string(ParseFieldsV1(text, l).status().message()),
              ::testing::StartsWith("fieldsV1[\"f:a\"]: nesting at level 2 is "
                                    "over the max_depth limit of 1"));
  EXPECT_EQ(FieldsV1FromValue(v, l).status().message(),
            "fieldsV1[\"f:a\"]: nesting at level 2 is over the max_depth "
            "limit of 1");
}

}  // namespace
}  // namespace smdx
