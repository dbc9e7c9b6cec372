#include "cli/html_page.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/test_util.h"

namespace smdx::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

HtmlManager Manager(const std::string& name, const std::string& op,
                    size_t fields) {
  HtmlManager m;
  m.label = m.manager = name;
  m.operation = op;
  m.api_version = "apps/v1";
  m.time = "2026-11-23T10:00:00Z";
  m.fields = fields;
  return m;
}

HtmlLine Line(const std::string& text, const std::string& path,
              std::vector<int> owners, HtmlMark mark = HtmlMark::kNone) {
  HtmlLine l;
  l.text = text;
  l.path = path;
  l.owners = std::move(owners);
  l.mark = mark;
  return l;
}

HtmlPage OnePage(HtmlSection s) {
  HtmlPage page;
  page.title = "smdx blame";
  page.sections.push_back(std::move(s));
  return page;
}

// The page is one file that fetches nothing: no URL, no stylesheet or
// script from elsewhere.
void ExpectSelfContained(const std::string& html) {
  EXPECT_THAT(html, Not(HasSubstr("http://")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("<script src")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
}

TEST(HtmlEscapeTest, EscapesWhatHtmlGivesMeaningTo) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("plain: text"), "plain: text");
}

TEST(HtmlPageTest, LegendRowsCarryTheEntriesAndTheirColors) {
  HtmlSection s;
  s.title = "Deployment kube-system/kube-dns";
  s.managers = {Manager("kubectl", "Apply", 94),
                Manager("autoscaler", "Apply", 1)};
  s.managers[1].subresource = "scale";
  s.lines = {Line("  replicas: 10", ".spec.replicas", {1})};
  std::string html = RenderHtmlPage(OnePage(s));
  ExpectSelfContained(html);
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<tr data-owner=\"0\" data-manager=\"kubectl\" "
                              "data-label=\"kubectl\" data-fields=\"94\""));
  EXPECT_THAT(html, HasSubstr("<td class=\"mgr\">autoscaler</td><td>Apply</td>"
                              "<td>apps/v1</td><td>scale</td>"
                              "<td>2026-11-23T10:00:00Z</td>"
                              "<td class=\"n\">1</td>"));
  // The main resource and a missing time show as "-".
  EXPECT_THAT(html, HasSubstr("<td>apps/v1</td><td>-</td>"));
  EXPECT_THAT(html, HasSubstr(absl::StrCat("background:", OwnerColor(1))));
}

TEST(HtmlPageTest, LinesNameTheirFieldAndOwners) {
  HtmlSection s;
  s.managers = {Manager("kubectl", "Apply", 2), Manager("hpa", "Update", 1)};
  s.lines = {Line("kind: Deployment", ".kind", {}),
             Line("  replicas: 3", ".spec.replicas", {0, 1})};
  std::string html = RenderHtmlPage(OnePage(s));
  EXPECT_THAT(html, HasSubstr("<div id=\"s1-L1\" class=\"l\" "
                              "data-path=\".kind\" data-owners=\"\" "
                              "data-o=\"\">"));
  EXPECT_THAT(html, HasSubstr("<code>kind: Deployment</code>"));
  EXPECT_THAT(html, HasSubstr("data-path=\".spec.replicas\" "
                              "data-owners=\"kubectl,hpa\" data-o=\"0 1\""));
  // Several owners: stripes of both colors.
  EXPECT_THAT(html, HasSubstr(absl::StrCat("repeating-linear-gradient(135deg, ",
                                           OwnerColor(0), " 0px 8px, ",
                                           OwnerColor(1), " 8px 16px)")));
  // A blame has no diff marks.
  EXPECT_THAT(html, Not(HasSubstr("class=\"sg\"")));
  EXPECT_THAT(html, Not(HasSubstr("class=\"summary")));
}

TEST(HtmlPageTest, EscapesNamesKeysAndValues) {
  HtmlSection s;
  s.title = "ConfigMap <x>";
  s.managers = {Manager("<script>alert(1)</script>", "Update", 1)};
  s.lines = {Line("  a&b: \"<b>\"", ".data.a&b", {0})};
  std::string html = RenderHtmlPage(OnePage(s));
  EXPECT_THAT(html, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("a&amp;b: &quot;&lt;b&gt;&quot;"));
  EXPECT_THAT(html, HasSubstr("data-path=\".data.a&amp;b\""));
  EXPECT_THAT(html, HasSubstr("<h2>ConfigMap &lt;x&gt;"));
}

TEST(HtmlPageTest, DiffMarksChangesInPlace) {
  HtmlSection s;
  s.diff = true;
  s.managers = {Manager("kubectl", "Apply", 2), Manager("hpa", "Update", 0)};
  s.managers[0].fields_before = 1;
  s.managers[1].fields_before = 1;
  HtmlLine changed =
      Line("  replicas: 5", ".spec.replicas", {0}, HtmlMark::kChanged);
  changed.old_text = "  replicas: 3";
  changed.owners_changed = true;
  changed.old_owners = {1};
  s.lines = {Line("  paused: true", ".spec.paused", {1}, HtmlMark::kRemoved),
             changed,
             Line("  minReadySeconds: 5", ".spec.minReadySeconds", {0},
                  HtmlMark::kAdded)};
  HtmlOwnershipChange gains;
  gains.label = "kubectl";
  gains.gained = {".spec.replicas  (taken from hpa)"};
  s.ownership = {gains};
  std::string html = RenderHtmlPage(OnePage(s));
  ExpectSelfContained(html);
  EXPECT_THAT(html, HasSubstr("data-mark=\"removed\""));
  EXPECT_THAT(html, HasSubstr("<del>  paused: true</del>"));
  EXPECT_THAT(html, HasSubstr("  replicas: <del>3</del> <ins>5</ins>"));
  EXPECT_THAT(html, HasSubstr("data-old-owners=\"hpa\""));
  EXPECT_THAT(html, HasSubstr("owner was hpa"));
  EXPECT_THAT(html, HasSubstr("class=\"l add\""));
  EXPECT_THAT(html, HasSubstr("<li data-stat=\"added\"><b>1</b> added</li>"));
  EXPECT_THAT(html,
              HasSubstr("<li data-stat=\"changed\"><b>1</b> changed</li>"));
  EXPECT_THAT(html,
              HasSubstr("<li data-stat=\"removed\"><b>1</b> removed</li>"));
  EXPECT_THAT(html,
              HasSubstr("<del>1</del> 0 <span class=\"tag\">gone</span>"));
  EXPECT_THAT(html, HasSubstr("<b>kubectl</b> gains 1 field"));
}

TEST(HtmlPageTest, ConflictsAreMarkedWithTheirOwner) {
  HtmlSection s;
  s.diff = true;
  s.managers = {Manager("kubectl", "Apply", 1)};
  s.managers[0].fields_before = 1;
  HtmlLine l =
      Line("  replicas: 10", ".spec.replicas", {0}, HtmlMark::kChanged);
  l.old_text = "  replicas: 5";
  l.conflict = "kubectl";
  s.lines = {l};
  s.conflicts = {HtmlConflict{".spec.replicas", "\"kubectl\""}};
  std::string html = RenderHtmlPage(OnePage(s));
  EXPECT_THAT(html, HasSubstr("class=\"l chg conf\""));
  EXPECT_THAT(html, HasSubstr("data-conflict=\"kubectl\""));
  EXPECT_THAT(html, HasSubstr("conflict: owned by kubectl"));
  EXPECT_THAT(html, HasSubstr("The apply would fail: 1 conflict."));
  EXPECT_THAT(html, HasSubstr("<code>.spec.replicas</code> owned by "
                              "&quot;kubectl&quot;"));
}

// The commands, on the README's example: kubectl applies the Deployment,
// the autoscaler takes .spec.replicas.
class HtmlCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/html-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
    Result first = Smdx(
        {"apply", "--field-manager", "kubectl", "--now", "2026-11-23T10:00:00Z",
         smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
    ASSERT_EQ(first.code, 0) << first.err;
    Write("live.yaml", first.out);
  }

  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ + "/" + name) << text;
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(HtmlCommandsTest, BlameHtmlColorsEveryLineByItsOwners) {
  Result b = Smdx({"blame", "--html", Path("live.yaml")});
  ASSERT_EQ(b.code, 0) << b.err;
  ExpectSelfContained(b.out);
  EXPECT_THAT(b.out, HasSubstr("data-manager=\"kubectl\""));
  EXPECT_THAT(b.out, HasSubstr("<td class=\"mgr\">kubectl</td><td>Apply</td>"
                               "<td>apps/v1</td><td>-</td>"
                               "<td>2026-11-23T10:00:00Z</td>"));
  EXPECT_THAT(b.out, HasSubstr("data-path=\".spec.replicas\" "
                               "data-owners=\"kubectl\""));
  // Fields nobody owns are not colored; managedFields are not shown.
  EXPECT_THAT(b.out, HasSubstr("data-path=\".kind\" data-owners=\"\""));
  EXPECT_THAT(b.out, Not(HasSubstr("managedFields:")));
  // The text blame is unchanged by the flag's existence.
  Result text = Smdx({"blame", Path("live.yaml")});
  EXPECT_THAT(text.out, HasSubstr("kubectl |   replicas: 5\n"));
}

TEST_F(HtmlCommandsTest, BlameHtmlOfSeveralObjectsIsOnePage) {
  std::string live = smdx::testing::ReadTestFile(Path("live.yaml"));
  Write("two.yaml", live + "---\n" + live);
  Result b = Smdx({"blame", "--html", Path("two.yaml")});
  ASSERT_EQ(b.code, 0) << b.err;
  size_t sections = 0;
  for (size_t at = b.out.find("<section "); at != std::string::npos;
       at = b.out.find("<section ", at + 1)) {
    ++sections;
  }
  EXPECT_EQ(sections, 2u);
  EXPECT_EQ(b.out.find("<html"), b.out.rfind("<html"));
}

TEST_F(HtmlCommandsTest, DiffHtmlMarksTheConflict) {
  Result d = Smdx({"diff", "--html", "--field-manager", "autoscaler",
                   Path("live.yaml"),
                   smdx::testing::SourcePath("examples/scale.yaml")});
  EXPECT_EQ(d.code, 2) << d.err;
  ExpectSelfContained(d.out);
  EXPECT_THAT(d.out, HasSubstr("The apply would fail: 1 conflict."));
  EXPECT_THAT(d.out, HasSubstr("data-path=\".spec.replicas\" "
                               "data-owners=\"kubectl\""));
  EXPECT_THAT(d.out, HasSubstr("data-conflict=\"kubectl\""));
  EXPECT_THAT(d.out, HasSubstr("replicas: <del>5</del> <ins>10</ins>"));
}

TEST_F(HtmlCommandsTest, DiffHtmlShowsTheNewOwnersAndTheChanges) {
  Result d = Smdx({"diff", "--html", "--field-manager", "autoscaler",
                   "--force-conflicts", "--now", "2026-11-23T10:10:00Z",
                   Path("live.yaml"),
                   smdx::testing::SourcePath("examples/scale.yaml")});
  EXPECT_EQ(d.code, 1) << d.err;
  EXPECT_THAT(d.out, HasSubstr("data-path=\".spec.replicas\" "
                               "data-owners=\"autoscaler\" data-o=\"1\" "
                               "data-mark=\"changed\" "
                               "data-old-owners=\"kubectl\""));
  EXPECT_THAT(d.out, HasSubstr("data-manager=\"autoscaler\" "
                               "data-label=\"autoscaler\" data-fields=\"1\""));
  EXPECT_THAT(d.out, HasSubstr("<b>autoscaler</b> gains 1 field"));
  EXPECT_THAT(d.out, HasSubstr(".spec.replicas  (taken from kubectl)"));
  EXPECT_THAT(d.out, Not(HasSubstr("data-conflict")));
}

TEST_F(HtmlCommandsTest, DiffHtmlOfANoOpChangesNothing) {
  Result d =
      Smdx({"diff", "--html", Path("live.yaml"),
            smdx::testing::SourcePath("examples/deployment-replicas.yaml")});
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_THAT(d.out, HasSubstr("The apply would change nothing."));
  EXPECT_THAT(d.out, Not(HasSubstr("data-mark=")));
}

TEST_F(HtmlCommandsTest, DiffHtmlShowsWhatItRemovesInPlace) {
  // kubectl applies again without the strategy: its fields go.
  std::string config = smdx::testing::ReadTestFile(
      smdx::testing::SourcePath("examples/deployment-replicas.yaml"));
  size_t from = config.find("  strategy:\n");
  size_t to = config.find("  selector:\n");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  Write("config.yaml", config.erase(from, to - from));
  Result d = Smdx({"diff", "--html", Path("live.yaml"), Path("config.yaml")});
  EXPECT_EQ(d.code, 1) << d.err;
  EXPECT_THAT(d.out,
              HasSubstr("data-path=\".spec.strategy.rollingUpdate."
                        "maxSurge\" data-owners=\"kubectl\" data-o=\"0\" "
                        "data-mark=\"removed\""));
  EXPECT_THAT(d.out, HasSubstr("<del>      maxSurge: 10%</del>"));
  EXPECT_THAT(d.out, HasSubstr("<b>kubectl</b> loses"));
}

}  // namespace
}  // namespace smdx::cli
