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
#include "chive/parquet.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int next_rows(void *r, struct chv_batch *b, int64_t *n,
                     struct chv_error *err) {
  return chv_pq_reader_next(r, b, n, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_mem_set(data, size);
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.max_page_bytes = 64 << 10;
  o.no_checksums = (size & 3) == 1;
  int64_t cap = 1 + (int64_t)(size % 7);
  chv_pq_reader *r;
  struct chv_error err;
  int rc = chv_pq_reader_open(&fuzz_mem_fs, "fuzz.parquet", &o, &r, &err);
  if (rc != CHV_OK) {
    CHECK(fuzz_clean(rc));
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
    rc = chv_pq_reader_open(&fuzz_mem_fs, "fuzz.parquet", &o, &r2, &err);
    if (rc != CHV_OK) {
      CHECK(fuzz_clean(rc));
      goto out_close;
    }
  }
  if ((size & 3) == 2 && t->nchildren > 1) {
    /* Read the first column alone, through a table schema naming it. */
    o.columns = first;
    o.ncolumns = 1;
    o.table_schema = t; /* the first reader's: it stays open */
    rc = chv_pq_reader_open(&fuzz_mem_fs, "fuzz.parquet", &o, &r2, &err);
    if (rc != CHV_OK) {
      CHECK(fuzz_clean(rc));
      goto out_close;
    }
  }
  chv_pq_reader *rd = r2 ? r2 : r;
  fuzz_drain(next_rows, rd, chv_pq_reader_schema(rd), cap, 20000);
out_close:
  chv_pq_reader_close(r2);
  chv_pq_reader_close(r);
  return 0;
}
