#include "smdx/fieldmanager/managed_fields.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/typed/typed.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

namespace smdx {

namespace {

std::string Quote(absl::string_view s) {
  std::string out;
  AppendJsonString(&out, s);
  return out;
}

constexpr absl::string_view kEntryFields[] = {
    "manager",    "operation", "apiVersion", "time",
    "fieldsType", "fieldsV1",  "subresource"};

// One decoded entry, before it joins the state.
struct Entry {
  ManagerIdentity id;
  std::string key;  // the identity, encoded
  std::optional<absl::Time> time;
  Set set;
  // The expected set, when the entry holds exactly its encoding (`set` is
  // then not read).
  std::shared_ptr<const Set> expected;
  // The fieldsV1 value, when it is the canonical encoding of `set`.
  std::optional<Value> canonical;
  // Whether the reconcile against the type it was read for leaves `set`
  // as it is.
  bool reconciled = false;
};

// Where entry `index` is, for an error message (made only for one).
std::string EntryPath(size_t index) {
  return absl::StrCat(".metadata.managedFields[", index, "]");
}

absl::StatusOr<Entry> DecodeEntry(const Value& e, size_t index,
                                  const Limits& limits,
                                  const Type* reconcile_for,
                                  const ExpectedEntry* expected) {
  auto fail = [&](absl::string_view field, absl::string_view what) {
    return absl::InvalidArgumentError(
        field.empty() ? absl::StrCat(EntryPath(index), ": ", what)
                      : absl::StrCat(EntryPath(index), ".", field, ": ", what));
  };
  if (!e.IsMap()) return fail("", "expected a map (a managedFields entry)");
  for (const MapEntry& f : e.map()) {
    if (std::find(std::begin(kEntryFields), std::end(kEntryFields), f.key) ==
        std::end(kEntryFields)) {
      return fail(f.key, "unknown field of a managedFields entry");
    }
  }
  Entry out;
  // String fields; null counts as absent, as in Go's decoder.
  std::string strs[5];
  const char* names[5] = {"manager", "operation", "apiVersion", "fieldsType",
                          "subresource"};
  for (int i = 0; i < 5; ++i) {
    const Value* v = e.map().Find(names[i]);
    if (v == nullptr || v->IsNull()) continue;
    if (!v->IsString()) return fail(names[i], "expected a string");
    strs[i] = v->AsString();
  }
  out.id = ManagerIdentity{strs[0], strs[1], strs[2], strs[4]};
  if (out.id.operation != "Apply" && out.id.operation != "Update") {
    return fail("operation", absl::StrCat("must be Apply or Update, got ",
                                          Quote(out.id.operation)));
  }
  if (out.id.api_version.empty())
    return fail("apiVersion", "must not be empty");
  if (strs[3].empty()) return fail("fieldsType", "missing (must be FieldsV1)");
  if (strs[3] != "FieldsV1") {
    return fail("fieldsType",
                absl::StrCat("must be FieldsV1, got ", Quote(strs[3])));
  }
  if (const Value* t = e.map().Find("time"); t != nullptr && !t->IsNull()) {
    if (!t->IsString()) return fail("time", "expected an RFC 3339 time");
    absl::StatusOr<absl::Time> parsed = ParseManagedTime(t->AsString());
    if (!parsed.ok()) return fail("time", parsed.status().message());
    out.time = *parsed;
  }
  out.key = EncodeManagerIdentity(out.id);
  if (const Value* f = e.map().Find("fieldsV1"); f != nullptr && !f->IsNull()) {
    if (expected != nullptr && expected->set != nullptr &&
        out.key == expected->key &&
        FieldsV1ValueEncodes(*f, *expected->set, limits)) {
      out.expected = expected->set;
      out.reconciled = reconcile_for != nullptr;
      out.canonical = *f;
      return out;
    }
    bool canonical = false;
    absl::StatusOr<Set> s =
        reconcile_for != nullptr
            ? FieldsV1FromValueFor(*reconcile_for, *f, limits, &canonical,
                                   &out.reconciled)
            : FieldsV1FromValue(*f, limits, &canonical);
    if (!s.ok()) {
      return absl::Status(
          s.status().code(),
          absl::StrCat(EntryPath(index), ".fieldsV1: ", s.status().message()));
    }
    out.set = *std::move(s);
    if (canonical) out.canonical = *f;
  }
  return out;
}

}  // namespace

std::string EncodeManagerIdentity(const ManagerIdentity& id) {
  std::string out;
  // Sized once for the plain case (no escapes): this runs for every entry
  // read and every request.
  out.reserve(60 + id.manager.size() + id.operation.size() +
              id.api_version.size() + id.subresource.size());
  out.push_back('{');
  auto field = [&](absl::string_view name, const std::string& v) {
    if (v.empty()) return;
    if (out.size() > 1) out.push_back(',');
    out.push_back('"');
    out.append(name.data(), name.size());
    out.append("\":");
    if (JsonStringIsPlain(v)) {
      out.push_back('"');
      out.append(v);
      out.push_back('"');
    } else {
      AppendJsonString(&out, v);
    }
  };
  field("manager", id.manager);
  field("operation", id.operation);
  if (id.operation != "Apply") field("apiVersion", id.api_version);
  field("subresource", id.subresource);
  out.push_back('}');
  return out;
}

namespace {

// Reads a key of the shape EncodeManagerIdentity writes when no string
// needs an escape: {"name":"value",...} with the four names, each at most
// once. False for anything else (the JSON reader then decides).
bool DecodePlainIdentity(absl::string_view key, ManagerIdentity* id) {
  if (key.size() < 2 || key.front() != '{' || key.back() != '}') return false;
  size_t pos = 1;
  const size_t end = key.size() - 1;
  // A plain string at `pos` (its opening quote), moved past.
  auto str = [&](absl::string_view* out) {
    if (pos >= end || key[pos] != '"') return false;
    const size_t start = ++pos;
    while (pos < end && key[pos] != '"') {
      const unsigned char c = static_cast<unsigned char>(key[pos]);
      if (c == '\\' || c < 0x20 || c >= 0x80) return false;
      ++pos;
    }
    if (pos >= end) return false;
    *out = key.substr(start, pos - start);
    ++pos;
    return true;
  };
  bool seen[4] = {false, false, false, false};
  while (pos < end) {
    absl::string_view name, value;
    if (!str(&name) || pos >= end || key[pos++] != ':' || !str(&value))
      return false;
    int i = name == "manager"       ? 0
            : name == "operation"   ? 1
            : name == "apiVersion"  ? 2
            : name == "subresource" ? 3
                                    : -1;
    if (i < 0 || seen[i]) return false;
    seen[i] = true;
    std::string* fields[4] = {&id->manager, &id->operation, &id->api_version,
                              &id->subresource};
    fields[i]->assign(value.data(), value.size());
    if (pos < end && key[pos++] != ',') return false;
    if (pos == end && key[pos - 1] == ',') return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<ManagerIdentity> DecodeManagerIdentity(absl::string_view key) {
  if (ManagerIdentity id; DecodePlainIdentity(key, &id)) return id;
  absl::StatusOr<Value> v = ParseJson(std::string(key));
  if (!v.ok() || !v->IsMap())
    return absl::InvalidArgumentError("not a manager identity");
  ManagerIdentity id;
  auto str = [&](absl::string_view k) {
    const Value* f = v->map().Find(k);
    return f != nullptr && f->IsString() ? f->AsString() : std::string();
  };
  id.manager = str("manager");
  id.operation = str("operation");
  id.api_version = str("apiVersion");
  id.subresource = str("subresource");
  return id;
}

std::string DisplayManager(absl::string_view key) {
  absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
  if (!id.ok()) return Quote(key);
  std::string out = Quote(id->manager);
  if (!id->subresource.empty())
    absl::StrAppend(&out, " with subresource ", Quote(id->subresource));
  if (id->operation == "Update")
    absl::StrAppend(&out, " using ", id->api_version);
  return out;
}

absl::Status ValidateManagerNames(const ManagedState& state) {
  // A name is part of its identity key: with every key short enough, so
  // is every name.
  bool short_keys = true;
  for (const auto& entry : state.fields)
    short_keys = short_keys && entry.first.size() <= kMaxManagerNameLength;
  if (short_keys) return absl::OkStatus();
  std::vector<std::string> order = CanonicalOrder(state);
  for (size_t i = 0; i < order.size(); ++i) {
    absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(order[i]);
    if (!id.ok() || id->manager.size() <= kMaxManagerNameLength) continue;
    return absl::InvalidArgumentError(
        absl::StrCat(".metadata.managedFields[", i,
                     "].manager: Too long: must have at most ",
                     kMaxManagerNameLength, " bytes"));
  }
  return absl::OkStatus();
}

const Value* FindManagedFields(const Value& object) {
  const Value* meta = Find(object, "metadata");
  return meta != nullptr ? Find(*meta, "managedFields") : nullptr;
}

bool IsManagedFieldsReset(const Value& list) {
  if (!list.IsList()) return false;
  if (list.list().empty()) return true;
  return list.list().size() == 1 && list.list()[0].IsMap() &&
         list.list()[0].map().empty();
}

absl::StatusOr<ManagedState> DecodeManagedFieldsList(
    const Value& list, const Limits& limits, const Type* reconcile_for,
    const ExpectedEntry* expected) {
  ManagedState out;
  if (list.IsNull()) return out;
  if (!list.IsList()) {
    return absl::InvalidArgumentError(
        ".metadata.managedFields: expected a list");
  }
  if (list.list().size() > limits.max_managed_fields_entries) {
    return LimitError(
        absl::StrCat(".metadata.managedFields: ", list.list().size(),
                     " entries"),
        "max_managed_fields_entries", limits.max_managed_fields_entries);
  }
  for (size_t i = 0; i < list.list().size(); ++i) {
    absl::StatusOr<Entry> e =
        DecodeEntry(list.list()[i], i, limits, reconcile_for, expected);
    if (!e.ok()) return e.status();
    // A later entry with the same identity replaces an earlier one, as in
    // the apiserver (which never writes two).
    const std::string& key = e->key;
    const bool applied = e->id.operation == "Apply";
    VersionedSet& vs = out.fields[key] =
        e->expected != nullptr
            ? VersionedSet(std::move(e->expected), e->id.api_version, applied)
            : VersionedSet(std::move(e->set), e->id.api_version, applied);
    if (e->reconciled) {
      vs.MarkReconciled(reconcile_for->schema().id(), reconcile_for->root());
    }
    out.times.erase(key);
    if (e->time) out.times.emplace(key, *e->time);
    out.decoded.erase(key);
    if (e->canonical) {
      // The key's last use: it moves.
      out.decoded.emplace(std::move(e->key),
                          DecodedFieldsV1{vs.shared_set(),
                                          *std::move(e->canonical)});
    }
  }
  return out;
}

absl::StatusOr<ManagedState> DecodeManagedFields(
    const Value& object, const Limits& limits, const Type* reconcile_for,
    const ExpectedEntry* expected) {
  const Value* list = FindManagedFields(object);
  if (list == nullptr) return ManagedState{};
  return DecodeManagedFieldsList(*list, limits, reconcile_for, expected);
}

namespace {

// An entry as it is written: the identity completed from its set.
struct Row {
  const std::string* key;
  ManagerIdentity id;
  std::optional<absl::Time> time;
  const Set* set;
};

// The entries of `state` in the apiserver's order: operation, then time in
// whole seconds (none counts as 0), manager, apiVersion, subresource.
std::vector<Row> SortedRows(const ManagedState& state) {
  std::vector<Row> rows;
  rows.reserve(state.fields.size());
  for (const auto& [key, vs] : state.fields) {
    absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
    // Keys made by this library always decode; a plain name (an SMD-level
    // caller's manager) is kept as the manager name.
    Row row{&key, id.ok() ? *id : ManagerIdentity{key, "", "", ""},
            std::nullopt, &vs.set()};
    row.id.api_version = vs.api_version();
    if (vs.applied()) row.id.operation = "Apply";
    if (row.id.operation.empty()) row.id.operation = "Update";
    if (auto t = state.times.find(key); t != state.times.end())
      row.time = t->second;
    rows.push_back(std::move(row));
  }
  auto seconds = [](const Row& r) {
    return r.time ? absl::ToUnixSeconds(*r.time) : int64_t{0};
  };
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (a.id.operation != b.id.operation)
      return a.id.operation < b.id.operation;
    if (seconds(a) != seconds(b)) return seconds(a) < seconds(b);
    if (a.id.manager != b.id.manager) return a.id.manager < b.id.manager;
    if (a.id.api_version != b.id.api_version)
      return a.id.api_version < b.id.api_version;
    return a.id.subresource < b.id.subresource;
  });
  return rows;
}

// The encoding of `set`, the entry `key` has: the value it was decoded
// from while the set is the same.
Value FieldsV1Of(const ManagedState& state, const std::string& key,
                 const Set& set) {
  if (auto d = state.decoded.find(key); d != state.decoded.end()) {
    const Set& read = *d->second.set;
    if (&read == &set || read == set) return d->second.value;
  }
  return FieldsV1ToValue(set);
}

}  // namespace

std::vector<std::string> CanonicalOrder(const ManagedState& state) {
  std::vector<std::string> keys;
  for (const Row& r : SortedRows(state)) keys.push_back(*r.key);
  return keys;
}

Value EncodeManagedFields(const ManagedState& state) {
  std::vector<Row> rows = SortedRows(state);
  List out;
  out.reserve(rows.size());
  for (const Row& r : rows) {
    Map m;
    m.Reserve(7);  // every field an entry may have: no regrowth
    if (!r.id.manager.empty()) m.Append("manager", Value(r.id.manager));
    m.Append("operation", Value(r.id.operation));
    m.Append("apiVersion", Value(r.id.api_version));
    if (r.time) m.Append("time", Value(FormatManagedTime(*r.time)));
    m.Append("fieldsType", Value("FieldsV1"));
    m.Append("fieldsV1", FieldsV1Of(state, *r.key, *r.set));
    if (!r.id.subresource.empty())
      m.Append("subresource", Value(r.id.subresource));
    out.push_back(Value(std::move(m)));
  }
  return Value(std::move(out));
}

void SetObjectManagedFields(Value* object, const ManagedState& state) {
  if (!object->IsMap()) *object = Value::MakeMap();
  Value* meta = object->map().Find("metadata");
  if (state.empty()) {
    if (meta != nullptr && meta->IsMap()) meta->map().Erase("managedFields");
    return;
  }
  if (meta == nullptr || !meta->IsMap()) {
    object->map().Set("metadata", Value::MakeMap());
    meta = object->map().Find("metadata");
  }
  meta->map().Set("managedFields", EncodeManagedFields(state));
}

Value StripManagedFields(Value object) {
  if (object.IsMap()) {
    const Value* meta_view = Find(object, "metadata");
    if (meta_view != nullptr && meta_view->IsMap() &&
        meta_view->map().Find("managedFields") != nullptr) {
      Value* meta = object.map().Find("metadata");
      meta->map().Erase("managedFields");
      if (meta->map().empty()) object.map().Erase("metadata");
    }
  }
  return object;
}

std::string FormatManagedTime(absl::Time t) {
  // RFC 3339 as Go writes it: four-digit years, 0001 included.
  const absl::CivilSecond c =
      absl::ToCivilSecond(t, absl::UTCTimeZone());
  if (c.year() < 1 || c.year() > 9999)
    return absl::FormatTime("%E4Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
  // Written digit by digit: absl::FormatTime goes through strftime, which
  // costs more than the rest of encoding an entry.
  std::string out = "0000-00-00T00:00:00Z";
  auto put = [&](size_t at, int width, int64_t v) {
    for (int i = width - 1; i >= 0; --i, v /= 10)
      out[at + static_cast<size_t>(i)] = static_cast<char>('0' + v % 10);
  };
  put(0, 4, c.year());
  put(5, 2, c.month());
  put(8, 2, c.day());
  put(11, 2, c.hour());
  put(14, 2, c.minute());
  put(17, 2, c.second());
  return out;
}

namespace {

// The time of exactly "YYYY-MM-DDTHH:MM:SSZ" (what the apiserver writes),
// with a day of the month that every month has; false for anything else.
bool ParsePlainManagedTime(absl::string_view s, absl::Time* t) {
  if (s.size() != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
      s[13] != ':' || s[16] != ':' || s[19] != 'Z') {
    return false;
  }
  bool ok = true;
  auto num = [&](size_t at, int width) {
    int v = 0;
    for (int i = 0; i < width; ++i) {
      const char c = s[at + static_cast<size_t>(i)];
      ok = ok && c >= '0' && c <= '9';
      v = v * 10 + (c - '0');
    }
    return v;
  };
  const int year = num(0, 4), month = num(5, 2), day = num(8, 2);
  const int hour = num(11, 2), minute = num(14, 2), second = num(17, 2);
  if (!ok || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 ||
      minute > 59 || second > 59) {
    return false;
  }
  *t = absl::FromCivil(
      absl::CivilSecond(year, month, day, hour, minute, second),
      absl::UTCTimeZone());
  return true;
}

}  // namespace

absl::StatusOr<absl::Time> ParseManagedTime(absl::string_view s) {
  if (absl::Time plain; ParsePlainManagedTime(s, &plain)) return plain;
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, s, &t, &err)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not an RFC 3339 time: ", Quote(s)));
  }
  return absl::FromUnixSeconds(absl::ToUnixSeconds(t));
}

std::string KubernetesConflictMessage(const Conflicts& conflicts) {
  if (conflicts.size() == 1) {
    const Conflict& c = conflicts.list()[0];
    return absl::StrCat("Apply failed with 1 conflict: conflict with ",
                        DisplayManager(c.manager), ": ", PathString(c.path));
  }
  std::map<std::string, std::vector<const Path*>> by;
  for (const Conflict& c : conflicts.list()) by[c.manager].push_back(&c.path);
  std::string msg;
  for (const auto& [m, paths] : by) {
    if (!msg.empty()) msg += "\n";
    absl::StrAppend(&msg, "conflicts with ", DisplayManager(m), ":");
    for (const Path* p : paths) absl::StrAppend(&msg, "\n- ", PathString(*p));
  }
  return absl::StrCat("Apply failed with ", conflicts.size(),
                      " conflicts: ", msg);
}

}  // namespace smdx
