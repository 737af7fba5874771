/*
** Test support: write tiny Parquet files page by page, so that reader tests
** can make exactly the shapes they need (row groups with chosen statistics,
** records spanning pages, v1 and v2 pages, dictionaries, checksums right
** or wrong, levels that contradict each other).
**
**   struct pb_page pg[] = {PG(CHV_PQ_PAGE_DATA_PAGE, 3, def, NULL, vals)};
**   struct pb_chunk ch = {1, pg, 1, 0};     (pages, max_def, max_rep)
**   struct pb_file f = {schema, nschema, 1, rows, &ch};
**   pb_write(path, &f, &err);
**
** The caller encodes the values sections (pq_encoding.h encoders); levels
** are given as arrays and encoded here (RLE; v1 with the length prefix).
** The footer is written with chv_pq_footer_write().
*/
#ifndef CHV_TEST_PQ_BUILD_H
#define CHV_TEST_PQ_BUILD_H

#include "format/parquet/pq_encoding.h"
#include "format/parquet/pq_int.h"

#include "codec/block.h"

#include <zlib.h>

struct pb_page {
  int type; /* CHV_PQ_PAGE_DATA_PAGE, _DATA_PAGE_V2, _DICTIONARY_PAGE */
  int n;    /* level entries (data pages) or values (dictionary) */
  const uint8_t *def;   /* n definition levels (NULL: the column has none) */
  const uint8_t *rep;   /* n repetition levels (NULL: none) */
  struct chv_buf *vals; /* the values section, encoded (NULL: empty) */
  int32_t enc;          /* its encoding (0 = PLAIN) */
  bool crc;             /* write a CRC-32 */
  bool bad_crc;         /* ... a wrong one */
  int rows;             /* v2 num_rows (0: n) */
  /* ColumnIndex entry (pb_chunk.page_index): PLAIN bounds, or a page of
  ** NULLs only. */
  struct chv_pq_bytes min, max;
  bool null_page;
};

/* A page of the most common kind: PLAIN values, no checksum. */
#define PG(type_, n_, def_, rep_, vals_)                                       \
  ((struct pb_page){.type = (type_),                                           \
                    .n = (n_),                                                 \
                    .def = (def_),                                             \
                    .rep = (rep_),                                             \
                    .vals = (vals_)})

struct pb_chunk {
  int npages;
  struct pb_page *pages;
  int max_def, max_rep;
  int codec; /* CHV_PQ_CODEC_* */
  bool has_stats;
  struct chv_pq_statistics stats; /* written as given */
  bool page_index;                /* write its OffsetIndex and ColumnIndex */
};

struct pb_file {
  struct chv_pq_schema_element *schema; /* depth first, [0] the root */
  int nschema;
  int nrg;
  const int64_t *rows;     /* per row group */
  struct pb_chunk *chunks; /* [rg * nleaves + leaf] */
  bool typed_order;        /* column_orders: TYPE_ORDER for every leaf */
};

static inline struct chv_pq_schema_element pb_group(const char *name, int rep,
                                                    int nchildren, int ct) {
  struct chv_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = name;
  e.has_repetition = rep >= 0;
  e.repetition = rep;
  e.has_num_children = true;
  e.num_children = nchildren;
  e.has_converted_type = ct >= 0;
  e.converted_type = ct;
  return e;
}

static inline struct chv_pq_schema_element pb_leaf(const char *name, int rep,
                                                   int type, int ct) {
  struct chv_pq_schema_element e;
  memset(&e, 0, sizeof e);
  e.name = name;
  e.has_repetition = true;
  e.repetition = rep;
  e.has_type = true;
  e.type = type;
  e.has_converted_type = ct >= 0;
  e.converted_type = ct;
  return e;
}

/* Levels as the page holds them. */
static inline int pb_levels(const uint8_t *lv, int n, int max, bool prefixed,
                            struct chv_buf *out) {
  uint32_t *v = chv_malloc(sizeof *v * (size_t)(n ? n : 1));
  if (v == NULL) return CHV_ENOMEM;
  for (int i = 0; i < n; i++)
    v[i] = lv[i];
  int w = chv_pq_bit_width((uint64_t)max);
  int rc = prefixed ? chv_pq_rle_encode_prefixed(v, (size_t)n, w, out, NULL)
                    : chv_pq_rle_encode(v, (size_t)n, w, out, NULL);
  chv_free(v);
  return rc;
}

/* Leaf paths from the flat schema: names[depth] of each leaf. */
struct pb_walk {
  const struct chv_pq_schema_element *s;
  int n, pos, nleaves;
  const char *stack[64];
  const char **paths[256];
  int npath[256];
};

static inline void pb_walk_node(struct pb_walk *w, int depth) {
  const struct chv_pq_schema_element *e = &w->s[w->pos++];
  if (depth > 0) w->stack[depth - 1] = e->name;
  if (!e->has_num_children) {
    int k = w->nleaves++;
    w->paths[k] = chv_malloc(sizeof(char *) * (size_t)depth);
    memcpy(w->paths[k], w->stack, sizeof(char *) * (size_t)depth);
    w->npath[k] = depth;
    return;
  }
  for (int i = 0; i < e->num_children && w->pos < w->n; i++)
    pb_walk_node(w, depth + 1);
}

/* Where the data pages of a chunk went (for its OffsetIndex). */
struct pb_loc {
  int n;
  struct chv_pq_page_location pages[64];
  const struct pb_page *page[64];
};

static inline int pb_write(const char *path, const struct pb_file *f,
                           struct chv_error *err) {
  struct pb_walk w;
  memset(&w, 0, sizeof w);
  w.s = f->schema;
  w.n = f->nschema;
  pb_walk_node(&w, 0);
  int nl = w.nleaves;
  int leaf_el[256];
  for (int i = 0, k = 0; i < f->nschema; i++)
    if (!f->schema[i].has_num_children) leaf_el[k++] = i;
  struct chv_buf out, page, comp, hdr;
  chv_buf_init(&out);
  chv_buf_init(&page);
  chv_buf_init(&comp);
  chv_buf_init(&hdr);
  chv_buf_append(&out, "PAR1", 4);
  struct chv_pq_row_group *rgs = chv_calloc((size_t)f->nrg + 1, sizeof *rgs);
  struct chv_pq_column_meta *cms =
      chv_calloc((size_t)(f->nrg * nl) + 1, sizeof *cms);
  struct pb_loc *locs = chv_calloc((size_t)(f->nrg * nl) + 1, sizeof *locs);
  int32_t encs[3] = {CHV_PQ_ENC_PLAIN, CHV_PQ_ENC_RLE,
                     CHV_PQ_ENC_RLE_DICTIONARY};
  int64_t total_rows = 0;
  for (int g = 0; g < f->nrg; g++) {
    struct chv_pq_row_group *rg = &rgs[g];
    rg->ncolumns = nl;
    rg->columns = chv_calloc((size_t)nl + 1, sizeof *rg->columns);
    rg->num_rows = f->rows[g];
    total_rows += f->rows[g];
    for (int l = 0; l < nl; l++) {
      const struct pb_chunk *ch = &f->chunks[g * nl + l];
      struct chv_pq_column_meta *cm = &cms[g * nl + l];
      cm->type = f->schema[leaf_el[l]].type;
      cm->nencodings = 3;
      cm->encodings = encs;
      cm->npath = w.npath[l];
      cm->path_in_schema = w.paths[l];
      cm->codec = ch->codec;
      cm->has_statistics = ch->has_stats;
      cm->statistics = ch->stats;
      int64_t start = (int64_t)out.len, usum = 0, row = 0;
      cm->data_page_offset = -1;
      struct pb_loc *loc = &locs[g * nl + l];
      loc->n = 0;
      for (int p = 0; p < ch->npages; p++) {
        const struct pb_page *pg = &ch->pages[p];
        struct chv_pq_page_header h;
        memset(&h, 0, sizeof h);
        h.type = pg->type;
        chv_buf_reset(&page);
        chv_buf_reset(&comp);
        size_t levels = 0, rl = 0, dl = 0;
        bool v2 = pg->type == CHV_PQ_PAGE_DATA_PAGE_V2;
        if (pg->type != CHV_PQ_PAGE_DICTIONARY_PAGE) {
          if (pg->rep && ch->max_rep)
            pb_levels(pg->rep, pg->n, ch->max_rep, !v2, &page);
          rl = page.len;
          if (pg->def && ch->max_def)
            pb_levels(pg->def, pg->n, ch->max_def, !v2, &page);
          dl = page.len - rl;
          levels = page.len;
        }
        if (pg->vals) chv_buf_append(&page, pg->vals->data, pg->vals->len);
        h.uncompressed_page_size = (int32_t)page.len;
        if (ch->codec == CHV_PQ_CODEC_UNCOMPRESSED) {
          chv_buf_append(&comp, page.data, page.len);
        } else if (v2) {
          chv_buf_append(&comp, page.data, levels);
          if (page.len > levels)
            chv_block_compress(NULL, ch->codec, 0, page.data + levels,
                               page.len - levels, &comp, NULL);
        } else {
          chv_block_compress(NULL, ch->codec, 0, page.data, page.len, &comp,
                             NULL);
        }
        h.compressed_page_size = (int32_t)comp.len;
        if (pg->crc) {
          h.has_crc = true;
          h.crc =
              (uint32_t)crc32(0L, (const Bytef *)comp.data, (uInt)comp.len) ^
              (pg->bad_crc ? 1u : 0u);
        }
        if (pg->type == CHV_PQ_PAGE_DICTIONARY_PAGE) {
          h.has_dictionary_page = true;
          h.dictionary_page.num_values = pg->n;
          h.dictionary_page.encoding = CHV_PQ_ENC_PLAIN;
          cm->has_dictionary_page_offset = true;
          cm->dictionary_page_offset = (int64_t)out.len;
        } else if (v2) {
          h.has_data_page_v2 = true;
          h.data_page_v2.num_values = pg->n;
          h.data_page_v2.num_rows = pg->rows ? pg->rows : pg->n;
          h.data_page_v2.encoding = pg->enc;
          h.data_page_v2.repetition_levels_byte_length = (int32_t)rl;
          h.data_page_v2.definition_levels_byte_length = (int32_t)dl;
          h.data_page_v2.is_compressed = ch->codec != 0;
          cm->num_values += pg->n;
        } else {
          h.has_data_page = true;
          h.data_page.num_values = pg->n;
          h.data_page.encoding = pg->enc;
          h.data_page.definition_level_encoding = CHV_PQ_ENC_RLE;
          h.data_page.repetition_level_encoding = CHV_PQ_ENC_RLE;
          cm->num_values += pg->n;
        }
        if (pg->type != CHV_PQ_PAGE_DICTIONARY_PAGE && cm->data_page_offset < 0)
          cm->data_page_offset = (int64_t)out.len;
        chv_buf_reset(&hdr);
        chv_pq_page_header_write(&h, &hdr, err);
        if (pg->type != CHV_PQ_PAGE_DICTIONARY_PAGE && loc->n < 64) {
          loc->pages[loc->n].offset = (int64_t)out.len;
          loc->pages[loc->n].compressed_page_size =
              (int32_t)(hdr.len + comp.len);
          loc->pages[loc->n].first_row_index = row;
          loc->page[loc->n] = pg;
          loc->n++;
          for (int i = 0; i < pg->n; i++)
            row += !pg->rep || pg->rep[i] == 0;
        }
        usum += (int64_t)(hdr.len + page.len);
        chv_buf_append(&out, hdr.data, hdr.len);
        chv_buf_append(&out, comp.data, comp.len);
      }
      if (cm->data_page_offset < 0) cm->data_page_offset = start;
      cm->total_compressed_size = (int64_t)out.len - start;
      cm->total_uncompressed_size = usum;
      rg->columns[l].meta_data = cm;
      rg->columns[l].file_offset = start;
      rg->total_byte_size += usum;
    }
  }
  /* Page indexes after the column data, as writers put them. */
  for (int g = 0; g < f->nrg; g++) {
    for (int l = 0; l < nl; l++) {
      const struct pb_chunk *ch = &f->chunks[g * nl + l];
      struct pb_loc *loc = &locs[g * nl + l];
      if (!ch->page_index) continue;
      struct chv_pq_column_chunk *cc = &rgs[g].columns[l];
      struct chv_pq_column_index ci;
      memset(&ci, 0, sizeof ci);
      bool nulls[64];
      struct chv_pq_bytes mins[64], maxs[64];
      ci.npages = loc->n;
      ci.null_pages = nulls;
      ci.min_values = mins;
      ci.max_values = maxs;
      ci.boundary_order = CHV_PQ_BOUNDARY_UNORDERED;
      for (int p = 0; p < loc->n; p++) {
        nulls[p] = loc->page[p]->null_page;
        mins[p] = loc->page[p]->min;
        maxs[p] = loc->page[p]->max;
      }
      cc->has_column_index = true;
      cc->column_index_offset = (int64_t)out.len;
      chv_pq_column_index_write(&ci, &out, err);
      cc->column_index_length = (int32_t)(out.len - cc->column_index_offset);
      struct chv_pq_offset_index oi;
      memset(&oi, 0, sizeof oi);
      oi.npages = loc->n;
      oi.pages = loc->pages;
      cc->has_offset_index = true;
      cc->offset_index_offset = (int64_t)out.len;
      chv_pq_offset_index_write(&oi, &out, err);
      cc->offset_index_length = (int32_t)(out.len - cc->offset_index_offset);
    }
  }
  struct chv_pq_file_meta m;
  memset(&m, 0, sizeof m);
  m.version = 1;
  m.nschema = f->nschema;
  m.schema = f->schema;
  m.num_rows = total_rows;
  m.nrow_groups = f->nrg;
  m.row_groups = rgs;
  m.created_by = "chive test builder";
  int32_t orders[256];
  if (f->typed_order) {
    for (int i = 0; i < nl; i++)
      orders[i] = CHV_PQ_ORDER_TYPE_DEFINED;
    m.ncolumn_orders = nl;
    m.column_orders = orders;
  }
  int rc = chv_pq_footer_write(&m, &out, err);
  if (rc == CHV_OK)
    rc = chv_fs_write_atomic(chv_fs_local(), path, out.data, out.len, err);
  for (int g = 0; g < f->nrg; g++)
    chv_free(rgs[g].columns);
  chv_free(rgs);
  chv_free(cms);
  chv_free(locs);
  for (int i = 0; i < nl; i++)
    chv_free(w.paths[i]);
  chv_buf_free(&out);
  chv_buf_free(&page);
  chv_buf_free(&comp);
  chv_buf_free(&hdr);
  return rc;
}

#endif /* CHV_TEST_PQ_BUILD_H */
