#include "merge/managed_fields.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fieldpath/fields_v1.h"
#include "typed/emit.h"
#include "typed/parse.h"

namespace smdx {

namespace {

std::string Quote(absl::string_view s) {
  std::string out;
  AppendJsonString(&out, std::string(s));
  return out;
}

const Value* Get(const Value& m, absl::string_view k) {
  return m.IsMap() ? m.map().Find(k) : nullptr;
}

}  // namespace

std::string EncodeManagerIdentity(const ManagerIdentity& id) {
  std::string out = "{";
  auto field = [&](absl::string_view name, const std::string& v) {
    if (v.empty()) return;
    if (out.size() > 1) out += ",";
    absl::StrAppend(&out, Quote(name), ":", Quote(v));
  };
  field("manager", id.manager);
  field("operation", id.operation);
  if (id.operation != "Apply") field("apiVersion", id.api_version);
  field("subresource", id.subresource);
  return out + "}";
}

absl::StatusOr<ManagerIdentity> DecodeManagerIdentity(absl::string_view key) {
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

absl::StatusOr<DecodedManagedFields> DecodeManagedFields(const Value& object) {
  DecodedManagedFields out;
  const Value* meta = Get(object, "metadata");
  const Value* list = meta != nullptr ? Get(*meta, "managedFields") : nullptr;
  if (list == nullptr || list->IsNull()) return out;
  if (!list->IsList())
    return absl::InvalidArgumentError(
        ".metadata.managedFields: expected a list");
  for (size_t i = 0; i < list->list().size(); ++i) {
    const Value& e = list->list()[i];
    std::string where = absl::StrCat(".metadata.managedFields[", i, "]");
    if (!e.IsMap())
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": expected a map"));
    auto str = [&](absl::string_view k) {
      const Value* f = e.map().Find(k);
      return f != nullptr && f->IsString() ? f->AsString() : std::string();
    };
    ManagerIdentity id{str("manager"), str("operation"), str("apiVersion"),
                       str("subresource")};
    if (id.operation != "Apply" && id.operation != "Update") {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": operation must be Apply or Update, got ",
                       Quote(id.operation)));
    }
    std::string type = str("fieldsType");
    if (type != "FieldsV1") {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": fieldsType must be FieldsV1, got ", Quote(type)));
    }
    Set set;
    if (const Value* f = e.map().Find("fieldsV1");
        f != nullptr && !f->IsNull()) {
      absl::StatusOr<Set> s = FieldsV1FromValue(*f);
      if (!s.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": ", s.status().message()));
      set = *std::move(s);
    }
    std::string key = EncodeManagerIdentity(id);
    if (out.managers.count(key) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": duplicate entry for manager ", DisplayManager(key)));
    }
    out.managers.emplace(key, VersionedSet(std::move(set), id.api_version,
                                           id.operation == "Apply"));
    out.times.emplace(key, str("time"));
  }
  return out;
}

Value EncodeManagedFields(const ManagedFields& managers,
                          const DecodedManagedFields& before,
                          const std::string& now) {
  struct Entry {
    ManagerIdentity id;
    std::string api_version, time;
    const Set* set;
  };
  std::vector<Entry> entries;
  for (const auto& [key, vs] : managers) {
    absl::StatusOr<ManagerIdentity> id = DecodeManagerIdentity(key);
    ManagerIdentity ident =
        id.ok()
            ? *id
            : ManagerIdentity{key, vs.applied() ? "Apply" : "Update", "", ""};
    std::string time = now;
    auto old = before.managers.find(key);
    if (old != before.managers.end() && old->second == vs) {
      auto t = before.times.find(key);
      if (t != before.times.end() && !t->second.empty()) time = t->second;
    }
    entries.push_back(Entry{ident, vs.api_version(), time, &vs.set()});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.id.operation != b.id.operation)
      return a.id.operation < b.id.operation;
    if (a.time != b.time) return a.time < b.time;
    if (a.id.manager != b.id.manager) return a.id.manager < b.id.manager;
    if (a.api_version != b.api_version) return a.api_version < b.api_version;
    return a.id.subresource < b.id.subresource;
  });
  List out;
  for (const Entry& e : entries) {
    Map m;
    m.Append("manager", Value(e.id.manager));
    m.Append("operation", Value(e.id.operation));
    m.Append("apiVersion", Value(e.api_version));
    m.Append("time", Value(e.time));
    m.Append("fieldsType", Value("FieldsV1"));
    m.Append("fieldsV1", FieldsV1ToValue(*e.set));
    if (!e.id.subresource.empty())
      m.Append("subresource", Value(e.id.subresource));
    out.push_back(Value(std::move(m)));
  }
  return Value(std::move(out));
}

Value StripManagedFields(Value object) {
  if (object.IsMap()) {
    if (Value* meta = object.map().Find("metadata");
        meta != nullptr && meta->IsMap() &&
        meta->map().Find("managedFields") != nullptr) {
      meta->map().Erase("managedFields");
      // A metadata that only held managed fields was added by smdx itself
      // (for objects whose type has no metadata).
      if (meta->map().empty()) object.map().Erase("metadata");
    }
  }
  return object;
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
