/*
** The file-reader fuzz targets' shared parts (memfile.h).
*/
#include "memfile.h"

#include "chive/jsonl.h"
#include "common/common.h"

/* ---- a read-only file system of one file in memory --------------------- */

static const uint8_t *mem_data;
static size_t mem_size;

void fuzz_mem_set(const uint8_t *data, size_t size) {
  mem_data = data;
  mem_size = size;
}

static int mem_open(const struct chv_fs *fs, const char *path,
                    struct chv_file **out, struct chv_error *err) {
  struct chv_file *f = chv_calloc(1, sizeof *f);
  if (f == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  f->fs = fs;
  f->path = NULL;
  (void)path;
  *out = f;
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

const struct chv_fs fuzz_mem_fs = {
    .version = 1,
    .scheme = "mem",
    .open = mem_open,
    .close = mem_close,
    .pread = mem_pread,
    .size = mem_size_fn,
};

/* ---- reading every row -------------------------------------------------- */

bool fuzz_clean(int rc) {
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

void fuzz_drain(fuzz_next_fn next, void *reader, const struct chv_type *schema,
                int64_t cap, int64_t max_rows) {
  struct chv_batch *b;
  struct chv_error err;
  if (chv_batch_open(schema, cap, &b, &err) != CHV_OK) return;
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t n, total = 0;
  int rc;
  while ((rc = next(reader, b, &n, &err)) == CHV_OK && n > 0) {
    CHECK(n <= cap && b->nrows == n);
    for (int c = 0; c < b->ncols; c++) CHECK(b->cols[c]->length == n);
    for (int64_t i = 0; i < n; i++) {
      chv_buf_reset(&out);
      chv_jsonl_row(b, i, &out);
    }
    check_arrow(b);
    /* A footer may claim any number of rows: stop somewhere. */
    if ((total += n) > max_rows) break;
  }
  if (rc != CHV_OK) {
    CHECK(fuzz_clean(rc));
    CHECK(next(reader, b, &n, &err) == rc); /* errors are sticky */
  }
  chv_buf_free(&out);
  chv_batch_close(b);
}
