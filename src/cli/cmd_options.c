/*
** chive options: the option registry on the command line.
**
**   chive options [--format text|json] [--scope SCOPE]   list the options
**   chive options --markdown                             docs/options.md
**   chive options [--format json] --check KEY=VALUE ...  validate values
**
** --check parses each value as chive would on SET and prints it parsed
** ("streaming-source.monitor-interval = 300000 ms (5 min)"); the first
** invalid one is reported on stderr with the key, the value and what is
** allowed, and the exit status is 1.  Usage errors exit with 2.
**
** INTERFACE
**   cli_options()   the sub-command entry point (cli.h)
*/
#include "cli.h"

#include "chive/config.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out) {
  fprintf(out, "usage: chive options [--format text|json] [--scope SCOPE]\n"
               "       chive options --markdown\n"
               "       chive options [--format json] --check KEY=VALUE ...\n"
               "\n"
               "Lists the configuration options chive honours (Flink's key, "
               "type,\n"
               "default and description), or validates values and prints them "
               "parsed.\n"
               "SCOPE is one of job, table, catalog, module, endpoint, hive, "
               "format.\n");
}

/* Write a buffer to stdout; 1 on a write error. */
static int emit(const struct chv_buf *b) {
  if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len) return 1;
  return fflush(stdout) == 0 ? 0 : 1;
}

/* Validate one KEY=VALUE; append its parsed form to out. */
static int check_one(const char *arg, bool json, bool first,
                     struct chv_buf *out, struct chv_error *err) {
  const char *eq = strchr(arg, '=');
  char *key = chv_strndup(arg, (size_t)(eq - arg));
  if (key == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  const char *text = eq + 1;
  int rc;
  const struct chv_option *opt = chv_option_find(key);
  if (opt == NULL) {
    const char *near = chv_option_suggest(key);
    rc = near ? chv_error_set(err, CHV_ENOENT,
                          "unknown option '%s'; did you mean '%s'?", key, near)
              : chv_error_set(err, CHV_ENOENT,
                          "unknown option '%s'; 'chive options' lists "
                          "the known ones",
                          key);
    goto out_free_key;
  }
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  rc = chv_option_parse(opt, text, &v, err);
  if (rc != CHV_OK) goto out_free_key;
  struct chv_buf parsed;
  chv_buf_init(&parsed);
  rc = chv_opt_value_format(&v, &parsed);
  bool alias = strcmp(key, opt->key) != 0;
  if (rc == CHV_OK && json) {
    chv_buf_puts(out, first ? "[\n  {\"key\": " : ",\n  {\"key\": ");
    chv_json_put_string(out, opt->key);
    chv_buf_puts(out, ", \"given_key\": ");
    chv_json_put_string(out, key);
    chv_buf_puts(out, ", \"type\": ");
    chv_json_put_string(out, chv_opt_type_name(opt->type));
    chv_buf_puts(out, ", \"value\": ");
    chv_json_put_string(out, text);
    chv_buf_puts(out, ", \"parsed\": ");
    chv_json_put_string(out, parsed.data ? parsed.data : "");
    rc = chv_buf_puts(out, "}");
  } else if (rc == CHV_OK) {
    rc = chv_buf_printf(out, "%s = %s", opt->key,
                        parsed.data ? parsed.data : "");
    if (rc == CHV_OK && alias)
      rc = chv_buf_printf(out, " (given as the deprecated key '%s')", key);
    if (rc == CHV_OK) rc = chv_buf_putc(out, '\n');
  }
  if (rc != CHV_OK) rc = chv_error_set(err, rc, "out of memory");
  chv_buf_free(&parsed);
  chv_opt_value_free(&v);
out_free_key:
  chv_free(key);
  return rc;
}

int cli_options(int argc, char **argv) {
  bool json = false, markdown = false, check = false;
  unsigned scope = 0;
  int first_check = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
      const char *f = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
      if (f && !strcmp(f, "json")) {
        json = true;
      } else if (f && !strcmp(f, "text")) {
        json = false;
      } else {
        fprintf(stderr, "chive options: --format takes 'text' or 'json'\n");
        return 2;
      }
    } else if (!strcmp(a, "--scope") || !strncmp(a, "--scope=", 8)) {
      const char *s = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
      unsigned bit = s ? chv_opt_scope_parse(s) : 0;
      if (bit == 0) {
        fprintf(stderr, "chive options: unknown scope '%s'\n", s ? s : "");
        usage(stderr);
        return 2;
      }
      scope |= bit;
    } else if (!strcmp(a, "--markdown")) {
      markdown = true;
    } else if (!strcmp(a, "--check")) {
      check = true;
      first_check = i + 1;
      break;
    } else {
      fprintf(stderr, "chive options: unknown argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if ((markdown && (json || check || scope)) || (scope && (check || json))) {
    fprintf(stderr, "chive options: --markdown, --scope and --check do not "
                    "combine\n");
    return 2;
  }

  struct chv_buf out;
  chv_buf_init(&out);
  int status = 0;
  if (check) {
    if (first_check >= argc) {
      fprintf(stderr, "chive options: --check needs KEY=VALUE arguments\n");
      return 2;
    }
    for (int i = first_check; i < argc; i++) {
      const char *eq = strchr(argv[i], '=');
      if (eq == NULL || eq == argv[i]) {
        fprintf(stderr, "chive options: expected KEY=VALUE, got '%s'\n",
                argv[i]);
        chv_buf_free(&out);
        return 2;
      }
    }
    struct chv_error err;
    chv_error_clear(&err);
    for (int i = first_check; i < argc && status == 0; i++) {
      if (check_one(argv[i], json, i == first_check, &out, &err) != CHV_OK) {
        fprintf(stderr, "chive options: %s\n", err.msg);
        status = 1;
      }
    }
    if (status == 0 && json) chv_buf_puts(&out, "\n]\n");
    if (status == 0 && emit(&out) != 0) status = 1;
    chv_buf_free(&out);
    return status;
  }

  int rc = markdown ? chv_options_render_markdown(&out)
           : json   ? chv_options_render_json(&out)
                    : chv_options_render_text(&out, scope);
  if (rc != CHV_OK) {
    fprintf(stderr, "chive options: %s\n", chv_status_text(rc));
    status = 1;
  } else if (emit(&out) != 0) {
    perror("chive options: write");
    status = 1;
  }
  chv_buf_free(&out);
  return status;
}
