#include "cli/text_diff.h"

#include "gtest/gtest.h"

namespace smdx::cli {
namespace {

TEST(TextDiffTest, EqualTextsHaveNoDiff) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n"), "");
}

TEST(TextDiffTest, OneChangedLineWithContext) {
  std::string old_text = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string new_text = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(
      UnifiedDiff(old_text, new_text),
      "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(TextDiffTest, DistantChangesMakeTwoHunks) {
  std::string old_text;
  for (int i = 1; i <= 20; ++i) old_text += std::to_string(i) + "\n";
  std::string new_text = "0\n" + old_text.substr(0, old_text.size() - 3);
  EXPECT_EQ(
      UnifiedDiff(old_text, new_text, {"live", "applied", 1, false}),
      "--- live\n+++ applied\n@@ -1,1 +1,2 @@\n+0\n 1\n@@ -19,2 +20,1 @@\n "
      "19\n-20\n");
}

TEST(TextDiffTest, PureInsertionCountsFromTheLineBefore) {
  EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nx\nb\n", {"o", "n", 0, false}),
            "--- o\n+++ n\n@@ -1,0 +2,1 @@\n+x\n");
}

TEST(TextDiffTest, ColorsWhenAsked) {
  std::string d = UnifiedDiff("a\n", "b\n", {"x", "y", 3, true});
  EXPECT_NE(d.find("\033[31m-a\033[0m"), std::string::npos) << d;
  EXPECT_NE(d.find("\033[32m+b\033[0m"), std::string::npos) << d;
}

TEST(TextDiffTest, HugeRewritesFallBackToReplacingTheMiddle) {
  std::string a, b;
  for (int i = 0; i < 3000; ++i) {
    a += "a" + std::to_string(i) + "\n";
    b += "b" + std::to_string(i) + "\n";
  }
  std::string d = UnifiedDiff(a, b);
  EXPECT_NE(d.find("@@ -1,3000 +1,3000 @@"), std::string::npos);
}

}  // namespace
}  // namespace smdx::cli
