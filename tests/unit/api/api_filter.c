/*
** chv_source_filter_parse() as a program outside the library calls it: only
** include/ on the include path, linked only against libchive.so.
**
** A table described in memory (no catalog needed): data columns id INT and
** name STRING, partition keys dt STRING and n INT, stored as Parquet, then
** as TEXTFILE.  Filter strings go in; the partition filter (its tree) and the
** pushed predicates come out, or an error naming the column of the
** condition at fault, with the outputs left as they were.
*/
#include "chive/all.h"
#include "api_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static struct chv_column cols[] = {{"id", "int", NULL},
                                   {"name", "string", NULL}};
static struct chv_column keys[] = {{"dt", "string", NULL},
                                   {"n", "int", NULL}};

static struct chv_table table(const char *input_format) {
  struct chv_table t = {.db = "db", .name = "sales", .columns = cols,
                        .ncols = 2, .pkeys = keys, .npkeys = 2,
                        .type = CHV_MANAGED_TABLE,
                        .input_format = (char *)input_format};
  return t;
}

#define PARQUET "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"

/* The filter's nodes under any CHV_PF_DEFAULT_NAME wrappers. */
static const struct chv_part_filter *bare(const struct chv_part_filter *f) {
  while (f && f->kind == CHV_PF_DEFAULT_NAME) f = f->kids[0];
  return f;
}

struct parsed {
  int rc;
  struct chv_part_filter *pf;
  struct chv_pred *preds;
  int np;
  struct chv_error err;
};

static struct parsed parse(const struct chv_table *t, const char *filter,
                           chv_arena *a) {
  struct parsed p;
  chv_error_clear(&p.err);
  p.pf = NULL;
  p.preds = NULL;
  p.np = 0;
  p.rc = chv_source_filter_parse(t, filter, a, &p.pf, &p.preds, &p.np, &p.err);
  if (p.rc != CHV_OK && getenv("CHV_TEST_VERBOSE"))
    fprintf(stderr, "  %s -> %s\n", filter, p.err.msg);
  return p;
}

static bool pred_is(const struct chv_pred *p, const char *col,
                    enum chv_pred_op op, const char *value) {
  if (strcmp(p->column, col) != 0 || p->op != op) return false;
  if (value == NULL) return p->value == NULL;
  return p->value != NULL && strcmp(p->value, value) == 0;
}

/* The error is code, names the place "column <col> of the condition" and
** contains what; the outputs are untouched. */
static void check_error(const struct chv_table *t, chv_arena *a,
                        const char *filter, int code, const char *place,
                        const char *what) {
  struct chv_part_filter *pf = (struct chv_part_filter *)&pf;
  struct chv_pred *preds = (struct chv_pred *)&preds;
  int np = -7;
  struct chv_error err;
  chv_error_clear(&err);
  int rc = chv_source_filter_parse(t, filter, a, &pf, &preds, &np, &err);
  if (rc != code || err.code != code || (place && !strstr(err.msg, place)) ||
      (what && !strstr(err.msg, what))) {
    fprintf(stderr, "filter \"%s\": %s (%s), wanted %s with \"%s\", \"%s\"\n",
            filter, err.msg, chv_status_name(rc), chv_status_name(code),
            place ? place : "", what ? what : "");
    failures++;
  }
  CHECK(pf == (struct chv_part_filter *)&pf);
  CHECK(preds == (struct chv_pred *)&preds);
  CHECK(np == -7);
  /* NULL for the error is accepted, with the same status */
  CHECK(chv_source_filter_parse(t, filter, a, &pf, &preds, &np, NULL) == code);
}

int main(void) {
  chv_arena *a;
  if (chv_arena_open(0, &a) != CHV_OK) return 1;
  struct chv_table pq = table(PARQUET), text = table(NULL);

  /* a partition conjunct prunes, a data conjunct is pushed */
  struct parsed p = parse(&pq, "dt >= 'b' AND id > 100", a);
  CHECK(p.rc == CHV_OK);
  const struct chv_part_filter *f = bare(p.pf);
  CHECK(f && f->kind == CHV_PF_CMP && f->cmp == CHV_PF_GE &&
        !strcmp(f->key, "dt") && f->nlits == 1 && !strcmp(f->lits[0], "b"));
  CHECK(p.np == 1 && pred_is(&p.preds[0], "id", CHV_PRED_GT, "100"));

  /* two partition conjuncts AND-ed; a literal on the left is mirrored;
  ** names come out as the table spells them */
  p = parse(&pq, "DT = 'x' AND n < 3 AND 100 < ID AND name IS NOT NULL", a);
  CHECK(p.rc == CHV_OK);
  f = bare(p.pf);
  CHECK(f && f->kind == CHV_PF_AND);
  CHECK(p.np == 2 && pred_is(&p.preds[0], "id", CHV_PRED_GT, "100") &&
        pred_is(&p.preds[1], "name", CHV_PRED_IS_NOT_NULL, NULL));

  /* BETWEEN is two predicates; a qualified column is the table's */
  p = parse(&pq, "sales.id BETWEEN 1 AND 3", a);
  CHECK(p.rc == CHV_OK && p.pf == NULL);
  CHECK(p.np == 2 && pred_is(&p.preds[0], "id", CHV_PRED_GE, "1") &&
        pred_is(&p.preds[1], "id", CHV_PRED_LE, "3"));

  /* an OR across a key and a column: neither prunes nor is pushed */
  p = parse(&pq, "dt = 'x' OR id = 1", a);
  CHECK(p.rc == CHV_OK && p.pf == NULL && p.np == 0);
  /* an OR of keys alone prunes */
  p = parse(&pq, "dt = 'x' OR n IN (1, 2)", a);
  CHECK(p.rc == CHV_OK && bare(p.pf) && bare(p.pf)->kind == CHV_PF_OR &&
        p.np == 0);
  /* a function of a key is neither, but binds */
  p = parse(&pq, "upper(dt) = 'X'", a);
  CHECK(p.rc == CHV_OK && p.pf == NULL && p.np == 0);

  /* text files use no predicates; the partition filter is the same */
  p = parse(&text, "dt >= 'b' AND id > 100", a);
  CHECK(p.rc == CHV_OK && bare(p.pf) && bare(p.pf)->kind == CHV_PF_CMP &&
        p.np == 0);

  /* errors name the place in the condition, never the statement around */
  check_error(&pq, a, "id >", CHV_ESYNTAX, "column 5 of the condition",
              "expected an expression");
  check_error(&pq, a, "", CHV_ESYNTAX, "column 1 of the condition", NULL);
  check_error(&pq, a, "dt = 'x' AND nope = 1", CHV_ENOENT,
              "column 14 of the condition", "'nope'");
  check_error(&pq, a, "dt = 'x' AND\n  nope = 1", CHV_ENOENT,
              "line 2, column 3 of the condition", "'nope'");
  check_error(&pq, a, "other.id = 1", CHV_ENOENT,
              "column 1 of the condition", "qualifier 'other'");
  check_error(&pq, a, "id + 1", CHV_ETYPE, "column 1 of the condition",
              "not boolean");
  check_error(&pq, a, "count(*) > 1", CHV_EINVAL, "column 1 of the condition",
              "aggregate");
  check_error(&pq, a, "id = DATE '2024-13-01'", CHV_EINVAL,
              "column 6 of the condition", "2024-13-01");
  check_error(&pq, a, "dt = 'x' /*+ OPTIONS('k'='v') */", CHV_ENOTSUP,
              "column 10 of the condition", "hints");
  /* more than one condition, or more than a condition */
  check_error(&pq, a, "id > 1; DROP TABLE sales", CHV_EINVAL, NULL,
              "is not one condition");
  check_error(&pq, a, "id > 1 ORDER BY id", CHV_EINVAL, NULL,
              "is not one condition");
  check_error(&pq, a, "id > 1 GROUP BY id", CHV_EINVAL, NULL,
              "is not one condition");
  check_error(&pq, a, "id > 1 HAVING id > 2", CHV_EINVAL, NULL,
              "is not one condition");
  check_error(&pq, a, "id > 1 LIMIT 3", CHV_EINVAL, NULL,
              "is not one condition");
  /* NULL arguments */
  struct chv_part_filter *pf;
  struct chv_pred *preds;
  int np;
  CHECK(chv_source_filter_parse(&pq, NULL, a, &pf, &preds, &np, NULL) ==
        CHV_EINVAL);
  CHECK(chv_source_filter_parse(NULL, "id > 1", a, &pf, &preds, &np, NULL) ==
        CHV_EINVAL);
  CHECK(chv_source_filter_parse(&pq, "id > 1", NULL, &pf, &preds, &np, NULL) ==
        CHV_EINVAL);

  chv_arena_close(a);
  if (failures) {
    fprintf(stderr, "api_filter: %d check(s) failed\n", failures);
    return 1;
  }
  printf("api_filter: ok\n");
  return 0;
}
