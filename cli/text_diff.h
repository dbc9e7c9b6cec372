// Line diffs of two texts, printed as a unified diff (`diff -u`).
#ifndef SMDX_CLI_TEXT_DIFF_H_
#define SMDX_CLI_TEXT_DIFF_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace smdx::cli {

struct UnifiedDiffOptions {
  std::string old_label = "a";
  std::string new_label = "b";
  int context = 3;
  // ANSI colors: headers bold, hunk lines cyan, removals red, additions
  // green.
  bool color = false;
};

enum class LineOp : char { kKeep = ' ', kDel = '-', kAdd = '+' };

struct LineEdit {
  LineOp op;
  int old_line;  // index into the old lines (kKeep, kDel)
  int new_line;  // index into the new lines (kKeep, kAdd)
};

// The edits that turn lines `a` into lines `b`, in order: every line of
// each appears once, kept or deleted (of `a`), kept or added (of `b`).
// Minimal up to a few thousand changed lines, as UnifiedDiff's.
std::vector<LineEdit> DiffLines(const std::vector<absl::string_view>& a,
                                const std::vector<absl::string_view>& b);

// The unified diff from `old_text` to `new_text` (compared line by line),
// or "" when they are equal. Edits are minimal (Myers' algorithm) up to a
// few thousand changed lines; beyond that the differing middle is shown as
// removed and added whole.
std::string UnifiedDiff(absl::string_view old_text, absl::string_view new_text,
                        const UnifiedDiffOptions& opts = {});

}  // namespace smdx::cli

#endif  // SMDX_CLI_TEXT_DIFF_H_
