// SortFew: the sort of the few items a set node or a key usually holds.
//
// Internal to fieldpath/.
#ifndef SMDX_FIELDPATH_SORT_FEW_H_
#define SMDX_FIELDPATH_SORT_FEW_H_

#include <cstddef>
#include <iterator>
#include <utility>

namespace smdx {
namespace internal {

// Up to this many items SortFew sorts by insertion: a node of an object
// has a handful of entries, mostly in order already, and the standard
// sorts' setup costs more than the few moves they need.
inline constexpr size_t kFewItems = 16;

// Sorts [first, last) by `less`: by insertion, which keeps equal items in
// the order given, when they are at most kFewItems; else with `many`,
// called with the range and `less` (std::sort where equal items cannot
// occur or need no order, std::stable_sort where they must keep theirs).
template <typename It, typename Less, typename Many>
void SortFew(It first, It last, Less less, Many many) {
  const auto n = static_cast<size_t>(std::distance(first, last));
  if (n > kFewItems) {
    many(first, last, less);
    return;
  }
  for (size_t i = 1; i < n; ++i) {
    if (!less(first[i], first[i - 1])) continue;
    auto x = std::move(first[i]);
    size_t j = i;
    for (; j > 0 && less(x, first[j - 1]); --j)
      first[j] = std::move(first[j - 1]);
    first[j] = std::move(x);
  }
}

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_FIELDPATH_SORT_FEW_H_
