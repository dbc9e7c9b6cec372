// An object's ownership line by line: the object rendered as YAML, one
// field a line, each line with the managedFields entries that own the field
// it shows. `smdx blame` prints the lines with their owners' names;
// `smdx blame --html` and `smdx diff --html` color them (cli/html_page.h).
//
// Example:
//
//   std::map<std::string, std::string> labels =
//       ManagerLabels(state.fields, ManagedFields());
//   for (const BlameLine& l : BlameLines(type, state.fields, body))
//     std::cout << OwnerColumn(l, labels) << " | " << l.text << "\n";
#ifndef SMDX_CLI_BLAME_LINES_H_
#define SMDX_CLI_BLAME_LINES_H_

#include <map>
#include <string>
#include <vector>

#include "smdx/fieldpath/versioned_set.h"
#include "smdx/typed/typed.h"
#include "smdx/value/value.h"

namespace smdx::cli {

struct BlameLine {
  std::string text;  // the YAML line, indentation included
  // The field the line shows, as PathString writes it (".spec.replicas");
  // empty for a value that is not a map.
  std::string path;
  // The identity keys (of the ManagedFields given) that own the field, or
  // the atomic list or map it lies in, in key order.
  std::vector<std::string> owners;
  // On the first line of a list item (not inside an atomic container): the
  // keys that own the item itself, as that line also stands for the item.
  std::vector<std::string> item_owners;
};

// The lines of `object` (without managedFields) typed by `type`, owned as
// `managers` says. Fields the type does not know are shown, owned as the
// paths say.
std::vector<BlameLine> BlameLines(const Type& type,
                                  const ManagedFields& managers,
                                  const Value& object);

// The managers' display names by identity key, for the keys of `a` and
// `b`: the manager name, with the subresource ("kubelet/status"), and with
// the operation when one name has entries of both kinds ("kubectl
// (Update)").
std::map<std::string, std::string> ManagerLabels(const ManagedFields& a,
                                                 const ManagedFields& b);

// The owner column of `smdx blame`: the owners' labels joined with ", ",
// after the item's owners and "; " when those differ.
std::string OwnerColumn(const BlameLine& line,
                        const std::map<std::string, std::string>& labels);

}  // namespace smdx::cli

#endif  // SMDX_CLI_BLAME_LINES_H_
