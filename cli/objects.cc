#include "cli/objects.h"

#include <algorithm>
#include <filesystem>
#include <istream>
#include <iterator>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/parse.h"

namespace smdx::cli {

namespace {

namespace fs = std::filesystem;

std::string MetaString(const Value& obj, absl::string_view k) {
  const Value* meta = Find(obj, "metadata");
  return meta != nullptr ? StringAt(*meta, k) : std::string();
}

bool IsList(const Value& v) {
  // kubectl's test: a kind ending in "List" with an items list (v1 List,
  // DeploymentList, ...).
  const Value* items = Find(v, "items");
  return items != nullptr && (items->IsList() || items->IsNull()) &&
         absl::EndsWith(StringAt(v, "kind"), "List");
}

// The objects of one file's text.
void AddText(const std::string& source, absl::string_view text,
             const Limits& limits, InputObjects* out) {
  absl::StatusOr<std::vector<Value>> docs =
      ParseYamlOrJsonDocuments(text, limits);
  if (!docs.ok()) {
    out->errors.push_back(absl::InvalidArgumentError(
        absl::StrCat(source, ": ", docs.status().message())));
    return;
  }
  std::vector<InputObject> found;
  size_t position = 0;
  for (Value& doc : *docs) {
    if (doc.IsNull()) continue;
    ++position;
    if (!doc.IsMap()) {
      out->errors.push_back(absl::InvalidArgumentError(
          absl::StrCat(source, ": document ", position,
                       ": expected an object, got ", KindName(doc.kind()))));
      continue;
    }
    if (IsList(doc)) {
      const Value* items = doc.map().Find("items");
      if (items->IsNull()) continue;
      for (const Value& item : items->list()) {
        if (!item.IsMap()) {
          out->errors.push_back(absl::InvalidArgumentError(
              absl::StrCat(source, ": item ", found.size() + 1,
                           " of the List: expected an object, got ",
                           KindName(item.kind()))));
          continue;
        }
        found.push_back(InputObject{item, source, 0});
      }
      continue;
    }
    found.push_back(InputObject{std::move(doc), source, 0});
  }
  if (found.size() > 1) {
    for (size_t i = 0; i < found.size(); ++i) found[i].position = i + 1;
  }
  for (InputObject& o : found) out->objects.push_back(std::move(o));
}

bool IsManifestFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

void AddPath(const std::string& path, bool recursive, const Limits& limits,
             InputObjects* out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(path, ec), end; !ec && it != end;
         it.increment(ec)) {
      entries.push_back(it->path());
    }
    if (ec) {
      out->errors.push_back(absl::NotFoundError(
          absl::StrCat(path, ": cannot read the directory: ", ec.message())));
      return;
    }
    std::sort(entries.begin(), entries.end());
    for (const fs::path& e : entries) {
      if (fs::is_directory(e, ec)) {
        if (recursive) AddPath(e.string(), recursive, limits, out);
      } else if (IsManifestFile(e)) {
        AddPath(e.string(), recursive, limits, out);
      }
    }
    return;
  }
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    out->errors.push_back(text.status());
    return;
  }
  AddText(path, *text, limits, out);
}

}  // namespace

InputObjects ReadObjects(const std::vector<std::string>& paths, bool recursive,
                         const Limits& limits, std::istream& stdin_stream) {
  InputObjects out;
  for (const std::string& p : paths) {
    if (p == "-") {
      std::string text((std::istreambuf_iterator<char>(stdin_stream)),
                       std::istreambuf_iterator<char>());
      AddText("-", text, limits, &out);
      continue;
    }
    AddPath(p, recursive, limits, &out);
  }
  return out;
}

std::string Describe(const InputObject& o) {
  std::string kind = StringAt(o.value, "kind");
  std::string ns = MetaString(o.value, "namespace");
  std::string name = MetaString(o.value, "name");
  std::string what = kind.empty() ? "object" : kind;
  if (!name.empty()) {
    absl::StrAppend(&what, " ", ns.empty() ? "" : absl::StrCat(ns, "/"), name);
  }
  std::string where = o.source == "-" ? "standard input" : o.source;
  if (o.position > 0) absl::StrAppend(&where, ", object ", o.position);
  return absl::StrCat(what, " (", where, ")");
}

std::string GroupKindKey(const Value& object) {
  return absl::StrCat(ApiGroupOf(StringAt(object, "apiVersion")), "\n",
                      StringAt(object, "kind"));
}

std::string ObjectKey(const Value& object) {
  return absl::StrCat(GroupKindKey(object), "\n",
                      MetaString(object, "namespace"), "\n",
                      MetaString(object, "name"));
}

namespace {

std::string NameKey(const Value& object) {
  return absl::StrCat(GroupKindKey(object), "\n", MetaString(object, "name"));
}

}  // namespace

LiveObjects::LiveObjects(const std::vector<InputObject>& live) {
  for (const InputObject& o : live) {
    by_key_.emplace(ObjectKey(o.value), &o);
    by_name_.emplace(NameKey(o.value), &o);
  }
}

const InputObject* LiveObjects::Find(const Value& config) const {
  auto it = by_key_.find(ObjectKey(config));
  if (it != by_key_.end()) return it->second;
  if (!MetaString(config, "namespace").empty()) return nullptr;
  auto [b, e] = by_name_.equal_range(NameKey(config));
  if (b != e && std::next(b) == e) return b->second;
  return nullptr;
}

}  // namespace smdx::cli
