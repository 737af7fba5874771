/*
** A struct chv_batch_source wrapped as an Arrow C Stream Interface stream.
**
** The stream's schema must stay fixed, but whether a TIMESTAMP column can be
** "tsn:" depends on its values.  The stream therefore reads the first batch
** ahead (on the first get_schema or get_next) and fixes each column's unit
** from it; a later batch that does not fit fails get_next with EINVAL and a
** message naming the column and value.
**
** Errors are errno values (ENOMEM, EINVAL, EIO) with the text kept for
** get_last_error until the next call.
**
** INTERFACE
**   chv_batch_stream_export()
*/
#include "types/types_int.h"

#include <errno.h>
#include <stdio.h>

struct stream_priv {
  struct chv_batch_source src; /* owned: src.close(src.ctx) on release */
  struct chv_batch *ahead;     /* the first batch, read to fix the units */
  uint8_t *units;              /* per column, once fixed */
  bool started;                /* units fixed, ahead read */
  bool ended;                  /* the source said end */
  struct chv_error err;        /* last error */
};

/* The errno for a failed call, making sure get_last_error has a text even
** when the source failed without one. */
static int fail(struct stream_priv *p, int rc) {
  if (p->err.code == CHV_OK || p->err.msg[0] == '\0')
    chv_error_set(&p->err, rc, "batch source failed: %s",
                  chv_status_text(rc));
  switch (rc) {
  case CHV_ENOMEM: return ENOMEM;
  case CHV_EINVAL:
  case CHV_ERANGE:
  case CHV_ETYPE: return EINVAL;
  default: return EIO;
  }
}

/* Read the first batch and fix the timestamp units. */
static int stream_start(struct stream_priv *p) {
  if (p->started) return CHV_OK;
  const struct chv_type *schema = p->src.schema;
  int n = schema->nchildren;
  uint8_t *units = chv_calloc((size_t)(n > 0 ? n : 1), 1);
  if (units == NULL) return chv_error_set(&p->err, CHV_ENOMEM, "out of memory");
  struct chv_batch *b = NULL;
  int rc = p->src.next(p->src.ctx, &b, &p->err);
  if (rc != CHV_OK) {
    chv_free(units);
    return rc;
  }
  if (b) {
    for (int i = 0; i < n && i < b->ncols; i++)
      units[i] = (uint8_t)chv_types_ts_unit(b->cols[i]);
  } else {
    p->ended = true;
  }
  p->units = units;
  p->ahead = b;
  p->started = true;
  return CHV_OK;
}

static int stream_get_schema(struct ArrowArrayStream *s,
                             struct ArrowSchema *out) {
  struct stream_priv *p = s->private_data;
  chv_error_clear(&p->err);
  int rc = stream_start(p);
  if (rc == CHV_OK)
    rc = chv_types_export_batch_schema(p->src.schema, p->units, out, &p->err);
  return rc == CHV_OK ? 0 : fail(p, rc);
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  struct stream_priv *p = s->private_data;
  chv_error_clear(&p->err);
  int rc = stream_start(p);
  if (rc != CHV_OK) return fail(p, rc);
  struct chv_batch *b = p->ahead;
  p->ahead = NULL;
  if (b == NULL && !p->ended) {
    rc = p->src.next(p->src.ctx, &b, &p->err);
    if (rc != CHV_OK) return fail(p, rc);
    if (b == NULL) p->ended = true;
  }
  if (b == NULL) {
    memset(out, 0, sizeof *out); /* release == NULL: end of stream */
    return 0;
  }
  if (b->ncols != p->src.schema->nchildren) {
    chv_batch_close(b);
    return fail(p, chv_error_set(&p->err, CHV_EINTERNAL,
                                 "batch has %d columns, the stream's schema %d",
                                 b->ncols, p->src.schema->nchildren));
  }
  rc = chv_types_export_batch(&b, p->units, out, &p->err);
  if (rc != CHV_OK) {
    chv_batch_close(b);
    return fail(p, rc);
  }
  return 0;
}

static const char *stream_get_last_error(struct ArrowArrayStream *s) {
  struct stream_priv *p = s->private_data;
  return p->err.code != CHV_OK ? p->err.msg : NULL;
}

static void stream_release(struct ArrowArrayStream *s) {
  struct stream_priv *p = s->private_data;
  if (p) {
    chv_batch_close(p->ahead);
    if (p->src.close) p->src.close(p->src.ctx);
    chv_free(p->units);
    chv_free(p);
  }
  s->private_data = NULL;
  s->release = NULL;
}

int chv_batch_stream_export(struct chv_batch_source src,
                            struct ArrowArrayStream *out,
                            struct chv_error *err) {
  if (src.schema == NULL || src.schema->id != CHV_TYPE_STRUCT ||
      src.next == NULL) {
    if (src.close) src.close(src.ctx);
    return chv_error_set(err, CHV_EINVAL,
                         "a batch source needs a struct schema and next()");
  }
  struct stream_priv *p = chv_calloc(1, sizeof *p);
  if (p == NULL) {
    if (src.close) src.close(src.ctx);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  p->src = src;
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  out->release = stream_release;
  out->private_data = p;
  return CHV_OK;
}
