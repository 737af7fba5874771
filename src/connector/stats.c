/*
** The statistics a source reports to a planner, as Flink's Hive source
** reports them (HiveTableSource.reportStatistics), with the metastore's
** figures first, as Flink's planner takes the catalog's before the
** source's:
**
**   source.report-statistics != ALL           -> unknown
**   splits of the pruned partitions, n = 1    -> none: 0 rows
**   per partition: numRows > 0 in the metastore (an unpartitioned table:
**   the table's parameters), else the sum over its files' footers
**   (Parquet) or tails (ORC), read on read-statistics.thread-num threads;
**   a text partition without numRows       -> unknown
**   a pushed limit                          -> min(limit, rows)
**   any failure but running out of memory   -> unknown
**
** The splits come from the split planner (conn_split_plan), the footers
** from conn_file_stats(), the sink's reader of the same figures.
**
** INTERFACE: conn_report_statistics() (connector_int.h),
** chv_stats_origin_name() (chive/source.h).
*/
#include "chive/source.h"
#include "connector/connector_int.h"

const char *chv_stats_origin_name(enum chv_stats_origin o) {
  static const char *const names[] = {
#define CHV_X_(name, text) text,
      CHV_STATS_ORIGIN_MAP(CHV_X_)
#undef CHV_X_
  };
  if ((unsigned)o >= CHV_ARRAY_SIZE(names)) return "?";
  return names[o];
}

/* A file whose footer counts the rows of its partition. */
struct footer {
  const char *path; /* borrowed from the plan */
  int64_t rows;
};

struct footer_job {
  enum conn_fmt kind;
  struct footer *files;
};

static int read_footer(void *arg, int64_t i, struct chv_error *err) {
  struct footer_job *j = arg;
  struct footer *f = &j->files[i];
  const struct chv_fs *fs;
  const char *path;
  int64_t raw;
  CHV_RETURN_IF_ERR(chv_fs_for_path(f->path, &fs, &path, err));
  return conn_file_stats(j->kind, fs, path, &f->rows, &raw, err);
}

/* The session's source.report-statistics is ALL (Flink reads it from the
** job configuration, not the table). */
static int report_all(const chv_config *cfg, bool *all,
                      struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = chv_config_get(cfg, "source.report-statistics", &v, err);
  *all = rc == CHV_OK && v.text && chv_str_ieq(v.text, "ALL");
  chv_opt_value_free(&v);
  return rc;
}

/* numRows of plan partition i when the metastore knows it (> 0), else -1. */
static int64_t metastore_rows(const struct chv_table *t,
                              const struct chv_split_plan *p, int i) {
  struct chv_stats st;
  if (t->npkeys == 0)
    chv_stats_from_params(t->params, t->nparams, &st);
  else
    chv_stats_from_params(p->partitions[i].params, p->partitions[i].nparams,
                          &st);
  return st.num_rows > 0 ? st.num_rows : -1;
}

/* The count from the plan: metastore figures, then footers. */
static int count_rows(const struct chv_table *t, const chv_config *cfg,
                      const struct chv_split_plan *p,
                      struct chv_source_stats *r, struct chv_error *err) {
  int np = p->npartitions;
  int64_t *rows = chv_calloc((size_t)np + 1, sizeof *rows);
  struct footer *files = chv_calloc((size_t)p->nsplits + 1, sizeof *files);
  if (rows == NULL || files == NULL) {
    chv_free(rows);
    chv_free(files);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  bool from_metastore = false;
  int64_t total = 0, nfiles = 0;
  for (int i = 0; i < np; i++) {
    rows[i] = metastore_rows(t, p, i);
    if (rows[i] >= 0) {
      total += rows[i];
      from_metastore = true;
    }
  }
  /* The files of the other partitions, once each (a file's splits are
  ** together in the plan). */
  for (int k = 0; k < p->nsplits; k++) {
    const struct chv_split *sp = &p->splits[k];
    if (rows[sp->partition] >= 0) continue;
    if (nfiles > 0 && !strcmp(files[nfiles - 1].path, sp->path)) continue;
    files[nfiles++] = (struct footer){.path = sp->path};
  }
  struct conn_format fmt = {.kind = CONN_FMT_TEXT};
  int64_t threads = 1;
  int rc = CHV_OK;
  if (nfiles > 0) rc = conn_table_format(t, cfg, &fmt, err);
  if (rc == CHV_OK && nfiles > 0 && fmt.kind == CONN_FMT_TEXT) {
    r->why = "text files without numRows in the metastore";
    goto out;
  }
  if (rc == CHV_OK && nfiles > 0) {
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    rc = conn_table_option(t, cfg, "table.exec.hive.read-statistics.thread-num",
                           &v, err);
    threads = v.i;
    chv_opt_value_free(&v);
  }
  if (rc == CHV_OK) {
    struct footer_job job = {fmt.kind, files};
    rc = conn_pool_run(threads, nfiles, read_footer, &job, err);
  }
  if (rc != CHV_OK) goto out;
  for (int64_t k = 0; k < nfiles; k++) total += files[k].rows;
  r->known = true;
  r->row_count = total;
  r->files_read = nfiles;
  r->origin = nfiles == 0        ? CHV_STATS_METASTORE
              : from_metastore ? CHV_STATS_MIXED
                               : CHV_STATS_FOOTERS;
out:
  chv_free(rows);
  chv_free(files);
  return rc;
}

static int report(chv_catalog *cat, const struct chv_table *t,
                  const chv_config *cfg, const struct chv_part_filter *filter,
                  struct chv_source_stats *r, struct chv_error *err) {
  bool all;
  CHV_RETURN_IF_ERR(report_all(cfg, &all, err));
  if (!all) {
    r->why = "source.report-statistics is NONE";
    return CHV_OK;
  }
  struct chv_split_options so = {.filter = filter, .min_splits = 1, .cfg = cfg};
  struct chv_split_plan *p;
  CHV_RETURN_IF_ERR(conn_split_plan(cat, t, &so, &p, err));
  r->partitions = p->npartitions;
  r->splits = p->nsplits;
  int rc = CHV_OK;
  if (p->nsplits == 0) {
    r->known = true;
    r->row_count = 0;
    r->origin = CHV_STATS_NO_FILES;
  } else {
    rc = count_rows(t, cfg, p, r, err);
  }
  chv_split_plan_free(p);
  return rc;
}

int conn_report_statistics(chv_catalog *cat, const struct chv_table *t,
                           const chv_config *cfg,
                           const struct chv_part_filter *filter, int64_t limit,
                           struct chv_source_stats *out,
                           struct chv_error *err) {
  struct chv_error local;
  if (err == NULL) err = &local;
  struct chv_source_stats r = {.row_count = -1, .partitions = -1,
                               .splits = -1, .origin = CHV_STATS_UNKNOWN};
  int rc = report(cat, t, cfg, filter, &r, err);
  if (rc == CHV_ENOMEM) return rc;
  if (rc != CHV_OK) { /* Flink: any exception gives UNKNOWN */
    r.known = false;
    r.row_count = -1;
    r.origin = CHV_STATS_UNKNOWN;
    r.files_read = 0;
    r.why = "error";
    r.error = rc;
  }
  if (r.known && limit >= 0) r.row_count = CHV_MIN(limit, r.row_count);
  *out = r;
  return CHV_OK;
}
