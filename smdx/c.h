/* smdx.h: the C API of smdx, server-side apply as the Kubernetes apiserver
 * performs it, for any language that can call C.
 *
 * A schema types objects: the embedded Kubernetes schema, or documents (a
 * cluster's OpenAPI v2 or v3, SMD schemas, CustomResourceDefinitions, bare
 * schema objects) that extend it. A field manager runs applies and updates
 * for one resource (apiVersion, kind, subresource) on objects passed as
 * JSON or YAML bytes; the object the server would store comes back as
 * bytes, with its metadata.managedFields.
 *
 * Errors are data. Every call that can fail returns an smdx_code and, when
 * `result` is not NULL, an smdx_result that holds the message, the
 * conflicts (manager and path) or the violating paths, and the output
 * bytes. Nothing throws or aborts across this boundary; a failed call
 * changes nothing.
 *
 * Memory: the library owns everything it returns. Free handles with their
 * _free function (NULL is accepted). Strings from an smdx_result live as
 * long as the result.
 *
 * Thread safety: schemas and field managers are immutable once made; any
 * number of threads may use one at once. A result belongs to the thread
 * that holds it.
 *
 * Example:
 *   smdx_schema* s = smdx_schema_builtin();
 *   smdx_field_manager_options o;
 *   smdx_field_manager_options_init(&o);
 *   o.api_version = "apps/v1";
 *   o.kind = "Deployment";
 *   smdx_field_manager* fm = NULL;
 *   smdx_field_manager_new(s, &o, &fm, NULL);
 *   smdx_result* r = NULL;
 *   if (smdx_apply(fm, live, live_len, config, config_len, "my-controller",
 *                  0, SMDX_FORMAT_JSON, &r) == SMDX_CONFLICT) {
 *     fprintf(stderr, "%s\n", smdx_result_message(r));
 *   }
 *   smdx_result_free(r);
 *   smdx_field_manager_free(fm);
 *   smdx_schema_free(s);
 */
#ifndef SMDX_C_H_
#define SMDX_C_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This header's version: calls keep their meaning while it is the same. */
#define SMDX_C_API_VERSION 1

typedef enum smdx_code {
  SMDX_OK = 0,
  /* The apply would take fields other managers own with other values
   * (the apiserver's 409). The result lists them. With none listed, the
   * apiserver's other 409: the request's resourceVersion or uid is not the
   * live object's (it changed since it was read). */
  SMDX_CONFLICT = 1,
  /* The change touches an immutable field; the result lists the paths. */
  SMDX_IMMUTABLE = 2,
  /* The object does not fit its schema, its managedFields are invalid, or
   * the manager name is (the apiserver's 422). */
  SMDX_INVALID = 3,
  /* The request is malformed: another apiVersion or kind than the
   * resource's, managedFields in an applied configuration (400). */
  SMDX_BAD_REQUEST = 4,
  /* The bytes are not JSON or YAML, or not an object. */
  SMDX_PARSE_ERROR = 5,
  /* A schema document is invalid. */
  SMDX_SCHEMA_ERROR = 6,
  /* The schema has no such kind or type. */
  SMDX_NOT_FOUND = 7,
  /* An input is over a limit (size, depth, nodes, list items). */
  SMDX_LIMIT_EXCEEDED = 8,
  /* A NULL handle or output pointer, or an option out of range. */
  SMDX_INVALID_ARGUMENT = 9,
  /* Anything else (out of memory). */
  SMDX_INTERNAL = 10,
  /* Not a code: makes the type as wide as an int, so that any int a caller
   * passes is a value of it. */
  SMDX_CODE_MAX_ = 0x7fffffff
} smdx_code;

/* The code's name in upper case ("CONFLICT"); "UNKNOWN" for others. */
const char* smdx_code_name(smdx_code code);
/* The library's version ("0.2.0"). */
const char* smdx_version(void);
/* The Kubernetes release whose built-in API the embedded schema holds
 * ("v1.37.2"). */
const char* smdx_kubernetes_version(void);

/* How output objects are written. */
typedef enum smdx_format {
  SMDX_FORMAT_JSON = 0, /* compact JSON */
  SMDX_FORMAT_YAML = 1, /* YAML as kubectl prints it */
  SMDX_FORMAT_MAX_ = 0x7fffffff /* not a format: as wide as an int */
} smdx_format;

/* ---- Results ---------------------------------------------------------- */

typedef struct smdx_result smdx_result;

smdx_code smdx_result_code(const smdx_result* r);
/* What went wrong, for people ("" on success). With SMDX_CONFLICT, the
 * apiserver's message: `Apply failed with 1 conflict: conflict with
 * "kubectl": .spec.replicas`. */
const char* smdx_result_message(const smdx_result* r);
/* The output bytes (an object, a field set, a diff), NUL-terminated; the
 * length without the NUL goes to *len when len is not NULL. "" when the
 * call has none. */
const char* smdx_result_data(const smdx_result* r, size_t* len);
/* Whether an apply or update changed the object (managedFields included). */
int smdx_result_changed(const smdx_result* r);
/* Whether the apiserver deletes the object instead of storing it: the
 * write left an object being deleted (a deletionTimestamp, no grace period
 * left) without finalizers. The output is then the apiserver's answer,
 * which it no longer holds. */
int smdx_result_deleted(const smdx_result* r);

/* The conflicts of SMDX_CONFLICT: each a manager, as the apiserver names
 * it (`"kubectl"`, `"kubelet" with subresource "status" using v1`), its
 * bare name, and the field's path (`.spec.replicas`). i < count. */
size_t smdx_result_conflict_count(const smdx_result* r);
const char* smdx_result_conflict_manager(const smdx_result* r, size_t i);
const char* smdx_result_conflict_manager_name(const smdx_result* r,
                                              size_t i);
const char* smdx_result_conflict_path(const smdx_result* r, size_t i);

/* Paths: the violating paths of SMDX_IMMUTABLE; for smdx_diff, every
 * changed path (see there); for smdx_fieldset, every member path. */
size_t smdx_result_path_count(const smdx_result* r);
const char* smdx_result_path(const smdx_result* r, size_t i);

/* Warnings of a successful call, for people: the apiserver's own, word for
 * word (owner references an update's body held twice, which it drops),
 * then what the call passed over (invalid managedFields an update
 * ignored). */
size_t smdx_result_warning_count(const smdx_result* r);
const char* smdx_result_warning(const smdx_result* r, size_t i);

void smdx_result_free(smdx_result* r);

/* ---- Schemas ---------------------------------------------------------- */

typedef struct smdx_schema smdx_schema;

/* The embedded Kubernetes schema (v1.37, plus the kinds of older
 * apiVersions). NULL only when out of memory. */
smdx_schema* smdx_schema_builtin(void);

/* Schema documents, each JSON or YAML text: OpenAPI v2 or v3, an SMD
 * schema (`types:`), CustomResourceDefinitions (a YAML stream may hold
 * several), or a bare OpenAPI schema object. Later documents replace the
 * types and kinds of earlier ones; kinds they leave out come from the
 * built-in schema. SMDX_SCHEMA_ERROR names the document and the node. */
smdx_code smdx_schema_load(const char* const* documents, const size_t* lengths,
                           size_t count, smdx_schema** out,
                           smdx_result** result);

void smdx_schema_free(smdx_schema* s);

/* ---- Field managers --------------------------------------------------- */

typedef struct smdx_field_manager_options {
  const char* api_version; /* required: "apps/v1", "v1", "example.com/v1" */
  const char* kind;        /* required: "Deployment" */
  const char* subresource; /* "status", "scale", ...; NULL or "" for none */
  /* Default results from the schema's `default`s (1, as the apiserver). */
  int apply_defaults;
  /* Decode and default objects of built-in kinds as the apiserver does:
   * Go types' zero values, Kubernetes 1.37's defaulters, what a create gets
   * from the registry (1); 0 is the bare merge. */
  int builtin_defaults;
  /* Reset what the registry strategy resets: .status on the main resource
   * of a kind with a status subresource, all but .status on /status (1). */
  int reset_fields;
  /* Track the fields of a create that nobody applied (1). */
  int track_on_create;
  /* Update entries kept before the oldest merge (10). */
  int max_update_managers;
  /* A fixed time for managedFields entries, in seconds since 1970 UTC
   * (for reproducible output); 0 is the system clock. */
  int64_t now_unix_seconds;
  /* Limits (0: the defaults, which match the apiserver's). */
  size_t max_object_bytes;
  size_t max_depth;
} smdx_field_manager_options;

/* Fills in the defaults above (api_version and kind NULL). */
void smdx_field_manager_options_init(smdx_field_manager_options* o);

typedef struct smdx_field_manager smdx_field_manager;

/* A field manager for the resource `options` names, typed by `schema`
 * (which it keeps alive; the schema may be freed first).
 * SMDX_NOT_FOUND when the schema has no such kind. */
smdx_code smdx_field_manager_new(const smdx_schema* schema,
                                 const smdx_field_manager_options* options,
                                 smdx_field_manager** out,
                                 smdx_result** result);

void smdx_field_manager_free(smdx_field_manager* fm);

/* Server-side apply of `config` by `manager` onto `live`, the stored object
 * with its managedFields (live NULL or live_len 0: it does not exist yet),
 * at any version of the resource (one of another version is read at the
 * field manager's first, as the apiserver reads it). `force` nonzero takes conflicting fields over. On success the result's
 * data is the object the server would store, in `format`. */
smdx_code smdx_apply(const smdx_field_manager* fm, const char* live,
                     size_t live_len, const char* config, size_t config_len,
                     const char* manager, int force, smdx_format format,
                     smdx_result** result);

/* `kubectl apply --server-side` as kubectl runs it: smdx_apply, and on an
 * object kubectl once applied client-side the requests that follow it
 * (the client-side applier's fields moved to `manager`, the apply again,
 * which removes what `config` dropped; for the manager "kubectl" the
 * last-applied annotation kept by "kubectl-last-applied"). Fails as
 * smdx_apply does; a later step's failure is a warning, and the data is
 * then what the steps before it stored. See smdx/fieldmanager/
 * kubectl_apply.h. */
smdx_code smdx_kubectl_apply(const smdx_field_manager* fm, const char* live,
                             size_t live_len, const char* config,
                             size_t config_len, const char* manager, int force,
                             smdx_format format, smdx_result** result);

/* Client-side `kubectl apply` (without --server-side) of `config` onto
 * `live` (NULL or live_len 0: a create) by `manager` (NULL or "":
 * "kubectl-client-side-apply"): the request kubectl makes, run as the
 * apiserver runs it. A create of the configuration with its
 * last-applied-configuration annotation; else a patch kubectl makes of
 * the annotation, the configuration and the live object (a strategic
 * merge patch by the Go types' tags; a merge patch for a custom
 * resource), none when nothing changed (the data is then the live object,
 * and a warning says so). SMDX_BAD_REQUEST when kubectl cannot make its
 * patch (a list item without its merge key, say); else fails as
 * smdx_patch does. See smdx/fieldmanager/kubectl_apply.h. */
smdx_code smdx_kubectl_client_side_apply(const smdx_field_manager* fm,
                                         const char* live, size_t live_len,
                                         const char* config,
                                         size_t config_len,
                                         const char* manager,
                                         smdx_format format,
                                         smdx_result** result);

/* A write (create, update, a non-apply patch's result) of `object` by
 * `manager` over `live` (NULL: a create). */
smdx_code smdx_update(const smdx_field_manager* fm, const char* live,
                      size_t live_len, const char* object, size_t object_len,
                      const char* manager, smdx_format format,
                      smdx_result** result);

/* A non-apply patch's type. */
typedef enum smdx_patch_type {
  SMDX_PATCH_MERGE = 0, /* JSON merge patch (RFC 7386), an object */
  SMDX_PATCH_JSON = 1,  /* JSON patch (RFC 6902), a list of operations */
  SMDX_PATCH_STRATEGIC = 2, /* strategic merge patch, an object (built-in
                               kinds: lists merge by the Go types' keys) */
  SMDX_PATCH_TYPE_MAX_ = 0x7fffffff /* not a type: as wide as an int */
} smdx_patch_type;

/* A non-apply patch (`kubectl patch --type strategic|merge|json`) of
 * `live` (the stored object; required) by `manager`, as the apiserver runs
 * it: the patch (JSON or YAML) applied as its json-patch or strategicpatch
 * library reads it, the result checked (its name kept, its namespace kept
 * or put back), then written as smdx_update writes it. SMDX_INVALID when an
 * operation does not apply or the object it makes does not decode, SMDX_BAD_REQUEST for a malformed patch, a
 * renamed object or a strategic merge patch of a custom resource,
 * SMDX_INTERNAL where the apiserver answers 500.
 * See smdx/fieldmanager/patch.h. */
smdx_code smdx_patch(const smdx_field_manager* fm, const char* live,
                     size_t live_len, const char* patch, size_t patch_len,
                     smdx_patch_type type, const char* manager,
                     smdx_format format, smdx_result** result);

/* ---- Typed values ----------------------------------------------------- */

/* The functions below type `object` with `type_name` (a definition name
 * such as "io.k8s.api.core.v1.Pod"), or when it is NULL with the object's
 * apiVersion and kind. */

/* Whether the object fits its schema: SMDX_OK, or SMDX_INVALID with every
 * problem (one per line, each naming its path) in the message. */
smdx_code smdx_validate(const smdx_schema* schema, const char* type_name,
                        const char* object, size_t object_len,
                        smdx_result** result);

/* What changed from `lhs` to `rhs`, by field path. The data is JSON:
 * {"added": [...], "removed": [...], "modified": [...]}; the result's
 * paths are the three lists in that order. `rhs` types both. */
smdx_code smdx_diff(const smdx_schema* schema, const char* type_name,
                    const char* lhs, size_t lhs_len, const char* rhs,
                    size_t rhs_len, smdx_result** result);

/* The fields the object sets, as managedFields' fieldsV1 (JSON). */
smdx_code smdx_fieldset(const smdx_schema* schema, const char* type_name,
                        const char* object, size_t object_len,
                        smdx_result** result);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SMDX_C_H_ */
