/*
** libFuzzer target: the Parquet encoding decoders and the page block
** decompressors over arbitrary bytes.
**
** Input layout: byte 0 picks the decoder, byte 1 a parameter (bit width,
** value size or codec), bytes 2..3 a little-endian value count (at most
** 65535; for the block codecs, the expected uncompressed size), the rest is
** the encoded data.  Every decoder is driven through the calls a column
** reader makes: batches of varying size, skips, run pieces, level counts.
** Decoders that succeed are checked against what they promise (values fit
** the bit width, byte arrays lie inside the span).
*/
#include "codec/block.h"
#include "format/parquet/pq_encoding.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x)                                                              \
  do {                                                                        \
    if (!(x)) abort();                                                        \
  } while (0)

/* Batch sizes vary with the data so that batch boundaries fall everywhere. */
static size_t batch(size_t i, size_t left) {
  size_t k = 1 + (i * 37 + 11) % 97;
  return k < left ? k : left;
}

static void fuzz_rle(int mode, int param, size_t n, const uint8_t *p,
                     size_t len) {
  struct chv_pq_rle_dec d;
  struct chv_error err;
  uint32_t *out = malloc((n + 1) * sizeof *out);
  int w = param % 33;
  size_t used = 0;
  int rc;
  if (mode == 0) rc = chv_pq_rle_init(&d, p, len, w, n, &err);
  else if (mode == 1) rc = chv_pq_rle_init_prefixed(&d, p, len, w, n, &used, &err);
  else rc = chv_pq_rle_init_dict(&d, p, len, n, &err);
  if (rc != CHV_OK) goto out_free;
  CHECK(used <= len);
  int width = d.width;
  struct chv_pq_rle_dec start = d;
  /* next in batches */
  for (size_t i = 0; i < n;) {
    size_t k = batch(i, n - i);
    if (chv_pq_rle_next(&d, k, out + i, &err) != CHV_OK) break;
    for (size_t j = 0; j < k; j++)
      CHECK(width == 32 || (out[i + j] >> width) == 0);
    i += k;
  }
  /* runs, counts, skips, bytes */
  d = start;
  for (size_t i = 0; i < n;) {
    struct chv_pq_rle_run r;
    if (chv_pq_rle_next_run(&d, batch(i, n - i), out, &r, &err) != CHV_OK)
      break;
    CHECK(r.count >= 1 && r.count <= n - i);
    i += r.count;
  }
  d = start;
  uint64_t c = 0;
  if (chv_pq_rle_count_eq(&d, n, (uint32_t)param & 1, &c, &err) == CHV_OK)
    CHECK(c <= n);
  d = start;
  for (size_t i = 0; i < n;) {
    size_t k = batch(i, n - i);
    if (chv_pq_rle_skip(&d, k, &err) != CHV_OK) break;
    i += k;
  }
  d = start;
  if (mode == 2) {
    chv_pq_rle_next_bounded(&d, n, (uint32_t)param + 1, out, &err);
  } else if (width <= 8) {
    uint8_t *u8 = malloc(n + 1);
    chv_pq_rle_next_u8(&d, n, u8, &err);
    free(u8);
  }
out_free:
  free(out);
}

static void fuzz_delta(bool is32, size_t n, const uint8_t *p, size_t len) {
  struct chv_pq_delta_dec d;
  struct chv_error err;
  if (chv_pq_delta_init(&d, p, len, &err) != CHV_OK) return;
  struct chv_pq_delta_dec start = d;
  uint64_t total = chv_pq_delta_total(&d);
  size_t m = total < n ? (size_t)total : n;
  int64_t *out = malloc((m + 1) * sizeof *out);
  for (size_t i = 0; i < m;) {
    size_t k = batch(i, m - i);
    int rc = is32 ? chv_pq_delta_next_i32(&d, k, (int32_t *)out + i, &err)
                  : chv_pq_delta_next_i64(&d, k, out + i, &err);
    if (rc != CHV_OK) break;
    i += k;
  }
  d = start;
  chv_pq_delta_skip(&d, m, &err);
  d = start;
  const uint8_t *end;
  if (chv_pq_delta_end(&d, &end, &err) == CHV_OK)
    CHECK(end >= p && end <= p + len);
  free(out);
}

static void fuzz_bytes(int mode, size_t n, const uint8_t *p, size_t len) {
  struct chv_error err;
  uint32_t *offs = malloc((n + 1) * sizeof *offs);
  uint32_t *lens = malloc((n + 1) * sizeof *lens);
  uint64_t total;
  if (mode == 0) {
    struct chv_pq_plain_dec d;
    chv_pq_plain_init(&d, p, len);
    if (chv_pq_plain_next_ba(&d, n, offs, lens, &total, &err) == CHV_OK)
      for (size_t i = 0; i < n; i++)
        CHECK((uint64_t)offs[i] + lens[i] <= len);
  } else if (mode == 1) {
    struct chv_pq_dlba_dec d;
    if (chv_pq_dlba_init(&d, p, len, &err) == CHV_OK) {
      size_t m = chv_pq_dlba_total(&d) < n ? (size_t)chv_pq_dlba_total(&d) : n;
      for (size_t i = 0; i < m;) {
        size_t k = batch(i, m - i);
        if (chv_pq_dlba_next(&d, k, offs, lens, &total, &err) != CHV_OK) break;
        for (size_t j = 0; j < k; j++)
          CHECK((uint64_t)offs[j] + lens[j] <= len);
        i += k;
      }
    }
  } else {
    struct chv_pq_dba_dec d;
    struct chv_buf heap;
    chv_buf_init(&heap);
    int32_t *o = malloc((n + 1) * sizeof *o);
    if (chv_pq_dba_init(&d, p, len, &err) == CHV_OK) {
      size_t m = chv_pq_dba_total(&d) < n ? (size_t)chv_pq_dba_total(&d) : n;
      for (size_t i = 0; i < m;) {
        size_t k = batch(i, m - i);
        if (chv_pq_dba_next(&d, k, &heap, o, &err) != CHV_OK) break;
        for (size_t j = 0; j < k; j++) CHECK(o[j] <= o[j + 1]);
        CHECK((size_t)o[k] == heap.len);
        /* values can grow quadratically from a small page; keep the heap
        ** of this run small */
        if (heap.len > (1u << 20)) break;
        i += k;
      }
    }
    chv_pq_dba_free(&d);
    chv_buf_free(&heap);
    free(o);
  }
  free(offs);
  free(lens);
}

static void fuzz_plain(int param, size_t n, const uint8_t *p, size_t len) {
  struct chv_pq_plain_dec d;
  struct chv_error err;
  uint8_t *out = malloc(n * 16 + 1);
  chv_pq_plain_init(&d, p, len);
  size_t half = n / 2;
  if (chv_pq_plain_next_bool(&d, half, out, &err) == CHV_OK)
    chv_pq_plain_next_bool(&d, n - half, out, &err);
  chv_pq_plain_init(&d, p, len);
  size_t width = 1 + (size_t)param % 16;
  chv_pq_plain_next_fixed(&d, width, n, out, &err);
  free(out);
}

static void fuzz_misc(int mode, int param, size_t n, const uint8_t *p,
                      size_t len) {
  struct chv_error err;
  if (mode == 0) {
    uint32_t *o = malloc((n + 1) * sizeof *o);
    size_t used;
    if (chv_pq_bitpacked_msb_decode(p, len, param % 33, n, o, &used, &err) ==
        CHV_OK)
      CHECK(used <= len);
    chv_pq_unpack32(p, len, param % 33, o, n);
    free(o);
    uint64_t *o64 = malloc((n + 1) * sizeof *o64);
    chv_pq_unpack64(p, len, param % 65, o64, n);
    free(o64);
  } else if (mode == 1) {
    struct chv_pq_bss_dec d;
    size_t k = 1 + (size_t)param % 16;
    if (chv_pq_bss_init(&d, p, len, k, &err) == CHV_OK) {
      uint8_t *o = malloc(len + 1);
      size_t half = d.count / 2;
      chv_pq_bss_next(&d, half, o, &err);
      chv_pq_bss_next(&d, d.count - half, o + half * k, &err);
      CHECK(chv_pq_bss_next(&d, 1, o, &err) != CHV_OK);
      free(o);
    }
  } else if (mode == 2) {
    float *f = malloc((len / 2 + 1) * sizeof *f);
    chv_pq_half_to_float_n(p, len / 2, f);
    free(f);
  } else {
    /* block decompression into a buffer of the stated size, with a guard
    ** area behind it that must stay untouched */
    int codec = param % 8;
    uint8_t *out = malloc(n + 64);
    memset(out + n, 0x5A, 64);
    chv_block_decompress(NULL, codec, p, len, out, n, &err);
    for (size_t i = 0; i < 64; i++) CHECK(out[n + i] == 0x5A);
    free(out);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  int sel = data[0] % 14, param = data[1];
  size_t n = (size_t)data[2] | (size_t)data[3] << 8;
  const uint8_t *p = data + 4;
  size_t len = size - 4;
  switch (sel) {
  case 0: case 1: case 2: fuzz_rle(sel, param, n, p, len); break;
  case 3: fuzz_delta(true, n, p, len); break;
  case 4: fuzz_delta(false, n, p, len); break;
  case 5: case 6: case 7: fuzz_bytes(sel - 5, n, p, len); break;
  case 8: fuzz_plain(param, n, p, len); break;
  case 9: case 10: case 11: case 12: fuzz_misc(sel - 9, param, n, p, len); break;
  default: fuzz_misc(3, param, n, p, len); break;
  }
  return 0;
}
