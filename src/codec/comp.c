/*
** Streaming compression for written files: one gzip member per stream, as
** Hadoop's GzipCodec writes for TEXTFILE output when
** hive.exec.compress.output is true.
**
** INTERFACE: chv_comp_open(), chv_comp_run(), chv_comp_finish(),
** chv_comp_close() as declared in compress.h.
*/
#include "codec/compress.h"

#include <zlib.h>

struct chv_comp {
  enum chv_codec kind;
  z_stream z;
  bool finished; /* the trailer has been written */
};

int chv_comp_open(enum chv_codec kind, int level, chv_comp **out,
                  struct chv_error *err) {
  if (kind != CHV_CODEC_GZIP)
    return chv_error_set(err, CHV_ENOTSUP, "writing %s streams is not supported",
                         chv_codec_name(kind));
  if (level < 0 || level > 9)
    return chv_error_set(err, CHV_EINVAL, "gzip level %d is not in 0..9",
                         level);
  chv_comp *c = chv_calloc(1, sizeof *c);
  if (c == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  c->kind = kind;
  if (deflateInit2(&c->z, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED,
                   15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    chv_free(c);
    return chv_error_set(err, CHV_ENOMEM, "cannot start gzip compressor");
  }
  *out = c;
  return CHV_OK;
}

static int pump(chv_comp *c, int flush, struct chv_buf *out,
                struct chv_error *err) {
  for (;;) {
    size_t room = deflateBound(&c->z, c->z.avail_in) + 64;
    if (chv_buf_reserve(out, room) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    c->z.next_out = (Bytef *)out->data + out->len;
    c->z.avail_out = (uInt)CHV_MIN(room, (size_t)UINT32_MAX);
    uInt before = c->z.avail_out;
    int zr = deflate(&c->z, flush);
    out->len += before - c->z.avail_out;
    out->data[out->len] = '\0';
    if (zr == Z_STREAM_END) return CHV_OK;
    if (zr != Z_OK && zr != Z_BUF_ERROR)
      return chv_error_set(err, CHV_EINTERNAL, "gzip compression failed: %s",
                           c->z.msg ? c->z.msg : zError(zr));
    if (flush == Z_NO_FLUSH && c->z.avail_in == 0) return CHV_OK;
    if (zr == Z_BUF_ERROR && c->z.avail_out == before && flush == Z_NO_FLUSH)
      return CHV_OK;
  }
}

int chv_comp_run(chv_comp *c, const void *in, size_t n, struct chv_buf *out,
                 struct chv_error *err) {
  if (c->finished)
    return chv_error_set(err, CHV_EINVAL, "gzip stream already finished");
  const uint8_t *p = in;
  while (n > 0) {
    uInt chunk = (uInt)CHV_MIN(n, (size_t)1 << 30);
    c->z.next_in = (Bytef *)p;
    c->z.avail_in = chunk;
    CHV_RETURN_IF_ERR(pump(c, Z_NO_FLUSH, out, err));
    p += chunk;
    n -= chunk;
  }
  return CHV_OK;
}

int chv_comp_finish(chv_comp *c, struct chv_buf *out, struct chv_error *err) {
  if (c->finished) return CHV_OK;
  c->z.next_in = NULL;
  c->z.avail_in = 0;
  CHV_RETURN_IF_ERR(pump(c, Z_FINISH, out, err));
  c->finished = true;
  return CHV_OK;
}

void chv_comp_close(chv_comp *c) {
  if (c == NULL) return;
  deflateEnd(&c->z);
  chv_free(c);
}
