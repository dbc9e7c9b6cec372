#include "smdx/value/patch.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "smdx/value/emit.h"
#include "smdx/value/internal/go_numbers.h"

namespace smdx {

void internal::DropNullEntries(Value* v) {
  if (v->IsMap()) {
    Map::Entries& entries = v->map().entries();
    size_t kept = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].value.IsNull()) continue;
      DropNullEntries(&entries[i].value);
      if (kept != i) entries[kept] = std::move(entries[i]);
      ++kept;
    }
    entries.resize(kept);
  } else if (v->IsList()) {
    for (Value& item : v->list()) DropNullEntries(&item);
  }
}

namespace {

// ---- Merge patch ------------------------------------------------------------

Value Pruned(Value v) {
  internal::DropNullEntries(&v);
  return v;
}

void MergeInto(Map* doc, const Map& patch);

// `patch` merged over `cur` (not null).
Value Merged(Value cur, const Value& patch) {
  if (!cur.IsMap()) return Pruned(patch);
  if (!patch.IsMap()) return patch;
  MergeInto(&cur.map(), patch.map());
  return cur;
}

void MergeInto(Map* doc, const Map& patch) {
  for (const MapEntry& e : patch) {
    if (e.value.IsNull()) {
      doc->Erase(e.key);
      continue;
    }
    Value* cur = doc->Find(e.key);
    if (cur == nullptr || cur->IsNull()) {
      doc->Set(e.key, Pruned(e.value));
    } else {
      *cur = Merged(std::move(*cur), e.value);
    }
  }
}

// ---- Making a merge patch ------------------------------------------------

// json-patch's getDiff: what makes `a` into `b` (numbers compared as
// floats).
Map DiffObjects(const Map& a, const Map& b) {
  Map into;
  for (const MapEntry& e : b) {
    const Value* had = a.Find(e.key);
    if (had == nullptr) {
      into.Set(e.key, e.value);
    } else if (had->IsMap() && e.value.IsMap()) {
      Map sub = DiffObjects(had->map(), e.value.map());
      if (!sub.empty()) into.Set(e.key, Value(std::move(sub)));
    } else if (*had != e.value) {
      into.Set(e.key, e.value);
    }
  }
  for (const MapEntry& e : a) {
    if (b.Find(e.key) == nullptr) into.Set(e.key, Value());
  }
  return into;
}

// keepOrDeleteNullInObj: only the nulls of `m` (`nulls`), or all but them;
// an object left empty goes, an empty object kept as a value stays.
Map KeptNulls(const Map& m, bool nulls) {
  Map out;
  for (const MapEntry& e : m) {
    if (e.value.IsNull()) {
      if (nulls) out.Set(e.key, Value());
    } else if (e.value.IsMap() && !e.value.map().empty()) {
      Map sub = KeptNulls(e.value.map(), nulls);
      if (!sub.empty()) out.Set(e.key, Value(std::move(sub)));
    } else if (!nulls) {
      out.Set(e.key, e.value);
    }
  }
  return out;
}

// mergepatch.HasConflicts: a key both patches hold with values that differ
// (objects key by key, lists item by item).
bool Conflicts(const Value& left, const Value& right) {
  if (left.IsMap()) {
    if (!right.IsMap()) return true;
    for (const MapEntry& e : left.map()) {
      const Value* other = right.map().Find(e.key);
      if (other != nullptr && Conflicts(e.value, *other)) return true;
    }
    return false;
  }
  if (left.IsList()) {
    if (!right.IsList() || left.list().size() != right.list().size()) {
      return true;
    }
    for (size_t i = 0; i < left.list().size(); ++i) {
      if (Conflicts(left.list()[i], right.list()[i])) return true;
    }
    return false;
  }
  return left != right;
}

// ---- JSON patch -------------------------------------------------------------

// A key of a path, "~1" and "~0" read as '/' and '~' (left to right).
std::string DecodeKey(absl::string_view k) {
  std::string out;
  out.reserve(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    if (k[i] == '~' && i + 1 < k.size() && (k[i + 1] == '1' || k[i + 1] == '0')) {
      out.push_back(k[i + 1] == '1' ? '/' : '~');
      ++i;
    } else {
      out.push_back(k[i]);
    }
  }
  return out;
}

// A list index as Go's strconv.Atoi reads it: an optional sign, then
// decimal digits only, within 64 bits.
bool ParseIndex(absl::string_view s, int64_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return false;
  uint64_t n = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const uint64_t d = static_cast<uint64_t>(s[i] - '0');
    if (n > (uint64_t{1} << 63) / 10) return false;
    n = n * 10 + d;
    if (n > (uint64_t{1} << 63) - (negative ? 0 : 1)) return false;
  }
  *out = negative ? static_cast<int64_t>(0 - n) : static_cast<int64_t>(n);
  return true;
}

class JsonPatcher {
 public:
  JsonPatcher(Value doc, int64_t max_copy_bytes)
      : doc_(std::move(doc)), max_copy_bytes_(max_copy_bytes) {}

  absl::Status Run(const List& ops) {
    for (size_t i = 0; i < ops.size(); ++i) {
      index_ = i;
      if (absl::Status st = One(ops[i]); !st.ok()) return st;
    }
    return absl::OkStatus();
  }

  Value Take() { return std::move(doc_); }

 private:
  // The parts of a path: the containers' keys and the last key.
  struct Split {
    std::vector<std::string> parts;
    std::string key;
  };

  absl::Status Fail(absl::string_view op, absl::string_view path,
                    absl::string_view why) const {
    return absl::FailedPreconditionError(absl::StrCat(
        "operation ", index_, " (", op, ") does not apply: \"", path, "\": ",
        why));
  }

  // A string field of the operation: "" and false when absent, null or
  // not a string.
  static bool Field(const Value& op, absl::string_view name,
                    std::string* out) {
    const Value* v = Find(op, name);
    if (v == nullptr || !v->IsString()) return false;
    *out = v->AsString();
    return true;
  }

  static bool SplitPath(absl::string_view path, Split* out) {
    std::vector<absl::string_view> s = absl::StrSplit(path, '/');
    if (s.size() < 2) return false;
    for (size_t i = 1; i + 1 < s.size(); ++i)
      out->parts.push_back(DecodeKey(s[i]));
    out->key = DecodeKey(s.back());
    return true;
  }

  // The item of list `l` at `key` (an existing index, negative ones from
  // the end), or -1.
  static int64_t ItemIndex(const List& l, absl::string_view key) {
    int64_t i = 0;
    const int64_t n = static_cast<int64_t>(l.size());
    if (!ParseIndex(key, &i)) return -1;
    if (i < 0) {
      if (i < -n) return -1;
      i += n;
    }
    return i < n ? i : -1;
  }

  // The object or list that holds the last key of `path`, or null.
  Value* Container(const Split& s) {
    Value* cur = &doc_;
    for (const std::string& part : s.parts) {
      Value* next = nullptr;
      if (cur->IsMap()) {
        next = cur->map().Find(part);
      } else if (cur->IsList()) {
        const int64_t i = ItemIndex(cur->list(), part);
        if (i >= 0) next = &cur->list()[static_cast<size_t>(i)];
      }
      if (next == nullptr || !(next->IsMap() || next->IsList())) return nullptr;
      cur = next;
    }
    return cur;
  }

  // What `key` of container `c` holds: nullopt when a list has no such
  // item; null for an object's missing key (json-patch.v4 reads both so).
  static std::optional<Value> Get(const Value& c, absl::string_view key) {
    if (c.IsMap()) {
      const Value* v = c.map().Find(key);
      return v != nullptr ? *v : Value();
    }
    const int64_t i = ItemIndex(c.list(), key);
    if (i < 0) return std::nullopt;
    return c.list()[static_cast<size_t>(i)];
  }

  absl::Status Add(Value* c, const std::string& key, Value v,
                   absl::string_view op, absl::string_view path) {
    if (c->IsMap()) {
      c->map().Set(key, std::move(v));
      return absl::OkStatus();
    }
    List& l = c->list();
    if (key == "-") {
      l.push_back(std::move(v));
      return absl::OkStatus();
    }
    int64_t i = 0;
    if (!ParseIndex(key, &i)) {
      return Fail(op, path, absl::StrCat("\"", key, "\" is not a list index"));
    }
    const int64_t n = static_cast<int64_t>(l.size()) + 1;
    if (i >= n || i < -n) {
      return Fail(op, path, absl::StrCat("index ", i, " is out of range"));
    }
    if (i < 0) i += n;
    l.insert(l.begin() + i, std::move(v));
    return absl::OkStatus();
  }

  absl::Status Remove(Value* c, const std::string& key, absl::string_view op,
                      absl::string_view path) {
    if (c->IsMap()) {
      if (!c->map().Erase(key)) return Fail(op, path, "no such key");
      return absl::OkStatus();
    }
    List& l = c->list();
    const int64_t i = ItemIndex(l, key);
    if (i < 0) return Fail(op, path, "no such item");
    l.erase(l.begin() + i);
    return absl::OkStatus();
  }

  // Equal as json-patch.v4's test compares (see the header).
  static bool Equal(const Value& a, const Value& b) {
    if (a.kind() != b.kind()) return false;
    if (a.IsMap()) {
      if (a.map().size() != b.map().size()) return false;
      for (const MapEntry& e : a.map()) {
        const Value* o = b.map().Find(e.key);
        if (o == nullptr || !Equal(e.value, *o)) return false;
      }
      return true;
    }
    if (a.IsList()) {
      if (a.list().size() != b.list().size()) return false;
      for (size_t i = 0; i < a.list().size(); ++i) {
        if (!Equal(a.list()[i], b.list()[i])) return false;
      }
      return true;
    }
    return a == b;
  }

  absl::Status One(const Value& op) {
    std::string kind;
    if (!Field(op, "op", &kind)) kind = "unknown";
    const Value* value = Find(op, "value");
    // A value left out, or null, is null.
    const Value v = value != nullptr ? *value : Value();
    if (kind != "add" && kind != "remove" && kind != "replace" &&
        kind != "move" && kind != "copy" && kind != "test") {
      return Fail(kind, "", "unknown operation");
    }
    std::string path;
    if (!Field(op, "path", &path)) {
      return Fail(kind, "", "the operation has no path (a string)");
    }
    if (kind == "replace" && path.empty()) {
      if (!v.IsMap() && !v.IsList()) {
        return Fail(kind, path, "the document can only be replaced with an "
                                "object or a list");
      }
      doc_ = v;
      return absl::OkStatus();
    }
    if (kind == "test" && path.empty()) {
      if (value == nullptr || !Equal(doc_, v))
        return Fail(kind, path, "the test failed");
      return absl::OkStatus();
    }
    std::optional<Value> moved;  // what move and copy take from `from`
    if (kind == "move" || kind == "copy") {
      std::string from;
      if (!Field(op, "from", &from)) {
        return Fail(kind, path, "the operation has no from (a string)");
      }
      Split f;
      Value* fc = SplitPath(from, &f) ? Container(f) : nullptr;
      if (fc == nullptr) return Fail(kind, from, "no such path");
      moved = Get(*fc, f.key);
      if (!moved.has_value()) return Fail(kind, from, "no such item");
      if (kind == "move") {
        if (absl::Status st = Remove(fc, f.key, kind, from); !st.ok())
          return st;
      } else {
        // (A null is no copy: json-patch.v4 counts nothing for it.)
        if (!moved->IsNull())
          copied_ += static_cast<int64_t>(ToJson(*moved).size());
        if (max_copy_bytes_ > 0 && copied_ > max_copy_bytes_) {
          return absl::ResourceExhaustedError(absl::StrCat(
              "the copies of the JSON patch add up to ", copied_,
              " bytes, more than the ", max_copy_bytes_, " allowed"));
        }
      }
    }
    Split s;
    Value* c = SplitPath(path, &s) ? Container(s) : nullptr;
    if (c == nullptr) return Fail(kind, path, "no such path");
    if (kind == "add") return Add(c, s.key, v, kind, path);
    if (kind == "move" || kind == "copy")
      return Add(c, s.key, *std::move(moved), kind, path);
    if (kind == "remove") return Remove(c, s.key, kind, path);
    if (kind == "replace") {
      if (c->IsMap()) {
        c->map().Set(s.key, v);
        return absl::OkStatus();
      }
      const int64_t i = ItemIndex(c->list(), s.key);
      if (i < 0) return Fail(kind, path, "no such item");
      c->list()[static_cast<size_t>(i)] = v;
      return absl::OkStatus();
    }
    // test
    std::optional<Value> got = Get(*c, s.key);
    if (!got.has_value()) return Fail(kind, path, "no such item");
    const bool pass = got->IsNull() ? v.IsNull()
                                    : value != nullptr && Equal(*got, v);
    if (!pass) return Fail(kind, path, "the test failed");
    return absl::OkStatus();
  }

  Value doc_;
  int64_t max_copy_bytes_;
  int64_t copied_ = 0;
  size_t index_ = 0;
};

}  // namespace

absl::StatusOr<Value> ApplyMergePatch(const Value& doc, const Value& patch) {
  if (!patch.IsMap()) {
    return absl::InvalidArgumentError(
        "a merge patch is an object, not a list, a scalar or null");
  }
  if (!doc.IsMap()) return Pruned(patch);
  Value out = doc;
  MergeInto(&out.map(), patch.map());
  return out;
}

absl::StatusOr<Value> CreateThreeWayMergePatch(const Value& original,
                                               const Value& modified,
                                               const Value& current) {
  Value docs[3] = {original, modified, current};
  for (Value& d : docs) {
    if (d.IsNull()) d = Value::MakeMap();
    if (!d.IsMap()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a document to make a merge patch of is a ", KindName(d.kind()),
          ", not an object"));
    }
    internal::ToGoFloats(&d);
  }
  const Value changes(
      KeptNulls(DiffObjects(docs[2].map(), docs[1].map()), false));
  Value deletions(KeptNulls(DiffObjects(docs[0].map(), docs[1].map()), true));
  if (Conflicts(changes, deletions)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the changes ", ToJsonSorted(changes),
        " conflict with the deletions ", ToJsonSorted(deletions)));
  }
  MergeInto(&deletions.map(), changes.map());
  internal::FromGoFloats(&deletions);
  return deletions;
}

absl::StatusOr<Value> ApplyJsonPatch(const Value& doc, const Value& patch,
                                     int64_t max_copy_bytes) {
  if (!patch.IsList()) {
    return absl::InvalidArgumentError(
        "a JSON patch is a list of operations");
  }
  if (patch.list().size() > kMaxJsonPatchOperations) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a JSON patch may hold at most ", kMaxJsonPatchOperations,
        " operations, this one holds ", patch.list().size()));
  }
  // As the apiserver decodes the operations first (any field validation
  // but Ignore): each an object or null, its op, path and from strings.
  for (size_t i = 0; i < patch.list().size(); ++i) {
    const Value& op = patch.list()[i];
    if (op.IsNull()) continue;
    if (!op.IsMap()) {
      return absl::InvalidArgumentError(
          absl::StrCat("operation ", i, " of the JSON patch is not an object"));
    }
    for (absl::string_view field : {"op", "path", "from"}) {
      const Value* v = Find(op, field);
      if (v != nullptr && !v->IsNull() && !v->IsString()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "operation ", i, " of the JSON patch: its ", field,
            " is not a string"));
      }
    }
  }
  JsonPatcher p(doc, max_copy_bytes);
  if (absl::Status st = p.Run(patch.list()); !st.ok()) return st;
  return p.Take();
}

}  // namespace smdx
