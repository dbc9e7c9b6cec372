// Random schemas and objects that fit them, for the fuzzers and the soak
// tool: every kind of type the engine treats apart (scalars, structs,
// atomic and granular maps, atomic lists, sets, associative lists) nested a
// few levels, and objects that validate against them.
//
// The choices come from a Choices: a seeded generator (the soak tool) or a
// fuzzer's input bytes (the same bytes give the same schema and objects).
//
//   testing::SeededChoices choices(42);
//   testing::RandomSchema schema = testing::MakeSchema(choices);
//   ... Schema::ParseSmd(schema.smd_yaml), type "root" ...
//   Value object = testing::MakeObject(schema, choices);
#ifndef SMDX_TESTING_RANDOM_SCHEMA_H_
#define SMDX_TESTING_RANDOM_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "smdx/value/value.h"

namespace smdx::testing {

class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [0, n). REQUIRES: n > 0.
  virtual uint32_t Below(uint32_t n) = 0;
  bool Coin() { return Below(2) == 0; }
};

class SeededChoices : public Choices {
 public:
  explicit SeededChoices(uint64_t seed) : rng_(seed) {}
  uint32_t Below(uint32_t n) override {
    return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

// Reads choices from bytes; once they run out, every choice is 0.
class ByteChoices : public Choices {
 public:
  ByteChoices(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint32_t Below(uint32_t n) override {
    if (p_ == end_) return 0;
    return *p_++ % n;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// One type of the schema.
struct TypeModel {
  enum class Kind {
    kScalar,
    kStruct,
    kAtomicStruct,
    kGranularMap,
    kAtomicMap,
    kAtomicList,
    kSet,
    kAssociativeList,
  };
  Kind kind = Kind::kScalar;
  std::string scalar = "string";  // kScalar, and map values and list items
                                  // of scalars: string, numeric, boolean
  // kStruct, kAtomicStruct: the fields; kAssociativeList: its items' fields
  // (the first, "name", a string, is the key).
  std::vector<std::pair<std::string, std::shared_ptr<TypeModel>>> fields;
  std::string name;  // of a struct's named type (t0, t1, ...)
};

struct RandomSchema {
  std::string smd_yaml;  // the schema, its root type named "root"
  std::shared_ptr<TypeModel> root;
  // Kubernetes objects: the root has apiVersion and kind, which objects
  // set to kApiVersion and kKind.
  bool kubernetes = false;
};

inline constexpr char kApiVersion[] = "example.com/v1";
inline constexpr char kKind[] = "Thing";

namespace internal_random {

inline std::string ScalarName(Choices& c) {
  static const char* const kScalars[] = {"string", "numeric", "boolean"};
  return kScalars[c.Below(3)];
}

class SchemaMaker {
 public:
  explicit SchemaMaker(Choices& c) : c_(c) {}

  RandomSchema Make(bool kubernetes) {
    auto root = std::make_shared<TypeModel>();
    root->kind = TypeModel::Kind::kStruct;
    root->name = "root";
    if (kubernetes) {
      root->fields.emplace_back("apiVersion", std::make_shared<TypeModel>());
      root->fields.emplace_back("kind", std::make_shared<TypeModel>());
    }
    AddFields(root.get(), 0);
    RandomSchema out;
    out.kubernetes = kubernetes;
    out.root = root;
    out.smd_yaml = "types:\n" + types_;
    return out;
  }

 private:
  void AddFields(TypeModel* s, int depth) {
    const uint32_t n = 1 + c_.Below(5);
    for (uint32_t i = 0; i < n; ++i) {
      s->fields.emplace_back(absl::StrCat("f", i), MakeType(depth + 1));
    }
    EmitStruct(*s, /*key=*/false);
  }

  std::shared_ptr<TypeModel> MakeType(int depth) {
    auto t = std::make_shared<TypeModel>();
    using K = TypeModel::Kind;
    // Deeper down, scalars grow likelier so the schema stays small.
    const uint32_t pick = depth >= 3 ? 0 : c_.Below(9);
    switch (pick) {
      case 0:
      case 1:
        t->kind = K::kScalar;
        t->scalar = ScalarName(c_);
        break;
      case 2:
      case 3:
        t->kind = pick == 2 ? K::kStruct : K::kAtomicStruct;
        t->name = absl::StrCat("t", next_++);
        AddFields(t.get(), depth);
        break;
      case 4:
        t->kind = K::kGranularMap;
        t->scalar = ScalarName(c_);
        break;
      case 5:
        t->kind = K::kAtomicMap;
        t->scalar = ScalarName(c_);
        break;
      case 6:
        t->kind = K::kAtomicList;
        t->scalar = ScalarName(c_);
        break;
      case 7:
        t->kind = K::kSet;
        t->scalar = c_.Coin() ? "string" : "numeric";
        break;
      default: {
        t->kind = K::kAssociativeList;
        t->name = absl::StrCat("t", next_++);
        auto key = std::make_shared<TypeModel>();
        t->fields.emplace_back("name", key);
        const uint32_t n = c_.Below(3);
        for (uint32_t i = 0; i < n; ++i) {
          t->fields.emplace_back(absl::StrCat("g", i), MakeType(depth + 1));
        }
        EmitStruct(*t, /*key=*/true);
        break;
      }
    }
    return t;
  }

  static std::string Ref(const TypeModel& t) {
    using K = TypeModel::Kind;
    switch (t.kind) {
      case K::kScalar:
        return absl::StrCat("{scalar: ", t.scalar, "}");
      case K::kStruct:
      case K::kAtomicStruct:
        return absl::StrCat("{namedType: ", t.name, "}");
      case K::kGranularMap:
        return absl::StrCat("{map: {elementType: {scalar: ", t.scalar, "}}}");
      case K::kAtomicMap:
        return absl::StrCat("{map: {elementType: {scalar: ", t.scalar,
                            "}, elementRelationship: atomic}}");
      case K::kAtomicList:
        return absl::StrCat("{list: {elementType: {scalar: ", t.scalar,
                            "}, elementRelationship: atomic}}");
      case K::kSet:
        return absl::StrCat("{list: {elementType: {scalar: ", t.scalar,
                            "}, elementRelationship: associative}}");
      case K::kAssociativeList:
        return absl::StrCat("{list: {elementType: {namedType: ", t.name,
                            "}, elementRelationship: associative, keys: "
                            "[name]}}");
    }
    return "";
  }

  void EmitStruct(const TypeModel& s, bool key) {
    std::string text = absl::StrCat("- name: ", s.name, "\n  map:\n");
    if (s.kind == TypeModel::Kind::kAtomicStruct) {
      text += "    elementRelationship: atomic\n";
    }
    text += "    fields:\n";
    for (size_t i = 0; i < s.fields.size(); ++i) {
      const auto& [name, type] = s.fields[i];
      absl::StrAppend(&text, "    - name: ", name, "\n      type: ",
                      key && i == 0 ? "{scalar: string}" : Ref(*type), "\n");
    }
    types_ += text;
  }

  Choices& c_;
  int next_ = 0;
  std::string types_;
};

inline Value Scalar(const std::string& type, Choices& c) {
  if (type == "numeric") return Value(int64_t{c.Below(4)});
  if (type == "boolean") return Value(c.Coin());
  static const char* const kStrings[] = {"a", "b", "c", "d"};
  return Value(kStrings[c.Below(4)]);
}

inline Value Make(const TypeModel& t, Choices& c, bool key_first = false);

inline Value Struct(const TypeModel& t, Choices& c, bool key_first) {
  Map m;
  for (size_t i = 0; i < t.fields.size(); ++i) {
    if (key_first && i == 0) continue;  // the caller sets the key
    if (c.Coin()) m.Append(t.fields[i].first, Make(*t.fields[i].second, c));
  }
  return Value(std::move(m));
}

inline Value Make(const TypeModel& t, Choices& c, bool key_first) {
  using K = TypeModel::Kind;
  static const char* const kKeys[] = {"a", "b", "c", "d"};
  switch (t.kind) {
    case K::kScalar:
      return Scalar(t.scalar, c);
    case K::kStruct:
    case K::kAtomicStruct:
      return Struct(t, c, key_first);
    case K::kGranularMap:
    case K::kAtomicMap: {
      Map m;
      for (const char* k : kKeys) {
        if (c.Coin()) m.Append(k, Scalar(t.scalar, c));
      }
      return Value(std::move(m));
    }
    case K::kAtomicList: {
      List l;
      const uint32_t n = c.Below(4);
      for (uint32_t i = 0; i < n; ++i) l.push_back(Scalar(t.scalar, c));
      return Value(std::move(l));
    }
    case K::kSet: {
      // Distinct items: a subset of the pool, in a chosen order.
      List l;
      const uint32_t start = c.Below(4), n = c.Below(4);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t k = (start + i) % 4;
        l.push_back(t.scalar == "numeric" ? Value(int64_t{k})
                                          : Value(kKeys[k]));
      }
      return Value(std::move(l));
    }
    case K::kAssociativeList: {
      List l;
      const uint32_t start = c.Below(4), n = c.Below(4);
      for (uint32_t i = 0; i < n; ++i) {
        Value item = Struct(t, c, /*key_first=*/true);
        item.map().Set("name", Value(kKeys[(start + i) % 4]));
        l.push_back(std::move(item));
      }
      return Value(std::move(l));
    }
  }
  return Value();
}

}  // namespace internal_random

// `kubernetes`: the root type has apiVersion and kind (RandomSchema).
inline RandomSchema MakeSchema(Choices& c, bool kubernetes = false) {
  return internal_random::SchemaMaker(c).Make(kubernetes);
}

// An object of the schema's root type (a map; fields present at random,
// apiVersion and kind always when the schema has them).
inline Value MakeObject(const RandomSchema& s, Choices& c) {
  Value v = internal_random::Make(*s.root, c);
  if (s.kubernetes) {
    v.map().Set("apiVersion", Value(kApiVersion));
    v.map().Set("kind", Value(kKind));
  }
  return v;
}

}  // namespace smdx::testing

#endif  // SMDX_TESTING_RANDOM_SCHEMA_H_
