#include "smdx/kubetypes/strategic_patch_schema.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "smdx/kubetypes/internal/go_types_data.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace internal {

class GoPatchType;

// Where a schema's structs come from; it keeps the nodes made of them.
class PatchTypeSource {
 public:
  virtual ~PatchTypeSource() = default;
  // The fields of struct `name` ({"field": "target|strategy|key"}), or
  // nullopt when there is no such struct.
  virtual std::optional<Value> Fields(absl::string_view name) const = 0;

  // The node of a type named as the data names a field's type: "@" and a
  // struct's name, else the Go kind ("map", "string", ...).
  const GoPatchType* Node(absl::string_view target) const;

 private:
  mutable std::mutex mu_;
  mutable absl::flat_hash_map<std::string, std::unique_ptr<GoPatchType>>
      nodes_;
};

class GoPatchType final : public StrategicPatchSchema {
 public:
  GoPatchType(const PatchTypeSource* source, std::string target);

  absl::StatusOr<Field> ForMap(absl::string_view key) const override;
  absl::StatusOr<Field> ForList(absl::string_view key) const override;
  std::string Name() const override;

 private:
  struct GoField {
    std::string name;
    // Its type: a node's name, or "[" and its items' ("[!": of slices),
    // or "*" and a pointer's.
    std::string type;
    std::vector<std::string> strategies;
    std::string merge_key;
  };
  absl::StatusOr<const GoField*> Find(absl::string_view key) const;

  const PatchTypeSource* source_;
  std::string target_;
  bool is_struct_;
  std::vector<GoField> fields_;
};

const GoPatchType* PatchTypeSource::Node(absl::string_view target) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::unique_ptr<GoPatchType>& slot = nodes_[target];
  if (slot == nullptr) {
    slot = std::make_unique<GoPatchType>(this, std::string(target));
  }
  return slot.get();
}

GoPatchType::GoPatchType(const PatchTypeSource* source, std::string target)
    : source_(source),
      target_(std::move(target)),
      is_struct_(absl::StartsWith(target_, "@")) {
  if (!is_struct_) return;
  std::optional<Value> fields =
      source_->Fields(absl::string_view(target_).substr(1));
  // (A struct the data lacks, or cannot give, has no fields.)
  if (!fields || !fields->IsMap()) return;
  for (const MapEntry& e : fields->map()) {
    if (!e.value.IsString()) continue;
    std::vector<std::string> parts = absl::StrSplit(e.value.AsString(), '|');
    GoField f;
    f.name = e.key;
    f.type = parts[0];
    f.strategies = absl::StrSplit(parts.size() > 1 ? parts[1] : "", ',');
    if (parts.size() > 2) f.merge_key = parts[2];
    fields_.push_back(std::move(f));
  }
}

absl::StatusOr<const GoPatchType::GoField*> GoPatchType::Find(
    absl::string_view key) const {
  if (!is_struct_) {
    return absl::InternalError(absl::StrCat(
        "merging an object in json but data type is not struct, instead is: ",
        target_));
  }
  // The JSON name, else one equal to it but for ASCII case (as
  // encoding/json matches fields).
  const GoField* folded = nullptr;
  for (const GoField& f : fields_) {
    if (f.name == key) return &f;
    if (folded == nullptr && absl::EqualsIgnoreCase(f.name, key)) folded = &f;
  }
  if (folded != nullptr) return folded;
  return absl::InternalError(absl::StrCat("unable to find api field in struct ",
                                          Name(), " for the json field \"",
                                          key, "\""));
}

absl::StatusOr<StrategicPatchSchema::Field> GoPatchType::ForMap(
    absl::string_view key) const {
  absl::StatusOr<const GoField*> f = Find(key);
  if (!f.ok()) return f.status();
  absl::string_view type = (*f)->type;
  absl::ConsumePrefix(&type, "*");
  return Field{source_->Node(absl::StartsWith(type, "[") ? "slice" : type),
               (*f)->strategies, (*f)->merge_key};
}

absl::StatusOr<StrategicPatchSchema::Field> GoPatchType::ForList(
    absl::string_view key) const {
  absl::StatusOr<const GoField*> f = Find(key);
  if (!f.ok()) return f.status();
  absl::string_view type = (*f)->type;
  if (type == "[!") return absl::InternalError("unexpected slice of slice");
  if (!absl::ConsumePrefix(&type, "[") && !absl::ConsumePrefix(&type, "*")) {
    return absl::InternalError("expected slice or array type, but got: struct");
  }
  return Field{source_->Node(type), (*f)->strategies, (*f)->merge_key};
}

std::string GoPatchType::Name() const {
  if (!is_struct_) return "";
  size_t dot = target_.rfind('.');
  return target_.substr(dot == std::string::npos ? 1 : dot + 1);
}

namespace {

// The embedded data (embed_go_types).
class EmbeddedSource final : public PatchTypeSource {
 public:
  static const internal::EmbeddedGoType* Find(absl::string_view name) {
    const EmbeddedGoType* begin = kEmbeddedPatchTypes;
    const EmbeddedGoType* end = begin + kEmbeddedPatchTypeCount;
    const EmbeddedGoType* it = std::lower_bound(
        begin, end, name, [](const EmbeddedGoType& t, absl::string_view n) {
          return t.name < n;
        });
    return it == end || absl::string_view(it->name) != name ? nullptr : it;
  }

  std::optional<Value> Fields(absl::string_view name) const override {
    const EmbeddedGoType* t = Find(name);
    if (t == nullptr) return std::nullopt;
    absl::StatusOr<Value> fields = ParseJson(t->fields);
    if (!fields.ok()) return std::nullopt;
    return *std::move(fields);
  }
};

class DataSource final : public PatchTypeSource {
 public:
  explicit DataSource(Value types) : types_(std::move(types)) {}
  std::optional<Value> Fields(absl::string_view name) const override {
    const Value* fields = smdx::Find(types_, name);
    if (fields == nullptr) return std::nullopt;
    return *fields;
  }

 private:
  const Value types_;
};

}  // namespace
}  // namespace internal

const StrategicPatchSchema* BuiltinStrategicPatchSchema(
    absl::string_view openapi_name) {
  static const auto* const source = new internal::EmbeddedSource();
  if (internal::EmbeddedSource::Find(openapi_name) == nullptr) return nullptr;
  return source->Node(absl::StrCat("@", openapi_name));
}

StrategicPatchTypes::StrategicPatchTypes(Value types)
    : source_(std::make_unique<internal::DataSource>(std::move(types))) {}

StrategicPatchTypes::~StrategicPatchTypes() = default;

const StrategicPatchSchema* StrategicPatchTypes::Find(
    absl::string_view name) const {
  if (!source_->Fields(name)) return nullptr;
  return source_->Node(absl::StrCat("@", name));
}

}  // namespace smdx
