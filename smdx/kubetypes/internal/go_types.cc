#include "smdx/kubetypes/internal/go_types.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

#include "smdx/kubetypes/internal/go_types_data.h"
#include "smdx/value/parse.h"

namespace smdx::internal {

namespace {

// `ascending`: the names are known to ascend, and the index is their order.
void IndexByName(GoStruct* s, bool ascending) {
  s->by_name.resize(s->fields.size());
  for (size_t i = 0; i < s->fields.size(); ++i)
    s->by_name[i] = static_cast<uint32_t>(i);
  if (ascending) return;
  // Stable: of two fields with one name (never generated), the first wins,
  // as the hash map's emplace had it.
  std::stable_sort(s->by_name.begin(), s->by_name.end(),
                   [&](uint32_t a, uint32_t b) {
                     return s->fields[a].name < s->fields[b].name;
                   });
}

// The end of the JSON value that starts at `*p` (moved past it), scanning
// only: brackets, and strings with their escapes. False at a malformed end.
bool SkipJsonValue(absl::string_view t, size_t* p) {
  int depth = 0;
  bool in_string = false;
  for (; *p < t.size(); ++*p) {
    const char c = t[*p];
    if (in_string) {
      if (c == '\\') {
        ++*p;
      } else if (c == '"') {
        in_string = false;
        if (depth == 0) {
          ++*p;
          return true;
        }
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return true;  // the container around the value
      if (--depth == 0) {
        ++*p;
        return true;
      }
    } else if (c == ',' && depth == 0) {
      return true;
    }
  }
  return depth == 0 && !in_string;
}

void SetFlags(absl::string_view flags, GoField* f) {
  f->omitempty = flags.find('e') != absl::string_view::npos;
  f->omitzero = flags.find('z') != absl::string_view::npos;
  f->byte_elements = flags.find('y') != absl::string_view::npos;
  f->int_bits = flags.find('4') != absl::string_view::npos   ? 32
                : flags.find('8') != absl::string_view::npos ? 64
                                                             : 0;
}

// The zero values most fields have, made without the JSON reader.
bool TrivialZero(absl::string_view t, Value* out) {
  if (t == "null") {
    *out = Value();
  } else if (t == "0") {
    *out = Value(int64_t{0});
  } else if (t == "false") {
    *out = Value(false);
  } else if (t == "\"\"") {
    *out = Value(std::string());
  } else if (t == "{}") {
    *out = Value::MakeMap();
  } else if (t == "[]") {
    *out = Value::MakeList();
  } else {
    return false;
  }
  return true;
}

// A zero value from its JSON text.
bool ParseZero(absl::string_view t, Value* out) {
  if (TrivialZero(t, out)) return true;
  absl::StatusOr<Value> z = ParseJson(t);
  if (!z.ok()) return false;
  *out = *std::move(z);
  return true;
}

}  // namespace

std::unique_ptr<GoStruct> ParseGoStructGeneral(const char* text) {
  auto s = std::make_unique<GoStruct>();
  absl::StatusOr<Value> v = ParseJson(text);
  // The data is generated and checked by kubetypes' tests; a type that does
  // not parse is treated as unknown.
  if (!v.ok() || !v->IsMap()) return s;
  for (const MapEntry& e : v->map()) {
    if (!e.value.IsList() || e.value.list().size() < 3 ||
        e.value.list().size() > 4 || !e.value.list()[0].IsString() ||
        !e.value.list()[1].IsString() ||
        e.value.list()[0].AsString().size() != 1) {
      continue;
    }
    GoField f;
    f.name = e.key;
    f.kind = static_cast<GoKind>(e.value.list()[0].AsString()[0]);
    SetFlags(e.value.list()[1].AsString(), &f);
    f.zero = e.value.list()[2];
    if (e.value.list().size() == 4) f.element_zero = e.value.list()[3];
    s->fields.push_back(std::move(f));
  }
  IndexByName(s.get(), /*ascending=*/false);
  return s;
}

std::unique_ptr<GoStruct> ParseGoStruct(const char* text) {
  // The shape the generator writes, read directly:
  // {"name":["k","flags",zero],...} with plain names in ascending order;
  // anything else goes to the general reader.
  const absl::string_view t(text);
  auto s = std::make_unique<GoStruct>();
  size_t p = 0;
  auto eat = [&](char c) {
    if (p < t.size() && t[p] == c) {
      ++p;
      return true;
    }
    return false;
  };
  auto plain = [&](absl::string_view* out) {
    if (!eat('"')) return false;
    const size_t begin = p;
    while (p < t.size() && t[p] != '"') {
      if (t[p] == '\\' || static_cast<unsigned char>(t[p]) < 0x20) return false;
      ++p;
    }
    if (p >= t.size()) return false;
    *out = t.substr(begin, p - begin);
    ++p;
    return true;
  };
  // A field per '[' at most (zero values may hold more).
  s->fields.reserve(static_cast<size_t>(std::count(t.begin(), t.end(), '[')));
  bool ok = eat('{');
  if (ok && !eat('}')) {
    absl::string_view last;
    while (ok) {
      absl::string_view name, kind, flags;
      ok = plain(&name) && (s->fields.empty() || last < name) && eat(':') &&
           eat('[') && plain(&kind) && kind.size() == 1 && eat(',') &&
           plain(&flags) && eat(',');
      if (!ok) break;
      last = name;
      GoField f;
      f.name = std::string(name);
      f.kind = static_cast<GoKind>(kind[0]);
      SetFlags(flags, &f);
      const size_t zero_begin = p;
      ok = SkipJsonValue(t, &p) && p > zero_begin &&
           ParseZero(t.substr(zero_begin, p - zero_begin), &f.zero);
      if (ok && eat(',')) {
        const size_t element_begin = p;
        ok = SkipJsonValue(t, &p) && p > element_begin &&
             ParseZero(t.substr(element_begin, p - element_begin),
                       &f.element_zero);
      }
      ok = ok && eat(']');
      if (!ok) break;
      s->fields.push_back(std::move(f));
      if (eat(',')) continue;
      ok = eat('}');
      break;
    }
  }
  if (!ok || p != t.size()) return ParseGoStructGeneral(text);
  IndexByName(s.get(), /*ascending=*/true);  // checked as read
  return s;
}


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

namespace {

bool StoredAsInteger(const Value& v) {
  if (!v.IsFloat()) return false;
  const double d = v.AsFloat();
  return std::trunc(d) == d && d >= -9223372036854775808.0 &&
         d < 9223372036854775808.0;
}

}  // namespace

bool HoldsWholeFloat(const Value& v) {
  if (StoredAsInteger(v)) return true;
  if (v.IsMap()) {
    for (const MapEntry& e : v.map()) {
      if (HoldsWholeFloat(e.value)) return true;
    }
  } else if (v.IsList()) {
    for (const Value& item : v.list()) {
      if (HoldsWholeFloat(item)) return true;
    }
  }
  return false;
}

namespace {

void StoreIntegers(Value& v) {
  if (StoredAsInteger(v)) {
    v = Value(static_cast<int64_t>(v.AsFloat()));
  } else if (v.IsMap()) {
    for (MapEntry& e : v.map()) {
      if (HoldsWholeFloat(e.value)) StoreIntegers(e.value);
    }
  } else if (v.IsList()) {
    for (Value& item : v.list()) {
      if (HoldsWholeFloat(item)) StoreIntegers(item);
    }
  }
}

}  // namespace

void StoreWholeFloatsAsIntegers(Value& v) {
  if (HoldsWholeFloat(v)) StoreIntegers(v);
}

}  // namespace smdx::internal
