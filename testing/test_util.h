// Helpers shared by the unit tests.
#ifndef SMDX_TESTING_TEST_UTIL_H_
#define SMDX_TESTING_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"
#include "smdx/value/value.h"

namespace smdx {
// Lets gtest print values as YAML in failure messages.
inline void PrintTo(const Value& v, std::ostream* os) {
  *os << "\n" << ToYaml(v);
}
}  // namespace smdx

namespace smdx::testing {

// Test inputs include whole schema documents: read with their limits.
inline Value Yaml(const std::string& text) {
  absl::StatusOr<Value> v = ParseYaml(text, SchemaDocumentLimits());
  EXPECT_TRUE(v.ok()) << v.status() << "\n" << text;
  return v.ok() ? *std::move(v) : Value();
}

// Exact equality: same kinds (an int never equals a float), floats equal
// bit for bit (NaN equals NaN), map entries in the same order (Identical;
// pinned by IdenticalTest in value/value_test.cc).
inline bool Same(const Value& a, const Value& b) { return Identical(a, b); }

inline std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string SharedPath(const std::string& rel) {
  return std::string(SMDX_SHARED_DIR) + "/" + rel;
}
inline std::string SourcePath(const std::string& rel) {
  return std::string(SMDX_SOURCE_DIR) + "/" + rel;
}

}  // namespace smdx::testing

#endif  // SMDX_TESTING_TEST_UTIL_H_
