/* The C API's test, in C, built against an installed smdx with pkg-config
 * (scripts/test-consumer): every function, every error code. Prints
 * "N passed, N failed" and exits 1 when a check failed. */
#include <smdx/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                   \
  do {                                                                \
    if (cond) {                                                       \
      ++passed;                                                       \
    } else {                                                          \
      ++failed;                                                       \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
              #cond);                                                 \
    }                                                                 \
  } while (0)

#define CHECK_CODE(call, want)                                               \
  do {                                                                       \
    smdx_code got_ = (call);                                                 \
    if (got_ == (want)) {                                                    \
      ++passed;                                                              \
    } else {                                                                 \
      ++failed;                                                              \
      fprintf(stderr, "%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__,    \
              #call, smdx_code_name(got_), smdx_code_name(want));            \
    }                                                                        \
  } while (0)

static int contains(const char* s, const char* part) {
  return s != NULL && strstr(s, part) != NULL;
}

static const char kDeployment[] =
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "metadata: {name: web, namespace: default}\n"
    "spec:\n"
    "  replicas: 2\n"
    "  selector: {matchLabels: {app: web}}\n"
    "  template:\n"
    "    metadata: {labels: {app: web}}\n"
    "    spec:\n"
    "      containers: [{name: app, image: 'nginx:1.25'}]\n";

static const char kScaled[] =
    "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\","
    " \"metadata\": {\"name\": \"web\", \"namespace\": \"default\"},"
    " \"spec\": {\"replicas\": 5}}";

/* A CRD whose spec has a default and an immutable field. */
static const char kCrd[] =
    "apiVersion: apiextensions.k8s.io/v1\n"
    "kind: CustomResourceDefinition\n"
    "metadata: {name: widgets.example.com}\n"
    "spec:\n"
    "  group: example.com\n"
    "  scope: Namespaced\n"
    "  names: {kind: Widget, plural: widgets, singular: widget, listKind: "
    "WidgetList}\n"
    "  versions:\n"
    "  - name: v1\n"
    "    served: true\n"
    "    storage: true\n"
    "    schema:\n"
    "      openAPIV3Schema:\n"
    "        type: object\n"
    "        properties:\n"
    "          spec:\n"
    "            type: object\n"
    "            properties:\n"
    "              size: {type: integer, default: 3}\n"
    "              region: {type: string, x-kubernetes-immutable: true}\n";

static void test_names(void) {
  CHECK(strcmp(smdx_code_name(SMDX_OK), "OK") == 0);
  CHECK(strcmp(smdx_code_name(SMDX_CONFLICT), "CONFLICT") == 0);
  CHECK(strcmp(smdx_code_name(SMDX_INTERNAL), "INTERNAL") == 0);
  CHECK(strcmp(smdx_code_name((smdx_code)99), "UNKNOWN") == 0);
  CHECK(strlen(smdx_version()) > 0);
  CHECK(strcmp(smdx_kubernetes_version(), "v1.37.2") == 0);
}

static void test_null_handles(void) {
  size_t len = 7;
  CHECK(smdx_result_code(NULL) == SMDX_INVALID_ARGUMENT);
  CHECK(strcmp(smdx_result_message(NULL), "") == 0);
  CHECK(strcmp(smdx_result_data(NULL, &len), "") == 0 && len == 0);
  CHECK(smdx_result_changed(NULL) == 0);
  CHECK(smdx_result_conflict_count(NULL) == 0);
  CHECK(strcmp(smdx_result_conflict_manager(NULL, 0), "") == 0);
  CHECK(strcmp(smdx_result_conflict_manager_name(NULL, 0), "") == 0);
  CHECK(strcmp(smdx_result_conflict_path(NULL, 0), "") == 0);
  CHECK(smdx_result_path_count(NULL) == 0);
  CHECK(strcmp(smdx_result_path(NULL, 0), "") == 0);
  CHECK(smdx_result_warning_count(NULL) == 0);
  CHECK(strcmp(smdx_result_warning(NULL, 0), "") == 0);
  smdx_result_free(NULL);
  smdx_schema_free(NULL);
  smdx_field_manager_free(NULL);
  smdx_field_manager_options_init(NULL);

  smdx_result* r = NULL;
  smdx_field_manager_options o;
  smdx_field_manager_options_init(&o);
  smdx_field_manager* fm = NULL;
  CHECK_CODE(smdx_field_manager_new(NULL, &o, &fm, &r), SMDX_INVALID_ARGUMENT);
  CHECK(fm == NULL && contains(smdx_result_message(r), "schema is NULL"));
  smdx_result_free(r);
  smdx_schema* s = smdx_schema_builtin();
  CHECK(s != NULL);
  CHECK_CODE(smdx_field_manager_new(s, NULL, &fm, NULL), SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_field_manager_new(s, &o, NULL, NULL), SMDX_INVALID_ARGUMENT);
  o.api_version = "apps/v1";
  o.kind = "Deployment";
  o.max_update_managers = -1;
  CHECK_CODE(smdx_field_manager_new(s, &o, &fm, NULL), SMDX_INVALID_ARGUMENT);
  o.max_update_managers = 10;
  CHECK_CODE(smdx_field_manager_new(s, &o, &fm, NULL), SMDX_OK);
  CHECK_CODE(smdx_apply(NULL, NULL, 0, kScaled, strlen(kScaled), "m", 0,
                        SMDX_FORMAT_JSON, NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_apply(fm, NULL, 0, NULL, 0, "m", 0, SMDX_FORMAT_JSON, &r),
             SMDX_INVALID_ARGUMENT);
  CHECK(contains(smdx_result_message(r), "configuration is NULL"));
  smdx_result_free(r);
  CHECK_CODE(smdx_update(fm, NULL, 0, NULL, 0, "m", SMDX_FORMAT_JSON, NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_apply(fm, NULL, 0, kScaled, strlen(kScaled), "m", 0,
                        (smdx_format)7, NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_schema_load(NULL, NULL, 1, NULL, NULL),
             SMDX_INVALID_ARGUMENT);
  smdx_schema* loaded = NULL;
  CHECK_CODE(smdx_schema_load(NULL, NULL, 1, &loaded, NULL),
             SMDX_INVALID_ARGUMENT);
  const char* docs[1] = {NULL};
  size_t lens[1] = {0};
  CHECK_CODE(smdx_schema_load(docs, lens, 1, &loaded, NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_schema_load(docs, lens, 0, &loaded, &r), SMDX_SCHEMA_ERROR);
  CHECK(loaded == NULL);
  smdx_result_free(r);
  CHECK_CODE(smdx_validate(NULL, NULL, kScaled, strlen(kScaled), NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_validate(s, NULL, NULL, 0, NULL), SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_diff(s, NULL, NULL, 0, kScaled, strlen(kScaled), NULL),
             SMDX_INVALID_ARGUMENT);
  CHECK_CODE(smdx_fieldset(s, NULL, NULL, 0, NULL), SMDX_INVALID_ARGUMENT);
  smdx_field_manager_free(fm);
  smdx_schema_free(s);
}

static void test_apply_conflict_force_update(void) {
  smdx_schema* s = smdx_schema_builtin();
  smdx_field_manager_options o;
  smdx_field_manager_options_init(&o);
  CHECK(o.apply_defaults == 1 && o.reset_fields == 1 && o.track_on_create == 1);
  CHECK(o.builtin_defaults == 1);
  CHECK(o.max_update_managers == 10 && o.now_unix_seconds == 0);
  o.api_version = "apps/v1";
  o.kind = "Deployment";
  o.now_unix_seconds = 1700000000; /* 2023-11-14T22:13:20Z */
  smdx_field_manager* fm = NULL;
  smdx_result* r = NULL;
  CHECK_CODE(smdx_field_manager_new(s, &o, &fm, &r), SMDX_OK);
  CHECK(smdx_result_code(r) == SMDX_OK);
  smdx_result_free(r);
  /* The manager keeps the schema alive. */
  smdx_schema_free(s);

  /* A create by apply, written as YAML. */
  CHECK_CODE(smdx_apply(fm, NULL, 0, kDeployment, strlen(kDeployment),
                        "deployer", 0, SMDX_FORMAT_YAML, &r),
             SMDX_OK);
  size_t len = 0;
  const char* created = smdx_result_data(r, &len);
  CHECK(len == strlen(created) && len > 0);
  CHECK(contains(created, "manager: deployer"));
  CHECK(contains(created, "operation: Apply"));
  CHECK(contains(created, "time: \"2023-11-14T22:13:20Z\"") ||
        contains(created, "time: '2023-11-14T22:13:20Z'") ||
        contains(created, "time: 2023-11-14T22:13:20Z"));
  CHECK(smdx_result_changed(r) == 1);
  char* live = malloc(len + 1);
  memcpy(live, created, len + 1);
  smdx_result_free(r);

  /* The same apply again changes nothing. */
  CHECK_CODE(smdx_apply(fm, live, strlen(live), kDeployment,
                        strlen(kDeployment), "deployer", 0, SMDX_FORMAT_JSON,
                        &r),
             SMDX_OK);
  CHECK(smdx_result_changed(r) == 0);
  smdx_result_free(r);

  /* Another manager setting replicas conflicts. */
  CHECK_CODE(smdx_apply(fm, live, strlen(live), kScaled, strlen(kScaled),
                        "autoscaler", 0, SMDX_FORMAT_JSON, &r),
             SMDX_CONFLICT);
  CHECK(smdx_result_code(r) == SMDX_CONFLICT);
  CHECK(smdx_result_conflict_count(r) == 1);
  CHECK(strcmp(smdx_result_conflict_manager(r, 0), "\"deployer\"") == 0);
  CHECK(strcmp(smdx_result_conflict_manager_name(r, 0), "deployer") == 0);
  CHECK(strcmp(smdx_result_conflict_path(r, 0), ".spec.replicas") == 0);
  CHECK(strcmp(smdx_result_conflict_path(r, 1), "") == 0);
  CHECK(strcmp(smdx_result_message(r),
               "Apply failed with 1 conflict: conflict with \"deployer\": "
               ".spec.replicas") == 0);
  CHECK(strcmp(smdx_result_data(r, NULL), "") == 0);
  smdx_result_free(r);

  /* Forced, it takes replicas over. */
  CHECK_CODE(smdx_apply(fm, live, strlen(live), kScaled, strlen(kScaled),
                        "autoscaler", 1, SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"replicas\":5"));
  CHECK(contains(smdx_result_data(r, NULL), "\"manager\":\"autoscaler\""));
  smdx_result_free(r);

  /* An update by a controller. */
  static const char kUpdated[] =
      "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\","
      " \"metadata\": {\"name\": \"web\", \"namespace\": \"default\","
      " \"labels\": {\"team\": \"a\"}},"
      " \"spec\": {\"replicas\": 2, \"selector\": {\"matchLabels\":"
      " {\"app\": \"web\"}}, \"template\": {\"metadata\": {\"labels\":"
      " {\"app\": \"web\"}}, \"spec\": {\"containers\": [{\"name\": \"app\","
      " \"image\": \"nginx:1.25\"}]}}}}";
  CHECK_CODE(smdx_update(fm, live, strlen(live), kUpdated, strlen(kUpdated),
                         "labeller", SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"operation\":\"Update\""));
  CHECK(contains(smdx_result_data(r, NULL), "\"manager\":\"labeller\""));
  CHECK(smdx_result_warning_count(r) == 0);
  CHECK(strcmp(smdx_result_warning(r, 0), "") == 0);
  smdx_result_free(r);

  /* An update passes over invalid managedFields, with a warning. */
  static const char kBadEntries[] =
      "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\","
      " \"metadata\": {\"name\": \"web\", \"managedFields\":"
      " [{\"manager\": \"x\", \"operation\": \"Bogus\"}]}}";
  CHECK_CODE(smdx_update(fm, kBadEntries, strlen(kBadEntries), kUpdated,
                         strlen(kUpdated), "labeller", SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(smdx_result_warning_count(r) >= 1);
  CHECK(strlen(smdx_result_warning(r, 0)) > 0);
  smdx_result_free(r);
  /* An apply fails on them. */
  CHECK_CODE(smdx_apply(fm, kBadEntries, strlen(kBadEntries), kScaled,
                        strlen(kScaled), "m", 0, SMDX_FORMAT_JSON, &r),
             SMDX_INVALID);
  CHECK(contains(smdx_result_message(r), "managedFields"));
  smdx_result_free(r);

  /* Invalid, bad request, parse errors. */
  static const char kWrongType[] =
      "{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\","
      " \"metadata\": {\"name\": \"web\"}, \"spec\": {\"replicas\": \"two\"}}";
  CHECK_CODE(smdx_apply(fm, NULL, 0, kWrongType, strlen(kWrongType), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_INVALID);
  CHECK(contains(smdx_result_message(r), ".spec.replicas"));
  smdx_result_free(r);
  static const char kPod[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": "
      "\"web\"}}";
  CHECK_CODE(smdx_apply(fm, NULL, 0, kPod, strlen(kPod), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_BAD_REQUEST);
  smdx_result_free(r);
  CHECK_CODE(smdx_apply(fm, NULL, 0, kScaled, strlen(kScaled), "", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_INVALID);
  CHECK(contains(smdx_result_message(r), "fieldManager"));
  smdx_result_free(r);
  CHECK_CODE(smdx_apply(fm, NULL, 0, "{\"a\": ", 6, "m", 0, SMDX_FORMAT_JSON,
                        &r),
             SMDX_PARSE_ERROR);
  CHECK(contains(smdx_result_message(r), "the configuration"));
  smdx_result_free(r);
  CHECK_CODE(smdx_apply(fm, "[1]", 3, kScaled, strlen(kScaled), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_PARSE_ERROR);
  CHECK(contains(smdx_result_message(r), "the live object"));
  smdx_result_free(r);
  /* Without a result pointer, the code alone. */
  CHECK_CODE(smdx_apply(fm, NULL, 0, "{", 1, "m", 0, SMDX_FORMAT_JSON, NULL),
             SMDX_PARSE_ERROR);
  free(live);
  smdx_field_manager_free(fm);

  /* Limits. */
  smdx_schema* b = smdx_schema_builtin();
  o.max_object_bytes = 16;
  CHECK_CODE(smdx_field_manager_new(b, &o, &fm, NULL), SMDX_OK);
  CHECK_CODE(smdx_apply(fm, NULL, 0, kScaled, strlen(kScaled), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_LIMIT_EXCEEDED);
  CHECK(contains(smdx_result_message(r), "bytes"));
  smdx_result_free(r);
  smdx_field_manager_free(fm);
  /* A kind the schema lacks. */
  o.max_object_bytes = 0;
  o.api_version = "example.com/v1";
  o.kind = "Widget";
  CHECK_CODE(smdx_field_manager_new(b, &o, &fm, &r), SMDX_NOT_FOUND);
  CHECK(fm == NULL && contains(smdx_result_message(r), "Widget"));
  smdx_result_free(r);
  o.kind = "";
  CHECK_CODE(smdx_field_manager_new(b, &o, &fm, NULL), SMDX_INVALID_ARGUMENT);
  smdx_schema_free(b);
}

static void test_crd_defaults_and_immutable(void) {
  const char* docs[1] = {kCrd};
  size_t lens[1] = {strlen(kCrd)};
  smdx_schema* s = NULL;
  smdx_result* r = NULL;
  CHECK_CODE(smdx_schema_load(docs, lens, 1, &s, &r), SMDX_OK);
  CHECK(s != NULL);
  smdx_result_free(r);
  smdx_field_manager_options o;
  smdx_field_manager_options_init(&o);
  o.api_version = "example.com/v1";
  o.kind = "Widget";
  smdx_field_manager* fm = NULL;
  CHECK_CODE(smdx_field_manager_new(s, &o, &fm, NULL), SMDX_OK);
  static const char kWidget[] =
      "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\","
      " \"metadata\": {\"name\": \"w\"}, \"spec\": {\"region\": \"eu\"}}";
  CHECK_CODE(smdx_apply(fm, NULL, 0, kWidget, strlen(kWidget), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"size\":3"));
  size_t len = 0;
  const char* data = smdx_result_data(r, &len);
  char* live = malloc(len + 1);
  memcpy(live, data, len + 1);
  smdx_result_free(r);
  static const char kMoved[] =
      "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\","
      " \"metadata\": {\"name\": \"w\"}, \"spec\": {\"region\": \"us\"}}";
  CHECK_CODE(smdx_apply(fm, live, len, kMoved, strlen(kMoved), "m", 0,
                        SMDX_FORMAT_JSON, &r),
             SMDX_IMMUTABLE);
  CHECK(smdx_result_path_count(r) == 1);
  CHECK(strcmp(smdx_result_path(r, 0), ".spec.region") == 0);
  CHECK(strcmp(smdx_result_path(r, 1), "") == 0);
  smdx_result_free(r);
  free(live);
  smdx_field_manager_free(fm);
  smdx_schema_free(s);

  /* A schema that does not hold together. */
  static const char kBroken[] =
      "types:\n- name: a\n  map:\n    fields:\n    - name: b\n      type: "
      "{namedType: missing}\n";
  docs[0] = kBroken;
  lens[0] = strlen(kBroken);
  CHECK_CODE(smdx_schema_load(docs, lens, 1, &s, &r), SMDX_SCHEMA_ERROR);
  CHECK(s == NULL && contains(smdx_result_message(r), "missing"));
  smdx_result_free(r);
  /* Two documents: the error names the one at fault. */
  const char* two[2] = {kCrd, kBroken};
  size_t two_lens[2] = {strlen(kCrd), strlen(kBroken)};
  CHECK_CODE(smdx_schema_load(two, two_lens, 2, &s, &r), SMDX_SCHEMA_ERROR);
  smdx_result_free(r);
}

static void test_typed(void) {
  smdx_schema* s = smdx_schema_builtin();
  smdx_result* r = NULL;
  CHECK_CODE(smdx_validate(s, NULL, kDeployment, strlen(kDeployment), &r),
             SMDX_OK);
  smdx_result_free(r);
  static const char kBad[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"spec\": {\"containers\": "
      "7}}";
  CHECK_CODE(smdx_validate(s, NULL, kBad, strlen(kBad), &r), SMDX_INVALID);
  CHECK(contains(smdx_result_message(r), ".spec.containers"));
  smdx_result_free(r);
  CHECK_CODE(smdx_validate(s, "io.k8s.api.core.v1.Pod", "{\"spec\": {}}", 12,
                           &r),
             SMDX_OK);
  smdx_result_free(r);
  CHECK_CODE(smdx_validate(s, "io.k8s.api.core.v1.Nope", "{}", 2, &r),
             SMDX_NOT_FOUND);
  smdx_result_free(r);
  CHECK_CODE(smdx_validate(s, NULL, "{}", 2, &r), SMDX_INVALID_ARGUMENT);
  CHECK(contains(smdx_result_message(r), "apiVersion"));
  smdx_result_free(r);
  CHECK_CODE(smdx_validate(s, NULL, "a: [", 4, &r), SMDX_PARSE_ERROR);
  smdx_result_free(r);

  static const char kLhs[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"data\": {\"a\": "
      "\"1\", \"b\": \"2\"}}";
  static const char kRhs[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"data\": {\"a\": "
      "\"9\", \"c\": \"3\"}}";
  CHECK_CODE(smdx_diff(s, NULL, kLhs, strlen(kLhs), kRhs, strlen(kRhs), &r),
             SMDX_OK);
  CHECK(strcmp(smdx_result_data(r, NULL),
               "{\"added\":[\".data.c\"],\"removed\":[\".data.b\"],"
               "\"modified\":[\".data.a\"]}") == 0);
  CHECK(smdx_result_path_count(r) == 3);
  CHECK(strcmp(smdx_result_path(r, 0), ".data.c") == 0);
  smdx_result_free(r);
  CHECK_CODE(smdx_diff(s, NULL, "{", 1, kRhs, strlen(kRhs), &r),
             SMDX_PARSE_ERROR);
  CHECK(contains(smdx_result_message(r), "lhs"));
  smdx_result_free(r);
  CHECK_CODE(smdx_diff(s, NULL, kBad, strlen(kBad), kRhs, strlen(kRhs), &r),
             SMDX_INVALID);
  smdx_result_free(r);

  CHECK_CODE(smdx_fieldset(s, NULL, kLhs, strlen(kLhs), &r), SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"f:data\":{\"f:a\":{}"));
  CHECK(smdx_result_path_count(r) >= 4);
  smdx_result_free(r);
  CHECK_CODE(smdx_fieldset(s, NULL, kBad, strlen(kBad), &r), SMDX_INVALID);
  smdx_result_free(r);
  smdx_schema_free(s);
}

/* Built-in kinds get Kubernetes' defaults unless builtin_defaults is 0. */
static void test_builtin_defaults_switch(void) {
  smdx_schema* s = smdx_schema_builtin();
  int on;
  for (on = 0; on <= 1; ++on) {
    smdx_field_manager_options o;
    smdx_field_manager_options_init(&o);
    o.api_version = "apps/v1";
    o.kind = "Deployment";
    o.builtin_defaults = on;
    smdx_field_manager* fm = NULL;
    CHECK_CODE(smdx_field_manager_new(s, &o, &fm, NULL), SMDX_OK);
    smdx_result* r = NULL;
    CHECK_CODE(smdx_apply(fm, NULL, 0, kDeployment, strlen(kDeployment),
                          "deployer", 0, SMDX_FORMAT_YAML, &r),
               SMDX_OK);
    const char* created = smdx_result_data(r, NULL);
    CHECK(contains(created, "revisionHistoryLimit: 10") == on);
    CHECK(contains(created, "progressDeadlineSeconds: 600") == on);
    smdx_result_free(r);
    smdx_field_manager_free(fm);
  }
  smdx_schema_free(s);
}

/* A field manager of the built-in v1 ConfigMap, its clock at
 * 2023-11-14T22:13:20Z (it keeps the schema alive). */
static smdx_field_manager* configmap_manager(void) {
  smdx_schema* s = smdx_schema_builtin();
  smdx_field_manager_options o;
  smdx_field_manager_options_init(&o);
  o.api_version = "v1";
  o.kind = "ConfigMap";
  o.now_unix_seconds = 1700000000;
  smdx_field_manager* fm = NULL;
  CHECK_CODE(smdx_field_manager_new(s, &o, &fm, NULL), SMDX_OK);
  smdx_schema_free(s);
  return fm;
}

/* A ConfigMap's configuration with data a alone. */
static const char kA[] =
    "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
    " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\"},"
    " \"data\": {\"a\": \"1\"}}";

/* A ConfigMap kubectl applied client-side with data a and b; kubectl's
 * server-side apply of a alone removes b (smdx_apply alone keeps it, owned
 * by the client-side applier). */
static void test_kubectl_apply(void) {
  static const char kCsaLive[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\","
      "  \"annotations\": {\"kubectl.kubernetes.io/"
      "last-applied-configuration\": \"{}\"},"
      "  \"managedFields\": [{\"manager\": \"kubectl-client-side-apply\","
      "   \"operation\": \"Update\", \"apiVersion\": \"v1\","
      "   \"time\": \"2023-11-14T22:00:00Z\", \"fieldsType\": \"FieldsV1\","
      "   \"fieldsV1\": {\"f:data\": {\".\": {}, \"f:a\": {}, \"f:b\": {}},"
      "    \"f:metadata\": {\"f:annotations\": {\".\": {},"
      "     \"f:kubectl.kubernetes.io/last-applied-configuration\": {}}}}}]},"
      " \"data\": {\"a\": \"1\", \"b\": \"2\"}}";
  smdx_field_manager* fm = configmap_manager();
  smdx_result* r = NULL;
  CHECK_CODE(smdx_apply(fm, kCsaLive, strlen(kCsaLive), kA, strlen(kA),
                        "kubectl", 0, SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"b\":\"2\""));
  smdx_result_free(r);
  CHECK_CODE(smdx_kubectl_apply(fm, kCsaLive, strlen(kCsaLive), kA,
                                strlen(kA), "kubectl", 0, SMDX_FORMAT_JSON,
                                &r),
             SMDX_OK);
  const char* moved = smdx_result_data(r, NULL);
  CHECK(!contains(moved, "\"b\":\"2\""));
  CHECK(!contains(moved, "kubectl-client-side-apply"));
  CHECK(contains(moved, "kubectl-last-applied"));
  CHECK(smdx_result_changed(r) == 1);
  smdx_result_free(r);
  CHECK_CODE(smdx_kubectl_apply(NULL, NULL, 0, kA, strlen(kA), "kubectl", 0,
                                SMDX_FORMAT_JSON, &r),
             SMDX_INVALID_ARGUMENT);
  smdx_result_free(r);
  smdx_field_manager_free(fm);
}

static char* copy_text(const char* s) {
  char* out = malloc(strlen(s) + 1);
  CHECK(out != NULL);
  strcpy(out, s);
  return out;
}

/* Client-side kubectl apply: a create with kubectl's annotation, a patch
 * that drops what the configuration dropped, then nothing sent. */
/* A write over a live object that changed since it was read: the
 * apiserver's other 409, with its message and no conflicts listed. */
static void test_stale_resource_version(void) {
  static const char kLive[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\","
      " \"uid\": \"u\", \"resourceVersion\": \"215\"}}";
  static const char kStale[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\","
      " \"resourceVersion\": \"214\"}, \"data\": {\"a\": \"1\"}}";
  smdx_field_manager* fm = configmap_manager();
  smdx_result* r = NULL;
  CHECK_CODE(smdx_update(fm, kLive, strlen(kLive), kStale, strlen(kStale),
                         "ctrl", SMDX_FORMAT_JSON, &r),
             SMDX_CONFLICT);
  CHECK(smdx_result_conflict_count(r) == 0);
  CHECK(strcmp(smdx_result_message(r),
               "Operation cannot be fulfilled on configmaps \"c\": the "
               "object has been modified; please apply your changes to the "
               "latest version and try again") == 0);
  smdx_result_free(r);

  /* A write leaving an object being deleted without finalizers deletes
   * it. */
  static const char kTerminating[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\","
      " \"uid\": \"u\", \"resourceVersion\": \"215\","
      " \"deletionTimestamp\": \"2026-01-01T00:00:00Z\","
      " \"deletionGracePeriodSeconds\": 0, \"finalizers\": [\"a.io/x\"]}}";
  static const char kReleased[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\","
      " \"deletionTimestamp\": \"2026-01-01T00:00:00Z\","
      " \"deletionGracePeriodSeconds\": 0, \"finalizers\": []}}";
  CHECK_CODE(smdx_update(fm, kTerminating, strlen(kTerminating), kReleased,
                         strlen(kReleased), "ctrl", SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(smdx_result_deleted(r) == 1);
  smdx_result_free(r);
  CHECK(smdx_result_deleted(NULL) == 0);
  smdx_field_manager_free(fm);
}

static void test_kubectl_client_side_apply(void) {
  static const char kAB[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\"},"
      " \"data\": {\"a\": \"1\", \"b\": \"2\"}}";
  smdx_field_manager* fm = configmap_manager();
  smdx_result* r = NULL;
  CHECK_CODE(smdx_kubectl_client_side_apply(fm, NULL, 0, kAB, strlen(kAB),
                                            NULL, SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  char* live = copy_text(smdx_result_data(r, NULL));
  CHECK(contains(live, "kubectl-client-side-apply"));
  CHECK(contains(live, "\\\"annotations\\\":{}"));
  smdx_result_free(r);
  CHECK_CODE(smdx_kubectl_client_side_apply(fm, live, strlen(live), kA,
                                            strlen(kA), NULL,
                                            SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  char* patched = copy_text(smdx_result_data(r, NULL));
  CHECK(!contains(patched, "\"b\":\"2\""));
  CHECK(smdx_result_changed(r) == 1);
  smdx_result_free(r);
  CHECK_CODE(smdx_kubectl_client_side_apply(fm, patched, strlen(patched), kA,
                                            strlen(kA), NULL,
                                            SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(smdx_result_changed(r) == 0);
  CHECK(smdx_result_warning_count(r) == 1);
  CHECK(contains(smdx_result_warning(r, 0), "no request"));
  smdx_result_free(r);
  free(live);
  free(patched);
  smdx_field_manager_free(fm);
}

/* Merge and JSON patches of a ConfigMap; a patch that does not apply, a
 * renamed object, an unknown type. */
static void test_patch(void) {
  static const char kLive[] =
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\","
      " \"metadata\": {\"name\": \"c\", \"namespace\": \"ns\"},"
      " \"data\": {\"a\": \"1\", \"b\": \"2\"}}";
  static const char kMerge[] = "{\"data\": {\"b\": null}}";
  static const char kJson[] =
      "[{\"op\": \"add\", \"path\": \"/data/c\", \"value\": \"3\"}]";
  static const char kMissing[] = "[{\"op\": \"remove\", \"path\": \"/data/z\"}]";
  static const char kRename[] = "{\"metadata\": {\"name\": \"d\"}}";
  static const char kStrategic[] = "{\"data\": {\"b\": null, \"c\": \"3\"}}";
  static const char kBadDirective[] = "{\"data\": {\"$patch\": \"nonsense\"}}";
  smdx_field_manager* fm = configmap_manager();
  smdx_result* r = NULL;
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kMerge, strlen(kMerge),
                        SMDX_PATCH_MERGE, "ctl", SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(!contains(smdx_result_data(r, NULL), "\"b\":"));
  /* An object nobody tracked stays untracked, as after an update. */
  CHECK(!contains(smdx_result_data(r, NULL), "managedFields"));
  smdx_result_free(r);
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kJson, strlen(kJson),
                        SMDX_PATCH_JSON, "ctl", SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"c\":\"3\""));
  smdx_result_free(r);
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kMissing, strlen(kMissing),
                        SMDX_PATCH_JSON, "ctl", SMDX_FORMAT_JSON, &r),
             SMDX_INVALID);
  CHECK(contains(smdx_result_message(r), "operation 0 (remove)"));
  smdx_result_free(r);
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kRename, strlen(kRename),
                        SMDX_PATCH_MERGE, "ctl", SMDX_FORMAT_JSON, &r),
             SMDX_BAD_REQUEST);
  smdx_result_free(r);
  /* A strategic merge patch: the Go type's map merges as a merge patch
   * would; an unknown $patch is the apiserver's 500. */
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kStrategic,
                        strlen(kStrategic), SMDX_PATCH_STRATEGIC, "ctl",
                        SMDX_FORMAT_JSON, &r),
             SMDX_OK);
  CHECK(contains(smdx_result_data(r, NULL), "\"c\":\"3\""));
  CHECK(!contains(smdx_result_data(r, NULL), "\"b\":"));
  smdx_result_free(r);
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kBadDirective,
                        strlen(kBadDirective), SMDX_PATCH_STRATEGIC, "ctl",
                        SMDX_FORMAT_JSON, &r),
             SMDX_INTERNAL);
  CHECK(contains(smdx_result_message(r), "unknown patch type: nonsense"));
  smdx_result_free(r);
  CHECK_CODE(smdx_patch(fm, kLive, strlen(kLive), kMerge, strlen(kMerge),
                        (smdx_patch_type)7, "ctl", SMDX_FORMAT_JSON, &r),
             SMDX_INVALID_ARGUMENT);
  smdx_result_free(r);
  smdx_field_manager_free(fm);
}

int main(void) {
  test_names();
  test_null_handles();
  test_apply_conflict_force_update();
  test_builtin_defaults_switch();
  test_kubectl_apply();
  test_kubectl_client_side_apply();
  test_stale_resource_version();
  test_patch();
  test_crd_defaults_and_immutable();
  test_typed();
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
