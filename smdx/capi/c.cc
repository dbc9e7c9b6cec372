// The C API (capi/smdx.h) over embed/catalog.h and the field manager. Every
// entry point catches what C++ may throw (std::bad_alloc) and turns it into
// SMDX_INTERNAL, so nothing unwinds into C.
#include "smdx/c.h"

#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "smdx/embed/catalog.h"
#include "smdx/fieldmanager/field_manager.h"
#include "smdx/fieldmanager/kubectl_apply.h"
#include "smdx/fieldmanager/patch.h"
#include "smdx/fieldmanager/managed_fields.h"
#include "smdx/fieldpath/fields_v1.h"
#include "smdx/schema/builtin.h"
#include "smdx/value/emit.h"
#include "smdx/value/parse.h"

struct smdx_result {
  smdx_code code = SMDX_OK;
  std::string message;
  std::string data;
  bool changed = false;
  bool deleted = false;
  struct ConflictEntry {
    std::string manager;  // as the apiserver prints it
    std::string name;     // the bare manager name
    std::string path;
  };
  std::vector<ConflictEntry> conflicts;
  std::vector<std::string> paths;
  std::vector<std::string> warnings;
};

struct smdx_schema {
  smdx::Catalog catalog;
};

struct smdx_field_manager {
  std::unique_ptr<smdx::ManualClock> clock;  // with now_unix_seconds
  std::optional<smdx::FieldManager> fm;
  smdx::Limits limits;
};

namespace {

using smdx::ErrorKind;

smdx_code CodeOfStatus(const absl::Status& st, smdx_code invalid) {
  switch (st.code()) {
    case absl::StatusCode::kOk:
      return SMDX_OK;
    case absl::StatusCode::kNotFound:
      return SMDX_NOT_FOUND;
    case absl::StatusCode::kResourceExhausted:
      return SMDX_LIMIT_EXCEEDED;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
      return invalid;
    default:
      return SMDX_INTERNAL;
  }
}

smdx_code CodeOfKind(ErrorKind k) {
  switch (k) {
    case ErrorKind::kNone:
      return SMDX_OK;
    case ErrorKind::kConflict:
      return SMDX_CONFLICT;
    case ErrorKind::kImmutable:
      return SMDX_IMMUTABLE;
    case ErrorKind::kInvalid:
      return SMDX_INVALID;
    case ErrorKind::kBadRequest:
      return SMDX_BAD_REQUEST;
    case ErrorKind::kInternal:
      return SMDX_INTERNAL;
  }
  return SMDX_INTERNAL;
}

// Hands `r` to the caller (or drops it when they want none) and returns its
// code.
smdx_code Finish(std::unique_ptr<smdx_result> r, smdx_result** out) {
  smdx_code code = r->code;
  if (out != nullptr) *out = r.release();
  return code;
}

smdx_code Fail(smdx_code code, std::string message, smdx_result** out) {
  auto r = std::make_unique<smdx_result>();
  r->code = code;
  r->message = std::move(message);
  return Finish(std::move(r), out);
}

smdx_code FailStatus(const absl::Status& st, smdx_code invalid,
                     smdx_result** out) {
  return Fail(CodeOfStatus(st, invalid), std::string(st.message()), out);
}

// Runs `body`, turning anything thrown into SMDX_INTERNAL.
template <typename F>
smdx_code Guard(smdx_result** out, F&& body) {
  if (out != nullptr) *out = nullptr;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    // No result: making one could fail the same way.
    return SMDX_INTERNAL;
  } catch (const std::exception& e) {
    return Fail(SMDX_INTERNAL, e.what(), out);
  } catch (...) {
    return Fail(SMDX_INTERNAL, "unknown error", out);
  }
}

// An object from caller bytes; `what` names it in errors. Empty input is
// null (no object).
absl::StatusOr<smdx::Value> ReadObject(const char* data, size_t len,
                                       const smdx::Limits& limits,
                                       absl::string_view what) {
  if (data == nullptr || len == 0) return smdx::Value();
  absl::StatusOr<smdx::Value> v =
      smdx::ParseYamlOrJson(absl::string_view(data, len), limits);
  if (!v.ok()) {
    return absl::Status(v.status().code(),
                        absl::StrCat(what, ": ", v.status().message()));
  }
  if (!v->IsMap() && !v->IsNull()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": expected an object (a map)"));
  }
  return v;
}

std::string Write(const smdx::Value& v, smdx_format format) {
  return format == SMDX_FORMAT_YAML ? smdx::ToYaml(v) : smdx::ToJson(v);
}

absl::StatusOr<smdx::Type> TypeFor(const smdx_schema* s, const char* type_name,
                                   const smdx::Value* object) {
  if (type_name != nullptr && *type_name != '\0') {
    return s->catalog.Named(type_name);
  }
  return s->catalog.TypeOf(object);
}

// The request Operate makes.
enum class Op {
  kApply,
  kKubectlApply,
  kClientSideApply,
  kUpdate,
  kStrategicPatch,
  kMergePatch,
  kJsonPatch
};

smdx_code Operate(const smdx_field_manager* fm, const char* live,
                  size_t live_len, const char* body, size_t body_len,
                  const char* manager, Op op, bool force, smdx_format format,
                  smdx_result** out) {
  const bool apply = op == Op::kApply || op == Op::kKubectlApply ||
                     op == Op::kClientSideApply;
  const bool patch = op == Op::kStrategicPatch || op == Op::kMergePatch ||
                     op == Op::kJsonPatch;
  if (fm == nullptr || !fm->fm.has_value()) {
    return Fail(SMDX_INVALID_ARGUMENT, "the field manager is NULL", out);
  }
  const char* const what = apply   ? "the configuration"
                           : patch ? "the patch"
                                   : "the object";
  if (body == nullptr) {
    return Fail(SMDX_INVALID_ARGUMENT, absl::StrCat(what, " is NULL"), out);
  }
  if (format != SMDX_FORMAT_JSON && format != SMDX_FORMAT_YAML) {
    return Fail(SMDX_INVALID_ARGUMENT, "unknown output format", out);
  }
  absl::StatusOr<smdx::Value> l =
      ReadObject(live, live_len, fm->limits, "the live object");
  if (!l.ok()) return FailStatus(l.status(), SMDX_PARSE_ERROR, out);
  // A patch may be a list (a JSON patch's operations).
  absl::StatusOr<smdx::Value> b =
      patch ? smdx::ParseYamlOrJson(absl::string_view(body, body_len),
                                    fm->limits)
            : ReadObject(body, body_len, fm->limits, what);
  if (!b.ok()) {
    return FailStatus(
        patch ? absl::Status(b.status().code(),
                             absl::StrCat(what, ": ", b.status().message()))
              : b.status(),
        SMDX_PARSE_ERROR, out);
  }
  absl::string_view name = manager != nullptr ? manager : "";
  smdx::FieldManagerResult res;
  switch (op) {
    case Op::kApply:
      res = fm->fm->Apply(*l, *b, name, force);
      break;
    case Op::kKubectlApply:
      res = smdx::KubectlServerSideApply(*fm->fm, *l, *b, name, force);
      break;
    case Op::kClientSideApply:
      res = smdx::KubectlClientSideApply(
          *fm->fm, *l, *b,
          name.empty() ? smdx::kKubectlClientSideManager : name);
      break;
    case Op::kUpdate:
      res = fm->fm->Update(*l, *b, name);
      break;
    case Op::kStrategicPatch:
      res = smdx::Patch(*fm->fm, *l, *b, smdx::PatchType::kStrategic, name);
      break;
    case Op::kMergePatch:
      res = smdx::Patch(*fm->fm, *l, *b, smdx::PatchType::kMerge, name);
      break;
    case Op::kJsonPatch:
      res = smdx::Patch(*fm->fm, *l, *b, smdx::PatchType::kJson, name);
      break;
  }
  auto r = std::make_unique<smdx_result>();
  r->code = CodeOfKind(res.kind);
  // The apiserver's warnings first, as it sends them with its answer.
  r->warnings = std::move(res.server_warnings);
  r->warnings.insert(r->warnings.end(), res.warnings.begin(),
                     res.warnings.end());
  if (res.kind == ErrorKind::kConflict) {
    r->message = smdx::FailureMessage(res);
    for (const smdx::Conflict& c : res.conflicts.list()) {
      smdx_result::ConflictEntry e;
      e.manager = smdx::DisplayManager(c.manager);
      absl::StatusOr<smdx::ManagerIdentity> id =
          smdx::DecodeManagerIdentity(c.manager);
      e.name = id.ok() ? id->manager : c.manager;
      e.path = smdx::PathString(c.path);
      r->conflicts.push_back(std::move(e));
    }
  } else if (!res.ok()) {
    r->message = std::string(res.status.message());
    for (const smdx::Path& p : res.error_paths) {
      r->paths.push_back(smdx::PathString(p));
    }
  } else {
    r->data = Write(res.object, format);
    r->changed = res.changed;
    r->deleted = res.deleted;
  }
  return Finish(std::move(r), out);
}

// Reads `object` and its type for the typed functions.
struct TypedInput {
  smdx::Value value;
  std::optional<smdx::Type> type;
};

smdx_code ReadTyped(const smdx_schema* s, const char* type_name,
                    const char* data, size_t len, absl::string_view what,
                    TypedInput* in, smdx_result** out) {
  if (s == nullptr) return Fail(SMDX_INVALID_ARGUMENT, "the schema is NULL", out);
  if (data == nullptr) {
    return Fail(SMDX_INVALID_ARGUMENT, absl::StrCat(what, " is NULL"), out);
  }
  absl::StatusOr<smdx::Value> v =
      smdx::ParseYamlOrJson(absl::string_view(data, len));
  if (!v.ok()) {
    return Fail(CodeOfStatus(v.status(), SMDX_PARSE_ERROR),
                absl::StrCat(what, ": ", v.status().message()), out);
  }
  in->value = *std::move(v);
  absl::StatusOr<smdx::Type> t = TypeFor(s, type_name, &in->value);
  if (!t.ok()) return FailStatus(t.status(), SMDX_INVALID_ARGUMENT, out);
  in->type = *std::move(t);
  return SMDX_OK;
}

smdx_code ValidateTyped(const TypedInput& in, absl::string_view what,
                        smdx_result** out) {
  if (absl::Status st = smdx::Validate(*in.type, in.value); !st.ok()) {
    return Fail(SMDX_INVALID, absl::StrCat(what, ": ", st.message()), out);
  }
  return SMDX_OK;
}

// ReadTyped and ValidateTyped of the typed functions' `object`.
smdx_code ReadValidObject(const smdx_schema* s, const char* type_name,
                          const char* data, size_t len, TypedInput* in,
                          smdx_result** out) {
  if (smdx_code c = ReadTyped(s, type_name, data, len, "the object", in, out);
      c != SMDX_OK) {
    return c;
  }
  return ValidateTyped(*in, "the object", out);
}

}  // namespace

extern "C" {

const char* smdx_code_name(smdx_code code) {
  switch (code) {
    case SMDX_OK:
      return "OK";
    case SMDX_CONFLICT:
      return "CONFLICT";
    case SMDX_IMMUTABLE:
      return "IMMUTABLE";
    case SMDX_INVALID:
      return "INVALID";
    case SMDX_BAD_REQUEST:
      return "BAD_REQUEST";
    case SMDX_PARSE_ERROR:
      return "PARSE_ERROR";
    case SMDX_SCHEMA_ERROR:
      return "SCHEMA_ERROR";
    case SMDX_NOT_FOUND:
      return "NOT_FOUND";
    case SMDX_LIMIT_EXCEEDED:
      return "LIMIT_EXCEEDED";
    case SMDX_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case SMDX_INTERNAL:
      return "INTERNAL";
    case SMDX_CODE_MAX_:
      break;
  }
  return "UNKNOWN";
}

const char* smdx_version(void) { return SMDX_VERSION_STRING; }

const char* smdx_kubernetes_version(void) {
  // The embedded text is a literal, so the view's data is NUL-terminated.
  return smdx::KubernetesVersion().data();
}

smdx_code smdx_result_code(const smdx_result* r) {
  return r != nullptr ? r->code : SMDX_INVALID_ARGUMENT;
}

const char* smdx_result_message(const smdx_result* r) {
  return r != nullptr ? r->message.c_str() : "";
}

const char* smdx_result_data(const smdx_result* r, size_t* len) {
  if (len != nullptr) *len = r != nullptr ? r->data.size() : 0;
  return r != nullptr ? r->data.c_str() : "";
}

int smdx_result_changed(const smdx_result* r) {
  return r != nullptr && r->changed ? 1 : 0;
}

int smdx_result_deleted(const smdx_result* r) {
  return r != nullptr && r->deleted ? 1 : 0;
}

size_t smdx_result_conflict_count(const smdx_result* r) {
  return r != nullptr ? r->conflicts.size() : 0;
}

const char* smdx_result_conflict_manager(const smdx_result* r, size_t i) {
  if (r == nullptr || i >= r->conflicts.size()) return "";
  return r->conflicts[i].manager.c_str();
}

const char* smdx_result_conflict_manager_name(const smdx_result* r,
                                              size_t i) {
  if (r == nullptr || i >= r->conflicts.size()) return "";
  return r->conflicts[i].name.c_str();
}

const char* smdx_result_conflict_path(const smdx_result* r, size_t i) {
  if (r == nullptr || i >= r->conflicts.size()) return "";
  return r->conflicts[i].path.c_str();
}

size_t smdx_result_path_count(const smdx_result* r) {
  return r != nullptr ? r->paths.size() : 0;
}

const char* smdx_result_path(const smdx_result* r, size_t i) {
  if (r == nullptr || i >= r->paths.size()) return "";
  return r->paths[i].c_str();
}

size_t smdx_result_warning_count(const smdx_result* r) {
  return r != nullptr ? r->warnings.size() : 0;
}

const char* smdx_result_warning(const smdx_result* r, size_t i) {
  if (r == nullptr || i >= r->warnings.size()) return "";
  return r->warnings[i].c_str();
}

void smdx_result_free(smdx_result* r) { delete r; }

smdx_schema* smdx_schema_builtin(void) {
  return new (std::nothrow) smdx_schema{smdx::Catalog::Builtin()};
}

smdx_code smdx_schema_load(const char* const* documents, const size_t* lengths,
                           size_t count, smdx_schema** out,
                           smdx_result** result) {
  return Guard(result, [&]() -> smdx_code {
    if (out == nullptr) {
      return Fail(SMDX_INVALID_ARGUMENT, "the output pointer is NULL", result);
    }
    *out = nullptr;
    if (count > 0 && (documents == nullptr || lengths == nullptr)) {
      return Fail(SMDX_INVALID_ARGUMENT, "the documents are NULL", result);
    }
    std::vector<std::string> docs;
    for (size_t i = 0; i < count; ++i) {
      if (documents[i] == nullptr) {
        return Fail(SMDX_INVALID_ARGUMENT,
                    absl::StrCat("document ", i + 1, " is NULL"), result);
      }
      docs.emplace_back(documents[i], lengths[i]);
    }
    absl::StatusOr<smdx::Catalog> c = smdx::Catalog::FromDocuments(docs);
    if (!c.ok()) return FailStatus(c.status(), SMDX_SCHEMA_ERROR, result);
    *out = new smdx_schema{*std::move(c)};
    return Finish(std::make_unique<smdx_result>(), result);
  });
}

void smdx_schema_free(smdx_schema* s) { delete s; }

void smdx_field_manager_options_init(smdx_field_manager_options* o) {
  if (o == nullptr) return;
  *o = smdx_field_manager_options{};
  o->apply_defaults = 1;
  o->builtin_defaults = 1;
  o->reset_fields = 1;
  o->track_on_create = 1;
  o->max_update_managers = 10;
}

smdx_code smdx_field_manager_new(const smdx_schema* schema,
                                 const smdx_field_manager_options* options,
                                 smdx_field_manager** out,
                                 smdx_result** result) {
  return Guard(result, [&]() -> smdx_code {
    if (out == nullptr) {
      return Fail(SMDX_INVALID_ARGUMENT, "the output pointer is NULL", result);
    }
    *out = nullptr;
    if (schema == nullptr || options == nullptr) {
      return Fail(SMDX_INVALID_ARGUMENT,
                  schema == nullptr ? "the schema is NULL"
                                    : "the options are NULL",
                  result);
    }
    const smdx_field_manager_options& o = *options;
    if (o.max_update_managers < 0) {
      return Fail(SMDX_INVALID_ARGUMENT,
                  "max_update_managers must not be negative", result);
    }
    auto fm = std::make_unique<smdx_field_manager>();
    smdx::ResourceOptions r;
    r.api_version = o.api_version != nullptr ? o.api_version : "";
    r.kind = o.kind != nullptr ? o.kind : "";
    r.subresource = o.subresource != nullptr ? o.subresource : "";
    r.apply_defaults = o.apply_defaults != 0;
    r.builtin_defaults = o.builtin_defaults != 0;
    r.reset_fields = o.reset_fields != 0;
    r.track_on_create = o.track_on_create != 0;
    r.max_update_managers = o.max_update_managers;
    if (o.max_object_bytes != 0) r.limits.max_object_bytes = o.max_object_bytes;
    if (o.max_depth != 0) r.limits.max_depth = o.max_depth;
    if (o.now_unix_seconds != 0) {
      fm->clock = std::make_unique<smdx::ManualClock>(
          absl::FromUnixSeconds(o.now_unix_seconds));
      r.clock = fm->clock.get();
    }
    fm->limits = r.limits;
    absl::StatusOr<smdx::FieldManager> made =
        schema->catalog.NewFieldManager(r);
    if (!made.ok()) {
      return FailStatus(made.status(), SMDX_INVALID_ARGUMENT, result);
    }
    fm->fm.emplace(*std::move(made));
    *out = fm.release();
    return Finish(std::make_unique<smdx_result>(), result);
  });
}

void smdx_field_manager_free(smdx_field_manager* fm) { delete fm; }

smdx_code smdx_apply(const smdx_field_manager* fm, const char* live,
                     size_t live_len, const char* config, size_t config_len,
                     const char* manager, int force, smdx_format format,
                     smdx_result** result) {
  return Guard(result, [&] {
    return Operate(fm, live, live_len, config, config_len, manager,
                   Op::kApply, force != 0, format, result);
  });
}

smdx_code smdx_kubectl_apply(const smdx_field_manager* fm, const char* live,
                             size_t live_len, const char* config,
                             size_t config_len, const char* manager, int force,
                             smdx_format format, smdx_result** result) {
  return Guard(result, [&] {
    return Operate(fm, live, live_len, config, config_len, manager,
                   Op::kKubectlApply, force != 0, format, result);
  });
}

smdx_code smdx_kubectl_client_side_apply(const smdx_field_manager* fm,
                                         const char* live, size_t live_len,
                                         const char* config,
                                         size_t config_len,
                                         const char* manager,
                                         smdx_format format,
                                         smdx_result** result) {
  return Guard(result, [&] {
    return Operate(fm, live, live_len, config, config_len, manager,
                   Op::kClientSideApply, /*force=*/false, format, result);
  });
}

smdx_code smdx_update(const smdx_field_manager* fm, const char* live,
                      size_t live_len, const char* object, size_t object_len,
                      const char* manager, smdx_format format,
                      smdx_result** result) {
  return Guard(result, [&] {
    return Operate(fm, live, live_len, object, object_len, manager,
                   Op::kUpdate, /*force=*/false, format, result);
  });
}

smdx_code smdx_patch(const smdx_field_manager* fm, const char* live,
                     size_t live_len, const char* patch, size_t patch_len,
                     smdx_patch_type type, const char* manager,
                     smdx_format format, smdx_result** result) {
  return Guard(result, [&] {
    Op op;
    switch (type) {
      case SMDX_PATCH_STRATEGIC:
        op = Op::kStrategicPatch;
        break;
      case SMDX_PATCH_MERGE:
        op = Op::kMergePatch;
        break;
      case SMDX_PATCH_JSON:
        op = Op::kJsonPatch;
        break;
      default:
        return Fail(SMDX_INVALID_ARGUMENT, "unknown patch type", result);
    }
    return Operate(fm, live, live_len, patch, patch_len, manager, op,
                   /*force=*/false, format, result);
  });
}

smdx_code smdx_validate(const smdx_schema* schema, const char* type_name,
                        const char* object, size_t object_len,
                        smdx_result** result) {
  return Guard(result, [&]() -> smdx_code {
    TypedInput in;
    if (smdx_code c =
            ReadValidObject(schema, type_name, object, object_len, &in, result);
        c != SMDX_OK) {
      return c;
    }
    return Finish(std::make_unique<smdx_result>(), result);
  });
}

smdx_code smdx_diff(const smdx_schema* schema, const char* type_name,
                    const char* lhs, size_t lhs_len, const char* rhs,
                    size_t rhs_len, smdx_result** result) {
  return Guard(result, [&]() -> smdx_code {
    TypedInput r;
    if (smdx_code c =
            ReadTyped(schema, type_name, rhs, rhs_len, "rhs", &r, result);
        c != SMDX_OK) {
      return c;
    }
    if (lhs == nullptr) {
      return Fail(SMDX_INVALID_ARGUMENT, "lhs is NULL", result);
    }
    absl::StatusOr<smdx::Value> l =
        smdx::ParseYamlOrJson(absl::string_view(lhs, lhs_len));
    if (!l.ok()) {
      return Fail(CodeOfStatus(l.status(), SMDX_PARSE_ERROR),
                  absl::StrCat("lhs: ", l.status().message()), result);
    }
    TypedInput left{*std::move(l), r.type};
    if (smdx_code c = ValidateTyped(left, "lhs", result); c != SMDX_OK) return c;
    if (smdx_code c = ValidateTyped(r, "rhs", result); c != SMDX_OK) return c;
    smdx::Comparison cmp = smdx::CompareFields(*r.type, &left.value, &r.value);
    auto res = std::make_unique<smdx_result>();
    res->data = "{";
    const std::pair<const char*, const smdx::Set*> parts[] = {
        {"added", &cmp.added}, {"removed", &cmp.removed},
        {"modified", &cmp.modified}};
    bool first_part = true;
    for (const auto& [name, set] : parts) {
      absl::StrAppend(&res->data, first_part ? "" : ",", "\"", name, "\":[");
      first_part = false;
      bool first = true;
      for (std::string& p : smdx::PathStrings(*set)) {
        if (!first) res->data += ",";
        first = false;
        smdx::AppendJsonString(&res->data, p);
        res->paths.push_back(std::move(p));
      }
      res->data += "]";
    }
    res->data += "}";
    return Finish(std::move(res), result);
  });
}

smdx_code smdx_fieldset(const smdx_schema* schema, const char* type_name,
                        const char* object, size_t object_len,
                        smdx_result** result) {
  return Guard(result, [&]() -> smdx_code {
    TypedInput in;
    if (smdx_code c =
            ReadValidObject(schema, type_name, object, object_len, &in, result);
        c != SMDX_OK) {
      return c;
    }
    smdx::Set set = smdx::ToFieldSet(*in.type, in.value);
    auto res = std::make_unique<smdx_result>();
    res->data = smdx::SerializeFieldsV1(set);
    res->paths = smdx::PathStrings(set);
    return Finish(std::move(res), result);
  });
}

}  // extern "C"
