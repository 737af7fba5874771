/*
** libFuzzer target: the ORC file tail and everything read on its way to the
** column data, over arbitrary bytes.
**
** Every input is tried as a whole ORC file: PostScript, Footer (through the
** compression framing of its codec), the Hive mapping, Metadata, the footer
** of every stripe, the row indexes and bloom filters those footers list,
** and the run-length decoders over each data stream (integer RLE v1 and v2,
** signed and unsigned, byte and boolean RLE, decimal varints), as a column
** reader would meet them.  Then as bare bytes: a PostScript, a Footer, each
** codec's framing, and each RLE decoder over the bytes uncompressed.
** Whatever decodes is written back, and what is written must decode again
** to the same bytes.
*/
#include "format/orc/orc_rle.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!(x)) abort();                                                         \
  } while (0)

#define MAX_VALUES 4096 /* values decoded per stream */

static bool clean(int rc) {
  return rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP;
}

/* A footer written back decodes again, and writes the same bytes. */
static void rewrite_footer(const struct chv_orc_footer *f) {
  struct chv_error err;
  struct chv_buf b1, b2;
  chv_buf_init(&b1);
  chv_buf_init(&b2);
  CHECK(chv_orc_footer_write(f, &b1, &err) == CHV_OK);
  chv_arena *a;
  CHECK(chv_arena_open(0, &a) == CHV_OK);
  struct chv_orc_footer f2;
  CHECK(chv_orc_footer_decode(b1.data, b1.len, a, "f", &f2, &err) == CHV_OK);
  CHECK(f2.ntypes == f->ntypes && f2.nstripes == f->nstripes);
  CHECK(chv_orc_footer_write(&f2, &b2, &err) == CHV_OK);
  struct chv_buf b3;
  chv_buf_init(&b3);
  struct chv_orc_footer f3;
  CHECK(chv_orc_footer_decode(b2.data, b2.len, a, "f", &f3, &err) == CHV_OK);
  CHECK(chv_orc_footer_write(&f3, &b3, &err) == CHV_OK);
  CHECK(b2.len == b3.len && memcmp(b2.data, b3.data, b2.len) == 0);
  chv_buf_free(&b3);
  chv_arena_close(a);
  chv_buf_free(&b1);
  chv_buf_free(&b2);
}

/* Run the decoders a column reader would run over one stream. */
static void decode_stream(chv_orc_codec *codec, const uint8_t *p, size_t n,
                          int version, int32_t kind, uint64_t rows) {
  struct chv_error err;
  struct chv_orc_stream s;
  size_t want = (size_t)CHV_MIN(rows, (uint64_t)MAX_VALUES);
  static int64_t ints[MAX_VALUES];
  static uint8_t bytes[MAX_VALUES];
  for (int how = 0; how < 4; how++) {
    chv_orc_stream_init(&s, codec, p, n, "s");
    int rc = CHV_OK;
    if (how == 0) {
      struct chv_orc_int_rle d;
      CHECK(chv_orc_int_rle_init(&d, &s, version, kind != CHV_ORC_STREAM_LENGTH,
                                 &err) == CHV_OK);
      rc = chv_orc_int_rle_read(&d, ints, want, &err);
      if (rc == CHV_OK) rc = chv_orc_int_rle_skip(&d, 1000, &err);
    } else if (how == 1) {
      struct chv_orc_byte_rle d;
      chv_orc_byte_rle_init(&d, &s);
      rc = chv_orc_byte_rle_read(&d, bytes, want, &err);
    } else if (how == 2) {
      struct chv_orc_bool_rle d;
      chv_orc_bool_rle_init(&d, &s);
      rc = chv_orc_bool_rle_read(&d, bytes, want, &err);
      if (rc == CHV_OK) rc = chv_orc_bool_rle_skip(&d, 77, &err);
    } else {
      for (size_t i = 0; i < want && rc == CHV_OK; i++) {
        chv_i128 v;
        rc = chv_orc_decimal_read(&s, &v, &err);
      }
    }
    CHECK(clean(rc));
    chv_orc_stream_free(&s);
  }
}

static void walk_file(const uint8_t *data, size_t size) {
  struct chv_error err;
  struct chv_orc_tail *t;
  int rc = chv_orc_tail_parse(data, size, "f", &t, &err);
  CHECK(clean(rc));
  if (rc != CHV_OK) return;
  CHECK(t->footer.ntypes >= 1);
  struct chv_type *h;
  rc = chv_orc_hive_schema(t, &h, &err);
  CHECK(clean(rc));
  if (rc == CHV_OK) {
    CHECK(h->id == CHV_TYPE_STRUCT);
    chv_type_free(h);
  }
  if (!t->empty_file) rewrite_footer(&t->footer);

  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, size, "f");
  struct chv_orc_metadata *md;
  rc = chv_orc_metadata_open(t, &in, &md, &err);
  CHECK(clean(rc));
  if (rc == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    CHECK(chv_orc_metadata_write(md, &b, &err) == CHV_OK);
    chv_buf_free(&b);
    chv_orc_metadata_close(md);
  }

  chv_orc_codec *codec;
  if (chv_orc_tail_codec_open(t, &codec, &err) != CHV_OK) {
    chv_orc_tail_close(t);
    return;
  }
  chv_arena *a;
  CHECK(chv_arena_open(0, &a) == CHV_OK);
  for (uint32_t si = 0; si < t->footer.nstripes && si < 8; si++) {
    struct chv_orc_stripe_footer sf;
    rc = chv_orc_stripe_footer_read(t, &in, codec, si, a, &sf, &err);
    CHECK(clean(rc));
    if (rc != CHV_OK) continue;
    struct chv_buf b;
    chv_buf_init(&b);
    CHECK(chv_orc_stripe_footer_write(&sf, &b, &err) == CHV_OK);
    chv_buf_free(&b);
    uint64_t rows = t->footer.stripes[si].number_of_rows;
    for (uint32_t i = 0; i < sf.nstreams && i < 64; i++) {
      const struct chv_orc_stream_info *st = &sf.streams[i];
      CHECK(st->offset + st->length <= size);
      const uint8_t *p = data + st->offset;
      int version = 2;
      if (st->column < sf.ncolumns) {
        int32_t k = sf.columns[st->column].kind;
        version =
            k == CHV_ORC_ENC_DIRECT || k == CHV_ORC_ENC_DICTIONARY ? 1 : 2;
      }
      if (st->kind == CHV_ORC_STREAM_ROW_INDEX) {
        struct chv_orc_row_index x;
        rc = chv_orc_row_index_decode(codec, p, st->length, a, "ri", &x, &err);
        CHECK(clean(rc));
        if (rc == CHV_OK) {
          chv_buf_init(&b);
          CHECK(chv_orc_row_index_write(&x, &b, &err) == CHV_OK);
          chv_buf_free(&b);
          /* Seek a stream by each entry's positions, as far as they go. */
          for (uint32_t e = 0; e < x.nentries && e < 16; e++) {
            struct chv_orc_stream s;
            chv_orc_stream_init(&s, codec, p, st->length, "seek");
            uint32_t j = 0;
            CHECK(clean(chv_orc_stream_seek_positions(
                &s, x.entries[e].positions, x.entries[e].npositions, &j,
                &err)));
            chv_orc_stream_free(&s);
          }
        }
      } else if (st->kind == CHV_ORC_STREAM_BLOOM_FILTER ||
                 st->kind == CHV_ORC_STREAM_BLOOM_FILTER_UTF8) {
        struct chv_orc_bloom_index x;
        rc =
            chv_orc_bloom_index_decode(codec, p, st->length, a, "bf", &x, &err);
        CHECK(clean(rc));
        if (rc == CHV_OK)
          for (uint32_t e = 0; e < x.nfilters; e++)
            (void)chv_orc_bloom_filter_usable(&x.filters[e]);
      } else {
        decode_stream(codec, p, st->length, version, st->kind, rows);
      }
    }
  }
  chv_arena_close(a);
  chv_orc_codec_close(codec);
  chv_orc_tail_close(t);
}

static void bare_bytes(const uint8_t *data, size_t size) {
  struct chv_error err;
  struct chv_orc_postscript ps;
  if (chv_orc_postscript_decode(data, size, "ps", &ps, &err) == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    CHECK(chv_orc_postscript_write(&ps, &b, &err) == CHV_OK);
    chv_buf_free(&b);
  }
  chv_arena *a;
  CHECK(chv_arena_open(0, &a) == CHV_OK);
  struct chv_orc_footer f;
  int rc = chv_orc_footer_decode(data, size, a, "f", &f, &err);
  CHECK(clean(rc));
  if (rc == CHV_OK) rewrite_footer(&f);
  chv_arena_close(a);
  if (size == 0) return;
  /* The first byte picks a codec and a block size; the rest is framed
  ** bytes, decompressed whole and through the stream reader with the RLE
  ** decoders on top. */
  int32_t kind = data[0] % 7;
  uint64_t block = 1 + (uint64_t)(data[0] >> 3) * 4093;
  chv_orc_codec *codec;
  CHECK(chv_orc_codec_open(kind, block, &codec, &err) == CHV_OK);
  struct chv_buf out;
  chv_buf_init(&out);
  rc = chv_orc_decompress_all(codec, data + 1, size - 1, 1 << 24, "d", &out,
                              &err);
  CHECK(clean(rc));
  if (rc == CHV_OK) {
    /* Recompressed, it decompresses to the same bytes. */
    struct chv_buf z, back;
    chv_buf_init(&z);
    chv_buf_init(&back);
    CHECK(chv_orc_compress_all(codec, out.data, out.len, &z, &err) == CHV_OK);
    CHECK(chv_orc_decompress_all(codec, z.data, z.len, 1 << 24, "d", &back,
                                 &err) == CHV_OK);
    CHECK(back.len == out.len &&
          (out.len == 0 || memcmp(back.data, out.data, out.len) == 0));
    chv_buf_free(&z);
    chv_buf_free(&back);
  }
  chv_buf_free(&out);
  decode_stream(codec, data + 1, size - 1, 1 + (data[0] & 1),
                CHV_ORC_STREAM_DATA, MAX_VALUES);
  decode_stream(NULL, data + 1, size - 1, 1 + (data[0] & 1),
                CHV_ORC_STREAM_LENGTH, MAX_VALUES);
  chv_orc_codec_close(codec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  walk_file(data, size);
  bare_bytes(data, size);
  return 0;
}
