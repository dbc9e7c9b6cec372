#include "smdx/kubetypes/internal/crd.h"

#include "absl/strings/string_view.h"
#include "smdx/kubetypes/internal/go_types.h"
#include "smdx/typed/typed.h"

namespace smdx::internal {
namespace {

const Value* Field(const Value* v, absl::string_view name) {
  return v != nullptr && v->IsMap() ? v->map().Find(name) : nullptr;
}

bool NilOrAbsent(const Value* v) { return v == nullptr || v->IsNull(); }

// reflect.DeepEqual, as apiequality.Semantic runs it, on two interface{}
// values the internal JSON type holds: kinds count (int64 against
// float64), floats by value (-0 equals 0), maps whatever their order.
bool GoJsonEqual(const Value& a, const Value& b, int depth) {
  if (depth > kMaxValueDepth) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::kFloat:
      return a.AsFloat() == b.AsFloat();
    case Value::Kind::kMap: {
      const Map& am = a.map();
      const Map& bm = b.map();
      if (am.size() != bm.size()) return false;
      for (const MapEntry& e : am) {
        const Value* other = bm.Find(e.key);
        if (other == nullptr || !GoJsonEqual(e.value, *other, depth + 1))
          return false;
      }
      return true;
    }
    case Value::Kind::kList: {
      const List& al = a.list();
      const List& bl = b.list();
      if (al.size() != bl.size()) return false;
      for (size_t i = 0; i < al.size(); ++i) {
        if (!GoJsonEqual(al[i], bl[i], depth + 1)) return false;
      }
      return true;
    }
    default:
      return Equals(a, b);
  }
}

// A *JSON field (default, example): null or absent is a nil pointer.
bool JsonFieldDiffers(const Value* a, const Value* b, int depth) {
  if (NilOrAbsent(a) || NilOrAbsent(b))
    return NilOrAbsent(a) != NilOrAbsent(b);
  return !GoJsonEqual(*a, *b, depth);
}

// The nested schemas of a JSONSchemaProps, by how they are held.
constexpr absl::string_view kOneSchema[] = {
    "not", "additionalProperties", "additionalItems"};
constexpr absl::string_view kSchemaLists[] = {"allOf", "anyOf", "oneOf"};
constexpr absl::string_view kSchemaMaps[] = {
    "properties", "patternProperties", "definitions", "dependencies"};

// Calls `f(a, b)` on each pair of nested schemas (JSONSchemaProps) of the
// schemas `a` and `b` (either may be null: then `f` gets null for it),
// until `f` returns true; whether one did. Values of another shape (a
// bool where additionalProperties allows one, a dependency's list of
// names) are no schemas, which `f` takes as it takes any value.
template <typename F>
bool AnyNested(const Value* a, const Value* b, F&& f) {
  auto pairwise = [&](const Value* x, const Value* y) {
    if (x == nullptr || !x->IsList()) return false;
    const List& xl = x->list();
    const List* yl = y != nullptr && y->IsList() ? &y->list() : nullptr;
    for (size_t i = 0; i < xl.size(); ++i) {
      if (f(&xl[i], yl != nullptr && i < yl->size() ? &(*yl)[i] : nullptr))
        return true;
    }
    return false;
  };
  for (absl::string_view k : kOneSchema) {
    if (f(Field(a, k), Field(b, k))) return true;
  }
  for (absl::string_view k : kSchemaLists) {
    if (pairwise(Field(a, k), Field(b, k))) return true;
  }
  for (absl::string_view k : kSchemaMaps) {
    const Value* x = Field(a, k);
    if (x == nullptr || !x->IsMap()) continue;
    for (const MapEntry& e : x->map()) {
      if (f(&e.value, Field(Field(b, k), e.key))) return true;
    }
  }
  // items: one schema, or a list of them.
  const Value* items = Field(a, "items");
  if (items != nullptr && items->IsList())
    return pairwise(items, Field(b, "items"));
  return f(items, Field(b, "items"));
}

bool SchemaJsonDiffers(const Value* a, const Value* b, int depth) {
  if (depth > kMaxValueDepth || a == nullptr || b == nullptr ||
      !a->IsMap() || !b->IsMap()) {
    return false;  // (semantically equal: of one shape)
  }
  if (JsonFieldDiffers(Field(a, "default"), Field(b, "default"), depth) ||
      JsonFieldDiffers(Field(a, "example"), Field(b, "example"), depth)) {
    return true;
  }
  // enum, a []JSON: a nil slice equals an empty one; a null item is nil.
  const Value* ea = Field(a, "enum");
  const Value* eb = Field(b, "enum");
  if (ea != nullptr && eb != nullptr && ea->IsList() && eb->IsList()) {
    const List& la = ea->list();
    const List& lb = eb->list();
    for (size_t i = 0; i < la.size() && i < lb.size(); ++i) {
      if (!GoJsonEqual(la[i], lb[i], depth)) return true;
    }
  }
  return AnyNested(a, b, [&](const Value* x, const Value* y) {
    return SchemaJsonDiffers(x, y, depth + 1);
  });
}

}  // namespace

bool IsCrd(absl::string_view api_version, absl::string_view kind) {
  return api_version == "apiextensions.k8s.io/v1" &&
         kind == "CustomResourceDefinition";
}

bool CrdJsonValuesDiffer(const Value* a, const Value* b) {
  const Value* va = Field(a, "versions");
  const Value* vb = Field(b, "versions");
  if (va == nullptr || vb == nullptr || !va->IsList() || !vb->IsList())
    return false;
  for (size_t i = 0; i < va->list().size() && i < vb->list().size(); ++i) {
    const Value* sa = Field(Field(&va->list()[i], "schema"), "openAPIV3Schema");
    const Value* sb = Field(Field(&vb->list()[i], "schema"), "openAPIV3Schema");
    if (SchemaJsonDiffers(sa, sb, 0)) return true;
  }
  return false;
}

void StoreCrdSpecNumbers(Value& crd) {
  const Value* spec = Field(&crd, "spec");
  if (spec != nullptr && HoldsWholeFloat(*spec))
    StoreWholeFloatsAsIntegers(*crd.map().Find("spec"));
}

}  // namespace smdx::internal
