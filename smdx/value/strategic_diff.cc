// Making strategic merge patches as a client does (strategicpatch's
// CreateTwoWayMergePatch and CreateThreeWayMergePatch, v0.37.2): the
// difference of two objects field by field, by the Go type's tags.
//
// The client reads its documents with encoding/json into interface
// values, where every number is a float64: two numbers compare as floats,
// order and match by their `%v` text, and the patch's numbers are written
// as floats (what an apiserver then reads back as integers where they are
// whole): the documents are turned so first and the patch back after
// (internal/go_numbers.h).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "smdx/value/emit.h"
#include "smdx/value/go_format.h"
#include "smdx/value/internal/go_numbers.h"
#include "smdx/value/internal/strategic.h"
#include "smdx/value/strategic_patch.h"

namespace smdx {

namespace {

using internal::ElementKind;
using internal::GoEqual;
using internal::kDeleteFromList;
using internal::kDirective;
using internal::kRetainKeys;
using internal::kSetOrder;
using internal::Located;
using Schema = StrategicPatchSchema;

// strategicpatch's DiffOptions.
struct DiffOptions {
  bool set_element_order = false;
  bool ignore_changes_and_additions = false;
  bool ignore_deletions = false;
  bool build_retain_keys = false;
};

// The value's Go type, as reflect.TypeOf tells them apart (every number a
// float64, nil its own).
int GoType(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      return 1;
    default:
      return 2 + static_cast<int>(v.kind());
  }
}

// fmt's %v of an interface value.
void AppendGoV(std::string* out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      out->append("<nil>");
      return;
    case Value::Kind::kBool:
      out->append(v.AsBool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      absl::StrAppend(out, v.AsInt());
      return;
    case Value::Kind::kFloat:
      internal::AppendGoFloat(out, v.AsFloat(), 'g', 64);
      return;
    case Value::Kind::kString:
      out->append(v.AsString());
      return;
    case Value::Kind::kList: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.list()) {
        if (!first) out->push_back(' ');
        first = false;
        AppendGoV(out, item);
      }
      out->push_back(']');
      return;
    }
    case Value::Kind::kMap: {
      std::vector<const MapEntry*> entries;
      for (const MapEntry& e : v.map()) entries.push_back(&e);
      std::sort(entries.begin(), entries.end(),
                [](const MapEntry* a, const MapEntry* b) {
                  return a->key < b->key;
                });
      out->append("map[");
      bool first = true;
      for (const MapEntry* e : entries) {
        if (!first) out->push_back(' ');
        first = false;
        absl::StrAppend(out, e->key, ":");
        AppendGoV(out, e->value);
      }
      out->push_back(']');
      return;
    }
  }
}

std::string GoV(const Value* v) {
  std::string out;
  if (v == nullptr) {
    out = "<nil>";
  } else {
    AppendGoV(&out, *v);
  }
  return out;
}

// sort.Sort of `items` by their `texts` (moved along with them), with strategicpatch's
// comparator (a <= b, so that equal items swap). Go sorts up to 12 items
// by insertion, whose moves are followed here; longer lists are sorted
// stably, which is Go's order when no two texts are equal.
void SortLikeGo(List* items, std::vector<std::string>* texts_in) {
  const std::vector<std::string>& texts = *texts_in;
  std::vector<size_t> at(items->size());
  for (size_t i = 0; i < at.size(); ++i) at[i] = i;
  if (at.size() <= 12) {
    for (size_t i = 1; i < at.size(); ++i) {
      for (size_t j = i; j > 0 && texts[at[j]] <= texts[at[j - 1]]; --j) {
        std::swap(at[j], at[j - 1]);
      }
    }
  } else {
    std::stable_sort(at.begin(), at.end(), [&](size_t a, size_t b) {
      return texts[a] < texts[b];
    });
  }
  List out;
  std::vector<std::string> out_texts;
  out.reserve(items->size());
  out_texts.reserve(items->size());
  for (size_t i : at) {
    out.push_back(std::move((*items)[i]));
    out_texts.push_back(std::move((*texts_in)[i]));
  }
  *items = std::move(out);
  *texts_in = std::move(out_texts);
}

// A list sorted as sortScalars sorts it, with its items' texts.
struct SortedList {
  List items;
  std::vector<std::string> texts;
};

SortedList SortedScalars(List items) {
  SortedList out{std::move(items), {}};
  out.texts.reserve(out.items.size());
  for (const Value& v : out.items) out.texts.push_back(GoV(&v));
  SortLikeGo(&out.items, &out.texts);
  return out;
}

// ---- Diffing ---------------------------------------------------------------

absl::StatusOr<Map> DiffMaps(const Map& original, const Map& modified,
                             const Schema& schema, DiffOptions options);

struct ListDiff {
  List patch, deletions, order;
};

// diffListsOfScalars: what `b` (modified, sorted) adds to `a` (original,
// sorted) and what it drops, by their texts.
void DiffScalars(const SortedList& a, const SortedList& b,
                 const DiffOptions& options, ListDiff* out) {
  size_t i = 0, j = 0;
  while (i < a.items.size() || j < b.items.size()) {
    const bool in_a = i < a.items.size(), in_b = j < b.items.size();
    if (in_a && in_b && a.texts[i] == b.texts[j]) {
      ++i;
      ++j;
    } else if (!in_a || (in_b && a.texts[i] > b.texts[j])) {
      if (!options.ignore_changes_and_additions) {
        out->patch.push_back(b.items[j]);
      }
      ++j;
    } else {
      if (!options.ignore_deletions) out->deletions.push_back(a.items[i]);
      ++i;
    }
  }
  out->deletions = internal::Deduplicated(std::move(out->deletions));
}

// An object item of a merged list and its merge key's value
// (getMapAndMergeKeyValueByIndex).
absl::Status ItemKey(const Value& item, absl::string_view key,
                     const Value** value) {
  if (!item.IsMap()) {
    return internal::StrategicBadArgType(internal::kGoMap, &item);
  }
  *value = item.map().Find(key);
  if (*value == nullptr) return internal::StrategicNoMergeKey(item, key);
  return absl::OkStatus();
}

// sortMergeListsByNameArray of a list of objects (not recursing).
absl::StatusOr<List> SortedByKey(List items, absl::string_view key) {
  if (items.empty()) return items;
  absl::StatusOr<Value::Kind> kind = ElementKind({&items});
  if (!kind.ok()) return kind.status();
  std::vector<std::string> texts;
  for (const Value& v : items) {
    if (!v.IsMap()) {
      return internal::StrategicBadArgType(internal::kGoMap, &v);
    }
    texts.push_back(GoV(v.map().Find(key)));
  }
  SortLikeGo(&items, &texts);
  return items;
}

// diffListsOfMaps: items matched by their merge key's text, walking both
// lists sorted by it.
absl::Status DiffObjectLists(const List& original, const List& modified,
                             const Schema& schema, absl::string_view key,
                             const DiffOptions& options, ListDiff* out) {
  absl::StatusOr<List> a = SortedByKey(original, key);
  if (!a.ok()) return a.status();
  absl::StatusOr<List> b = SortedByKey(modified, key);
  if (!b.ok()) return b.status();
  size_t i = 0, j = 0;
  while (i < a->size() || j < b->size()) {
    const bool in_a = i < a->size(), in_b = j < b->size();
    const Value *ka = nullptr, *kb = nullptr;
    std::string ta, tb;
    if (in_a) {
      if (absl::Status st = ItemKey((*a)[i], key, &ka); !st.ok()) return st;
      ta = GoV(ka);
    }
    if (in_b) {
      if (absl::Status st = ItemKey((*b)[j], key, &kb); !st.ok()) return st;
      tb = GoV(kb);
    }
    if (in_a && in_b && ta == tb) {
      absl::StatusOr<Map> item =
          DiffMaps((*a)[i].map(), (*b)[j].map(), schema, options);
      if (!item.ok()) {
        return Located(item.status(),
                       absl::StrCat("[", key, "=", ToJson(*kb), "]"));
      }
      if (!item->empty()) {
        item->Set(key, *kb);
        out->patch.push_back(Value(*std::move(item)));
      }
      ++i;
      ++j;
    } else if (!in_a || (in_b && ta > tb)) {
      if (!options.ignore_changes_and_additions) out->patch.push_back((*b)[j]);
      ++j;
    } else {
      if (!options.ignore_deletions) {
        Value gone = Value::MakeMap();
        gone.map().Set(key, *ka);
        gone.map().Set(kDirective, Value("delete"));
        out->deletions.push_back(std::move(gone));
      }
      ++i;
    }
  }
  return absl::OkStatus();
}

// isOrderSame.
absl::StatusOr<bool> SameOrder(const List& original, const List& modified,
                               absl::string_view key) {
  if (original.size() != modified.size()) return false;
  for (size_t i = 0; i < modified.size(); ++i) {
    const Value* a = &original[i];
    const Value* b = &modified[i];
    if (!key.empty()) {
      if (absl::Status st = ItemKey(original[i], key, &a); !st.ok()) return st;
      if (absl::Status st = ItemKey(modified[i], key, &b); !st.ok()) return st;
    }
    absl::StatusOr<bool> eq = GoEqual(a, b);
    if (!eq.ok() || !*eq) return eq;
  }
  return true;
}

// diffLists: a merged list's patch items, its deletions (scalars; objects'
// go to the end of the patch items) and its `$setElementOrder`.
absl::StatusOr<ListDiff> DiffLists(const List& original, const List& modified,
                                   const Schema& schema, absl::string_view key,
                                   const DiffOptions& options) {
  ListDiff out;
  if (original.empty()) {
    if (!modified.empty() && !options.ignore_changes_and_additions) {
      out.patch = modified;
    }
    return out;
  }
  absl::StatusOr<Value::Kind> kind = ElementKind({&original, &modified});
  if (!kind.ok()) return kind.status();
  if (*kind == Value::Kind::kMap) {
    if (absl::Status st =
            DiffObjectLists(original, modified, schema, key, options, &out);
        !st.ok()) {
      return st;
    }
    absl::StatusOr<List> sorted =
        internal::SortedBy(std::move(out.patch), modified, key, *kind);
    if (!sorted.ok()) return sorted.status();
    out.patch = *std::move(sorted);
    absl::StatusOr<bool> same = SameOrder(original, modified, key);
    if (!same.ok()) return same.status();
    for (Value& d : out.deletions) out.patch.push_back(std::move(d));
    out.deletions.clear();
    if (options.set_element_order &&
        ((!options.ignore_changes_and_additions &&
          (!out.patch.empty() || !*same)) ||
         (!options.ignore_deletions && !out.patch.empty()))) {
      for (const Value& v : modified) {
        Value only = Value::MakeMap();
        const Value* k = v.map().Find(key);
        only.map().Set(key, k != nullptr ? *k : Value());
        out.order.push_back(std::move(only));
      }
    }
    return out;
  }
  // (Go sorts `original` in place, and compares it so below.)
  const SortedList sorted_original = SortedScalars(original);
  DiffScalars(sorted_original, SortedScalars(modified), options, &out);
  absl::StatusOr<List> sorted =
      internal::SortedBy(std::move(out.patch), modified, key, *kind);
  if (!sorted.ok()) return sorted.status();
  out.patch = *std::move(sorted);
  if (options.set_element_order &&
      ((!options.ignore_deletions && !out.deletions.empty()) ||
       (!options.ignore_changes_and_additions &&
        Value(sorted_original.items) != Value(modified)))) {
    out.order = modified;
  }
  return out;
}

// Whether the patchStrategy tags hold retainKeys.
bool RetainsKeys(const std::vector<std::string>& strategies) {
  return std::find(strategies.begin(), strategies.end(), "retainKeys") !=
         strategies.end();
}

// A field's tags as a diff reads them: none (nullopt) where the Go type
// lacks the field but the two values are equal, so that no patch needs it.
struct Tags {
  Schema::Field field;
  std::string strategy;  // other than retainKeys
};
absl::StatusOr<std::optional<Tags>> TagsOf(
    absl::StatusOr<Schema::Field> field, const Value& original,
    const Value& modified) {
  if (!field.ok()) {
    if (original == modified) return std::optional<Tags>();
    return field.status();
  }
  absl::StatusOr<std::string> strategy =
      internal::MergeStrategy(field->strategies);
  if (!strategy.ok()) return strategy.status();
  return std::optional<Tags>(Tags{*std::move(field), *std::move(strategy)});
}

// handleMapDiff: two objects under `key`.
absl::Status DiffMapField(const std::string& key, const Value& original,
                          const Value& modified, Map* patch,
                          const Schema& schema, DiffOptions options) {
  absl::StatusOr<std::optional<Tags>> tags =
      TagsOf(schema.ForMap(key), original, modified);
  if (!tags.ok() || !*tags) return tags.status();
  options.build_retain_keys = RetainsKeys((*tags)->field.strategies);
  if ((*tags)->strategy == "replace") {
    if (!options.ignore_changes_and_additions) patch->Set(key, modified);
    return absl::OkStatus();
  }
  absl::StatusOr<Map> sub = DiffMaps(original.map(), modified.map(),
                                     *(*tags)->field.schema, options);
  if (!sub.ok()) return sub.status();
  if (!sub->empty()) patch->Set(key, Value(*std::move(sub)));
  return absl::OkStatus();
}

// replacePatchFieldIfNotEqual.
void ReplaceIfChanged(const std::string& key, const Value& original,
                      const Value& modified, Map* patch,
                      const DiffOptions& options) {
  if (options.ignore_changes_and_additions || original == modified) return;
  patch->Set(key, modified);
}

// handleSliceDiff: two lists under `key`.
absl::Status DiffListField(const std::string& key, const Value& original,
                           const Value& modified, Map* patch,
                           const Schema& schema, DiffOptions options) {
  absl::StatusOr<std::optional<Tags>> tags =
      TagsOf(schema.ForList(key), original, modified);
  if (!tags.ok() || !*tags) return tags.status();
  const Schema::Field& field = (*tags)->field;
  if ((*tags)->strategy != "merge") {
    ReplaceIfChanged(key, original, modified, patch, options);
    return absl::OkStatus();
  }
  options.build_retain_keys = RetainsKeys(field.strategies);
  absl::StatusOr<ListDiff> diff =
      DiffLists(original.list(), modified.list(), *field.schema,
                field.merge_key, options);
  if (!diff.ok()) return diff.status();
  if (!diff->patch.empty()) patch->Set(key, Value(std::move(diff->patch)));
  if (!diff->deletions.empty()) {
    patch->Set(absl::StrCat(kDeleteFromList, "/", key),
               Value(std::move(diff->deletions)));
  }
  if (!diff->order.empty()) {
    patch->Set(absl::StrCat(kSetOrder, "/", key),
               Value(std::move(diff->order)));
  }
  return absl::OkStatus();
}

// diffMaps: the patch from `original` to `modified`.
absl::StatusOr<Map> DiffMaps(const Map& original, const Map& modified,
                             const Schema& schema, DiffOptions options) {
  Map patch;
  List retained;
  for (const MapEntry& e : modified) {
    if (options.build_retain_keys && !e.value.IsNull()) {
      retained.push_back(Value(e.key));
    }
    const Value* had = original.Find(e.key);
    if (had == nullptr) {
      if (!options.ignore_changes_and_additions) patch.Set(e.key, e.value);
      continue;
    }
    if (e.key == kDirective) {
      if (!had->IsString() || !e.value.IsString()) {
        return absl::InternalError(
            absl::StrCat("invalid value for special key: ", kDirective));
      }
      if (had->AsString() != e.value.AsString()) patch.Set(e.key, e.value);
      continue;
    }
    if (GoType(*had) != GoType(e.value)) {
      if (!options.ignore_changes_and_additions) patch.Set(e.key, e.value);
      continue;
    }
    absl::Status st;
    if (had->IsMap()) {
      st = DiffMapField(e.key, *had, e.value, &patch, schema, options);
    } else if (had->IsList()) {
      st = DiffListField(e.key, *had, e.value, &patch, schema, options);
    } else {
      ReplaceIfChanged(e.key, *had, e.value, &patch, options);
    }
    if (!st.ok()) return Located(std::move(st), absl::StrCat(".", e.key));
  }
  bool dropped = false;  // original holds a non-null field modified lacks
  for (const MapEntry& e : original) {
    if (modified.Find(e.key) != nullptr) continue;
    if (!options.ignore_deletions) patch.Set(e.key, Value());
    dropped = dropped || !e.value.IsNull();
  }
  if (!retained.empty() && (!patch.empty() || dropped)) {
    patch.Set(kRetainKeys, Value(SortedScalars(std::move(retained)).items));
  }
  return patch;
}

// A document of the client's: an object, or null for none.
absl::StatusOr<Value> GoDocument(const Value& v, absl::string_view what) {
  if (v.IsNull()) return Value::MakeMap();
  if (!v.IsMap()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", what, " document is a ", KindName(v.kind()),
        ", not an object"));
  }
  Value out = v;
  internal::ToGoFloats(&out);
  return out;
}

}  // namespace

absl::StatusOr<Value> CreateTwoWayStrategicPatch(
    const Value& original, const Value& modified,
    const StrategicPatchSchema& schema) {
  absl::StatusOr<Value> from = GoDocument(original, "original");
  if (!from.ok()) return from.status();
  absl::StatusOr<Value> to = GoDocument(modified, "modified");
  if (!to.ok()) return to.status();
  DiffOptions options;
  options.set_element_order = true;
  absl::StatusOr<Map> patch = DiffMaps(from->map(), to->map(), schema, options);
  if (!patch.ok()) return internal::WithPath(patch.status());
  Value out(*std::move(patch));
  internal::FromGoFloats(&out);
  return out;
}

absl::StatusOr<Value> CreateThreeWayStrategicPatch(
    const Value& original, const Value& modified, const Value& current,
    const StrategicPatchSchema& schema) {
  absl::StatusOr<Value> from = GoDocument(original, "original");
  if (!from.ok()) return from.status();
  absl::StatusOr<Value> to = GoDocument(modified, "modified");
  if (!to.ok()) return to.status();
  absl::StatusOr<Value> now = GoDocument(current, "current");
  if (!now.ok()) return now.status();
  // The changes and additions from the current object, and the deletions
  // from the original configuration; the first merged into the second.
  DiffOptions delta_options;
  delta_options.set_element_order = true;
  delta_options.ignore_deletions = true;
  absl::StatusOr<Map> delta =
      DiffMaps(now->map(), to->map(), schema, delta_options);
  if (!delta.ok()) return internal::WithPath(delta.status());
  DiffOptions deletion_options;
  deletion_options.set_element_order = true;
  deletion_options.ignore_changes_and_additions = true;
  absl::StatusOr<Map> deletions =
      DiffMaps(from->map(), to->map(), schema, deletion_options);
  if (!deletions.ok()) return internal::WithPath(deletions.status());
  internal::StrategicMergeOptions keep;
  keep.parallel_lists = false;
  keep.ignore_unmatched_nulls = false;
  absl::StatusOr<Value> patch = internal::StrategicMergeMaps(
      Value(*std::move(deletions)), Value(*std::move(delta)), schema, keep);
  if (!patch.ok()) return internal::WithPath(patch.status());
  internal::FromGoFloats(&*patch);
  return patch;
}

}  // namespace smdx
