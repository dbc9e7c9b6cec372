#include "smdx/value/strategic_patch.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "smdx/value/emit.h"
#include "smdx/value/internal/strategic.h"
#include "smdx/value/patch.h"

namespace smdx {

// The merge and the readings strategic_diff.cc shares with it
// (internal/strategic.h) are smdx::internal's; the rest is this file's.
namespace internal {

namespace {

using Schema = StrategicPatchSchema;
using Options = StrategicMergeOptions;

// ---- Errors, in mergepatch's words where it has them ---------------------

absl::Status BadRequest(absl::string_view what) {
  return absl::InvalidArgumentError(what);
}

absl::Status ServerError(absl::string_view what) {
  return absl::InternalError(what);
}

// Where strategicpatch's Go code panics (the handler recovers: a 500).
absl::Status Panic(absl::string_view what) {
  return absl::InternalError(
      absl::StrCat("strategic merge patch: Go panics here: ", what));
}

// The Go type a JSON value decodes to, as mergepatch's messages name it.
absl::string_view GoTypeName(const Value* v) {
  if (v == nullptr) return "<nil>";
  switch (v->kind()) {
    case Value::Kind::kNull:
      return "<nil>";
    case Value::Kind::kBool:
      return "bool";
    case Value::Kind::kInt:
      return "int64";
    case Value::Kind::kFloat:
      return "float64";
    case Value::Kind::kString:
      return "string";
    case Value::Kind::kList:
      return "[]interface {}";
    case Value::Kind::kMap:
      return "map[string]interface {}";
  }
  return "<nil>";
}

constexpr absl::string_view kGoSlice = "[]interface {}";

}  // namespace

absl::Status StrategicBadArgType(absl::string_view expected,
                                 const Value* got) {
  return ServerError(absl::StrCat("expected a ", expected, ", but received a ",
                                  GoTypeName(got)));
}

absl::Status StrategicNoMergeKey(const Value& item, absl::string_view key) {
  return ServerError(absl::StrCat("map: ", ToJson(item),
                                  " does not contain declared merge key: ",
                                  key));
}

namespace {

absl::Status UnknownDirective(const Value& directive, const Value& in) {
  return ServerError(absl::StrCat(
      "unknown patch type: ",
      directive.IsString() ? directive.AsString() : ToJson(directive),
      " in map: ", ToJson(in)));
}

// Where an error is: the path from the document's root, built as the error
// travels up (a payload), then put before its message
// (`.spec.containers[name="web"]: ...`).
constexpr absl::string_view kPathPayload = "smdx.dev/strategic-patch-path";

}  // namespace

absl::Status Located(absl::Status st, absl::string_view segment) {
  std::string path(segment);
  if (auto below = st.GetPayload(kPathPayload)) {
    absl::StrAppend(&path, std::string(*below));
  }
  st.SetPayload(kPathPayload, absl::Cord(path));
  return st;
}

absl::Status WithPath(absl::Status st) {
  auto path = st.GetPayload(kPathPayload);
  if (!path) return st;
  return absl::Status(st.code(),
                      absl::StrCat(std::string(*path), ": ", st.message()));
}

// ---- Go's comparisons of interface values -----------------------------------

// a == b for two Go interface values (nullptr: a missing map entry, nil):
// equal types and values; two maps or two slices panic.
absl::StatusOr<bool> GoEqual(const Value* a, const Value* b) {
  const bool a_nil = a == nullptr || a->IsNull();
  const bool b_nil = b == nullptr || b->IsNull();
  if (a_nil || b_nil) return a_nil && b_nil;
  if (a->kind() != b->kind()) return false;
  switch (a->kind()) {
    case Value::Kind::kBool:
      return a->AsBool() == b->AsBool();
    case Value::Kind::kInt:
      return a->AsInt() == b->AsInt();
    case Value::Kind::kFloat:
      return a->AsFloat() == b->AsFloat();
    case Value::Kind::kString:
      return a->AsString() == b->AsString();
    default:
      return Panic(absl::StrCat("comparing uncomparable type ",
                                GoTypeName(a)));
  }
}

namespace {

// A Go map keyed by interface values panics on a map or slice key.
absl::Status Hashable(const Value& v) {
  if (v.IsMap() || v.IsList()) {
    return Panic(absl::StrCat("hash of unhashable type ", GoTypeName(&v)));
  }
  return absl::OkStatus();
}

bool HasDirective(const Value& v) {
  return v.IsMap() && v.map().Find(kDirective) != nullptr;
}

bool IsDirective(const Value* v, absl::string_view which) {
  return v != nullptr && v->IsString() && v->AsString() == which;
}

bool IsDeleteItem(const Value& v) {
  return v.IsMap() && IsDirective(v.map().Find(kDirective), "delete");
}

// The value an item is ordered and matched by: its merge key's (nil when
// missing or no object) for lists of objects, else the item.
const Value* OrderKey(const Value& item, absl::string_view key,
                      Value::Kind kind) {
  if (kind != Value::Kind::kMap) return &item;
  return item.IsMap() ? item.map().Find(key) : nullptr;
}

// The index of the first item of `l` with `v`'s order key, or -1.
absl::StatusOr<int64_t> IndexIn(const List& l, const Value& v,
                                absl::string_view key, Value::Kind kind) {
  const Value* want = OrderKey(v, key, kind);
  for (size_t i = 0; i < l.size(); ++i) {
    absl::StatusOr<bool> eq = GoEqual(want, OrderKey(l[i], key, kind));
    if (!eq.ok()) return eq.status();
    if (*eq) return static_cast<int64_t>(i);
  }
  return -1;
}

// The first object of `l` that has `key`, holding `value`, or -1.
absl::StatusOr<int64_t> FindByKey(const List& l, absl::string_view key,
                                  const Value& value) {
  for (size_t i = 0; i < l.size(); ++i) {
    if (!l[i].IsMap()) {
      return ServerError(absl::StrCat("value for key ", i, " is not a map"));
    }
    const Value* has = l[i].map().Find(key);
    if (has == nullptr) continue;
    absl::StatusOr<bool> eq = GoEqual(has, &value);
    if (!eq.ok()) return eq.status();
    if (*eq) return static_cast<int64_t>(i);
  }
  return -1;
}

// ---- Directive bookkeeping --------------------------------------------------

// `v` without its objects that carry `$patch` (nullopt: `v` is one).
std::optional<Value> RemoveDirectives(Value v) {
  if (v.IsMap()) {
    if (HasDirective(v)) return std::nullopt;
    Map::Entries& entries = v.map().entries();
    size_t kept = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      std::optional<Value> item = RemoveDirectives(std::move(entries[i].value));
      if (!item) continue;
      entries[i].value = std::move(*item);
      if (kept != i) entries[kept] = std::move(entries[i]);
      ++kept;
    }
    entries.resize(kept);
  } else if (v.IsList()) {
    List kept;
    for (Value& item : v.list()) {
      std::optional<Value> k = RemoveDirectives(std::move(item));
      if (k) kept.push_back(std::move(*k));
    }
    v.list() = std::move(kept);
  }
  return v;
}

// The field a `$deleteFromPrimitiveList/` or `$setElementOrder/` key names.
absl::StatusOr<std::string> FieldOfDirective(absl::string_view key,
                                             absl::string_view prefix) {
  size_t slash = key.find('/');
  if (slash == absl::string_view::npos || key.substr(0, slash) != prefix) {
    return BadRequest(prefix == kDeleteFromList
                          ? "invalid patch format of primitive list"
                          : "invalid patch format of setElementOrder list");
  }
  return std::string(key.substr(slash + 1));
}

}  // namespace

// The strategy other than retainKeys (extractRetainKeysPatchStrategy).
absl::StatusOr<std::string> MergeStrategy(
    const std::vector<std::string>& strategies) {
  constexpr absl::string_view kRetain = "retainKeys";
  if (strategies.empty()) return std::string();
  if (strategies.size() == 1) {
    return strategies[0] == kRetain ? std::string() : strategies[0];
  }
  if (strategies.size() == 2) {
    if (strategies[0] == kRetain) return strategies[1];
    if (strategies[1] == kRetain) return strategies[0];
  }
  return ServerError(absl::StrCat("unexpected patch strategy: [",
                                  absl::StrJoin(strategies, " "), "]"));
}

// The one type of the items of `lists` (no list of lists, no null).
absl::StatusOr<Value::Kind> ElementKind(
    std::initializer_list<const List*> lists) {
  std::optional<Value::Kind> kind;
  for (const List* l : lists) {
    for (const Value& v : *l) {
      if (!kind) {
        if (v.IsNull()) {
          return Panic("a list's first item is null (nil pointer dereference)");
        }
        if (v.IsList()) return absl::FailedPreconditionError(
            "lists of lists are not supported");
        kind = v.kind();
      } else if (v.kind() != *kind) {
        return ServerError("list element types are not identical");
      }
    }
  }
  if (!kind) return ServerError("no elements in any of the given slices");
  return *kind;
}

namespace {

absl::Status CheckMergeKeys(const List& l, absl::string_view key) {
  for (const Value& item : l) {
    if (!item.IsMap()) return StrategicBadArgType(kGoMap, &item);
    if (item.map().Find(key) == nullptr) return StrategicNoMergeKey(item, key);
  }
  return absl::OkStatus();
}

}  // namespace

// ---- Ordering ---------------------------------------------------------------

// `items` in the order of `order` (normalizeSliceOrder); objects marked
// `$patch: delete` go last.
absl::StatusOr<List> SortedBy(List items, const List& order,
                              absl::string_view key, Value::Kind kind) {
  List deleted;
  if (kind == Value::Kind::kMap) {
    if (absl::Status st = CheckMergeKeys(items, key); !st.ok()) return st;
    if (absl::Status st = CheckMergeKeys(order, key); !st.ok()) return st;
    List kept;
    for (Value& v : items) (IsDeleteItem(v) ? deleted : kept).push_back(v);
    items = std::move(kept);
  }
  // The items come from `order` (their lists were split by it), so each
  // has an index and Go's comparator is a strict order; one without sorts
  // last.
  std::vector<std::pair<int64_t, size_t>> at;
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<int64_t> idx = IndexIn(order, items[i], key, kind);
    if (!idx.ok()) return idx.status();
    at.emplace_back(*idx < 0 ? INT64_MAX : *idx, i);
  }
  std::stable_sort(at.begin(), at.end(), [](const auto& a, const auto& b) {
    return a.first < b.first;
  });
  List out;
  out.reserve(items.size() + deleted.size());
  for (const auto& [idx, i] : at) out.push_back(std::move(items[i]));
  for (Value& v : deleted) out.push_back(std::move(v));
  return out;
}

namespace {

// The patch's items and the object's others, each sorted, interleaved
// (normalizeElementOrder and mergeSortedSlice): an object's item goes
// before a patch item that comes after it in the object.
absl::StatusOr<List> Interleaved(List patch_items, List server_only,
                                 const List& patch_order,
                                 const List& server_order,
                                 absl::string_view key, Value::Kind kind) {
  absl::StatusOr<List> right = SortedBy(std::move(patch_items), patch_order,
                                        key, kind);
  if (!right.ok()) return right.status();
  absl::StatusOr<List> left = SortedBy(std::move(server_only), server_order,
                                       key, kind);
  if (!left.ok()) return left.status();
  List out;
  out.reserve(left->size() + right->size());
  size_t i = 0, j = 0;
  while (i < left->size() || j < right->size()) {
    bool take_left = j >= right->size();
    if (i < left->size() && j < right->size()) {
      absl::StatusOr<int64_t> li = IndexIn(server_order, (*left)[i], key, kind);
      if (!li.ok()) return li.status();
      absl::StatusOr<int64_t> ri =
          IndexIn(server_order, (*right)[j], key, kind);
      if (!ri.ok()) return ri.status();
      take_left = *li >= 0 && *ri >= 0 && *li < *ri;
    }
    out.push_back(take_left ? std::move((*left)[i++])
                            : std::move((*right)[j++]));
  }
  return out;
}

// `merged` split into the items `by` holds and the others.
absl::Status Partition(const List& merged, const List& by,
                       absl::string_view key, List* in, List* out) {
  if (key.empty()) {
    for (const Value& v : by) {
      if (absl::Status st = Hashable(v); !st.ok()) return st;
    }
    for (const Value& v : merged) {
      if (absl::Status st = Hashable(v); !st.ok()) return st;
      bool found = false;
      for (const Value& b : by) {
        if (*GoEqual(&v, &b)) {
          found = true;
          break;
        }
      }
      (found ? in : out)->push_back(v);
    }
    return absl::OkStatus();
  }
  for (const Value& v : merged) {
    if (!v.IsMap()) return StrategicBadArgType(kGoMap, &v);
    const Value* mv = v.map().Find(key);
    if (mv == nullptr) return StrategicNoMergeKey(v, key);
    absl::StatusOr<int64_t> at = FindByKey(by, key, *mv);
    if (!at.ok()) return at.status();
    (*at >= 0 ? in : out)->push_back(v);
  }
  return absl::OkStatus();
}

// ---- Merging ----------------------------------------------------------------

absl::StatusOr<Value> MergeMap(Value original, Value patch,
                               const Schema& schema, const Options& options);

}  // namespace

// Go's deduplicateScalars, whose moves decide the order before sorting.
List Deduplicated(List s) {
  int64_t last = static_cast<int64_t>(s.size()) - 1;
  for (int64_t i = 0; i < last; ++i) {
    for (int64_t j = i + 1; j <= last; ++j) {
      if (*GoEqual(&s[i], &s[j])) {
        s[j] = s[last];
        s.resize(last);
        --last;
        --j;
      }
    }
  }
  return s;
}

namespace {

// Go's slices share their arrays: the list a caller holds (`seen`, the
// original's items as the caller's slice header sees them) changes as
// mergeSlice deletes from the original in place (the items after shift
// left; the last keeps its value), appends into its room, and merges its
// objects (Go's maps are shared: a merged item is changed where any slice
// holds it). $setElementOrder orders the server's items by what its slice
// then sees, as strategicpatch does.
struct SharedArray {
  List* seen = nullptr;  // nullptr: no longer shared (after a replace)
  size_t len = 0;        // the length of the slice that writes into it

  // Item `i` of the writing slice is now `v`.
  void Set(size_t i, const Value& v) {
    if (seen != nullptr && i < seen->size()) (*seen)[i] = v;
  }
  // The writing slice lost item `at`: the items after it moved left.
  void Erase(const List& now, size_t at) {
    for (size_t i = at; i < now.size(); ++i) Set(i, now[i]);
    --len;
  }
  void Append(const Value& v) { Set(len++, v); }
};

// mergeSlice: `original` merged with `patch` (a list field whose strategy
// is merge, or a `$deleteFromPrimitiveList`). `caller` (nullable) is the
// caller's view of `original`'s array.
absl::StatusOr<List> MergeList(List original, List patch, const Schema& schema,
                               absl::string_view key, bool delete_list,
                               const Options& options,
                               List* caller = nullptr) {
  if (original.empty() && patch.empty()) return original;
  absl::StatusOr<Value::Kind> kind = ElementKind({&original, &patch});
  if (!kind.ok()) return kind.status();
  List merged;
  // The original's items as mergeSlice's own slice sees them at the end.
  List server_order;
  if (*kind != Value::Kind::kMap) {
    if (delete_list && options.parallel_lists) {
      List kept;
      for (const Value& v : original) {
        bool gone = false;
        for (const Value& d : patch) gone = gone || *GoEqual(&v, &d);
        if (!gone) kept.push_back(v);
      }
      return kept;
    }
    merged = original;
    merged.insert(merged.end(), patch.begin(), patch.end());
    merged = Deduplicated(std::move(merged));
    server_order = std::move(original);
  } else {
    if (key.empty()) {
      return ServerError(absl::StrCat(
          "cannot merge lists without merge key for ", schema.Name()));
    }
    SharedArray shared{caller, original.size()};
    // Items with `$patch` first: deletions by key, or the list replaced.
    List plain;
    bool replace = false;
    for (const Value& v : patch) {
      const Value* d = v.map().Find(kDirective);
      if (d == nullptr) {
        plain.push_back(v);
      } else if (IsDirective(d, "delete")) {
        const Value* mv = v.map().Find(key);
        if (mv == nullptr) return StrategicNoMergeKey(v, key);
        for (;;) {
          absl::StatusOr<int64_t> at = FindByKey(original, key, *mv);
          if (!at.ok()) return at.status();
          if (*at < 0) break;
          original.erase(original.begin() + *at);
          shared.Erase(original, static_cast<size_t>(*at));
        }
      } else if (IsDirective(d, "replace")) {
        replace = true;
      } else if (IsDirective(d, "merge")) {
        return ServerError(
            "merging lists cannot yet be specified in the patch");
      } else {
        return UnknownDirective(*d, v);
      }
    }
    if (replace) {
      original = std::move(plain);
      plain.clear();
      shared.seen = nullptr;
    }
    patch = std::move(plain);
    merged = original;
    server_order = original;
    SharedArray own{&server_order, original.size()};
    for (const Value& v : patch) {
      const Value* mv = v.map().Find(key);
      if (mv == nullptr) return StrategicNoMergeKey(v, key);
      absl::StatusOr<int64_t> at = FindByKey(merged, key, *mv);
      if (!at.ok()) return at.status();
      if (*at < 0) {
        merged.push_back(v);
        shared.Append(v);
        continue;
      }
      absl::StatusOr<Value> item = MergeMap(merged[*at], v, schema, options);
      if (!item.ok()) {
        return Located(item.status(),
                       absl::StrCat("[", key, "=", ToJson(*mv), "]"));
      }
      merged[*at] = std::move(*item);
      shared.Set(*at, merged[*at]);
      own.Set(*at, merged[*at]);
    }
  }
  List in, out;
  if (absl::Status st = Partition(merged, patch, key, &in, &out); !st.ok()) {
    return st;
  }
  return Interleaved(std::move(in), std::move(out), patch, server_order, key,
                     *kind);
}

absl::StatusOr<List> MergeListField(List original, List patch,
                                    const Schema& schema,
                                    absl::string_view strategy,
                                    absl::string_view key, bool delete_list,
                                    const Options& options,
                                    List* caller = nullptr) {
  if (strategy == "merge" || delete_list) {
    return MergeList(std::move(original), std::move(patch), schema, key,
                     delete_list, options, caller);
  }
  return patch;
}

// `$retainKeys`: the object keeps only the keys listed, and the patch may
// set no other.
absl::Status RetainKeys(Map& original, Map& patch, const Options& options) {
  const Value* found = patch.Find(kRetainKeys);
  if (found == nullptr) return absl::OkStatus();
  Value keys = *found;
  patch.Erase(kRetainKeys);
  if (!options.parallel_lists) {
    // Two halves of one patch: their directives must agree.
    if (const Value* had = original.Find(kRetainKeys)) {
      if (*had != keys) {
        return ServerError(absl::StrCat(ToJson(*had), " and ", ToJson(keys),
                                        " are not deep equal: this may "
                                        "happen when calculating the 3-way "
                                        "diff patch"));
      }
    } else {
      original.Set(kRetainKeys, std::move(keys));
    }
    return absl::OkStatus();
  }
  if (!keys.IsList()) return BadRequest("invalid patch format of retainKeys");
  for (const Value& k : keys.list()) {
    if (absl::Status st = Hashable(k); !st.ok()) return st;
  }
  auto listed = [&](absl::string_view name) {
    for (const Value& k : keys.list()) {
      if (k.IsString() && k.AsString() == name) return true;
    }
    return false;
  };
  for (const MapEntry& e : patch) {
    if (e.value.IsNull() || absl::StartsWith(e.key, kDeleteFromList) ||
        absl::StartsWith(e.key, kSetOrder)) {
      continue;
    }
    if (!listed(e.key)) return BadRequest("invalid patch format of retainKeys");
  }
  Map::Entries& entries = original.entries();
  entries.erase(
      std::remove_if(entries.begin(), entries.end(),
                     [&](const MapEntry& e) { return !listed(e.key); }),
      entries.end());
  return absl::OkStatus();
}

// The order `$setElementOrder/<field>` gives the patch's items of a list
// against the list's order (validatePatchWithSetOrderList).
absl::Status CheckOrder(const List& patch, const List& order,
                        absl::string_view key) {
  if (order.empty() || patch.empty()) return absl::OkStatus();
  List items;
  for (const Value& v : patch) {
    if (key.empty()) {
      items.push_back(v);
      continue;
    }
    if (!v.IsMap()) return StrategicBadArgType(kGoMap, &v);
    if (!IsDeleteItem(v)) items.push_back(v);
  }
  size_t p = 0, o = 0;
  while (p < items.size() && o < order.size()) {
    if (HasDirective(items[p])) {
      ++p;
      continue;
    }
    const Value* a = &items[p];
    const Value* b = &order[o];
    if (!key.empty()) {
      if (!a->IsMap()) return StrategicBadArgType(kGoMap, a);
      if (!b->IsMap()) return StrategicBadArgType(kGoMap, b);
      const Value* ka = a->map().Find(key);
      if (ka == nullptr) return StrategicNoMergeKey(*a, key);
      const Value* kb = b->map().Find(key);
      if (kb == nullptr) return StrategicNoMergeKey(*b, key);
      a = ka;
      b = kb;
    }
    absl::StatusOr<bool> eq = GoEqual(a, b);
    if (!eq.ok()) return eq.status();
    if (*eq) ++p;
    ++o;
  }
  if (p < items.size() && o >= order.size()) {
    return ServerError(absl::StrCat(
        "The order in patch list: ", ToJson(Value(patch)), " doesn't match ",
        kSetOrder, " list: ", ToJson(Value(order))));
  }
  return absl::OkStatus();
}

// Merges the list `$setElementOrder/<field>` (the patch's key
// `directive`) names, in its order (mergePatchIntoOriginal); the two keys
// leave the patch.
absl::Status MergeOrderedList(Map& original, Map& patch, const Schema& schema,
                              const std::string& directive,
                              const Options& options) {
  Value order = *patch.Find(directive);
  patch.Erase(directive);
  if (!options.parallel_lists) {
    // The directive stays in the merged patch; two halves must agree.
    if (const Value* had = original.Find(directive)) {
      if (*had != order) {
        return BadRequest("invalid patch format of setElementOrder list");
      }
    } else {
      original.Set(directive, order);
    }
  }
  if (!order.IsList()) return StrategicBadArgType(kGoSlice, &order);
  absl::StatusOr<std::string> name = FieldOfDirective(directive, kSetOrder);
  if (!name.ok()) return name.status();
  const Value* in_original = original.Find(*name);
  const Value* in_patch = patch.Find(*name);
  if (in_original != nullptr && !in_original->IsList()) {
    return StrategicBadArgType(kGoSlice, in_original);
  }
  if (in_patch != nullptr && !in_patch->IsList()) {
    return StrategicBadArgType(kGoSlice, in_patch);
  }
  const List original_items =
      in_original != nullptr ? in_original->list() : List{};
  // The original's items as this slice sees them after the merge.
  List seen = original_items;
  const List patch_items = in_patch != nullptr ? in_patch->list() : List{};
  absl::StatusOr<Schema::Field> field = schema.ForList(*name);
  if (!field.ok()) return field.status();
  absl::StatusOr<std::string> strategy = MergeStrategy(field->strategies);
  if (!strategy.ok()) return strategy.status();
  const std::string& key = field->merge_key;
  if (absl::Status st = CheckOrder(patch_items, order.list(), key); !st.ok()) {
    return st;
  }
  List merged;
  if (in_original != nullptr && in_patch == nullptr) {
    merged = original_items;
  } else if (in_original == nullptr && in_patch != nullptr) {
    merged = RemoveDirectives(*in_patch)->list();
  } else if (in_original != nullptr) {
    absl::StatusOr<List> m = MergeListField(original_items, patch_items,
                                            *field->schema, *strategy, key,
                                            false, options, &seen);
    if (!m.ok()) return m.status();
    merged = std::move(*m);
  } else {
    return absl::OkStatus();
  }
  List in, out;
  if (absl::Status st = Partition(merged, order.list(), key, &in, &out);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<Value::Kind> kind = ElementKind({&seen, &patch_items});
  if (!kind.ok()) return kind.status();
  absl::StatusOr<List> both = Interleaved(std::move(in), std::move(out),
                                          order.list(), seen, key, *kind);
  if (!both.ok()) return both.status();
  Value list = Value::MakeList();
  list.list() = std::move(*both);
  original.Set(*name, std::move(list));
  patch.Erase(*name);
  return absl::OkStatus();
}

// The patch's value `value` of field `key` (a `$deleteFromPrimitiveList/`
// one when `delete_list`) merged into `into`.
absl::Status MergeField(Map& into, const std::string& key, const Value& value,
                        bool delete_list, const Schema& schema,
                        const Options& options) {
  if (value.IsNull()) {
    if (options.ignore_unmatched_nulls) {
      into.Erase(key);
    } else {
      into.Set(key, Value());
    }
    return absl::OkStatus();
  }
  const Value* had = into.Find(key);
  if (had == nullptr || had->kind() != value.kind()) {
    // The patch's value lands as it is (its nulls and `$patch` objects
    // dropped); a deletion list has nothing to delete from.
    if (delete_list) return absl::OkStatus();
    Value v = value;
    if (options.ignore_unmatched_nulls) DropNullEntries(&v);
    std::optional<Value> kept = RemoveDirectives(std::move(v));
    if (kept) {
      into.Set(key, std::move(*kept));
    } else {
      into.Erase(key);
    }
    return absl::OkStatus();
  }
  Value merged;
  if (had->IsMap()) {
    absl::StatusOr<Schema::Field> field = schema.ForMap(key);
    if (!field.ok()) return field.status();
    absl::StatusOr<std::string> strategy = MergeStrategy(field->strategies);
    if (!strategy.ok()) return strategy.status();
    if (*strategy == "replace") {
      merged = value;
    } else {
      absl::StatusOr<Value> m = MergeMap(*had, value, *field->schema, options);
      if (!m.ok()) return m.status();
      merged = std::move(*m);
    }
  } else if (had->IsList()) {
    absl::StatusOr<Schema::Field> field = schema.ForList(key);
    if (!field.ok()) return field.status();
    absl::StatusOr<std::string> strategy = MergeStrategy(field->strategies);
    if (!strategy.ok()) return strategy.status();
    absl::StatusOr<List> m =
        MergeListField(had->list(), value.list(), *field->schema, *strategy,
                       field->merge_key, delete_list, options);
    if (!m.ok()) return m.status();
    merged = Value::MakeList();
    merged.list() = std::move(*m);
  } else {
    merged = value;
  }
  into.Set(key, std::move(merged));
  return absl::OkStatus();
}

absl::StatusOr<Value> MergeMap(Value original, Value patch,
                               const Schema& schema, const Options& options) {
  if (const Value* d = patch.map().Find(kDirective)) {
    if (IsDirective(d, "replace")) {
      patch.map().Erase(kDirective);
      return patch;
    }
    if (IsDirective(d, "delete")) return Value::MakeMap();
    return UnknownDirective(*d, patch);
  }
  if (original.IsNull()) original = Value::MakeMap();
  Map& into = original.map();
  Map& from = patch.map();
  if (absl::Status st = RetainKeys(into, from, options); !st.ok()) return st;
  std::vector<std::string> directives;
  for (const MapEntry& e : from) {
    if (absl::StartsWith(e.key, kSetOrder)) directives.push_back(e.key);
  }
  for (const std::string& directive : directives) {
    if (absl::Status st =
            MergeOrderedList(into, from, schema, directive, options);
        !st.ok()) {
      return Located(std::move(st), absl::StrCat(".", directive));
    }
  }
  for (const MapEntry& e : from) {
    std::string key = e.key;
    const bool delete_list = absl::StartsWith(key, kDeleteFromList);
    if (delete_list && !options.parallel_lists) {
      // Kept as it is, for the apiserver.
      into.Set(key, e.value);
      continue;
    }
    if (delete_list) {
      absl::StatusOr<std::string> name = FieldOfDirective(key, kDeleteFromList);
      if (!name.ok()) return Located(name.status(), absl::StrCat(".", key));
      key = *std::move(name);
    }
    if (absl::Status st =
            MergeField(into, key, e.value, delete_list, schema, options);
        !st.ok()) {
      return Located(std::move(st), absl::StrCat(".", key));
    }
  }
  return original;
}

}  // namespace

absl::StatusOr<Value> StrategicMergeMaps(Value original, Value patch,
                                         const StrategicPatchSchema& schema,
                                         const StrategicMergeOptions& options) {
  return MergeMap(std::move(original), std::move(patch), schema, options);
}

}  // namespace internal

absl::StatusOr<Value> ApplyStrategicMergePatch(
    const Value& doc, const Value& patch, const StrategicPatchSchema& schema) {
  if (patch.IsNull()) return doc;
  if (!patch.IsMap()) {
    return internal::BadRequest(
        absl::StrCat("json: cannot unmarshal ", internal::GoTypeName(&patch),
                     " into Go value of type ", internal::kGoMap));
  }
  if (!doc.IsMap() && !doc.IsNull()) {
    // (The apiserver's objects are; what smdx is given may not be.)
    return internal::BadRequest(absl::StrCat("the document patched is a ",
                                             internal::GoTypeName(&doc),
                                             ", not an object"));
  }
  absl::StatusOr<Value> out =
      internal::StrategicMergeMaps(doc, patch, schema, {});
  if (!out.ok()) return internal::WithPath(out.status());
  return out;
}

}  // namespace smdx
