#include "cli/text_diff.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace smdx::cli {

namespace {

// Beyond this many edits the middle is replaced whole: the trace of Myers'
// algorithm grows with edits times length.
constexpr int kMaxEdits = 1000;

std::vector<absl::string_view> Lines(absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Myers' O(ND) shortest edit script between a[lo_a, hi_a) and b[lo_b, hi_b);
// false when it needs more than kMaxEdits edits.
bool Myers(const std::vector<absl::string_view>& a,
           const std::vector<absl::string_view>& b, int lo_a, int hi_a,
           int lo_b, int hi_b, std::vector<LineEdit>* out) {
  const int n = hi_a - lo_a, m = hi_b - lo_b;
  const int max = std::min(n + m, kMaxEdits);
  const int offset = max + 1;
  std::vector<int> v(2 * max + 3, 0);
  std::vector<std::vector<int>> trace;
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                  ? v[offset + k + 1]
                  : v[offset + k - 1] + 1;
      int y = x - k;
      while (x < n && y < m && a[lo_a + x] == b[lo_b + y]) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return false;
  // Walk the trace back from (n, m).
  std::vector<LineEdit> rev;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& pv = trace[d];
    int k = x - y;
    int prev_k =
        (k == -d || (k != d && pv[offset + k - 1] < pv[offset + k + 1]))
            ? k + 1
            : k - 1;
    int prev_x = pv[offset + prev_k];
    int prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x;
      --y;
      rev.push_back({LineOp::kKeep, lo_a + x, lo_b + y});
    }
    if (x == prev_x) {
      --y;
      rev.push_back({LineOp::kAdd, lo_a + x, lo_b + y});
    } else {
      --x;
      rev.push_back({LineOp::kDel, lo_a + x, lo_b + y});
    }
  }
  while (x > 0 && y > 0) {
    --x;
    --y;
    rev.push_back({LineOp::kKeep, lo_a + x, lo_b + y});
  }
  out->insert(out->end(), rev.rbegin(), rev.rend());
  return true;
}

}  // namespace

std::vector<LineEdit> DiffLines(const std::vector<absl::string_view>& a,
                                const std::vector<absl::string_view>& b) {
  int pre = 0;
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  while (pre < na && pre < nb && a[pre] == b[pre]) ++pre;
  int suf = 0;
  while (suf < na - pre && suf < nb - pre &&
         a[na - 1 - suf] == b[nb - 1 - suf]) {
    ++suf;
  }
  std::vector<LineEdit> edits;
  for (int i = 0; i < pre; ++i) edits.push_back({LineOp::kKeep, i, i});
  if (!Myers(a, b, pre, na - suf, pre, nb - suf, &edits)) {
    for (int i = pre; i < na - suf; ++i)
      edits.push_back({LineOp::kDel, i, pre});
    for (int j = pre; j < nb - suf; ++j)
      edits.push_back({LineOp::kAdd, na - suf, j});
  }
  for (int i = 0; i < suf; ++i)
    edits.push_back({LineOp::kKeep, na - suf + i, nb - suf + i});
  return edits;
}

std::string UnifiedDiff(absl::string_view old_text, absl::string_view new_text,
                        const UnifiedDiffOptions& opts) {
  std::vector<absl::string_view> a = Lines(old_text), b = Lines(new_text);
  std::vector<LineEdit> edits = DiffLines(a, b);
  const bool any =
      std::any_of(edits.begin(), edits.end(),
                  [](const LineEdit& e) { return e.op != LineOp::kKeep; });
  if (!any) return "";
  auto paint = [&](const char* code, absl::string_view s) {
    return opts.color ? absl::StrCat("\033[", code, "m", s, "\033[0m")
                      : std::string(s);
  };
  std::string out =
      absl::StrCat(paint("1", absl::StrCat("--- ", opts.old_label)), "\n",
                   paint("1", absl::StrCat("+++ ", opts.new_label)), "\n");
  const int n = static_cast<int>(edits.size());
  const int ctx = std::max(0, opts.context);
  int i = 0;
  while (i < n) {
    while (i < n && edits[i].op == LineOp::kKeep) ++i;
    if (i == n) break;
    // A hunk: from `ctx` lines before this change to `ctx` lines after the
    // last change that is at most 2*ctx unchanged lines from the next.
    int start = std::max(0, i - ctx);
    int end = i;
    while (true) {
      while (end < n && edits[end].op != LineOp::kKeep) ++end;
      int run = end;
      while (run < n && edits[run].op == LineOp::kKeep) ++run;
      if (run < n && run - end <= 2 * ctx) {
        end = run;
        continue;
      }
      end = std::min(n, end + ctx);
      break;
    }
    int old_start = -1, new_start = -1, old_count = 0, new_count = 0;
    for (int j = start; j < end; ++j) {
      if (edits[j].op != LineOp::kAdd) {
        if (old_start < 0) old_start = edits[j].old_line;
        ++old_count;
      }
      if (edits[j].op != LineOp::kDel) {
        if (new_start < 0) new_start = edits[j].new_line;
        ++new_count;
      }
    }
    // An empty side is numbered from the line before it, as diff does.
    if (old_start < 0) old_start = edits[start].old_line - 1;
    if (new_start < 0) new_start = edits[start].new_line - 1;
    absl::StrAppend(
        &out,
        paint("36", absl::StrCat("@@ -", old_start + 1, ",", old_count, " +",
                                 new_start + 1, ",", new_count, " @@")),
        "\n");
    for (int j = start; j < end; ++j) {
      const LineEdit& e = edits[j];
      switch (e.op) {
        case LineOp::kKeep:
          absl::StrAppend(&out, " ", a[e.old_line], "\n");
          break;
        case LineOp::kDel:
          absl::StrAppend(&out, paint("31", absl::StrCat("-", a[e.old_line])),
                          "\n");
          break;
        case LineOp::kAdd:
          absl::StrAppend(&out, paint("32", absl::StrCat("+", b[e.new_line])),
                          "\n");
          break;
      }
    }
    i = end;
  }
  return out;
}

}  // namespace smdx::cli
