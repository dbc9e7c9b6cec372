#include "smdx/value/yaml_fast.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "smdx/value/emit.h"
#include "smdx/value/go_format.h"
#include "smdx/value/internal/byte_scan.h"
#include "smdx/value/json_fast.h"
#include "smdx/value/limits.h"
#include "smdx/value/same_bytes.h"
#include "smdx/value/yaml_scalar.h"

namespace smdx {
namespace internal {
namespace {

// The scanning below mirrors yaml-cpp 0.7 (scanner.cpp, scanscalar.cpp,
// scantoken.cpp): where it and the YAML specification differ, yaml-cpp is
// what the result must match. Every method returns false ("decline") as
// soon as the input leaves the supported subset; the reader is then
// abandoned and the full parser runs.

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Characters a plain scalar may not start with in block context
// (yaml-cpp's PlainScalarTerminators).
bool IsPlainTerminator(char c) {
  switch (c) {
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
    case '#':
    case '&':
    case '*':
    case '!':
    case '|':
    case '>':
    case '\'':
    case '"':
    case '%':
    case '@':
    case '`':
      return true;
    default:
      return false;
  }
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool IsTagChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether the text may start with a byte order mark, or be UTF-16/32,
// which the reader leaves to yaml-cpp: the first byte alone tells.
bool StartsLikeAByteOrderMark(absl::string_view text) {
  if (text.empty()) return false;
  const unsigned char first = static_cast<unsigned char>(text[0]);
  return first == 0xEF || first == 0xFE || first == 0xFF;
}

// Bytes the reader leaves to yaml-cpp wherever they appear: carriage
// returns (yaml-cpp has line-ending rules of its own), control characters
// (0x04 is yaml-cpp's end-of-stream marker; NUL switches it to UTF-16),
// and DEL; and a start like a byte order mark.
bool HasUnsupportedBytes(absl::string_view text) {
  if (StartsLikeAByteOrderMark(text)) return true;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (true) {
    p += PlainAsciiPrefix(p, end);
    if (p == end) return false;
    // Bytes beyond ASCII pass; the stop is a control character or DEL.
    if (static_cast<unsigned char>(*p) < 0x80) return true;
    ++p;
  }
}

class YamlReader {
 public:
  YamlReader(absl::string_view text, const Limits& limits)
      : limits_(limits),
        max_depth_(static_cast<int>(
            std::min<size_t>(kFastYamlMaxDepth, limits.max_depth))),
        budget_(limits),
        b_(text.data()),
        e_(text.data() + text.size()),
        p_(b_),
        ls_(b_),
        lease_(std::clamp<size_t>(text.size() / 32, 4, 64)),
        stack_(lease_.stack()) {}

  bool ReadStream(std::vector<FastYamlDocument>* docs) {
    if (!SkipToContent()) return false;
    bool after_doc_end = false;
    while (p_ != e_) {
      FastYamlDocument doc;
      doc.start_pos = static_cast<size_t>(p_ - b_);
      anchors_.clear();
      budget_.Reset();
      if (p_ == ls_ && *p_ == '%') return false;  // a directive
      if (AtDocStart()) {
        p_ += 3;
        if (!EndLine() || !SkipToContent()) return false;
        if (p_ == e_ || AtDocMarker()) {
          budget_.Add();
        } else if (!ReadNodeOnNextLines(-1, false, &doc.value)) {
          return false;
        }
      } else if (AtDocEnd()) {
        // Only the first document can start with `...` (later ones are
        // eaten below): yaml-cpp reads it as an empty document.
        budget_.Add();
      } else {
        // Content without `---` starts a new document only after `...`.
        if (!docs->empty() && !after_doc_end) return false;
        if (!ReadNodeOnNextLines(-1, false, &doc.value)) return false;
      }
      // The root node must be followed by a marker or the end.
      if (p_ != e_ && !AtDocMarker()) return false;
      after_doc_end = false;
      while (p_ != e_ && AtDocEnd()) {
        p_ += 3;
        if (!EndLine() || !SkipToContent()) return false;
        after_doc_end = true;
      }
      if (!budget_.Finish().empty()) return false;
      docs->push_back(std::move(doc));
    }
    return true;
  }

 private:
  struct Anchor {
    std::string name;
    Value value;
    bool open = true;  // a collection still being read
    // Until closed, the budget's count before the node; then the node's
    // count (YamlNodeBudget).
    size_t nodes = 0;
  };

  void CloseAnchor(size_t index, const Value& v) {
    Anchor& a = anchors_[index];
    a.value = v;
    a.open = false;
    a.nodes = budget_.nodes() - a.nodes;
  }

  // Where a node sits, for the rules that depend on it.
  struct Context {
    // Column of the innermost enclosing block collection (-1 at the root):
    // the base of block scalar indentation, and plain scalars continue on
    // lines indented more than this.
    int top;
    // Whether a block sequence may start at column `top` (the value of a
    // block mapping key: "key:\n- item").
    bool seq_at_top;
  };

  int Column() const { return static_cast<int>(p_ - ls_); }

  bool BlankBreakOrEnd(const char* q) const {
    return q == e_ || *q == ' ' || *q == '\t' || *q == '\n';
  }

  // "---" or "..." at column 0 followed by a blank, a break or the end.
  bool AtMarker(char c) const {
    return p_ == ls_ && e_ - p_ >= 3 && p_[0] == c && p_[1] == c &&
           p_[2] == c && BlankBreakOrEnd(p_ + 3);
  }
  bool AtDocStart() const { return AtMarker('-'); }
  bool AtDocEnd() const { return AtMarker('.'); }
  bool AtDocMarker() const { return AtDocStart() || AtDocEnd(); }

  // '-' followed by a blank, a break or the end.
  bool AtBlockEntry() const { return *p_ == '-' && BlankBreakOrEnd(p_ + 1); }

  void SkipBlanks() {
    p_ += LeadingSpaces(p_, e_);
    while (p_ != e_ && IsBlank(*p_)) ++p_;
  }

  // Skips blanks and a comment; returns whether the line ends there.
  bool EndLine() {
    SkipBlanks();
    if (p_ != e_ && *p_ == '#') p_ = LineEnd(p_);
    return p_ == e_ || *p_ == '\n';
  }

  // Moves to the next token (yaml-cpp's ScanToNextToken): over blanks,
  // comments and line breaks. Declines when the token starts a line whose
  // indentation holds a tab.
  bool SkipToContent() {
    bool new_line = p_ == ls_;
    // Whether the blanks skipped on the last line hold a tab (then they
    // start at ls_ when new_line is set).
    bool tab = false;
    while (true) {
      p_ += LeadingSpaces(p_, e_);
      if (p_ != e_ && *p_ == '\t') {
        tab = true;
        while (p_ != e_ && IsBlank(*p_)) ++p_;
      }
      if (p_ != e_ && *p_ == '#') p_ = LineEnd(p_);
      if (p_ == e_ || *p_ != '\n') break;
      ++p_;
      ls_ = p_;
      new_line = true;
      tab = false;
    }
    return !(new_line && tab && p_ != e_);
  }

  // The line break that ends the line `q` is on, or the end.
  const char* LineEnd(const char* q) const {
    const void* n = std::memchr(q, '\n', static_cast<size_t>(e_ - q));
    return n != nullptr ? static_cast<const char*>(n) : e_;
  }

  bool Enter() { return ++depth_ <= max_depth_; }
  void Leave() { --depth_; }

  // ---------------------------------------------------------------------
  // Block structure

  // Reads the node that starts on a later line (after "key:", "-" or
  // "---" with nothing else on their line), or null if there is none.
  // REQUIRES: SkipToContent() has run.
  bool ReadNodeOnNextLines(int top, bool seq_at_top, Value* out) {
    if (p_ == e_ || AtDocMarker()) {
      budget_.Add();
      *out = Value();
      return true;
    }
    int col = Column();
    if (col > top) return ReadNodeAtLineStart(col, Context{top, false}, out);
    if (col == top && seq_at_top && AtBlockEntry()) {
      return ReadBlockSequence(col, out);
    }
    budget_.Add();
    *out = Value();
    return true;
  }

  // Reads a node whose first token is the first on its line, at `col`.
  bool ReadNodeAtLineStart(int col, Context ctx, Value* out) {
    if (AtBlockEntry()) return ReadBlockSequence(col, out);
    const size_t start = stack_.MapStart();
    switch (TryKey(&stack_.KeyAt(stack_.StartEntry()))) {
      case KeyScan::kKey:
        return ReadBlockMapping(col, start, out);
      case KeyScan::kDecline:
        return false;
      case KeyScan::kNotKey:
        stack_.CancelEntry();
        break;
    }
    return ReadInlineNode(ctx, /*key_position=*/true,
                          /*properties_alone=*/false, out);
  }

  // Reads a block mapping at `col` whose first key has been read into the
  // entry at `start` (see ContainerStack::StartEntry).
  // REQUIRES: p_ is just past that key's ':'.
  bool ReadBlockMapping(int col, size_t start, Value* out) {
    if (!Enter()) return false;
    budget_.Add();
    size_t entry = start;
    while (true) {
      budget_.Add();  // the key
      Value v;
      bool in_entry = false;  // a scalar read straight into the entry
      if (EndLine()) {
        if (!SkipToContent() || !ReadNodeOnNextLines(col, true, &v)) {
          return false;
        }
      } else if (!ReadInlineNode(Context{col, true}, false, true, &v,
                                 ScalarSlot{entry, &in_entry})) {
        return false;
      }
      if (!in_entry) stack_.SetValue(entry, std::move(v));
      if (p_ == e_ || AtDocMarker()) break;
      int c = Column();
      if (c < col) break;
      if (c > col || AtBlockEntry()) return false;
      entry = stack_.StartEntry();
      if (TryKey(&stack_.KeyAt(entry)) != KeyScan::kKey) return false;
    }
    Leave();
    return stack_.FinishMap(start, out);
  }

  // REQUIRES: AtBlockEntry(), at column `col`.
  bool ReadBlockSequence(int col, Value* out) {
    if (!Enter()) return false;
    budget_.Add();
    const size_t start = stack_.ListStart();
    while (true) {
      ++p_;  // '-'
      const char* after_dash = p_;
      Value v;
      if (EndLine()) {
        if (!SkipToContent() || !ReadNodeOnNextLines(col, false, &v)) {
          return false;
        }
      } else {
        // A tab before a nested entry or key makes yaml-cpp refuse them.
        const bool tab = std::find(after_dash, p_, '\t') != p_;
        if (AtBlockEntry()) {
          if (tab || !ReadBlockSequence(Column(), &v)) return false;
        } else {
          const int key_col = Column();
          const size_t map_start = stack_.MapStart();
          switch (TryKey(&stack_.KeyAt(stack_.StartEntry()))) {
            case KeyScan::kKey:
              if (tab || !ReadBlockMapping(key_col, map_start, &v)) {
                return false;
              }
              break;
            case KeyScan::kDecline:
              return false;
            case KeyScan::kNotKey:
              stack_.CancelEntry();
              if (!ReadInlineNode(Context{col, false}, true, true, &v)) {
                return false;
              }
              break;
          }
        }
      }
      stack_.PushItem(std::move(v));
      if (p_ == e_ || AtDocMarker()) break;
      int c = Column();
      if (c < col) break;
      if (c > col) return false;
      if (!AtBlockEntry()) break;  // the parent mapping's next key
    }
    Leave();
    return stack_.FinishList(start, limits_.max_list_items, out);
  }

  enum class KeyScan { kKey, kNotKey, kDecline };

  // Reads a simple mapping key at p_ ("key:", "'key':", "\"key\":" followed
  // by a blank, a break or the end). On kKey, `*key` is the key's text and
  // p_ is past the ':'; otherwise p_ is unchanged.
  KeyScan TryKey(std::string* key) {
    const char* start = p_;
    char c = *p_;
    if (c == '"' || c == '\'') {
      // A quoted key must close on its line.
      const char* q = p_ + 1;
      while (q != e_ && *q != '\n') {
        if (c == '"' && *q == '\\') {
          if (q + 1 == e_ || q[1] == '\n') return KeyScan::kNotKey;
          q += 2;
          continue;
        }
        if (*q == c) {
          if (c == '\'' && q + 1 != e_ && q[1] == '\'') {
            q += 2;
            continue;
          }
          break;
        }
        ++q;
      }
      if (q == e_ || *q == '\n') return KeyScan::kNotKey;
      const char* r = q + 1;
      while (r != e_ && IsBlank(*r)) ++r;
      if (r == e_ || *r != ':') return KeyScan::kNotKey;
      if (!BlankBreakOrEnd(r + 1)) return KeyScan::kDecline;
      if (r - start > 1000) return KeyScan::kDecline;  // yaml-cpp: 1024
      absl::string_view text;
      std::string buf;
      if (!ScanQuoted(&text, &buf)) return KeyScan::kDecline;
      SetBytes(key, text.data(), text.size());
      p_ = r + 1;
      return KeyScan::kKey;
    }
    if (IsPlainTerminator(c)) return KeyScan::kNotKey;
    if ((c == '-' || c == '?' || c == ':') && BlankBreakOrEnd(p_ + 1)) {
      return KeyScan::kDecline;
    }
    const char* stop;
    const char* last;
    if (ScanPlainRun(p_, &stop, &last) != RunEnd::kColon) {
      return KeyScan::kNotKey;
    }
    if (stop - start > 1000) return KeyScan::kDecline;  // yaml-cpp: 1024
    YamlPlainKeyText(absl::string_view(p_, last - p_), key);
    p_ = stop + 1;
    return KeyScan::kKey;
  }

  enum class RunEnd { kLine, kComment, kColon };

  // Scans plain scalar text on one line in block context from `q` up to
  // the line's end, a comment (a blank before '#') or ':' followed by a
  // blank, a break or the end (which ends a key). `*stop` is where it
  // stopped, `*last` one past the last non-blank before that.
  RunEnd ScanPlainRun(const char* q, const char** stop,
                      const char** last) const {
    const char* const first = q;
    RunEnd end;
    while (true) {
      q = FindAnyOf3(q, e_, ':', '\n', '#');
      if (q == e_ || *q == '\n') {
        end = RunEnd::kLine;
        break;
      }
      if (*q == ':') {
        if (BlankBreakOrEnd(q + 1)) {
          end = RunEnd::kColon;
          break;
        }
      } else if (q != first && IsBlank(q[-1])) {  // " #"
        --q;
        end = RunEnd::kComment;
        break;
      }
      ++q;
    }
    *stop = q;
    const char* l = q;
    while (l != first && IsBlank(l[-1])) --l;
    *last = l;
    return end;
  }

  // Where a scalar may go instead of `*out`: the value of a map entry on
  // the stack (reading a scalar adds nothing to the stack, which would
  // move its entries), saving a move of it; `*in_entry` says it went there.
  struct ScalarSlot {
    size_t entry;
    bool* in_entry;  // null: no slot
  };

  // Reads the node that starts at p_: after "key:" on its line, after "-",
  // or at the start of a line. `key_position` tells whether yaml-cpp could
  // take a simple key here (not after "key:"); `properties_alone` whether
  // an anchor may end the line, the node following on the next lines.
  // Afterwards p_ is at the next token (SkipToContent has run). A scalar
  // goes to `slot`'s entry when it has one.
  bool ReadInlineNode(Context ctx, bool key_position, bool properties_alone,
                      Value* out, ScalarSlot slot = {0, nullptr}) {
    const int node_col = Column();
    absl::string_view anchor;
    std::string tag;
    bool has_anchor = false;
    bool has_tag = false;
    while (p_ != e_ && (*p_ == '&' || *p_ == '!')) {
      if (*p_ == '&') {
        if (has_anchor) return false;
        const char* name = ++p_;
        while (p_ != e_ && IsNameChar(*p_)) ++p_;
        if (p_ == name || !BlankBreakOrEnd(p_)) return false;
        anchor = absl::string_view(name, p_ - name);
        has_anchor = true;
      } else {
        if (has_tag) return false;
        if (!ReadTag(&tag)) return false;
        has_tag = true;
      }
      SkipBlanks();
    }
    // yaml-cpp registers an anchor before reading its node, so an alias
    // inside the node finds it still open.
    size_t anchor_index = 0;
    if (has_anchor) {
      anchor_index = anchors_.size();
      anchors_.push_back(
          Anchor{std::string(anchor), Value(), true, budget_.nodes()});
    }
    if (has_anchor || has_tag) {
      if (p_ == e_ || *p_ == '\n' || *p_ == '#') {
        // Properties alone on their line: the node is on the next lines.
        // (yaml-cpp gives an untagged empty node null and a tagged one the
        // empty string; only the former is handled here.)
        if (has_tag || !properties_alone) return false;
        EndLine();
        if (!SkipToContent()) return false;
        // Properties starting the next line would be the same node's too:
        // yaml-cpp refuses a second anchor ("cannot assign multiple
        // anchors to the same node").
        if (p_ != e_ && (*p_ == '&' || *p_ == '!')) return false;
        if (!ReadNodeOnNextLines(ctx.top, ctx.seq_at_top, out)) return false;
        CloseAnchor(anchor_index, *out);
        return true;
      }
    }
    if ((has_anchor || has_tag) && key_position) {
      // yaml-cpp sets up a potential simple key at the properties, which
      // indents what follows relative to their column: a plain scalar
      // continues only on lines indented more than it. (Block scalars,
      // whose indentation would shift too, are left to yaml-cpp.)
      if (*p_ == '|' || *p_ == '>') return false;
      ctx.top = node_col;
    }
    const char c = *p_;
    bool is_scalar = false;
    bool plain = false;
    absl::string_view text;  // into the input, or into `buf`
    std::string buf;
    switch (c) {
      case '*':
        if (has_anchor || has_tag) return false;
        if (!ReadAlias(out) || !EndLine()) return false;
        return SkipToContent();
      case '"':
      case '\'':
        if (!ScanQuoted(&text, &buf) || !EndLine()) return false;
        is_scalar = true;
        break;
      case '[':
      case '{':
        if (!ReadFlow(out) || !EndLine()) return false;
        break;
      case '|':
      case '>':
        if (!ScanBlockScalar(ctx.top, &buf)) return false;
        text = buf;
        is_scalar = true;
        break;
      default:
        if (IsPlainTerminator(c)) return false;
        if ((c == '-' || c == '?' || c == ':') && BlankBreakOrEnd(p_ + 1)) {
          return false;
        }
        if (!ScanPlain(ctx.top, &text, &buf)) return false;
        is_scalar = true;
        plain = true;
        break;
    }
    if (is_scalar) {
      budget_.Add();
      if (slot.in_entry != nullptr) {
        out = &stack_.ValueAt(slot.entry);
        *slot.in_entry = true;
      }
      if (has_tag) {
        std::optional<Value> v = ResolveTaggedYamlScalar(tag, text);
        if (!v.has_value()) return false;
        *out = *std::move(v);
      } else if (plain) {
        ResolvePlainYamlScalar(text, out);
      } else if (!buf.empty() && text.data() == buf.data()) {
        out->TakeString(std::move(buf));
      } else {
        out->SetString(text);
      }
    }
    if (has_anchor) CloseAnchor(anchor_index, *out);
    return SkipToContent();
  }

  // Reads `!!name` (tag:yaml.org,2002:name), `!name` or a lone `!`,
  // followed by a blank, a break or the end.
  bool ReadTag(std::string* tag) {
    ++p_;  // '!'
    bool secondary = false;
    if (p_ != e_ && *p_ == '!') {
      secondary = true;
      ++p_;
    }
    const char* name = p_;
    while (p_ != e_ && IsTagChar(*p_)) ++p_;
    if (!BlankBreakOrEnd(p_)) return false;
    absl::string_view n(name, p_ - name);
    if (secondary) {
      if (n.empty()) return false;
      *tag = "tag:yaml.org,2002:";
      tag->append(n.data(), n.size());
    } else {
      *tag = "!";
      tag->append(n.data(), n.size());
    }
    return true;
  }

  // REQUIRES: *p_ == '*'. Copies the anchored node.
  bool ReadAlias(Value* out) {
    const char* name = ++p_;
    while (p_ != e_ && IsNameChar(*p_)) ++p_;
    if (p_ == name) return false;
    if (!(BlankBreakOrEnd(p_) ||
          (flow_level_ > 0 && (*p_ == ',' || *p_ == ']' || *p_ == '}')))) {
      return false;
    }
    absl::string_view n(name, p_ - name);
    for (auto it = anchors_.rbegin(); it != anchors_.rend(); ++it) {
      if (it->name != n) continue;
      if (it->open) return false;  // "refers to a node that contains it"
      if (!budget_.AddAlias(it->nodes).empty()) return false;
      *out = it->value;
      return true;
    }
    return false;  // undefined
  }

  // ---------------------------------------------------------------------
  // Scalars

  // Reads the plain scalar at p_ in block context, with its continuation
  // lines (those indented more than `top`). Leaves p_ after its text.
  bool ScanPlain(int top, absl::string_view* out, std::string* buf) {
    const char* content_end;
    const char* line_end;
    bool comment;
    if (!ScanPlainLine(p_, &content_end, &line_end, &comment)) return false;
    const char* first = p_;
    p_ = content_end;
    if (comment || line_end == e_) {
      *out = absl::string_view(first, content_end - first);
      return true;
    }
    // Continuation lines? They are found first and joined after, into
    // room made once: a description of a few lines appended line by line
    // would grow its string as many times.
    struct Fold {
      const char* begin;
      const char* end;
      int breaks;  // the empty lines before it, a line break each;
                   // none: joined by a space
    };
    absl::InlinedVector<Fold, 8> folds;
    size_t size = static_cast<size_t>(content_end - first);
    const int threshold = top + 1;
    int newlines = 0;
    const char* line = line_end + 1;
    while (line != e_) {
      const char* q = line;
      q += LeadingSpaces(q, e_);
      if (q != e_ && *q == '\t') return false;  // tabs: yaml-cpp rules
      if (q == e_) break;
      if (*q == '\n') {
        ++newlines;
        line = q + 1;
        continue;
      }
      int indent = static_cast<int>(q - line);
      if (indent < threshold) break;
      if (indent == 0 && e_ - q >= 3 &&
          ((q[0] == '-' && q[1] == '-' && q[2] == '-') ||
           (q[0] == '.' && q[1] == '.' && q[2] == '.')) &&
          BlankBreakOrEnd(q + 3)) {
        break;
      }
      if (*q == '#') {
        if (indent == 0) return false;  // yaml-cpp reads it as text
        break;
      }
      const char* cend;
      const char* lend;
      bool cmt;
      if (!ScanPlainLine(q, &cend, &lend, &cmt)) return false;
      folds.push_back(Fold{q, cend, newlines});
      size += (newlines == 0 ? 1 : static_cast<size_t>(newlines)) +
              static_cast<size_t>(cend - q);
      newlines = 0;
      p_ = cend;
      ls_ = line;
      if (cmt || lend == e_) break;
      line = lend + 1;
    }
    if (folds.empty()) {
      *out = absl::string_view(first, content_end - first);
      return true;
    }
    buf->clear();
    buf->reserve(size);
    buf->append(first, content_end);
    for (const Fold& f : folds) {
      if (f.breaks == 0) {
        buf->push_back(' ');
      } else {
        buf->append(static_cast<size_t>(f.breaks), '\n');
      }
      buf->append(f.begin, f.end);
    }
    *out = *buf;
    return true;
  }

  // Scans one line of a plain scalar in block context from `q`: the
  // content ends at a comment (" #") or the line's end, trailing blanks
  // excluded. Declines on ": " (a key where none may be).
  bool ScanPlainLine(const char* q, const char** content_end,
                     const char** line_end, bool* comment) {
    const char* stop;
    RunEnd end = ScanPlainRun(q, &stop, content_end);
    if (end == RunEnd::kColon) return false;
    *comment = end == RunEnd::kComment;
    *line_end = stop;
    if (*comment) *line_end = LineEnd(*line_end);
    return true;
  }

  // Reads a single- or double-quoted scalar at p_ (yaml-cpp's
  // ScanQuotedScalar and ScanScalar with FOLD_FLOW). Leaves p_ after the
  // closing quote.
  bool ScanQuoted(absl::string_view* out, std::string* buf) {
    const char quote = *p_;
    const bool single = quote == '\'';
    const char* start = p_ + 1;
    // Most quoted scalars are one line without escapes.
    // The bytes that end a run of text: the quote, a line break, and in
    // double quotes an escape.
    const char escape = single ? quote : '\\';
    const char* q = FindAnyOf3(start, e_, quote, '\n', escape);
    if (q != e_ && *q == quote && !(single && q + 1 != e_ && q[1] == quote)) {
      *out = absl::string_view(start, q - start);
      p_ = q + 1;
      return true;
    }
    p_ = start;
    std::string& scalar = *buf;
    scalar.clear();
    // Room for the whole scalar at once, as for plain ones (see ScanPlain):
    // its text is no longer than its quoted bytes, but for two rare
    // escapes (three bytes for \L and \P).
    if (const char* close = ClosingQuote(q, single); close != e_)
      scalar.reserve(static_cast<size_t>(close - start));
    size_t last_escaped = std::string::npos;
    bool empty_line = false;
    while (true) {
      if (p_ == e_) return false;  // unterminated
      size_t last_non_blank = scalar.size();
      bool escaped_newline = false;
      if (p_ == ls_ && AtDocMarker()) return false;
      while (true) {
        const char* run = p_;
        p_ = FindAnyOf3(p_, e_, quote, '\n', escape);
        if (p_ != run) {
          scalar.append(run, p_);
          const char* l = p_;
          while (l != run && IsBlank(l[-1])) --l;
          if (l != run) last_non_blank = scalar.size() - (p_ - l);
        }
        if (p_ == e_ || *p_ == '\n') break;
        if (*p_ == quote && !(single && p_ + 1 != e_ && p_[1] == quote)) {
          break;  // the closing quote
        }
        if (!single && p_ + 1 != e_ && p_[1] == '\n') {  // "\\" at the end
          ++p_;
          last_non_blank = scalar.size();
          last_escaped = scalar.size();
          escaped_newline = true;
          break;
        }
        if (!Escape(single, &scalar)) return false;
        last_non_blank = scalar.size();
        last_escaped = scalar.size();
      }
      if (p_ == e_) return false;
      if (*p_ == quote) {
        ++p_;
        break;
      }
      scalar.erase(last_non_blank);
      ++p_;  // the line break
      ls_ = p_;
      SkipBlanks();
      bool next_empty_line = p_ != e_ && *p_ == '\n';
      if (next_empty_line) {
        scalar.push_back('\n');
      } else if (!empty_line && !escaped_newline) {
        scalar.push_back(' ');
      }
      empty_line = next_empty_line;
    }
    // yaml-cpp clips trailing line breaks that did not come from escapes.
    size_t pos = scalar.find_last_not_of('\n');
    if (last_escaped != std::string::npos &&
        (pos == std::string::npos || pos < last_escaped)) {
      pos = last_escaped;
    }
    if (pos == std::string::npos) {
      scalar.clear();
    } else if (pos + 1 < scalar.size()) {
      scalar.erase(pos + 2);
    }
    *out = scalar;
    return true;
  }

  // The closing quote of the quoted scalar whose first byte to look at is
  // `q` (a quote, a line break or an escape), or e_ when it has none.
  const char* ClosingQuote(const char* q, bool single) const {
    const char quote = single ? '\'' : '"';
    while (q != e_) {
      if (*q == quote) {
        if (!single || q + 1 == e_ || q[1] != quote) return q;
        q += 2;  // '' in single quotes
      } else if (*q == '\\' && !single) {
        if (e_ - q < 2) return e_;
        q += 2;  // the escaped byte is no quote
      } else {
        ++q;
      }
      q = FindAnyOf3(q, e_, quote, '\\', quote);
    }
    return e_;
  }

  // Appends the escape at p_ ("''" in single quotes; "\x" in double).
  bool Escape(bool single, std::string* out) {
    if (e_ - p_ < 2) return false;
    char c = p_[1];
    p_ += 2;
    if (single) {
      if (c != '\'') return false;
      out->push_back('\'');
      return true;
    }
    int digits = 0;
    switch (c) {
      case '0':
        out->push_back('\0');
        return true;
      case 'a':
        out->push_back('\a');
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 't':
      case '\t':
        out->push_back('\t');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'v':
        out->push_back('\v');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 'e':
        out->push_back('\x1B');
        return true;
      case ' ':
      case '"':
      case '\'':
      case '\\':
      case '/':
        out->push_back(c);
        return true;
      // NEL and NBSP, in UTF-8 as yaml.v2 writes them (the full reader
      // repairs yaml-cpp's Latin-1 bytes to the same).
      case 'N':
        out->append("\xC2\x85");
        return true;
      case '_':
        out->append("\xC2\xA0");
        return true;
      case 'L':
        out->append("\xE2\x80\xA8");
        return true;
      case 'P':
        out->append("\xE2\x80\xA9");
        return true;
      case 'x':
        digits = 2;
        break;
      case 'u':
        digits = 4;
        break;
      case 'U':
        digits = 8;
        break;
      default:
        return false;
    }
    if (e_ - p_ < digits) return false;
    uint32_t cp = 0;
    for (int i = 0; i < digits; ++i) {
      int d = HexValue(p_[i]);
      if (d < 0) return false;
      cp = (cp << 4) | static_cast<uint32_t>(d);
    }
    p_ += digits;
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    internal::AppendUtf8(out, cp);
    return true;
  }

  // Reads a literal (|) or folded (>) block scalar at p_ (yaml-cpp's
  // ScanBlockScalar and ScanScalar). Leaves p_ at the first token after it.
  bool ScanBlockScalar(int top, std::string* out) {
    const bool fold = *p_++ == '>';
    enum { kClip, kStrip, kKeep } chomp = kClip;
    int indent = 1;
    bool detect = true;
    auto is_chomp = [](char ch) { return ch == '+' || ch == '-'; };
    auto is_digit = [](char ch) { return ch >= '0' && ch <= '9'; };
    int n = 0;
    if (p_ != e_ && is_chomp(*p_)) {
      n = (p_ + 1 != e_ && is_digit(p_[1])) ? 2 : 1;
    } else if (p_ != e_ && is_digit(*p_)) {
      n = (p_ + 1 != e_ && is_chomp(p_[1])) ? 2 : 1;
    }
    for (int i = 0; i < n; ++i) {
      char ch = *p_++;
      if (ch == '+') {
        chomp = kKeep;
      } else if (ch == '-') {
        chomp = kStrip;
      } else {
        if (ch == '0') return false;
        indent = ch - '0';
        detect = false;
      }
    }
    if (!EndLine()) return false;
    if (top >= 0) indent += top;

    std::string scalar;
    bool found_non_empty_line = false;
    bool past_opening_break = false;
    bool empty_line = false;
    bool more_indented = false;
    int folded_newlines = 0;
    bool folded_started_more_indented = false;
    while (p_ != e_) {
      const char* text = p_;
      p_ = LineEnd(p_);
      if (p_ != text) {
        found_non_empty_line = true;
        past_opening_break = true;
        scalar.append(text, p_);
      }
      if (p_ == e_) break;
      ++p_;  // the line break
      ls_ = p_;
      if (detect && !found_non_empty_line) {
        p_ += LeadingSpaces(p_, e_);
      } else if (indent > 0) {
        // Up to the indentation.
        p_ += LeadingSpaces(p_, std::min(e_, ls_ + indent));
      }
      if (detect && !found_non_empty_line) indent = std::max(indent, Column());
      if (p_ != e_ && *p_ == '\t' && Column() < indent) return false;
      const bool next_empty_line = p_ != e_ && *p_ == '\n';
      const bool next_more_indented = p_ != e_ && IsBlank(*p_);
      if (fold && folded_newlines == 0 && next_empty_line) {
        folded_started_more_indented = more_indented;
      }
      if (past_opening_break) {
        if (!fold) {
          scalar.push_back('\n');
        } else {
          if (!empty_line && !next_empty_line && !more_indented &&
              !next_more_indented && Column() >= indent) {
            scalar.push_back(' ');
          } else if (next_empty_line) {
            ++folded_newlines;
          } else {
            scalar.push_back('\n');
          }
          if (!next_empty_line && folded_newlines > 0) {
            scalar.append(static_cast<size_t>(folded_newlines - 1), '\n');
            if (folded_started_more_indented || next_more_indented ||
                !found_non_empty_line) {
              scalar.push_back('\n');
            }
            folded_newlines = 0;
          }
        }
      }
      empty_line = next_empty_line;
      more_indented = next_more_indented;
      past_opening_break = true;
      if (!empty_line && Column() < indent) break;
    }
    if (chomp != kKeep) {
      size_t pos = scalar.find_last_not_of('\n');
      if (pos == std::string::npos) {
        scalar.clear();
      } else if (chomp == kClip) {
        if (pos + 1 < scalar.size()) scalar.erase(pos + 2);
      } else {
        scalar.erase(pos + 1);
      }
    }
    *out = std::move(scalar);
    return true;
  }

  // ---------------------------------------------------------------------
  // Flow collections

  // Moves over blanks, line breaks and comments inside a flow collection.
  bool SkipFlowSpace() {
    while (p_ != e_) {
      char c = *p_;
      if (IsBlank(c)) {
        ++p_;
      } else if (c == '\n') {
        ++p_;
        ls_ = p_;
        if (p_ != e_ && (*p_ == '%' || AtDocMarker())) return false;
      } else if (c == '#') {
        p_ = LineEnd(p_);
      } else {
        break;
      }
    }
    return true;
  }

  // REQUIRES: *p_ is '[' or '{'. Leaves p_ after the closing bracket.
  bool ReadFlow(Value* out) {
    if (!Enter()) return false;
    budget_.Add();
    ++flow_level_;
    const bool is_map = *p_++ == '{';
    const char close = is_map ? '}' : ']';
    const size_t start = is_map ? stack_.MapStart() : stack_.ListStart();
    while (true) {
      if (!SkipFlowSpace() || p_ == e_) return false;
      if (*p_ == close) break;
      if (is_map) {
        const size_t entry = stack_.StartEntry();
        std::string& key = stack_.KeyAt(entry);
        const char* key_line = ls_;
        const char* key_start = p_;
        if (*p_ == '"' || *p_ == '\'') {
          absl::string_view text;
          std::string buf;
          if (!ScanQuoted(&text, &buf) || ls_ != key_line) return false;
          SetBytes(&key, text.data(), text.size());
          SkipBlanks();
          // After a quoted key, ':' needs no blank (JSON style).
          if (p_ != e_ && *p_ == ':') {
            ++p_;
          } else if (p_ == e_ || (*p_ != ',' && *p_ != close)) {
            return false;
          }
        } else {
          absl::string_view text;
          bool colon;
          if (!ScanFlowPlain(/*is_key=*/true, &text, &colon)) return false;
          YamlPlainKeyText(text, &key);
          if (colon) ++p_;
        }
        if (p_ - key_start > 1000) return false;  // yaml-cpp: 1024
        budget_.Add();                            // the key
        Value v;
        if (!SkipFlowSpace() || p_ == e_) return false;
        if (*p_ == ',' || *p_ == close) {
          budget_.Add();
        } else if (!ReadFlowNode(&v)) {
          return false;
        }
        stack_.SetValue(entry, std::move(v));
      } else {
        Value v;
        if (!ReadFlowNode(&v)) return false;
        stack_.PushItem(std::move(v));
      }
      if (!SkipFlowSpace() || p_ == e_) return false;
      if (*p_ == ',') {
        ++p_;
        continue;
      }
      if (*p_ != close) return false;
      break;
    }
    ++p_;  // the closing bracket
    --flow_level_;
    Leave();
    if (is_map) return stack_.FinishMap(start, out);
    return stack_.FinishList(start, limits_.max_list_items, out);
  }

  // Reads a value inside a flow collection.
  bool ReadFlowNode(Value* out) {
    char c = *p_;
    if (c == '[' || c == '{') return ReadFlow(out);
    if (c == '*') return ReadAlias(out);
    budget_.Add();
    absl::string_view text;
    if (c == '"' || c == '\'') {
      std::string buf;
      if (!ScanQuoted(&text, &buf)) return false;
      if (text.data() == buf.data()) {
        out->TakeString(std::move(buf));
      } else {
        out->SetString(text);
      }
      return true;
    }
    bool colon;
    if (!ScanFlowPlain(/*is_key=*/false, &text, &colon)) return false;
    ResolvePlainYamlScalar(text, out);
    return true;
  }

  // Reads a plain scalar inside a flow collection, on one line. A key ends
  // at ':' followed by a blank, a break, ',', ']' or '}' (`*colon` is then
  // true and p_ is at the ':'); a value may not contain such a ':' (that
  // would be a single-pair mapping). Both end at ',', ']', '}', a comment
  // or the line's end when the next token is ',', ']' or '}'.
  bool ScanFlowPlain(bool is_key, absl::string_view* out, bool* colon) {
    *colon = false;
    char c = *p_;
    if (BlankBreakOrEnd(p_) || c == '?' || IsPlainTerminator(c)) {
      return false;
    }
    if ((c == '-' || c == ':') && BlankBreakOrEnd(p_ + 1)) return false;
    const char* start = p_;
    const char* last = p_;
    const char* q = p_;
    bool comment = false;
    for (; q != e_; ++q) {
      char ch = *q;
      if (ch == ',' || ch == ']' || ch == '}' || ch == '\n') break;
      if (ch == '[' || ch == '{' || ch == '?') return false;
      if (ch == ':' && (BlankBreakOrEnd(q + 1) || q[1] == ',' || q[1] == ']' ||
                        q[1] == '}')) {
        if (!is_key) return false;
        *colon = true;
        break;
      }
      if (IsBlank(ch)) {
        if (q + 1 != e_ && q[1] == '#') {
          comment = true;
          break;
        }
      } else {
        last = q + 1;
      }
    }
    *out = absl::string_view(start, last - start);
    p_ = q;
    if (q == e_) return false;  // the collection is not closed
    if (*colon || *q == ',' || *q == ']' || *q == '}') return true;
    // A key must be followed on its line by ':', ',' or the closing
    // bracket (yaml-cpp's simple keys are one line).
    if (is_key) return false;
    if (comment) return true;
    // At a line break yaml-cpp folds the next line into the scalar, unless
    // it starts with ',', ']' or '}'.
    const char* r = q;
    while (r != e_ && (IsBlank(*r) || *r == '\n')) ++r;
    return r != e_ && (*r == ',' || *r == ']' || *r == '}');
  }

  const Limits& limits_;
  const int max_depth_;
  YamlNodeBudget budget_;
  const char* const b_;
  const char* const e_;
  const char* p_;   // the cursor
  const char* ls_;  // start of the cursor's line
  ContainerStackLease lease_;
  ContainerStack& stack_;
  std::vector<Anchor> anchors_;
  int depth_ = 0;
  int flow_level_ = 0;
};

}  // namespace

std::string YamlNodeBudget::AddAlias(size_t count) {
  ++nodes_;  // the alias itself
  std::string error = CheckSinceLast();
  if (!error.empty()) return error;
  if (nodes_ + count > limits_->max_yaml_nodes) {
    return std::string(
        LimitError(absl::StrCat("document of at least ", nodes_ + count,
                                " nodes after alias expansion"),
                   "max_yaml_nodes", limits_->max_yaml_nodes)
            .message());
  }
  nodes_ += count;
  aliased_ += count;
  checked_ = nodes_;
  return WithinAliasRatio(aliased_, nodes_) ? "" : RatioError(nodes_);
}

std::string YamlNodeBudget::Finish() { return CheckSinceLast(); }

std::string YamlNodeBudget::CheckSinceLast() {
  // With no aliases since the last check only the nodes grew; the rule's
  // allowance (the share times the nodes) shrinks from 2.2 million nodes
  // to its low at 4 million and grows after, so checking now and at 4
  // million covers every node in between, as yaml.v2 checks each.
  constexpr size_t kLowestAllowance = 4'000'000;
  if (checked_ < kLowestAllowance && nodes_ > kLowestAllowance &&
      !WithinAliasRatio(aliased_, kLowestAllowance)) {
    return RatioError(kLowestAllowance);
  }
  checked_ = nodes_;
  return WithinAliasRatio(aliased_, nodes_) ? "" : RatioError(nodes_);
}

std::string YamlNodeBudget::RatioError(size_t nodes) const {
  return absl::StrCat("excessive aliasing: ", aliased_, " of the first ", nodes,
                      " nodes of the document come from aliases, more than "
                      "the Kubernetes API server's YAML reader allows");
}

bool FastParseYamlStream(absl::string_view text, const Limits& limits,
                         std::vector<FastYamlDocument>* docs, YamlBytes known) {
  // Printable text without carriage returns holds none of the other bytes
  // HasUnsupportedBytes looks for (control characters, DEL).
  if (known == YamlBytes::kPrintableWithoutCr ? StartsLikeAByteOrderMark(text)
                                              : HasUnsupportedBytes(text)) {
    return false;
  }
  YamlReader reader(text, limits);
  return reader.ReadStream(docs);
}

}  // namespace internal
}  // namespace smdx
