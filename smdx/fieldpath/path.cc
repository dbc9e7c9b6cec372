#include "smdx/fieldpath/path.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/compact_vector.h"
#include "smdx/fieldpath/sort_few.h"
#include "smdx/value/emit.h"
#include "smdx/value/same_bytes.h"

namespace smdx {

namespace {

using internal::SharedBlock;

// A block of `bytes` after the header, with one reference: names,
// values and keys' fields, made and dropped by the dozen by readers of
// managedFields and of lists with keys; cut from the thread's slab
// (value/node_allocator.h) when small enough. FreeBlock takes it back
// (emptied) with the same `bytes`.
SharedBlock* NewBlock(size_t bytes, uint32_t size) {
  void* mem =
      internal::NodeAllocator<char>().allocate(sizeof(SharedBlock) + bytes);
  return new (mem) SharedBlock{{1}, size};
}
void FreeBlock(SharedBlock* h, size_t bytes) {
  h->~SharedBlock();
  internal::NodeAllocator<char>().deallocate(reinterpret_cast<char*>(h),
                                             sizeof(SharedBlock) + bytes);
}

static_assert(sizeof(SharedBlock) % alignof(Value) == 0 &&
                  sizeof(internal::KeyBlock) % alignof(KeyPart) == 0 &&
                  sizeof(KeyPart) % alignof(Value) == 0,
              "payloads follow the block header");
static_assert(std::is_trivially_destructible_v<KeyPart>,
              "a key's block is freed without destroying its fields");

}  // namespace

PathElement PathElement::FieldFrom(absl::string_view name) {
  if (name.size() <= kMaxInline) return InlineField(name.data(), name.size());
  PathElement pe;
  SharedBlock* h = NewBlock(name.size(), static_cast<uint32_t>(name.size()));
  std::memcpy(reinterpret_cast<char*>(h + 1), name.data(), name.size());
  pe.SetPointer(kOwnedName, h);
  return pe;
}

PathElement PathElement::KeyFrom(absl::Span<const KeyField> fields) {
  absl::InlinedVector<KeyFieldRef, 2> refs;
  refs.reserve(fields.size());
  for (const KeyField& f : fields)
    refs.emplace_back().SetValue(f.name, f.value);
  return KeyOf(absl::MakeSpan(refs));
}

namespace {

// Copies the `n` bytes at `from` to `to`: the short names and values of
// keys in a load and a store or two (a call of memcpy costs more than the
// copy for them).
inline void CopyBytes(char* to, const char* from, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t head, tail;
    std::memcpy(&head, from, 8);
    std::memcpy(&tail, from + n - 8, 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t head, tail;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + n - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; ++i) to[i] = from[i];
  } else {
    std::memcpy(to, from, n);
  }
}

}  // namespace

PathElement PathElement::KeyOf(absl::Span<KeyFieldRef> fields) {
  // By name, stably: a name given twice stays twice, in the order given.
  // Keys mostly come sorted (one field, or the schema's order) with few
  // fields; keys of many (read from text) take std::stable_sort.
  internal::SortFew(
      fields.begin(), fields.end(),
      [](const KeyFieldRef& a, const KeyFieldRef& b) {
        return a.name < b.name;
      },
      [](auto first, auto last, auto less) {
        std::stable_sort(first, last, less);
      });
  const size_t n = fields.size();
  // The block's size: the fields, the Values of lists and maps, the bytes.
  size_t compound = 0;
  size_t text = 0;
  for (const KeyFieldRef& f : fields) {
    text += f.name.size() +
            (f.kind == Value::Kind::kString ? f.string.size() : 0);
    compound += f.kind == Value::Kind::kList || f.kind == Value::Kind::kMap;
  }
  const size_t bytes = sizeof(internal::KeyBlock) - sizeof(SharedBlock) +
                       n * sizeof(KeyPart) + compound * sizeof(Value) + text;
  void* mem =
      internal::NodeAllocator<char>().allocate(sizeof(SharedBlock) + bytes);
  auto* h = new (mem) internal::KeyBlock{
      SharedBlock{{1}, static_cast<uint32_t>(n)}, static_cast<uint32_t>(bytes),
      static_cast<uint32_t>(compound)};
  auto* parts = reinterpret_cast<KeyPart*>(h + 1);
  auto* values = reinterpret_cast<Value*>(parts + n);
  char* at = reinterpret_cast<char*>(values + compound);
  auto copy = [&at](absl::string_view s) {
    const char* p = at;
    CopyBytes(at, s.data(), s.size());
    at += s.size();
    return p;
  };
  for (const KeyFieldRef& f : fields) {
    KeyPart* p = new (parts++) KeyPart;
    p->name_ = copy(f.name);
    p->name_size_ = static_cast<uint32_t>(f.name.size());
    p->kind_ = f.kind;
    switch (f.kind) {
      case Value::Kind::kString:
        p->u_.str.data = copy(f.string);
        p->u_.str.size = f.string.size();
        break;
      case Value::Kind::kInt:
        p->u_.i = f.number;
        break;
      case Value::Kind::kFloat:
        p->u_.d = f.value->AsFloat();
        break;
      case Value::Kind::kBool:
        p->u_.b = f.value->AsBool();
        break;
      case Value::Kind::kList:
      case Value::Kind::kMap:
        p->u_.compound = new (values++) Value(*f.value);
        break;
      case Value::Kind::kNull:
        break;
    }
  }
  PathElement pe;
  pe.SetPointer(kKeyTag, h);
  return pe;
}

Value KeyPart::value() const {
  switch (kind_) {
    case Value::Kind::kString:
      return Value(AsString());
    case Value::Kind::kInt:
      return Value(u_.i);
    case Value::Kind::kFloat:
      return Value(u_.d);
    case Value::Kind::kBool:
      return Value(u_.b);
    case Value::Kind::kList:
    case Value::Kind::kMap:
      return *u_.compound;
    case Value::Kind::kNull:
      break;
  }
  return Value();
}

PathElement PathElement::OfValue(Value v) {
  SharedBlock* h = NewBlock(sizeof(Value), 1);
  new (h + 1) Value(std::move(v));
  PathElement pe;
  pe.SetPointer(kValueTag, h);
  return pe;
}

PathElement PathElement::Index(int64_t i) {
  uint64_t w1;
  std::memcpy(&w1, &i, 8);
  PathElement pe;
  pe.SetWords(TagWord(kIndexTag), w1);
  return pe;
}

void PathElement::Release() {
  auto* h = static_cast<SharedBlock*>(const_cast<void*>(ptr()));
  // A count of one is this element's alone: no other can raise it, and
  // the block goes without a locked instruction (most blocks a reader
  // makes are dropped so, by the set that read them).
  if (h->refs.load(std::memory_order_acquire) != 1 &&
      h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    return;
  }
  if (tag() == kKeyTag) {
    auto* k = reinterpret_cast<internal::KeyBlock*>(h);
    if (k->compound != 0) {
      auto* values = reinterpret_cast<Value*>(
          reinterpret_cast<KeyPart*>(k + 1) + h->size);
      for (uint32_t i = 0; i < k->compound; ++i) values[i].~Value();
    }
    FreeBlock(h, k->bytes);
  } else if (tag() == kValueTag) {
    reinterpret_cast<Value*>(h + 1)->~Value();
    FreeBlock(h, sizeof(Value));
  } else {
    FreeBlock(h, h->size);  // a name of that many bytes
  }
}

std::string ValueString(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kString: {
      std::string out;
      AppendJsonString(&out, v.AsString());
      return out;
    }
    case Value::Kind::kList: {
      std::string out = "[";
      bool first = true;
      for (const Value& item : v.list()) {
        if (!first) out += ",";
        first = false;
        out += ValueString(item);
      }
      return out + "]";
    }
    case Value::Kind::kMap: {
      std::string out = "{";
      bool first = true;
      for (const MapEntry& e : v.map()) {
        if (!first) out += ";";
        first = false;
        absl::StrAppend(&out, e.key, "=", ValueString(e.value));
      }
      return out + "}";
    }
    default:
      return ToJson(v);
  }
}

void PathElement::AppendTo(std::string* out) const {
  switch (kind()) {
    case Kind::kField:
      absl::StrAppend(out, ".", field_name());
      return;
    case Kind::kKey: {
      out->push_back('[');
      bool first = true;
      for (const KeyPart& f : key()) {
        if (!first) out->push_back(',');
        first = false;
        absl::StrAppend(out, f.name(), "=", ValueString(f.value()));
      }
      out->push_back(']');
      return;
    }
    case Kind::kValue:
      absl::StrAppend(out, "[=", ValueString(value()), "]");
      return;
    case Kind::kIndex:
      absl::StrAppend(out, "[", index(), "]");
      return;
  }
}

std::string PathElement::ToString() const {
  std::string out;
  AppendTo(&out);
  return out;
}

namespace {

// Compare and Equals of key fields' values: strings and integers (nearly
// all) in place, the rest as Values.
int CompareKeyValues(const KeyPart& a, const KeyPart& b) {
  if (a.IsString() && b.IsString()) {
    const int c = a.AsString().compare(b.AsString());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (a.IsInt() && b.IsInt())
    return a.AsInt() < b.AsInt() ? -1 : (a.AsInt() > b.AsInt() ? 1 : 0);
  return Compare(a.value(), b.value());
}

bool KeyValuesEqual(const KeyPart& a, const KeyPart& b) {
  if (a.IsString() && b.IsString()) return a.AsString() == b.AsString();
  if (a.IsInt() && b.IsInt()) return a.AsInt() == b.AsInt();
  return Equals(a.value(), b.value());
}

int CompareKeys(absl::Span<const KeyPart> a, absl::Span<const KeyPart> b) {
  if (a.data() == b.data() && a.size() == b.size()) return 0;
  for (size_t i = 0;; ++i) {
    if (i >= a.size() && i >= b.size()) return 0;
    if (i >= a.size()) return -1;
    if (i >= b.size()) return 1;
    if (int c = a[i].name().compare(b[i].name()); c != 0) return c < 0 ? -1 : 1;
    if (int c = CompareKeyValues(a[i], b[i]); c != 0) return c;
  }
}
}  // namespace

namespace internal {

int CompareDistinct(const PathElement& a, const PathElement& b) {
  if (a.kind() != b.kind()) return a.kind() < b.kind() ? -1 : 1;
  switch (a.kind()) {
    case PathElement::Kind::kField: {
      const std::string* ia = a.interned_name();
      if (ia != nullptr && ia == b.interned_name()) return 0;
      const absl::string_view x = a.field_name();
      const absl::string_view y = b.field_name();
      // Most names that differ differ in their first byte: no call to
      // memcmp for them.
      if (!x.empty() && !y.empty() && x[0] != y[0]) {
        return static_cast<unsigned char>(x[0]) <
                       static_cast<unsigned char>(y[0])
                   ? -1
                   : 1;
      }
      int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case PathElement::Kind::kKey:
      return CompareKeys(a.key(), b.key());
    case PathElement::Kind::kValue:
      return Compare(a.value(), b.value());
    case PathElement::Kind::kIndex:
      return a.index() < b.index() ? -1 : (a.index() > b.index() ? 1 : 0);
  }
  return 0;
}

bool EqualDistinct(const PathElement& a, const PathElement& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case PathElement::Kind::kField: {
      // Interned names are unique: two of them are equal when they are the
      // same name.
      const std::string* ia = a.interned_name();
      const std::string* ib = b.interned_name();
      if (ia != nullptr && ib != nullptr) return ia == ib;
      return a.field_name() == b.field_name();
    }
    case PathElement::Kind::kKey: {
      absl::Span<const KeyPart> ka = a.key();
      absl::Span<const KeyPart> kb = b.key();
      if (ka.data() == kb.data()) return true;  // copies of one element
      if (ka.size() != kb.size()) return false;
      for (size_t i = 0; i < ka.size(); ++i) {
        if (ka[i].name() != kb[i].name() || !KeyValuesEqual(ka[i], kb[i]))
          return false;
      }
      return true;
    }
    case PathElement::Kind::kValue:
      return Equals(a.value(), b.value());
    case PathElement::Kind::kIndex:
      return a.index() == b.index();
  }
  return false;
}

}  // namespace internal

std::string PathString(const Path& p) {
  std::string out;
  for (const PathElement& pe : p) pe.AppendTo(&out);
  return out;
}

size_t HashValue(const Value& v) {
  constexpr size_t kMix = 0x9e3779b97f4a7c15ULL;
  switch (v.kind()) {
    case Value::Kind::kNull:
      return 0x51ed27;
    case Value::Kind::kBool:
      return v.AsBool() ? 0x1b873593 : 0xcc9e2d51;
    case Value::Kind::kInt:
    case Value::Kind::kFloat: {
      // Ints and floats that are equal must hash alike (and 0 as -0).
      const double d = v.AsNumber() == 0 ? 0.0 : v.AsNumber();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return internal::HashBytes(reinterpret_cast<const char*>(&bits), 8);
    }
    case Value::Kind::kString:
      return internal::HashString(v.AsString());
    case Value::Kind::kList: {
      size_t h = 0x2545f491;
      for (const Value& item : v.list()) h = (h ^ HashValue(item)) * kMix;
      return h;
    }
    case Value::Kind::kMap: {
      // Order-independent: maps equal regardless of key order.
      size_t h = 0x4f1bbcdc;
      for (const MapEntry& e : v.map()) {
        h += (internal::HashString(e.key) ^ HashValue(e.value)) * kMix;
      }
      return h;
    }
  }
  return 0;
}

size_t HashPathElement(const PathElement& pe) {
  switch (pe.kind()) {
    case PathElement::Kind::kField:
      return internal::HashBytes(pe.field_name().data(),
                                 pe.field_name().size());
    case PathElement::Kind::kKey: {
      size_t h = 0x7a3c;
      for (const KeyPart& f : pe.key()) {
        h = (h ^ internal::HashBytes(f.name().data(), f.name().size())) *
            0x100000001b3ULL;
        const size_t v = f.IsString() ? internal::HashBytes(f.AsString().data(),
                                                           f.AsString().size())
                                      : HashValue(f.value());
        h = (h ^ v) * 0x100000001b3ULL;
      }
      return h;
    }
    case PathElement::Kind::kValue:
      return HashValue(pe.value()) ^ 0x5bd1e995;
    case PathElement::Kind::kIndex:
      return std::hash<int64_t>()(pe.index()) ^ 0x27d4eb2d;
  }
  return 0;
}

}  // namespace smdx
