/*
** Tests of src/config: the registry against research §1, value parsing
** (valid and invalid values of every type), the layered lookup, deprecated
** aliases, configuration files, the typed getters, rendering, allocation
** failures, and that docs/options.md is what the registry generates.
*/
#include "chv_test.h"

#include "config/config.h"

#include <math.h>

/* ---- helpers ----------------------------------------------------------- */

/* Read a whole file into a chv_malloc'd string; NULL when unreadable. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  struct chv_buf b;
  chv_buf_init(&b);
  char tmp[4096];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
    chv_buf_append(&b, tmp, n);
  fclose(f);
  return chv_buf_detach(&b);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return;
  fputs(text, f);
  fclose(f);
}

/* Parse key=value through the registry and format the result. */
static int parse_fmt(const char *key, const char *value, char *out, size_t n,
                     struct chv_error *err) {
  const struct chv_option *o = chv_option_find(key);
  if (o == NULL) return chv_error_set(err, CHV_ENOENT, "no option %s", key);
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = chv_option_parse(o, value, &v, err);
  if (rc == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    chv_opt_value_format(&v, &b);
    snprintf(out, n, "%s", b.data ? b.data : "");
    chv_buf_free(&b);
  }
  chv_opt_value_free(&v);
  return rc;
}

/* ---- the registry ------------------------------------------------------ */

static void test_registry_well_formed(void) {
  size_t n = chv_option_count();
  CHV_CHECK(n >= 80);
  for (size_t i = 0; i < n; i++) {
    const struct chv_option *o = chv_option_at(i);
    CHV_REQUIRE(o != NULL && o->key != NULL && o->key[0] != '\0');
    /* Unique: looking the key up finds this very entry. */
    CHV_CHECK(chv_option_find(o->key) == o);
    for (const char *const *a = o->aliases; a && *a; a++)
      CHV_CHECK(chv_option_find(*a) == o);
    /* Descriptions are full sentences. */
    size_t dl = strlen(o->description);
    CHV_CHECK(dl > 10 && o->description[dl - 1] == '.');
    CHV_CHECK(o->scope != 0);
    if (o->type == CHV_OPT_ENUM) CHV_CHECK(o->values && o->values[0]);
    if (o->type == CHV_OPT_LIST) CHV_CHECK(o->separator != '\0');
    /* Every default is a valid value of its own option. */
    if (o->default_text) {
      struct chv_error err;
      struct chv_opt_value v;
      chv_opt_value_init(&v);
      int rc = chv_option_parse(o, o->default_text, &v, &err);
      if (rc != CHV_OK) fprintf(stderr, "default of %s: %s\n", o->key, err.msg);
      CHV_CHECK_EQ_INT(rc, CHV_OK);
      chv_opt_value_free(&v);
    } else {
      /* An option without a default says what applies instead, or is
      ** simply optional (a class name, a directory). */
      CHV_CHECK(o->default_note == NULL || o->default_note[0] != '\0');
    }
  }
  CHV_CHECK(chv_option_at(n) == NULL);
  CHV_CHECK(chv_option_find("no.such.option") == NULL);
  CHV_CHECK(chv_option_find(NULL) == NULL);
}

/* One row of research_keys.tsv. */
struct research_key {
  char key[128];
  char type[32];
  char def[128];
};

/* Load research_keys.tsv; returns the number of rows (0 on failure). */
static size_t load_research_keys(struct research_key *rows, size_t max) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/unit/config/research_keys.tsv",
           chv_test_source_dir());
  char *text = slurp(path);
  if (text == NULL) {
    fprintf(stderr, "cannot read %s\n", path);
    return 0;
  }
  size_t n = 0;
  for (char *line = strtok(text, "\n"); line && n < max;
       line = strtok(NULL, "\n")) {
    if (line[0] == '#' || line[0] == '\0') continue;
    char *t1 = strchr(line, '\t');
    char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (t2 == NULL) continue;
    *t1 = *t2 = '\0';
    snprintf(rows[n].key, sizeof rows[n].key, "%s", line);
    snprintf(rows[n].type, sizeof rows[n].type, "%s", t1 + 1);
    snprintf(rows[n].def, sizeof rows[n].def, "%s", t2 + 1);
    n++;
  }
  chv_free(text);
  return n;
}

/* Every option of research §1 is registered under Flink's key with Flink's
** type and default (durations and sizes compared by value). */
static void test_research_keys_registered(void) {
  static struct research_key rows[128];
  size_t n = load_research_keys(rows, CHV_ARRAY_SIZE(rows));
  CHV_REQUIRE(n >= 69);
  for (size_t i = 0; i < n; i++) {
    const struct chv_option *o = chv_option_find(rows[i].key);
    if (o == NULL) {
      fprintf(stderr, "not registered: %s\n", rows[i].key);
      CHV_CHECK(o != NULL);
      continue;
    }
    CHV_CHECK_STREQ(o->key, rows[i].key);
    const char *type =
        o->flink_type ? o->flink_type : chv_opt_type_name(o->type);
    if (strcmp(type, rows[i].type) != 0)
      fprintf(stderr, "%s: type %s, research %s\n", o->key, type, rows[i].type);
    CHV_CHECK_STREQ(type, rows[i].type);
    if (!strcmp(rows[i].def, "none")) {
      if (o->default_text) fprintf(stderr, "%s has a default\n", o->key);
      CHV_CHECK(o->default_text == NULL);
      continue;
    }
    CHV_REQUIRE(o->default_text != NULL);
    char want[256], got[256];
    struct chv_error err;
    CHV_CHECK_OK(parse_fmt(o->key, rows[i].def, want, sizeof want, &err), &err);
    CHV_CHECK_OK(parse_fmt(o->key, o->default_text, got, sizeof got, &err),
                 &err);
    if (strcmp(want, got) != 0)
      fprintf(stderr, "%s: default %s, research %s\n", o->key, got, want);
    CHV_CHECK_STREQ(got, want);
  }
  /* The CPU-count default is resolved at lookup. */
  const struct chv_option *o =
      chv_option_find("table.exec.hive.read-statistics.thread-num");
  CHV_REQUIRE(o != NULL);
  CHV_CHECK(o->flags & CHV_OPTF_DEFAULT_CPUS);
}

static void test_scopes_and_sources(void) {
  const struct chv_option *o =
      chv_option_find("table.exec.hive.split-max-size");
  CHV_REQUIRE(o != NULL);
  CHV_CHECK(o->scope == CHV_SCOPE_JOB);
  CHV_CHECK_STREQ(chv_opt_source_name(o->source), "HiveOptions");
  o = chv_option_find("sink.rolling-policy.file-size");
  CHV_REQUIRE(o != NULL);
  CHV_CHECK(o->scope == CHV_SCOPE_TABLE);
  CHV_CHECK_STREQ(chv_opt_source_name(o->source), "FileSystemConnectorOptions");
  o = chv_option_find("hive-version");
  CHV_REQUIRE(o != NULL);
  CHV_CHECK(o->scope == (CHV_SCOPE_CATALOG | CHV_SCOPE_MODULE));
  CHV_CHECK_STREQ(chv_opt_scope_name(CHV_SCOPE_ENDPOINT), "endpoint");
  CHV_CHECK(chv_opt_scope_name(3) == NULL);
  CHV_CHECK(chv_opt_scope_parse("HIVE") == CHV_SCOPE_HIVE);
  CHV_CHECK(chv_opt_scope_parse("nope") == 0);
  CHV_CHECK_STREQ(chv_opt_type_name(CHV_OPT_MEMORY), "MemorySize");
}

/* ---- parsing: valid values --------------------------------------------- */

static void test_valid_values(void) {
  static const struct {
    const char *key, *value, *want;
  } cases[] = {
      /* Durations: a bare number is milliseconds. */
      {"streaming-source.monitor-interval", "5 min", "300000 ms (5 min)"},
      {"streaming-source.monitor-interval", "30s", "30000 ms (30 s)"},
      {"streaming-source.monitor-interval", "1 h", "3600000 ms (1 h)"},
      {"streaming-source.monitor-interval", "2 d", "172800000 ms (2 d)"},
      {"streaming-source.monitor-interval", "100ms", "100 ms"},
      {"streaming-source.monitor-interval", "100", "100 ms"},
      {"streaming-source.monitor-interval", " 90 SECONDS ", "90000 ms (90 s)"},
      {"streaming-source.monitor-interval", "2m", "120000 ms (2 min)"},
      {"sink.partition-commit.delay", "0", "0 ms"},
      /* Memory sizes: a bare number is bytes; binary multiples. */
      {"table.exec.hive.split-max-size", "128mb", "134217728 bytes (128 mb)"},
      {"table.exec.hive.split-max-size", "256MB", "268435456 bytes (256 mb)"},
      {"table.exec.hive.split-max-size", "4 kb", "4096 bytes (4 kb)"},
      {"table.exec.hive.split-max-size", "100", "100 bytes"},
      {"table.exec.hive.split-max-size", "1g", "1073741824 bytes (1 gb)"},
      {"table.exec.hive.split-max-size", "2 mebibytes", "2097152 bytes (2 mb)"},
      {"table.exec.hive.file-open-cost", "0", "0 bytes"},
      /* Booleans in any case. */
      {"streaming-source.enable", "TRUE", "true"},
      {"streaming-source.enable", "False", "false"},
      /* Integers at the ends of their ranges. */
      {"sql-gateway.endpoint.hiveserver2.thrift.port", "0", "0"},
      {"sql-gateway.endpoint.hiveserver2.thrift.port", "65535", "65535"},
      {"table.exec.hive.infer-source-parallelism.max", "2147483647",
       "2147483647"},
      {"sql-gateway.endpoint.hiveserver2.thrift.max.message.size",
       "9223372036854775807", "9223372036854775807"},
      {"orc.dictionary.key.threshold", "0.8", "0.8"},
      {"orc.dictionary.key.threshold", "1", "1"},
      /* Enums in both spellings, printed canonically. */
      {"streaming-source.partition-order", "partition-time", "partition-time"},
      {"streaming-source.partition-order", "PARTITION_TIME", "partition-time"},
      {"streaming-source.partition-order", "Create_Time", "create-time"},
      {"table.exec.hive.infer-source-parallelism.mode", "STATIC", "static"},
      {"source.report-statistics", "none", "NONE"},
      {"hive.default.fileformat", "orc", "ORC"},
      {"parquet.compression", "lz4-raw", "LZ4_RAW"},
      /* Lists. */
      {"sink.partition-commit.policy.kind", "metastore,success-file",
       "[metastore, success-file]"},
      {"sink.partition-commit.policy.kind", " CUSTOM , metastore ",
       "[custom, metastore]"},
      {"sink.partition-commit.policy.class.parameters", "a;b c;d",
       "[a, b c, d]"},
      {"orc.bloom.filter.columns", "id,name", "[id, name]"},
      {"orc.bloom.filter.columns", " ", "[]"},
      /* Strings keep their text. */
      {"partition.time-extractor.timestamp-pattern", "$dt $hr:00:00",
       "$dt $hr:00:00"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    char got[256];
    struct chv_error err;
    int rc = parse_fmt(cases[i].key, cases[i].value, got, sizeof got, &err);
    if (rc != CHV_OK)
      fprintf(stderr, "%s=%s: %s\n", cases[i].key, cases[i].value, err.msg);
    CHV_CHECK_EQ_INT(rc, CHV_OK);
    if (rc == CHV_OK) CHV_CHECK_STREQ(got, cases[i].want);
  }
}

/* ---- parsing: invalid values of every type ------------------------------ */

static void test_invalid_values_name_key_value_rule(void) {
  static const struct {
    const char *key, *value;
    int code;
    const char *rule; /* a piece of the rule the message must state */
  } cases[] = {
      /* Boolean */
      {"streaming-source.enable", "yes?", CHV_EINVAL,
       "expected 'true' or 'false'"},
      {"streaming-source.enable", "", CHV_EINVAL, "'true' or 'false'"},
      {"streaming-source.enable", "1", CHV_EINVAL, "'true' or 'false'"},
      /* Integer: out of range, non-numeric, overflow */
      {"table.exec.hive.load-partition-splits.thread-num", "0", CHV_ERANGE,
       "an integer from 1 to 2147483647"},
      {"table.exec.hive.load-partition-splits.thread-num", "-3", CHV_ERANGE,
       "an integer from 1 to 2147483647"},
      {"table.exec.hive.load-partition-splits.thread-num", "three", CHV_EINVAL,
       "an integer from 1 to 2147483647"},
      {"table.exec.hive.load-partition-splits.thread-num", "2147483648",
       CHV_ERANGE, "an integer from 1 to 2147483647"},
      {"table.exec.hive.load-partition-splits.thread-num",
       "99999999999999999999", CHV_ERANGE, "does not fit in 64 bits"},
      {"table.exec.hive.load-partition-splits.thread-num", "3.5", CHV_EINVAL,
       "an integer"},
      {"sql-gateway.endpoint.hiveserver2.thrift.port", "65536", CHV_ERANGE,
       "an integer from 0 to 65535"},
      /* Long */
      {"sql-gateway.endpoint.hiveserver2.thrift.max.message.size", "100mb",
       CHV_EINVAL, "an integer from 1 to 9223372036854775807"},
      {"sql-gateway.endpoint.hiveserver2.thrift.max.message.size",
       "9223372036854775808", CHV_ERANGE, "does not fit in 64 bits"},
      /* Double */
      {"orc.dictionary.key.threshold", "1.5", CHV_ERANGE,
       "a number from 0 to 1"},
      {"orc.dictionary.key.threshold", "nan", CHV_EINVAL,
       "a number from 0 to 1"},
      {"orc.dictionary.key.threshold", "0x1p-1", CHV_EINVAL,
       "a number from 0 to 1"},
      /* Duration */
      {"streaming-source.monitor-interval", "5 parsecs", CHV_EINVAL,
       "unknown time unit 'parsecs'; expected a duration"},
      {"streaming-source.monitor-interval", "-1 s", CHV_EINVAL,
       "negative values are not allowed"},
      {"streaming-source.monitor-interval", "0 s", CHV_ERANGE,
       "a duration of at least 1 ms"},
      {"streaming-source.monitor-interval", "1.5 h", CHV_EINVAL,
       "expected a duration"},
      {"streaming-source.monitor-interval", "min", CHV_EINVAL,
       "does not start with a number"},
      {"streaming-source.monitor-interval", "", CHV_EINVAL,
       "the value is empty"},
      {"streaming-source.monitor-interval", "106751991168 d", CHV_ERANGE,
       "overflows"},
      {"sink.partition-commit.delay", "soon", CHV_EINVAL,
       "'5 min', '30 s' or '100 ms'"},
      /* Memory size */
      {"table.exec.hive.split-max-size", "12 zb", CHV_EINVAL,
       "unknown memory unit 'zb'; expected a memory size"},
      {"table.exec.hive.split-max-size", "", CHV_EINVAL, "the value is empty"},
      {"table.exec.hive.split-max-size", "   ", CHV_EINVAL,
       "the value is empty"},
      {"table.exec.hive.split-max-size", "abc", CHV_EINVAL,
       "expected a memory size of at least 1 byte such as '128mb', '4 kb' "
       "or a number of bytes"},
      {"table.exec.hive.split-max-size", "0", CHV_ERANGE,
       "a memory size of at least 1 byte"},
      {"table.exec.hive.split-max-size", "8388608 tb", CHV_ERANGE, "overflows"},
      {"parquet.page.size", "2gb", CHV_ERANGE,
       "a memory size from 1 byte to 2147483647 bytes"},
      /* Enum */
      {"sink.partition-commit.trigger", "sideways", CHV_EINVAL,
       "one of 'process-time' or 'partition-time'"},
      {"streaming-source.partition-order", "partition time", CHV_EINVAL,
       "'create-time', 'partition-time' or 'partition-name'"},
      {"streaming-source.partition.include", "", CHV_EINVAL,
       "'all' or 'latest'"},
      /* List */
      {"sink.partition-commit.policy.kind", "metastore,sideways", CHV_EINVAL,
       "element 'sideways' is not allowed; expected a ','-separated list of "
       "'metastore', 'success-file' or 'custom'"},
      {"sink.partition-commit.policy.kind", "metastore,,success-file",
       CHV_EINVAL, "empty element"},
      {"sink.partition-commit.policy.kind", "", CHV_EINVAL, "empty element"},
      /* Non-empty string */
      {"sink.partition-commit.success-file.name", "", CHV_EINVAL,
       "a non-empty file name"},
      /* The success file stays inside its partition folder. */
      {"sink.partition-commit.success-file.name", "../../escape", CHV_EINVAL,
       "a path would leave the partition folder; expected a non-empty file "
       "name without '/'"},
      {"sink.partition-commit.success-file.name", "a\\b", CHV_EINVAL,
       "a path would leave"},
      {"sink.partition-commit.success-file.name", "..", CHV_EINVAL,
       "other than '.' and '..'"},
      {"sink.partition-commit.success-file.name", "sub/_SUCCESS", CHV_EINVAL,
       "a path would leave"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    const struct chv_option *o = chv_option_find(cases[i].key);
    CHV_REQUIRE(o != NULL);
    struct chv_error err;
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = chv_option_parse(o, cases[i].value, &v, &err);
    if (rc != cases[i].code)
      fprintf(stderr, "case %zu (%s=%s): rc %d, want %d: %s\n", i, cases[i].key,
              cases[i].value, rc, cases[i].code, rc ? err.msg : "");
    CHV_CHECK_EQ_INT(rc, cases[i].code);
    if (rc == CHV_OK) {
      chv_opt_value_free(&v);
      continue;
    }
    char want[512];
    snprintf(want, sizeof want,
             "invalid value '%s' for option '%s': ", cases[i].value,
             cases[i].key);
    CHV_CHECK_CONTAINS(err.msg, want);
    CHV_CHECK_CONTAINS(err.msg, cases[i].rule);
    CHV_CHECK_STREQ(err.sqlstate, rc == CHV_ERANGE ? "22003" : "22023");
    /* Nothing was written on failure. */
    CHV_CHECK(v.text == NULL && v.list == NULL);
  }
}

/* Every type the registry uses has at least one invalid case above. */
static void test_every_type_has_a_rule(void) {
  bool seen[CHV_OPT_LIST + 1] = {false};
  for (size_t i = 0; i < chv_option_count(); i++) {
    const struct chv_option *o = chv_option_at(i);
    char rule[512];
    chv_option_rule(o, rule, sizeof rule);
    CHV_CHECK(strncmp(rule, "expected ", 9) == 0);
    seen[o->type] = true;
  }
  for (int t = 0; t <= CHV_OPT_LIST; t++)
    CHV_CHECK(seen[t]);
}

/* ---- unit grammars ----------------------------------------------------- */

static void test_duration_grammar(void) {
  static const struct {
    const char *text;
    int64_t ms;
  } ok[] = {
      {"0", 0},
      {"1 ns", 0},
      {"2500000 ns", 2},
      {"1500 us", 1},
      {"1500 \xc2\xb5s", 1},
      {"7 micros", 0},
      {"3 milli", 3},
      {"3 millis", 3},
      {"3 milliseconds", 3},
      {"1 sec", 1000},
      {"2 secs", 2000},
      {"1 second", 1000},
      {"1 minute", 60000},
      {"3 minutes", 180000},
      {"1 hour", 3600000},
      {"2 hours", 7200000},
      {"1 day", 86400000},
      {"3 days", 259200000},
      {"5MIN", 300000},
      {"9223372036854775807", INT64_MAX},
      {"106751991167 d", INT64_C(106751991167) * 86400000},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ok); i++) {
    int64_t ms = -1;
    struct chv_error err;
    CHV_CHECK_OK(chv_duration_parse(ok[i].text, &ms, &err), &err);
    CHV_CHECK_EQ_INT(ms, ok[i].ms);
  }
  static const char *const bad[] = {"",
                                    "s",
                                    "-5 s",
                                    "+5 s",
                                    "5 weeks",
                                    "5 s 3 ms",
                                    "1e3",
                                    "106751991168 d",
                                    "9223372036854775808"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    int64_t ms = 42;
    struct chv_error err;
    CHV_CHECK(chv_duration_parse(bad[i], &ms, &err) != CHV_OK);
    CHV_CHECK_EQ_INT(ms, 42);
  }
  struct chv_buf b;
  chv_buf_init(&b);
  chv_duration_format(90000, &b);
  CHV_CHECK_STREQ(b.data, "90 s");
  chv_buf_reset(&b);
  chv_duration_format(0, &b);
  CHV_CHECK_STREQ(b.data, "0 ms");
  chv_buf_reset(&b);
  chv_duration_format(86400000, &b);
  CHV_CHECK_STREQ(b.data, "1 d");
  chv_buf_free(&b);
}

static void test_memory_grammar(void) {
  static const struct {
    const char *text;
    int64_t bytes;
  } ok[] = {
      {"0", 0},
      {"7 b", 7},
      {"7 bytes", 7},
      {"1k", 1024},
      {"1 kibibytes", 1024},
      {"3m", 3 << 20},
      {"1 GB", INT64_C(1) << 30},
      {"2 gibibytes", INT64_C(2) << 30},
      {"1t", INT64_C(1) << 40},
      {"1 tebibytes", INT64_C(1) << 40},
      {"8388607 tb", INT64_C(8388607) << 40},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ok); i++) {
    int64_t bytes = -1;
    struct chv_error err;
    CHV_CHECK_OK(chv_memory_parse(ok[i].text, &bytes, &err), &err);
    CHV_CHECK_EQ_INT(bytes, ok[i].bytes);
  }
  static const char *const bad[] = {"",      "mb",   "-1mb",      "1.5mb",
                                    "12 zb", "1 pb", "8388608 tb"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    int64_t bytes = 42;
    struct chv_error err;
    CHV_CHECK(chv_memory_parse(bad[i], &bytes, &err) != CHV_OK);
    CHV_CHECK_EQ_INT(bytes, 42);
  }
  struct chv_buf b;
  chv_buf_init(&b);
  chv_memory_format(1536, &b);
  CHV_CHECK_STREQ(b.data, "1536 bytes");
  chv_buf_reset(&b);
  chv_memory_format(INT64_C(3) << 30, &b);
  CHV_CHECK_STREQ(b.data, "3 gb");
  chv_buf_free(&b);
}

/* ---- layered configuration --------------------------------------------- */

static void test_layer_precedence(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  const char *k = "table.exec.hive.split-max-size";
  int64_t bytes = 0;
  enum chv_config_layer layer;

  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 128 << 20);
  CHV_CHECK(chv_config_lookup(cfg, k, &layer) == NULL);
  CHV_CHECK_EQ_INT(layer, CHV_LAYER_DEFAULT);
  CHV_CHECK(!chv_config_is_set(cfg, k));

  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_FILE, k, "64mb", &err), &err);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 64 << 20);
  CHV_CHECK(chv_config_is_set(cfg, k));

  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, k, "32mb", &err), &err);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 32 << 20);

  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_TABLE, k, "16mb", &err), &err);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 16 << 20);
  CHV_CHECK_STREQ(chv_config_lookup(cfg, k, &layer), "16mb");
  CHV_CHECK_EQ_INT(layer, CHV_LAYER_TABLE);

  /* Replacing a value in a layer keeps one entry. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_TABLE, k, "8mb", &err), &err);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 8 << 20);
  CHV_CHECK_EQ_INT(chv_config_unset(cfg, CHV_LAYER_TABLE, k), CHV_OK);
  CHV_CHECK_EQ_INT(chv_config_unset(cfg, CHV_LAYER_TABLE, k), CHV_ENOENT);

  /* Peeling the layers off walks back down to the default. */
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 32 << 20);
  chv_config_clear(cfg, CHV_LAYER_SESSION);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 64 << 20);
  chv_config_clear(cfg, CHV_LAYER_FILE);
  CHV_CHECK_OK(chv_config_get_memory(cfg, k, &bytes, &err), &err);
  CHV_CHECK_EQ_INT(bytes, 128 << 20);

  /* The default layer cannot be set. */
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_DEFAULT, k, "1mb", &err),
                   CHV_EINVAL);
  CHV_CHECK_STREQ(chv_config_layer_name(CHV_LAYER_SESSION), "session");
  chv_config_close(cfg);
  chv_config_close(NULL);
}

static void test_set_validates_and_keeps_layer(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  const char *k = "streaming-source.monitor-interval";
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, k, "5 min", &err), &err);
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_SESSION, k, "5 parsecs", &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "'5 parsecs'");
  CHV_CHECK_CONTAINS(err.msg, k);
  /* The table layer validates registered keys too. */
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_TABLE, k, "-1 s", &err),
                   CHV_EINVAL);
  int64_t ms = 0;
  CHV_CHECK_OK(chv_config_get_duration_ms(cfg, k, &ms, &err), &err);
  CHV_CHECK_EQ_INT(ms, 300000);
  chv_config_close(cfg);
}

static void test_alias_lookup(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  const char *key = "streaming-source.partition-order";
  const char *alias = "streaming-source.consume-order";
  const char *s = NULL;
  int idx = -1;

  CHV_CHECK_OK(chv_config_get_string(cfg, key, &s, &err), &err);
  CHV_CHECK_STREQ(s, "partition-name");

  /* A value set under the deprecated key is found under the current one. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_TABLE, alias, "CREATE_TIME", &err),
               &err);
  CHV_CHECK_OK(chv_config_get_string(cfg, key, &s, &err), &err);
  CHV_CHECK_STREQ(s, "create-time");
  CHV_CHECK_OK(chv_config_get_enum(cfg, key, &idx, &err), &err);
  CHV_CHECK_EQ_INT(idx, 0);
  /* And the other way round. */
  CHV_CHECK_OK(chv_config_get_string(cfg, alias, &s, &err), &err);
  CHV_CHECK_STREQ(s, "create-time");

  /* A higher layer wins whichever spelling the lower one used... */
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_SESSION, key, "partition-time", &err),
      &err);
  CHV_CHECK_OK(chv_config_get_string(cfg, key, &s, &err), &err);
  CHV_CHECK_STREQ(s, "create-time");
  /* ...and within one layer the current key wins over the alias. */
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_TABLE, key, "partition-name", &err), &err);
  CHV_CHECK_OK(chv_config_get_string(cfg, key, &s, &err), &err);
  CHV_CHECK_STREQ(s, "partition-name");
  /* An invalid value under the alias names the key as given. */
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_TABLE, alias, "random", &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "'random'");
  CHV_CHECK_CONTAINS(err.msg, "'streaming-source.partition-order'");

  /* The Hive 2 spelling of collection.delim. */
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_TABLE, "colelction.delim", ",", &err),
      &err);
  CHV_CHECK_OK(chv_config_get_string(cfg, "collection.delim", &s, &err), &err);
  CHV_CHECK_STREQ(s, ",");
  chv_config_close(cfg);
}

static void test_unknown_keys(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  /* Tables keep arbitrary parameters, but not in registry families. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_TABLE, "comment", "x", &err),
               &err);
  CHV_CHECK_EQ_INT(
      chv_config_set(cfg, CHV_LAYER_TABLE, "streaming-source.foo", "1", &err),
      CHV_ENOENT);
  CHV_CHECK_EQ_INT(chv_option_check("sink.partition-commit.policy.knd",
                                    "metastore", &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "did you mean "
                              "'sink.partition-commit.policy.kind'?");
  CHV_CHECK_EQ_INT(chv_option_check("partition.time-extractor.knd", "default",
                                    &err),
                   CHV_ENOENT);
  CHV_CHECK_EQ_INT(chv_option_check("auto-compaction.enable", "true", &err),
                   CHV_ENOENT);
  CHV_CHECK_OK(chv_option_check("numRows", "3", &err), &err);
  CHV_CHECK_OK(chv_option_check("lookup.join.cache.max-size", "5000", &err),
               &err);
  /* Options of other Flink components pass through a session. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, "execution.runtime-mode",
                              "batch", &err),
               &err);
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  CHV_CHECK_OK(chv_config_get(cfg, "execution.runtime-mode", &v, &err), &err);
  CHV_CHECK(v.type == CHV_OPT_STRING);
  CHV_CHECK_STREQ(v.text, "batch");
  chv_opt_value_free(&v);
  CHV_CHECK_EQ_INT(chv_config_get(cfg, "not.set.anywhere", &v, &err),
                   CHV_ENOENT);
  /* A misspelt key of a registry family is refused with a suggestion. */
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_SESSION,
                                  "streaming-source.enabled", "true", &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "unknown option 'streaming-source.enabled'");
  CHV_CHECK_CONTAINS(err.msg, "did you mean 'streaming-source.enable'?");
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_FILE,
                                  "table.exec.hive.fallback-mapred-readr",
                                  "true", &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "'table.exec.hive.fallback-mapred-reader'");
  /* Far from every key: no suggestion, a pointer to the list instead. */
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_SESSION,
                                  "sink.something-else-entirely-different", "1",
                                  &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "'chive options' lists");
  CHV_CHECK(chv_config_set(cfg, CHV_LAYER_SESSION, "", "1", &err) ==
            CHV_EINVAL);
  chv_config_close(cfg);
}

/* Values chive cannot honour yet are refused in every layer, naming the
** key and the value. */
static void test_refused_values(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  const char *uris = "hive.metastore.uris";
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_SESSION, uris,
                                  "thrift://127.0.0.1:9083", &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "hive.metastore.uris=thrift://127.0.0.1:9083 "
                              "selects a remote Hive Metastore");
  CHV_CHECK(!chv_config_is_set(cfg, uris));
  /* Blank is no metastore: the embedded one. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, uris, " ", &err), &err);
  char path[1024];
  snprintf(path, sizeof path, "%s/refused.yaml", chv_test_tmpdir());
  write_file(path, "hive.metastore.uris: thrift://127.0.0.1:9083\n");
  CHV_CHECK_EQ_INT(chv_config_load_file(cfg, path, &err), CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "refused.yaml:1: hive.metastore.uris=");
  chv_config_close(cfg);
}

struct warnings {
  int n;
  char last[512];
};

static void collect_warning(void *ctx, const char *msg) {
  struct warnings *w = ctx;
  w->n++;
  snprintf(w->last, sizeof w->last, "%s", msg);
}

/* Deprecated keys and values chive does not honour as Flink would are
** accepted with a warning, each once per configuration. */
static void test_warnings(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  struct warnings w = {0};
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  chv_config_set_warning_handler(cfg, collect_warning, &w);

  /* Seed 001's spelling of the lookup TTL. */
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_SESSION, "lookup.cache.ttl", "1h", &err),
      &err);
  CHV_CHECK_EQ_INT(w.n, 1);
  CHV_CHECK_STREQ(w.last, "'lookup.cache.ttl' is a deprecated key; use "
                          "'lookup.join.cache.ttl'");
  int64_t ms = 0;
  CHV_CHECK_OK(
      chv_config_get_duration_ms(cfg, "lookup.join.cache.ttl", &ms, &err),
      &err);
  CHV_CHECK_EQ_INT(ms, 3600000);
  /* The current key, and Hive's own spelling of collection.delim: none. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, "lookup.join.cache.ttl",
                              "2h", &err),
               &err);
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_TABLE, "colelction.delim", ",", &err),
      &err);
  CHV_CHECK_EQ_INT(w.n, 1);

  /* A mapred reader or writer asked for: warned once. */
  const char *rd = "table.exec.hive.fallback-mapred-reader";
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, rd, "false", &err),
               &err);
  CHV_CHECK_EQ_INT(w.n, 1);
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, rd, "TRUE", &err), &err);
  CHV_CHECK_EQ_INT(w.n, 2);
  CHV_CHECK_CONTAINS(w.last, "fallback-mapred-reader=true asks for Hive's "
                             "mapred record reader");
  CHV_CHECK_CONTAINS(w.last, "the native readers are used");
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, rd, "true", &err), &err);
  CHV_CHECK_EQ_INT(w.n, 2);
  /* Table properties and file lines go the same way. */
  chv_config_warn(cfg, "table.exec.hive.fallback-mapred-writer", "true",
                  "table t");
  CHV_CHECK_EQ_INT(w.n, 3);
  CHV_CHECK_CONTAINS(w.last, "table t: table.exec.hive.fallback-mapred-writer"
                             "=true asks for Hive's mapred record writer");
  char path[1024];
  snprintf(path, sizeof path, "%s/warn.yaml", chv_test_tmpdir());
  write_file(path, "# deprecated spelling\n"
                   "streaming-source.consume-order: create-time\n");
  CHV_CHECK_OK(chv_config_load_file(cfg, path, &err), &err);
  CHV_CHECK_EQ_INT(w.n, 4);
  CHV_CHECK_CONTAINS(w.last, "warn.yaml:2: 'streaming-source.consume-order' "
                             "is a deprecated key");
  /* Without a handler nothing is sent; a bad value gets no warning. */
  char buf[256];
  CHV_CHECK(!chv_option_warning(rd, "maybe", buf, sizeof buf));
  CHV_CHECK(!chv_option_warning("no.such.key", "1", buf, sizeof buf));
  chv_config_set_warning_handler(cfg, NULL, NULL);
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                              "table.exec.hive.fallback-mapred-writer", "true",
                              &err),
               &err);
  CHV_CHECK_EQ_INT(w.n, 4);
  chv_config_close(cfg);
}

/* Seed 000's lookup.join.cache.max-size: an Integer, 10000 by default. */
static void test_lookup_cache_max_size(void) {
  const struct chv_option *o = chv_option_find("lookup.join.cache.max-size");
  CHV_REQUIRE(o != NULL);
  CHV_CHECK(o->type == CHV_OPT_INT);
  CHV_CHECK(o->scope & CHV_SCOPE_TABLE);
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  int64_t n = 0;
  CHV_CHECK_OK(chv_config_get_int(cfg, o->key, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 10000);
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION, o->key, "50000", &err),
               &err);
  CHV_CHECK_OK(chv_config_get_int(cfg, o->key, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 50000);
  CHV_CHECK_EQ_INT(chv_config_set(cfg, CHV_LAYER_SESSION, o->key, "0", &err),
                   CHV_ERANGE);
  CHV_CHECK_EQ_INT(
      chv_config_set(cfg, CHV_LAYER_SESSION, o->key, "many", &err), CHV_EINVAL);
  chv_config_close(cfg);
}

static void test_suggest(void) {
  CHV_CHECK_STREQ(chv_option_suggest("lookup.join.cache.tll"),
                  "lookup.join.cache.ttl");
  CHV_CHECK_STREQ(chv_option_suggest("sink.partition-commit.policy.kinds"),
                  "sink.partition-commit.policy.kind");
  CHV_CHECK(chv_option_suggest("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz") ==
            NULL);
  CHV_CHECK(chv_option_is_reserved_key("table.exec.hive.x"));
  CHV_CHECK(chv_option_is_reserved_key("sql-gateway.endpoint.hiveserver2.x"));
  CHV_CHECK(!chv_option_is_reserved_key("table.exec.resource.x"));
  CHV_CHECK(!chv_option_is_reserved_key("hive.exec.x"));
}

static void test_typed_getters(void) {
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  bool b = false;
  int64_t i = 0;
  double d = 0;
  const char *s = NULL;

  CHV_CHECK_OK(chv_config_get_bool(
                   cfg, "table.exec.hive.fallback-mapred-writer", &b, &err),
               &err);
  CHV_CHECK(b);
  CHV_CHECK_OK(chv_config_get_int(cfg,
                                  "sql-gateway.endpoint.hiveserver2."
                                  "thrift.max.message.size",
                                  &i, &err),
               &err);
  CHV_CHECK_EQ_INT(i, 104857600);
  CHV_CHECK_OK(
      chv_config_get_double(cfg, "orc.dictionary.key.threshold", &d, &err),
      &err);
  CHV_CHECK(fabs(d - 0.8) < 1e-12);
  CHV_CHECK_OK(
      chv_config_get_duration_ms(cfg, "lookup.join.cache.ttl", &i, &err), &err);
  CHV_CHECK_EQ_INT(i, 3600000);
  CHV_CHECK_OK(
      chv_config_get_string(cfg, "hive.exec.default.partition.name", &s, &err),
      &err);
  CHV_CHECK_STREQ(s, "__HIVE_DEFAULT_PARTITION__");
  CHV_CHECK_OK(chv_config_get_string(cfg, "field.delim", &s, &err), &err);
  CHV_CHECK_STREQ(s, "\001");
  CHV_CHECK_OK(
      chv_config_get_string(cfg, "serialization.null.format", &s, &err), &err);
  CHV_CHECK_STREQ(s, "\\N");

  /* The number of CPUs as default. */
  CHV_CHECK_OK(chv_config_get_int(
                   cfg, "table.exec.hive.read-statistics.thread-num", &i, &err),
               &err);
  CHV_CHECK(i >= 1);
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                              "table.exec.hive.read-statistics.thread-num", "7",
                              &err),
               &err);
  CHV_CHECK_OK(chv_config_get_int(
                   cfg, "table.exec.hive.read-statistics.thread-num", &i, &err),
               &err);
  CHV_CHECK_EQ_INT(i, 7);

  /* No value and no default. */
  i = 99;
  CHV_CHECK_EQ_INT(chv_config_get_duration_ms(
                       cfg, "streaming-source.monitor-interval", &i, &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "is not set and has no default");
  CHV_CHECK_EQ_INT(i, 99);

  /* Asking for the wrong type is a programming error, reported. */
  CHV_CHECK_EQ_INT(chv_config_get_bool(cfg, "lookup.join.cache.ttl", &b, &err),
                   CHV_ETYPE);
  CHV_CHECK_CONTAINS(err.msg, "is a Duration, not a Boolean");
  CHV_CHECK_EQ_INT(chv_config_get_int(cfg, "no.such.key", &i, &err),
                   CHV_ENOENT);

  /* Hive's TRANSACTIONAL key in any case; an ACID table is refused. */
  CHV_CHECK_OK(
      chv_config_set(cfg, CHV_LAYER_TABLE, "TRANSACTIONAL", "FALSE", &err),
      &err);
  b = true;
  CHV_CHECK_OK(chv_config_get_bool(cfg, "transactional", &b, &err), &err);
  CHV_CHECK(!b);
  CHV_CHECK_EQ_INT(
      chv_config_set(cfg, CHV_LAYER_TABLE, "TRANSACTIONAL", "TRUE", &err),
      CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "transactional=TRUE marks a transactional "
                              "(ACID) table");

  /* Lists through chv_config_get. */
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  CHV_CHECK_OK(
      chv_config_get(cfg, "sink.partition-commit.policy.kind", &v, &err), &err);
  CHV_REQUIRE(v.nlist == 2);
  CHV_CHECK_STREQ(v.list[0], "metastore");
  CHV_CHECK_STREQ(v.list[1], "success-file");
  chv_opt_value_free(&v);
  CHV_CHECK(v.list == NULL && v.nlist == 0);
  chv_config_close(cfg);
}

/* ---- configuration files ----------------------------------------------- */

static void test_config_file(void) {
  char path[700];
  snprintf(path, sizeof path, "%s/conf.yaml", chv_test_tmpdir());
  write_file(
      path, "# Flink configuration\n"
            "\n"
            "table.exec.hive.split-max-size: 64mb   # trailing comment\n"
            "streaming-source.partition-order: 'PARTITION_TIME'\n"
            "sink.partition-commit.policy.kind: [metastore, \"success-file\"]\n"
            "sink.partition-commit.success-file.name: \"_DONE#1\"\n"
            "execution.checkpointing.interval: 10 s\n"
            "table:\n"
            "  exec:\n"
            "    hive:\n"
            "      fallback-mapred-reader: true\n"
            "      infer-source-parallelism:\n"
            "        max: 10\n"
            "  other: kept\r\n"
            "sql-gateway:\n"
            "  endpoint:\n"
            "    hiveserver2:\n"
            "      thrift.port: 10001\n"
            "partition.time-extractor.timestamp-pattern: '$dt ''x'''\n"
            "table.exec.hive.split-max-size: 32mb\n");
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  CHV_REQUIRE_OK(chv_config_load_file(cfg, path, &err), &err);
  int64_t i = 0;
  bool b = false;
  const char *s = NULL;
  enum chv_config_layer layer;
  /* A later line replaces an earlier one. */
  CHV_CHECK_OK(
      chv_config_get_memory(cfg, "table.exec.hive.split-max-size", &i, &err),
      &err);
  CHV_CHECK_EQ_INT(i, 32 << 20);
  CHV_CHECK_OK(
      chv_config_get_string(cfg, "streaming-source.partition-order", &s, &err),
      &err);
  CHV_CHECK_STREQ(s, "partition-time");
  CHV_CHECK_STREQ(
      chv_config_lookup(cfg, "sink.partition-commit.policy.kind", &layer),
      "metastore,success-file");
  CHV_CHECK_EQ_INT(layer, CHV_LAYER_FILE);
  CHV_CHECK_STREQ(
      chv_config_lookup(cfg, "sink.partition-commit.success-file.name", NULL),
      "_DONE#1");
  CHV_CHECK_STREQ(
      chv_config_lookup(cfg, "execution.checkpointing.interval", NULL), "10 s");
  CHV_CHECK_OK(chv_config_get_bool(
                   cfg, "table.exec.hive.fallback-mapred-reader", &b, &err),
               &err);
  CHV_CHECK(b);
  CHV_CHECK_OK(
      chv_config_get_int(cfg, "table.exec.hive.infer-source-parallelism.max",
                         &i, &err),
      &err);
  CHV_CHECK_EQ_INT(i, 10);
  CHV_CHECK_STREQ(chv_config_lookup(cfg, "table.other", NULL), "kept");
  CHV_CHECK_OK(
      chv_config_get_int(cfg, "sql-gateway.endpoint.hiveserver2.thrift.port",
                         &i, &err),
      &err);
  CHV_CHECK_EQ_INT(i, 10001);
  CHV_CHECK_STREQ(chv_config_lookup(
                      cfg, "partition.time-extractor.timestamp-pattern", NULL),
                  "$dt 'x'");
  /* The session layer still wins over the file. */
  CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_SESSION,
                              "table.exec.hive.split-max-size", "1mb", &err),
               &err);
  CHV_CHECK_OK(
      chv_config_get_memory(cfg, "table.exec.hive.split-max-size", &i, &err),
      &err);
  CHV_CHECK_EQ_INT(i, 1 << 20);
  chv_config_close(cfg);
}

static void test_config_file_errors(void) {
  static const struct {
    const char *text;
    const char *want; /* after "<path>:" */
  } cases[] = {
      {"a.b: 1\nthis line has no colon\n",
       ":2: expected 'key: value', got 'this line has no colon'"},
      {"# c\n\nstreaming-source.enable: yes?\n",
       ":3: invalid value 'yes?' for option 'streaming-source.enable': "
       "expected 'true' or 'false'"},
      {"streaming-source.enabled: true\n",
       ":1: unknown option 'streaming-source.enabled'; did you mean "
       "'streaming-source.enable'?"},
      {"list:\n  - a\n", ":2: block lists"},
      {"x: 'open\n", ":1: unterminated quote"},
      {"table:\n\texec: 1\n", ":2: a tab in the indentation"},
      {"sink.partition-commit.policy.kind: [metastore, sideways]\n",
       ":1: invalid value 'metastore,sideways' for option "
       "'sink.partition-commit.policy.kind'"},
  };
  const char *dir = chv_test_tmpdir();
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    char path[700];
    snprintf(path, sizeof path, "%s/bad%zu.yaml", dir, i);
    write_file(path, cases[i].text);
    chv_config *cfg = NULL;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
    /* A value from an earlier, good file survives the failed load. */
    CHV_CHECK_OK(chv_config_set(cfg, CHV_LAYER_FILE, "a.b", "old", &err), &err);
    CHV_CHECK(chv_config_load_file(cfg, path, &err) != CHV_OK);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", path, cases[i].want);
    CHV_CHECK_CONTAINS(err.msg, want);
    CHV_CHECK_STREQ(chv_config_lookup(cfg, "a.b", NULL), "old");
    chv_config_close(cfg);
  }
  chv_config *cfg = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
  CHV_CHECK_EQ_INT(chv_config_load_file(cfg, "/nonexistent/chive.yaml", &err),
                   CHV_ENOENT);
  CHV_CHECK_CONTAINS(err.msg, "/nonexistent/chive.yaml");
  chv_config_close(cfg);
}

/* ---- rendering --------------------------------------------------------- */

static void test_json_lists_research_keys(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_options_render_json(&b), NULL);
  static struct research_key rows[128];
  size_t n = load_research_keys(rows, CHV_ARRAY_SIZE(rows));
  CHV_REQUIRE(n > 0);
  for (size_t i = 0; i < n; i++) {
    char want[256];
    snprintf(want, sizeof want, "{\"key\": \"%.127s\", \"type\": \"%.31s\"",
             rows[i].key, rows[i].type);
    CHV_CHECK_CONTAINS(b.data, want);
  }
  CHV_CHECK_CONTAINS(b.data, "\"default\": \"\\u0001\"");
  CHV_CHECK_CONTAINS(b.data, "\"default\": \"\\\\N\"");
  CHV_CHECK(b.data[0] == '[' && b.data[b.len - 2] == ']');
  chv_buf_free(&b);

  chv_buf_init(&b);
  CHV_CHECK_OK(chv_json_put_string(&b, "a\"b\\c\n\x01\xc3\xa9"), NULL);
  CHV_CHECK_STREQ(b.data, "\"a\\\"b\\\\c\\n\\u0001\xc3\xa9\"");
  chv_buf_free(&b);
}

static void test_text_table(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_options_render_text(&b, CHV_SCOPE_ENDPOINT), NULL);
  CHV_CHECK(strncmp(b.data, "KEY ", 4) == 0);
  CHV_CHECK_CONTAINS(b.data, "sql-gateway.endpoint.hiveserver2.thrift.port");
  CHV_CHECK(strstr(b.data, "streaming-source.enable") == NULL);
  chv_buf_free(&b);
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_options_render_text(&b, 0), NULL);
  size_t lines = 0;
  for (const char *p = b.data; *p; p++)
    lines += *p == '\n';
  CHV_CHECK_EQ_INT(lines, chv_option_count() + 1);
  CHV_CHECK_CONTAINS(b.data, "Deprecated key: streaming-source.consume-order.");
  chv_buf_free(&b);
}

/* docs/options.md is generated from the registry; a stale copy fails. */
static void test_options_doc_is_fresh(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_options_render_markdown(&b), NULL);
  char path[1024];
  snprintf(path, sizeof path, "%s/docs/options.md", chv_test_source_dir());
  char *doc = slurp(path);
  if (doc == NULL || strcmp(doc, b.data) != 0) {
    fprintf(stderr,
            "%s is stale: it differs from what the option registry "
            "generates.\nRegenerate it with:\n"
            "  <build>/chive options --markdown > docs/options.md\n",
            path);
    CHV_CHECK(doc != NULL && strcmp(doc, b.data) == 0);
  }
  /* Every option appears in exactly one table row before the list of
  ** differences (whose rows name keys too). */
  char *diff = strstr(b.data, "\n## Differences");
  CHV_REQUIRE(diff != NULL);
  *diff = '\0';
  for (size_t i = 0; i < chv_option_count(); i++) {
    char row[256];
    snprintf(row, sizeof row, "\n| `%s`", chv_option_at(i)->key);
    const char *first = strstr(b.data, row);
    CHV_CHECK(first != NULL);
    if (first) CHV_CHECK(strstr(first + 1, row) == NULL);
  }
  CHV_CHECK_CONTAINS(diff + 1, "## Differences between the seeds and current "
                               "Flink");
  chv_free(doc);
  chv_buf_free(&b);
}

/* ---- allocation failures ----------------------------------------------- */

/* Raise the allocation limit until each operation succeeds; every failure
** before must be CHV_ENOMEM and leave nothing behind. */
static void test_out_of_memory(void) {
  int rc;
  for (long n = 1;; n++) {
    chv_config *cfg = NULL;
    struct chv_error err;
    chv_alloc_fail_after(n);
    rc = chv_config_open(&cfg, &err);
    if (rc == CHV_OK)
      rc = chv_config_set(cfg, CHV_LAYER_SESSION,
                          "sink.partition-commit.policy.kind",
                          "metastore,success-file,custom", &err);
    if (rc == CHV_OK)
      rc = chv_config_set(cfg, CHV_LAYER_TABLE, "comment", "x", &err);
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    if (rc == CHV_OK)
      rc = chv_config_get(cfg, "sink.partition-commit.policy.kind", &v, &err);
    chv_opt_value_free(&v);
    chv_alloc_fail_after(0);
    chv_config_close(cfg);
    if (rc == CHV_OK) break;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    if (n > 1000) {
      CHV_CHECK(n <= 1000);
      break;
    }
  }
  for (long n = 1;; n++) {
    struct chv_buf b;
    chv_buf_init(&b);
    chv_alloc_fail_after(n);
    rc = chv_options_render_markdown(&b);
    chv_alloc_fail_after(0);
    chv_buf_free(&b);
    if (rc == CHV_OK) break;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    if (n > 1000) {
      CHV_CHECK(n <= 1000);
      break;
    }
  }
}

/* A configuration file read while allocations fail: ENOMEM, and the file
** layer as it was. */
static void test_out_of_memory_file(void) {
  char path[700];
  snprintf(path, sizeof path, "%s/oom.yaml", chv_test_tmpdir());
  write_file(path, "table:\n"
                   "  exec:\n"
                   "    hive:\n"
                   "      split-max-size: 64mb\n"
                   "sink.partition-commit.policy.kind: [metastore, "
                   "success-file]\n"
                   "other.key: 'quoted'\n");
  for (long n = 1;; n++) {
    chv_config *cfg = NULL;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_config_open(&cfg, &err), &err);
    CHV_REQUIRE_OK(chv_config_set(cfg, CHV_LAYER_FILE, "a.b", "old", &err),
                   &err);
    chv_alloc_fail_after(n);
    int rc = chv_config_load_file(cfg, path, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      CHV_CHECK_STREQ(chv_config_lookup(cfg, "other.key", NULL), "quoted");
      CHV_CHECK_STREQ(chv_config_lookup(cfg, "a.b", NULL), "old");
      chv_config_close(cfg);
      break;
    }
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    CHV_CHECK(!chv_config_is_set(cfg, "table.exec.hive.split-max-size"));
    CHV_CHECK(!chv_config_is_set(cfg, "other.key"));
    CHV_CHECK_STREQ(chv_config_lookup(cfg, "a.b", NULL), "old");
    chv_config_close(cfg);
    if (n > 1000) {
      CHV_CHECK(n <= 1000);
      break;
    }
  }
  /* Parsing every default while allocations fail leaves the value empty. */
  for (size_t i = 0; i < chv_option_count(); i++) {
    const struct chv_option *o = chv_option_at(i);
    if (o->default_text == NULL) continue;
    for (long n = 1;; n++) {
      struct chv_opt_value v;
      chv_opt_value_init(&v);
      chv_alloc_fail_after(n);
      int rc = chv_option_parse(o, o->default_text, &v, NULL);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) {
        chv_opt_value_free(&v);
        break;
      }
      CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      CHV_CHECK(v.text == NULL && v.list == NULL && v.nlist == 0);
      if (n > 100) {
        CHV_CHECK(n <= 100);
        break;
      }
    }
  }
}

CHV_TEST_MAIN("config", test_registry_well_formed,
              test_research_keys_registered, test_scopes_and_sources,
              test_valid_values, test_invalid_values_name_key_value_rule,
              test_every_type_has_a_rule, test_duration_grammar,
              test_memory_grammar, test_layer_precedence,
              test_set_validates_and_keeps_layer, test_alias_lookup,
              test_unknown_keys, test_refused_values, test_warnings,
              test_lookup_cache_max_size, test_suggest, test_typed_getters,
              test_config_file, test_config_file_errors,
              test_json_lists_research_keys, test_text_table,
              test_options_doc_is_fresh, test_out_of_memory,
              test_out_of_memory_file)
