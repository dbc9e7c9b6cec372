// YAML 1.1 scalar resolution, as gopkg.in/yaml.v2 (under sigs.k8s.io/yaml)
// resolves scalars for Kubernetes: `yes`/`on`/`y` are booleans, `0x1F` and
// `017` are ints, `~` is null, quoted scalars are strings (see
// value/parse.h). Shared by the YAML readers and by the YAML writer, which
// quotes exactly the strings that would not read back as strings.
//
// Internal to value/; not part of the API.
#ifndef SMDX_VALUE_YAML_SCALAR_H_
#define SMDX_VALUE_YAML_SCALAR_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "smdx/value/value.h"

namespace smdx {
namespace internal {

// The prefix of the YAML core schema's tags (`!!int` is
// "tag:yaml.org,2002:int").
inline constexpr absl::string_view kYamlTagPrefix = "tag:yaml.org,2002:";

// How a plain (unquoted, untagged) YAML scalar resolves: null, bool, int,
// float, or else a string.
Value ResolvePlainYamlScalar(absl::string_view text);
// The same, set in `*out` (whatever it held goes).
// REQUIRES: `text` does not point into `*out`.
void ResolvePlainYamlScalar(absl::string_view text, Value* out);

// How a YAML scalar resolves given the tag yaml-cpp reports for it: "?" for
// a plain scalar without a tag (as ResolvePlainYamlScalar), "!" for quoted
// and block scalars and `!` (a string), "tag:yaml.org,2002:int" and so on
// for `!!int` etc. Returns nullopt when the text does not fit the tag
// (ParseYaml's "cannot read ... as !!int" error).
std::optional<Value> ResolveTaggedYamlScalar(absl::string_view tag,
                                             absl::string_view text);

// The map key a scalar becomes when Kubernetes converts YAML to JSON
// (sigs.k8s.io/yaml): `1` has key "1", `true` "true", null "null", floats
// as Go's strconv.FormatFloat(f, 'g', -1, 32).
std::string YamlKeyText(const Value& v);

// Sets `*key` to the map key a plain YAML scalar becomes.
void YamlPlainKeyText(absl::string_view text, std::string* key);

}  // namespace internal
}  // namespace smdx

#endif  // SMDX_VALUE_YAML_SCALAR_H_
