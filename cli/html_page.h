// The ownership page of `smdx blame --html` and `smdx diff --html`: one
// self-contained HTML file (styles and the small script that picks out one
// manager's fields are inline; nothing is fetched), so it opens offline and
// can be attached to a ticket. Each object is a section: a legend of its
// managedFields entries with their colors, then the object line by line,
// each line colored by the entries that own its field (stripes when there
// are several). A diff section also marks the lines the apply adds,
// changes (the old value struck through) and removes (struck through in
// place), the fields whose owners change, and the conflicts.
//
// The renderer knows nothing of managedFields: the commands fill the model
// (cli/kube_cmds.cc, from cli/blame_lines.h), so the page is tested with
// plain data. All text is escaped.
//
// Example:
//
//   HtmlSection s;
//   s.title = "Deployment kube-system/kube-dns";
//   HtmlManager kubectl;
//   kubectl.label = kubectl.manager = "kubectl";
//   kubectl.operation = "Apply";
//   kubectl.fields = 1;
//   s.managers.push_back(kubectl);
//   HtmlLine replicas;
//   replicas.text = "  replicas: 3";
//   replicas.path = ".spec.replicas";
//   replicas.owners = {0};
//   s.lines.push_back(replicas);
//   HtmlPage page;
//   page.title = "smdx blame";
//   page.sections.push_back(s);
//   std::string html = RenderHtmlPage(page);
#ifndef SMDX_CLI_HTML_PAGE_H_
#define SMDX_CLI_HTML_PAGE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace smdx::cli {

// A managedFields entry: a row of the legend. Its color is the palette's
// color at its index in HtmlSection::managers.
struct HtmlManager {
  std::string label;  // how the lines name it (ManagerLabels)
  std::string manager;
  std::string operation;  // Apply or Update
  std::string api_version;
  std::string subresource;  // empty for the main resource
  std::string time;         // empty when the entry has none
  size_t fields = 0;        // 0: a diff's entry that the apply removes
  // A diff's entry: its fields before the apply (nullopt: the apply adds
  // the entry). Unset in a blame.
  std::optional<size_t> fields_before;
};

enum class HtmlMark { kNone, kAdded, kChanged, kRemoved };

struct HtmlLine {
  std::string text;  // the YAML line, indentation included
  std::string path;  // ".spec.replicas"
  // Indices into HtmlSection::managers, in the legend's order.
  std::vector<int> owners;
  HtmlMark mark = HtmlMark::kNone;
  std::string old_text;  // kChanged: the line before the apply
  // A diff's line whose field changes owners (a kept or changed line):
  // the owners before.
  bool owners_changed = false;
  std::vector<int> old_owners;
  // The managers that own the field the apply conflicts on ("kubectl"),
  // or empty.
  std::string conflict;
};

// What one manager gains and loses in an apply, as `smdx diff` prints it:
// ".spec.replicas (taken from hpa)".
struct HtmlOwnershipChange {
  std::string label;
  std::vector<std::string> gained;
  std::vector<std::string> lost;
};

struct HtmlConflict {
  std::string path;
  std::string owner;  // as the apiserver names it: "kubectl" using apps/v1
};

struct HtmlSection {
  std::string title;     // "Deployment kube-system/kube-dns"
  std::string subtitle;  // "apps/v1 · live.yaml"
  // A diff's section: the summary of changes, the ownership changes and
  // the conflicts are shown, and the marks of the lines.
  bool diff = false;
  std::vector<HtmlOwnershipChange> ownership;
  // The apply would fail on these (the lines then show what the
  // configuration asks for, over the current owners).
  std::vector<HtmlConflict> conflicts;
  std::vector<HtmlManager> managers;
  std::vector<HtmlLine> lines;
};

struct HtmlPage {
  std::string title;  // "smdx blame"
  std::string intro;  // one sentence under the title
  std::vector<HtmlSection> sections;
};

// The page as one HTML document.
std::string RenderHtmlPage(const HtmlPage& page);

// `text` with &, <, >, " and ' escaped, for element text and attribute
// values alike.
std::string HtmlEscape(absl::string_view text);

// The background color of the managedFields entry at `index` (a CSS hex
// color; the palette repeats after its last color).
absl::string_view OwnerColor(size_t index);

}  // namespace smdx::cli

#endif  // SMDX_CLI_HTML_PAGE_H_
