#include "smdx/schema/typedef_codec.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"

namespace smdx {

namespace {

// Flags of an atom.
enum : uint8_t {
  kAtomScalar = 1,
  kAtomList = 2,
  kAtomMap = 4,
  kAtomOverride = 8,
};

// Flags of a type reference.
enum : uint32_t {
  kRefNamed = 1,
  kRefInlined = 2,
  kRefRelationship = 4,
  kRefDefault = 8,
  kRefNullable = 16,
  kRefImmutable = 32,
  kRefImmutableKeys = 64,
  kRefAdditionOnly = 128,
  kRefDeletionOnly = 256,
};

// Flags of a struct field and of a union.
enum : uint8_t {
  kFieldDefault = 1,
  kFieldNullable = 2,
  kUnionDiscriminator = 1,
  kUnionDeduceInvalid = 2,
};

// Tags of a value.
enum : uint8_t {
  kNull,
  kFalse,
  kTrue,
  kInt,
  kFloat,
  kString,
  kList,
  kMap,
};

// Nesting the reader accepts (inline types and default values): far more
// than any schema has, and a bound on the recursion for damaged bytes.
constexpr int kMaxDepth = 256;

class Writer {
 public:
  explicit Writer(std::string* out) : out_(out) {}

  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_->push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_->push_back(static_cast<char>(v));
  }
  void Byte(uint8_t b) { out_->push_back(static_cast<char>(b)); }
  void String(absl::string_view s) {
    Varint(s.size());
    out_->append(s.data(), s.size());
  }

  void ValueOf(const Value& v) {
    switch (v.kind()) {
      case Value::Kind::kNull:
        Byte(kNull);
        return;
      case Value::Kind::kBool:
        Byte(v.AsBool() ? kTrue : kFalse);
        return;
      case Value::Kind::kInt: {
        Byte(kInt);
        const int64_t i = v.AsInt();
        // Zigzag: small negative numbers stay short.
        Varint((static_cast<uint64_t>(i) << 1) ^
               static_cast<uint64_t>(i >> 63));
        return;
      }
      case Value::Kind::kFloat: {
        Byte(kFloat);
        const double d = v.AsFloat();
        char bytes[sizeof(double)];
        std::memcpy(bytes, &d, sizeof(d));
        out_->append(bytes, sizeof(bytes));
        return;
      }
      case Value::Kind::kString:
        Byte(kString);
        String(v.AsString());
        return;
      case Value::Kind::kList:
        Byte(kList);
        Varint(v.list().size());
        for (const Value& item : v.list()) ValueOf(item);
        return;
      case Value::Kind::kMap:
        Byte(kMap);
        Varint(v.map().size());
        for (const MapEntry& e : v.map()) {
          String(e.key);
          ValueOf(e.value);
        }
        return;
    }
  }

  void Ref(const TypeRef& ref) {
    uint32_t flags = 0;
    if (!ref.named_type.empty()) flags |= kRefNamed;
    if (ref.inlined) flags |= kRefInlined;
    if (ref.element_relationship) flags |= kRefRelationship;
    if (ref.default_value) flags |= kRefDefault;
    if (ref.nullable) flags |= kRefNullable;
    if (ref.immutability.immutable) flags |= kRefImmutable;
    if (ref.immutability.immutable_keys) flags |= kRefImmutableKeys;
    if (ref.immutability.addition_only) flags |= kRefAdditionOnly;
    if (ref.immutability.deletion_only) flags |= kRefDeletionOnly;
    Varint(flags);
    if (flags & kRefNamed) String(ref.named_type);
    if (flags & kRefInlined) AtomOf(*ref.inlined);
    if (flags & kRefRelationship)
      Byte(static_cast<uint8_t>(*ref.element_relationship));
    if (flags & kRefDefault) ValueOf(*ref.default_value);
  }

  void AtomOf(const Atom& atom) {
    uint8_t flags = 0;
    if (atom.scalar) flags |= kAtomScalar;
    if (atom.list) flags |= kAtomList;
    if (atom.map) flags |= kAtomMap;
    if (atom.relationship_override) flags |= kAtomOverride;
    Byte(flags);
    if (atom.scalar) Byte(static_cast<uint8_t>(*atom.scalar));
    if (atom.relationship_override)
      Byte(static_cast<uint8_t>(*atom.relationship_override));
    if (atom.list) {
      const ListType& l = *atom.list;
      Ref(l.element_type);
      Byte(static_cast<uint8_t>(l.element_relationship));
      Varint(l.keys.size());
      for (const std::string& k : l.keys) String(k);
    }
    if (atom.map) {
      const MapType& m = *atom.map;
      Varint(m.fields.size());
      for (const StructField& f : m.fields) {
        String(f.name);
        Ref(f.type);
        Byte(static_cast<uint8_t>((f.default_value ? kFieldDefault : 0) |
                                  (f.nullable ? kFieldNullable : 0)));
        if (f.default_value) ValueOf(*f.default_value);
      }
      Byte(m.element_type ? 1 : 0);
      if (m.element_type) Ref(*m.element_type);
      Byte(static_cast<uint8_t>(m.element_relationship));
      Varint(m.unions.size());
      for (const Union& u : m.unions) {
        Byte(static_cast<uint8_t>(
            (u.discriminator ? kUnionDiscriminator : 0) |
            (u.deduce_invalid_discriminator ? kUnionDeduceInvalid : 0)));
        if (u.discriminator) String(*u.discriminator);
        Varint(u.fields.size());
        for (const UnionField& f : u.fields) {
          String(f.field_name);
          String(f.discriminator_value);
        }
      }
    }
  }

 private:
  std::string* out_;
};

// Reads what Writer wrote. Every read checks the bytes left; the first
// failure is kept (where and what) and later reads return zeros.
class Reader {
 public:
  explicit Reader(absl::string_view bytes) : p_(bytes.data()),
                                             begin_(bytes.data()),
                                             end_(bytes.data() + bytes.size()) {}

  bool ok() const { return error_.empty(); }
  bool at_end() const { return p_ == end_; }
  absl::Status status() const {
    return ok() ? absl::OkStatus()
                : absl::InvalidArgumentError(absl::StrCat(
                      "encoded type definition, byte ", error_at_, ": ",
                      error_));
  }
  void Fail(absl::string_view what) {
    if (!ok()) return;
    error_ = std::string(what);
    error_at_ = static_cast<size_t>(p_ - begin_);
    p_ = end_;
  }

  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) {
        Fail("truncated number");
        return 0;
      }
      const uint8_t b = static_cast<uint8_t>(*p_++);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    Fail("number too long");
    return 0;
  }
  uint8_t Byte() {
    if (p_ == end_) {
      Fail("truncated");
      return 0;
    }
    return static_cast<uint8_t>(*p_++);
  }
  // A count of items that take at least one byte each.
  size_t Count() {
    const uint64_t n = Varint();
    if (n > static_cast<uint64_t>(end_ - p_)) {
      Fail("count beyond the end");
      return 0;
    }
    return static_cast<size_t>(n);
  }
  absl::string_view StringView() {
    const uint64_t n = Varint();
    if (n > static_cast<uint64_t>(end_ - p_)) {
      Fail("string beyond the end");
      return {};
    }
    absl::string_view s(p_, static_cast<size_t>(n));
    p_ += n;
    return s;
  }
  std::string String() { return std::string(StringView()); }

  template <typename Enum>
  Enum EnumOf(uint8_t last) {
    const uint8_t b = Byte();
    if (b > last) Fail("unknown enumerator");
    return static_cast<Enum>(b > last ? 0 : b);
  }

  Value ValueOf(int depth) {
    if (depth > kMaxDepth) {
      Fail("nesting too deep");
      return Value();
    }
    switch (Byte()) {
      case kNull:
        return Value();
      case kFalse:
        return Value(false);
      case kTrue:
        return Value(true);
      case kInt: {
        const uint64_t z = Varint();
        return Value(static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1)));
      }
      case kFloat: {
        if (end_ - p_ < static_cast<ptrdiff_t>(sizeof(double))) {
          Fail("truncated float");
          return Value();
        }
        double d;
        std::memcpy(&d, p_, sizeof(d));
        p_ += sizeof(d);
        return Value(d);
      }
      case kString:
        return Value(StringView());
      case kList: {
        const size_t n = Count();
        List l;
        l.reserve(n);
        for (size_t i = 0; i < n && ok(); ++i) l.push_back(ValueOf(depth + 1));
        return Value(std::move(l));
      }
      case kMap: {
        const size_t n = Count();
        Map m;
        m.Reserve(n);
        for (size_t i = 0; i < n && ok(); ++i) {
          std::string key = String();
          m.Append(std::move(key), ValueOf(depth + 1));
        }
        return Value(std::move(m));
      }
      default:
        Fail("unknown value tag");
        return Value();
    }
  }

  void Ref(TypeRef* ref, int depth) {
    const uint64_t flags = Varint();
    if (flags >= 2 * kRefDeletionOnly) Fail("unknown reference flags");
    if (flags & kRefNamed) ref->named_type = String();
    if (flags & kRefInlined) {
      auto atom = std::make_shared<Atom>();
      AtomOf(atom.get(), depth + 1);
      ref->inlined = std::move(atom);
    }
    if (flags & kRefRelationship) {
      ref->element_relationship =
          EnumOf<ElementRelationship>(kLastRelationship);
    }
    if (flags & kRefDefault) ref->default_value = ValueOf(depth + 1);
    ref->nullable = (flags & kRefNullable) != 0;
    ref->immutability.immutable = (flags & kRefImmutable) != 0;
    ref->immutability.immutable_keys = (flags & kRefImmutableKeys) != 0;
    ref->immutability.addition_only = (flags & kRefAdditionOnly) != 0;
    ref->immutability.deletion_only = (flags & kRefDeletionOnly) != 0;
  }

  void AtomOf(Atom* atom, int depth) {
    if (depth > kMaxDepth) {
      Fail("nesting too deep");
      return;
    }
    const uint8_t flags = Byte();
    if (flags >= 2 * kAtomOverride) Fail("unknown atom flags");
    if (flags & kAtomScalar) atom->scalar = EnumOf<ScalarType>(kLastScalar);
    if (flags & kAtomOverride) {
      atom->relationship_override =
          EnumOf<ElementRelationship>(kLastRelationship);
    }
    if (flags & kAtomList) {
      auto list = std::make_shared<ListType>();
      Ref(&list->element_type, depth);
      list->element_relationship =
          EnumOf<ElementRelationship>(kLastRelationship);
      const size_t n = Count();
      list->keys.reserve(n);
      for (size_t i = 0; i < n && ok(); ++i) list->keys.push_back(String());
      atom->list = std::move(list);
    }
    if (flags & kAtomMap) {
      auto map = std::make_shared<MapType>();
      const size_t n = Count();
      map->fields.resize(n);
      for (size_t i = 0; i < n && ok(); ++i) {
        StructField& f = map->fields[i];
        f.name = String();
        Ref(&f.type, depth);
        const uint8_t field_flags = Byte();
        if (field_flags & kFieldDefault) f.default_value = ValueOf(depth + 1);
        f.nullable = (field_flags & kFieldNullable) != 0;
      }
      if (Byte() != 0) {
        map->element_type.emplace();
        Ref(&*map->element_type, depth);
      }
      map->element_relationship =
          EnumOf<ElementRelationship>(kLastRelationship);
      const size_t unions = Count();
      map->unions.resize(unions);
      for (size_t i = 0; i < unions && ok(); ++i) {
        Union& u = map->unions[i];
        const uint8_t union_flags = Byte();
        if (union_flags & kUnionDiscriminator) u.discriminator = String();
        u.deduce_invalid_discriminator =
            (union_flags & kUnionDeduceInvalid) != 0;
        const size_t fields = Count();
        u.fields.resize(fields);
        for (size_t j = 0; j < fields && ok(); ++j) {
          u.fields[j].field_name = String();
          u.fields[j].discriminator_value = String();
        }
      }
      atom->map = std::move(map);
    }
  }

 private:
  static constexpr uint8_t kLastRelationship =
      static_cast<uint8_t>(ElementRelationship::kSeparable);
  static constexpr uint8_t kLastScalar =
      static_cast<uint8_t>(ScalarType::kUntyped);

  const char* p_;
  const char* const begin_;
  const char* const end_;
  std::string error_;
  size_t error_at_ = 0;
};

}  // namespace

void AppendEncodedTypeDef(const TypeDef& def, std::string* out) {
  Writer w(out);
  w.String(def.name);
  w.AtomOf(def.atom);
}

absl::StatusOr<TypeDef> DecodeTypeDef(absl::string_view bytes) {
  Reader r(bytes);
  TypeDef def;
  def.name = r.String();
  r.AtomOf(&def.atom, 0);
  if (r.ok() && !r.at_end()) r.Fail("bytes after the definition");
  if (!r.ok()) return r.status();
  return def;
}

}  // namespace smdx
