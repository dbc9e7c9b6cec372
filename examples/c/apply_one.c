/* Applies one object the way the apiserver would, with the C API.
 *
 *   apply_one MANAGER CONFIG [LIVE]
 *
 * CONFIG is the applied configuration and LIVE the stored object (absent:
 * a create), as JSON or YAML files of a built-in kind. Prints the object
 * the server would store, with its managedFields, as YAML. Exit status: 0
 * applied, 2 conflicts (printed as the apiserver words them), 1 otherwise.
 *
 *   cc apply_one.c $(pkg-config --cflags --libs smdx) -o apply_one
 */
#include <smdx/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated, or NULL after saying why. */
static char* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char* buf = malloc(cap);
  size_t got;
  while (buf != NULL && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n - 1 == 0) {
      char* bigger = realloc(buf, cap * 2);
      if (bigger == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf == NULL) {
    fprintf(stderr, "%s: out of memory\n", path);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The value of `key: value` on the first line that starts with it. */
static int top_level(const char* doc, const char* key, char* out, size_t cap) {
  size_t klen = strlen(key);
  for (const char* line = doc; line != NULL && *line != '\0';) {
    if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
      const char* v = line + klen + 1;
      while (*v == ' ' || *v == '"') ++v;
      size_t n = 0;
      while (v[n] != '\0' && v[n] != '\n' && v[n] != '"' && n + 1 < cap) {
        out[n] = v[n];
        ++n;
      }
      out[n] = '\0';
      return n > 0;
    }
    line = strchr(line, '\n');
    if (line != NULL) ++line;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s MANAGER CONFIG [LIVE]\n", argv[0]);
    return 1;
  }
  size_t config_len = 0, live_len = 0;
  char* config = read_file(argv[2], &config_len);
  char* live = argc == 4 ? read_file(argv[3], &live_len) : NULL;
  if (config == NULL || (argc == 4 && live == NULL)) return 1;

  /* The resource: the configuration's apiVersion and kind (a YAML file
   * with them at the top level, as manifests have them). */
  char api_version[128], kind[128];
  if (!top_level(config, "apiVersion", api_version, sizeof api_version) ||
      !top_level(config, "kind", kind, sizeof kind)) {
    fprintf(stderr, "%s: no top-level apiVersion and kind\n", argv[2]);
    return 1;
  }

  smdx_schema* schema = smdx_schema_builtin();
  smdx_field_manager_options opts;
  smdx_field_manager_options_init(&opts);
  opts.api_version = api_version;
  opts.kind = kind;
  smdx_field_manager* fm = NULL;
  smdx_result* r = NULL;
  int status = 1;
  if (smdx_field_manager_new(schema, &opts, &fm, &r) != SMDX_OK) {
    fprintf(stderr, "error: %s\n", smdx_result_message(r));
  } else {
    smdx_result_free(r);
    smdx_code code = smdx_apply(fm, live, live_len, config, config_len,
                                argv[1], /*force=*/0, SMDX_FORMAT_YAML, &r);
    if (code == SMDX_OK) {
      fputs(smdx_result_data(r, NULL), stdout);
      status = 0;
    } else {
      fprintf(stderr, "error (%s): %s\n", smdx_code_name(code),
              smdx_result_message(r));
      for (size_t i = 0; i < smdx_result_conflict_count(r); ++i) {
        fprintf(stderr, "  %s owns %s\n",
                smdx_result_conflict_manager_name(r, i),
                smdx_result_conflict_path(r, i));
      }
      status = code == SMDX_CONFLICT ? 2 : 1;
    }
  }
  smdx_result_free(r);
  smdx_field_manager_free(fm);
  smdx_schema_free(schema);
  free(config);
  free(live);
  return status;
}
