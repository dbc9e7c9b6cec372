// Current Kubernetes manifests (testdata/manifests) through the command, as
// a user drives it: apply them all, re-apply each with a change, make a
// second manager conflict over each change, and diff the configurations
// clean against the results as a kind: List. Once with the embedded schema
// and once with the v1.27 OpenAPI plus the CRD through --schema.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli/commands.h"
#include "cli/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::cli {
namespace {

using ::testing::HasSubstr;

std::string ManifestDir() {
  return smdx::testing::SourcePath("testdata/manifests");
}

std::vector<std::string> ManifestFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(ManifestDir())) {
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Change {
  std::string file;   // base name
  std::string path;   // .spec.replicas, .spec.containers[0].image
  std::string value;  // YAML scalar
};

std::vector<Change> Changes() {
  std::vector<Change> out;
  std::string text =
      smdx::testing::ReadTestFile(ManifestDir() + "/changes.txt");
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> parts = absl::StrSplit(line, '\t');
    EXPECT_EQ(parts.size(), 3u) << line;
    if (parts.size() == 3) out.push_back(Change{parts[0], parts[1], parts[2]});
  }
  return out;
}

// The value at a path of `.name` and `[index]` steps, made writable.
Value* At(Value* v, absl::string_view path) {
  while (!path.empty() && v != nullptr) {
    if (absl::ConsumePrefix(&path, ".")) {
      size_t end = path.find_first_of(".[");
      std::string name(path.substr(0, end));
      path = end == absl::string_view::npos ? "" : path.substr(end);
      v = v->IsMap() ? v->map().Find(name) : nullptr;
    } else if (absl::ConsumePrefix(&path, "[")) {
      size_t end = path.find(']');
      size_t index = 0;
      if (end == absl::string_view::npos ||
          !absl::SimpleAtoi(path.substr(0, end), &index)) {
        return nullptr;
      }
      path = path.substr(end + 1);
      v = v->IsList() && index < v->list().size() ? &v->list()[index] : nullptr;
    } else {
      return nullptr;
    }
  }
  return v;
}

class ManifestsTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/manifests-" +
           std::to_string(static_cast<int>(GetParam()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  // --schema flags: the CRD, which extends the embedded schema, or the
  // v1.27 swagger plus the CRD.
  std::vector<std::string> Schema() const {
    std::vector<std::string> out;
    if (GetParam()) {
      out = {"--schema", smdx::testing::SourcePath(
                             "smdx/schema/data/kubernetes-v1.27-swagger.json")};
    }
    out.push_back("--schema");
    out.push_back(ManifestDir() + "/crd-widgets.yaml");
    return out;
  }

  Result Run(std::vector<std::string> args) const {
    std::vector<std::string> s = Schema();
    args.insert(args.begin() + 1, s.begin(), s.end());
    return Smdx(args);
  }

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  std::string dir_;
};

TEST_P(ManifestsTest, ApplyReapplyConflictAndDiffClean) {
  std::vector<std::string> files = ManifestFiles();
  ASSERT_GE(files.size(), 30u);
  // The CRD goes first, as a cluster needs it before its resources; every
  // other file, custom resources included, is applied in one call.
  Result created = Run({"apply", "--field-manager", "ci", "--now",
                        "2026-11-24T10:00:00Z", ManifestDir()});
  ASSERT_EQ(created.code, 0) << created.err;
  absl::StatusOr<std::vector<Value>> live = ParseYamlDocuments(created.out);
  ASSERT_TRUE(live.ok()) << live.status();
  ASSERT_EQ(live->size(), files.size());
  for (const Value& obj : *live) {
    const Value* meta = obj.map().Find("metadata");
    ASSERT_NE(meta, nullptr);
    ASSERT_NE(meta->map().Find("managedFields"), nullptr) << ToYaml(obj);
  }

  // The results as a kind: List (kubectl get -o yaml), and the
  // configurations diff clean against them.
  Value list = Value::MakeMap();
  list.map().Set("apiVersion", Value("v1"));
  list.map().Set("kind", Value("List"));
  list.map().Set("items", Value(List(live->begin(), live->end())));
  std::string live_list = Write("live-list.yaml", ToYaml(list));
  Result clean = Run(
      {"diff", "--field-manager", "ci", "--live", live_list, ManifestDir()});
  EXPECT_EQ(clean.code, 0) << clean.out << clean.err;
  EXPECT_EQ(clean.out, "");

  // Each change: the owner re-applies it; another manager applying the
  // same change to the original conflicts with the owner.
  std::vector<Change> changes = Changes();
  EXPECT_GE(changes.size(), 30u);
  for (const Change& c : changes) {
    SCOPED_TRACE(c.file + " " + c.path);
    std::string original =
        smdx::testing::ReadTestFile(ManifestDir() + "/" + c.file);
    absl::StatusOr<Value> config = ParseYaml(original);
    ASSERT_TRUE(config.ok()) << config.status();
    Value* field = At(&*config, c.path);
    ASSERT_NE(field, nullptr) << "no such field";
    absl::StatusOr<Value> value = ParseYaml(c.value);
    ASSERT_TRUE(value.ok());
    ASSERT_FALSE(Equals(*field, *value)) << "the change changes nothing";
    *field = *value;
    std::string changed = Write("changed-" + c.file, ToYaml(*config));

    Result diff = Run({"diff", "--field-manager", "ci", "--color", "never",
                       "--live", live_list, changed});
    EXPECT_EQ(diff.code, 1) << diff.out << diff.err;
    Result reapplied =
        Run({"apply", "--field-manager", "ci", "--now", "2026-11-24T10:05:00Z",
             "--live", live_list, changed});
    ASSERT_EQ(reapplied.code, 0) << reapplied.err;
    absl::StatusOr<Value> stored = ParseYaml(reapplied.out);
    ASSERT_TRUE(stored.ok());
    Value* now = At(&*stored, c.path);
    if (absl::StartsWith(c.path, ".stringData.")) {
      // A Secret's stringData is stored in data, base64-encoded.
      Value* data = At(&*stored, absl::StrCat(".data.", c.path.substr(12)));
      ASSERT_NE(data, nullptr) << ToYaml(*stored);
      ASSERT_TRUE(value->IsString());
      EXPECT_EQ(data->AsString(), absl::Base64Escape(value->AsString()));
    } else if (now == nullptr) {
      // Built-in kinds go through their Go types: an omitempty field set to
      // its zero value is not stored.
      EXPECT_TRUE(value->IsBool() && !value->AsBool()) << c.value;
    } else {
      EXPECT_TRUE(Equals(*now, *value)) << ToYaml(*now);
    }

    Result conflict = Run(
        {"apply", "--field-manager", "other", "--live", live_list, changed});
    EXPECT_EQ(conflict.code, 2) << conflict.err;
    // With "ci" alone; atomic fields whose defaults the configuration
    // leaves out (a fieldRef's apiVersion) conflict too, as on a cluster.
    EXPECT_THAT(conflict.err, ::testing::AnyOf(HasSubstr("conflict with \"ci\""),
                                               HasSubstr("conflicts with \"ci\"")));
    Result forced = Run({"apply", "--field-manager", "other",
                         "--force-conflicts", "--live", live_list, changed});
    EXPECT_EQ(forced.code, 0) << forced.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Schemas, ManifestsTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? std::string("SwaggerAndCrd")
                                          : std::string("Embedded");
                         });

}  // namespace
}  // namespace smdx::cli
