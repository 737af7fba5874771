/*
** The column chunk reader: one leaf column of one row group, from its
** stored pages to the values of a vector and (for nested columns) the
** levels the assembler needs.
**
** A chunk is read from the file in one pread (only projected chunks are
** read).  Its pages are walked in order: each page header is parsed from
** the chunk's bytes, its stored bytes checked against the header's CRC-32
** (unless no_checksums), its sizes bounded (after decompression at most
** max_page_bytes and at most the chunk's total_uncompressed_size; level
** entries at most max_page_bytes) and then decompressed as a whole (data
** page v1, dictionary page) or past its levels (data page v2, whose levels
** are never compressed; a v2 page whose values section is empty is not
** handed to the codec).  The dictionary page is decoded once per chunk
** into a vector of the produced type, conversions applied, so that every
** dictionary-encoded value is a copy from it.
**
** Levels are decoded PQ_WIN entries at a time as they are consumed: a page
** of millions of NULLs in a few bytes of RLE costs no more memory than a
** window.  Each level is checked against the schema's maximum; for nested
** columns every entry with repetition level r > 0 must have a definition
** level reaching the r-th repeated node, and a chunk must start a record.
** The values of the entries consumed (those whose definition level is the
** maximum) are decoded densely in one call, then spread over the slots.
**
** Errors name the file, the column, the row group and the page:
**   "x.parquet: column a.list.element, row group 0, page 3: RLE run of 90
**    values exceeds the 12 expected"
**
** Records a predicate ruled out (by the page index) are passed over: their
** levels decoded and their values skipped, or, for a page the chunk's
** OffsetIndex shows to hold only such records and whose header agrees,
** the page is not read at all.
**
** INTERFACE: pq_leaf_begin(), pq_leaf_read(), pq_leaf_skip(),
** pq_leaf_end(), pq_leaf_free() (pq_read.h).
*/
#include "format/parquet/pq_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <zlib.h>

static int corrupt(struct chv_error *err, const char *fmt, ...)
    CHV_PRINTF(2, 3);
static int corrupt(struct chv_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  chv_error_setv(err, CHV_ECORRUPT, fmt, ap);
  va_end(ap);
  return CHV_ECORRUPT;
}

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* Put "<file>: column <c>, row group <g>[, page <p>]: " in front. */
static int wrap(const struct pq_leaf *lf, int rc, struct chv_error *err) {
  if (rc == CHV_OK || err == NULL) return rc;
  if (lf->cur_page >= 0)
    chv_error_wrap(err, "%s: column %s, row group %d, page %d", lf->r->path,
                   lf->name, lf->rg, lf->cur_page);
  else
    chv_error_wrap(err, "%s: column %s, row group %d", lf->r->path, lf->name,
                   lf->rg);
  return rc;
}

/* ---- chunks ------------------------------------------------------------ */

static void reset_page_state(struct pq_leaf *lf) {
  lf->page_left = 0;
  lf->win_pos = lf->win_len = 0;
  lf->defs.kind = lf->reps.kind = PQ_LVL_NONE;
  if (lf->dba_live) {
    chv_pq_dba_free(&lf->dba);
    lf->dba_live = false;
  }
}

int pq_leaf_begin(struct pq_leaf *lf, int rg, struct chv_error *err) {
  struct chv_pq_reader *r = lf->r;
  const struct chv_pq_column_chunk *cc =
      &r->meta->row_groups[rg].columns[lf->col];
  lf->rg = rg;
  lf->cur_page = -1;
  lf->page_no = 0;
  lf->pos = lf->chunk_len = 0;
  lf->data_seen = false;
  lf->first_entry = true;
  lf->oi = NULL;
  lf->oi_next = 0;
  reset_page_state(lf);
  chv_vector_close(lf->dict);
  lf->dict = NULL;
  if (cc->file_path)
    return wrap(lf,
                chv_error_set(err, CHV_ENOTSUP,
                              "the column chunk is in another file (%s)",
                              cc->file_path),
                err);
  lf->cm = cc->meta_data;
  int64_t start, len;
  chv_pq_chunk_range(lf->cm, &start, &len);
  /* The footer checked that [start, start + len) lies inside the file. */
  if (len > 0) {
    if ((size_t)len > lf->chunk_cap) {
      /* Read anew: nothing to keep.  A scratch block, likely the last
      ** file's chunk buffer, its pages already mapped. */
      size_t cap;
      uint8_t *p = chv_scratch_take((size_t)len, &cap);
      if (p == NULL) return wrap(lf, oom(err), err);
      chv_scratch_give(lf->chunk, lf->chunk_cap);
      lf->chunk = p;
      lf->chunk_cap = cap;
    }
    size_t got = 0;
    int rc = chv_file_pread(r->file, lf->chunk, (size_t)len, start, &got, err);
    if (rc != CHV_OK) return wrap(lf, rc, err);
    r->st.bytes_read += (int64_t)got;
    if (got != (size_t)len)
      return wrap(lf,
                  corrupt(err,
                          "the file ends inside the column chunk (%zu of "
                          "%" PRId64 " bytes at offset %" PRId64 ")",
                          got, len, start),
                  err);
  }
  lf->chunk_off = start;
  lf->chunk_len = (size_t)len;
  return CHV_OK;
}

/* ---- page bytes -------------------------------------------------------- */

static int check_sizes(struct pq_leaf *lf, int64_t csz, int64_t usz,
                       struct chv_error *err) {
  int64_t max = lf->r->o.max_page_bytes;
  CHV_RETURN_IF_ERR(chv_block_check_size(lf->cm->codec, csz, usz, max, err));
  if (usz > lf->cm->total_uncompressed_size)
    return corrupt(err,
                   "the page's %" PRId64 " bytes exceed the column chunk's "
                   "total_uncompressed_size %" PRId64,
                   usz, lf->cm->total_uncompressed_size);
  return CHV_OK;
}

/* The page's bytes after decompression: in[0, in_len) inflated to
** exactly out_len bytes (or in itself when the chunk is not compressed). */
static int page_inflate(struct pq_leaf *lf, const uint8_t *in, size_t in_len,
                        size_t out_len, bool compressed, const uint8_t **out,
                        struct chv_error *err) {
  if (!compressed || lf->cm->codec == CHV_PQ_CODEC_UNCOMPRESSED) {
    if (in_len != out_len)
      return corrupt(err,
                     "%zu bytes stored for a page of %zu uncompressed "
                     "bytes",
                     in_len, out_len);
    *out = in;
    return CHV_OK;
  }
  if (lf->pbuf == NULL || out_len > lf->pbuf_cap) {
    size_t cap;
    uint8_t *p = chv_scratch_take(out_len ? out_len : 1, &cap);
    if (p == NULL) return oom(err);
    chv_scratch_give(lf->pbuf, lf->pbuf_cap);
    lf->pbuf = p;
    lf->pbuf_cap = cap;
  }
  CHV_RETURN_IF_ERR(chv_block_decompress(lf->r->bctx, lf->cm->codec, in, in_len,
                                         lf->pbuf, out_len, err));
  lf->r->st.bytes_decompressed += (int64_t)out_len;
  *out = lf->pbuf;
  return CHV_OK;
}

/* ---- levels ------------------------------------------------------------ */

/* A v1 level section: RLE with its 4-byte length, or deprecated
** BIT_PACKED (decoded at once; its bytes bound its size). */
static int lvl_init_v1(struct pq_leaf *lf, struct pq_lvl *l, int32_t enc,
                       int max, const uint8_t **p, size_t *len, int64_t n,
                       struct chv_error *err) {
  if (max == 0) {
    l->kind = PQ_LVL_NONE;
    return CHV_OK;
  }
  int w = chv_pq_bit_width((uint64_t)max);
  if (enc == CHV_PQ_ENC_RLE) {
    size_t used;
    CHV_RETURN_IF_ERR(chv_pq_rle_init_prefixed(&l->rle, *p, *len, w,
                                               (uint64_t)n, &used, err));
    *p += used;
    *len -= used;
    l->kind = PQ_LVL_RLE;
    return CHV_OK;
  }
  if (enc != CHV_PQ_ENC_BIT_PACKED)
    return corrupt(err, "levels encoded as %s (%d)", chv_pq_encoding_name(enc),
                   enc);
  if ((uint64_t)n * (uint64_t)w > (uint64_t)*len * 8)
    return corrupt(err,
                   "BIT_PACKED levels: %" PRId64 " values of %d bits need "
                   "more than the %zu bytes left",
                   n, w, *len);
  CHV_RETURN_IF_ERR(pq_scratch(&lf->scratch, &lf->scratch_cap,
                               (size_t)n * sizeof(uint32_t), err));
  void *arr = l->arr;
  CHV_RETURN_IF_ERR(pq_scratch(&arr, &l->arr_cap, (size_t)n, err));
  l->arr = arr;
  size_t used;
  uint32_t *tmp = lf->scratch;
  CHV_RETURN_IF_ERR(
      chv_pq_bitpacked_msb_decode(*p, *len, w, (size_t)n, tmp, &used, err));
  for (int64_t i = 0; i < n; i++)
    l->arr[i] = (uint8_t)tmp[i];
  l->arr_pos = 0;
  *p += used;
  *len -= used;
  l->kind = PQ_LVL_ARRAY;
  return CHV_OK;
}

/* The next k levels (at most max) into out. */
static int lvl_next(struct pq_lvl *l, size_t k, int max, uint8_t *out,
                    const char *what, struct chv_error *err) {
  switch (l->kind) {
  case PQ_LVL_NONE:
    memset(out, 0, k);
    return CHV_OK;
  case PQ_LVL_RLE:
    CHV_RETURN_IF_ERR(chv_pq_rle_next_u8(&l->rle, k, out, err));
    break;
  case PQ_LVL_ARRAY:
    memcpy(out, l->arr + l->arr_pos, k);
    l->arr_pos += k;
    break;
  }
  int w = chv_pq_bit_width((uint64_t)max);
  if ((1 << w) - 1 > max) {
    uint8_t m = 0;
    for (size_t i = 0; i < k; i++)
      m = out[i] > m ? out[i] : m;
    if (m > max)
      return corrupt(err, "%s level %u exceeds the column's maximum %d", what,
                     m, max);
  }
  return CHV_OK;
}

/* ---- values ------------------------------------------------------------ */

static size_t phys_width(const struct pq_leaf *lf) {
  switch (lf->ptype) {
  case CHV_PQ_TYPE_INT32:
  case CHV_PQ_TYPE_FLOAT:
    return 4;
  case CHV_PQ_TYPE_INT64:
  case CHV_PQ_TYPE_DOUBLE:
    return 8;
  case CHV_PQ_TYPE_INT96:
    return 12;
  case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
    return (size_t)lf->type_len;
  default:
    return 0;
  }
}

static int ba_scratch(struct pq_leaf *lf, size_t n, struct chv_error *err) {
  if (n + 1 <= lf->ocap) return CHV_OK;
  size_t c = CHV_MAX(n + 1, lf->ocap * 2);
  uint32_t *o = chv_realloc(lf->offs, c * sizeof *o);
  if (o == NULL) return oom(err);
  lf->offs = o;
  uint32_t *l = chv_realloc(lf->lens, c * sizeof *l);
  if (l == NULL) return oom(err);
  lf->lens = l;
  uint32_t *x = chv_realloc(lf->idx, c * sizeof *x);
  if (x == NULL) return oom(err);
  lf->idx = x;
  int32_t *o32 = chv_realloc(lf->offs32, c * sizeof *o32);
  if (o32 == NULL) return oom(err);
  lf->offs32 = o32;
  lf->ocap = c;
  return CHV_OK;
}

/* Largest values section copied in one pass (its size is reserved in the
** vector's heap first). */
#define PQ_ONE_PASS_BYTES ((size_t)8 << 20)

/* n PLAIN byte arrays of the span appended to a STRING or BINARY vector,
** parsed and copied in one pass: the heap is grown by the bytes left in
** the span (which hold the values and their lengths) plus 16, so short
** values are copied 16 bytes at a time. */
static int plain_strings(struct chv_pq_plain_dec *pd, size_t n,
                         struct chv_vector *v, struct chv_error *err) {
  const uint8_t *q = pd->p, *end = pd->end;
  size_t rem = (size_t)(end - q);
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)n, err));
  CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)rem + 16, err));
  char *heap = v->bytes;
  int64_t at = v->bytes_len;
  int32_t *o = v->offsets + pos;
  for (size_t i = 0; i < n; i++) {
    if (end - q < 4)
      return corrupt(err, "PLAIN: byte array %zu of %zu: length is truncated",
                     i, n);
    uint32_t l;
    memcpy(&l, q, 4);
    q += 4;
    if (l > (size_t)(end - q))
      return corrupt(err,
                     "PLAIN: byte array %zu of %zu bytes exceeds the %zu "
                     "bytes left",
                     i, (size_t)l, (size_t)(end - q));
    if (l <= 16 && end - q >= 16)
      memcpy(heap + at, q, 16);
    else
      memcpy(heap + at, q, l);
    at += l;
    q += l;
    o[i + 1] = (int32_t)at;
  }
  pd->p = q;
  v->bytes_len = at;
  v->length = pos + (int64_t)n;
  return CHV_OK;
}

/* n PLAIN values from pd appended to v. */
static int plain_values(struct pq_leaf *lf, struct chv_pq_plain_dec *pd,
                        size_t n, struct chv_vector *v, struct chv_error *err) {
  struct pq_phys ph = {n, NULL, NULL, NULL, NULL};
  if (lf->ptype == CHV_PQ_TYPE_BYTE_ARRAY && lf->conv == CHV_PQ_CONV_PLAIN &&
      (v->type->id == CHV_TYPE_STRING || v->type->id == CHV_TYPE_BINARY) &&
      chv_pq_plain_remaining(pd) <= PQ_ONE_PASS_BYTES)
    return plain_strings(pd, n, v, err);
  switch (lf->ptype) {
  case CHV_PQ_TYPE_BOOLEAN:
    CHV_RETURN_IF_ERR(pq_scratch(&lf->scratch, &lf->scratch_cap, n, err));
    CHV_RETURN_IF_ERR(chv_pq_plain_next_bool(pd, n, lf->scratch, err));
    ph.fixed = lf->scratch;
    break;
  case CHV_PQ_TYPE_BYTE_ARRAY:
    CHV_RETURN_IF_ERR(ba_scratch(lf, n, err));
    CHV_RETURN_IF_ERR(
        chv_pq_plain_next_ba(pd, n, lf->offs, lf->lens, NULL, err));
    ph.base = pd->base;
    ph.offs = lf->offs;
    ph.lens = lf->lens;
    break;
  case CHV_PQ_TYPE_INT96:
  case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
    /* Read in place, byte by byte. */
    ph.fixed = pd->p;
    CHV_RETURN_IF_ERR(
        chv_pq_plain_next_fixed(pd, phys_width(lf), n, NULL, err));
    break;
  default: {
    size_t w = phys_width(lf);
    if (lf->ptype == CHV_PQ_TYPE_INT64 && lf->conv == CHV_PQ_CONV_DECIMAL &&
        v->type->id == CHV_TYPE_DECIMAL && v->type->scale == lf->fscale) {
      /* INT64 decimals of the vector's scale: widened from the page
      ** straight into the vector (pq_store() would take a copy first). */
      const uint8_t *p = pd->p;
      CHV_RETURN_IF_ERR(chv_pq_plain_next_fixed(pd, 8, n, NULL, err));
      int64_t pos = v->length;
      CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)n, err));
      chv_i128 *d = (chv_i128 *)v->data + pos;
      for (size_t i = 0; i < n; i++) {
        int64_t x;
        memcpy(&x, p + 8 * i, 8);
        d[i] = x;
      }
      v->length = pos + (int64_t)n;
      return CHV_OK;
    }
    if (lf->direct) {
      int64_t pos = v->length;
      CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)n, err));
      CHV_RETURN_IF_ERR(chv_pq_plain_next_fixed(
          pd, w, n, (char *)v->data + (size_t)pos * w, err));
      v->length = pos + (int64_t)n;
      return CHV_OK;
    }
    CHV_RETURN_IF_ERR(pq_scratch(&lf->scratch, &lf->scratch_cap, n * w, err));
    CHV_RETURN_IF_ERR(chv_pq_plain_next_fixed(pd, w, n, lf->scratch, err));
    ph.fixed = lf->scratch;
    break;
  }
  }
  return pq_store(lf, &ph, v, err);
}

/* The decoder of the page's values section. */
static int values_init(struct pq_leaf *lf, int32_t enc, const uint8_t *p,
                       size_t len, int64_t n, struct chv_error *err) {
  int32_t t = lf->ptype;
  lf->enc = enc;
  switch (enc) {
  case CHV_PQ_ENC_PLAIN:
    chv_pq_plain_init(&lf->plain, p, len);
    return CHV_OK;
  case CHV_PQ_ENC_PLAIN_DICTIONARY:
  case CHV_PQ_ENC_RLE_DICTIONARY:
    if (lf->dict == NULL)
      return corrupt(err, "values are dictionary encoded but the column chunk "
                          "has no dictionary page");
    return chv_pq_rle_init_dict(&lf->rle, p, len, (uint64_t)n, err);
  case CHV_PQ_ENC_RLE: {
    if (t != CHV_PQ_TYPE_BOOLEAN) break;
    size_t used;
    return chv_pq_rle_init_prefixed(&lf->rle, p, len, 1, (uint64_t)n, &used,
                                    err);
  }
  case CHV_PQ_ENC_DELTA_BINARY_PACKED:
    if (t != CHV_PQ_TYPE_INT32 && t != CHV_PQ_TYPE_INT64) break;
    return chv_pq_delta_init(&lf->delta, p, len, err);
  case CHV_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
    if (t != CHV_PQ_TYPE_BYTE_ARRAY) break;
    return chv_pq_dlba_init(&lf->dlba, p, len, err);
  case CHV_PQ_ENC_DELTA_BYTE_ARRAY: {
    if (t != CHV_PQ_TYPE_BYTE_ARRAY && t != CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY)
      break;
    lf->dba_live = true;
    int rc = chv_pq_dba_init(&lf->dba, p, len, err);
    return rc;
  }
  case CHV_PQ_ENC_BYTE_STREAM_SPLIT:
    if (t == CHV_PQ_TYPE_BOOLEAN || t == CHV_PQ_TYPE_BYTE_ARRAY ||
        t == CHV_PQ_TYPE_INT96)
      break;
    return chv_pq_bss_init(&lf->bss, p, len, phys_width(lf), err);
  default:
    return chv_error_set(err, CHV_ENOTSUP,
                         "values encoded as %s (%d) are not supported",
                         chv_pq_encoding_name(enc), enc);
  }
  return corrupt(err, "%s is not an encoding of %s values",
                 chv_pq_encoding_name(enc), chv_pq_type_name(t));
}

/* nv values of the current page appended to v. */
static int decode_values(struct pq_leaf *lf, size_t nv, struct chv_vector *v,
                         struct chv_error *err) {
  if (nv == 0) return CHV_OK;
  struct pq_phys ph = {nv, NULL, NULL, NULL, NULL};
  size_t w = phys_width(lf);
  switch (lf->enc) {
  case CHV_PQ_ENC_PLAIN:
    return plain_values(lf, &lf->plain, nv, v, err);
  case CHV_PQ_ENC_PLAIN_DICTIONARY:
  case CHV_PQ_ENC_RLE_DICTIONARY:
    CHV_RETURN_IF_ERR(ba_scratch(lf, nv, err));
    CHV_RETURN_IF_ERR(chv_pq_rle_next_bounded(
        &lf->rle, nv, (uint32_t)lf->dict->length, lf->idx, err));
    return pq_gather(lf->dict, lf->idx, nv, v, err);
  case CHV_PQ_ENC_RLE:
    CHV_RETURN_IF_ERR(pq_scratch(&lf->scratch, &lf->scratch_cap, nv, err));
    CHV_RETURN_IF_ERR(chv_pq_rle_next_u8(&lf->rle, nv, lf->scratch, err));
    ph.fixed = lf->scratch;
    return pq_store(lf, &ph, v, err);
  case CHV_PQ_ENC_DELTA_BINARY_PACKED: {
    if (nv > chv_pq_delta_left(&lf->delta))
      return corrupt(err,
                     "DELTA_BINARY_PACKED holds %" PRIu64 " more values, "
                     "%zu needed",
                     chv_pq_delta_left(&lf->delta), nv);
    void *dst;
    int64_t pos = v->length;
    if (lf->direct) {
      CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)nv, err));
      dst = (char *)v->data + (size_t)pos * w;
    } else {
      CHV_RETURN_IF_ERR(
          pq_scratch(&lf->scratch, &lf->scratch_cap, nv * w, err));
      dst = lf->scratch;
    }
    if (lf->ptype == CHV_PQ_TYPE_INT32)
      CHV_RETURN_IF_ERR(chv_pq_delta_next_i32(&lf->delta, nv, dst, err));
    else
      CHV_RETURN_IF_ERR(chv_pq_delta_next_i64(&lf->delta, nv, dst, err));
    if (lf->direct) {
      v->length = pos + (int64_t)nv;
      return CHV_OK;
    }
    ph.fixed = dst;
    return pq_store(lf, &ph, v, err);
  }
  case CHV_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
    CHV_RETURN_IF_ERR(ba_scratch(lf, nv, err));
    CHV_RETURN_IF_ERR(
        chv_pq_dlba_next(&lf->dlba, nv, lf->offs, lf->lens, NULL, err));
    ph.base = lf->dlba.base;
    ph.offs = lf->offs;
    ph.lens = lf->lens;
    return pq_store(lf, &ph, v, err);
  case CHV_PQ_ENC_DELTA_BYTE_ARRAY: {
    CHV_RETURN_IF_ERR(ba_scratch(lf, nv, err));
    chv_buf_reset(&lf->heap);
    CHV_RETURN_IF_ERR(
        chv_pq_dba_next(&lf->dba, nv, &lf->heap, lf->offs32, err));
    for (size_t i = 0; i < nv; i++) {
      lf->offs[i] = (uint32_t)lf->offs32[i];
      lf->lens[i] = (uint32_t)(lf->offs32[i + 1] - lf->offs32[i]);
      if (lf->ptype == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY &&
          lf->lens[i] != (uint32_t)lf->type_len)
        return corrupt(err,
                       "DELTA_BYTE_ARRAY value of %u bytes in a "
                       "FIXED_LEN_BYTE_ARRAY(%d) column",
                       lf->lens[i], lf->type_len);
    }
    ph.base = (const uint8_t *)lf->heap.data;
    ph.offs = lf->offs;
    ph.lens = lf->lens;
    return pq_store(lf, &ph, v, err);
  }
  case CHV_PQ_ENC_BYTE_STREAM_SPLIT: {
    if (nv > lf->bss.count - lf->bss.pos)
      return corrupt(err, "BYTE_STREAM_SPLIT holds %zu more values, %zu needed",
                     lf->bss.count - lf->bss.pos, nv);
    int64_t pos = v->length;
    if (lf->direct) {
      CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)nv, err));
      CHV_RETURN_IF_ERR(chv_pq_bss_next(
          &lf->bss, nv, (char *)v->data + (size_t)pos * w, err));
      v->length = pos + (int64_t)nv;
      return CHV_OK;
    }
    CHV_RETURN_IF_ERR(pq_scratch(&lf->scratch, &lf->scratch_cap, nv * w, err));
    CHV_RETURN_IF_ERR(chv_pq_bss_next(&lf->bss, nv, lf->scratch, err));
    ph.fixed = lf->scratch;
    return pq_store(lf, &ph, v, err);
  }
  default:
    return chv_error_set(err, CHV_EINTERNAL, "no decoder for encoding %d",
                         lf->enc);
  }
}

/* ---- pages ------------------------------------------------------------- */

static int load_dictionary(struct pq_leaf *lf,
                           const struct chv_pq_page_header *h,
                           const uint8_t *stored, size_t csz,
                           struct chv_error *err) {
  if (lf->data_seen)
    return corrupt(err, "a dictionary page follows the data pages");
  if (lf->dict) return corrupt(err, "a second dictionary page");
  const struct chv_pq_dictionary_page_header *dh = &h->dictionary_page;
  if (dh->encoding != CHV_PQ_ENC_PLAIN &&
      dh->encoding != CHV_PQ_ENC_PLAIN_DICTIONARY)
    return chv_error_set(err, CHV_ENOTSUP, "dictionary page encoded as %s (%d)",
                         chv_pq_encoding_name(dh->encoding), dh->encoding);
  CHV_RETURN_IF_ERR(
      check_sizes(lf, h->compressed_page_size, h->uncompressed_page_size, err));
  lf->r->st.pages++;
  size_t usz = (size_t)h->uncompressed_page_size;
  int64_t n = dh->num_values;
  /* Every value takes at least this many bytes of the page. */
  size_t w = lf->ptype == CHV_PQ_TYPE_BYTE_ARRAY ? 4 : phys_width(lf);
  uint64_t room =
      lf->ptype == CHV_PQ_TYPE_BOOLEAN ? (uint64_t)usz * 8 : (w ? usz / w : 0);
  if ((uint64_t)n > room)
    return corrupt(err,
                   "a dictionary of %" PRId64 " values cannot fit its "
                   "page of %zu bytes",
                   n, usz);
  const uint8_t *page;
  CHV_RETURN_IF_ERR(page_inflate(lf, stored, csz, usz, true, &page, err));
  struct chv_vector *d;
  CHV_RETURN_IF_ERR(chv_vector_open(lf->target, n > 0 ? n : 1, &d, err));
  struct chv_pq_plain_dec pd;
  chv_pq_plain_init(&pd, page, usz);
  int rc = plain_values(lf, &pd, (size_t)n, d, err);
  /* Slack after the heap: gathers copy short values 16 bytes at a time. */
  if (rc == CHV_OK && chv_type_is_string_like(d->type->id))
    rc = chv_vector_reserve_bytes(d, 16, err);
  if (rc != CHV_OK) {
    chv_vector_close(d);
    return rc;
  }
  lf->dict = d;
  return CHV_OK;
}

/* Set up the decoders of a data page (v1 or v2). */
static int load_data_page(struct pq_leaf *lf,
                          const struct chv_pq_page_header *h,
                          const uint8_t *stored, size_t csz,
                          struct chv_error *err) {
  struct chv_pq_reader *r = lf->r;
  CHV_RETURN_IF_ERR(
      check_sizes(lf, h->compressed_page_size, h->uncompressed_page_size, err));
  size_t usz = (size_t)h->uncompressed_page_size;
  int64_t n;
  int32_t enc;
  const uint8_t *vals = NULL;
  size_t vals_len = 0;
  reset_page_state(lf);
  if (h->type == CHV_PQ_PAGE_DATA_PAGE) {
    const struct chv_pq_data_page_header *dp = &h->data_page;
    n = dp->num_values;
    enc = dp->encoding;
    if (n > r->o.max_page_bytes)
      return chv_error_set(err, CHV_ERANGE,
                           "a page of %" PRId64 " values exceeds the "
                           "limit of %" PRId64,
                           n, r->o.max_page_bytes);
    const uint8_t *p;
    CHV_RETURN_IF_ERR(page_inflate(lf, stored, csz, usz, true, &p, err));
    size_t len = usz;
    CHV_RETURN_IF_ERR(lvl_init_v1(lf, &lf->reps, dp->repetition_level_encoding,
                                  lf->max_rep, &p, &len, n, err));
    CHV_RETURN_IF_ERR(lvl_init_v1(lf, &lf->defs, dp->definition_level_encoding,
                                  lf->max_def, &p, &len, n, err));
    vals = p;
    vals_len = len;
  } else {
    const struct chv_pq_data_page_header_v2 *dp = &h->data_page_v2;
    n = dp->num_values;
    enc = dp->encoding;
    if (n > r->o.max_page_bytes)
      return chv_error_set(err, CHV_ERANGE,
                           "a page of %" PRId64 " values exceeds the "
                           "limit of %" PRId64,
                           n, r->o.max_page_bytes);
    /* The page header parser checked that the levels fit both sizes. */
    size_t rl = (size_t)dp->repetition_levels_byte_length;
    size_t dl = (size_t)dp->definition_levels_byte_length;
    if (lf->max_rep > 0) {
      CHV_RETURN_IF_ERR(chv_pq_rle_init(&lf->reps.rle, stored, rl,
                                        chv_pq_bit_width((uint64_t)lf->max_rep),
                                        (uint64_t)n, err));
      lf->reps.kind = PQ_LVL_RLE;
    }
    if (lf->max_def > 0) {
      CHV_RETURN_IF_ERR(chv_pq_rle_init(&lf->defs.rle, stored + rl, dl,
                                        chv_pq_bit_width((uint64_t)lf->max_def),
                                        (uint64_t)n, err));
      lf->defs.kind = PQ_LVL_RLE;
    }
    size_t vcsz = csz - rl - dl, vusz = usz - rl - dl;
    if (lf->values) {
      if (vcsz == 0 && vusz == 0) {
        vals = stored + rl + dl;
      } else {
        CHV_RETURN_IF_ERR(page_inflate(lf, stored + rl + dl, vcsz, vusz,
                                       dp->is_compressed, &vals, err));
      }
      vals_len = vusz;
    }
  }
  lf->page_left = n;
  lf->data_seen = true;
  r->st.pages++;
  if (lf->values && n > 0)
    CHV_RETURN_IF_ERR(values_init(lf, enc, vals, vals_len, n, err));
  return CHV_OK;
}

/* Parse the page header at lf->pos (the message without its prefix). */
static int parse_header(struct pq_leaf *lf, struct chv_pq_page_header *h,
                        size_t *hl, struct chv_error *err) {
  int rc =
      chv_pq_page_header_parse(lf->chunk + lf->pos, lf->chunk_len - lf->pos, "",
                               lf->chunk_off + (int64_t)lf->pos, h, hl, err);
  if (rc != CHV_OK && err && !strncmp(err->msg, ": ", 2))
    memmove(err->msg, err->msg + 2, strlen(err->msg + 2) + 1);
  return rc;
}

/* Records of the data page at lf->pos by the chunk's OffsetIndex, or 0
** when it does not list a page there. */
static int64_t indexed_rows(struct pq_leaf *lf) {
  const struct chv_pq_offset_index *oi = lf->oi;
  if (oi == NULL) return 0;
  int64_t off = lf->chunk_off + (int64_t)lf->pos;
  while (lf->oi_next < oi->npages && oi->pages[lf->oi_next].offset < off)
    lf->oi_next++;
  int i = lf->oi_next;
  if (i >= oi->npages || oi->pages[i].offset != off) return 0;
  int64_t end = i + 1 < oi->npages ? oi->pages[i + 1].first_row_index
                                   : lf->r->meta->row_groups[lf->rg].num_rows;
  return end - oi->pages[i].first_row_index;
}

/* Move to the next data page with values; *got false at the chunk's end.
** Whole pages of at most `skippable` records that the OffsetIndex lists
** are passed over unread (their count added to *skipped) when their
** header agrees: as many values as records without repetition, as many
** rows (v2) with it. */
static int next_data_page(struct pq_leaf *lf, int64_t skippable,
                          int64_t *skipped, bool *got, struct chv_error *err) {
  *got = false;
  while (lf->pos < lf->chunk_len) {
    struct chv_pq_page_header h;
    size_t hl;
    int64_t rows = skippable > 0 ? indexed_rows(lf) : 0;
    lf->cur_page = lf->page_no++;
    CHV_RETURN_IF_ERR(parse_header(lf, &h, &hl, err));
    size_t body = lf->pos + hl;
    if ((size_t)h.compressed_page_size > lf->chunk_len - body)
      return corrupt(err,
                     "the page's %d bytes run past the end of the column "
                     "chunk (%zu bytes left)",
                     h.compressed_page_size, lf->chunk_len - body);
    const uint8_t *stored = lf->chunk + body;
    size_t csz = (size_t)h.compressed_page_size;
    lf->pos = body + csz;
    if (rows > 0 && rows <= skippable &&
        ((h.type == CHV_PQ_PAGE_DATA_PAGE && lf->max_rep == 0 &&
          h.data_page.num_values == rows) ||
         (h.type == CHV_PQ_PAGE_DATA_PAGE_V2 &&
          (lf->max_rep == 0 ? h.data_page_v2.num_values
                            : h.data_page_v2.num_rows) == rows))) {
      lf->data_seen = true;
      skippable -= rows;
      *skipped += rows;
      lf->r->st.pages_skipped++;
      continue;
    }
    if (h.has_crc && !lf->r->o.no_checksums &&
        (h.type == CHV_PQ_PAGE_DATA_PAGE ||
         h.type == CHV_PQ_PAGE_DATA_PAGE_V2 ||
         h.type == CHV_PQ_PAGE_DICTIONARY_PAGE)) {
      uint32_t c = (uint32_t)crc32(0L, stored, (uInt)csz);
      if (c != h.crc)
        return corrupt(err,
                       "page checksum mismatch: the stored bytes give "
                       "CRC-32 %08x, the header says %08x",
                       c, h.crc);
    }
    switch (h.type) {
    case CHV_PQ_PAGE_DICTIONARY_PAGE:
      if (!lf->values) {
        if (lf->data_seen)
          return corrupt(err, "a dictionary page follows the data pages");
        lf->r->st.pages++;
        break;
      }
      CHV_RETURN_IF_ERR(load_dictionary(lf, &h, stored, csz, err));
      break;
    case CHV_PQ_PAGE_DATA_PAGE:
    case CHV_PQ_PAGE_DATA_PAGE_V2:
      CHV_RETURN_IF_ERR(load_data_page(lf, &h, stored, csz, err));
      if (lf->page_left > 0) {
        *got = true;
        return CHV_OK;
      }
      break;
    default: /* index pages and page types from the future */
      break;
    }
  }
  return CHV_OK;
}

/* ---- reading records --------------------------------------------------- */

/* Decode the next k (<= PQ_WIN, <= page_left) level entries into the
** window, checked. */
static int decode_levels(struct pq_leaf *lf, size_t k, struct chv_error *err) {
  if (lf->max_def > 0)
    CHV_RETURN_IF_ERR(
        lvl_next(&lf->defs, k, lf->max_def, lf->win_def, "definition", err));
  if (lf->max_rep > 0) {
    CHV_RETURN_IF_ERR(
        lvl_next(&lf->reps, k, lf->max_rep, lf->win_rep, "repetition", err));
    const uint8_t *d = lf->win_def, *rp = lf->win_rep;
    if (lf->first_entry && k > 0 && rp[0] != 0)
      return corrupt(err,
                     "the column chunk starts with repetition level %u, "
                     "not a new record",
                     rp[0]);
    for (size_t i = 0; i < k; i++)
      if (rp[i] > 0 && d[i] < lf->rep_def[rp[i]])
        return corrupt(err,
                       "repetition level %u with definition level %u: the "
                       "repeated field is not defined",
                       rp[i], d[i]);
  }
  if (k > 0) lf->first_entry = false;
  return CHV_OK;
}

/* Bytes of d[0, k) equal to m, eight at a time. */
static size_t count_eq(const uint8_t *d, size_t k, uint8_t m) {
  const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
  const uint64_t mm = m * ones;
  size_t c = 0, i = 0;
  for (; i + 8 <= k; i += 8) {
    uint64_t w;
    memcpy(&w, d + i, 8);
    uint64_t x = w ^ mm; /* bytes equal to m are 0 */
    uint64_t t = (((x & low7) + low7) | x) >> 7 & ones; /* 1 where not */
    c += 8 - (size_t)((t * ones) >> 56);
  }
  for (; i < k; i++)
    c += d[i] == m;
  return c;
}

static int keep_levels(struct pq_leaf *lf, size_t a, size_t k,
                       struct chv_error *err) {
  if (lf->lcount + (int64_t)k > lf->lcap) {
    int64_t c = CHV_MAX(lf->lcount + (int64_t)k, lf->lcap * 2);
    if (c < 1024) c = 1024;
    if (c > INT32_MAX)
      return chv_error_set(err, CHV_ERANGE,
                           "more than 2^31 values of one column in a batch");
    uint8_t *d = chv_realloc(lf->ldef, (size_t)c);
    if (d == NULL) return oom(err);
    lf->ldef = d;
    uint8_t *rp = chv_realloc(lf->lrep, (size_t)c);
    if (rp == NULL) return oom(err);
    lf->lrep = rp;
    lf->lcap = c;
  }
  if (lf->max_def > 0)
    memcpy(lf->ldef + lf->lcount, lf->win_def + a, k);
  else
    memset(lf->ldef + lf->lcount, 0, k);
  if (lf->max_rep > 0)
    memcpy(lf->lrep + lf->lcount, lf->win_rep + a, k);
  else
    memset(lf->lrep + lf->lcount, 0, k);
  lf->lcount += (int64_t)k;
  return CHV_OK;
}

/* Window entries [a, a + k) consumed: levels kept, values appended. */
static int consume(struct pq_leaf *lf, size_t a, size_t k, struct chv_vector *v,
                   struct chv_error *err) {
  if (k == 0) return CHV_OK;
  if (lf->keep_levels) CHV_RETURN_IF_ERR(keep_levels(lf, a, k, err));
  if (!lf->values) return CHV_OK;
  int64_t nv = (int64_t)k, slots = (int64_t)k;
  const uint8_t *d = lf->win_def + a;
  if (lf->max_def > 0) {
    /* Levels are at most max_def (checked): values are those equal to
    ** it. */
    nv = (int64_t)count_eq(d, k, (uint8_t)lf->max_def);
    if (lf->slot_def > 0) {
      int sd = lf->slot_def;
      int64_t cs = 0;
      for (size_t i = 0; i < k; i++)
        cs += d[i] >= sd;
      slots = cs;
    }
  }
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + slots, err));
  CHV_RETURN_IF_ERR(decode_values(lf, (size_t)nv, v, err));
  return pq_spread(v, pos, d, k, lf->slot_def, lf->max_def, nv, slots, err);
}

static int short_chunk(struct pq_leaf *lf, int64_t missing,
                       struct chv_error *err) {
  return corrupt(err,
                 "the column chunk ends %" PRId64 " rows before its row "
                 "group's %" PRId64,
                 missing, lf->r->meta->row_groups[lf->rg].num_rows);
}

/* Columns without repetition: a level entry is a record. */
static int read_flat(struct pq_leaf *lf, int64_t n, struct chv_vector *v,
                     struct chv_error *err) {
  while (n > 0) {
    if (lf->page_left == 0) {
      bool got;
      int64_t none = 0;
      CHV_RETURN_IF_ERR(next_data_page(lf, 0, &none, &got, err));
      if (!got) return short_chunk(lf, n, err);
    }
    size_t k = (size_t)CHV_MIN(n, CHV_MIN(lf->page_left, (int64_t)PQ_WIN));
    CHV_RETURN_IF_ERR(decode_levels(lf, k, err));
    CHV_RETURN_IF_ERR(consume(lf, 0, k, v, err));
    lf->page_left -= (int64_t)k;
    n -= (int64_t)k;
  }
  return CHV_OK;
}

/* True when the next page begins a record: the chunk has an OffsetIndex
** (whose pages must begin on record boundaries) and lists a page at
** lf->pos.  Without one a v1 page may continue the last record, and it is
** read to find out. */
static bool next_begins_record(struct pq_leaf *lf) {
  return lf->pos < lf->chunk_len && indexed_rows(lf) > 0;
}

/* Repeated columns: records end where the next repetition level 0 is. */
static int read_nested(struct pq_leaf *lf, int64_t nrec, struct chv_vector *v,
                       struct chv_error *err) {
  int64_t recs = 0;
  for (;;) {
    if (lf->win_pos == lf->win_len) {
      if (lf->page_left == 0) {
        /* All records read and a page next that begins a record (the
        ** chunk has an OffsetIndex, so every page does): the last one is
        ** complete, and the page stays unread for a skip to pass over. */
        if (recs == nrec && next_begins_record(lf)) return CHV_OK;
        bool got;
        int64_t none = 0;
        CHV_RETURN_IF_ERR(next_data_page(lf, 0, &none, &got, err));
        if (!got) break;
      }
      size_t k = (size_t)CHV_MIN(lf->page_left, (int64_t)PQ_WIN);
      CHV_RETURN_IF_ERR(decode_levels(lf, k, err));
      lf->page_left -= (int64_t)k;
      lf->win_pos = 0;
      lf->win_len = (int)k;
    }
    int j = lf->win_pos;
    bool full = false;
    for (; j < lf->win_len; j++) {
      if (lf->win_rep[j] == 0) {
        if (recs == nrec) {
          full = true;
          break;
        }
        recs++;
      }
    }
    CHV_RETURN_IF_ERR(
        consume(lf, (size_t)lf->win_pos, (size_t)(j - lf->win_pos), v, err));
    lf->win_pos = j;
    if (full) return CHV_OK;
  }
  if (recs < nrec) return short_chunk(lf, nrec - recs, err);
  return CHV_OK;
}

/* ---- skipping records ------------------------------------------------- */

/* Pass over nv values of the current page. */
static int skip_values(struct pq_leaf *lf, size_t nv, struct chv_error *err) {
  if (nv == 0) return CHV_OK;
  switch (lf->enc) {
  case CHV_PQ_ENC_PLAIN:
    switch (lf->ptype) {
    case CHV_PQ_TYPE_BOOLEAN:
      return chv_pq_plain_next_bool(&lf->plain, nv, NULL, err);
    case CHV_PQ_TYPE_BYTE_ARRAY:
      return chv_pq_plain_next_ba(&lf->plain, nv, NULL, NULL, NULL, err);
    default:
      return chv_pq_plain_next_fixed(&lf->plain, phys_width(lf), nv, NULL, err);
    }
  case CHV_PQ_ENC_PLAIN_DICTIONARY:
  case CHV_PQ_ENC_RLE_DICTIONARY:
  case CHV_PQ_ENC_RLE:
    return chv_pq_rle_skip(&lf->rle, nv, err);
  case CHV_PQ_ENC_DELTA_BINARY_PACKED:
    if (nv > chv_pq_delta_left(&lf->delta))
      return corrupt(err,
                     "DELTA_BINARY_PACKED holds %" PRIu64 " more values, "
                     "%zu needed",
                     chv_pq_delta_left(&lf->delta), nv);
    return chv_pq_delta_skip(&lf->delta, nv, err);
  case CHV_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY:
    return chv_pq_dlba_next(&lf->dlba, nv, NULL, NULL, NULL, err);
  case CHV_PQ_ENC_DELTA_BYTE_ARRAY:
    /* Each value's prefix comes from the one before: decode them. */
    CHV_RETURN_IF_ERR(ba_scratch(lf, nv, err));
    chv_buf_reset(&lf->heap);
    return chv_pq_dba_next(&lf->dba, nv, &lf->heap, lf->offs32, err);
  case CHV_PQ_ENC_BYTE_STREAM_SPLIT:
    if (nv > lf->bss.count - lf->bss.pos)
      return corrupt(err, "BYTE_STREAM_SPLIT holds %zu more values, %zu needed",
                     lf->bss.count - lf->bss.pos, nv);
    return chv_pq_bss_next(&lf->bss, nv, NULL, err);
  default:
    return chv_error_set(err, CHV_EINTERNAL, "no decoder for encoding %d",
                         lf->enc);
  }
}

/* Window entries [a, a + k) passed over. */
static int pass(struct pq_leaf *lf, size_t a, size_t k, struct chv_error *err) {
  if (!lf->values || k == 0) return CHV_OK;
  size_t nv =
      lf->max_def > 0 ? count_eq(lf->win_def + a, k, (uint8_t)lf->max_def) : k;
  return skip_values(lf, nv, err);
}

static int skip_flat(struct pq_leaf *lf, int64_t n, struct chv_error *err) {
  while (n > 0) {
    if (lf->page_left == 0) {
      bool got;
      int64_t skipped = 0;
      CHV_RETURN_IF_ERR(next_data_page(lf, n, &skipped, &got, err));
      n -= skipped;
      if (n == 0) break;
      if (!got) return short_chunk(lf, n, err);
    }
    size_t k = (size_t)CHV_MIN(n, CHV_MIN(lf->page_left, (int64_t)PQ_WIN));
    CHV_RETURN_IF_ERR(decode_levels(lf, k, err));
    CHV_RETURN_IF_ERR(pass(lf, 0, k, err));
    lf->page_left -= (int64_t)k;
    n -= (int64_t)k;
  }
  return CHV_OK;
}

static int skip_nested(struct pq_leaf *lf, int64_t nrec,
                       struct chv_error *err) {
  int64_t recs = 0;
  for (;;) {
    if (lf->win_pos == lf->win_len) {
      if (lf->page_left == 0) {
        bool got;
        int64_t skipped = 0;
        /* Only v2 pages, which begin records, are passed over whole
        ** (next_data_page() checks their num_rows): the record before
        ** one ends with the page before. */
        CHV_RETURN_IF_ERR(next_data_page(lf, nrec - recs, &skipped, &got, err));
        recs += skipped;
        if (!got) break;
      }
      size_t k = (size_t)CHV_MIN(lf->page_left, (int64_t)PQ_WIN);
      CHV_RETURN_IF_ERR(decode_levels(lf, k, err));
      lf->page_left -= (int64_t)k;
      lf->win_pos = 0;
      lf->win_len = (int)k;
    }
    int j = lf->win_pos;
    bool full = false;
    for (; j < lf->win_len; j++) {
      if (lf->win_rep[j] == 0) {
        if (recs == nrec) {
          full = true;
          break;
        }
        recs++;
      }
    }
    CHV_RETURN_IF_ERR(
        pass(lf, (size_t)lf->win_pos, (size_t)(j - lf->win_pos), err));
    lf->win_pos = j;
    if (full) return CHV_OK;
  }
  if (recs < nrec) return short_chunk(lf, nrec - recs, err);
  return CHV_OK;
}

int pq_leaf_skip(struct pq_leaf *lf, int64_t nrec, struct chv_error *err) {
  int rc =
      lf->max_rep > 0 ? skip_nested(lf, nrec, err) : skip_flat(lf, nrec, err);
  return wrap(lf, rc, err);
}

/* ---- entry points ------------------------------------------------------ */

int pq_leaf_read(struct pq_leaf *lf, int64_t nrec, struct chv_vector *v,
                 struct chv_error *err) {
  int rc = lf->max_rep > 0 ? read_nested(lf, nrec, v, err)
                           : read_flat(lf, nrec, v, err);
  return wrap(lf, rc, err);
}

int pq_leaf_end(struct pq_leaf *lf, struct chv_error *err) {
  int rc = CHV_OK;
  if (lf->win_pos < lf->win_len || lf->page_left > 0) {
    rc = corrupt(err,
                 "the column chunk holds more values than its row group's "
                 "%" PRId64 " rows",
                 lf->r->meta->row_groups[lf->rg].num_rows);
    return wrap(lf, rc, err);
  }
  while (rc == CHV_OK && lf->pos < lf->chunk_len) {
    struct chv_pq_page_header h;
    size_t hl;
    lf->cur_page = lf->page_no++;
    rc = parse_header(lf, &h, &hl, err);
    if (rc != CHV_OK) break;
    size_t body = lf->pos + hl;
    if ((size_t)h.compressed_page_size > lf->chunk_len - body) {
      rc = corrupt(err,
                   "the page's %d bytes run past the end of the column "
                   "chunk (%zu bytes left)",
                   h.compressed_page_size, lf->chunk_len - body);
      break;
    }
    lf->pos = body + (size_t)h.compressed_page_size;
    int64_t n = h.type == CHV_PQ_PAGE_DATA_PAGE      ? h.data_page.num_values
                : h.type == CHV_PQ_PAGE_DATA_PAGE_V2 ? h.data_page_v2.num_values
                                                     : 0;
    if (n > 0)
      rc = corrupt(err,
                   "the column chunk holds more values than its row "
                   "group's %" PRId64 " rows",
                   lf->r->meta->row_groups[lf->rg].num_rows);
  }
  reset_page_state(lf);
  return wrap(lf, rc, err);
}

void pq_leaf_free(struct pq_leaf *lf) {
  if (lf == NULL) return;
  reset_page_state(lf);
  chv_vector_close(lf->dict);
  chv_scratch_give(lf->chunk, lf->chunk_cap);
  chv_scratch_give(lf->pbuf, lf->pbuf_cap);
  chv_free(lf->defs.arr);
  chv_free(lf->reps.arr);
  chv_free(lf->ldef);
  chv_free(lf->lrep);
  chv_free(lf->scratch);
  chv_free(lf->scratch2);
  chv_free(lf->offs);
  chv_free(lf->lens);
  chv_free(lf->idx);
  chv_free(lf->offs32);
  chv_buf_free(&lf->heap);
  chv_free(lf->name);
  chv_free(lf);
}
