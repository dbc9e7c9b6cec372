// The conformance harness: replays recorded apply/update sequences.
//
// A case file (format: ../shared/conformance/FORMAT.md, version 1) holds one
// case per YAML document: a schema, a starting state, a list of operations
// and the expected outcome of each. The harness runs every case against the
// engine and reports which ones behave as recorded; a failing case comes
// with a readable diff (object, managed fields by manager and path,
// conflicts). `smdx conformance` is the command-line face of this file.
//
// Depends on fieldmanager/, openapi/ and everything below them; not part of
// libsmdx (the command links it).
#ifndef SMDX_CONFORMANCE_HARNESS_H_
#define SMDX_CONFORMANCE_HARNESS_H_

#include <string>
#include <vector>

namespace smdx {

struct CaseResult {
  enum class Status { kPass, kFail, kSkip };
  std::string file;
  std::string name;
  Status status = Status::kPass;
  // Why it failed (first line) and the diff (following lines), or the skip
  // reason.
  std::string message;
};

struct ConformanceReport {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  // A file could not be read or parsed at all (exit status 2).
  bool file_error = false;
  // The request itself is wrong (a --filter that is no regular expression);
  // nothing ran.
  std::string error;
  std::vector<CaseResult> cases;
};

struct ConformanceOptions {
  // Only cases whose `file#name` matches (ECMAScript regex) run; empty: all.
  // An invalid expression is reported in ConformanceReport::error.
  std::string filter;
};

// Runs the cases in `paths` (files, or folders searched recursively for
// *.yaml, in sorted order).
ConformanceReport RunConformance(const std::vector<std::string>& paths,
                                 const ConformanceOptions& opts = {});

// Runs the cases of one file's text; `file` names it in results and
// anchors relative paths.
void RunConformanceText(const std::string& file, const std::string& text,
                        const ConformanceOptions& opts,
                        ConformanceReport* report);

// The text report: `FAIL file#name: reason` and its indented diff for each
// failing case, then `conformance: N passed, N failed[, N skipped]`.
std::string FormatReportText(const ConformanceReport& report);
// The --json report.
std::string FormatReportJson(const ConformanceReport& report);

}  // namespace smdx

#endif  // SMDX_CONFORMANCE_HARNESS_H_
