/*
** Tests of the SQL parser (src/sql/parse):
**   - parse_golden.txt: SQL in, canonical S-expressions out, for every
**     statement form (UPDATE_GOLDEN=1 rewrites the expected lines; review
**     the diff before committing);
**   - seeds.sql: the SQL examples of the project's seed documents, each of
**     which must parse (see the comments there for the ones left out);
**   - a table of syntax errors with their line, column and message;
**   - deep nesting, the script splitter, dialect switching, positions and
**     allocation failure at every step.
*/
#include "chv_test.h"

#include "chive/sql.h"
#include "common/common.h"

static char *read_file(const char *rel, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", chv_test_source_dir(), rel);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  struct chv_buf b;
  chv_buf_init(&b);
  char tmp[4096];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) chv_buf_append(&b, tmp, n);
  fclose(f);
  *len = b.len;
  if (b.data == NULL) return chv_strdup("");
  return chv_buf_detach(&b);
}

/* Parse sql and print each statement on a line of out (or "error: msg"). */
static void parse_to_text(const char *sql, size_t len, struct chv_buf *out) {
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) return;
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  if (chv_sql_parse(sql, len, a, &s, &err) != CHV_OK) {
    chv_buf_puts(out, "error: ");
    chv_buf_puts(out, err.msg);
    chv_buf_putc(out, '\n');
  } else {
    for (size_t i = 0; i < s->n; i++) {
      chv_sql_ast_print(s->stmts[i], out);
      chv_buf_putc(out, '\n');
    }
  }
  chv_arena_close(a);
}

/* The tree of q printed as a query statement. */
static void query_tree(const struct chv_sql_query *q, struct chv_buf *out) {
  struct chv_sql_stmt st = {.kind = CHV_SQL_STMT_QUERY,
                            .query = (struct chv_sql_query *)q};
  chv_sql_ast_print(&st, out);
}

static int formatted; /* queries that went through format_round_trip() */

/* chv_sql_query_format(q) read back in the Hive dialect gives q's tree;
** false (and the texts on stderr) when it does not. */
static bool format_round_trip(const struct chv_sql_query *q) {
  formatted++;
  struct chv_buf text, want, got;
  chv_buf_init(&text);
  chv_buf_init(&want);
  chv_buf_init(&got);
  chv_arena *a = NULL;
  bool ok = chv_arena_open(0, &a) == CHV_OK &&
            chv_sql_query_format(q, &text) == CHV_OK;
  query_tree(q, &want);
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
  if (ok && chv_sql_parse_ex(text.data, text.len, &o, a, &s, NULL, &err) ==
                CHV_OK &&
      s->n == 1 && s->stmts[0]->kind == CHV_SQL_STMT_QUERY)
    query_tree(s->stmts[0]->query, &got);
  else
    chv_buf_puts(&got, ok ? err.msg : "format failed");
  ok = ok && got.data && want.data && strcmp(got.data, want.data) == 0;
  if (!ok)
    fprintf(stderr, "format round trip:\n  text: %s\n  want: %s\n  got:  %s\n",
            text.data ? text.data : "", want.data ? want.data : "",
            got.data ? got.data : "");
  chv_arena_close(a);
  chv_buf_free(&text);
  chv_buf_free(&want);
  chv_buf_free(&got);
  return ok;
}

/* The queries of a statement (a query, INSERT's, CTAS's, a view's, an
** explained one's) that do not read back through chv_sql_query_format(). */
static int stmt_format_failures(const struct chv_sql_stmt *st) {
  if (st->kind == CHV_SQL_STMT_EXPLAIN) return stmt_format_failures(st->explained);
  const struct chv_sql_query *q = st->query;
  if (st->create_table) q = st->create_table->as_query;
  if (st->create_view) q = st->create_view->query;
  return q && !format_round_trip(q);
}

/* Every query of sql (that parses) through the round trip; the failures. */
static int format_failures(const char *sql, size_t len) {
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) return 1;
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  int bad = 0;
  if (chv_sql_parse(sql, len, a, &s, &err) == CHV_OK)
    for (size_t i = 0; i < s->n; i++) bad += stmt_format_failures(s->stmts[i]);
  chv_arena_close(a);
  return bad;
}

/* parse_golden.txt: cases separated by blank lines; "> " lines are SQL,
** "= " lines the expected output, "#" lines comments.  Every query of the
** cases also reads back through chv_sql_query_format(). */
static void test_golden(void) {
  size_t len;
  char *text = read_file("tests/unit/sql/parse_golden.txt", &len);
  CHV_REQUIRE(text != NULL);
  bool update = getenv("UPDATE_GOLDEN") != NULL;
  struct chv_buf newfile, sql, want, got;
  chv_buf_init(&newfile);
  chv_buf_init(&sql);
  chv_buf_init(&want);
  chv_buf_init(&got);
  int cases = 0, bad = 0;
  char *line = text;
  bool done = false;
  while (!done) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    else done = true;
    bool blank = line[0] == '\0';
    if (line[0] == '>') {
      chv_buf_puts(&sql, line[1] == ' ' ? line + 2 : line + 1);
      chv_buf_putc(&sql, '\n');
    } else if (line[0] == '=') {
      chv_buf_puts(&want, line[1] == ' ' ? line + 2 : line + 1);
      chv_buf_putc(&want, '\n');
    }
    if (line[0] != '=' && !(blank || done)) {
      chv_buf_puts(&newfile, line);
      chv_buf_putc(&newfile, '\n');
    }
    if ((blank || done) && sql.len > 0) {
      cases++;
      chv_buf_reset(&got);
      parse_to_text(sql.data, sql.len, &got);
      bad += format_failures(sql.data, sql.len);
      const char *g = got.data ? got.data : "";
      const char *w = want.data ? want.data : "";
      if (strcmp(g, w) != 0 && !update) {
        fprintf(stderr, "golden case %d:\n%sexpected:\n%sgot:\n%s", cases,
                sql.data, w, g);
        bad++;
      }
      /* the new expected lines */
      for (const char *q = g; *q;) {
        const char *e = strchr(q, '\n');
        chv_buf_puts(&newfile, "= ");
        chv_buf_append(&newfile, q, (size_t)(e - q));
        chv_buf_putc(&newfile, '\n');
        q = e + 1;
      }
      chv_buf_reset(&sql);
      chv_buf_reset(&want);
    } else if (blank || done) {
      chv_buf_reset(&want);
    }
    if (blank) chv_buf_putc(&newfile, '\n');
    if (nl) line = nl + 1;
  }
  CHV_CHECK_EQ_INT(bad, 0);
  CHV_CHECK(cases > 100);
  printf("# %d golden cases, %d of their queries formatted and read back\n",
         cases, formatted);
  CHV_CHECK(formatted > 50);
  if (update) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/unit/sql/parse_golden.txt",
             chv_test_source_dir());
    FILE *f = fopen(path, "wb");
    CHV_REQUIRE(f != NULL);
    fwrite(newfile.data, 1, newfile.len, f);
    fclose(f);
  }
  chv_buf_free(&newfile);
  chv_buf_free(&sql);
  chv_buf_free(&want);
  chv_buf_free(&got);
  chv_free(text);
}

/* chv_sql_query_format(): the exact text of some queries (read in the
** default dialect), each of which also reads back into its tree in the
** Hive dialect. */
static void test_format(void) {
  static const struct {
    const char *sql, *text;
  } cases[] = {
      {"select a, b as c from db.t where a > 1 and not b = 2",
       "SELECT `a`, `b` AS `c` FROM `db`.`t` WHERE `a` > 1 AND NOT `b` = 2"},
      /* Flink's strings to Hive's: a backslash and a quote are escaped */
      {"select 'it''s', 'a\\b', 'x\\ny', 'l1\nl2' from t",
       "SELECT 'it\\'s', 'a\\\\b', 'x\\\\ny', 'l1\\nl2' FROM `t`"},
      /* parentheses where precedence needs them, and only there */
      {"select (a + b) * c, a + b * c, a - (b - c), (a - b) - c from t",
       "SELECT (`a` + `b`) * `c`, `a` + `b` * `c`, `a` - (`b` - `c`), "
       "`a` - `b` - `c` FROM `t`"},
      {"select (a or b) and c, not (a and b), (not a) = b, - -1, -(a + 1) "
       "from t",
       "SELECT (`a` OR `b`) AND `c`, NOT (`a` AND `b`), (NOT `a`) = `b`, "
       "- -1, -(`a` + 1) FROM `t`"},
      {"select a between 1 and 2 + 3, a not like 'x%', a is not null, "
       "a not in (1, 2), (a = 1) = true, a || b || c, m['k'][0] from t",
       "SELECT `a` BETWEEN 1 AND 2 + 3, `a` NOT LIKE 'x%', `a` IS NOT NULL, "
       "`a` NOT IN (1, 2), `a` = 1 = TRUE, `a` || `b` || `c`, "
       "`m`['k'][0] FROM `t`"},
      {"select count(*), count(distinct a), upper(`select`), `my f`(1), "
       "cast(a as decimal(10, 2)), case when a then 1 else 2 end, "
       "date '2024-01-01', 10Y, 1.5, 2e3, x'0A', null, true from t",
       "SELECT count(*), count(DISTINCT `a`), upper(`select`), `my f`(1), "
       "CAST(`a` AS decimal(10, 2)), CASE WHEN `a` THEN 1 ELSE 2 END, "
       "DATE '2024-01-01', 10Y, 1.5, 2e3, X'0A', NULL, TRUE FROM `t`"},
      {"with q as (select a from t) select distinct * from q x "
       "group by a having count(*) > 1 order by a desc nulls last limit 5",
       "WITH `q` AS (SELECT `a` FROM `t`) SELECT DISTINCT * FROM `q` `x` "
       "GROUP BY `a` HAVING count(*) > 1 ORDER BY `a` DESC NULLS LAST "
       "LIMIT 5"},
      {"select a from t union all (select a from u union select a from v) "
       "union select a from (select a from w order by a limit 1) s",
       "SELECT `a` FROM `t` UNION ALL (SELECT `a` FROM `u` UNION SELECT `a` "
       "FROM `v`) UNION SELECT `a` FROM (SELECT `a` FROM `w` ORDER BY `a` "
       "LIMIT 1) `s`"},
      {"(select a from t limit 1) union all select 1 order by 1",
       "(SELECT `a` FROM `t` LIMIT 1) UNION ALL SELECT 1 ORDER BY 1"},
      {"select `a``b`.* from t `a``b` where a in (select a from u)",
       "SELECT `a``b`.* FROM `t` `a``b` WHERE `a` IN (SELECT `a` FROM `u`)"},
      /* an interval's unit words whatever stood between them; a quote in
      ** a binary literal */
      {"select interval '1 2' day -- c\n to hour, x'a''b' from t",
       "SELECT INTERVAL '1 2' day TO hour, X'a''b' FROM `t`"},
      {"select a from t left join u on t.k = u.k cross join v",
       "SELECT `a` FROM `t` LEFT JOIN `u` ON `t`.`k` = `u`.`k` CROSS JOIN "
       "`v`"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    chv_arena *a = NULL;
    CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
    struct chv_sql_script *s = NULL;
    struct chv_error err;
    CHV_CHECK_OK(chv_sql_parse(cases[i].sql, strlen(cases[i].sql), a, &s,
                               &err),
                 &err);
    if (s && s->n == 1 && s->stmts[0]->query) {
      struct chv_buf b;
      chv_buf_init(&b);
      CHV_CHECK_OK(chv_sql_query_format(s->stmts[0]->query, &b), NULL);
      CHV_CHECK_STREQ(b.data ? b.data : "", cases[i].text);
      CHV_CHECK(format_round_trip(s->stmts[0]->query));
      chv_buf_free(&b);
    }
    chv_arena_close(a);
  }
  /* Hive's strings: a NUL before a digit stays a NUL (\000, not \0 that
  ** would read as octal with the digit) */
  {
    chv_arena *a = NULL;
    CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
    static const char sql[] = "select 'a\\00012', \"q\\\"\" from t";
    struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
    struct chv_sql_script *s = NULL;
    struct chv_error err;
    CHV_CHECK_OK(chv_sql_parse_ex(sql, strlen(sql), &o, a, &s, NULL, &err),
                 &err);
    if (s && s->n == 1) {
      struct chv_buf b;
      chv_buf_init(&b);
      CHV_CHECK_OK(chv_sql_query_format(s->stmts[0]->query, &b), NULL);
      CHV_CHECK_STREQ(b.data ? b.data : "",
                      "SELECT 'a\\00012', 'q\"' FROM `t`");
      CHV_CHECK(format_round_trip(s->stmts[0]->query));
      chv_buf_free(&b);
    }
    chv_arena_close(a);
  }
  CHV_CHECK_EQ_INT(chv_sql_query_format(NULL, NULL), CHV_EINVAL);
}

/* Every statement of seeds.sql parses (the file sets the dialect where a
** statement needs Hive's). */
static void test_seeds(void) {
  size_t len;
  char *text = read_file("tests/unit/sql/seeds.sql", &len);
  CHV_REQUIRE(text != NULL);
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  CHV_CHECK_OK(chv_sql_parse(text, len, a, &s, &err), &err);
  if (s) {
    CHV_CHECK(s->n >= 15);
    printf("# %zu seed statements\n", s->n);
    for (size_t i = 0; i < s->n; i++)
      CHV_CHECK_EQ_INT(stmt_format_failures(s->stmts[i]), 0);
  }
  /* the splitter finds the same statements */
  struct chv_sql_piece *pieces = NULL;
  size_t n = 0;
  bool complete = false;
  CHV_CHECK_OK(chv_sql_split(text, len, CHV_SQL_DIALECT_DEFAULT, a, &pieces,
                             &n, &complete, &err),
               &err);
  if (s) CHV_CHECK_EQ_INT(n, s->n);
  CHV_CHECK(complete);
  for (size_t i = 0; s && i < n && i < s->n; i++) {
    CHV_CHECK_EQ_INT(pieces[i].pos.line, s->stmts[i]->pos.line);
    CHV_CHECK_EQ_INT(pieces[i].pos.column, s->stmts[i]->pos.column);
  }
  chv_arena_close(a);
  chv_free(text);
}

struct error_case {
  const char *sql;
  int line, column;
  const char *msg; /* the whole message */
};

static const struct error_case error_cases[] = {
    {"CREATE TABLE t (a INT STORED AS ORC", 1, 23,
     "line 1, column 23: expected ')' or ',' after column definition, found "
     "'STORED'"},
    {"CREATE TABLE t (a INT) STORED AS ORC TBLPROPERTIES ('a'='b'",
     1, 60,
     "line 1, column 60: expected ')' or ',' after property, found end of "
     "input"},
    {"FROB TABLE t", 1, 1,
     "line 1, column 1: expected a statement, found 'FROB'"},
    {"SELECT 'abc", 1, 8, "line 1, column 8: unterminated string"},
    {"SELECT a FROM t WHERE b = 'x\n  AND c = 1", 1, 27,
     "line 1, column 27: unterminated string"},
    {"SELECT /* open comment", 1, 8, "line 1, column 8: unterminated comment"},
    {"CREATE TABLE t (a map<string,int)", 1, 33,
     "line 1, column 33: expected '>' closing the type, found ')'"},
    {"CREATE TABLE t (a decimal(10,2)", 1, 32,
     "line 1, column 32: expected ')' or ',' after column definition, found "
     "end of input"},
    {"CREATE TABLE t (a array<int>>)", 1, 29,
     "line 1, column 29: expected ')' or ',' after column definition, found "
     "'>'"},
    {"CREATE TABLE t (a 123)", 1, 19,
     "line 1, column 19: expected a type name, found '123'"},
    {"CREATE TABLE t (a struct<x:int;)", 1, 31,
     "line 1, column 31: expected '>' closing the type, found ';'"},
    {"INSERT INTO t PARTITION (dt='1' SELECT 1", 1, 33,
     "line 1, column 33: expected ')' or ',' in the partition spec, found "
     "'SELECT'"},
    {"ALTER TABLE t ADD PARTITION (dt) LOCATION '/x'", 1, 32,
     "line 1, column 32: expected '=' and a value for the partition column, "
     "found ')'"},
    {"ALTER TABLE t DROP PARTITION (dt=a)", 1, 34,
     "line 1, column 34: expected a literal partition value, found 'a'"},
    {"SELECT (1 + 2", 1, 14, "line 1, column 14: expected ')', found end of "
                             "input"},
    {"SELECT a FROM", 1, 14,
     "line 1, column 14: expected a table name, found end of input"},
    {"SELECT a,\nFROM t", 2, 1,
     "line 2, column 1: expected an expression, found 'FROM'"},
    {"SELECT 1 2", 1, 10,
     "line 1, column 10: expected ';' or end of input after the statement, "
     "found '2'"},
    {"SELECT 12abc", 1, 8, "line 1, column 8: invalid number"},
    {"SELECT a # b", 1, 10, "line 1, column 10: unexpected character"},
    {"CREATE TABLE t (a INT) STORED AS XML", 1, 34,
     "line 1, column 34: expected a file format (TEXTFILE, PARQUET, ORC, "
     "SEQUENCEFILE, RCFILE, AVRO, JSONFILE) or INPUTFORMAT, found 'XML'"},
    {"CREATE TABLE t (a INT) COMMENT 'x' COMMENT 'y'", 1, 36,
     "line 1, column 36: expected each table clause once, found 'COMMENT'"},
    {"CREATE TABLE t", 1, 15,
     "line 1, column 15: expected '(' with the column list, LIKE or AS "
     "SELECT, found end of input"},
    {"CREATE CATALOG c ('type'='hive')", 1, 18,
     "line 1, column 18: expected WITH after the catalog name, found '('"},
    {"SELECT a FROM t1 JOIN t2", 1, 25,
     "line 1, column 25: expected ON or USING after the joined table, found "
     "end of input"},
    {"SELECT CASE WHEN a THEN 1", 1, 26,
     "line 1, column 26: expected WHEN, ELSE or END, found end of input"},
    {"SELECT CAST(a AS) FROM t", 1, 17,
     "line 1, column 17: expected a type name, found ')'"},
    {"SELECT a FROM t ORDER BY a NULLS", 1, 33,
     "line 1, column 33: expected FIRST or LAST after NULLS, found end of "
     "input"},
    {"SELECT a IS 3", 1, 13,
     "line 1, column 13: expected NULL, TRUE or FALSE after IS, found '3'"},
    {"SELECT * FROM t /*+ OPTIONS('a'='b' */", 1, 37,
     "line 1, column 37: expected ')' or ',' in the hint, found end of "
     "input"},
    {"SELECT * FROM a.b.c.d", 1, 20,
     "line 1, column 20: expected end of name (at most catalog.db.table), "
     "found '.'"},
    {"SELECT x'0", 1, 8, "line 1, column 8: unterminated binary literal"},
    {"SELECT `abc", 1, 8, "line 1, column 8: unterminated quoted name"},
    {"SHOW INDEXES", 1, 6,
     "line 1, column 6: expected CATALOGS, CURRENT, DATABASES, TABLES, "
     "VIEWS, PARTITIONS, CREATE or FUNCTIONS after SHOW, found 'INDEXES'"},
    {"SET 'a' 'b'", 1, 9,
     "line 1, column 9: expected '=' after the key, found 'b'"},
    {"SET 'abc", 1, 5, "line 1, column 5: unterminated string"},
    {"RESET `abc", 1, 7, "line 1, column 7: unterminated quoted name"},
    {"SET = 1", 1, 5, "line 1, column 5: expected a key before '=', found '='"},
    {"LOAD DATA INPATH '/x' INTO t", 1, 28,
     "line 1, column 28: expected TABLE after INTO, found 't'"},
    {"SELECT 1;\nSELECT 2;\n  SELECT (", 3, 11,
     "line 3, column 11: expected an expression, found end of input"},
    {"EXPLAIN", 1, 8,
     "line 1, column 8: expected a statement after EXPLAIN, found end of "
     "input"},
    {"SELECT INTERVAL '1' FORTNIGHT", 1, 21,
     "line 1, column 21: expected an interval unit (DAY, ...), found "
     "'FORTNIGHT'"},
    {"SELECT 1.5L", 1, 8,
     "line 1, column 8: expected an integer before the Y, S or L suffix, "
     "found '1.5L'"},
    {"SELECT \"x\"", 1, 8, "line 1, column 8: expected an expression, found "
                           "\"x\""},
};

static void test_errors(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(error_cases); i++) {
    const struct error_case *c = &error_cases[i];
    chv_arena *a = NULL;
    CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
    struct chv_sql_script *s = NULL;
    struct chv_error err;
    struct chv_sql_pos pos = {0, 0, 0};
    int rc = chv_sql_parse_ex(c->sql, strlen(c->sql), NULL, a, &s, &pos, &err);
    if (rc != CHV_ESYNTAX) fprintf(stderr, "case %zu: %s\n", i, c->sql);
    CHV_CHECK_EQ_INT(rc, CHV_ESYNTAX);
    CHV_CHECK(s == NULL);
    CHV_CHECK_STREQ(err.sqlstate, "42601");
    CHV_CHECK_STREQ(err.msg, c->msg);
    CHV_CHECK_EQ_INT(pos.line, c->line);
    CHV_CHECK_EQ_INT(pos.column, c->column);
    chv_arena_close(a);
  }
}

static int parse_simple(const char *sql, struct chv_error *err) {
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) return CHV_ENOMEM;
  struct chv_sql_script *s = NULL;
  int rc = chv_sql_parse(sql, strlen(sql), a, &s, err);
  chv_arena_close(a);
  return rc;
}

static char *repeat3(const char *pre, int n, const char *mid,
                     const char *post) {
  size_t len = strlen(pre) * (size_t)n + strlen(mid) +
               strlen(post) * (size_t)n + 16;
  char *s = chv_malloc(len);
  char *o = s;
  o += sprintf(o, "SELECT ");
  for (int i = 0; i < n; i++) o += sprintf(o, "%s", pre);
  o += sprintf(o, "%s", mid);
  for (int i = 0; i < n; i++) o += sprintf(o, "%s", post);
  return s;
}

static void test_deep_nesting(void) {
  struct chv_error err;
  static const struct {
    const char *pre, *mid, *post;
  } shapes[] = {{"(", "1", ")"},          {"- ", "1", ""},
                {"NOT ", "a", ""},        {"1 + ", "1", ""},
                {"(SELECT ", "1", ")"},   {"CASE WHEN ", "a", " THEN 1 END"},
                {"f(", "1", ")"},         {"a AND ", "b", ""},
                {"a = ", "b", ""},        {"a IS NULL OR ", "b", ""},
                {"x[", "1", "]"},         {"a || ", "b", ""}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(shapes); i++) {
    char *sql = repeat3(shapes[i].pre, 10000, shapes[i].mid, shapes[i].post);
    CHV_CHECK_EQ_INT(parse_simple(sql, &err), CHV_ESYNTAX);
    CHV_CHECK_CONTAINS(err.msg, "nesting deeper than 1000 levels");
    chv_free(sql);
    sql = repeat3(shapes[i].pre, 100, shapes[i].mid, shapes[i].post);
    CHV_CHECK_OK(parse_simple(sql, &err), &err);
    chv_free(sql);
  }
  /* a chain of UNION ALLs and of joins counts too */
  struct chv_buf b;
  chv_buf_init(&b);
  chv_buf_puts(&b, "SELECT 1");
  for (int i = 0; i < 5000; i++) chv_buf_puts(&b, " UNION ALL SELECT 1");
  CHV_CHECK_EQ_INT(parse_simple(b.data, &err), CHV_ESYNTAX);
  chv_buf_reset(&b);
  chv_buf_puts(&b, "SELECT 1 FROM t");
  for (int i = 0; i < 5000; i++) chv_buf_puts(&b, " JOIN t ON a");
  CHV_CHECK_EQ_INT(parse_simple(b.data, &err), CHV_ESYNTAX);
  chv_buf_free(&b);
  /* a smaller limit from the options */
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_DEFAULT, 10};
  struct chv_sql_script *s = NULL;
  const char *sql = "SELECT ((((((((((((1))))))))))))";
  CHV_CHECK_EQ_INT(chv_sql_parse_ex(sql, strlen(sql), &o, a, &s, NULL, &err),
                   CHV_ESYNTAX);
  chv_arena_close(a);
}

static void test_split(void) {
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_piece *p = NULL;
  size_t n = 0;
  bool complete = false;
  struct chv_error err;
  const char *sql = "SELECT ';' -- a ; comment\n;\n\n  /* ; */ SET a=b;"
                    "  -- trailing\n";
  CHV_REQUIRE_OK(chv_sql_split(sql, strlen(sql), CHV_SQL_DIALECT_DEFAULT, a,
                               &p, &n, &complete, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK(complete);
  CHV_CHECK_EQ_INT(p[0].len, strlen("SELECT ';'"));
  CHV_CHECK(memcmp(p[0].text, "SELECT ';'", p[0].len) == 0);
  CHV_CHECK_EQ_INT(p[0].pos.line, 1);
  CHV_CHECK_EQ_INT(p[1].pos.line, 4);
  CHV_CHECK_EQ_INT(p[1].pos.column, 11);
  CHV_CHECK(memcmp(p[1].text, "SET a=b", p[1].len) == 0);
  CHV_CHECK(p[1].terminated);

  /* incomplete: no ';', an open string, an open comment */
  static const char *const open[] = {"SELECT 1", "SELECT 'a;", "SELECT 1 /*",
                                     "SELECT 1; SELECT `a;"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(open); i++) {
    CHV_CHECK_OK(chv_sql_split(open[i], strlen(open[i]),
                               CHV_SQL_DIALECT_DEFAULT, a, &p, &n, &complete,
                               &err),
                 &err);
    CHV_CHECK(!complete);
  }
  /* a backslash escapes the quote only in the Hive dialect */
  sql = "SELECT 'a\\';";
  CHV_CHECK_OK(chv_sql_split(sql, strlen(sql), CHV_SQL_DIALECT_DEFAULT, a, &p,
                             &n, &complete, &err),
               &err);
  CHV_CHECK(complete);
  CHV_CHECK_OK(chv_sql_split(sql, strlen(sql), CHV_SQL_DIALECT_HIVE, a, &p,
                             &n, &complete, &err),
               &err);
  CHV_CHECK(!complete);
  /* empty input */
  CHV_CHECK_OK(chv_sql_split("", 0, CHV_SQL_DIALECT_DEFAULT, a, &p, &n,
                             &complete, &err),
               &err);
  CHV_CHECK_EQ_INT(n, 0);
  CHV_CHECK(complete);
  chv_arena_close(a);
}

/* String decoding per dialect, switched by SET 'table.sql-dialect'. */
static void test_dialect(void) {
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  const char *sql = "SELECT 'a\\tb\\u00e9\\001\\0';\n"
                    "SET 'table.sql-dialect' = 'hive';\n"
                    "SELECT 'a\\tb\\u00e9\\001\\0', \"it's\";\n"
                    "SET table.sql-dialect=default;\n"
                    "SELECT 'it''s'";
  CHV_REQUIRE_OK(chv_sql_parse(sql, strlen(sql), a, &s, &err), &err);
  CHV_REQUIRE(s->n == 5);
  const struct chv_sql_expr *e = s->stmts[0]->query->items[0].expr;
  CHV_CHECK_EQ_INT(s->stmts[0]->dialect, CHV_SQL_DIALECT_DEFAULT);
  CHV_CHECK_STREQ(e->u.lit.value, "a\\tb\\u00e9\\001\\0");
  CHV_CHECK_STREQ(e->u.lit.text, "'a\\tb\\u00e9\\001\\0'");
  e = s->stmts[2]->query->items[0].expr;
  CHV_CHECK_EQ_INT(s->stmts[2]->dialect, CHV_SQL_DIALECT_HIVE);
  CHV_CHECK_EQ_INT(e->u.lit.value_len, 7);
  CHV_CHECK(memcmp(e->u.lit.value, "a\tb\xc3\xa9\001\0", 7) == 0);
  CHV_CHECK_STREQ(e->u.lit.text, "'a\\tb\\u00e9\\001\\0'");
  e = s->stmts[2]->query->items[1].expr;
  CHV_CHECK_STREQ(e->u.lit.value, "it's");
  CHV_CHECK_EQ_INT(s->stmts[4]->dialect, CHV_SQL_DIALECT_DEFAULT);
  CHV_CHECK_STREQ(s->stmts[4]->query->items[0].expr->u.lit.value, "it's");
  /* starting in Hive from the options */
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
  sql = "SELECT 'a\\'b'";
  CHV_REQUIRE_OK(chv_sql_parse_ex(sql, strlen(sql), &o, a, &s, NULL, &err),
                 &err);
  CHV_CHECK_STREQ(s->stmts[0]->query->items[0].expr->u.lit.value, "a'b");
  chv_arena_close(a);
}

/* Positions of statements, expressions and type text. */
static void test_positions(void) {
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  const char *sql = "-- c\nSELECT 1;\n  CREATE TABLE t (\n    a  map<string , "
                    "array<int>> COMMENT 'x')";
  CHV_REQUIRE_OK(chv_sql_parse(sql, strlen(sql), a, &s, &err), &err);
  CHV_REQUIRE(s->n == 2);
  CHV_CHECK_EQ_INT(s->stmts[0]->pos.line, 2);
  CHV_CHECK_EQ_INT(s->stmts[0]->pos.column, 1);
  CHV_CHECK_EQ_INT(s->stmts[0]->pos.offset, 5);
  CHV_CHECK_EQ_INT(s->stmts[0]->query->items[0].expr->pos.column, 8);
  CHV_CHECK_EQ_INT(s->stmts[1]->pos.line, 3);
  CHV_CHECK_EQ_INT(s->stmts[1]->pos.column, 3);
  const struct chv_sql_column *c = &s->stmts[1]->create_table->columns[0];
  CHV_CHECK_STREQ(c->type_text, "map<string , array<int>>");
  CHV_CHECK_EQ_INT(c->type_pos.line, 4);
  CHV_CHECK_EQ_INT(c->type_pos.column, 8);
  CHV_CHECK_EQ_INT(c->pos.column, 5);
  CHV_CHECK_STREQ(c->comment, "x");
  chv_arena_close(a);
}

/* Every statement says where its first hint opens, wherever it stands, so
** that a hint is never dropped unseen; the splitter keeps a trailing one. */
static void test_hint_positions(void) {
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  const char *sql = "SELECT * FROM t /*+ OPTIONS('a'='b') */;\n"
                    "SELECT a FROM t WHERE a = 1 /*+ OPTIONS('a'='b') */;\n"
                    "SELECT /*+ junk */ 1;\n"
                    "SELECT /* plain */ 1 -- no hint\n;\n"
                    "INSERT INTO t /*+ OPTIONS('a'='b') */ VALUES (1) "
                    "/*+ second */";
  CHV_REQUIRE_OK(chv_sql_parse(sql, strlen(sql), a, &s, &err), &err);
  CHV_REQUIRE(s->n == 5);
  CHV_CHECK_EQ_INT(s->stmts[0]->first_hint.line, 1);
  CHV_CHECK_EQ_INT(s->stmts[0]->first_hint.column, 17);
  CHV_CHECK_EQ_INT(s->stmts[1]->first_hint.line, 2);
  CHV_CHECK_EQ_INT(s->stmts[1]->first_hint.column, 29);
  CHV_CHECK_EQ_INT(s->stmts[2]->first_hint.line, 3);
  CHV_CHECK_EQ_INT(s->stmts[2]->first_hint.column, 8);
  CHV_CHECK_EQ_INT(s->stmts[3]->first_hint.line, 0);
  CHV_CHECK_EQ_INT(s->stmts[4]->first_hint.line, 6);
  CHV_CHECK_EQ_INT(s->stmts[4]->first_hint.column, 15);
  CHV_CHECK_EQ_INT((int)(sql + s->stmts[4]->first_hint.offset -
                         strstr(sql, "/*+ OPTIONS('a'='b') */ VALUES")),
                   0);
  /* The hints not taken as a table's: where no hint belongs, or the first
  ** of two before one token. */
  CHV_CHECK_EQ_INT(s->stmts[0]->stray_hint.line, 0);
  CHV_CHECK_EQ_INT(s->stmts[0]->query->from->options.n, 1);
  CHV_CHECK_EQ_INT(s->stmts[1]->stray_hint.line, 2);
  CHV_CHECK_EQ_INT(s->stmts[1]->stray_hint.column, 29);
  CHV_CHECK_EQ_INT(s->stmts[2]->stray_hint.column, 8);
  CHV_CHECK_EQ_INT(s->stmts[3]->stray_hint.line, 0);
  CHV_CHECK_EQ_INT(s->stmts[4]->options.n, 1);
  CHV_CHECK_STREQ(s->stmts[4]->options.items[0].key, "a");
  CHV_CHECK_EQ_INT((int)(sql + s->stmts[4]->stray_hint.offset -
                         strstr(sql, "/*+ second */")),
                   0);
  const char *twice = "SELECT * FROM t /*+ OPTIONS('a'='b') */\n"
                      "  /*+ OPTIONS('c'='d') */ x, (SELECT 1) /*+ OPTIONS("
                      "'e'='f') */ y";
  CHV_REQUIRE_OK(chv_sql_parse(twice, strlen(twice), a, &s, &err), &err);
  CHV_CHECK_EQ_INT(s->stmts[0]->first_hint.column, 17);
  CHV_CHECK_EQ_INT(s->stmts[0]->stray_hint.line, 1);
  CHV_CHECK_EQ_INT(s->stmts[0]->stray_hint.column, 17);
  const struct chv_sql_from *j = s->stmts[0]->query->from;
  CHV_CHECK_STREQ(j->left->options.items[0].key, "c");
  CHV_CHECK_STREQ(j->right->options.items[0].key, "e");

  struct chv_sql_piece *p = NULL;
  size_t n = 0;
  bool complete = false;
  const char *two = "SELECT 1 /*+ OPTIONS('a'='b') */; SELECT 2 /* c */;";
  CHV_REQUIRE_OK(chv_sql_split(two, strlen(two), CHV_SQL_DIALECT_DEFAULT, a,
                               &p, &n, &complete, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_EQ_INT(p[0].len, strlen("SELECT 1 /*+ OPTIONS('a'='b') */"));
  CHV_CHECK_EQ_INT(p[1].len, strlen("SELECT 2"));
  /* A hint no statement takes is a piece of its own, which the parser
  ** refuses at the hint. */
  const char *lone = "SELECT 1; /*+ OPTIONS('a'='b') */ ;";
  CHV_REQUIRE_OK(chv_sql_split(lone, strlen(lone), CHV_SQL_DIALECT_DEFAULT, a,
                               &p, &n, &complete, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_EQ_INT(p[1].len, strlen("/*+ OPTIONS('a'='b') */"));
  struct chv_sql_pos at = {0};
  struct chv_sql_parse_options po = {.dialect = CHV_SQL_DIALECT_DEFAULT};
  CHV_CHECK_EQ_INT(chv_sql_parse_ex(p[1].text, p[1].len, &po, a, &s, &at,
                                    &err),
                   CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "a hint (/*+ ... */) with no statement");
  CHV_CHECK_EQ_INT(at.column, 1);
  CHV_CHECK_EQ_INT(chv_sql_parse(lone, strlen(lone), a, &s, &err),
                   CHV_ESYNTAX);
  chv_arena_close(a);
}

static void test_arguments(void) {
  struct chv_error err;
  chv_arena *a = NULL;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  struct chv_sql_script *s = NULL;
  CHV_CHECK_EQ_INT(chv_sql_parse(NULL, 3, a, &s, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_sql_parse("x", 1, NULL, &s, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_sql_parse("x", 1, a, NULL, &err), CHV_EINVAL);
  /* empty scripts and NUL bytes */
  CHV_CHECK_OK(chv_sql_parse(NULL, 0, a, &s, &err), &err);
  CHV_CHECK_EQ_INT(s->n, 0);
  CHV_CHECK_OK(chv_sql_parse(" ;; -- x\n ;", 11, a, &s, &err), &err);
  CHV_CHECK_EQ_INT(s->n, 0);
  CHV_CHECK_EQ_INT(chv_sql_parse("SELECT\0 1", 9, a, &s, &err), CHV_ESYNTAX);
  CHV_CHECK_STREQ(err.msg, "line 1, column 7: unexpected character");
  /* text need not be NUL-terminated: only len bytes are read */
  CHV_CHECK_OK(chv_sql_parse("SELECT 1 garbage", 8, a, &s, &err), &err);
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_CHECK_EQ_INT(chv_sql_ast_print(NULL, &b), CHV_EINVAL);
  chv_buf_free(&b);
  chv_arena_close(a);
}

/* Every allocation may fail: the parser returns CHV_ENOMEM and never
** crashes; with enough memory it succeeds. */
static void test_oom(void) {
  const char *sql =
      "WITH x AS (SELECT a, count(*) c FROM t GROUP BY a) "
      "INSERT OVERWRITE TABLE db.t /*+ OPTIONS('a'='b') */ PARTITION "
      "(dt='1', hr) SELECT CASE WHEN a IN (1,2) THEN 'x' END, CAST(b AS "
      "map<string,int>) FROM x JOIN y ON x.a = y.a WHERE c BETWEEN 1 AND 2 "
      "ORDER BY 1 DESC LIMIT 3;"
      "CREATE TABLE t (a int COMMENT 'c') PARTITIONED BY (b string) ROW "
      "FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS ORC "
      "TBLPROPERTIES ('k'='v')";
  int failures = 0;
  for (long n = 1; n < 10000; n++) {
    chv_arena *a = NULL;
    if (chv_arena_open(256, &a) != CHV_OK) continue;
    struct chv_sql_script *s = NULL;
    struct chv_error err;
    chv_alloc_fail_after(n);
    int rc = chv_sql_parse(sql, strlen(sql), a, &s, &err);
    chv_alloc_fail_after(0);
    chv_arena_close(a);
    if (rc == CHV_OK) break;
    if (rc != CHV_ENOMEM) fprintf(stderr, "%ld: %s\n", n, err.msg);
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    failures++;
  }
  CHV_CHECK(failures > 3);
}

CHV_TEST_MAIN("sql_parse", test_golden, test_format, test_seeds, test_errors,
              test_deep_nesting, test_split, test_dialect, test_positions,
              test_hint_positions, test_arguments, test_oom)
