/*
** sql/exec spill.c: frames of every type (nested ones, NULLs, empty
** strings) written and read back the same, with a selection and without,
** into vectors reused from frame to frame; a damaged file read back is an
** error naming it; the files are counted and closed.
*/
#include "exec_fixture.h"
#include "sql/exec/spill.h"

#include <stdlib.h>
#include <unistd.h>

/* Row i of v as text: values as their bytes in hex, NULL, [..] for ARRAY
** and MAP children rows, {..} for STRUCT fields. */
static void render(struct chv_buf *o, const struct chv_vector *v, int64_t i) {
  if (chv_vector_is_null(v, i)) {
    chv_buf_puts(o, "N");
    return;
  }
  enum chv_type_id id = v->type->id;
  size_t w = chv_type_fixed_width(id);
  if (id == CHV_TYPE_BOOLEAN) {
    chv_buf_puts(o, chv_bit_get(v->data, i) ? "t" : "f");
  } else if (w) {
    const unsigned char *p = (const unsigned char *)v->data + w * (size_t)i;
    for (size_t k = 0; k < w; k++) chv_buf_printf(o, "%02x", p[k]);
  } else if (chv_type_is_string_like(id)) {
    chv_buf_putc(o, '\'');
    chv_buf_append(o, v->bytes + v->offsets[i],
                   (size_t)(v->offsets[i + 1] - v->offsets[i]));
    chv_buf_putc(o, '\'');
  } else if (id == CHV_TYPE_STRUCT) {
    chv_buf_putc(o, '{');
    for (int c = 0; c < v->nchildren; c++) {
      if (c) chv_buf_putc(o, ',');
      render(o, v->children[c], i);
    }
    chv_buf_putc(o, '}');
  } else {
    chv_buf_putc(o, '[');
    for (int32_t j = v->offsets[i]; j < v->offsets[i + 1]; j++) {
      if (j > v->offsets[i]) chv_buf_putc(o, ',');
      for (int c = 0; c < v->nchildren; c++) {
        if (c) chv_buf_putc(o, ':');
        render(o, v->children[c], j);
      }
    }
    chv_buf_putc(o, ']');
  }
}

static void render_rows(struct chv_buf *o, struct chv_vector *const *cols,
                        int ncols, const uint32_t *rows, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    for (int c = 0; c < ncols; c++) {
      chv_buf_putc(o, c ? '|' : ';');
      render(o, cols[c], rows ? rows[i] : i);
    }
  }
}

#define NCOLS 7

/* A batch of n rows of every kind of column, some NULL. */
static struct chv_batch *make(const struct chv_type *st, int64_t n) {
  struct chv_batch *b = NULL;
  if (chv_batch_open(st, 0, &b, NULL) != CHV_OK) return NULL;
  for (int64_t i = 0; i < n; i++) {
    bool null = i % 7 == 3;
    int64_t x = i * 1000003 - 5;
    bool t = i % 3 == 0;
    struct chv_vector **c = b->cols;
#define VAL(k, p) (null ? chv_vector_append_null(c[k], NULL) : chv_vector_append_value(c[k], p, NULL))
    VAL(0, &x);
    VAL(1, &t);
    chv_i128 d = (chv_i128)x * 1000000007;
    VAL(2, &d);
    char s[32];
    int len = i % 5 == 0 ? 0 : snprintf(s, sizeof s, "s%lld", (long long)i);
    if (null) chv_vector_append_null(c[3], NULL);
    else chv_vector_append_bytes(c[3], s, (size_t)len, NULL);
    /* array<int>: i % 4 elements, one of them NULL */
    if (i % 11 == 5) {
      chv_vector_append_null(c[4], NULL);
    } else {
      for (int k = 0; k < i % 4; k++) {
        int32_t e = (int32_t)(i + k);
        if (k == 1) chv_vector_append_null(c[4]->children[0], NULL);
        else chv_vector_append_value(c[4]->children[0], &e, NULL);
      }
      chv_vector_append_nested(c[4], NULL);
    }
    /* map<string,double> */
    for (int k = 0; k < i % 3; k++) {
      double v = (double)i / (k + 1);
      chv_vector_append_bytes(c[5]->children[0], "k", 1, NULL);
      if (k == 1) chv_vector_append_null(c[5]->children[1], NULL);
      else chv_vector_append_value(c[5]->children[1], &v, NULL);
    }
    chv_vector_append_nested(c[5], NULL);
    /* struct<a:timestamp,b:varchar(5)> */
    if (i % 13 == 7) {
      chv_vector_append_null(c[6], NULL);
    } else {
      struct chv_timestamp ts = {x, (int32_t)(i % 1000), 0};
      chv_vector_append_value(c[6]->children[0], &ts, NULL);
      chv_vector_append_bytes(c[6]->children[1], "ab", 2, NULL);
      chv_vector_append_nested(c[6], NULL);
    }
#undef VAL
  }
  b->nrows = n;
  return b;
}

static void test_roundtrip(void) {
  struct chv_error err = {0};
  struct chv_type *st = NULL;
  CHV_REQUIRE_OK(chv_type_parse_columns(
                     "a bigint, b boolean, c decimal(30,2), d string, "
                     "e array<int>, f map<string,double>, "
                     "g struct<a:timestamp,b:varchar(5)>",
                     &st, &err),
                 &err);
  struct sql_exec x = {0};
  char dir[] = "/tmp/chv-spill-rt-XXXXXX";
  CHV_REQUIRE(mkdtemp(dir) != NULL);
  x.tmp_dirs = dir;
  struct sql_op op = {.x = &x};
  struct sql_spill *f = NULL;
  int64_t opened = sql_spill_files_opened();
  CHV_REQUIRE_OK(sql_spill_open(&op, &f, &err), &err);
  CHV_CHECK_EQ_INT(sql_spill_files_opened() - opened, 1);
  CHV_CHECK_EQ_INT(op.spill_files, 1);
  struct chv_batch *b1 = make(st, 1000), *b2 = make(st, 37);
  CHV_REQUIRE(b1 && b2);
  uint32_t sel[300];
  for (int i = 0; i < 300; i++) sel[i] = (uint32_t)(999 - 3 * i);
  struct chv_buf want, got;
  chv_buf_init(&want);
  chv_buf_init(&got);
  CHV_CHECK_OK(sql_spill_write(f, b1->cols, NCOLS, NULL, 1000, &err), &err);
  render_rows(&want, b1->cols, NCOLS, NULL, 1000);
  CHV_CHECK_OK(sql_spill_write(f, b1->cols, NCOLS, sel, 300, &err), &err);
  render_rows(&want, b1->cols, NCOLS, sel, 300);
  CHV_CHECK_OK(sql_spill_write(f, b2->cols, NCOLS, NULL, 20, &err), &err);
  render_rows(&want, b2->cols, NCOLS, NULL, 20);
  CHV_CHECK_OK(sql_spill_write(f, b2->cols, NCOLS, NULL, 0, &err), &err);
  CHV_CHECK_EQ_INT(sql_spill_rows(f), 1320);
  CHV_CHECK(op.spill_bytes > 1320 * 40);
  CHV_CHECK_OK(sql_spill_rewind(f, &err), &err);
  struct chv_batch *r = NULL;
  CHV_REQUIRE_OK(chv_batch_open(st, 0, &r, &err), &err);
  int64_t n, frames = 0;
  for (;;) {
    CHV_REQUIRE_OK(sql_spill_read(f, r->cols, NCOLS, &n, &err), &err);
    if (n == 0) break;
    frames++;
    render_rows(&got, r->cols, NCOLS, NULL, n);
    for (int c = 0; c < NCOLS; c++) CHV_CHECK_EQ_INT(r->cols[c]->length, n);
  }
  CHV_CHECK_EQ_INT(frames, 3);
  CHV_CHECK(want.len == got.len && memcmp(want.data, got.data, want.len) == 0);
  /* the end stays the end */
  CHV_CHECK_OK(sql_spill_read(f, r->cols, NCOLS, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 0);
  /* a write after the rewind is refused */
  CHV_CHECK_EQ_INT(sql_spill_write(f, b2->cols, NCOLS, NULL, 1, &err),
                   CHV_EINTERNAL);
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 1);
  sql_spill_close(f);
  CHV_CHECK_EQ_INT(sql_spill_files_live(), 0);
  /* a frame read as other columns, and a truncated frame: errors */
  CHV_REQUIRE_OK(sql_spill_open(&op, &f, &err), &err);
  CHV_CHECK_OK(sql_spill_write(f, b2->cols, NCOLS, NULL, 37, &err), &err);
  CHV_CHECK_EQ_INT(sql_spill_read(f, r->cols, NCOLS - 1, &n, &err),
                   CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "a frame of other columns");
  CHV_CHECK_CONTAINS(err.msg, dir);
  sql_spill_close(f);
  CHV_CHECK_EQ_INT(rmdir(dir), 0); /* nothing was left in it */
  chv_buf_free(&want);
  chv_buf_free(&got);
  chv_batch_close(b1);
  chv_batch_close(b2);
  chv_batch_close(r);
  chv_type_free(st);
}

CHV_TEST_MAIN("exec_spill", test_roundtrip)
