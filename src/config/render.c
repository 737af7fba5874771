/*
** The registry rendered for people and programs: an aligned text table
** (`chive options`), a JSON array (`chive options --format json`) and the
** Markdown of docs/options.md (`chive options --markdown`).
**
** docs/options.md is generated from here and committed; the unit test
** test_config compares the two, so the document cannot drift from the
** registry.  The hand-written parts of the document (introduction, the
** differences between the seeds and current Flink) are the strings below.
**
** INTERFACE
**   chv_options_render_text()      aligned table, optionally one scope
**   chv_options_render_json()      JSON array of option objects
**   chv_options_render_markdown()  docs/options.md
**   chv_json_put_string()          a JSON string literal
*/
#include "config/config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- a writer with a sticky status ------------------------------------ */

/* Appends to buf until one append fails; rc then keeps the failure and the
** later appends do nothing, so renderers check once at the end. */
struct writer {
  struct chv_buf *buf;
  int rc;
};

static void w_puts(struct writer *w, const char *s) {
  if (w->rc == CHV_OK) w->rc = chv_buf_puts(w->buf, s);
}

static void w_putc(struct writer *w, char c) {
  if (w->rc == CHV_OK) w->rc = chv_buf_putc(w->buf, c);
}

static void w_printf(struct writer *w, const char *fmt, ...) CHV_PRINTF(2, 3);
static void w_printf(struct writer *w, const char *fmt, ...) {
  if (w->rc != CHV_OK) return;
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    w->rc = CHV_EINVAL;
  } else if ((size_t)n < sizeof small) {
    w->rc = chv_buf_append(w->buf, small, (size_t)n);
  } else {
    char *big = chv_malloc((size_t)n + 1);
    if (big == NULL) {
      w->rc = CHV_ENOMEM;
      return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    w->rc = chv_buf_append(w->buf, big, (size_t)n);
    chv_free(big);
  }
}

static void w_json(struct writer *w, const char *s) {
  if (w->rc == CHV_OK) w->rc = chv_json_put_string(w->buf, s);
}

/* ---- shared pieces ----------------------------------------------------- */

/* Flink's declared type of an option. */
static const char *flink_type(const struct chv_option *o) {
  return o->flink_type ? o->flink_type : chv_opt_type_name(o->type);
}

/* Append s with control characters written as escapes (\n, \001) and, for
** Markdown, '|' escaped. */
static void put_visible(struct writer *b, const char *s, bool markdown) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\n')
      w_puts(b, "\\n");
    else if (*p == '\t')
      w_puts(b, "\\t");
    else if (*p < 0x20 || *p == 0x7f)
      w_printf(b, "\\%03o", *p);
    else if (markdown && *p == '|')
      w_puts(b, "\\|");
    else if (markdown && *p == '<')
      w_puts(b, "&lt;");
    else if (markdown && *p == '>')
      w_puts(b, "&gt;");
    else
      w_putc(b, (char)*p);
  }
}

/* Append what an option accepts, briefly ("≥ 1", "> 0", "0 to 1"). */
static void put_allowed(struct writer *b, const struct chv_option *o,
                        bool markdown) {
  const char *q = markdown ? "`" : "'";
  switch (o->type) {
  case CHV_OPT_BOOL:
    w_printf(b, "%strue%s, %sfalse%s", q, q, q, q);
    return;
  case CHV_OPT_INT:
  case CHV_OPT_LONG:
  case CHV_OPT_DURATION:
  case CHV_OPT_MEMORY: {
    bool integral = o->type == CHV_OPT_INT || o->type == CHV_OPT_LONG;
    int64_t lo = o->min, hi = o->max;
    if (o->min == 0 && o->max == 0) {
      w_puts(b, integral ? "any" : "≥ 0");
      return;
    }
    if (!integral && lo == 1 && hi == INT64_MAX) {
      w_puts(b, "> 0");
      return;
    }
    if (hi == INT64_MAX)
      w_printf(b, "≥ %" PRId64, lo);
    else
      w_printf(b, "%" PRId64 " to %" PRId64, lo, hi);
    if (o->type == CHV_OPT_MEMORY) w_puts(b, " bytes");
    if (o->type == CHV_OPT_DURATION) w_puts(b, " ms");
    return;
  }
  case CHV_OPT_DOUBLE:
    if (o->dmin == 0.0 && o->dmax == 0.0)
      w_puts(b, "any");
    else
      w_printf(b, "%g to %g", o->dmin, o->dmax);
    return;
  case CHV_OPT_STRING:
    w_puts(b, (o->flags & CHV_OPTF_NONEMPTY) ? "non-empty" : "any");
    return;
  case CHV_OPT_ENUM:
  case CHV_OPT_LIST:
    if (o->type == CHV_OPT_LIST)
      w_printf(b, "%s%c%s-separated%s", q, o->separator, q,
               o->values ? ": " : "");
    for (size_t i = 0; o->values && o->values[i]; i++)
      w_printf(b, "%s%s%s%s", i ? ", " : "", q, o->values[i], q);
    return;
  }
}

/* Append the default: `text`, none, plus the note in parentheses. */
static void put_default(struct writer *b, const struct chv_option *o,
                        bool markdown) {
  const char *q = markdown ? "`" : "";
  if (o->flags & CHV_OPTF_DEFAULT_CPUS) {
    /* Computed when looked up; the note says so. */
    put_visible(b, o->default_note, markdown);
    return;
  }
  if (o->default_text) {
    w_puts(b, q);
    put_visible(b, o->default_text, markdown);
    w_puts(b, q);
  } else {
    w_puts(b, "none");
  }
  if (o->default_note) {
    w_puts(b, " (");
    put_visible(b, o->default_note, markdown);
    w_puts(b, ")");
  }
}

static void put_scopes(struct writer *b, unsigned scope, const char *sep) {
  bool first = true;
  for (int i = 0; i < CHV_SCOPE_INDEX_COUNT; i++) {
    if (!(scope & (1u << i))) continue;
    w_printf(b, "%s%s", first ? "" : sep, chv_opt_scope_name(1u << i));
    first = false;
  }
}

/* A buffer's text so far, "" while it is still unallocated. */
static const char *text_of(const struct chv_buf *b) {
  return b->data ? b->data : "";
}

/* ---- text table -------------------------------------------------------- */

int chv_options_render_text(struct chv_buf *buf, unsigned scope_mask) {
  struct writer out = {buf, CHV_OK};
  struct chv_buf cell_buf;
  chv_buf_init(&cell_buf);
  struct writer cell = {&cell_buf, CHV_OK};
  size_t n = chv_option_count();
  size_t wkey = 3, wtype = 4, wdef = 7, wscope = 5;
  /* First pass: column widths. */
  for (size_t i = 0; i < n; i++) {
    const struct chv_option *o = chv_option_at(i);
    if (scope_mask && !(o->scope & scope_mask)) continue;
    wkey = CHV_MAX(wkey, strlen(o->key));
    wtype = CHV_MAX(wtype, strlen(flink_type(o)));
    chv_buf_reset(&cell_buf);
    put_default(&cell, o, false);
    wdef = CHV_MAX(wdef, cell_buf.len);
    chv_buf_reset(&cell_buf);
    put_scopes(&cell, o->scope, ",");
    wscope = CHV_MAX(wscope, cell_buf.len);
  }
  /* Long defaults overflow their column rather than widen every row. */
  wdef = CHV_MIN(wdef, (size_t)28);
  w_printf(&out, "%-*s  %-*s  %-*s  %-*s  %s\n", (int)wkey, "KEY", (int)wtype,
           "TYPE", (int)wdef, "DEFAULT", (int)wscope, "SCOPE", "DESCRIPTION");
  for (size_t i = 0; i < n; i++) {
    const struct chv_option *o = chv_option_at(i);
    if (scope_mask && !(o->scope & scope_mask)) continue;
    chv_buf_reset(&cell_buf);
    put_default(&cell, o, false);
    w_printf(&out, "%-*s  %-*s  %-*s  ", (int)wkey, o->key, (int)wtype,
             flink_type(o), (int)wdef, text_of(&cell_buf));
    chv_buf_reset(&cell_buf);
    put_scopes(&cell, o->scope, ",");
    w_printf(&out, "%-*s  %s", (int)wscope, text_of(&cell_buf), o->description);
    for (const char *const *a = o->aliases; a && *a; a++)
      w_printf(&out, " Deprecated key: %s.", *a);
    w_putc(&out, '\n');
  }
  chv_buf_free(&cell_buf);
  return out.rc != CHV_OK ? out.rc : cell.rc;
}

/* ---- JSON -------------------------------------------------------------- */

int chv_json_put_string(struct chv_buf *out, const char *s) {
  CHV_RETURN_IF_ERR(chv_buf_putc(out, '"'));
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    int rc;
    switch (*p) {
    case '"':
      rc = chv_buf_puts(out, "\\\"");
      break;
    case '\\':
      rc = chv_buf_puts(out, "\\\\");
      break;
    case '\n':
      rc = chv_buf_puts(out, "\\n");
      break;
    case '\r':
      rc = chv_buf_puts(out, "\\r");
      break;
    case '\t':
      rc = chv_buf_puts(out, "\\t");
      break;
    default:
      if (*p < 0x20 || *p == 0x7f)
        rc = chv_buf_printf(out, "\\u%04x", *p);
      else
        rc = chv_buf_putc(out, (char)*p);
    }
    CHV_RETURN_IF_ERR(rc);
  }
  return chv_buf_putc(out, '"');
}

static void json_string_or_null(struct writer *b, const char *s) {
  if (s)
    w_json(b, s);
  else
    w_puts(b, "null");
}

static void json_string_array(struct writer *b, const char *const *v) {
  w_putc(b, '[');
  for (size_t i = 0; v && v[i]; i++) {
    if (i) w_puts(b, ", ");
    w_json(b, v[i]);
  }
  w_putc(b, ']');
}

static void json_option(struct writer *b, const struct chv_option *o) {
  w_puts(b, "  {\"key\": ");
  w_json(b, o->key);
  w_puts(b, ", \"type\": ");
  w_json(b, flink_type(o));
  w_puts(b, ", \"kind\": ");
  w_json(b, chv_opt_type_name(o->type));
  w_puts(b, ", \"default\": ");
  json_string_or_null(b, o->default_text);
  w_puts(b, ", \"default_note\": ");
  json_string_or_null(b, o->default_note);
  w_puts(b, ", \"scope\": [");
  bool first = true;
  for (int i = 0; i < CHV_SCOPE_INDEX_COUNT; i++) {
    if (!(o->scope & (1u << i))) continue;
    if (!first) w_puts(b, ", ");
    w_json(b, chv_opt_scope_name(1u << i));
    first = false;
  }
  w_puts(b, "], \"source\": ");
  w_json(b, chv_opt_source_name(o->source));
  w_puts(b, ", \"aliases\": ");
  json_string_array(b, o->aliases);
  w_puts(b, ", \"values\": ");
  json_string_array(b, o->values);
  if (o->type == CHV_OPT_LIST) {
    char sep[2] = {o->separator, '\0'};
    w_puts(b, ", \"separator\": ");
    w_json(b, sep);
  }
  bool integral = o->type == CHV_OPT_INT || o->type == CHV_OPT_LONG ||
                  o->type == CHV_OPT_DURATION || o->type == CHV_OPT_MEMORY;
  if (integral && (o->min != 0 || o->max != 0)) {
    w_printf(b, ", \"min\": %" PRId64, o->min);
    if (o->max != INT64_MAX) w_printf(b, ", \"max\": %" PRId64, o->max);
  } else if (o->type == CHV_OPT_DOUBLE && (o->dmin != 0.0 || o->dmax != 0.0)) {
    w_printf(b, ", \"min\": %g, \"max\": %g", o->dmin, o->dmax);
  }
  w_printf(b, ", \"deprecated\": %s",
           (o->flags & CHV_OPTF_DEPRECATED) ? "true" : "false");
  w_puts(b, ", \"description\": ");
  w_json(b, o->description);
  w_putc(b, '}');
}

int chv_options_render_json(struct chv_buf *buf) {
  struct writer out = {buf, CHV_OK};
  size_t n = chv_option_count();
  w_puts(&out, "[\n");
  for (size_t i = 0; i < n; i++) {
    json_option(&out, chv_option_at(i));
    w_puts(&out, i + 1 < n ? ",\n" : "\n");
  }
  w_puts(&out, "]\n");
  return out.rc;
}

/* ---- Markdown ---------------------------------------------------------- */

/* A section of docs/options.md: the options it shows, first match wins. */
struct md_section {
  const char *title;
  const char *intro;
  unsigned scope; /* options with one of these bits */
  int source;     /* or of this source (-1: any) */
};

static const struct md_section md_sections[] = {
    {"Job options",
     "`HiveOptions` (and `source.report-statistics`, "
     "`table.dynamic-table-options.enabled`) read from the session "
     "configuration: `SET 'key' = 'value'` or the configuration file.",
     CHV_SCOPE_JOB, -1},
    {"Table options",
     "Table properties (`TBLPROPERTIES`) or `/*+ OPTIONS(...) */` hints of "
     "one query.",
     0, CHV_SRC_HIVE_OPTIONS},
    {"Hive table parameters", "Parameters Hive itself keeps on a table.", 0,
     CHV_SRC_HIVE_TABLE},
    {"File-system connector options reused by the Hive sink and source",
     "`FileSystemConnectorOptions`, set as table properties or hints.", 0,
     CHV_SRC_FS_OPTIONS},
    {"Catalog and module options",
     "Options of `CREATE CATALOG ... WITH ('type' = 'hive', ...)` and of the "
     "Hive module. `'type' = 'hive'` selects the catalog and is not listed.",
     CHV_SCOPE_CATALOG | CHV_SCOPE_MODULE, -1},
    {"HiveServer2 endpoint options",
     "Options of the SQL gateway's HiveServer2 endpoint, selected with "
     "`sql-gateway.endpoint.type: hiveserver2`. Flink declares them without "
     "the `sql-gateway.endpoint.hiveserver2.` prefix; configuration files "
     "and chive use the full key.",
     CHV_SCOPE_ENDPOINT, -1},
    {"Hive configuration keys",
     "Keys of `hive-site.xml` (or the session) that the connector reads.",
     CHV_SCOPE_HIVE, -1},
    {"File format and SerDe table properties",
     "Table properties read by the Parquet, ORC and text (LazySimpleSerDe) "
     "formats.",
     CHV_SCOPE_FORMAT, -1},
};

static const struct md_section *md_section_of(const struct chv_option *o) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(md_sections); i++) {
    const struct md_section *s = &md_sections[i];
    if ((o->scope & s->scope) ||
        (s->source >= 0 && (int)o->source == s->source))
      return s;
  }
  return NULL;
}

static const char md_head[] =
    "# Configuration options\n"
    "\n"
    "<!-- Generated by `chive options --markdown` from the registry in\n"
    "     src/config/options.c and src/config/render.c; do not edit by hand.\n"
    "     Regenerate with: build/chive options --markdown > docs/options.md "
    "-->\n"
    "\n"
    "Every option chive honours, with Apache Flink's key, type and default "
    "(flink-connector-hive\n"
    "on Flink 1.20). `chive options` prints this list, `chive options "
    "--format json` prints it\n"
    "as JSON, and `chive options --check key=value ...` validates values and "
    "prints them parsed.\n"
    "\n"
    "## Values\n"
    "\n"
    "- **Boolean**: `true` or `false`, in any case.\n"
    "- **Integer**, **Long**: decimal, within the range shown under "
    "*Allowed*.\n"
    "- **Duration**: a number and an optional unit, blanks allowed between "
    "them: `5 min`, `30s`,\n"
    "  `1 h`, `2 d`, `100ms`. Units: `ns`, `us`, `ms`, `s`, `min` (or `m`), "
    "`h`, `d` and their long\n"
    "  forms (`millis`, `seconds`, `minutes`, `hours`, `days`, ...). A bare "
    "number is milliseconds.\n"
    "  Negative values and fractions are rejected.\n"
    "- **MemorySize**: a number and an optional unit: `128mb`, `256MB`, `4 "
    "kb`. Units (binary,\n"
    "  any case): `b`, `k`/`kb`, `m`/`mb`, `g`/`gb`, `t`/`tb` and "
    "`bytes`, `kibibytes`, `mebibytes`,\n"
    "  `gibibytes`, `tebibytes`. A bare number is bytes.\n"
    "- **Enum**: one of the listed values, in any case, with `-` and `_` "
    "alike: `partition-time` and\n"
    "  `PARTITION_TIME` are the same value. Options Flink declares as String "
    "but checks against a\n"
    "  fixed set are validated the same way.\n"
    "- **Lists**: elements separated by the shown separator "
    "(`metastore,success-file`), blanks\n"
    "  around elements ignored, empty elements rejected.\n"
    "\n"
    "An invalid value is rejected with a message naming the key, the value "
    "and what is allowed:\n"
    "\n"
    "```\n"
    "invalid value 'sideways' for option 'sink.partition-commit.trigger': "
    "expected one of\n"
    "'process-time' or 'partition-time' (case-insensitive, '-' or '_')\n"
    "```\n"
    "\n"
    "## Where values come from\n"
    "\n"
    "A value is looked up in layers, the first one holding the key (or a "
    "deprecated alias of it)\n"
    "winning: **table property > session value > configuration file > "
    "default**. Within one layer\n"
    "the current key wins over a deprecated alias. Values are validated when "
    "they are set. The\n"
    "table layer keeps unknown keys (Hive tables carry arbitrary "
    "parameters); the session and the\n"
    "configuration file reject an unknown key in a family the registry owns "
    "(`table.exec.hive.`,\n"
    "`streaming-source.`, `sink.`, `lookup.`, `partition.time-extractor.`, "
    "`compaction.`,\n"
    "`flink.hive.`, `sql-gateway.endpoint.hiveserver2.`) and name the "
    "closest known key.\n"
    "\n"
    "Flink itself reads job options only from the session configuration and "
    "table options only\n"
    "from the table (and hints). chive applies all layers to every key, so a "
    "table property can\n"
    "override a job option for one table and a session value acts as the "
    "default of a table\n"
    "option for every table. Options placed where Flink reads them behave "
    "as in Flink.\n"
    "\n"
    "An `OPTIONS` hint after a table name (`SELECT * FROM t /*+ "
    "OPTIONS('k'='v') */`, `INSERT INTO t\n"
    "/*+ OPTIONS(...) */ ...`) is one more layer above the table's "
    "properties, for that statement\n"
    "only (Flink's dynamic table options, switched by "
    "`table.dynamic-table-options.enabled`). Its\n"
    "keys must be table or format options of the registry (an unknown key, "
    "a job option or a bad\n"
    "value is an error naming the key); it is never stored.\n"
    "\n"
    "\"none\" means the option has no default; the text in parentheses says "
    "what applies when it\n"
    "is unset.\n";

static const char md_differences[] =
    "\n"
    "## Differences between the seeds and current Flink\n"
    "\n"
    "The seed documents (`seeds/000` to `seeds/004`) disagree with each "
    "other and with current\n"
    "Flink in places. chive follows current Flink:\n"
    "\n"
    "| Item | Seed says | Current Flink (chive) |\n"
    "|---|---|---|\n"
    "| `table.exec.hive.read-partition-with-subdirectory.enabled` default | "
    "000: `false` | `true` |\n"
    "| `table.exec.hive.fallback-mapred-writer` default | 000: `false` (001: "
    "`true`) | `true` |\n"
    "| `table.exec.hive.fallback-mapred-reader` default | 003 (a vendor's "
    "page): `true`, meaning inverted; 000, 001: `false` | `false` |\n"
    "| `table.exec.hive.sink.sort-by-dynamic-partition.enable` default | 000: "
    "`false` | `true` |\n"
    "| `table.exec.hive.sink.statistic-auto-gather.enable` default | 000: "
    "`false` | `true` |\n"
    "| Parallelism inference | 000, 001, 003: the boolean "
    "`table.exec.hive.infer-source-parallelism` | that boolean is "
    "deprecated; `table.exec.hive.infer-source-parallelism.mode` (`static`, "
    "`dynamic`, `none`; default `dynamic`) chooses |\n"
    "| `sink.partition-commit.policy.kind` default | 000: not set, partitions "
    "committed immediately | `metastore,success-file` for batch writes; a "
    "streaming write into a partitioned table must set it |\n"
    "| `streaming-source.monitor-interval` default | 000: 1 minute | none; "
    "1 min for a streaming scan and 60 min for a temporal join apply when "
    "unset |\n"
    "| `streaming-source.consume-start-offset` when unset | 000: consume "
    "from the latest partition | read every existing partition, then follow "
    "new ones |\n"
    "| `streaming-source.partition-order` type | 001: String (000: the "
    "enum `PartitionOrder`) | Enum "
    "(`create-time`, `partition-time`, `partition-name`) with the deprecated "
    "key `streaming-source.consume-order`; both spellings accepted "
    "(`partition-time`, `CREATE_TIME` as in 000's examples) |\n"
    "| Lookup cache TTL key | 001: `lookup.cache.ttl` | "
    "`lookup.join.cache.ttl`, default `60 min`; `lookup.cache.ttl` is no "
    "option of the Hive connector (chive accepts it as a deprecated alias, "
    "with a warning) |\n"
    "| `lookup.join.cache.max-size` | 000: Integer, default 10000 | no such "
    "option: a Hive lookup table caches the whole build table and reloads it "
    "after the TTL; chive registers it as 000 gives it, for the lookup join "
    "to come |\n"
    "| `table.exec.hive.fallback-mapred-reader`, `-writer` | 000, 001: choose "
    "Hive's mapred reader or writer | chive has neither: its native readers "
    "and writers are always used, and `true` is accepted with a warning |\n"
    "| `hive-conf-dir` | 000: required | optional; unset means hive-site.xml "
    "is looked up on the class path |\n"
    "| `hive-version` default | 000: `3.1.2` | none; detected from the Hive "
    "libraries in use (003 agrees) |\n"
    "| Endpoint keys | 000: bare constant names | keys carry the prefix "
    "`sql-gateway.endpoint.hiveserver2.` |\n"
    "| Endpoint `thrift.host` default | 000: `localhost` | none; the server "
    "binds the wildcard address |\n"
    "| Endpoint `thrift.worker.threads.max` default | 000: 500 | 512 |\n"
    "| Endpoint `thrift.max.message.size` type | 000: MemorySize | Long "
    "`104857600`, a plain number of bytes (`100mb` is rejected) |\n"
    "| Endpoint catalog name | 000: `CATALOG_DEFAULT_NAME`, default "
    "`default_catalog` | key `catalog.name`, default `hive` |\n"
    "| Where options are read | 000, 001: every option in the Flink "
    "configuration or as a table property | job options from the session, "
    "table options from the table; chive layers every key (see *Where values "
    "come from*) |\n";

int chv_options_render_markdown(struct chv_buf *buf) {
  struct writer out = {buf, CHV_OK};
  struct chv_buf cell_buf;
  chv_buf_init(&cell_buf);
  struct writer cell = {&cell_buf, CHV_OK};
  w_puts(&out, md_head);
  for (size_t s = 0; s < CHV_ARRAY_SIZE(md_sections); s++) {
    const struct md_section *sec = &md_sections[s];
    w_printf(&out, "\n## %s\n\n%s\n\n", sec->title, sec->intro);
    w_puts(&out, "| Key | Type | Default | Allowed | Description |\n"
                 "|---|---|---|---|---|\n");
    for (size_t i = 0; i < chv_option_count(); i++) {
      const struct chv_option *o = chv_option_at(i);
      if (md_section_of(o) != sec) continue;
      w_printf(&out, "| `%s`", o->key);
      for (const char *const *a = o->aliases; a && *a; a++)
        w_printf(&out, "<br>deprecated: `%s`", *a);
      w_puts(&out, " | ");
      put_visible(&out, flink_type(o), true);
      w_puts(&out, " | ");
      chv_buf_reset(&cell_buf);
      put_default(&cell, o, true);
      w_printf(&out, "%s | ", text_of(&cell_buf));
      chv_buf_reset(&cell_buf);
      put_allowed(&cell, o, true);
      w_printf(&out, "%s | ", text_of(&cell_buf));
      put_visible(&out, o->description, true);
      if (o->flags & CHV_OPTF_DEPRECATED) w_puts(&out, " Deprecated.");
      w_puts(&out, " Scope: ");
      put_scopes(&out, o->scope, ", ");
      w_printf(&out, "; declared in `%s`. |\n", chv_opt_source_name(o->source));
    }
  }
  w_puts(&out, md_differences);
  chv_buf_free(&cell_buf);
  return out.rc != CHV_OK ? out.rc : cell.rc;
}
