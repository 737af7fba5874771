/*
** Test support: walk the pages of a parquet-testing fixture in file order
** without the format module.  Just enough of Thrift's compact protocol to
** read a PageHeader (its sizes, the page kind and the fields of the data,
** dictionary and v2 headers), so that codec and encoding tests can run on
** real pages independently of the footer reader.
**
**   int n = pw_walk("delta_binary_packed.parquet", fn, ctx);
**
** Fixtures live in shared/fixtures/parquet (chv_test_fixtures()); pw_walk
** returns -1 when the file is not there (the caller skips).
*/
#ifndef CHV_TEST_PAGE_WALK_H
#define CHV_TEST_PAGE_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct pw_page {
  int64_t type;             /* 0 data, 2 dictionary, 3 data v2 */
  int64_t uncompressed;     /* uncompressed_page_size */
  int64_t compressed;       /* compressed_page_size */
  int64_t hdr[3][16];       /* fields of DataPageHeader (0), Dictionary-
                               PageHeader (1), DataPageHeaderV2 (2); [15]
                               is 1 for the one present */
  const uint8_t *data;      /* the compressed_page_size bytes */
  int index;                /* page number in the file */
};

struct pw_th {
  const uint8_t *p, *end;
  bool bad;
};

static uint64_t pw_varint(struct pw_th *t) {
  uint64_t v = 0;
  for (int s = 0; s < 64 && t->p < t->end; s += 7) {
    uint8_t b = *t->p++;
    v |= (uint64_t)(b & 0x7f) << s;
    if (!(b & 0x80)) return v;
  }
  t->bad = true;
  return 0;
}

static int64_t pw_zz(struct pw_th *t) {
  uint64_t v = pw_varint(t);
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static void pw_skip(struct pw_th *t, int type, int depth);

/* A struct: i32/i64/bool fields with ids < 16 go to f (when not NULL); the
** nested structs 5, 7 and 8 of a PageHeader go to sub[0..2]. */
static void pw_struct(struct pw_th *t, int64_t *f, int64_t (*sub)[16],
                      int depth) {
  int last = 0;
  while (!t->bad && t->p < t->end) {
    uint8_t h = *t->p++;
    if (h == 0) return;
    int type = h & 15, id = (h >> 4) ? last + (h >> 4) : (int)pw_zz(t);
    last = id;
    bool keep = f && id >= 0 && id < 15;
    if (keep && (type == 5 || (type == 6 && !sub))) {
      f[id] = pw_zz(t);
    } else if (keep && (type == 1 || type == 2)) {
      f[id] = type == 1;
    } else if (type == 12 && sub && (id == 5 || id == 7 || id == 8)) {
      int64_t *sh = sub[id == 5 ? 0 : id == 7 ? 1 : 2];
      sh[15] = 1; /* present */
      pw_struct(t, sh, NULL, depth + 1);
    } else {
      pw_skip(t, type, depth + 1);
    }
  }
  t->bad = true;
}

static void pw_skip(struct pw_th *t, int type, int depth) {
  if (depth > 16) {
    t->bad = true;
    return;
  }
  switch (type) {
  case 1: case 2: break;
  case 3: t->p++; break;
  case 4: case 5: case 6: pw_varint(t); break;
  case 7: t->p += 8; break;
  case 8: {
    uint64_t n = pw_varint(t);
    if (n > (uint64_t)(t->end - t->p)) t->bad = true;
    else t->p += n;
    break;
  }
  case 9: case 10: {
    if (t->p >= t->end) {
      t->bad = true;
      break;
    }
    uint8_t h = *t->p++;
    uint64_t n = h >> 4 == 15 ? pw_varint(t) : (uint64_t)(h >> 4);
    for (uint64_t i = 0; i < n && !t->bad; i++) {
      if ((h & 15) == 1 || (h & 15) == 2) t->p++;
      else pw_skip(t, h & 15, depth + 1);
    }
    break;
  }
  case 11: {
    uint64_t n = pw_varint(t);
    if (n == 0) break;
    uint8_t kv = *t->p++;
    for (uint64_t i = 0; i < n && !t->bad; i++) {
      pw_skip(t, kv >> 4, depth + 1);
      pw_skip(t, kv & 15, depth + 1);
    }
    break;
  }
  case 12: pw_struct(t, NULL, NULL, depth); break;
  default: t->bad = true;
  }
  if (t->p > t->end) t->bad = true;
}

/* Read a fixture into memory; NULL when it is not there. */
static uint8_t *pw_load(const char *name, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/parquet/%s", chv_test_fixtures(), name);
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Call fn for each page (structs between pages that are not page headers,
** such as the ColumnMetaData copies old writers put after each chunk, are
** passed over); returns the number of pages, -1 when the file is
** missing, -2 when a page header does not parse or fn returned nonzero. */
static int pw_walk(const char *name,
                   int (*fn)(void *ctx, const struct pw_page *pg), void *ctx) {
  size_t len;
  uint8_t *file = pw_load(name, &len);
  if (file == NULL) {
    fprintf(stderr, "skip %s: fixture not found\n", name);
    return -1;
  }
  int pages = -2;
  if (len < 12) goto out;
  uint32_t footer = (uint32_t)file[len - 8] | (uint32_t)file[len - 7] << 8 |
                    (uint32_t)file[len - 6] << 16 |
                    (uint32_t)file[len - 5] << 24;
  if (footer > len - 12) goto out;
  const uint8_t *end = file + len - 8 - footer;
  struct pw_th t = {file + 4, end, false};
  int n = 0;
  while (t.p < end) {
    struct pw_page pg;
    int64_t f[16] = {0};
    memset(&pg, 0, sizeof pg);
    pw_struct(&t, f, pg.hdr, 0);
    if (t.bad || f[3] < 0 || f[3] > end - t.p) goto out;
    pg.type = f[1];
    pg.uncompressed = f[2];
    pg.compressed = f[3];
    pg.data = t.p;
    pg.index = n;
    t.p += f[3];
    if (!pg.hdr[0][15] && !pg.hdr[1][15] && !pg.hdr[2][15]) continue;
    if (fn(ctx, &pg) != 0) goto out;
    n++;
  }
  pages = n;
out:
  free(file);
  return pages;
}

#endif /* CHV_TEST_PAGE_WALK_H */
