#include "cli/html_page.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace smdx::cli {

namespace {

// Light enough for dark text on top, far enough apart to tell ten managers
// apart; the marks of a diff (bars, strike-through) stay legible on all.
constexpr absl::string_view kPalette[] = {
    "#cfe2ff", "#ffdcb8", "#d3f2c7", "#e8d5fa", "#fff0a6",
    "#c8efec", "#ffd3e2", "#e3dccb", "#d9dcff", "#e2e2e2",
};

constexpr absl::string_view kStyle = R"css(
:root { --fg: #1f2328; --muted: #59636e; --rule: #d1d9e0; }
* { box-sizing: border-box; }
body { margin: 24px; color: var(--fg); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
header h1 { font-size: 20px; margin: 0 0 2px; }
header p { margin: 0 0 8px; color: var(--muted); }
section.object { margin: 20px 0 36px; }
h2 { font-size: 16px; margin: 0 0 8px; }
h2 .sub { font-weight: normal; color: var(--muted); font-size: 13px; margin-left: 6px; }
.summary { margin: 0 0 10px; padding: 8px 12px; border: 1px solid var(--rule);
  border-radius: 6px; background: #f6f8fa; }
.summary.failed { border-color: #ff8182; background: #fff1f0; }
.summary p { margin: 0 0 4px; }
.summary ul { margin: 2px 0; padding-left: 20px; }
.stats { display: flex; flex-wrap: wrap; gap: 6px 14px; list-style: none; padding: 0 !important; }
.stats b { font-variant-numeric: tabular-nums; }
.summary code { font: 12.5px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
details summary { cursor: pointer; }
.legend-box { position: sticky; top: 0; z-index: 1; background: #fff; padding: 4px 0 10px; }
table.legend { border-collapse: collapse; }
.legend th, .legend td { padding: 3px 12px 3px 6px; border-bottom: 1px solid var(--rule);
  text-align: left; white-space: nowrap; }
.legend th { font-weight: 600; color: var(--muted); font-size: 12px; }
.legend tbody tr { cursor: pointer; }
.legend tbody tr:hover, .legend tbody tr.sel { background: #f3f4f6; }
.legend tr.sel td.mgr { text-decoration: underline; }
.legend td.n { text-align: right; font-variant-numeric: tabular-nums; }
.legend .tag { font-size: 11px; color: var(--muted); margin-left: 2px; }
.sw { display: inline-block; width: 16px; height: 16px; border-radius: 3px;
  border: 1px solid rgba(0,0,0,.25); vertical-align: -3px; }
.code { border: 1px solid var(--rule); border-radius: 6px; overflow-x: auto;
  font: 13px/1.55 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.l { display: flex; min-width: max-content; white-space: pre; scroll-margin-top: 45vh; }
.l:target code { outline: 2px solid #0969da; outline-offset: -2px; }
.l .who { flex: 0 0 18ch; width: 18ch; padding: 0 8px; overflow: hidden;
  text-overflow: ellipsis; color: var(--muted); font-size: 12px;
  border-right: 1px solid var(--rule); background: #f6f8fa; }
.who i { display: inline-block; width: 8px; height: 8px; margin-right: 4px;
  border-radius: 2px; border: 1px solid rgba(0,0,0,.3); vertical-align: 0; }
.l .sg { flex: 0 0 3ch; text-align: center; color: var(--muted);
  border-left: 4px solid transparent; }
.l code { flex: 1; padding: 0 12px 0 8px; font: inherit; }
.l.dim { opacity: .3; }
details.fold > summary { list-style: none; padding: 1px 8px 1px 19ch; color: var(--muted);
  background: #f6f8fa; border-top: 1px solid var(--rule); border-bottom: 1px solid var(--rule);
  font-size: 12px; font-family: system-ui, "DejaVu Sans", sans-serif; }
details.fold > summary::before { content: "\25B8  "; }
details.fold[open] > summary::before { content: "\25BE  "; }
details.fold > summary::-webkit-details-marker { display: none; }
.l.add .sg { border-left-color: #1a7f37; color: #1a7f37; }
.l.chg .sg { border-left-color: #bf8700; color: #9a6700; }
.l.del .sg { border-left-color: #cf222e; color: #cf222e; }
.l.del code { color: #8c959f; }
.l.moved .sg { border-left-color: #8250df; color: #8250df; }
.l.conf .sg { border-left-color: #cf222e; color: #fff; background: #cf222e; font-weight: bold; }
.l.conf code { box-shadow: inset 0 0 0 2px #cf222e; }
del { color: #a40e26; text-decoration-thickness: 1.5px; }
ins { text-decoration: none; font-weight: bold; }
.note { margin-left: 16px; padding: 0 6px; border-radius: 4px; font-size: 11.5px;
  font-family: system-ui, "DejaVu Sans", sans-serif; background: rgba(255,255,255,.8);
  color: var(--muted); }
.conf .note { color: #a40e26; font-weight: 600; }
)css";

// Clicking a legend row shows only that entry's lines; clicking it again
// shows all.
constexpr absl::string_view kScript = R"js(
document.querySelectorAll("table.legend tbody tr[data-owner]").forEach(function (row) {
  row.addEventListener("click", function () {
    var section = row.closest("section");
    var owner = row.dataset.owner;
    var off = section.dataset.focus === owner;
    section.dataset.focus = off ? "" : owner;
    section.querySelectorAll("table.legend tbody tr").forEach(function (r) {
      r.classList.toggle("sel", !off && r === row);
    });
    section.querySelectorAll(".l").forEach(function (l) {
      var mine = (" " + l.dataset.o + " ").indexOf(" " + owner + " ") >= 0;
      l.classList.toggle("dim", !off && !mine);
    });
  });
});
)js";

std::string Plural(size_t n, absl::string_view word) {
  return absl::StrCat(n, " ", word, n == 1 ? "" : "s");
}

std::string Attr(absl::string_view name, absl::string_view value) {
  return absl::StrCat(" ", name, "=\"", HtmlEscape(value), "\"");
}

std::string LabelsOf(const HtmlSection& s, const std::vector<int>& owners,
                     absl::string_view sep) {
  return absl::StrJoin(owners, sep, [&](std::string* out, int i) {
    if (i >= 0 && static_cast<size_t>(i) < s.managers.size())
      out->append(s.managers[i].label);
  });
}

// The background of a line owned by `owners`: the owner's color, or
// diagonal stripes of each owner's.
std::string Background(const std::vector<int>& owners) {
  if (owners.empty()) return "";
  if (owners.size() == 1) {
    return absl::StrCat("background:", OwnerColor(owners[0]));
  }
  std::string stops;
  for (size_t i = 0; i < owners.size(); ++i) {
    absl::StrAppend(&stops, ", ", OwnerColor(owners[i]), " ", i * 8, "px ",
                    (i + 1) * 8, "px");
  }
  return absl::StrCat("background:repeating-linear-gradient(135deg", stops,
                      ")");
}

// A changed line: the start it shares with the old line up to a space
// (the key), then the old rest struck through and the new one.
std::string ChangedText(const std::string& old_text, const std::string& text) {
  size_t common = 0;
  while (common < old_text.size() && common < text.size() &&
         old_text[common] == text[common]) {
    ++common;
  }
  size_t cut = 0;
  if (common > 0) {
    size_t space = text.rfind(' ', common - 1);
    if (space != std::string::npos) cut = space + 1;
  }
  return absl::StrCat(HtmlEscape(text.substr(0, cut)), "<del>",
                      HtmlEscape(old_text.substr(cut)), "</del> <ins>",
                      HtmlEscape(text.substr(cut)), "</ins>");
}

void Legend(const HtmlSection& s, std::string* out) {
  absl::StrAppend(
      out,
      "<div class=\"legend-box\"><table class=\"legend\"><thead><tr><th></th>"
      "<th>manager</th><th>operation</th><th>apiVersion</th>"
      "<th>subresource</th><th>time</th><th>fields</th>"
      "</tr></thead><tbody>\n");
  if (s.managers.empty()) {
    absl::StrAppend(out,
                    "<tr class=\"none\"><td></td><td colspan=\"6\">none: the "
                    "object has no managedFields</td></tr>\n");
  }
  for (size_t i = 0; i < s.managers.size(); ++i) {
    const HtmlManager& m = s.managers[i];
    std::string fields = absl::StrCat(m.fields);
    if (s.diff && !m.fields_before.has_value()) {
      absl::StrAppend(&fields, " <span class=\"tag\">new</span>");
    } else if (s.diff && *m.fields_before != m.fields) {
      fields =
          absl::StrCat("<del>", *m.fields_before, "</del> ", fields,
                       m.fields == 0 ? " <span class=\"tag\">gone</span>" : "");
    }
    absl::StrAppend(
        out, "<tr", Attr("data-owner", absl::StrCat(i)),
        Attr("data-manager", m.manager), Attr("data-label", m.label),
        Attr("data-fields", absl::StrCat(m.fields)),
        Attr("title", absl::StrCat("show only ", m.label, "'s fields")),
        "><td><span class=\"sw\"",
        Attr("style", Background({static_cast<int>(i)})),
        "></span></td><td class=\"mgr\">", HtmlEscape(m.manager), "</td><td>",
        HtmlEscape(m.operation), "</td><td>", HtmlEscape(m.api_version),
        "</td><td>", m.subresource.empty() ? "-" : HtmlEscape(m.subresource),
        "</td><td>", m.time.empty() ? "-" : HtmlEscape(m.time),
        "</td><td class=\"n\">", fields, "</td></tr>\n");
  }
  absl::StrAppend(out, "</tbody></table></div>\n");
}

void Summary(const HtmlSection& s, std::string* out) {
  size_t added = 0, changed = 0, removed = 0, moved = 0;
  for (const HtmlLine& l : s.lines) {
    added += l.mark == HtmlMark::kAdded;
    changed += l.mark == HtmlMark::kChanged;
    removed += l.mark == HtmlMark::kRemoved;
    moved += l.owners_changed && l.mark != HtmlMark::kAdded &&
             l.mark != HtmlMark::kRemoved;
  }
  const bool failed = !s.conflicts.empty();
  absl::StrAppend(out, "<div class=\"summary", failed ? " failed" : "",
                  "\"><p class=\"verdict\">");
  if (failed) {
    absl::StrAppend(
        out,
        "<b>The apply would fail: ", Plural(s.conflicts.size(), "conflict"),
        ".</b> The lines show what the configuration asks for, over the "
        "current owners; <code>--force-conflicts</code> would take the "
        "fields.");
  } else if (added + changed + removed + moved == 0 && s.ownership.empty()) {
    absl::StrAppend(out, "The apply would change nothing.");
  } else {
    absl::StrAppend(out, "What the apply would change:");
  }
  absl::StrAppend(out, "</p>\n<ul class=\"stats\">");
  const struct {
    const char* stat;
    size_t n;
    std::string words;
  } stats[] = {
      {"added", added, "added"},
      {"changed", changed, "changed"},
      {"removed", removed, "removed"},
      {"owner-changes", moved, moved == 1 ? "owner change" : "owner changes"},
      {"conflicts", s.conflicts.size(),
       s.conflicts.size() == 1 ? "conflict" : "conflicts"}};
  for (const auto& st : stats) {
    absl::StrAppend(out, "<li", Attr("data-stat", st.stat), "><b>", st.n,
                    "</b> ", st.words, "</li>");
  }
  absl::StrAppend(out, "</ul>\n");
  if (failed) {
    absl::StrAppend(out, "<ul class=\"conflicts\">");
    for (const HtmlConflict& c : s.conflicts) {
      absl::StrAppend(out, "<li", Attr("data-path", c.path), "><code>",
                      HtmlEscape(c.path), "</code> owned by ",
                      HtmlEscape(c.owner), "</li>");
    }
    absl::StrAppend(out, "</ul>\n");
  }
  for (const HtmlOwnershipChange& c : s.ownership) {
    std::vector<std::string> parts;
    if (!c.gained.empty())
      parts.push_back("gains " + Plural(c.gained.size(), "field"));
    if (!c.lost.empty())
      parts.push_back("loses " + Plural(c.lost.size(), "field"));
    absl::StrAppend(out, "<details class=\"ownership\"",
                    Attr("data-label", c.label), "><summary><b>",
                    HtmlEscape(c.label), "</b> ", absl::StrJoin(parts, ", "),
                    "</summary><ul>");
    for (const std::string& p : c.gained)
      absl::StrAppend(out, "<li>gains <code>", HtmlEscape(p), "</code></li>");
    for (const std::string& p : c.lost)
      absl::StrAppend(out, "<li>loses <code>", HtmlEscape(p), "</code></li>");
    absl::StrAppend(out, "</ul></details>\n");
  }
  absl::StrAppend(out, "</div>\n");
}

// A run of lines [begin, end) a diff folds away.
struct Fold {
  size_t begin;
  size_t end;
};

// A diff shows its changes with this many lines around them, as `diff -u`
// does; longer runs of unchanged lines are folded (a click unfolds them).
constexpr size_t kContext = 3;
constexpr size_t kMinFold = 4;

std::vector<Fold> Folds(const HtmlSection& s) {
  std::vector<Fold> folds;
  if (!s.diff) return folds;
  std::vector<bool> shown(s.lines.size(), false);
  bool any = false;
  for (size_t i = 0; i < s.lines.size(); ++i) {
    const HtmlLine& l = s.lines[i];
    if (l.mark == HtmlMark::kNone && !l.owners_changed && l.conflict.empty())
      continue;
    any = true;
    size_t from = i < kContext ? 0 : i - kContext;
    size_t to = std::min(s.lines.size(), i + kContext + 1);
    std::fill(shown.begin() + from, shown.begin() + to, true);
  }
  if (!any) return folds;
  for (size_t i = 0; i < s.lines.size();) {
    if (shown[i]) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < s.lines.size() && !shown[end]) ++end;
    if (end - i >= kMinFold) folds.push_back(Fold{i, end});
    i = end;
  }
  return folds;
}

// The lines of section `number` (from 1); line N is #sNUMBER-LN, for
// links.
void Lines(const HtmlSection& s, size_t number, std::string* out) {
  absl::StrAppend(out, "<div class=\"code\">\n");
  std::vector<Fold> folds = Folds(s);
  auto fold = folds.begin();
  std::string previous_who;
  for (size_t i = 0; i < s.lines.size(); ++i) {
    if (fold != folds.end() && i == fold->begin) {
      absl::StrAppend(out, "<details class=\"fold\"><summary>",
                      Plural(fold->end - fold->begin, "unchanged line"),
                      "</summary>\n");
      previous_who.clear();
    }
    const HtmlLine& l = s.lines[i];
    std::string cls = "l";
    std::string sign = " ";
    switch (l.mark) {
      case HtmlMark::kAdded:
        cls += " add";
        sign = "+";
        break;
      case HtmlMark::kChanged:
        cls += " chg";
        sign = "~";
        break;
      case HtmlMark::kRemoved:
        cls += " del";
        sign = "-";
        break;
      case HtmlMark::kNone:
        if (l.owners_changed) {
          cls += " moved";
          sign = "\xe2\x80\xa2";  // a bullet
        }
        break;
    }
    if (!l.conflict.empty()) {
      cls += " conf";
      sign = "!";
    }
    std::string who = LabelsOf(s, l.owners, ", ");
    std::string attrs =
        absl::StrCat(Attr("id", absl::StrCat("s", number, "-L", i + 1)),
                     Attr("class", cls), Attr("data-path", l.path),
                     Attr("data-owners", LabelsOf(s, l.owners, ",")),
                     Attr("data-o", absl::StrJoin(l.owners, " ")));
    if (l.mark != HtmlMark::kNone) {
      const char* mark = l.mark == HtmlMark::kAdded     ? "added"
                         : l.mark == HtmlMark::kChanged ? "changed"
                                                        : "removed";
      absl::StrAppend(&attrs, Attr("data-mark", mark));
    }
    if (l.owners_changed)
      absl::StrAppend(&attrs,
                      Attr("data-old-owners", LabelsOf(s, l.old_owners, ",")));
    if (!l.conflict.empty())
      absl::StrAppend(&attrs, Attr("data-conflict", l.conflict));

    std::string text;
    if (l.mark == HtmlMark::kChanged) {
      text = ChangedText(l.old_text, l.text);
    } else if (l.mark == HtmlMark::kRemoved) {
      text = absl::StrCat("<del>", HtmlEscape(l.text), "</del>");
    } else {
      text = HtmlEscape(l.text);
    }
    std::string note;
    if (!l.conflict.empty()) {
      note = "conflict: owned by " + l.conflict;
    } else if (l.owners_changed && l.mark != HtmlMark::kRemoved) {
      std::string was = LabelsOf(s, l.old_owners, ", ");
      note = was.empty() ? "no owner before" : "owner was " + was;
    }
    if (!note.empty()) {
      absl::StrAppend(&text, "<span class=\"note\">", HtmlEscape(note),
                      "</span>");
    }
    // As a blame groups lines of one commit: the owners are named where
    // they change, the colors show the rest.
    std::string shown;
    if (who != previous_who) {
      for (int o : l.owners) {
        absl::StrAppend(&shown, "<i", Attr("style", Background({o})), "></i>");
      }
      absl::StrAppend(&shown, HtmlEscape(who));
    }
    previous_who = who;
    absl::StrAppend(out, "<div", attrs, "><span class=\"who\"",
                    Attr("title", who), ">", shown, "</span>");
    if (s.diff) absl::StrAppend(out, "<span class=\"sg\">", sign, "</span>");
    std::string background = Background(l.owners);
    absl::StrAppend(out, "<code",
                    background.empty() ? "" : Attr("style", background), ">",
                    text, "</code></div>\n");
    if (fold != folds.end() && i + 1 == fold->end) {
      absl::StrAppend(out, "</details>\n");
      previous_who.clear();
      ++fold;
    }
  }
  absl::StrAppend(out, "</div>\n");
}

}  // namespace

absl::string_view OwnerColor(size_t index) {
  return kPalette[index % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string HtmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderHtmlPage(const HtmlPage& page) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>",
      HtmlEscape(page.title), "</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n<header><h1>", HtmlEscape(page.title),
      "</h1>");
  if (!page.intro.empty())
    absl::StrAppend(&out, "<p>", HtmlEscape(page.intro), "</p>");
  absl::StrAppend(&out, "</header>\n");
  for (size_t n = 0; n < page.sections.size(); ++n) {
    const HtmlSection& s = page.sections[n];
    absl::StrAppend(&out, "<section class=\"object\"",
                    Attr("data-object", s.title), ">\n<h2>",
                    HtmlEscape(s.title));
    if (!s.subtitle.empty())
      absl::StrAppend(&out, "<span class=\"sub\">", HtmlEscape(s.subtitle),
                      "</span>");
    absl::StrAppend(&out, "</h2>\n");
    if (s.diff) Summary(s, &out);
    Legend(s, &out);
    Lines(s, n + 1, &out);
    absl::StrAppend(&out, "</section>\n");
  }
  absl::StrAppend(&out, "<script>", kScript, "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace smdx::cli
