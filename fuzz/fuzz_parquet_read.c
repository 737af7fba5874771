/*
** libFuzzer target: the Parquet reader over arbitrary bytes, taken as a
** whole file (served from memory through a small chv_fs).
**
** Every row is read in small batches with a small page limit, as JSON
** Lines (so every value produced is looked at), and each batch's vectors
** are exported and checked against the Arrow invariants (offsets, lengths,
** validity): any input gives rows that hold together or a clean error
** (CHV_ECORRUPT, CHV_ERANGE, CHV_ENOTSUP, CHV_ETYPE), never a crash, a
** leak or an inconsistent vector.  The input's length picks the batch
** size, whether checksums are verified and a projection of the first
** column, or predicates on it.
*/
#include "chive/jsonl.h"
#include "chive/parquet.h"
#include "common/common.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!(x)) abort();                                                         \
  } while (0)

/* ---- a read-only file system of one file in memory --------------------- */

static const uint8_t *mem_data;
static size_t mem_size;

struct mem_file {
  struct chv_file base;
};

static int mem_open(const struct chv_fs *fs, const char *path,
                    struct chv_file **out, struct chv_error *err) {
  struct mem_file *f = chv_calloc(1, sizeof *f);
  if (f == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  f->base.fs = fs;
  f->base.path = NULL;
  (void)path;
  *out = &f->base;
  return CHV_OK;
}

static void mem_close(struct chv_file *f) { chv_free(f); }

static int mem_pread(struct chv_file *f, void *buf, size_t n, int64_t off,
                     size_t *got, struct chv_error *err) {
  (void)f;
  (void)err;
  size_t k = 0;
  if (off >= 0 && (uint64_t)off < mem_size)
    k = CHV_MIN(n, mem_size - (size_t)off);
  if (k) memcpy(buf, mem_data + off, k);
  *got = k;
  return CHV_OK;
}

static int mem_size_fn(struct chv_file *f, int64_t *out,
                       struct chv_error *err) {
  (void)f;
  (void)err;
  *out = (int64_t)mem_size;
  return CHV_OK;
}

static const struct chv_fs mem_fs = {
    .version = 1,
    .scheme = "mem",
    .open = mem_open,
    .close = mem_close,
    .pread = mem_pread,
    .size = mem_size_fn,
};

/* ---- the target -------------------------------------------------------- */

static bool clean(int rc) {
  return rc == CHV_ECORRUPT || rc == CHV_ERANGE || rc == CHV_ENOTSUP ||
         rc == CHV_ETYPE || rc == CHV_EINVAL;
}

/* Export a copy of the batch and check it as an Arrow array. */
static void check_arrow(const struct chv_batch *b) {
  struct chv_batch *copy;
  struct chv_error err;
  if (chv_batch_copy(b, &copy, &err) != CHV_OK) return;
  struct ArrowSchema s;
  struct ArrowArray a;
  if (chv_batch_export_schema(copy, &s, &err) != CHV_OK) {
    chv_batch_close(copy);
    return;
  }
  if (chv_batch_export(&copy, &a, &err) != CHV_OK) {
    /* Timestamps outside Arrow's units stay with the caller. */
    s.release(&s);
    chv_batch_close(copy);
    return;
  }
  CHECK(chv_arrow_validate(&s, &a, &err) == CHV_OK);
  a.release(&a);
  s.release(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mem_data = data;
  mem_size = size;
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.max_page_bytes = 64 << 10;
  o.no_checksums = (size & 3) == 1;
  int64_t cap = 1 + (int64_t)(size % 7);
  chv_pq_reader *r;
  struct chv_error err;
  int rc = chv_pq_reader_open(&mem_fs, "fuzz.parquet", &o, &r, &err);
  if (rc != CHV_OK) {
    CHECK(clean(rc));
    return 0;
  }
  const struct chv_type *t = chv_pq_reader_schema(r);
  const char *first[1] = {t->nchildren ? t->names[0] : ""};
  chv_pq_reader *r2 = NULL;
  struct chv_pred preds[2];
  if ((size & 3) == 3 && t->nchildren > 0) {
    /* Predicates on the first column: row groups and pages skipped by
    ** statistics and the page index. */
    preds[0].column = t->names[0];
    preds[0].op = (size & 4) ? CHV_PRED_GT : CHV_PRED_EQ;
    preds[0].value = "1";
    preds[1].column = t->names[0];
    preds[1].op = (size & 8) ? CHV_PRED_IS_NULL : CHV_PRED_IS_NOT_NULL;
    preds[1].value = NULL;
    o.preds = preds;
    o.npreds = 2;
    rc = chv_pq_reader_open(&mem_fs, "fuzz.parquet", &o, &r2, &err);
    if (rc != CHV_OK) {
      CHECK(clean(rc));
      goto out_close;
    }
  }
  if ((size & 3) == 2 && t->nchildren > 1) {
    /* Read the first column alone, through a table schema naming it. */
    o.columns = first;
    o.ncolumns = 1;
    o.table_schema = t; /* the first reader's: it stays open */
    rc = chv_pq_reader_open(&mem_fs, "fuzz.parquet", &o, &r2, &err);
    if (rc != CHV_OK) {
      CHECK(clean(rc));
      goto out_close;
    }
  }
  chv_pq_reader *rd = r2 ? r2 : r;
  struct chv_batch *b;
  if (chv_batch_open(chv_pq_reader_schema(rd), cap, &b, &err) == CHV_OK) {
    struct chv_buf out;
    chv_buf_init(&out);
    int64_t n, total = 0;
    while ((rc = chv_pq_reader_next(rd, b, &n, &err)) == CHV_OK && n > 0) {
      CHECK(n <= cap && b->nrows == n);
      for (int c = 0; c < b->ncols; c++) CHECK(b->cols[c]->length == n);
      for (int64_t i = 0; i < n; i++) {
        chv_buf_reset(&out);
        chv_jsonl_row(b, i, &out);
      }
      check_arrow(b);
      total += n;
      /* A footer may claim any number of rows: stop somewhere. */
      if (total > 20000) break;
    }
    if (rc != CHV_OK) {
      CHECK(clean(rc));
      /* Sticky. */
      CHECK(chv_pq_reader_next(rd, b, &n, &err) == rc);
    }
    chv_buf_free(&out);
    chv_batch_close(b);
  }
out_close:
  chv_pq_reader_close(r2);
  chv_pq_reader_close(r);
  return 0;
}
