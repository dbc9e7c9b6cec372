// libFuzzer target for the fieldsV1 readers: any input either parses or
// fails with a status, and a parsed set serializes to text that parses back
// to the same set and serializes identically. Read as a value, the input is
// the encoding of the set read from it (FieldsV1ValueEncodes) exactly when
// the reader calls it canonical, and the encoding of no set when it does not
// read. The input spaced out (SpaceOutJson), which the text reader reads
// through its general path alone, reads the same: the same set, or the
// same error (byte positions aside).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "smdx/fieldpath/fields_v1.h"
#include "smdx/value/internal/json_text.h"
#include "smdx/value/parse.h"

namespace {

std::string WithoutPositions(absl::string_view message) {
  std::string out(message);
  const size_t at = out.find(" (at byte ");
  if (at != std::string::npos) out.erase(at);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<smdx::Set> set = smdx::ParseFieldsV1(text);
  absl::StatusOr<smdx::Set> spaced =
      smdx::ParseFieldsV1(smdx::internal::SpaceOutJson(text));
  if (set.ok() != spaced.ok()) std::abort();
  if (set.ok() && *set != *spaced) std::abort();
  if (!set.ok() && WithoutPositions(set.status().message()) !=
                       WithoutPositions(spaced.status().message())) {
    std::abort();
  }
  if (set.ok()) {
    std::string out = smdx::SerializeFieldsV1(*set);
    absl::StatusOr<smdx::Set> again = smdx::ParseFieldsV1(out);
    if (!again.ok() || *again != *set) std::abort();
    if (smdx::SerializeFieldsV1(*again) != out) std::abort();
    if (!smdx::FieldsV1ValueEncodes(smdx::FieldsV1ToValue(*set), *set))
      std::abort();
  }
  absl::StatusOr<smdx::Value> v = smdx::ParseJson(std::string(text));
  if (!v.ok()) return 0;
  bool canonical = false;
  absl::StatusOr<smdx::Set> read = smdx::FieldsV1FromValue(*v, {}, &canonical);
  if (read.ok()) {
    if (smdx::FieldsV1ValueEncodes(*v, *read) != canonical) std::abort();
  } else if (smdx::FieldsV1ValueEncodes(*v, smdx::Set()) ||
             (set.ok() && smdx::FieldsV1ValueEncodes(*v, *set))) {
    std::abort();
  }
  return 0;
}
