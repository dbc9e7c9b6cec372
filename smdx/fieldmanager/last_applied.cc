#include "smdx/fieldmanager/last_applied.h"

#include "smdx/fieldmanager/kubectl.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx::internal {

namespace {

const Value* Annotations(const Value& object) {
  const Value* meta = Find(object, "metadata");
  if (meta == nullptr || !meta->IsMap()) return nullptr;
  return meta->map().Find("annotations");
}

}  // namespace

const std::string* LastAppliedOf(const Value& object) {
  const Value* ann = Annotations(object);
  if (ann == nullptr || !ann->IsMap()) return nullptr;
  const Value* v = ann->map().Find(kLastAppliedAnnotation);
  if (v == nullptr || !v->IsString() || v->AsString().empty()) return nullptr;
  return &v->AsString();
}

std::string BuildLastApplied(const Value& config) {
  Value copy = config;
  if (copy.IsMap()) {
    if (Value* meta = copy.map().Find("metadata");
        meta != nullptr && meta->IsMap()) {
      Value* ann = meta->map().Find("annotations");
      // Go reads annotations as a string map, a null value as "": null
      // (or no map) is none and is dropped when written back; an emptied
      // map stays as {}.
      if (ann != nullptr && ann->IsMap()) {
        ann->map().Erase(kLastAppliedAnnotation);
        for (MapEntry& e : ann->map().entries()) {
          if (e.value.IsNull()) e.value = Value(std::string());
        }
      } else if (ann != nullptr) {
        meta->map().Erase("annotations");
      }
    }
  }
  return ToJsonSorted(copy) + "\n";
}

void SetLastApplied(Value* object, const std::string& value) {
  if (!object->IsMap()) return;
  Value* meta = object->map().Find("metadata");
  if (meta == nullptr || !meta->IsMap()) {
    object->map().Set("metadata", Value::MakeMap());
    meta = object->map().Find("metadata");
  }
  Value* ann = meta->map().Find("annotations");
  if (ann == nullptr || !ann->IsMap()) {
    meta->map().Set("annotations", Value::MakeMap());
    ann = meta->map().Find("annotations");
  }
  ann->map().Set(kLastAppliedAnnotation, Value(value));
  size_t total = 0;
  for (const MapEntry& e : ann->map()) {
    total +=
        e.key.size() + (e.value.IsString() ? e.value.AsString().size() : 0);
  }
  if (total > kMaxAnnotationsBytes) ann->map().Erase(kLastAppliedAnnotation);
}

std::optional<Set> FieldsFromLastApplied(const Type& type, const Value& live,
                                         const std::string& api_version) {
  const std::string* text = LastAppliedOf(live);
  if (text == nullptr) return std::nullopt;
  // The live object is typed strictly here (ObjectToTyped without
  // AllowDuplicates, lastappliedmanager.go allowedConflictsFromLastApplied):
  // one an update left with duplicate items allows nothing, and every
  // conflict stands.
  if (!Validate(type, live).ok()) return std::nullopt;
  absl::StatusOr<Value> last = ParseJson(*text);
  if (!last.ok() || !last->IsMap()) return std::nullopt;
  const Value* av = last->map().Find("apiVersion");
  if (av == nullptr || !av->IsString() || av->AsString() != api_version)
    return std::nullopt;
  if (!Validate(type, *last).ok()) return std::nullopt;
  Comparison cmp = CompareFields(type, &*last, &live);
  return ToFieldSet(type, *last)
      .Difference(cmp.modified)
      .Difference(cmp.added)
      .Difference(cmp.removed);
}

}  // namespace smdx::internal
