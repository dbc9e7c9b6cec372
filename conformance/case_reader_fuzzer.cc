// libFuzzer target for the conformance case reader: the input is a case
// file (../shared/conformance/FORMAT.md). Whatever it holds, the harness
// reports every case as passed, failed or skipped, or the file as broken,
// and both reports print; it never crashes. The seeds are real cases.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "conformance/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  smdx::ConformanceReport report;
  smdx::RunConformanceText("fuzz.yaml", text, smdx::ConformanceOptions(),
                           &report);
  const size_t counted =
      static_cast<size_t>(report.passed + report.failed + report.skipped);
  if (counted != report.cases.size()) std::abort();
  (void)smdx::FormatReportText(report);
  (void)smdx::FormatReportJson(report);
  return 0;
}
