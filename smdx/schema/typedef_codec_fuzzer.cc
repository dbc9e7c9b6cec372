// libFuzzer target for the binary form of type definitions: any bytes
// either decode or fail with a status (no read beyond them), and what
// decodes encodes to bytes that decode to a definition encoding the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "smdx/schema/typedef_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<smdx::TypeDef> def = smdx::DecodeTypeDef(bytes);
  if (!def.ok()) return 0;
  std::string once;
  smdx::AppendEncodedTypeDef(*def, &once);
  absl::StatusOr<smdx::TypeDef> again = smdx::DecodeTypeDef(once);
  if (!again.ok()) std::abort();
  std::string twice;
  smdx::AppendEncodedTypeDef(*again, &twice);
  if (twice != once) std::abort();
  return 0;
}
