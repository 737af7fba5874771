/*
** Tests of src/types, part 4: deep copies of rows and batches
** (chv_vector_append_from, chv_batch_copy), including a batch whose vectors
** are longer than it, nested NULLs, allocation failure at every step, and
** the Arrow export of a copy.
*/
#include "chv_test.h"
#include "types/types.h"

static struct chv_type *parse_cols(const char *text) {
  struct chv_type *t = NULL;
  struct chv_error err;
  if (chv_type_parse_columns(text, &t, &err) != CHV_OK) {
    fprintf(stderr, "parse %s: %s\n", text, err.msg);
    exit(2);
  }
  return t;
}

#define SCHEMA                                                                 \
  "b boolean, i int, d decimal(20,3), s string, c char(3), ts timestamp, "     \
  "a array<string>, m map<string,int>, st struct<x:int,y:array<bigint>>"

/* Row r of the test data; every fifth row is NULL in every column, and the
** nested values hold NULLs of their own. */
static int fill_row(struct chv_batch *b, int64_t r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  if (r % 5 == 4) {
    for (int i = 0; i < b->ncols; i++)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[i], err));
    return CHV_OK;
  }
  bool bv = r % 2;
  int32_t iv = (int32_t)(r * 7 - 3);
  chv_i128 dv = (chv_i128)r * 1000000007 - 5;
  char s[32];
  int n = snprintf(s, sizeof s, "row-%lld", (long long)r);
  struct chv_timestamp ts = {r * 86400 + 1, (int32_t)(r * 1000), 0};
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[0], &bv, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[1], &iv, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[2], &dv, err));
  CHV_RETURN_IF_ERR(chv_vector_append_bytes(c[3], s, (size_t)n, err));
  CHV_RETURN_IF_ERR(chv_vector_append_string(c[4], s, 1, err));
  CHV_RETURN_IF_ERR(chv_vector_append_value(c[5], &ts, err));
  for (int64_t e = 0; e < r % 3; e++) { /* array<string> */
    if (e == 1)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[6]->children[0], err));
    else
      CHV_RETURN_IF_ERR(
          chv_vector_append_bytes(c[6]->children[0], s, (size_t)n, err));
  }
  CHV_RETURN_IF_ERR(chv_vector_append_nested(c[6], err));
  for (int64_t e = 0; e < r % 4; e++) { /* map<string,int> */
    int32_t v = (int32_t)(e * 10 + r);
    char k[8];
    int kn = snprintf(k, sizeof k, "k%lld", (long long)e);
    CHV_RETURN_IF_ERR(
        chv_vector_append_bytes(c[7]->children[0], k, (size_t)kn, err));
    if (e == 2)
      CHV_RETURN_IF_ERR(chv_vector_append_null(c[7]->children[1], err));
    else
      CHV_RETURN_IF_ERR(chv_vector_append_value(c[7]->children[1], &v, err));
  }
  CHV_RETURN_IF_ERR(chv_vector_append_nested(c[7], err));
  struct chv_vector *st = c[8];
  if (r % 7 == 3) {
    CHV_RETURN_IF_ERR(chv_vector_append_null(st, err));
  } else {
    CHV_RETURN_IF_ERR(chv_vector_append_value(st->children[0], &iv, err));
    for (int64_t e = 0; e < r % 2 + 1; e++) {
      int64_t v = r * 100 + e;
      CHV_RETURN_IF_ERR(
          chv_vector_append_value(st->children[1]->children[0], &v, err));
    }
    CHV_RETURN_IF_ERR(chv_vector_append_nested(st->children[1], err));
    CHV_RETURN_IF_ERR(chv_vector_append_nested(st, err));
  }
  return CHV_OK;
}

/* Row-by-row equality of two vectors of one type over rows [0, n). */
static bool rows_equal(const struct chv_vector *a, int64_t ra,
                       const struct chv_vector *b, int64_t rb) {
  if (chv_vector_is_null(a, ra) != chv_vector_is_null(b, rb)) return false;
  if (chv_vector_is_null(a, ra)) return true;
  enum chv_type_id id = a->type->id;
  switch (id) {
  case CHV_TYPE_BOOLEAN:
    return chv_bit_get(a->data, ra) == chv_bit_get(b->data, rb);
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: {
    int32_t la = a->offsets[ra + 1] - a->offsets[ra];
    int32_t lb = b->offsets[rb + 1] - b->offsets[rb];
    return la == lb && memcmp(a->bytes + a->offsets[ra],
                              b->bytes + b->offsets[rb], (size_t)la) == 0;
  }
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: {
    int32_t la = a->offsets[ra + 1] - a->offsets[ra];
    int32_t lb = b->offsets[rb + 1] - b->offsets[rb];
    if (la != lb) return false;
    for (int32_t e = 0; e < la; e++)
      for (int c = 0; c < a->nchildren; c++)
        if (!rows_equal(a->children[c], a->offsets[ra] + e, b->children[c],
                        b->offsets[rb] + e))
          return false;
    return true;
  }
  case CHV_TYPE_STRUCT:
    for (int c = 0; c < a->nchildren; c++)
      if (!rows_equal(a->children[c], ra, b->children[c], rb)) return false;
    return true;
  default: {
    size_t w = chv_type_fixed_width(id);
    return memcmp((const char *)a->data + (size_t)ra * w,
                  (const char *)b->data + (size_t)rb * w, w) == 0;
  }
  }
}

static struct chv_batch *make_batch(const struct chv_type *schema, int64_t n) {
  struct chv_batch *b;
  struct chv_error err;
  if (chv_batch_open(schema, 4, &b, &err) != CHV_OK) exit(2);
  for (int64_t r = 0; r < n; r++)
    if (fill_row(b, r, &err) != CHV_OK) {
      fprintf(stderr, "fill row %lld: %s\n", (long long)r, err.msg);
      exit(2);
    }
  b->nrows = n;
  return b;
}

static void test_copy_all_types(void) {
  struct chv_type *schema = parse_cols(SCHEMA);
  struct chv_batch *src = make_batch(schema, 100);
  struct chv_batch *dst = NULL;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_batch_copy(src, &dst, &err), &err);
  CHV_CHECK(dst->schema == schema);
  CHV_CHECK_EQ_INT(dst->nrows, 100);
  CHV_REQUIRE(dst->ncols == src->ncols);
  int bad = 0;
  for (int i = 0; i < src->ncols; i++) {
    CHV_CHECK(dst->cols[i] != src->cols[i]);
    CHV_CHECK_EQ_INT(dst->cols[i]->length, 100);
    CHV_CHECK_EQ_INT(dst->cols[i]->null_count, src->cols[i]->null_count);
    for (int64_t r = 0; r < 100; r++)
      if (!rows_equal(src->cols[i], r, dst->cols[i], r)) bad++;
  }
  CHV_CHECK_EQ_INT(bad, 0);
  /* The copy owns its data: the source may go first. */
  chv_batch_close(src);
  struct ArrowSchema as;
  struct ArrowArray aa;
  CHV_REQUIRE_OK(chv_batch_export_schema(dst, &as, &err), &err);
  CHV_REQUIRE_OK(chv_batch_export(&dst, &aa, &err), &err);
  CHV_CHECK(dst == NULL);
  CHV_CHECK_OK(chv_arrow_validate(&as, &aa, &err), &err);
  CHV_CHECK_EQ_INT(aa.length, 100);
  aa.release(&aa);
  as.release(&as);
  chv_type_free(schema);
}

/* A batch may be shorter than its vectors (a view over a prefix, as a scan
** lends them): only nrows rows are copied. */
static void test_copy_prefix_and_rows(void) {
  struct chv_type *schema = parse_cols(SCHEMA);
  struct chv_batch *src = make_batch(schema, 30);
  struct chv_batch *dst = NULL;
  struct chv_error err;
  src->nrows = 12;
  CHV_REQUIRE_OK(chv_batch_copy(src, &dst, &err), &err);
  CHV_CHECK_EQ_INT(dst->nrows, 12);
  for (int i = 0; i < dst->ncols; i++) {
    CHV_CHECK_EQ_INT(dst->cols[i]->length, 12);
    for (int64_t r = 0; r < 12; r++)
      CHV_CHECK(rows_equal(src->cols[i], r, dst->cols[i], r));
  }
  /* A copied (bulk) column takes further rows as any vector does. */
  int64_t nulls = dst->cols[1]->null_count;
  int32_t x = 77;
  CHV_CHECK_OK(chv_vector_append_value(dst->cols[1], &x, &err), &err);
  CHV_CHECK_OK(chv_vector_append_bytes(dst->cols[3], "xy", 2, &err), &err);
  CHV_CHECK(!chv_vector_is_null(dst->cols[1], 12));
  CHV_CHECK(!chv_vector_is_null(dst->cols[3], 12));
  CHV_CHECK_EQ_INT(dst->cols[1]->null_count, nulls);
  CHV_CHECK_EQ_INT(((const int32_t *)dst->cols[1]->data)[12], 77);
  CHV_CHECK_EQ_INT(dst->cols[3]->offsets[13] - dst->cols[3]->offsets[12], 2);
  CHV_CHECK_OK(chv_vector_append_null(dst->cols[3], &err), &err);
  CHV_CHECK(chv_vector_is_null(dst->cols[3], 13));
  chv_batch_close(dst);

  /* An empty batch copies to an empty batch. */
  src->nrows = 0;
  CHV_REQUIRE_OK(chv_batch_copy(src, &dst, &err), &err);
  CHV_CHECK_EQ_INT(dst->nrows, 0);
  CHV_CHECK_EQ_INT(dst->cols[0]->length, 0);
  chv_batch_close(dst);

  /* Single rows, picked out of order, onto a vector that already has some. */
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(schema->children[8], 1, &v, &err), &err);
  int64_t pick[] = {10, 3, 4, 0, 29, 17};
  for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++)
    CHV_CHECK_OK(chv_vector_append_from(v, src->cols[8], pick[k], &err), &err);
  CHV_CHECK_EQ_INT(v->length, 6);
  for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++)
    CHV_CHECK(rows_equal(src->cols[8], pick[k], v, (int64_t)k));

  /* Misuse is CHV_EINVAL: another type, a row past the end. */
  CHV_CHECK_EQ_INT(chv_vector_append_from(v, src->cols[1], 0, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_vector_append_from(v, src->cols[8], 30, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_vector_append_from(v, src->cols[8], -1, &err),
                   CHV_EINVAL);
  chv_vector_close(v);
  chv_batch_close(src);
  chv_type_free(schema);
}

/* Rows gathered in bulk (chv_vector_append_rows) equal the same rows
** appended one at a time, for every type, picked out of order or as a
** range, onto vectors that already hold rows; every allocation may fail. */
static void test_append_rows(void) {
  struct chv_type *schema = parse_cols(SCHEMA);
  struct chv_batch *src = make_batch(schema, 50);
  struct chv_error err;
  uint32_t pick[] = {49, 3, 4, 0, 29, 17, 4, 9, 14, 44, 1};
  int npick = (int)(sizeof pick / sizeof pick[0]);
  for (int c = 0; c < src->ncols; c++) {
    struct chv_vector *a, *b;
    CHV_REQUIRE_OK(chv_vector_open(schema->children[c], 1, &a, &err), &err);
    CHV_REQUIRE_OK(chv_vector_open(schema->children[c], 1, &b, &err), &err);
    for (int64_t r = 0; r < 3; r++) { /* rows already there */
      CHV_CHECK_OK(chv_vector_append_from(a, src->cols[c], r + 5, &err), &err);
      CHV_CHECK_OK(chv_vector_append_from(b, src->cols[c], r + 5, &err), &err);
    }
    CHV_CHECK_OK(chv_vector_append_rows(a, src->cols[c], pick, 0, npick, &err),
                 &err);
    CHV_CHECK_OK(chv_vector_append_rows(a, src->cols[c], NULL, 20, 12, &err),
                 &err);
    for (int k = 0; k < npick; k++)
      CHV_CHECK_OK(chv_vector_append_from(b, src->cols[c], pick[k], &err), &err);
    for (int64_t r = 20; r < 32; r++)
      CHV_CHECK_OK(chv_vector_append_from(b, src->cols[c], r, &err), &err);
    CHV_CHECK_EQ_INT(a->length, 3 + npick + 12);
    CHV_CHECK_EQ_INT(a->length, b->length);
    CHV_CHECK_EQ_INT(a->null_count, b->null_count);
    int bad = 0;
    for (int64_t r = 0; r < a->length; r++) bad += !rows_equal(a, r, b, r);
    CHV_CHECK_EQ_INT(bad, 0);
    /* A gathered vector takes more rows as any vector does. */
    CHV_CHECK_OK(chv_vector_append_null(a, &err), &err);
    CHV_CHECK(chv_vector_is_null(a, a->length - 1));
    chv_vector_close(a);
    chv_vector_close(b);
  }
  /* Misuse is CHV_EINVAL: another type, rows outside the source. */
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(schema->children[1], 1, &v, &err), &err);
  uint32_t past[] = {2, 50};
  CHV_CHECK_EQ_INT(chv_vector_append_rows(v, src->cols[3], NULL, 0, 1, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_vector_append_rows(v, src->cols[1], past, 0, 2, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_vector_append_rows(v, src->cols[1], NULL, 45, 6, &err),
                   CHV_EINVAL);
  CHV_CHECK_EQ_INT(v->length, 0);
  chv_vector_close(v);
  /* Allocation failures: CHV_ENOMEM, nothing leaked. */
  int failures = 0;
  for (long n = 1; n < 200; n++) {
    struct chv_vector *s = NULL;
    int rc = CHV_OK;
    chv_alloc_fail_after(n);
    for (int c = 0; rc == CHV_OK && c < src->ncols; c++) {
      rc = chv_vector_open(schema->children[c], 1, &s, &err);
      if (rc == CHV_OK)
        rc = chv_vector_append_rows(s, src->cols[c], pick, 0, npick, &err);
      chv_vector_close(s);
      s = NULL;
    }
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) break;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    failures++;
  }
  CHV_CHECK(failures > 10);
  chv_batch_close(src);
  chv_type_free(schema);
}

/* Every allocation of a copy may fail: CHV_ENOMEM, nothing returned, nothing
** leaked (ASan), the source untouched. */
static void test_copy_alloc_failure(void) {
  struct chv_type *schema = parse_cols(SCHEMA);
  struct chv_batch *src = make_batch(schema, 40);
  struct chv_error err;
  int failures = 0;
  for (long n = 1; n < 10000; n++) {
    struct chv_batch *dst = NULL;
    chv_alloc_fail_after(n);
    int rc = chv_batch_copy(src, &dst, &err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      CHV_CHECK_EQ_INT(dst->nrows, 40);
      chv_batch_close(dst);
      break;
    }
    failures++;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    CHV_CHECK(dst == NULL);
  }
  CHV_CHECK(failures > 10);
  CHV_CHECK_EQ_INT(src->nrows, 40);
  chv_batch_close(src);
  chv_type_free(schema);
}

CHV_TEST_MAIN("types_copy", test_copy_all_types, test_copy_prefix_and_rows,
              test_append_rows, test_copy_alloc_failure)
