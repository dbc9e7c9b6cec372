#include "smdx/typed/typed.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/value/emit.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using testing::Yaml;

constexpr char kSchema[] = R"(types:
- name: root
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: replicas
      type: {scalar: numeric}
    - name: labels
      type:
        map:
          elementType: {scalar: string}
    - name: selector
      type:
        map:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: args
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: finalizers
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
    - name: ports
      type:
        list:
          elementType:
            map:
              fields:
              - name: port
                type: {scalar: numeric}
              - name: protocol
                type: {scalar: string}
                default: TCP
              - name: name
                type: {scalar: string}
          elementRelationship: associative
          keys: [port, protocol]
)";

Type RootType() {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(kSchema);
  EXPECT_TRUE(s.ok()) << s.status();
  return *Type::Named(*s, "root");
}

std::string Fields(const Set& s) { return SerializeFieldsV1(s); }

TEST(ValidateTest, AcceptsValidObject) {
  absl::Status st = Validate(
      RootType(),
      Yaml("name: a\nreplicas: 3\nports: [{port: 80}]\nfinalizers: [x, w]"));
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_TRUE(Validate(RootType(), Yaml("replicas: null")).ok());
}

TEST(ValidateTest, ErrorsNameThePathAndTheProblem) {
  struct Case {
    const char* yaml;
    const char* want;
  } cases[] = {
      {"replicas: \"3\"", ".replicas: expected numeric"},
      {"name: 1", ".name: expected string"},
      {"unknown: 1", ".unknown: field not declared in schema"},
      {"ports: [{port: 80}, {port: 80, protocol: TCP}]",
       ".ports: duplicate entries for key [port=80,protocol=\"TCP\"]"},
      {"finalizers: [a, a]", ".finalizers: duplicate entries for key [=\"a\"]"},
      {"labels: [1]", ".labels: expected map"},
      {"args: {a: 1}", ".args: expected list"},
  };
  for (const Case& c : cases) {
    absl::Status st = Validate(RootType(), Yaml(c.yaml));
    ASSERT_FALSE(st.ok()) << c.yaml;
    EXPECT_NE(std::string(st.message()).find(c.want), std::string::npos)
        << st.message();
  }
}

TEST(ValidateTest, KeyFieldsMayBeOmittedWhenOthersIdentifyTheItem) {
  // protocol defaults to TCP, so {name: x} is keyed by protocol alone.
  EXPECT_TRUE(Validate(RootType(), Yaml("ports: [{name: x}]")).ok());
  absl::Status st = Validate(Type::Deduced(), Yaml("a: 1"));
  EXPECT_TRUE(st.ok());
}

TEST(ValidateTest, DuplicatesAllowedOnRequest) {
  EXPECT_TRUE(
      Validate(RootType(), Yaml("finalizers: [a, a]"), ValidateOptions{true})
          .ok());
}

TEST(ValidateTest, RejectsExcessiveDepthWithoutCrashing) {
  Value v;
  for (int i = 0; i < 5000; ++i) {
    List l;
    l.push_back(std::move(v));
    v = Value(std::move(l));
  }
  Map m;
  m.Append("x", std::move(v));
  absl::Status st = Validate(Type::Deduced(), Value(std::move(m)));
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.message()).find("nesting deeper"),
            std::string::npos);
}

constexpr char kTrustSchema[] = R"(types:
- name: root
  map:
    fields:
    - name: args
      type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: selector
      type: {map: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: rules
      type:
        list:
          elementRelationship: atomic
          elementType:
            map:
              fields:
              - name: verbs
                type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: labels
      type: {map: {elementType: {scalar: string}}}
    - name: tree
      type: {namedType: node}
    - name: settree
      type: {namedType: setnode}
- name: node
  map:
    elementRelationship: atomic
    fields:
    - name: children
      type: {list: {elementType: {namedType: node}, elementRelationship: atomic}}
- name: setnode
  map:
    elementRelationship: atomic
    fields:
    - name: children
      type: {list: {elementType: {namedType: setnode}, elementRelationship: atomic}}
    - name: tags
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
)";

Type TrustType() {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::ParseSmd(kTrustSchema);
  EXPECT_TRUE(s.ok()) << s.status();
  return *Type::Named(*s, "root");
}

// Linking marks the maps and lists under which no associative list can
// sit, through cycles too.
TEST(ValidateTest, LinkingTellsWhereAssociativeListsCanBe) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::ParseSmd(kTrustSchema);
  ASSERT_TRUE(s.ok()) << s.status();
  const MapType& root = *(*s)->Find("root")->map;
  auto field = [&](const char* name) { return root.FindField(name)->type.resolved; };
  EXPECT_TRUE(root.assoc_below);
  EXPECT_FALSE(field("args")->list->assoc_below);
  EXPECT_FALSE(field("selector")->map->assoc_below);
  EXPECT_TRUE(field("rules")->list->assoc_below);
  EXPECT_FALSE(field("labels")->map->assoc_below);
  EXPECT_FALSE(field("tree")->map->assoc_below);
  EXPECT_TRUE(field("settree")->map->assoc_below);
  // A copy of a type is not linked: it says "may" until it is.
  TypeDef copy = CopyTypeDef(*std::find_if(
      (*s)->types().begin(), (*s)->types().end(),
      [](const TypeDef& t) { return t.name == "root"; }));
  EXPECT_TRUE(copy.atom.map->assoc_below);
  EXPECT_TRUE(copy.atom.map->FindField("args")->type.inlined->list->assoc_below);
}

// The node at `key` of the map `v` (of type `t`) as a trusted one: the
// field's own type, one level down.
TrustedNode FieldNode(const Type& t, const Value& v, const char* key) {
  return TrustedNode{v.map().Find(key),
                     t.root()->map->FindField(key)->type.resolved, 1};
}

// The problems a validation reports, one a line.
std::vector<std::string> Problems(const absl::Status& st) {
  std::vector<std::string> out;
  if (st.ok()) return out;
  absl::string_view m = st.message();
  if (!absl::ConsumePrefix(&m, "errors:\n  ")) return {std::string(m)};
  for (absl::string_view line : absl::StrSplit(m, "\n  "))
    out.emplace_back(line);
  return out;
}

// Trusted nodes are not walked, except for the duplicates of the
// associative lists and sets they can hold: those, and nothing else of
// what Validate finds there, are reported, in the same words and order.
TEST(ValidateTest, TrustedNodesAreCheckedForDuplicatesOnly) {
  const Type type = TrustType();
  const Value v = Yaml(
      "args: [1]\nselector: {a: 1}\nrules: [{verbs: [a, a], other: 1}]\n"
      "labels: {b: 2}\ntree: {children: [{children: 3}]}\n"
      "settree: {tags: [q], children: [{tags: [x, x]}], other: 2}\n");
  const absl::Status all = Validate(type, v);
  std::vector<TrustedNode> trusted;
  for (const MapEntry& e : v.map())
    trusted.push_back(FieldNode(type, v, e.key.c_str()));
  const absl::Status rest = ValidateTrusting(type, v, {}, trusted);
  std::vector<std::string> duplicates;
  for (const std::string& p : Problems(all)) {
    if (absl::StrContains(p, "duplicate entries")) duplicates.push_back(p);
  }
  ASSERT_EQ(duplicates.size(), 2u) << all;
  EXPECT_EQ(Problems(rest), duplicates);
  EXPECT_GT(Problems(all).size(), 7u) << all;  // every field is wrong
  // With duplicates allowed, trusted nodes are not walked at all.
  EXPECT_TRUE(ValidateTrusting(type, v, {true}, trusted).ok());
  // Nothing trusted, nodes not in the object, or nodes trusted at another
  // type or depth than they sit: Validate.
  EXPECT_EQ(ValidateTrusting(type, v, {}, {}), all);
  const Value copy = Yaml("args: [1]");
  EXPECT_EQ(ValidateTrusting(type, v, {}, {FieldNode(type, copy, "args")}),
            all);
  TrustedNode other_type = FieldNode(type, v, "labels");
  other_type.atom = FieldNode(type, v, "selector").atom;
  TrustedNode other_depth = FieldNode(type, v, "labels");
  other_depth.depth = 2;
  for (const TrustedNode& n : {other_type, other_depth}) {
    EXPECT_EQ(Problems(ValidateTrusting(type, v, {}, {n})), Problems(all));
  }
}

// The merge notes the applied nodes identical to the live ones: the atomic
// ones, and the maps and lists it takes whole.
TEST(MergeTest, NotesTheNodesTheConfigurationLeavesAsTheyAre) {
  const Type type = TrustType();
  const Value live = Yaml(
      "args: [a]\nselector: {a: x}\nlabels: {b: y}\nrules: [{verbs: [g]}]\n");
  const Value config = Yaml(
      "args: [b]\nselector: {a: x}\nlabels: {b: y}\nrules: [{verbs: [g]}]\n");
  std::vector<TrustedNode> same;
  absl::StatusOr<Value> merged = MergeNotingSame(type, &live, &config, &same);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_THAT(
      same, ::testing::UnorderedElementsAre(FieldNode(type, config, "selector"),
                                            FieldNode(type, config, "labels"),
                                            FieldNode(type, config, "rules")));
  EXPECT_EQ(*merged, *Merge(type, &live, &config));
}

// A live object may hold duplicates (an update wrote them); a
// configuration that repeats them is still refused, however alike the two.
TEST(MergeTest, DuplicatesInAnIdenticalPartAreStillFound) {
  const Type type = RootType();
  const char* text =
      "labels: {x: '1'}\n"
      "ports: [{port: 80, name: a}, {port: 53}, {port: 80, name: a}]";
  const Value live = Yaml(text);
  const Value config = Yaml(text);
  ASSERT_TRUE(Validate(type, live, {true}).ok());
  std::vector<TrustedNode> same;
  ASSERT_TRUE(MergeNotingSame(type, &live, &config, &same).ok());
  EXPECT_THAT(same, ::testing::Contains(FieldNode(type, config, "ports")));
  const absl::Status st = ValidateTrusting(type, config, {}, same);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st, Validate(type, config));
}

// Only an empty list that ToFieldSet walks into counts: not an atomic one,
// nor one inside an atomic list or map; where the value does not fit the
// type, any does.
TEST(ToFieldSetTest, EmptyGranularListsAreTheOnesOutsideAtomicNodes) {
  const Type t = RootType();
  EXPECT_TRUE(HasEmptyGranularList(t, Yaml("finalizers: []")));
  EXPECT_TRUE(HasEmptyGranularList(t, Yaml("name: a\nports: []")));
  EXPECT_FALSE(HasEmptyGranularList(t, Yaml("args: []\nports: [{port: 80}]")));
  EXPECT_FALSE(HasEmptyGranularList(t, Yaml("selector: {}\nlabels: {}")));
  EXPECT_TRUE(HasEmptyGranularList(t, Yaml("labels: [[]]")));  // not a map
  const Type trust = TrustType();
  EXPECT_FALSE(HasEmptyGranularList(
      trust, Yaml("rules: [{verbs: []}]\nsettree: {tags: []}")));
  // A deduced type's lists are atomic.
  EXPECT_FALSE(HasEmptyGranularList(Type::Deduced(), Yaml("a: {b: []}")));
}

TEST(ToFieldSetTest, FillsMissingKeyFieldsFromDefaults) {
  Set s = ToFieldSet(RootType(), Yaml("ports: [{port: 80}]"));
  EXPECT_EQ(
      Fields(s),
      R"({"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}})");
}

TEST(ToFieldSetTest, KeyFieldsGoInNameOrderWhateverOrderTheSchemaGives) {
  // ContainerPort's keys as Kubernetes names them: containerPort first,
  // which sorts before protocol anyway; here the schema names them the
  // other way round, and a default fills one of them.
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: root
  map:
    fields:
    - name: ports
      type:
        list:
          elementType:
            map:
              fields:
              - name: protocol
                type: {scalar: string}
                default: TCP
              - name: containerPort
                type: {scalar: numeric}
          elementRelationship: associative
          keys: [protocol, containerPort]
)");
  ASSERT_TRUE(s.ok()) << s.status();
  const Type t = *Type::Named(*s, "root");
  const Set given = ToFieldSet(
      t,
      Yaml("ports: [{protocol: UDP, containerPort: 53}, {containerPort: 80}]"));
  EXPECT_EQ(
      Fields(given),
      R"({"f:ports":{"k:{\"containerPort\":53,\"protocol\":\"UDP\"}":{".":{},"f:containerPort":{},"f:protocol":{}},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}})");
  // The elements are the ones a fieldsV1 text names: the sets are equal.
  absl::StatusOr<Set> read = ParseFieldsV1(Fields(given));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_TRUE(*read == given);
}

TEST(ToFieldSetTest, AtomicAndSetAndMapFields) {
  Set s =
      ToFieldSet(RootType(), Yaml("args: [a]\nselector: {a: b}\nfinalizers: "
                                  "[x]\nlabels: {app: web}\nname: n"));
  EXPECT_EQ(
      Fields(s),
      R"({"f:args":{},"f:finalizers":{"v:\"x\"":{}},"f:labels":{"f:app":{}},"f:name":{},"f:selector":{}})");
}

TEST(ToFieldSetTest, DeducedMapsAreGranularAndListsAtomic) {
  Set s = ToFieldSet(Type::Deduced(), Yaml("a: {b: 1, c: [1, 2]}\nd: {}"));
  EXPECT_EQ(Fields(s), R"({"f:a":{".":{},"f:b":{},"f:c":{}},"f:d":{}})");
}

TEST(CompareTest, ReportsAddedRemovedModified) {
  Value a = Yaml("name: a\nreplicas: 1\nlabels: {x: y}");
  Value b = Yaml("name: a\nreplicas: 2\nargs: [z]");
  Comparison c = CompareFields(RootType(), &a, &b);
  EXPECT_EQ(Fields(c.modified), R"({"f:replicas":{}})");
  EXPECT_EQ(Fields(c.added), R"({"f:args":{}})");
  EXPECT_EQ(Fields(c.removed), R"({"f:labels":{".":{},"f:x":{}}})");
  Comparison same = CompareFields(RootType(), &a, &a);
  EXPECT_TRUE(same.IsSame());
}

TEST(CompareTest, TwoParsesOfOneObjectDifferOnlyWhereTheyChanged) {
  // Nothing shares a node; alike maps and lists are passed over whole.
  const char* text =
      "name: a\nlabels: {x: '1'}\nfinalizers: [f1]\n"
      "ports: [{port: 80, name: http}, {port: 53, protocol: UDP}]";
  Value a = Yaml(text);
  Value b = Yaml(text);
  b.map().Find("ports")->list()[1].map().Set("name", Value("dns"));
  b.map().Find("labels")->map().Set("z", Value("2"));
  Comparison c = CompareFields(RootType(), &a, &b);
  EXPECT_EQ(
      Fields(c.added),
      R"({"f:labels":{"f:z":{}},"f:ports":{"k:{\"port\":53,\"protocol\":\"UDP\"}":{"f:name":{}}}})");
  EXPECT_TRUE(c.modified.Empty());
  EXPECT_TRUE(c.removed.Empty());
  Value again = Yaml(text);
  EXPECT_TRUE(CompareFields(RootType(), &a, &again).IsSame());
}

TEST(MergeTest, MergesByFieldKeyAndValue) {
  Value live = Yaml(
      "name: a\nlabels: {x: '1'}\nports: [{port: 80, name: http}, {port: 53, "
      "protocol: UDP}]\nargs: [a, b]\nfinalizers: [f1]");
  Value config = Yaml(
      "labels: {y: '2'}\nports: [{port: 80, name: web}]\nargs: "
      "[c]\nfinalizers: [f2]");
  absl::StatusOr<Value> m = Merge(RootType(), &live, &config);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m,
            Yaml("name: a\nlabels: {x: '1', y: '2'}\n"
                 "ports: [{port: 80, name: web}, {port: 53, protocol: UDP}]\n"
                 "args: [c]\nfinalizers: [f1, f2]"));
}

TEST(MergeTest, SharedItemsFollowTheAppliedOrder) {
  Value live = Yaml("finalizers: [a, b, c]");
  Value config = Yaml("finalizers: [c, a]");
  absl::StatusOr<Value> m = Merge(RootType(), &live, &config);
  ASSERT_TRUE(m.ok());
  // As SMD: a shared item waits for its turn in the applied order, an item
  // only on the left stays where it was relative to what precedes it.
  EXPECT_EQ(*m, Yaml("finalizers: [b, c, a]"));
}

TEST(MergeTest, AtomicMapReplacedWhole) {
  Value live = Yaml("selector: {a: '1', b: '2'}");
  Value config = Yaml("selector: {c: '3'}");
  EXPECT_EQ(*Merge(RootType(), &live, &config), Yaml("selector: {c: '3'}"));
}

TEST(MergeTest, UnchangedPartsShareTheLiveObjectsNodes) {
  // Parsed apart, as a stored object and a request are: what the
  // configuration leaves unchanged comes out as the live object's nodes.
  const char* text =
      "name: a\nlabels: {x: '1'}\nselector: {s: t}\nargs: [a, b]\n"
      "ports: [{port: 80, name: http}, {port: 53, protocol: UDP}]";
  Value live = Yaml(text);
  Value same = Yaml(text);
  absl::StatusOr<Value> m = Merge(RootType(), &live, &same);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(SameNode(*m, live));

  Value config = Yaml(text);
  config.map().Find("ports")->list()[1].map().Set("name", Value("dns"));
  // Merge walks everything; the updater's merge (MergeNotingSame) takes
  // the identical maps and lists whole, unwalked: the same result, sharing
  // the same nodes.
  std::vector<TrustedNode> noted;
  for (absl::StatusOr<Value> r :
       {Merge(RootType(), &live, &config),
        MergeNotingSame(RootType(), &live, &config, &noted)}) {
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(*r, config);
    for (const char* key : {"labels", "selector", "args"})
      EXPECT_TRUE(SameNode(*r->map().Find(key), *live.map().Find(key))) << key;
    const List& ports = r->map().Find("ports")->list();
    EXPECT_TRUE(SameNode(ports[0], live.map().Find("ports")->list()[0]));
    EXPECT_FALSE(SameNode(ports[1], live.map().Find("ports")->list()[1]));
  }
}

TEST(MergeTest, EqualButNotIdenticalLeavesTakeTheConfiguration) {
  // 1 and 1.0 are equal, and key order does not make maps unequal, but the
  // result holds what the configuration wrote.
  Value live = Yaml("replicas: 1\nselector: {a: x, b: y}");
  Value config = Yaml("replicas: 1.0\nselector: {b: y, a: x}");
  absl::StatusOr<Value> m = Merge(RootType(), &live, &config);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->map().Find("replicas")->IsFloat());
  EXPECT_TRUE(
      SameNode(*m->map().Find("selector"), *config.map().Find("selector")));
}

TEST(RemoveItemsTest, RemovesFieldsAndItems) {
  Value v = Yaml(
      "name: a\nports: [{port: 80, name: x}, {port: 53}]\nlabels: {a: '1', b: "
      "'2'}");
  Set s;
  s.Insert({PathElement::Field("name")});
  s.Insert({PathElement::Field("labels"), PathElement::Field("a")});
  s.Insert({PathElement::Field("ports"),
            PathElement::Key({KeyField{"port", Value(int64_t{53})},
                              KeyField{"protocol", Value("TCP")}})});
  EXPECT_EQ(RemoveItems(RootType(), v, s),
            Yaml("ports: [{port: 80, name: x}]\nlabels: {b: '2'}"));
  EXPECT_EQ(ExtractItems(RootType(), v, s),
            Yaml("name: a\nports: [{port: 53}]\nlabels: {a: '1'}"));
}

TEST(RemoveItemsTest, RemovingEverythingLeavesWhatTheReferenceLeaves) {
  // sigs.k8s.io/structured-merge-diff v4.1.2, RemoveItems(ToFieldSet(v)):
  // a map or list whose every item goes becomes null; a root that loses
  // every field becomes null.
  for (const auto& [in, want] :
       std::vector<std::pair<std::string, std::string>>{
           {"labels: {b: d, c: c}\nname: b", "labels: null"},
           {"labels: {b: d}\nfinalizers: [a, b]",
            "labels: null\nfinalizers: null"},
           {"name: x", "null"},
       }) {
    Value v = Yaml(in);
    EXPECT_EQ(RemoveItems(RootType(), v, ToFieldSet(RootType(), v)), Yaml(want))
        << in;
  }
}

TEST(EnsureNamedFieldsTest, AddsStructFieldsNotMapKeys) {
  Set s;
  s.Insert({PathElement::Field("labels"), PathElement::Field("app")});
  Set out = EnsureNamedFieldsAreMembers(RootType(), s);
  EXPECT_EQ(Fields(out), R"({"f:labels":{".":{},"f:app":{}}})");
}

TEST(ReconcileTest, CollapsesPathsBelowANowAtomicList) {
  Set s;
  s.Insert({PathElement::Field("args"), PathElement::Index(0)});
  std::optional<Set> r = ReconcileFieldSetWithSchema(RootType(), s);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(Fields(*r), R"({"f:args":{}})");
  Set ok;
  ok.Insert({PathElement::Field("name")});
  EXPECT_FALSE(ReconcileFieldSetWithSchema(RootType(), ok).has_value());
}

// Reads `fields_v1` with and without the type: the same set (or the same
// error), and `reconciled` exactly when the reconcile changes nothing.
// Returns whether the set came marked reconciled.
bool ReadFor(const Type& t, const std::string& fields_v1) {
  const Value v = Yaml(fields_v1);
  bool canonical = false, typed_canonical = false, reconciled = false;
  absl::StatusOr<Set> plain = FieldsV1FromValue(v, Limits(), &canonical);
  absl::StatusOr<Set> typed =
      FieldsV1FromValueFor(t, v, Limits(), &typed_canonical, &reconciled);
  EXPECT_EQ(plain.status(), typed.status()) << fields_v1;
  if (!plain.ok() || !typed.ok()) return false;
  EXPECT_EQ(*plain, *typed) << fields_v1;
  EXPECT_EQ(canonical, typed_canonical) << fields_v1;
  EXPECT_EQ(reconciled, !ReconcileFieldSetWithSchema(t, *typed).has_value())
      << fields_v1;
  return reconciled;
}

TEST(ReconcileTest, ReadingForATypeTellsWhetherTheReconcileChangesNothing) {
  const Type t = RootType();
  // Members and granular nodes: nothing to collapse.
  EXPECT_TRUE(ReadFor(t, R"({"f:args":{},"f:labels":{"f:app":{}},)"
                         R"("f:name":{},"f:selector":{}})"));
  EXPECT_TRUE(ReadFor(t,
                      R"({"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":)"
                      R"({".":{},"f:name":{}}}})"));
  EXPECT_TRUE(ReadFor(t, R"({"f:finalizers":{"v:\"a\"":{}}})"));
  // A member with only "." below it is a member with nothing below.
  EXPECT_TRUE(ReadFor(t, R"({"f:args":{".":{}},"f:selector":{".":{}}})"));
  // Below a field the schema lacks, and below scalars, nothing is checked.
  EXPECT_TRUE(ReadFor(t, R"({"f:gone":{"f:x":{"i:0":{}}}})"));
  EXPECT_TRUE(ReadFor(t, R"({"f:name":{"f:x":{}}})"));
  // Paths below an atomic list or map collapse.
  EXPECT_FALSE(ReadFor(t, R"({"f:args":{"i:0":{}}})"));
  EXPECT_FALSE(ReadFor(t, R"({"f:selector":{".":{},"f:app":{}}})"));
  EXPECT_FALSE(ReadFor(t, R"({"f:labels":{"f:app":{}},"f:args":{"v:1":{}}})"));
  // Keys spelled two ways are one element: the one with something below
  // it decides.
  EXPECT_TRUE(
      ReadFor(t, R"({"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{},)"
                 R"("k:{\"protocol\":\"TCP\",\"port\":80}":{"f:name":{}}}})"));
  // Errors are the plain reader's.
  EXPECT_FALSE(ReadFor(t, R"({"f:labels":{"x:1":{}}})"));
  EXPECT_FALSE(ReadFor(t, R"({"f:labels":[]})"));
  // Without a schema nothing ever collapses.
  EXPECT_TRUE(ReadFor(Type::Deduced(), R"({"f:args":{"i:0":{}}})"));
}

TEST(ReconcileTest, ReadingForATypeNamesFieldsWithTheSchemasNames) {
  const Type t = RootType();
  const Value v = Yaml(R"({"f:labels":{"f:app":{}},"f:ports":{}})");
  bool canonical = false, reconciled = false;
  absl::StatusOr<Set> s =
      FieldsV1FromValueFor(t, v, Limits(), &canonical, &reconciled);
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->entries().size(), 2u);
  // The field with something below it is named as the schema names it, the
  // same bits (a leaf is named as the plain reader names it). A name this
  // short sits in the element, as every name of up to 15 bytes does.
  const MapType& root = *t.root()->map;
  const PathElement& labels = s->entries()[0].pe;
  EXPECT_TRUE(labels.SameBits(
      PathElement::InternedField(root.FindField("labels")->interned_name)));
  EXPECT_TRUE(labels.IsInlineField());
}

TEST(RealObjectsTest, PodFieldSetMatchesReference) {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::ParseSmd(testing::ReadTestFile(
          testing::SharedPath("testdata/smd/k8s-schema.yaml")));
  ASSERT_TRUE(s.ok());
  Type pod = *Type::Named(*s, "io.k8s.api.core.v1.Pod");
  Value v =
      Yaml(testing::ReadTestFile(testing::SourcePath("testdata/pod.yaml")));
  ASSERT_TRUE(Validate(pod, v).ok());
  Value empty = Value::MakeMap();
  EXPECT_EQ(
      SerializeFieldsV1(CompareFields(pod, &empty, &v).added),
      testing::ReadTestFile(testing::SharedPath("testdata/smd/podset.json")));
  // Read back for its type, the pod's set needs no reconcile. Read for
  // another type (a Node's), the answer still agrees with the reconcile.
  EXPECT_TRUE(ReadFor(pod, testing::ReadTestFile(testing::SharedPath(
                               "testdata/smd/podset.json"))));
  ReadFor(
      *Type::Named(*s, "io.k8s.api.core.v1.Node"),
      testing::ReadTestFile(testing::SharedPath("testdata/smd/podset.json")));
}

}  // namespace
}  // namespace smdx
