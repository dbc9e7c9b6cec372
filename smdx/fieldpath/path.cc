#include "smdx/fieldpath/path.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <new>

#include "absl/strings/str_cat.h"
#include "smdx/fieldpath/compact_vector.h"
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

static_assert(sizeof(SharedBlock) % alignof(KeyField) == 0 &&
                  sizeof(SharedBlock) % alignof(Value) == 0,
              "payloads follow the block header");

}  // namespace

PathElement PathElement::FieldFrom(absl::string_view name) {
  if (name.size() <= kMaxInline) return InlineField(name.data(), name.size());
  PathElement pe;
  SharedBlock* h = NewBlock(name.size(), static_cast<uint32_t>(name.size()));
  std::memcpy(reinterpret_cast<char*>(h + 1), name.data(), name.size());
  pe.SetPointer(kOwnedName, h);
  return pe;
}

PathElement PathElement::Key(KeyFields fields) {
  return KeyFrom(absl::MakeSpan(fields));
}

PathElement PathElement::KeyFrom(absl::Span<KeyField> fields) {
  auto by_name = [](const KeyField& a, const KeyField& b) {
    return a.name < b.name;
  };
  // Keys mostly come sorted (one field, or the schema's order); stable_sort
  // would allocate a scratch buffer even then.
  if (!std::is_sorted(fields.begin(), fields.end(), by_name))
    std::stable_sort(fields.begin(), fields.end(), by_name);
  SharedBlock* h = NewBlock(fields.size() * sizeof(KeyField),
                            static_cast<uint32_t>(fields.size()));
  auto* out = reinterpret_cast<KeyField*>(h + 1);
  for (size_t i = 0; i < fields.size(); ++i)
    new (out + i) KeyField(std::move(fields[i]));
  PathElement pe;
  pe.SetPointer(kKeyTag, h);
  return pe;
}

PathElement PathElement::KeyMade(
    size_t n, absl::FunctionRef<void(KeyField* fields)> make) {
  SharedBlock* h =
      NewBlock(n * sizeof(KeyField), static_cast<uint32_t>(n));
  make(reinterpret_cast<KeyField*>(h + 1));
  PathElement pe;
  pe.SetPointer(kKeyTag, h);
  return pe;
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
    auto* fields = reinterpret_cast<KeyField*>(h + 1);
    for (uint32_t i = 0; i < h->size; ++i) fields[i].~KeyField();
    FreeBlock(h, h->size * sizeof(KeyField));
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
      for (const KeyField& f : key()) {
        if (!first) out->push_back(',');
        first = false;
        absl::StrAppend(out, f.name, "=", ValueString(f.value));
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
int CompareKeys(absl::Span<const KeyField> a, absl::Span<const KeyField> b) {
  if (a.data() == b.data() && a.size() == b.size()) return 0;
  for (size_t i = 0;; ++i) {
    if (i >= a.size() && i >= b.size()) return 0;
    if (i >= a.size()) return -1;
    if (i >= b.size()) return 1;
    if (int c = a[i].name.compare(b[i].name); c != 0) return c < 0 ? -1 : 1;
    if (int c = Compare(a[i].value, b[i].value); c != 0) return c;
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
      absl::Span<const KeyField> ka = a.key();
      absl::Span<const KeyField> kb = b.key();
      if (ka.data() == kb.data()) return true;  // copies of one element
      if (ka.size() != kb.size()) return false;
      for (size_t i = 0; i < ka.size(); ++i) {
        if (ka[i].name != kb[i].name || !Equals(ka[i].value, kb[i].value))
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
      for (const KeyField& f : pe.key()) {
        h = (h ^ internal::HashString(f.name)) * 0x100000001b3ULL;
        h = (h ^ HashValue(f.value)) * 0x100000001b3ULL;
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
