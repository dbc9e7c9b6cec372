// Helpers shared by the unit tests.
#ifndef SMDX_TESTING_TEST_UTIL_H_
#define SMDX_TESTING_TEST_UTIL_H_

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "typed/emit.h"
#include "typed/parse.h"
#include "typed/value.h"

namespace smdx {
// Lets gtest print values as YAML in failure messages.
inline void PrintTo(const Value& v, std::ostream* os) {
  *os << "\n" << ToYaml(v);
}
}  // namespace smdx

namespace smdx::testing {

inline Value Yaml(const std::string& text) {
  absl::StatusOr<Value> v = ParseYaml(text);
  EXPECT_TRUE(v.ok()) << v.status() << "\n" << text;
  return v.ok() ? *std::move(v) : Value();
}

// Exact equality: same kinds (an int never equals a float), floats equal
// bit for bit (NaN equals NaN), map entries in the same order.
inline bool Same(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kBool:
      return a.AsBool() == b.AsBool();
    case Value::Kind::kInt:
      return a.AsInt() == b.AsInt();
    case Value::Kind::kFloat:
      if (std::isnan(a.AsFloat())) return std::isnan(b.AsFloat());
      return a.AsFloat() == b.AsFloat() &&
             std::signbit(a.AsFloat()) == std::signbit(b.AsFloat());
    case Value::Kind::kString:
      return a.AsString() == b.AsString();
    case Value::Kind::kList:
      if (a.list().size() != b.list().size()) return false;
      for (size_t i = 0; i < a.list().size(); ++i) {
        if (!Same(a.list()[i], b.list()[i])) return false;
      }
      return true;
    case Value::Kind::kMap: {
      const auto& ea = a.map().entries();
      const auto& eb = b.map().entries();
      if (ea.size() != eb.size()) return false;
      for (size_t i = 0; i < ea.size(); ++i) {
        if (ea[i].key != eb[i].key || !Same(ea[i].value, eb[i].value)) {
          return false;
        }
      }
      return true;
    }
  }
  return false;
}

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
