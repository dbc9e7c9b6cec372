// The limits the value readers enforce on their input (value/parse.h and
// its fast readers).
#ifndef SMDX_VALUE_LIMITS_H_
#define SMDX_VALUE_LIMITS_H_

#include <cstddef>

namespace smdx {

// The deepest nesting of lists and maps the parsers accept: a document whose
// top-level list or map counts as level 1 may nest containers down to level
// 1000. Deeper input is rejected with "nesting deeper than 1000 levels at
// <path>" rather than risking the stack of the recursive algorithms that run
// on Values later. Real Kubernetes objects nest a few dozen levels at most.
//
// yaml-cpp imposes a stricter limit of its own on YAML: it refuses nodes
// nested 500 deep, i.e. allows at most 499 levels (counting scalars). That is
// reported with the same message naming 499 levels.
inline constexpr size_t kMaxParseDepth = 1000;

// The most nodes one YAML document may expand to through aliases. Protects
// against "billion laughs" documents that are small but expand
// exponentially. Checked whenever an alias is expanded.
inline constexpr size_t kMaxYamlAliasExpansionNodes = 10'000'000;

}  // namespace smdx

#endif  // SMDX_VALUE_LIMITS_H_
