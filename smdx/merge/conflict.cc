#include "smdx/merge/conflict.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "smdx/value/emit.h"

namespace smdx {

bool operator==(const Conflict& a, const Conflict& b) {
  return a.manager == b.manager && a.path == b.path;
}

Conflicts Conflicts::FromManagers(const ManagedFields& sets) {
  Conflicts out;
  for (const auto& entry : sets) {
    // A named reference: lambdas cannot capture structured bindings in C++17.
    const std::string& manager = entry.first;
    entry.second.set().Iterate([&](const Path& p) {
      out.Add(Conflict{manager, p});
    });
  }
  return out;
}

std::string Conflicts::ToString() const {
  auto quoted = [](const std::string& s) {
    std::string q;
    AppendJsonString(&q, s);
    return q;
  };
  if (list_.size() == 1) {
    return absl::StrCat("conflict with ", quoted(list_[0].manager), ": ",
                        PathString(list_[0].path));
  }
  std::map<std::string, std::vector<const Path*>> by_manager;
  for (const Conflict& c : list_) by_manager[c.manager].push_back(&c.path);
  std::string out;
  for (const auto& [manager, paths] : by_manager) {
    if (!out.empty()) out += "\n";
    absl::StrAppend(&out, "conflicts with ", quoted(manager), ":");
    for (const Path* p : paths) absl::StrAppend(&out, "\n- ", PathString(*p));
  }
  return out;
}

}  // namespace smdx
