// The client-side-apply annotation, as the apiserver reads and writes it
// when `kubectl` moves from client-side to server-side apply.
//
// Not API: used by field_manager.cc and its tests.
#ifndef SMDX_FIELDMANAGER_LAST_APPLIED_H_
#define SMDX_FIELDMANAGER_LAST_APPLIED_H_

#include <optional>
#include <string>

#include "smdx/fieldpath/set.h"
#include "smdx/typed/typed.h"
#include "smdx/value/value.h"

namespace smdx::internal {

// The annotations' total size the apiserver accepts (keys and values).
inline constexpr size_t kMaxAnnotationsBytes = 256 * 1024;

// The non-empty last-applied annotation of `object`, or nullptr.
const std::string* LastAppliedOf(const Value& object);

// The annotation's value for an applied configuration: the configuration
// without that annotation, as Go's encoding/json writes it (sorted keys,
// compact, HTML-escaped) followed by a newline.
std::string BuildLastApplied(const Value& config);

// Sets the annotation on `object` to `value`; leaves it out when the
// annotations would exceed kMaxAnnotationsBytes, as the apiserver does.
void SetLastApplied(Value* object, const std::string& value);

// The fields a client-side apply owned: those the annotation of `live` sets
// with the value `live` still has. nullopt when there is no usable
// annotation (absent, not JSON, another apiVersion, not of the type).
std::optional<Set> FieldsFromLastApplied(const Type& type, const Value& live,
                                         const std::string& api_version);

}  // namespace smdx::internal

#endif  // SMDX_FIELDMANAGER_LAST_APPLIED_H_
