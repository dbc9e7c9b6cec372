#include "cli/progress.h"

#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace smdx::cli {
namespace {

using ::testing::HasSubstr;

class ProgressTest : public ::testing::Test {
 protected:
  Progress::Clock Clock() {
    return [this] { return now_; };
  }
  void Advance(int ms) { now_ += std::chrono::milliseconds(ms); }

  std::chrono::steady_clock::time_point now_{};
  std::ostringstream err_;
};

TEST_F(ProgressTest, RewritesOneLineAndClearsItAtTheEnd) {
  {
    Progress p(err_, "apply", 3, /*shown=*/true, Clock());
    p.Step();  // at once: nothing yet
    EXPECT_EQ(err_.str(), "");
    Advance(150);
    p.Step();
    EXPECT_EQ(err_.str(), "\r\x1b[Kapply: 2/3 objects");
    Advance(50);
    p.Step();  // within a tenth of a second of the last line
    EXPECT_EQ(err_.str(), "\r\x1b[Kapply: 2/3 objects");
  }
  EXPECT_EQ(err_.str(), "\r\x1b[Kapply: 2/3 objects\r\x1b[K");
}

TEST_F(ProgressTest, OtherOutputClearsTheLineFirst) {
  Progress p(err_, "validate", 5, true, Clock());
  Advance(200);
  p.Step();
  err_ << "error: object 1: bad\n";
  EXPECT_EQ(err_.str(),
            "\r\x1b[Kvalidate: 1/5 objects\r\x1b[Kerror: object 1: bad\n");
  err_ << "more\n";  // nothing drawn since: no clearing
  EXPECT_THAT(err_.str(), ::testing::EndsWith("bad\nmore\n"));
}

TEST_F(ProgressTest, ClearedForResultsOnStandardOutput) {
  // Results go to standard output, which may be the same terminal: the
  // line is cleared before each, and drawn again by the next step.
  Progress p(err_, "apply", 3, true, Clock());
  Advance(200);
  p.Step();
  p.Clear();
  EXPECT_EQ(err_.str(), "\r\x1b[Kapply: 1/3 objects\r\x1b[K");
  p.Clear();  // not drawn: nothing to clear
  EXPECT_EQ(err_.str(), "\r\x1b[Kapply: 1/3 objects\r\x1b[K");
  Advance(200);
  p.Step();
  EXPECT_THAT(err_.str(), ::testing::EndsWith("\r\x1b[Kapply: 2/3 objects"));
}

TEST_F(ProgressTest, NothingWhenNotShownOrForOneObject) {
  {
    Progress hidden(err_, "diff", 100, /*shown=*/false, Clock());
    for (int i = 0; i < 100; ++i) {
      Advance(200);
      hidden.Step();
    }
    Progress one(err_, "diff", 1, /*shown=*/true, Clock());
    Advance(200);
    one.Step();
  }
  EXPECT_EQ(err_.str(), "");
}

}  // namespace
}  // namespace smdx::cli
