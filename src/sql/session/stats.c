/*
** sql/session/stats: the statistics and parallelism of a query's scan.  A
** SELECT reads its table on as many threads as Flink's Hive source
** would get (chv_split_infer_parallelism() over the pruned partitions,
** with the pushed limit), at most one per CPU online, since more threads
** than cores only cost.  EXPLAIN prints, under the scan line, the row
** count the source reports (chv_source_report_statistics()) and that
** parallelism:
**
**   Statistics: rows=600 (metastore) parallelism=dynamic
**   Statistics: rows=600 (footers, 6 files) parallelism=3 (static: 3 splits, max 1000)
**   Statistics: rows=unknown (source.report-statistics is NONE) parallelism=default (not inferred)
**
** In dynamic mode (the default) the parallelism is bounded by the CPUs of
** the machine running the query, as Flink's adaptive scheduler decides it
** when the job runs; EXPLAIN says "dynamic" rather than a number that
** differs from machine to machine.  Without inference the scan gets the
** default parallelism, the CPUs.
**
** INTERFACE
**   sql_scan_threads()    reader threads for a query's scan
**   sql_explain_stats()   EXPLAIN's "Statistics:" line
**   sql_scan_rows()       the rows the planner estimates a scan gives
*/
#include "chive/source.h"
#include "sql/session/session_int.h"

#include <unistd.h>

static int online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)CHV_MIN(n, INT32_MAX) : 1;
}

/* Flink's inference for the scan (the machine's CPUs as the default
** parallelism). */
static int infer(struct sql_session *s, chv_catalog *cat,
                 const struct chv_table *t, const struct chv_scan_options *so,
                 struct chv_parallelism *out, struct chv_error *err) {
  struct chv_parallelism_options po = {
      .filter = so->filter, .limit = so->limit, .cfg = s->cfg};
  return chv_split_infer_parallelism(cat, t->db, t->name, &po, out, err);
}

int sql_scan_threads(struct sql_session *s, chv_catalog *cat,
                     const struct chv_table *t,
                     const struct chv_scan_options *so) {
  if (t->name == NULL || cat == NULL) return 1; /* no table, a relation */
  struct chv_parallelism p;
  struct chv_error err;
  if (infer(s, cat, t, so, &p, &err) != CHV_OK) return 1; /* the scan says */
  return CHV_MIN(p.parallelism, online_cpus());
}

static void put_rows(struct chv_buf *b, const struct chv_source_stats *st,
                     const struct chv_error *err) {
  if (!st->known) {
    chv_buf_printf(b, "rows=unknown (%s", st->why ? st->why : "?");
    if (st->error != CHV_OK) chv_buf_printf(b, ": %s", err->msg);
    chv_buf_putc(b, ')');
    return;
  }
  chv_buf_printf(b, "rows=%lld (%s", (long long)st->row_count,
                 chv_stats_origin_name(st->origin));
  if (st->files_read > 0)
    chv_buf_printf(b, ", %lld file%s", (long long)st->files_read,
                   st->files_read == 1 ? "" : "s");
  chv_buf_putc(b, ')');
}

static void put_parallelism(struct chv_buf *b, const struct chv_parallelism *p,
                            int64_t limit) {
  if (!p->inferred) {
    chv_buf_puts(b, "parallelism=default (not inferred)");
    return;
  }
  if (p->dynamic) {
    chv_buf_puts(b, "parallelism=dynamic");
    return;
  }
  chv_buf_printf(b, "parallelism=%d (static: ", p->parallelism);
  if (p->splits >= 0)
    chv_buf_printf(b, "%lld split%s, max %d", (long long)p->splits,
                   p->splits == 1 ? "" : "s", p->max);
  else
    chv_buf_printf(b, "%lld entries reach max %d", (long long)p->entries,
                   p->max);
  if (limit >= 0) chv_buf_printf(b, ", limit %lld", (long long)limit);
  chv_buf_putc(b, ')');
}

double sql_scan_rows(struct sql_session *s, chv_catalog *cat,
                     const struct chv_table *t,
                     const struct chv_scan_options *so) {
  struct chv_error err = {0};
  struct chv_source_stats st = {0};
  chv_source *src;
  if (chv_source_open(cat, t->db, t->name, NULL, 0, s->cfg, &src, &err) !=
      CHV_OK)
    return 0;
  chv_source_set_partitions(src, so->filter);
  int rc = chv_source_report_statistics(src, &st, &err);
  chv_source_close(src);
  if (rc != CHV_OK || !st.known || st.row_count < 0) return 0;
  return st.row_count > 0 ? (double)st.row_count : 1;
}

void sql_explain_stats(struct sql_session *s, chv_catalog *cat,
                       const struct chv_table *t,
                       const struct chv_scan_options *so,
                       struct chv_buf *out) {
  struct chv_buf line;
  chv_buf_init(&line);
  chv_buf_puts(&line, "Statistics: ");
  struct chv_error err = {0};
  struct chv_source_stats st;
  chv_source *src;
  int rc = chv_source_open(cat, t->db, t->name, NULL, 0, s->cfg, &src, &err);
  if (rc == CHV_OK) {
    chv_source_set_partitions(src, so->filter);
    chv_source_set_limit(src, so->limit);
    rc = chv_source_report_statistics(src, &st, &err);
    chv_source_close(src);
  }
  if (rc == CHV_OK)
    put_rows(&line, &st, &err);
  else
    chv_buf_printf(&line, "rows=unknown (error: %s)", err.msg);
  chv_buf_putc(&line, ' ');
  struct chv_parallelism p;
  if (infer(s, cat, t, so, &p, &err) == CHV_OK)
    put_parallelism(&line, &p, so->limit);
  else
    chv_buf_printf(&line, "parallelism=unknown (error: %s)", err.msg);
  chv_buf_append(out, line.data ? line.data : "", line.len);
  chv_buf_free(&line);
}
