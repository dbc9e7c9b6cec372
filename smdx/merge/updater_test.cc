#include "smdx/merge/updater.h"

#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/fields_v1.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx {
namespace {

using testing::Yaml;

// `more` adds fields (SMD YAML items, indented as the others).
Type DeployType(absl::string_view more = "") {
  absl::StatusOr<std::shared_ptr<const Schema>> s =
      Schema::ParseSmd(absl::StrCat(R"(types:
- name: deploy
  map:
    fields:
    - name: replicas
      type: {scalar: numeric}
    - name: image
      type: {scalar: string}
    - name: labels
      type:
        map:
          elementType: {scalar: string}
)",
                                    more));
  EXPECT_TRUE(s.ok()) << s.status();
  return *Type::Named(*s, "deploy");
}

std::string Owned(const OpResult& r, const std::string& manager) {
  auto it = r.managers.find(manager);
  return it == r.managers.end() ? "<none>"
                                : SerializeFieldsV1(it->second.set());
}

TEST(UpdaterTest, ApplyOwnsExactlyTheConfiguration) {
  Updater u(DeployType());
  OpResult r = u.Apply(Value(), Yaml("replicas: 1\nimage: a"), "v1", {},
                       "kubectl", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.object, Yaml("replicas: 1\nimage: a"));
  EXPECT_EQ(Owned(r, "kubectl"), R"({"f:image":{},"f:replicas":{}})");
  EXPECT_TRUE(r.managers.at("kubectl").applied());
  EXPECT_EQ(r.managers.at("kubectl").api_version(), "v1");
}

TEST(UpdaterTest, ConflictIsStructuredAndChangesNothing) {
  Updater u(DeployType());
  OpResult first =
      u.Apply(Value(), Yaml("replicas: 1"), "v1", {}, "kubectl", false);
  ASSERT_TRUE(first.ok());
  ManagedFields before = first.managers;
  OpResult r =
      u.Apply(first.object, Yaml("replicas: 2"), "v1", before, "hpa", false);
  ASSERT_EQ(r.kind, ErrorKind::kConflict);
  ASSERT_EQ(r.conflicts.size(), 1u);
  EXPECT_EQ(r.conflicts.list()[0].manager, "kubectl");
  EXPECT_EQ(PathString(r.conflicts.list()[0].path), ".replicas");
  EXPECT_EQ(r.conflicts.ToString(), "conflict with \"kubectl\": .replicas");
  // The caller's state is untouched.
  EXPECT_EQ(first.object, Yaml("replicas: 1"));
  EXPECT_EQ(before.size(), 1u);
}

TEST(UpdaterTest, ForceTakesOwnership) {
  Updater u(DeployType());
  OpResult first = u.Apply(Value(), Yaml("replicas: 1\nimage: a"), "v1", {},
                           "kubectl", false);
  OpResult r = u.Apply(first.object, Yaml("replicas: 2"), "v1", first.managers,
                       "hpa", true);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(r.object, Yaml("replicas: 2\nimage: a"));
  EXPECT_EQ(Owned(r, "kubectl"), R"({"f:image":{}})");
  EXPECT_EQ(Owned(r, "hpa"), R"({"f:replicas":{}})");
}

TEST(UpdaterTest, SameValueIsSharedAndDroppedFieldIsKeptForTheOtherOwner) {
  Updater u(DeployType());
  OpResult a =
      u.Apply(Value(), Yaml("replicas: 1\nimage: a"), "v1", {}, "one", false);
  OpResult b =
      u.Apply(a.object, Yaml("replicas: 1"), "v1", a.managers, "two", false);
  ASSERT_TRUE(b.ok()) << b.status;
  EXPECT_EQ(Owned(b, "one"), R"({"f:image":{},"f:replicas":{}})");
  EXPECT_EQ(Owned(b, "two"), R"({"f:replicas":{}})");
  OpResult c =
      u.Apply(b.object, Yaml("image: a"), "v1", b.managers, "one", false);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.object, Yaml("replicas: 1\nimage: a"));
  OpResult d = u.Apply(c.object, Yaml("{}"), "v1", c.managers, "two", false);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.object, Yaml("image: a"));
  EXPECT_EQ(d.managers.count("two"), 0u) << "an empty manager set is dropped";
}

TEST(UpdaterTest, UpdateMovesChangedFields) {
  Updater u(DeployType());
  OpResult a = u.Apply(Value(), Yaml("replicas: 1\nimage: a"), "v1", {},
                       "kubectl", false);
  OpResult r = u.Update(a.object, Yaml("replicas: 3\nimage: a"), "v1",
                        a.managers, "hpa");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Owned(r, "kubectl"), R"({"f:image":{}})");
  EXPECT_EQ(Owned(r, "hpa"), R"({"f:replicas":{}})");
  EXPECT_FALSE(r.managers.at("hpa").applied());
  OpResult same = u.Update(r.object, r.object, "v1", r.managers, "other");
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same.changed);
  EXPECT_EQ(same.managers.size(), 2u);
}

TEST(UpdaterTest, NoOpApplyReturnsLiveUnchanged) {
  Updater u(DeployType());
  OpResult a =
      u.Apply(Value(), Yaml("replicas: 1"), "v1", {}, "kubectl", false);
  OpResult b = u.Apply(a.object, Yaml("replicas: 1"), "v1", a.managers,
                       "kubectl", false);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b.changed);
  EXPECT_EQ(b.object, a.object);
}

TEST(UpdaterTest, InvalidInputFailsWithKindInvalid) {
  Updater u(DeployType());
  OpResult r =
      u.Apply(Value(), Yaml("replicas: many"), "v1", {}, "kubectl", false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_NE(std::string(r.status.message()).find(".replicas"),
            std::string::npos)
      << r.status;
  OpResult up = u.Update(Value(), Yaml("nope: 1"), "v1", {}, "x");
  EXPECT_EQ(up.kind, ErrorKind::kInvalid);
}

// The configuration's atomic parts the merge finds as the live object has
// them are not validated again, and errors keep their order: an invalid
// live object part that the configuration repeats is the configuration's
// error; only then is the live object's reported.
TEST(UpdaterTest, ErrorsComeInOrderWhateverTheMergeFoundTheSame) {
  Updater u(DeployType(R"(    - name: args
      type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}
)"));
  const Value bad_live = Yaml("replicas: 1\nargs: [1]");
  OpResult r = u.Apply(bad_live, Yaml("replicas: 2\nargs: [1]"), "v1", {}, "m",
                       false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(std::string(r.status.message()),
            "the applied configuration is invalid: .args[0]: expected "
            "string, got integer 1");
  r = u.Apply(bad_live, Yaml("replicas: 2\nargs: [a]"), "v1", {}, "m", false);
  EXPECT_EQ(r.kind, ErrorKind::kInvalid);
  EXPECT_EQ(std::string(r.status.message()),
            "the live object is invalid: .args[0]: expected string, got "
            "integer 1");
  r = u.Apply(bad_live, Yaml("replicas: x\nargs: [a]"), "v1", {}, "m", false);
  EXPECT_EQ(std::string(r.status.message()),
            "the applied configuration is invalid: .replicas: expected "
            "numeric (int or float), got string \"x\"");
  // A valid live object: the same configuration applies.
  r = u.Apply(Yaml("replicas: 1\nargs: [a]"), Yaml("replicas: 2\nargs: [a]"),
              "v1", {}, "m", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(r.object, Yaml("replicas: 2\nargs: [a]"));
}

// Fields set aside when the configuration is prepared are not the
// applier's, but pruning counts them as its own: a field it applied before
// and still applies stays, whether the prune compares or removes.
TEST(UpdaterTest, FieldsSetAsideStayButAreNotOwned) {
  Updater u(DeployType());
  OpResult first = u.Apply(Value(), Yaml("replicas: 1\nimage: a\nlabels: {x: z}"),
                           "v1", {}, "m", false);
  ASSERT_TRUE(first.ok()) << first.status;
  Set image;
  image.Insert({PathElement::Field("image")});
  for (const char* config :
       {"replicas: 2\nimage: a\nlabels: {x: z}",  // the last set is within
        "replicas: 2\nimage: a"}) {                // labels.x is dropped
    const Value c = Yaml(config);
    PreparedConfig p = u.Prepare(c, "v1", &image);
    EXPECT_FALSE(p.fields->Has({PathElement::Field("image")}));
    EXPECT_TRUE(p.aside.Has({PathElement::Field("image")}));
    OpResult r = u.Apply(first.object, c, "v1", first.managers, "m", false, p);
    ASSERT_TRUE(r.ok()) << r.status;
    OpResult plain = u.Apply(first.object, c, "v1", first.managers, "m", false);
    ASSERT_TRUE(plain.ok()) << plain.status;
    EXPECT_EQ(r.object, plain.object) << config;
    EXPECT_EQ(r.managers.at("m").set(),
              plain.managers.at("m").set().Difference(image))
        << config;
  }
}

TEST(UpdaterTest, IgnoredFieldsAreNeverOwned) {
  UpdaterOptions o;
  o.ignored_fields["v1"].Insert({PathElement::Field("labels")});
  Updater u(DeployType(), o);
  OpResult r = u.Apply(Value(), Yaml("replicas: 1\nlabels: {a: b}"), "v1", {},
                       "kubectl", false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Owned(r, "kubectl"), R"({"f:replicas":{}})");
}

TEST(UpdaterTest, ApplyDefaultsSettlesNullsOnlyTheConfigurationBrings) {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: root
  map:
    fields:
    - name: policy
      default: Always
      type: {scalar: string}
    - name: meta
      type:
        map:
          fields:
          - name: note
            type: {scalar: string}
          - name: tag
            type: {scalar: string}
)");
  ASSERT_TRUE(s.ok()) << s.status();
  UpdaterOptions o;
  o.apply_defaults = true;
  Updater u(*Type::Named(*s, "root"), o);
  OpResult first =
      u.Apply(Value(), Yaml("meta: {tag: a}"), "v1", {}, "kubectl", false);
  ASSERT_TRUE(first.ok()) << first.status;
  EXPECT_EQ(first.object, Yaml("meta: {tag: a}\npolicy: Always"));
  // A null in a part whose type declares no default is still removed, and
  // a re-apply without nulls leaves that part alone.
  OpResult second = u.Apply(first.object, Yaml("meta: {tag: b, note: null}"),
                            "v1", first.managers, "kubectl", false);
  ASSERT_TRUE(second.ok()) << second.status;
  EXPECT_EQ(second.object, Yaml("meta: {tag: b}\npolicy: Always"));
  OpResult third = u.Apply(second.object, Yaml("meta: {tag: c}"), "v1",
                           second.managers, "kubectl", false);
  ASSERT_TRUE(third.ok()) << third.status;
  EXPECT_EQ(third.object, Yaml("meta: {tag: c}\npolicy: Always"));
}

class RenamingConverter : public Converter {
 public:
  absl::StatusOr<Value> Convert(const Value& v,
                                const std::string& version) const override {
    if (version == "gone") return absl::NotFoundError("no such version");
    return v;
  }
};

TEST(UpdaterTest, ManagersOfVanishedVersionsAreDropped) {
  RenamingConverter conv;
  UpdaterOptions o;
  o.converter = &conv;
  Updater u(DeployType(), o);
  ManagedFields mf;
  Set s;
  s.Insert({PathElement::Field("image")});
  mf.emplace("old", VersionedSet(s, "gone", false));
  OpResult r = u.Apply(Yaml("image: a"), Yaml("replicas: 1"), "v1", mf,
                       "kubectl", false);
  ASSERT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(r.managers.count("old"), 0u);
}

// v1 calls the field `image`, v2 calls it `img` (the type has both).
class ImageRenamingConverter : public Converter {
 public:
  absl::StatusOr<Value> Convert(const Value& v,
                                const std::string& version) const override {
    if (!v.IsMap()) return v;
    const char* from = version == "v2" ? "image" : "img";
    const char* to = version == "v2" ? "img" : "image";
    Map out;
    for (const MapEntry& e : v.map())
      out.Append(e.key == from ? to : e.key, e.value);
    return Value(std::move(out));
  }
};

Type RenamedType() {
  absl::StatusOr<std::shared_ptr<const Schema>> s = Schema::ParseSmd(R"(types:
- name: deploy
  map:
    fields:
    - {name: image, type: {scalar: string}}
    - {name: img, type: {scalar: string}}
    - {name: replicas, type: {scalar: numeric}}
)");
  EXPECT_TRUE(s.ok()) << s.status();
  return *Type::Named(*s, "deploy");
}

// An updater over RenamedType with the renaming converter, and the object
// kubectl created at v1 (image and replicas).
struct RenamingFixture {
  // `config` applied by `manager` at `version` over `prev`'s object (as
  // the server hands it over: converted to that version).
  OpResult ApplyAt(const OpResult& prev, const char* config,
                   const std::string& version, const std::string& manager) {
    absl::StatusOr<Value> live = conv.Convert(prev.object, version);
    EXPECT_TRUE(live.ok());
    return u.Apply(*live, Yaml(config), version, prev.managers, manager, false);
  }

  ImageRenamingConverter conv;
  Updater u{RenamedType(), UpdaterOptions{{}, &conv}};
  OpResult first = u.Apply(Value(), Yaml("image: a\nreplicas: 1"), "v1", {},
                           "kubectl", false);
};

TEST(UpdaterTest, DroppedFieldsArePrunedAtTheLastAppliedVersion) {
  RenamingFixture f;
  ASSERT_TRUE(f.first.ok()) << f.first.status;
  EXPECT_EQ(Owned(f.first, "kubectl"), R"({"f:image":{},"f:replicas":{}})");
  // The same manager now applies at v2, where the field it set is `img`,
  // and no longer sets it: pruned at v1, `image` is what it dropped.
  OpResult second = f.ApplyAt(f.first, "replicas: 1", "v2", "kubectl");
  ASSERT_TRUE(second.ok()) << second.status;
  EXPECT_EQ(second.object, Yaml("replicas: 1"));
  EXPECT_EQ(Owned(second, "kubectl"), R"({"f:replicas":{}})");
}

TEST(UpdaterTest, FieldsOwnedAtAnotherVersionAreKeptWhenPruning) {
  // `owner` sets the image at v2 (`img`); `kubectl` applied it at v1 and
  // drops it at v1: another manager's field, named differently at its own
  // version, is kept.
  RenamingFixture f;
  ASSERT_TRUE(f.first.ok()) << f.first.status;
  OpResult b = f.ApplyAt(f.first, "img: a", "v2", "owner");
  ASSERT_TRUE(b.ok()) << b.status;
  OpResult c = f.ApplyAt(b, "replicas: 1", "v1", "kubectl");
  ASSERT_TRUE(c.ok()) << c.status;
  EXPECT_EQ(c.object, Yaml("image: a\nreplicas: 1"));
  EXPECT_EQ(Owned(c, "owner"), R"({"f:img":{}})");
}

// Fails at v2 for an object that sets `image` to "bad" (as an apiserver's
// converter fails to type what it converted).
class PickyConverter : public Converter {
 public:
  absl::StatusOr<Value> Convert(const Value& v,
                                const std::string& version) const override {
    const Value* image = v.IsMap() ? v.map().Find("image") : nullptr;
    if (version == "v2" && image != nullptr && *image == Value("bad"))
      return absl::InternalError(".image: cannot be bad at v2");
    return v;
  }
};

// A converter's failure is SMD's error, worded as SMD words it: where the
// live object is reconciled at each manager's version, as the converter
// gave it; where the written object is compared at another manager's
// version, "failed to convert new object: ..." (merge/update.go).
TEST(UpdaterTest, ConverterFailuresAreWordedAsSmdWordsThem) {
  PickyConverter conv;
  UpdaterOptions o;
  o.converter = &conv;
  Updater u(DeployType(), o);
  ManagedFields mf;
  Set s;
  s.Insert({PathElement::Field("replicas")});
  mf.emplace("other", VersionedSet(s, "v2", false));
  OpResult bad_new =
      u.Update(Yaml("image: a\nreplicas: 1"), Yaml("image: bad\nreplicas: 1"),
               "v1", mf, "ctrl");
  ASSERT_EQ(bad_new.kind, ErrorKind::kInternal) << bad_new.status;
  EXPECT_EQ(bad_new.status.message(),
            "failed to convert new object: .image: cannot be bad at v2");

  OpResult bad_live = u.Apply(Yaml("image: bad\nreplicas: 1"),
                              Yaml("image: a"), "v1", mf, "kubectl", false);
  ASSERT_EQ(bad_live.kind, ErrorKind::kInternal) << bad_live.status;
  EXPECT_EQ(bad_live.status.message(), ".image: cannot be bad at v2");

  // With the other manager at v1 nothing is converted for it.
  mf.begin()->second = VersionedSet(s, "v1", false);
  OpResult ok = u.Update(Yaml("image: a\nreplicas: 1"),
                         Yaml("image: bad\nreplicas: 1"), "v1", mf, "ctrl");
  ASSERT_TRUE(ok.ok()) << ok.status;
}

}  // namespace
}  // namespace smdx
