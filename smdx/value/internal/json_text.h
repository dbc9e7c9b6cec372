// JSON text transforms for the readers' tests and fuzzers (the fieldsV1
// reader's among them): internal, not part of the API.
#ifndef SMDX_VALUE_INTERNAL_JSON_TEXT_H_
#define SMDX_VALUE_INTERNAL_JSON_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace smdx::internal {

// `text` with a space after every '{' and ',' and before every ':' outside
// strings: the same JSON (whitespace may go there), spelled as no encoder
// writes it. Readers with shortcuts for the encoders' spelling read it
// through their general path. Input that is not JSON is spaced the same
// way; a string left open keeps the rest as it is.
inline std::string SpaceOutJson(absl::string_view text) {
  std::string out;
  out.reserve(text.size() * 2);
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      out.push_back(c);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ':') out.push_back(' ');
    out.push_back(c);
    if (c == '{' || c == ',') out.push_back(' ');
    if (c == '"') in_string = true;
  }
  return out;
}

}  // namespace smdx::internal

#endif  // SMDX_VALUE_INTERNAL_JSON_TEXT_H_
