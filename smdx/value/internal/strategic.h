// What value/strategic_patch.cc (applying a strategic merge patch) and
// value/strategic_diff.cc (making one) share: strategicpatch's merge with
// both of its option sets, and its readings of Go's interface values.
// Internal to value/; not part of the API.
#ifndef SMDX_VALUE_INTERNAL_STRATEGIC_H_
#define SMDX_VALUE_INTERNAL_STRATEGIC_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "smdx/value/strategic_patch.h"
#include "smdx/value/value.h"

namespace smdx::internal {

inline constexpr absl::string_view kDirective = "$patch";
inline constexpr absl::string_view kRetainKeys = "$retainKeys";
inline constexpr absl::string_view kDeleteFromList =
    "$deleteFromPrimitiveList";
inline constexpr absl::string_view kSetOrder = "$setElementOrder";

// strategicpatch's MergeOptions. The apiserver merges a patch into an
// object with both set; a client making a three-way patch merges its two
// halves with neither (the parallel lists and nulls stay in the result).
struct StrategicMergeOptions {
  bool parallel_lists = true;          // MergeParallelList
  bool ignore_unmatched_nulls = true;  // IgnoreUnmatchedNulls
};

// mergeMap: `patch` (an object) merged into `original` (an object or
// null). Errors carry their path as a payload; WithPath puts it in the
// message.
absl::StatusOr<Value> StrategicMergeMaps(Value original, Value patch,
                                         const StrategicPatchSchema& schema,
                                         const StrategicMergeOptions& options);

// The error with the path it travelled up with before its message.
absl::Status WithPath(absl::Status st);
// The error, `segment` (".name", "[key=...]") before its path so far.
absl::Status Located(absl::Status st, absl::string_view segment);

// mergepatch's errors (the apiserver's 500).
absl::Status StrategicBadArgType(absl::string_view expected, const Value* got);
absl::Status StrategicNoMergeKey(const Value& item, absl::string_view key);
inline constexpr absl::string_view kGoMap = "map[string]interface {}";

// a == b for two Go interface values (nullptr: a missing map entry, nil):
// equal types and values; two maps or two slices panic (Internal).
absl::StatusOr<bool> GoEqual(const Value* a, const Value* b);

// The one kind of the items of `lists` (sliceElementType): no list of
// lists (FailedPrecondition), no null first, one kind.
absl::StatusOr<Value::Kind> ElementKind(
    std::initializer_list<const List*> lists);

// The strategy other than retainKeys (extractRetainKeysPatchStrategy).
absl::StatusOr<std::string> MergeStrategy(
    const std::vector<std::string>& strategies);

// normalizeSliceOrder: `items` in the order of `order` (by merge key `key`
// for objects); objects marked `$patch: delete` go last.
absl::StatusOr<List> SortedBy(List items, const List& order,
                              absl::string_view key, Value::Kind kind);

// deduplicateScalars, whose moves decide the order.
List Deduplicated(List s);

}  // namespace smdx::internal

#endif  // SMDX_VALUE_INTERNAL_STRATEGIC_H_
