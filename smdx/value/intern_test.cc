#include "smdx/value/intern.h"

#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace smdx {
namespace {

TEST(InternTest, EqualNamesShareOneCopy) {
  const std::string* a = InternName("intern-test-spec");
  EXPECT_EQ(*a, "intern-test-spec");
  EXPECT_EQ(InternName(std::string("intern-test-spec")), a);
  EXPECT_EQ(FindInternedName("intern-test-spec"), a);
  EXPECT_NE(InternName("intern-test-spek"), a);
}

TEST(InternTest, LookingUpNeverAdds) {
  EXPECT_EQ(FindInternedName("intern-test-never-interned"), nullptr);
  EXPECT_EQ(FindInternedName("intern-test-never-interned"), nullptr);
  EXPECT_EQ(FindInternedName(""), nullptr);
}

TEST(InternTest, KnowsWhichNamesJsonWritesAsTheyAre) {
  EXPECT_TRUE(InternedNameIsPlain(InternName("intern-test-plain_Name.1")));
  for (absl::string_view name :
       {"intern-test-a<b", "intern-test-a>b", "intern-test-a&b",
        "intern-test-a\"b", "intern-test-a\\b", "intern-test-a\nb",
        "intern-test-\xc3\xa9"}) {
    EXPECT_FALSE(InternedNameIsPlain(InternName(name))) << name;
  }
}

TEST(InternTest, EveryByteOfEveryLengthCounts) {
  // Lookups compare a name's first and last words and its length before
  // its bytes: a name that differs from an interned one in any one byte,
  // at any length, is not taken for it.
  const std::string text = "intern-test-bytes-abcdefghijklmnopqrstuvw";
  for (size_t n = 0; n <= 40; ++n) {
    const std::string name = text.substr(0, n);
    const std::string* interned = InternName(name);
    ASSERT_EQ(FindInternedName(name), interned) << n;
    for (size_t i = 0; i < n; ++i) {
      std::string other = name;
      other[i] = '!';
      const std::string* found = FindInternedName(other);
      if (found != nullptr) {
        EXPECT_EQ(*found, other) << n << " " << i;
      }
      EXPECT_NE(found, interned) << n << " " << i;
    }
    if (n > 0) {
      EXPECT_NE(FindInternedName(text.substr(0, n - 1)), interned) << n;
    }
  }
}

TEST(InternTest, NamesStayPutAsTheTableGrows) {
  std::vector<const std::string*> first;
  for (int i = 0; i < 5000; ++i)
    first.push_back(InternName(absl::StrCat("intern-test-grow-", i)));
  for (int i = 0; i < 5000; ++i) {
    const std::string name = absl::StrCat("intern-test-grow-", i);
    ASSERT_EQ(FindInternedName(name), first[static_cast<size_t>(i)]) << name;
    ASSERT_EQ(*first[static_cast<size_t>(i)], name);
  }
}

TEST(InternTest, ReadersRaceWritersSafely) {
  // Readers look names up while a writer grows the table: every name a
  // reader finds is the one interned, and a name interned before the
  // readers start is always found.
  const std::string* early = InternName("intern-test-race-early");
  std::vector<std::thread> readers;
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        if (FindInternedName("intern-test-race-early") != early) ++bad;
        for (int i = 0; i < 64; ++i) {
          const std::string name = absl::StrCat("intern-test-race-", i);
          const std::string* found = FindInternedName(name);
          if (found != nullptr && *found != name) ++bad;
        }
      }
    });
  }
  for (int i = 0; i < 20000; ++i)
    InternName(absl::StrCat("intern-test-race-", i));
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(InternTest, ShortNamesKeepTheirInlineForm) {
  // Up to 15 bytes: the length, the bytes, then zeros, as path elements
  // hold such names.
  for (size_t n = 0; n <= 15; ++n) {
    const std::string name = std::string("short-form-test").substr(0, n);
    const unsigned char* form = ShortForm(InternName(name));
    EXPECT_EQ(form[0], n);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(form + 1), n), name);
    for (size_t i = n + 1; i < 16; ++i) EXPECT_EQ(form[i], 0) << n << " " << i;
  }
}

}  // namespace
}  // namespace smdx
