/*
** libFuzzer target: the ORC reader over arbitrary bytes, taken as a whole
** file (served from memory through a small chv_fs).
**
** Every row is read in small batches with a 64 KiB stream limit, as JSON
** Lines (so every value produced is looked at), and each batch's vectors
** are exported and checked against the Arrow invariants (offsets, lengths,
** validity): any input gives rows that hold together or a clean error
** (CHV_ECORRUPT, CHV_ERANGE, CHV_ENOTSUP, CHV_ETYPE), never a crash, a hang,
** a leak or an inconsistent vector.  The input's length picks the batch
** size, a projection of the first column through a table schema, and
** predicates on the first column (stripe and row group skipping, row
** index seeks, bloom filters).
*/
#include "chive/orc.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int next_rows(void *r, struct chv_batch *b, int64_t *n,
                     struct chv_error *err) {
  return chv_orc_reader_next(r, b, n, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_mem_set(data, size);
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.max_stream_bytes = 64 << 10;
  int64_t cap = 1 + (int64_t)(size % 7);
  o.batch_rows = cap; /* a batch without columns */
  chv_orc_reader *r;
  struct chv_error err;
  int rc = chv_orc_reader_open(&fuzz_mem_fs, "fuzz.orc", &o, &r, &err);
  if (rc != CHV_OK) {
    CHECK(fuzz_clean(rc));
    return 0;
  }
  const struct chv_type *t = chv_orc_reader_schema(r);
  struct chv_pred preds[2];
  if ((size & 3) >= 2 && t->nchildren > 0) {
    /* The first column alone through a table schema naming it, with
    ** predicates on it (or, past the projection, on the second). */
    const char *first[1] = {t->names[0]};
    const char *pc = t->names[(size & 4) && t->nchildren > 1 ? 1 : 0];
    static const char *lits[] = {"0", "1", "-1", "abc", "2015-01-01",
                                 "1.5", "", "2024-02-29 10:00:00"};
    preds[0].column = pc;
    preds[0].op = (enum chv_pred_op)(size % 8);
    preds[0].value = lits[(size / 8) % 8];
    preds[1].column = pc;
    preds[1].op = CHV_PRED_EQ;
    preds[1].value = lits[(size / 64) % 8];
    chv_orc_reader *r2;
    o.columns = first;
    o.ncolumns = 1;
    o.table_schema = t;
    o.preds = preds;
    o.npreds = (size & 3) == 3 ? 2 : 1;
    rc = chv_orc_reader_open(&fuzz_mem_fs, "fuzz.orc", &o, &r2, &err);
    if (rc != CHV_OK) {
      chv_orc_reader_close(r);
      CHECK(fuzz_clean(rc));
      return 0;
    }
    /* r2 borrows t through its options: keep r open. */
    fuzz_drain(next_rows, r2, chv_orc_reader_schema(r2), cap, 20000);
    chv_orc_reader_close(r2);
    chv_orc_reader_close(r);
    return 0;
  }
  fuzz_drain(next_rows, r, t, cap, 20000);
  chv_orc_reader_close(r);
  return 0;
}
