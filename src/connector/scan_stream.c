/*
** A table scan as an Arrow C Stream: the scan lends its batches (views that
** the next chv_scan_next() overwrites), while a stream's arrays must outlive
** the next get_next() and even the stream, so each batch is deep-copied
** (chv_batch_copy) into one the stream exports and the consumer owns.
**
** INTERFACE
**   chv_scan_export_stream()
*/
#include "connector/connector.h"

static int scan_source_next(void *ctx, struct chv_batch **out,
                            struct chv_error *err) {
  struct chv_batch *view = NULL;
  *out = NULL;
  CHV_RETURN_IF_ERR(chv_scan_next(ctx, &view, err));
  if (view == NULL) return CHV_OK; /* end of the scan */
  return chv_batch_copy(view, out, err);
}

static void scan_source_close(void *ctx) {
  chv_scan_close(ctx);
}

int chv_scan_export_stream(chv_scan *scan, struct ArrowArrayStream *out,
                           struct chv_error *err) {
  if (scan == NULL)
    return chv_error_set(err, CHV_EINVAL, "no scan to export as a stream");
  struct chv_batch_source src = {chv_scan_schema(scan), scan_source_next,
                                 scan_source_close, scan};
  /* Takes the source over, closing it on failure too. */
  return chv_batch_stream_export(src, out, err);
}
