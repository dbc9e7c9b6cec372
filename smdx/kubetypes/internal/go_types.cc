#include "smdx/kubetypes/internal/go_types.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "smdx/kubetypes/internal/go_types_data.h"
#include "smdx/value/parse.h"

namespace smdx::internal {

namespace {

std::unique_ptr<GoStruct> ParseGoStruct(const char* text) {
  auto s = std::make_unique<GoStruct>();
  absl::StatusOr<Value> v = ParseJson(text);
  // The data is generated and checked by kubetypes' tests; a type that does
  // not parse is treated as unknown.
  if (!v.ok() || !v->IsMap()) return s;
  for (const MapEntry& e : v->map()) {
    if (!e.value.IsList() || e.value.list().size() != 3 ||
        !e.value.list()[0].IsString() || !e.value.list()[1].IsString() ||
        e.value.list()[0].AsString().size() != 1) {
      continue;
    }
    GoField f;
    f.name = e.key;
    f.kind = static_cast<GoKind>(e.value.list()[0].AsString()[0]);
    const std::string& flags = e.value.list()[1].AsString();
    f.omitempty = flags.find('e') != std::string::npos;
    f.omitzero = flags.find('z') != std::string::npos;
    f.zero = e.value.list()[2];
    s->fields.push_back(std::move(f));
  }
  s->by_name.resize(s->fields.size());
  for (size_t i = 0; i < s->fields.size(); ++i)
    s->by_name[i] = static_cast<uint32_t>(i);
  // Stable: of two fields with one name (never generated), the first wins,
  // as the hash map's emplace had it.
  std::stable_sort(s->by_name.begin(), s->by_name.end(),
                   [&](uint32_t a, uint32_t b) {
                     return s->fields[a].name < s->fields[b].name;
                   });
  return s;
}

}  // namespace

const GoStruct* FindGoStruct(absl::string_view openapi_name) {
  static std::mutex mu;
  static auto* const cache =
      new absl::flat_hash_map<std::string, std::unique_ptr<GoStruct>>();
  std::lock_guard<std::mutex> lock(mu);
  // Most lookups are of a struct read already.
  if (auto hit = cache->find(openapi_name); hit != cache->end())
    return hit->second.get();
  const EmbeddedGoType* begin = kEmbeddedGoTypes;
  const EmbeddedGoType* end = kEmbeddedGoTypes + kEmbeddedGoTypeCount;
  const EmbeddedGoType* it = std::lower_bound(
      begin, end, openapi_name,
      [](const EmbeddedGoType& t, absl::string_view n) { return t.name < n; });
  if (it == end || absl::string_view(it->name) != openapi_name) return nullptr;
  std::unique_ptr<GoStruct>& slot = (*cache)[openapi_name];
  slot = ParseGoStruct(it->fields);
  return slot.get();
}

bool IsZeroLike(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kString:
      return v.AsString().empty();  // a string, or a []byte as base64
    case Value::Kind::kInt:
      return v.AsInt() == 0;
    case Value::Kind::kFloat:
      return v.AsFloat() == 0;
    case Value::Kind::kBool:
      return !v.AsBool();
    case Value::Kind::kList:
      return v.list().empty();
    case Value::Kind::kMap:
      return v.map().empty();
  }
  return false;
}

bool IsGoEmpty(GoKind kind, const Value& v) {
  switch (kind) {
    case GoKind::kPointer:
    case GoKind::kInterface:
      return v.IsNull();
    case GoKind::kStruct:
    case GoKind::kMarshaler:
      return false;
    default:
      return IsZeroLike(v);
  }
}

bool IsGoUnset(GoKind kind, const Value* v) {
  return v == nullptr || IsGoEmpty(kind, *v);
}

}  // namespace smdx::internal
