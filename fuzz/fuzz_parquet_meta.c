/*
** libFuzzer target: the Parquet footer and page-header decoders and the
** schema mapping, over arbitrary bytes.
**
** Every input is tried four ways: as a whole file (magics, footer length,
** FileMetaData, validation against the file's size, then the page headers
** of every column chunk the footer describes); as bare FileMetaData bytes;
** as a page header; as an OffsetIndex and a ColumnIndex.  Whatever decodes
** is mapped to Hive types, written back, and the written bytes must decode
** again (anything read can be written, and what is written can be read).
*/
#include "format/parquet/pq_int.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!(x)) abort();                                                         \
  } while (0)

static void map_schema(const struct chv_pq_file_meta *m) {
  struct chv_error err;
  struct chv_pq_hive_schema *h;
  if (chv_pq_hive_schema_open(m, "f", &h, &err) != CHV_OK) {
    CHECK(err.code == CHV_ECORRUPT || err.code == CHV_ENOTSUP);
    return;
  }
  CHECK(h->type->id == CHV_TYPE_STRUCT);
  CHECK(h->root.nchildren == h->type->nchildren);
  chv_pq_hive_schema_close(h);
}

/* A decoded footer written back decodes again, to the same schema. */
static void rewrite(const struct chv_pq_file_meta *m) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;
  CHECK(chv_pq_file_meta_write(m, &b, &err) == CHV_OK);
  struct chv_pq_file_meta *m2;
  CHECK(chv_pq_file_meta_decode(b.data, b.len, -1, "f", &m2, &err) == CHV_OK);
  CHECK(m2->nschema == m->nschema && m2->nleaves == m->nleaves &&
        m2->nrow_groups == m->nrow_groups);
  chv_pq_file_meta_close(m2);
  chv_buf_free(&b);
}

static void page_headers(const uint8_t *file, size_t size,
                         const struct chv_pq_file_meta *m) {
  for (int g = 0; g < m->nrow_groups; g++) {
    for (int c = 0; c < m->row_groups[g].ncolumns; c++) {
      const struct chv_pq_column_chunk *cc = &m->row_groups[g].columns[c];
      if (cc->file_path) continue;
      int64_t pos, len;
      chv_pq_chunk_range(cc->meta_data, &pos, &len);
      int64_t end = pos + len;
      CHECK(pos >= 0 && end <= (int64_t)size);
      for (int pages = 0; pos < end && pages < 64; pages++) {
        struct chv_pq_page_header h;
        size_t used;
        struct chv_error err;
        if (chv_pq_page_header_parse(file + pos, (size_t)(end - pos), "f", pos,
                                     &h, &used, &err) != CHV_OK)
          break;
        CHECK(used > 0 && used <= (size_t)(end - pos));
        CHECK(h.compressed_page_size >= 0);
        pos += (int64_t)used + h.compressed_page_size;
      }
    }
  }
}

static void as_file(const uint8_t *data, size_t size) {
  struct chv_error err;
  struct chv_pq_file_meta *m;
  if (chv_pq_footer_parse(data, size, "f", &m, &err) != CHV_OK) {
    CHECK(err.code == CHV_ECORRUPT || err.code == CHV_ENOTSUP ||
          err.code == CHV_ENOMEM);
    return;
  }
  CHECK(m->footer_offset >= 4 &&
        m->footer_offset + m->footer_length + 8 == (int64_t)size);
  map_schema(m);
  page_headers(data, size, m);
  rewrite(m);
  chv_pq_file_meta_close(m);
}

static void as_meta(const uint8_t *data, size_t size) {
  struct chv_error err;
  struct chv_pq_file_meta *m;
  if (chv_pq_file_meta_decode(data, size, -1, "f", &m, &err) != CHV_OK) {
    CHECK(err.code == CHV_ECORRUPT || err.code == CHV_ENOTSUP ||
          err.code == CHV_ENOMEM);
    return;
  }
  CHECK(m->root != NULL && m->nleaves >= 0);
  for (int i = 0; i < m->nleaves; i++)
    CHECK(m->leaves[i]->leaf == i && m->leaves[i]->depth >= 1);
  map_schema(m);
  rewrite(m);
  chv_pq_file_meta_close(m);
}

static void as_page_header(const uint8_t *data, size_t size) {
  struct chv_error err;
  struct chv_pq_page_header h;
  size_t used;
  if (chv_pq_page_header_parse(data, size, "f", 0, &h, &used, &err) != CHV_OK)
    return;
  CHECK(used <= size);
  struct chv_buf b;
  chv_buf_init(&b);
  CHECK(chv_pq_page_header_write(&h, &b, &err) == CHV_OK);
  struct chv_pq_page_header h2;
  size_t used2;
  CHECK(chv_pq_page_header_parse(b.data, b.len, "f", 0, &h2, &used2, &err) ==
        CHV_OK);
  CHECK(used2 == b.len && h2.type == h.type &&
        h2.compressed_page_size == h.compressed_page_size);
  chv_buf_free(&b);
}

static void as_page_index(const uint8_t *data, size_t size) {
  chv_arena *arena;
  if (chv_arena_open(0, &arena) != CHV_OK) return;
  struct chv_error err;
  struct chv_pq_offset_index oi;
  struct chv_pq_column_index ci;
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_pq_offset_index_parse(data, size, arena, "f", &oi, &err) == CHV_OK) {
    CHECK(chv_pq_offset_index_write(&oi, &b, &err) == CHV_OK);
    CHECK(chv_pq_offset_index_parse(b.data, b.len, arena, "f", &oi, &err) ==
          CHV_OK);
  }
  chv_buf_reset(&b);
  if (chv_pq_column_index_parse(data, size, arena, "f", &ci, &err) == CHV_OK) {
    CHECK(chv_pq_column_index_write(&ci, &b, &err) == CHV_OK);
    CHECK(chv_pq_column_index_parse(b.data, b.len, arena, "f", &ci, &err) ==
          CHV_OK);
  }
  chv_buf_free(&b);
  chv_arena_close(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  as_file(data, size);
  as_meta(data, size);
  as_page_header(data, size);
  as_page_index(data, size);
  return 0;
}
