// Kubernetes v1.37 manifests (testdata/manifests-v1.37) through the command
// with the embedded schema: the kinds and fields a user found refused while
// the schema was v1.27's. Each manifest applies as a create with every field
// stored and owned by kubectl, diffs clean against the result and blames
// kubectl for its fields; a container's resources.claims stays a list keyed
// by name when one claim changes.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::IsSupersetOf;

constexpr char kNow[] = "2026-01-01T00:00:00Z";

std::string ManifestDir() {
  return smdx::testing::SourcePath("testdata/manifests-v1.37");
}

// The base names of the manifests, sorted.
std::vector<std::string> ManifestNames() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(ManifestDir())) {
    if (e.path().extension() == ".yaml") {
      names.push_back(e.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

Value ParseOrFail(const std::string& text) {
  absl::StatusOr<Value> v = ParseYaml(text);
  EXPECT_TRUE(v.ok()) << v.status() << "\n" << text;
  return v.ok() ? *std::move(v) : Value();
}

// A scratch folder per test: ctest runs the tests in parallel processes.
std::string ScratchDir() {
  const ::testing::TestInfo* t =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir = absl::StrCat(::testing::TempDir(), "/manifests-v137/",
                                 t->test_suite_name(), "/", t->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// Every field of `config` is in `stored` with the same value; lists hold
// the same items in the same order. `stored` may hold more (defaults).
void ExpectHolds(const Value& stored, const Value& config,
                 const std::string& path) {
  if (config.IsMap()) {
    ASSERT_TRUE(stored.IsMap()) << path << " is not a map";
    for (const MapEntry& e : config.map()) {
      const Value* s = stored.map().Find(e.key);
      if (s == nullptr) {
        ADD_FAILURE() << path << "." << e.key << " was not stored";
        continue;
      }
      ExpectHolds(*s, e.value, absl::StrCat(path, ".", e.key));
    }
  } else if (config.IsList()) {
    ASSERT_TRUE(stored.IsList()) << path << " is not a list";
    ASSERT_EQ(stored.list().size(), config.list().size()) << path;
    for (size_t i = 0; i < config.list().size(); ++i) {
      ExpectHolds(stored.list()[i], config.list()[i],
                  absl::StrCat(path, "[", i, "]"));
    }
  } else {
    EXPECT_TRUE(Equals(stored, config)) << path << ": stored " << ToJson(stored)
                                        << ", applied " << ToJson(config);
  }
}

struct BlameLine {
  std::string owners;
  std::string text;
  bool operator==(const BlameLine& o) const {
    return owners == o.owners && text == o.text;
  }
};

// The lines of `smdx blame` output below its managers header.
std::vector<BlameLine> BlameBody(absl::string_view out) {
  std::vector<BlameLine> lines;
  size_t body = out.find("\n\n");
  if (body == absl::string_view::npos) return lines;
  for (absl::string_view line :
       absl::StrSplit(out.substr(body + 2), '\n', absl::SkipEmpty())) {
    size_t bar = line.find(" | ");
    if (bar == absl::string_view::npos) {
      ADD_FAILURE() << "not a blame line: " << line;
      continue;
    }
    lines.push_back(
        {std::string(absl::StripTrailingAsciiWhitespace(line.substr(0, bar))),
         std::string(line.substr(bar + 3))});
  }
  return lines;
}

// Applies a manifest as a create by kubectl at kNow.
class ManifestsV137Test : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = ScratchDir();
    file_ = ManifestDir() + "/" + GetParam();
    config_ = ParseOrFail(smdx::testing::ReadTestFile(file_));
    ASSERT_TRUE(config_.IsMap());
    applied_ =
        Smdx({"apply", "--field-manager", "kubectl", "--now", kNow, file_});
    ASSERT_EQ(applied_.code, 0) << applied_.err;
    stored_ = ParseOrFail(applied_.out);
    ASSERT_TRUE(stored_.IsMap());
    live_ = WriteFile(dir_ + "/live.yaml", applied_.out);
  }

  std::string dir_, file_, live_;
  Value config_, stored_;
  Result applied_;
};

TEST_P(ManifestsV137Test, ApplyStoresEveryFieldUnderOneKubectlApply) {
  EXPECT_EQ(applied_.err, "");
  ExpectHolds(stored_, config_, "");
  const Value* managed = Find(*Find(stored_, "metadata"), "managedFields");
  ASSERT_NE(managed, nullptr) << applied_.out;
  ASSERT_TRUE(managed->IsList());
  ASSERT_EQ(managed->list().size(), 1u) << applied_.out;
  const Value& entry = managed->list()[0];
  EXPECT_EQ(StringAt(entry, "manager"), "kubectl");
  EXPECT_EQ(StringAt(entry, "operation"), "Apply");
  EXPECT_EQ(StringAt(entry, "apiVersion"), StringAt(config_, "apiVersion"));
  EXPECT_EQ(StringAt(entry, "time"), kNow);
}

TEST_P(ManifestsV137Test, DiffAgainstTheStoredObjectIsEmpty) {
  Result d = Smdx(
      {"diff", "--field-manager", "kubectl", "--color", "never", live_, file_});
  EXPECT_EQ(d.code, 0) << d.out << d.err;
  EXPECT_EQ(d.out, "");
  EXPECT_EQ(d.err, "");
}

TEST_P(ManifestsV137Test, BlameAttributesTheManifestToKubectl) {
  Result b = Smdx({"blame", live_});
  ASSERT_EQ(b.code, 0) << b.err;
  // One manager: the header's only line is kubectl's apply.
  std::string header =
      absl::StrCat("managers:\n  kubectl  Apply   ",
                   StringAt(config_, "apiVersion"), "  ", kNow, "  ");
  ASSERT_TRUE(absl::StartsWith(b.out, header)) << b.out;
  size_t end_of_entry = b.out.find('\n', header.size());
  ASSERT_NE(end_of_entry, std::string::npos);
  EXPECT_EQ(b.out.substr(end_of_entry, 2), "\n\n") << b.out;

  // The manifest's own lines, blamed with the stored managedFields: every
  // line that shows a value is kubectl's, but the object's identity
  // (apiVersion, kind, metadata.name and namespace), which no manager owns.
  Value blamed = config_;
  blamed.map()
      .Find("metadata")
      ->map()
      .Set("managedFields", *Find(*Find(stored_, "metadata"), "managedFields"));
  Result own =
      Smdx({"blame", WriteFile(dir_ + "/blamed.yaml", ToYaml(blamed))});
  ASSERT_EQ(own.code, 0) << own.err;
  std::vector<BlameLine> manifest_lines = BlameBody(own.out);
  ASSERT_FALSE(manifest_lines.empty()) << own.out;
  bool in_metadata = false;
  int identity = 0;
  for (const BlameLine& l : manifest_lines) {
    if (!absl::StartsWith(l.text, " ")) in_metadata = l.text == "metadata:";
    bool is_identity =
        absl::StartsWith(l.text, "apiVersion: ") ||
        absl::StartsWith(l.text, "kind: ") ||
        (in_metadata && (absl::StartsWith(l.text, "  name: ") ||
                         absl::StartsWith(l.text, "  namespace: ")));
    if (is_identity) {
      ++identity;
      EXPECT_EQ(l.owners, "") << l.text;
    } else if (absl::EndsWith(l.text, ":")) {
      EXPECT_THAT(l.owners, ::testing::AnyOf("", "kubectl")) << l.text;
    } else {
      EXPECT_EQ(l.owners, "kubectl") << l.text << "\n" << own.out;
    }
  }
  EXPECT_EQ(identity, Find(*Find(config_, "metadata"), "namespace") ? 4 : 3);

  // The stored object's blame shows those lines with the same owners (in
  // its own order: a create starts from the Go type's zero object, whose
  // fields come first); what it shows besides (defaults) nobody owns.
  // A default inside an atomic map or list kubectl owns is kubectl's too.
  std::map<std::pair<std::string, std::string>, int> expected;
  for (const BlameLine& l : manifest_lines) ++expected[{l.owners, l.text}];
  auto indent = [](const std::string& t) {
    return t.find_first_not_of(" -");
  };
  std::vector<BlameLine> stored_lines = BlameBody(b.out);
  for (size_t i = 0; i < stored_lines.size(); ++i) {
    const BlameLine& l = stored_lines[i];
    auto it = expected.find({l.owners, l.text});
    if (it != expected.end() && it->second > 0) {
      --it->second;
      continue;
    }
    const BlameLine* parent = nullptr;
    for (size_t j = i; j-- > 0;) {
      if (indent(stored_lines[j].text) < indent(l.text)) {
        parent = &stored_lines[j];
        break;
      }
    }
    if (parent == nullptr || parent->owners != l.owners) {
      EXPECT_EQ(l.owners, "") << l.text << "\n" << b.out;
    }
  }
  for (const auto& [line, left] : expected) {
    EXPECT_EQ(left, 0) << "not in the stored object's blame: " << line.second
                       << "\n"
                       << b.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Embedded, ManifestsV137Test,
                         ::testing::ValuesIn(ManifestNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string name(
                               absl::StripSuffix(p.param, ".yaml"));
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !std::isalnum(c); }, '_');
                           return name;
                         });

// The folder covers what was refused under the v1.27 schema.
TEST(ManifestsV137CoverageTest, CoversTheKindsAndFieldsOnceRefused) {
  std::vector<std::string> names = ManifestNames();
  EXPECT_GE(names.size(), 16u);
  std::vector<std::string> kinds;
  std::string all;
  for (const std::string& name : names) {
    std::string text = smdx::testing::ReadTestFile(ManifestDir() + "/" + name);
    absl::StatusOr<std::vector<Value>> docs = ParseYamlDocuments(text);
    ASSERT_TRUE(docs.ok()) << name << ": " << docs.status();
    ASSERT_EQ(docs->size(), 1u) << name << ": one object a file";
    kinds.push_back(absl::StrCat(StringAt((*docs)[0], "apiVersion"), " ",
                                 StringAt((*docs)[0], "kind")));
    absl::StrAppend(&all, text);
  }
  EXPECT_THAT(kinds,
              IsSupersetOf({
                  "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy",
                  "admissionregistration.k8s.io/v1 "
                  "ValidatingAdmissionPolicyBinding",
                  "resource.k8s.io/v1 DeviceClass",
                  "resource.k8s.io/v1 ResourceClaimTemplate",
                  "networking.k8s.io/v1 ServiceCIDR",
                  "storage.k8s.io/v1 VolumeAttributesClass",
                  "flowcontrol.apiserver.k8s.io/v1 FlowSchema",
                  "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration",
              }));
  for (const char* field :
       {"successPolicy:", "backoffLimitPerIndex:", "completionMode: Indexed",
        "restartPolicy: Always", "preStop:", "sleep:", "trafficDistribution:",
        "volumeAttributesClassName:", "resourceClaimTemplateName:",
        "claims:"}) {
    EXPECT_TRUE(absl::StrContains(all, field)) << field;
  }
}

// A container's resources.claims is a list keyed by name: re-applying the
// manifest with one claim changed changes that item and keeps the others.
TEST(ManifestsV137ClaimsTest, ReapplyChangingOneClaimKeepsTheListKeyed) {
  std::string dir = ScratchDir();
  std::string file = ManifestDir() + "/deployment-gpu-inference.yaml";
  Result first =
      Smdx({"apply", "--field-manager", "kubectl", "--now", kNow, file});
  ASSERT_EQ(first.code, 0) << first.err;
  std::string live = WriteFile(dir + "/live.yaml", first.out);

  Value config = ParseOrFail(smdx::testing::ReadTestFile(file));
  Value* claims = config.map()
                      .Find("spec")
                      ->map()
                      .Find("template")
                      ->map()
                      .Find("spec")
                      ->map()
                      .Find("containers")
                      ->list()[0]
                      .map()
                      .Find("resources")
                      ->map()
                      .Find("claims");
  ASSERT_EQ(ToJson(*claims),
            R"([{"name":"gpu","request":"gpu"},{"name":"nic"}])");
  claims->list()[1].map().Set("request", Value("vf"));
  std::string changed = WriteFile(dir + "/changed.yaml", ToYaml(config));

  Result d = Smdx({"diff", "--field-manager", "kubectl", "--color", "never",
                   live, changed});
  EXPECT_EQ(d.code, 1) << d.out << d.err;
  EXPECT_TRUE(absl::StrContains(d.out, "\n+            request: vf\n"))
      << d.out;

  Result second = Smdx({"apply", "--field-manager", "kubectl", "--now",
                        "2026-01-01T00:05:00Z", "--live", live, changed});
  ASSERT_EQ(second.code, 0) << second.err;
  Value stored = ParseOrFail(second.out);
  const Value* container =
      &Find(*Find(*Find(*Find(stored, "spec"), "template"), "spec"),
            "containers")
           ->list()[0];
  EXPECT_EQ(
      ToJson(*Find(*Find(*container, "resources"), "claims")),
      R"([{"name":"gpu","request":"gpu"},{"name":"nic","request":"vf"}])");

  const Value& managed = *Find(*Find(stored, "metadata"), "managedFields");
  ASSERT_EQ(managed.list().size(), 1u) << second.out;
  const Value* f = Find(managed.list()[0], "fieldsV1");
  for (const char* step :
       {"f:spec", "f:template", "f:spec", "f:containers",
        R"(k:{"name":"server"})", "f:resources", "f:claims"}) {
    ASSERT_NE(f, nullptr) << step << "\n" << second.out;
    f = Find(*f, step);
  }
  ASSERT_NE(f, nullptr) << second.out;
  std::vector<std::string> keys;
  for (const MapEntry& e : f->map()) keys.push_back(e.key);
  EXPECT_THAT(keys, ElementsAre(R"(k:{"name":"gpu"})", R"(k:{"name":"nic"})"));
  EXPECT_EQ(ToJson(*Find(*f, R"(k:{"name":"nic"})")),
            R"({".":{},"f:name":{},"f:request":{}})");
  EXPECT_EQ(ToJson(*Find(*f, R"(k:{"name":"gpu"})")),
            R"({".":{},"f:name":{},"f:request":{}})");
}

}  // namespace
}  // namespace smdx::cli
