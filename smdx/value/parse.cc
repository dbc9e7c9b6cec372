#include "smdx/value/parse.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "smdx/value/emit.h"
#include "smdx/value/internal/parse.h"
#include "smdx/value/internal/byte_scan.h"
#include "smdx/value/json_fast.h"
#include "smdx/value/utf8.h"
#include "smdx/value/yaml_fast.h"
#include "smdx/value/yaml_scalar.h"

namespace smdx {
namespace {

// ---------------------------------------------------------------------------
// Paths in error messages.

bool IsIdentifierLike(absl::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9') && c != '-') return false;
  }
  return true;
}

std::string FieldSegment(absl::string_view key) {
  if (IsIdentifierLike(key)) return absl::StrCat(".", key);
  std::string out = "[";
  AppendJsonString(&out, key);
  out.push_back(']');
  return out;
}

// Joins path segments. A path many levels deep (a nesting-depth error) keeps
// only its two ends, which is all a reader can use.
std::string JoinPath(const std::vector<std::string>& segments) {
  if (segments.empty()) return ".";
  constexpr size_t kKeep = 8;
  std::string out;
  if (segments.size() <= 3 * kKeep) {
    for (const std::string& s : segments) out += s;
    return out;
  }
  for (size_t i = 0; i < kKeep; ++i) out += segments[i];
  absl::StrAppend(&out, "...(", segments.size() - 2 * kKeep, " more)...");
  for (size_t i = segments.size() - kKeep; i < segments.size(); ++i) {
    out += segments[i];
  }
  return out;
}

// What a document too deep has: "nesting at .a[0] (level 3)".
std::string NestingDescription(absl::string_view path, size_t level) {
  return absl::StrCat("nesting at ", path, " (level ", level, ")");
}

// ---------------------------------------------------------------------------
// ValueBuilder: assembles a Value from a stream of parser events, tracking
// the path of the next value for error messages. Shared by both parsers.

class ValueBuilder {
 public:
  // Where a completed node sits: its index in each enclosing container,
  // from the root down. Stable once the node is complete, because
  // containers only grow at the end.
  using Position = std::vector<size_t>;

  explicit ValueBuilder(const Limits& limits) : limits_(&limits) {}

  bool ExpectingKey() const {
    return !frames_.empty() && frames_.back().container.IsMap() &&
           !frames_.back().has_key;
  }
  absl::Status Open(bool is_map) {
    if (frames_.size() >= limits_->max_depth) {
      return LimitError(NestingDescription(Path(), frames_.size() + 1),
                        "max_depth", limits_->max_depth);
    }
    Frame& f = frames_.emplace_back();
    f.container = is_map ? Value::MakeMap() : Value::MakeList();
    return absl::OkStatus();
  }

  // Sets the key of the next value in the innermost map.
  // REQUIRES: ExpectingKey().
  absl::Status SetKey(std::string key) {
    Frame& f = frames_.back();
    if (ContainsKey(f, key)) {
      return absl::InvalidArgumentError(
          absl::StrCat(PathTo(key), ": duplicate key ", QuoteKey(key)));
    }
    if (f.index != nullptr) f.index->insert(key);
    f.key = std::move(key);
    f.has_key = true;
    return absl::OkStatus();
  }

  // Adds a complete value at the current position. (Taking an rvalue
  // reference rather than a value also keeps GCC 12 from false
  // -Wmaybe-uninitialized warnings about moved variants under sanitizers.)
  // Fails when a list would grow past the max_list_items limit.
  // REQUIRES: !ExpectingKey(), and no root value yet if no container is open.
  absl::Status Add(Value&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      has_root_ = true;
      return absl::OkStatus();
    }
    Frame& f = frames_.back();
    if (f.container.IsMap()) {
      f.container.map().Append(std::move(f.key), std::move(v));
      f.key.clear();
      f.has_key = false;
      return absl::OkStatus();
    }
    List& list = f.container.list();
    if (list.size() >= limits_->max_list_items) {
      std::vector<std::string> s = Segments();
      s.pop_back();
      return LimitError(absl::StrCat(JoinPath(s), ": list of more than ",
                                     list.size(), " items"),
                        "max_list_items", limits_->max_list_items);
    }
    list.push_back(std::move(v));
    return absl::OkStatus();
  }

  // Closes the innermost container and adds it to its parent.
  absl::Status Close() {
    Value v = std::move(frames_.back().container);
    frames_.pop_back();
    return Add(std::move(v));
  }

  // The position of the value most recently added.
  Position LastAddedPosition() const {
    Position p;
    p.reserve(frames_.size());
    for (const Frame& f : frames_) p.push_back(Size(f.container));
    if (!p.empty()) --p.back();
    return p;
  }

  // The complete node at `p`, or nullptr if `p` is still being built.
  const Value* At(const Position& p) const {
    if (p.empty()) return has_root_ ? &root_ : nullptr;
    const Value* cur = nullptr;
    for (size_t k = 0; k < p.size(); ++k) {
      if (cur == nullptr) {
        if (k >= frames_.size()) return nullptr;
        const Value& c = frames_[k].container;
        // The open child of an open frame is the next frame.
        if (p[k] >= Size(c)) continue;
        cur = &Child(c, p[k]);
      } else {
        cur = &Child(*cur, p[k]);
      }
    }
    return cur;
  }

  Value TakeRoot() {
    has_root_ = false;
    return std::move(root_);
  }

  // The path of the position the next value goes to.
  std::string Path() const { return JoinPath(Segments()); }

  // The path of `key` in the innermost map.
  std::string PathTo(absl::string_view key) const {
    std::vector<std::string> s = Segments();
    s.push_back(FieldSegment(key));
    return JoinPath(s);
  }

 private:
  struct Frame {
    Value container;  // a List or a Map
    std::string key;  // maps: the key of the value being read
    bool has_key = false;
    // Maps: all keys, once the map is big enough that scanning it for
    // duplicates would make parsing quadratic.
    std::unique_ptr<absl::flat_hash_set<std::string>> index;
  };

  static constexpr size_t kIndexThreshold = 16;

  static std::string QuoteKey(absl::string_view key) {
    std::string out;
    AppendJsonString(&out, key);
    return out;
  }

  static size_t Size(const Value& c) {
    return c.IsMap() ? c.map().size() : c.list().size();
  }

  static const Value& Child(const Value& c, size_t i) {
    return c.IsMap() ? c.map().entries()[i].value : c.list()[i];
  }

  static bool ContainsKey(Frame& f, absl::string_view key) {
    const Map& m = f.container.map();
    if (f.index == nullptr) {
      if (m.size() < kIndexThreshold) {
        return m.Find(key) != nullptr;
      }
      f.index = std::make_unique<absl::flat_hash_set<std::string>>();
      f.index->reserve(m.size() * 2);
      for (const MapEntry& e : m) f.index->insert(e.key);
    }
    return f.index->contains(key);
  }

  std::vector<std::string> Segments() const {
    std::vector<std::string> out;
    out.reserve(frames_.size());
    for (const Frame& f : frames_) {
      if (f.container.IsMap()) {
        if (!f.has_key) break;
        out.push_back(FieldSegment(f.key));
      } else {
        out.push_back(absl::StrCat("[", f.container.list().size(), "]"));
      }
    }
    return out;
  }

  const Limits* limits_;
  std::vector<Frame> frames_;
  Value root_;
  bool has_root_ = false;
};

// ---------------------------------------------------------------------------
// JSON

bool IsJsonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Receives nlohmann's SAX events. Returning false stops the parser; the
// reason is in status().
class JsonHandler {
 public:
  using json = nlohmann::json;

  explicit JsonHandler(const Limits& limits) : builder_(limits) {}

  bool null() { return AddValue(Value()); }
  bool boolean(bool b) { return AddValue(Value(b)); }
  bool number_integer(json::number_integer_t i) {
    return AddValue(Value(static_cast<int64_t>(i)));
  }
  bool number_unsigned(json::number_unsigned_t u) {
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return AddValue(Value(static_cast<int64_t>(u)));
    }
    return AddValue(Value(static_cast<double>(u)));
  }
  bool number_float(json::number_float_t f, const json::string_t& text) {
    // nlohmann reports overflow through parse_error; this guards against
    // an infinity slipping through anyway, which Go would refuse.
    if (!std::isfinite(f)) {
      return Fail(absl::InvalidArgumentError(absl::StrCat(
          builder_.Path(), ": number ", text, " is out of range")));
    }
    return AddValue(Value(static_cast<double>(f)));
  }
  bool string(json::string_t& s) { return AddValue(Value(std::move(s))); }
  bool binary(json::binary_t& /*unused*/) {
    // Only binary formats (CBOR, BSON, ...) produce these.
    return Fail(absl::InvalidArgumentError("unexpected binary value"));
  }
  bool start_object(std::size_t /*unused*/) {
    return Check(builder_.Open(/*is_map=*/true));
  }
  bool key(json::string_t& k) { return Check(builder_.SetKey(std::move(k))); }
  bool end_object() { return Check(builder_.Close()); }
  bool start_array(std::size_t /*unused*/) {
    return Check(builder_.Open(/*is_map=*/false));
  }
  bool end_array() { return Check(builder_.Close()); }
  bool parse_error(std::size_t /*position*/, const std::string& last_token,
                   const nlohmann::detail::exception& ex) {
    // out_of_range.406: a number too large for a double, which Go rejects
    // too. Not a syntax error: YAML would read it as a string instead.
    constexpr int kNumberOverflow = 406;
    if (ex.id == kNumberOverflow) {
      return Fail(absl::InvalidArgumentError(absl::StrCat(
          builder_.Path(), ": number ", last_token, " is out of range")));
    }
    syntax_error_ = true;
    return Fail(absl::InvalidArgumentError(CleanMessage(ex.what())));
  }

  const absl::Status& status() const { return status_; }
  bool syntax_error() const { return syntax_error_; }
  Value TakeRoot() { return builder_.TakeRoot(); }

 private:
  // nlohmann's messages read "[json.exception.parse_error.101] parse error
  // at line 1, column 5: syntax error while parsing object key - ...;
  // expected string literal"; the position and the expectation are what
  // matter.
  static std::string CleanMessage(absl::string_view what) {
    if (!what.empty() && what[0] == '[') {
      size_t close = what.find("] ");
      if (close != absl::string_view::npos) what.remove_prefix(close + 2);
    }
    constexpr absl::string_view kPrefix = "parse error at ";
    if (what.substr(0, kPrefix.size()) == kPrefix) {
      what.remove_prefix(kPrefix.size());
    }
    return std::string(what);
  }

  bool AddValue(Value&& v) { return Check(builder_.Add(std::move(v))); }
  bool Check(absl::Status s) {
    if (s.ok()) return true;
    return Fail(std::move(s));
  }
  bool Fail(absl::Status s) {
    if (status_.ok()) status_ = std::move(s);
    return false;
  }

  ValueBuilder builder_;
  absl::Status status_;
  bool syntax_error_ = false;
};

// Parses JSON; *syntax_error tells whether a failure was a syntax error (as
// opposed to a duplicate key, the depth limit or an out-of-range number).
absl::StatusOr<Value> ParseJsonImpl(absl::string_view text,
                                    const Limits& limits, bool* syntax_error) {
  *syntax_error = false;
  bool blank = true;
  for (char c : text) {
    if (!IsJsonSpace(c)) {
      blank = false;
      break;
    }
  }
  if (blank) {
    *syntax_error = true;
    return absl::InvalidArgumentError("empty document");
  }
  JsonHandler handler(limits);
  bool ok;
  try {
    ok = nlohmann::json::sax_parse(text.data(), text.data() + text.size(),
                                   &handler,
                                   nlohmann::json::input_format_t::json,
                                   /*strict=*/true, /*ignore_comments=*/false);
  } catch (const std::exception& e) {
    *syntax_error = true;
    return absl::InvalidArgumentError(e.what());
  }
  if (!ok || !handler.status().ok()) {
    *syntax_error = handler.syntax_error();
    if (handler.status().ok()) {
      return absl::InvalidArgumentError("invalid JSON");
    }
    return handler.status();
  }
  return handler.TakeRoot();
}

// ---------------------------------------------------------------------------
// YAML documents

std::string Position(const YAML::Mark& mark) {
  if (mark.is_null()) return "";
  return absl::StrCat("line ", mark.line + 1, ", column ", mark.column + 1,
                      ": ");
}

// Thrown by YamlHandler to stop yaml-cpp; the reason is in the handler.
struct YamlAbort {};

struct YamlDocument {
  Value value;
  int start_pos;  // byte offset of the document's first token
};

// yaml-cpp 0.7 writes the double-quoted escapes \N and \_ (U+0085 and
// U+00A0) as single Latin-1 bytes, not UTF-8. The text it reads is UTF-8
// (CheckYamlCharacters), so such a byte in a scalar can only come from
// them: it is written as the UTF-8 that yaml.v2 gives.
std::string RepairLatin1Escapes(const std::string& text) {
  size_t i = 0;
  uint32_t rune;
  while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
  if (i == text.size()) return text;
  std::string out = text.substr(0, i);
  while (i < text.size()) {
    size_t n = DecodeUtf8(text, i, &rune);
    if (n == 0) {
      // 0x85 or 0xA0 alone: C2 85, C2 A0.
      out.push_back('\xC2');
      out.push_back(text[i]);
      ++i;
      continue;
    }
    out.append(text, i, n);
    i += n;
  }
  return out;
}

// Receives yaml-cpp's parser events and builds one Value per document.
class YamlHandler : public YAML::EventHandler {
 public:
  YamlHandler(absl::string_view text, const Limits& limits,
              std::vector<YamlDocument>* docs)
      : text_(text),
        docs_(docs),
        limits_(limits),
        builder_(limits),
        budget_(limits) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp starts a new document wherever the previous one's root node
    // ends, so "- a\nb: c" would be two documents. YAML wants `---` (or a
    // `...` ending the previous document) in between.
    if (!docs_->empty() && mark.pos <= doc_start_) {
      // yaml-cpp leaves a token that cannot start a node (a `,` outside a
      // flow collection) unconsumed and reports a null document in front of
      // it, then another, forever: a document that starts where the last
      // one did has consumed nothing.
      Fail(mark, UnexpectedTokenMessage(mark.pos));
    }
    if (!docs_->empty() && !StartsNewDocument(mark.pos)) {
      Fail(mark,
           "unexpected content after the end of the document (a new "
           "document must start with ---)");
    }
    builder_ = ValueBuilder(limits_);
    anchors_.clear();
    open_anchors_.clear();
    anchor_names_.clear();
    budget_.Reset();
    doc_start_ = mark.pos;
  }

  void OnDocumentEnd() override {
    std::string error = budget_.Finish();
    if (!error.empty()) {
      Fail(YAML::Mark::null_mark(), error,
           absl::StatusCode::kResourceExhausted);
    }
    docs_->push_back(YamlDocument{builder_.TakeRoot(), doc_start_});
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    AddScalar(mark, anchor, Value());
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag,
                YAML::anchor_t anchor, const std::string& text) override {
    AddScalar(mark, anchor, Resolve(mark, tag, RepairLatin1Escapes(text)));
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    const Value* target = nullptr;
    if (it != anchors_.end()) {
      target = it->second.position.has_value()
                   ? builder_.At(*it->second.position)
                   : &it->second.value;
    }
    if (target == nullptr) {
      Fail(mark, absl::StrCat("alias *", AnchorName(anchor),
                              " refers to a node that contains it, at ",
                              builder_.Path()));
    }
    std::string error = budget_.AddAlias(it->second.nodes);
    if (!error.empty()) Fail(mark, error, absl::StatusCode::kResourceExhausted);
    if (builder_.ExpectingKey()) {
      if (!target->IsScalar() && !target->IsNull()) {
        NonScalarKey(mark, target->kind());
      }
      SetKey(mark, internal::YamlKeyText(*target));
      return;
    }
    // Copy first: adding may reallocate the container `target` is in.
    Value copy = *target;
    Check(mark, builder_.Add(std::move(copy)));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value /*style*/) override {
    Open(mark, anchor, /*is_map=*/false);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/,
                  YAML::anchor_t anchor,
                  YAML::EmitterStyle::value /*style*/) override {
    Open(mark, anchor, /*is_map=*/true);
  }
  void OnMapEnd() override { Close(); }

  // yaml-cpp numbers anchors 1, 2, ... in the order it reports their names.
  void OnAnchor(const YAML::Mark& /*mark*/, const std::string& name) override {
    anchor_names_.push_back(name);
  }

  const absl::Status& status() const { return status_; }

  // For yaml-cpp's own depth limit, which it reports by exception.
  std::string Path() const { return builder_.Path(); }

 private:
  struct Anchor {
    // Containers are found in the tree being built when an alias needs
    // them, so that anchors no alias uses cost nothing; scalars (which may
    // be keys, not in the tree) are kept.
    std::optional<ValueBuilder::Position> position;
    Value value;
    size_t nodes = 1;  // as YamlNodeBudget counts them
  };

  [[noreturn]] void Fail(
      const YAML::Mark& mark, absl::string_view msg,
      absl::StatusCode code = absl::StatusCode::kInvalidArgument) {
    if (status_.ok()) {
      status_ = absl::Status(code, absl::StrCat(Position(mark), msg));
    }
    throw YamlAbort{};
  }

  [[noreturn]] void NonScalarKey(const YAML::Mark& mark, Value::Kind kind) {
    Fail(mark,
         absl::StrCat("map key must be a scalar, found a ", KindName(kind),
                      ", in the map at ", builder_.Path()));
  }

  std::string AnchorName(YAML::anchor_t anchor) const {
    if (anchor >= 1 && anchor <= anchor_names_.size()) {
      return anchor_names_[anchor - 1];
    }
    return absl::StrCat(anchor);
  }

  Value Resolve(const YAML::Mark& mark, const std::string& tag,
                const std::string& text) {
    std::optional<Value> v = internal::ResolveTaggedYamlScalar(tag, text);
    if (v.has_value()) return *std::move(v);
    absl::string_view name =
        absl::string_view(tag).substr(internal::kYamlTagPrefix.size());
    std::string quoted;
    AppendJsonString(&quoted, text);
    Fail(mark, absl::StrCat("cannot read ", quoted, " as !!", name, " at ",
                            builder_.Path()));
  }

  void SetKey(const YAML::Mark& mark, std::string key) {
    Check(mark, builder_.SetKey(std::move(key)));
  }

  void Check(const YAML::Mark& mark, const absl::Status& s) {
    if (!s.ok()) Fail(mark, s.message(), s.code());
  }

  void AddScalar(const YAML::Mark& mark, YAML::anchor_t anchor, Value v) {
    budget_.Add();
    if (builder_.ExpectingKey()) {
      std::string key = internal::YamlKeyText(v);
      if (anchor != YAML::NullAnchor) anchors_[anchor].value = std::move(v);
      SetKey(mark, std::move(key));
      return;
    }
    if (anchor != YAML::NullAnchor) anchors_[anchor].value = v;
    Check(mark, builder_.Add(std::move(v)));
  }

  void Open(const YAML::Mark& mark, YAML::anchor_t anchor, bool is_map) {
    open_anchors_.push_back({anchor, budget_.nodes()});
    budget_.Add();
    if (builder_.ExpectingKey()) {
      NonScalarKey(mark, is_map ? Value::Kind::kMap : Value::Kind::kList);
    }
    Check(mark, builder_.Open(is_map));
  }

  void Close() {
    Check(YAML::Mark::null_mark(), builder_.Close());
    auto [anchor, nodes_before] = open_anchors_.back();
    open_anchors_.pop_back();
    if (anchor != YAML::NullAnchor) {
      Anchor& a = anchors_[anchor];
      a.position = builder_.LastAddedPosition();
      a.nodes = budget_.nodes() - nodes_before;
    }
  }

  std::string UnexpectedTokenMessage(int pos) const {
    if (pos < 0 || static_cast<size_t>(pos) >= text_.size()) {
      return "unexpected end of the document";
    }
    std::string quoted;
    AppendJsonString(&quoted, text_.substr(pos, 1));
    return absl::StrCat("unexpected ", quoted,
                        " (not the start of a node; flow indicators belong "
                        "inside [...] or {...})");
  }

  // Whether the document whose first token is at byte `pos` follows a `---`
  // or `...` marker.
  bool StartsNewDocument(int pos) const {
    if (pos < 0 || static_cast<size_t>(pos) > text_.size()) return true;
    absl::string_view rest = text_.substr(pos);
    if (absl::StartsWith(rest, "---") || absl::StartsWith(rest, "%")) {
      return true;
    }
    // Walk back over blank and comment lines to the previous content line.
    absl::string_view before = text_.substr(0, pos);
    while (!before.empty()) {
      size_t nl = before.rfind('\n', before.size() - 1);
      absl::string_view line =
          nl == absl::string_view::npos ? before : before.substr(nl + 1);
      line = absl::StripAsciiWhitespace(line);
      if (!line.empty() && line[0] != '#') return absl::StartsWith(line, "...");
      if (nl == absl::string_view::npos) break;
      before = before.substr(0, nl);
    }
    return false;
  }

  absl::string_view text_;
  std::vector<YamlDocument>* docs_;
  const Limits& limits_;
  ValueBuilder builder_;
  internal::YamlNodeBudget budget_;
  absl::flat_hash_map<YAML::anchor_t, Anchor> anchors_;
  // With the budget's count before each open container.
  std::vector<std::pair<YAML::anchor_t, size_t>> open_anchors_;
  std::vector<std::string> anchor_names_;
  int doc_start_ = 0;
  absl::Status status_;
};

// Whether `rest` (a document from its start) holds nothing but a `---`
// marker, comments, blank lines and `...` markers.
bool IsBlankDocument(absl::string_view rest) {
  if (rest.substr(0, 3) == "---") rest.remove_prefix(3);
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    absl::string_view line = rest.substr(0, nl);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != absl::string_view::npos) {
      line.remove_prefix(first);
      if (line[0] != '#' && line.substr(0, 3) != "...") return false;
    }
    if (nl == absl::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  return true;
}

absl::StatusOr<std::vector<YamlDocument>> ParseYamlStreamWithYamlCpp(
    absl::string_view text, const Limits& limits) {
  std::vector<YamlDocument> docs;
  std::istringstream in{std::string(text)};
  YamlHandler handler(text, limits, &docs);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(handler)) {
    }
  } catch (const YamlAbort&) {
    return handler.status();
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp counts every node, scalars included, and refuses the one at
    // e.depth().
    size_t levels = static_cast<size_t>(e.depth() - 1);
    return absl::ResourceExhaustedError(absl::StrCat(
        Position(e.mark), NestingDescription(handler.Path(), levels + 1),
        " is over the YAML reader's own limit of ", levels,
        " levels (yaml-cpp's, below max_depth)"));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(Position(e.mark), e.msg));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("YAML parser failed: ", e.what()));
  }
  return docs;
}

absl::Status DocumentTooLarge(absl::string_view text, const Limits& limits) {
  return LimitError(absl::StrCat("document of ", text.size(), " bytes"),
                    "max_object_bytes", limits.max_object_bytes);
}

// Whether a document of `text` starts at byte `pos` (the start of a
// line): a `---` or `...` marker ends the document before it.
bool AtDocumentMarker(absl::string_view text, size_t pos) {
  absl::string_view rest = text.substr(pos);
  if (!absl::StartsWith(rest, "---") && !absl::StartsWith(rest, "...")) {
    return false;
  }
  return rest.size() == 3 || absl::ascii_isspace(rest[3]);
}

// Whether yaml.v2 (under the apiserver's sigs.k8s.io/yaml) reads code
// point `c` from a document: YAML's printable set.
bool IsYamlPrintable(uint32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) ||
         c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// The apiserver's YAML reader takes UTF-8 text of printable characters
// only ("invalid leading UTF-8 octet", "control characters are not
// allowed"); yaml-cpp would pass other bytes through into strings.
// `*has_cr` says whether the text holds a carriage return.
absl::Status CheckYamlCharacters(absl::string_view text, bool* has_cr) {
  size_t i = 0;
  uint32_t rune = 0;
  size_t n = 0;
  *has_cr = false;
  while (i < text.size()) {
    i += internal::PlainAsciiPrefix(text.data() + i, text.data() + text.size());
    if (i == text.size()) break;
    n = DecodeUtf8(text, i, &rune);
    if (n == 0 || !IsYamlPrintable(rune)) break;
    *has_cr = *has_cr || rune == '\r';
    i += n;
  }
  if (i == text.size()) return absl::OkStatus();
  size_t line = 1, column = 1;
  for (size_t k = 0; k < i; ++k) {
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  std::string what = n == 0 ? absl::StrFormat(
                                  "invalid UTF-8 (byte 0x%02x): YAML must be "
                                  "UTF-8",
                                  static_cast<unsigned char>(text[i]))
                            : absl::StrFormat(
                                  "control character U+%04X is not allowed in "
                                  "YAML",
                                  rune);
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ", column ", column, ": ", what));
}

// Holds each document of a YAML stream to max_object_bytes, before any of
// it is parsed: documents are separated by marker lines, which cannot occur
// inside one.
absl::Status CheckDocumentBytes(absl::string_view text, const Limits& limits) {
  if (text.size() <= limits.max_object_bytes) return absl::OkStatus();
  size_t start = 0, line = 1, start_line = 1, index = 0;
  for (size_t pos = 0;; ++line) {
    size_t end = text.find('\n', pos);
    bool last = end == absl::string_view::npos;
    size_t next = last ? text.size() : end + 1;
    if (last || AtDocumentMarker(text, next)) {
      if (next - start > limits.max_object_bytes) {
        std::string where = index == 0 && last
                                ? "document"
                                : absl::StrCat("document at line ", start_line);
        return LimitError(absl::StrCat(where, " of ", next - start, " bytes"),
                          "max_object_bytes", limits.max_object_bytes);
      }
      start = next;
      start_line = line + 1;
      ++index;
    }
    if (last) return absl::OkStatus();
    pos = next;
  }
}

// The documents of `text`: from the fast reader when it takes the text and
// `fast` allows it, else from yaml-cpp. A trailing empty document after a
// final `---` is dropped.
absl::StatusOr<std::vector<YamlDocument>> ParseYamlStream(
    absl::string_view text, const Limits& limits, bool fast) {
  absl::Status bytes = CheckDocumentBytes(text, limits);
  if (!bytes.ok()) return bytes;
  bool has_cr = false;
  if (absl::Status chars = CheckYamlCharacters(text, &has_cr); !chars.ok()) {
    return chars;
  }
  std::vector<YamlDocument> docs;
  std::vector<internal::FastYamlDocument> fast_docs;
  if (fast && internal::FastParseYamlStream(
                  text, limits, &fast_docs,
                  has_cr ? internal::YamlBytes::kUnchecked
                         : internal::YamlBytes::kPrintableWithoutCr)) {
    docs.reserve(fast_docs.size());
    for (internal::FastYamlDocument& d : fast_docs) {
      docs.push_back(
          YamlDocument{std::move(d.value), static_cast<int>(d.start_pos)});
    }
  } else {
    absl::StatusOr<std::vector<YamlDocument>> slow =
        ParseYamlStreamWithYamlCpp(text, limits);
    if (!slow.ok()) return slow.status();
    docs = *std::move(slow);
  }
  if (docs.size() > 1 && docs.back().value.IsNull()) {
    size_t pos = static_cast<size_t>(std::max(docs.back().start_pos, 0));
    if (pos <= text.size() && IsBlankDocument(text.substr(pos))) {
      docs.pop_back();
    }
  }
  return docs;
}

absl::StatusOr<std::vector<Value>> ParseYamlDocumentsImpl(
    absl::string_view text, const Limits& limits, bool fast) {
  absl::StatusOr<std::vector<YamlDocument>> docs =
      ParseYamlStream(text, limits, fast);
  if (!docs.ok()) return docs.status();
  std::vector<Value> out;
  out.reserve(docs->size());
  for (YamlDocument& d : *docs) out.push_back(std::move(d.value));
  return out;
}

absl::StatusOr<Value> ParseYamlImpl(absl::string_view text,
                                    const Limits& limits, bool fast) {
  absl::StatusOr<std::vector<YamlDocument>> docs =
      ParseYamlStream(text, limits, fast);
  if (!docs.ok()) return docs.status();
  if (docs->empty()) return Value();
  if (docs->size() > 1) {
    // An error: yaml-cpp's reading of the text says where.
    if (fast) return ParseYamlImpl(text, limits, false);
    // Report where the second document starts.
    size_t pos = static_cast<size_t>(std::max((*docs)[1].start_pos, 0));
    size_t line = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
      if (text[i] == '\n') ++line;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "line ", line, ": expected a single YAML document, found another"));
  }
  return std::move((*docs)[0].value);
}

}  // namespace

namespace internal {

absl::StatusOr<Value> ParseJsonWithNlohmann(absl::string_view text,
                                            const Limits& limits) {
  if (text.size() > limits.max_object_bytes) {
    return DocumentTooLarge(text, limits);
  }
  bool syntax_error;
  return ParseJsonImpl(text, limits, &syntax_error);
}

absl::StatusOr<Value> ParseYamlWithYamlCpp(absl::string_view text,
                                           const Limits& limits) {
  if (text.size() > limits.max_object_bytes) {
    return DocumentTooLarge(text, limits);
  }
  return ParseYamlImpl(text, limits, /*fast=*/false);
}

absl::StatusOr<std::vector<Value>> ParseYamlDocumentsWithYamlCpp(
    absl::string_view text, const Limits& limits) {
  return ParseYamlDocumentsImpl(text, limits, /*fast=*/false);
}

}  // namespace internal

absl::StatusOr<Value> ParseJson(absl::string_view text, const Limits& limits) {
  if (text.size() > limits.max_object_bytes) {
    return DocumentTooLarge(text, limits);
  }
  std::optional<Value> fast = internal::FastParseJson(text, limits);
  if (fast.has_value()) return *std::move(fast);
  bool syntax_error;
  return ParseJsonImpl(text, limits, &syntax_error);
}

absl::StatusOr<std::vector<Value>> ParseYamlDocuments(absl::string_view text,
                                                      const Limits& limits) {
  return ParseYamlDocumentsImpl(text, limits, /*fast=*/true);
}

absl::StatusOr<Value> ParseYaml(absl::string_view text, const Limits& limits) {
  if (text.size() > limits.max_object_bytes) {
    return DocumentTooLarge(text, limits);
  }
  return ParseYamlImpl(text, limits, /*fast=*/true);
}

absl::StatusOr<Value> ParseYamlOrJson(absl::string_view text,
                                      const Limits& limits) {
  if (text.size() > limits.max_object_bytes) {
    return DocumentTooLarge(text, limits);
  }
  size_t first = 0;
  while (first < text.size() && IsJsonSpace(text[first])) ++first;
  if (first < text.size() && (text[first] == '{' || text[first] == '[')) {
    std::optional<Value> fast = internal::FastParseJson(text, limits);
    if (fast.has_value()) return *std::move(fast);
    bool syntax_error;
    absl::StatusOr<Value> json = ParseJsonImpl(text, limits, &syntax_error);
    if (json.ok() || !syntax_error) return json;
    absl::StatusOr<Value> yaml = ParseYaml(text, limits);
    if (yaml.ok()) return yaml;
    return json.status();
  }
  return ParseYaml(text, limits);
}

absl::StatusOr<std::vector<Value>> ParseYamlOrJsonDocuments(
    absl::string_view text, const Limits& limits) {
  size_t first = 0;
  while (first < text.size() && IsJsonSpace(text[first])) ++first;
  if (first < text.size() && (text[first] == '{' || text[first] == '[')) {
    absl::StatusOr<Value> v = ParseYamlOrJson(text, limits);
    if (!v.ok()) return v.status();
    std::vector<Value> docs;
    docs.push_back(*std::move(v));
    return docs;
  }
  return ParseYamlDocuments(text, limits);
}

}  // namespace smdx
