// libFuzzer target for the fieldsV1 reader: any input either parses or
// fails with a status, and a parsed set serializes to text that parses back
// to the same set and serializes identically.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "smdx/fieldpath/fields_v1.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<smdx::Set> set = smdx::ParseFieldsV1(text);
  if (!set.ok()) return 0;
  std::string out = smdx::SerializeFieldsV1(*set);
  absl::StatusOr<smdx::Set> again = smdx::ParseFieldsV1(out);
  if (!again.ok() || *again != *set) std::abort();
  if (smdx::SerializeFieldsV1(*again) != out) std::abort();
  return 0;
}
