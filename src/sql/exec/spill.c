/*
** sql/exec spill.c: spill files, the temporary files of the operators that
** hold more rows than chive.exec.operator-memory (the external sort).
**
** The format (native byte order: a file is read back by the process that
** wrote it, then gone):
**
**   frame  := u32 magic "CSPF", u32 ncols, i64 nrows, vector * ncols
**   vector := u8 flags (1: a validity bitmap follows), [validity],
**             BOOLEAN: ceil(n/8) bytes of bits | fixed width: n values |
**             strings: (n+1) i32 offsets, offsets[n] bytes |
**             ARRAY/MAP: (n+1) i32 offsets, children of offsets[n] rows |
**             STRUCT: each field of n rows
**
** where n is the vector's rows and validity ceil(n/8) bytes (bit set:
** valid).  A frame's offsets start at 0.  What reads back is checked
** (magic, column count, offsets that start at 0 and never go down): a
** truncated or damaged file is CHV_ECORRUPT naming it, never a crash.
**
** A file is opened with O_CREAT | O_EXCL (mode 0600) in the next folder of
** io.tmp.dirs (round-robin over the execution's opens) and unlinked at
** once, so its space is the kernel's to reclaim when the descriptor
** closes: on success, on an error, on cancel, and when the process dies.
**
** INTERFACE: sql_spill_*() (spill.h).
*/
#include "sql/exec/spill.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define SPILL_MAGIC 0x46505343u  /* "CSPF" */
#define SPILL_BUF (32 << 10)     /* stdio buffer of a file */

struct sql_spill {
  struct sql_op *op;            /* whose counters (borrowed) */
  FILE *f;
  char path[512];               /* for messages: the file is unlinked */
  int64_t rows;                 /* written */
  /* scratch of a write with a selection, on the types of the write's
  ** vectors (borrowed: made again when they change) */
  struct chv_vector **gather;
  int ngather;
  bool reading;
};

static int64_t files_opened, files_live;

int64_t sql_spill_files_opened(void) {
  return __atomic_load_n(&files_opened, __ATOMIC_RELAXED);
}

int64_t sql_spill_files_live(void) {
  return __atomic_load_n(&files_live, __ATOMIC_RELAXED);
}

/* ---- io.tmp.dirs ------------------------------------------------------- */

static bool is_sep(char c) { return c == ',' || c == ':'; }

/* The i-th non-blank element of dirs: start and length. */
static bool dir_find(const char *dirs, int i, const char **s, size_t *n) {
  int k = 0;
  for (const char *p = dirs; p && *p;) {
    const char *e = p;
    while (*e && !is_sep(*e)) e++;
    const char *a = p, *b = e;
    while (a < b && isspace((unsigned char)*a)) a++;
    while (b > a && isspace((unsigned char)b[-1])) b--;
    if (b > a) {
      if (k == i) {
        *s = a;
        *n = (size_t)(b - a);
        return true;
      }
      k++;
    }
    p = *e ? e + 1 : e;
  }
  return false;
}

int sql_spill_dirs_count(const char *dirs) {
  int k = 0;
  const char *s;
  size_t n;
  while (dir_find(dirs, k, &s, &n)) k++;
  return k;
}

bool sql_spill_dir_at(const char *dirs, int i, char *buf, size_t cap) {
  const char *s;
  size_t n;
  if (!dir_find(dirs, i, &s, &n) || n + 1 > cap) return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  return true;
}

/* The folders of x: its own (a test's), io.tmp.dirs, TMPDIR, /tmp. */
static const char *exec_dirs(const struct sql_exec *x) {
  if (x->tmp_dirs && sql_spill_dirs_count(x->tmp_dirs) > 0)
    return x->tmp_dirs;
  const char *v = NULL;
  if (x->cfg && chv_config_is_set(x->cfg, "io.tmp.dirs") &&
      chv_config_get_string(x->cfg, "io.tmp.dirs", &v, NULL) == CHV_OK && v &&
      sql_spill_dirs_count(v) > 0)
    return v;
  v = getenv("TMPDIR");
  if (v && sql_spill_dirs_count(v) > 0) return v;
  return "/tmp";
}

/* ---- opening and closing ---------------------------------------------- */

int sql_spill_open(struct sql_op *op, struct sql_spill **out,
                   struct chv_error *err) {
  struct sql_exec *x = op->x;
  const char *dirs = exec_dirs(x);
  int nd = sql_spill_dirs_count(dirs);
  unsigned turn = __atomic_fetch_add(&x->spill_turn, 1, __ATOMIC_RELAXED);
  char dir[400];
  if (!sql_spill_dir_at(dirs, (int)(turn % (unsigned)nd), dir, sizeof dir))
    return chv_error_set(err, CHV_EINVAL,
                         "io.tmp.dirs: a folder name longer than %zu bytes",
                         sizeof dir - 1);
  struct sql_spill *f = chv_calloc(1, sizeof *f);
  if (!f) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int fd = -1;
  for (int tries = 0; tries < 16 && fd < 0; tries++) {
    static int64_t seq;
    long long k = (long long)__atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
    snprintf(f->path, sizeof f->path, "%s/chive-spill-%ld-%lld.tmp", dir,
             (long)getpid(), k);
    fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    int e = errno;
    chv_free(f);
    return chv_error_set(err, CHV_EIO,
                         "io.tmp.dirs: cannot create a spill file in folder "
                         "'%s': %s",
                         dir, strerror(e));
  }
  unlink(f->path); /* gone whatever happens next */
  f->f = fdopen(fd, "w+b");
  if (!f->f) {
    close(fd);
    chv_free(f);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  setvbuf(f->f, NULL, _IOFBF, SPILL_BUF);
  f->op = op;
  __atomic_add_fetch(&op->spill_files, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&files_opened, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&files_live, 1, __ATOMIC_RELAXED);
  *out = f;
  return CHV_OK;
}

void sql_spill_close(struct sql_spill *f) {
  if (!f) return;
  if (f->f) fclose(f->f);
  for (int c = 0; c < f->ngather; c++) chv_vector_close(f->gather[c]);
  chv_free(f->gather);
  __atomic_sub_fetch(&files_live, 1, __ATOMIC_RELAXED);
  chv_free(f);
}

int64_t sql_spill_rows(const struct sql_spill *f) { return f->rows; }

/* ---- writing ------------------------------------------------------------ */

static int put(struct sql_spill *f, const void *p, size_t n, int64_t *bytes,
               struct chv_error *err) {
  if (n && fwrite(p, 1, n, f->f) != n)
    return chv_error_set(err, CHV_EIO, "spill file '%s': %s", f->path,
                         strerror(errno));
  *bytes += (int64_t)n;
  return CHV_OK;
}

/* Rows [0, n) of v, dense from row 0. */
static int put_vector(struct sql_spill *f, const struct chv_vector *v,
                      int64_t n, int64_t *bytes, struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  uint8_t flags = v->validity && v->null_count > 0 ? 1 : 0;
  size_t bm = (size_t)((n + 7) / 8);
  CHV_RETURN_IF_ERR(put(f, &flags, 1, bytes, err));
  if (flags) CHV_RETURN_IF_ERR(put(f, v->validity, bm, bytes, err));
  size_t w = chv_type_fixed_width(id);
  if (id == CHV_TYPE_BOOLEAN) return put(f, v->data, bm, bytes, err);
  if (w) return put(f, v->data, w * (size_t)n, bytes, err);
  if (chv_type_is_string_like(id)) {
    CHV_RETURN_IF_ERR(
        put(f, v->offsets, sizeof *v->offsets * (size_t)(n + 1), bytes, err));
    return put(f, v->bytes, (size_t)v->offsets[n], bytes, err);
  }
  if (id == CHV_TYPE_ARRAY || id == CHV_TYPE_MAP) {
    CHV_RETURN_IF_ERR(
        put(f, v->offsets, sizeof *v->offsets * (size_t)(n + 1), bytes, err));
    for (int c = 0; c < v->nchildren; c++)
      CHV_RETURN_IF_ERR(
          put_vector(f, v->children[c], v->offsets[n], bytes, err));
    return CHV_OK;
  }
  for (int c = 0; c < v->nchildren; c++) /* STRUCT */
    CHV_RETURN_IF_ERR(put_vector(f, v->children[c], n, bytes, err));
  return CHV_OK;
}

int sql_spill_write(struct sql_spill *f, struct chv_vector *const *cols,
                    int ncols, const uint32_t *rows, int64_t n,
                    struct chv_error *err) {
  if (n <= 0) return CHV_OK;
  if (f->reading)
    return chv_error_set(err, CHV_EINTERNAL, "spill: a write after rewind");
  struct chv_vector *const *src = cols;
  if (rows) { /* gathered densely first */
    if (!f->gather) {
      f->gather = chv_calloc((size_t)ncols + 1, sizeof *f->gather);
      if (!f->gather) return chv_error_set(err, CHV_ENOMEM, "out of memory");
      f->ngather = ncols;
      for (int c = 0; c < ncols; c++)
        CHV_RETURN_IF_ERR(chv_vector_open(cols[c]->type, n, &f->gather[c], err));
    }
    if (f->ngather != ncols)
      return chv_error_set(err, CHV_EINTERNAL, "spill: %d columns, not %d",
                           ncols, f->ngather);
    for (int c = 0; c < ncols; c++) {
      if (f->gather[c]->type != cols[c]->type) {
        /* the caller's type, which may be gone by its next write (a
        ** reader's batch): the scratch is made again on it */
        chv_vector_close(f->gather[c]);
        f->gather[c] = NULL;
        CHV_RETURN_IF_ERR(chv_vector_open(cols[c]->type, n, &f->gather[c], err));
      }
      chv_vector_reset(f->gather[c]);
      CHV_RETURN_IF_ERR(
          chv_vector_append_rows(f->gather[c], cols[c], rows, 0, n, err));
    }
    src = f->gather;
  }
  uint32_t head[2] = {SPILL_MAGIC, (uint32_t)ncols};
  int64_t bytes = 0;
  CHV_RETURN_IF_ERR(put(f, head, sizeof head, &bytes, err));
  CHV_RETURN_IF_ERR(put(f, &n, sizeof n, &bytes, err));
  for (int c = 0; c < ncols; c++)
    CHV_RETURN_IF_ERR(put_vector(f, src[c], n, &bytes, err));
  f->rows += n;
  __atomic_add_fetch(&f->op->spill_bytes, bytes, __ATOMIC_RELAXED);
  return CHV_OK;
}

int sql_spill_rewind(struct sql_spill *f, struct chv_error *err) {
  if (fflush(f->f) != 0 || fseek(f->f, 0, SEEK_SET) != 0)
    return chv_error_set(err, CHV_EIO, "spill file '%s': %s", f->path,
                         strerror(errno));
  f->reading = true;
  return CHV_OK;
}

/* ---- reading ------------------------------------------------------------ */

static int get(struct sql_spill *f, void *p, size_t n, struct chv_error *err) {
  if (n && fread(p, 1, n, f->f) != n) {
    if (ferror(f->f))
      return chv_error_set(err, CHV_EIO, "spill file '%s': %s", f->path,
                           strerror(errno));
    return chv_error_set(err, CHV_ECORRUPT, "spill file '%s': truncated",
                         f->path);
  }
  return CHV_OK;
}

static int bad(struct sql_spill *f, const char *what, struct chv_error *err) {
  return chv_error_set(err, CHV_ECORRUPT, "spill file '%s': %s", f->path,
                       what);
}

/* n rows into v (reset). */
static int get_vector(struct sql_spill *f, struct chv_vector *v, int64_t n,
                      struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  uint8_t flags;
  size_t bm = (size_t)((n + 7) / 8);
  CHV_RETURN_IF_ERR(get(f, &flags, 1, err));
  if (flags > 1) return bad(f, "a vector's flags are not 0 or 1", err);
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, n, err));
  int64_t nulls = 0;
  if (flags) {
    if (!v->validity && n > 0) {
      CHV_RETURN_IF_ERR(chv_vector_set_null(v, 0, err)); /* allocates it */
      v->null_count = 0;
    }
    CHV_RETURN_IF_ERR(get(f, v->validity, bm, err));
    if (n % 8) v->validity[bm - 1] |= (uint8_t)(0xffu << (n % 8));
    for (size_t i = 0; i < bm; i++)
      nulls += 8 - __builtin_popcount(v->validity[i]);
  }
  size_t w = chv_type_fixed_width(id);
  if (id == CHV_TYPE_BOOLEAN) {
    CHV_RETURN_IF_ERR(get(f, v->data, bm, err));
  } else if (w) {
    CHV_RETURN_IF_ERR(get(f, v->data, w * (size_t)n, err));
  } else if (id != CHV_TYPE_STRUCT) { /* strings, ARRAY, MAP */
    CHV_RETURN_IF_ERR(
        get(f, v->offsets, sizeof *v->offsets * (size_t)(n + 1), err));
    if (v->offsets[0] != 0) return bad(f, "offsets do not start at 0", err);
    for (int64_t i = 0; i < n; i++)
      if (v->offsets[i + 1] < v->offsets[i])
        return bad(f, "offsets go down", err);
    int32_t m = v->offsets[n];
    if (chv_type_is_string_like(id)) {
      CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, m, err));
      CHV_RETURN_IF_ERR(get(f, v->bytes, (size_t)m, err));
      v->bytes_len = m;
    } else {
      for (int c = 0; c < v->nchildren; c++)
        CHV_RETURN_IF_ERR(get_vector(f, v->children[c], m, err));
    }
  } else {
    for (int c = 0; c < v->nchildren; c++)
      CHV_RETURN_IF_ERR(get_vector(f, v->children[c], n, err));
  }
  v->null_count = nulls;
  v->length = n;
  return CHV_OK;
}

int sql_spill_read(struct sql_spill *f, struct chv_vector **cols, int ncols,
                   int64_t *n, struct chv_error *err) {
  *n = 0;
  if (!f->reading) CHV_RETURN_IF_ERR(sql_spill_rewind(f, err));
  uint32_t head[2];
  size_t got = fread(head, 1, sizeof head, f->f);
  if (got == 0 && feof(f->f)) return CHV_OK; /* the end */
  if (got != sizeof head) return bad(f, "truncated", err);
  if (head[0] != SPILL_MAGIC) return bad(f, "not a frame", err);
  if (head[1] != (uint32_t)ncols) return bad(f, "a frame of other columns", err);
  int64_t rows;
  CHV_RETURN_IF_ERR(get(f, &rows, sizeof rows, err));
  if (rows <= 0 || rows > INT32_MAX) return bad(f, "a frame's rows", err);
  for (int c = 0; c < ncols; c++) {
    chv_vector_reset(cols[c]);
    CHV_RETURN_IF_ERR(get_vector(f, cols[c], rows, err));
  }
  *n = rows;
  return CHV_OK;
}
