/*
** Split planning as Flink's Hive source does it (docs/splits.md).
**
** ORC tables get Flink's ORC sizing: every pruned partition folder's
** top-level entries are weighed (size + file-open-cost) on
** calculate-partition-size.thread-num threads, which gives
**
**   maxSplitBytes = min(split-max-size, max(file-open-cost, totalWeighted / n))
**
** and each file's stripes, read from its tail on load-partition-splits
** .thread-num threads, are packed in file order into splits: a split ends
** with the first stripe that brings it to maxSplitBytes, as the ETL
** strategy of Hive's OrcInputFormat packs them.
**
** Text and Parquet tables get what Hadoop's FileInputFormat.getSplits()
** gives the partition's InputFormat, per partition (Flink asks each
** partition on its own):
**
**   goal      = partition bytes / max(n, 1)
**   splitSize = max(1, min(goal, blockSize))
**
** and a file is cut into splitSize pieces while what is left is more than
** SPLIT_SLOP (1.1) pieces; the rest is its last split.  An empty file is one
** empty split; a text file a codec compresses (by its name, as Hadoop's
** CompressionCodecFactory picks one) is one whole split.  Readers then
** take the lines (text) or row groups (Parquet) that belong to each range.
**
** Parallelism inference (chv_split_infer_parallelism()) follows Flink's
** HiveParallelismInference: the default parallelism, or with inference on
** the bound when the partition folders hold at least that many entries,
** else the splits planned for inference (capped by the bound); then one
** reader per thousand rows of a pushed LIMIT at most, and at least one.
**
** TABLESAMPLE by size (n PERCENT, a length) keeps the first splits of a
** plan, in its order, until their lengths reach the target, as Hive's
** CombineHiveInputFormat keeps the input splits of a sampled table
** (conn_split_sample()).
**
** INTERFACE: chv_split_plan_open(), chv_split_plan_free(),
** chv_split_infer_parallelism() (chive/connector.h); conn_split_plan(),
** conn_split_sample() (connector_int.h).
*/
#include "connector/connector.h"
#include "connector/connector_int.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* Hadoop's FileInputFormat.SPLIT_SLOP: a file's last split may be this many
** split sizes long. */
#define SPLIT_SLOP 1.1

/* One file to cut into splits. */
struct plan_file {
  const struct chv_fs *fs;
  const char *path; /* borrowed from its partition's listing */
  int64_t size;
  int part;
  struct chv_orc_unit *units; /* ORC: its stripes */
  int nunits;
};

struct planner {
  struct chv_split_plan *plan;
  int64_t orc_n;    /* ORC's n; 0: from the options */
  int64_t hadoop_n; /* Hadoop's numSplits; 0: from the options */
  bool orc;
  bool text;
  bool recursive;
  int64_t open_cost;
  char **hidden; /* files of writes in progress */
  int nhidden;
  int64_t *weight;             /* per partition: sum(size + open cost) */
  struct chv_dirlist *listing; /* per partition: its files */
  const struct chv_fs **fs;    /* per partition: its file system */
  struct plan_file *files;
  int64_t nfiles;
};

/* Option key's value for the table, as a number (INT, MEMORY, BOOL). */
static int option_num(const struct chv_table *t, const chv_config *cfg,
                      const char *key, int64_t *out, struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = conn_table_option(t, cfg, key, &v, err);
  if (rc == CHV_OK) {
    switch (v.type) {
    case CHV_OPT_MEMORY: *out = v.bytes; break;
    case CHV_OPT_BOOL: *out = v.b; break;
    default: *out = v.i; break;
    }
  }
  chv_opt_value_free(&v);
  return rc;
}

/* A partition folder's top-level entries, files and folders (a folder
** weighs its open cost alone), as Flink lists them. */
static int weigh_partition(void *arg, int64_t i, struct chv_error *err) {
  struct planner *pl = arg;
  const struct chv_fs *fs;
  const char *dir;
  CHV_RETURN_IF_ERR(chv_fs_for_path(pl->plan->partitions[i].location, &fs,
                                    &dir, err));
  struct chv_dirlist l = {0};
  int rc = fs->list(fs, dir, 0, &l, err);
  if (rc == CHV_ENOENT) { /* a registered partition without a folder */
    chv_error_clear(err);
    return CHV_OK;
  }
  if (rc != CHV_OK) return rc;
  int64_t w = 0;
  for (size_t k = 0; k < l.count; k++)
    w += (l.entries[k].st.is_dir ? 0 : l.entries[k].st.size) + pl->open_cost;
  pl->weight[i] = w;
  chv_dirlist_free(&l);
  return CHV_OK;
}

static int cmp_path(const void *a, const void *b) {
  return strcmp(((const struct chv_dirent *)a)->path,
                ((const struct chv_dirent *)b)->path);
}

/* A partition's files: visible ones, in path order. */
static int list_partition(void *arg, int64_t i, struct chv_error *err) {
  struct planner *pl = arg;
  const struct chv_fs *fs;
  const char *dir;
  CHV_RETURN_IF_ERR(chv_fs_for_path(pl->plan->partitions[i].location, &fs,
                                    &dir, err));
  pl->fs[i] = fs;
  int rc = conn_list_partition(fs, dir, pl->recursive, &pl->listing[i], err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    return CHV_OK;
  }
  if (rc != CHV_OK) return rc;
  struct chv_dirlist *l = &pl->listing[i];
  if (l->count > 1) qsort(l->entries, l->count, sizeof *l->entries, cmp_path);
  return CHV_OK;
}

/* The stripes of one ORC file. */
static int read_units(void *arg, int64_t i, struct chv_error *err) {
  struct planner *pl = arg;
  struct plan_file *f = &pl->files[i];
  return chv_orc_file_units(f->fs, f->path, &f->units, &f->nunits, err);
}

static int add_split(struct chv_split_plan *p, int *cap,
                     const struct plan_file *f, int64_t start,
                     int64_t length, struct chv_error *err) {
  if (p->nsplits == *cap) {
    int ncap = *cap ? 2 * *cap : 64;
    struct chv_split *v = chv_realloc(p->splits, (size_t)ncap * sizeof *v);
    if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    p->splits = v;
    *cap = ncap;
  }
  struct chv_split *s = &p->splits[p->nsplits];
  s->path = chv_strdup(f->path);
  if (s->path == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->start = start;
  s->length = length;
  s->file_size = f->size;
  s->partition = f->part;
  p->nsplits++;
  return CHV_OK;
}

/* Pack one ORC file's stripes: a split grows by whole stripes and ends
** with the one that brings it to max bytes. */
static int pack_stripes(struct chv_split_plan *p, int *cap,
                        const struct plan_file *f, int64_t max,
                        struct chv_error *err) {
  int64_t off = -1, len = 0;
  for (int k = 0; k < f->nunits; k++) {
    const struct chv_orc_unit *u = &f->units[k];
    if (off < 0) {
      off = u->offset;
      len = u->length;
    } else {
      len = u->offset + u->length - off;
    }
    if (len >= max) {
      CHV_RETURN_IF_ERR(add_split(p, cap, f, off, len, err));
      off = -1;
    }
  }
  if (off >= 0) CHV_RETURN_IF_ERR(add_split(p, cap, f, off, len, err));
  return CHV_OK;
}

/* Whether Hadoop's TextInputFormat reads path through a codec and so
** cannot split it: the name ends with the extension of a codec Hadoop
** ships (DefaultCodec .deflate, GzipCodec .gz, BZip2Codec .bz2, Lz4Codec
** .lz4, SnappyCodec .snappy, ZStandardCodec .zst), case-sensitive and
** longer than the extension, as CompressionCodecFactory matches names.
** Hadoop splits .bz2 files (BZip2Codec is splittable); chive keeps them
** whole, as it reads no bzip2. */
static bool compressed_name(const char *path) {
  static const char *const ext[] = {".gz",  ".bz2",    ".deflate",
                                    ".lz4", ".snappy", ".zst"};
  const char *name = strrchr(path, '/');
  name = name ? name + 1 : path;
  size_t n = strlen(name);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ext); i++) {
    size_t e = strlen(ext[i]);
    if (n > e && memcmp(name + n - e, ext[i], e) == 0) return true;
  }
  return false;
}

/* Hadoop's split size for a partition of `bytes` bytes in its files. */
static int64_t hadoop_split_size(int64_t bytes, int64_t n, int64_t block) {
  int64_t goal = bytes / CHV_MAX(n, 1);
  return CHV_MAX(1, CHV_MIN(goal, block));
}

/* Cut one file as FileInputFormat.getSplits() does. */
static int cut_file(struct chv_split_plan *p, int *cap,
                    const struct plan_file *f, bool splittable,
                    int64_t split_size, struct chv_error *err) {
  if (f->size == 0 || !splittable)
    return add_split(p, cap, f, 0, f->size, err);
  int64_t left = f->size;
  while ((double)left / (double)split_size > SPLIT_SLOP) {
    CHV_RETURN_IF_ERR(add_split(p, cap, f, f->size - left, split_size, err));
    left -= split_size;
  }
  if (left > 0) CHV_RETURN_IF_ERR(add_split(p, cap, f, f->size - left, left,
                                            err));
  return CHV_OK;
}

static int plan(chv_catalog *cat, const struct chv_table *t,
                const struct chv_split_options *o, struct planner *pl,
                struct chv_error *err) {
  struct chv_split_plan *p = pl->plan;
  struct conn_format fmt;
  CHV_RETURN_IF_ERR(conn_table_format(t, o->cfg, &fmt, err));
  pl->orc = fmt.kind == CONN_FMT_ORC;
  pl->text = fmt.kind == CONN_FMT_TEXT;
  p->block_size = o->block_size > 0 ? o->block_size : CHV_SPLIT_BLOCK_SIZE;
  int64_t recursive, calc_threads, load_threads, max_size, n = pl->orc_n;
  CHV_RETURN_IF_ERR(option_num(
      t, o->cfg, "table.exec.hive.read-partition-with-subdirectory.enabled",
      &recursive, err));
  CHV_RETURN_IF_ERR(option_num(
      t, o->cfg, "table.exec.hive.calculate-partition-size.thread-num",
      &calc_threads, err));
  CHV_RETURN_IF_ERR(option_num(
      t, o->cfg, "table.exec.hive.load-partition-splits.thread-num",
      &load_threads, err));
  CHV_RETURN_IF_ERR(option_num(t, o->cfg, "table.exec.hive.split-max-size",
                               &max_size, err));
  CHV_RETURN_IF_ERR(option_num(t, o->cfg, "table.exec.hive.file-open-cost",
                               &pl->open_cost, err));
  if (n <= 0) n = o->min_splits;
  if (n <= 0)
    CHV_RETURN_IF_ERR(option_num(
        t, o->cfg, "table.exec.hive.infer-source-parallelism.max", &n, err));
  pl->recursive = recursive != 0;
  p->min_splits = CHV_MAX(n, 1);
  p->num_splits = pl->hadoop_n > 0 ? pl->hadoop_n : CHV_MAX(o->min_splits, 1);

  int64_t total;
  CHV_RETURN_IF_ERR(conn_scan_partitions(cat, t, o->cfg, o->filter, &p->partitions,
                                         &p->npartitions, &total, err));
  CHV_RETURN_IF_ERR(conn_hidden_paths(cat, t->db, t->name, &pl->hidden,
                                      &pl->nhidden, err));
  int np = p->npartitions;
  pl->weight = chv_calloc((size_t)np + 1, sizeof *pl->weight);
  pl->listing = chv_calloc((size_t)np + 1, sizeof *pl->listing);
  pl->fs = chv_calloc((size_t)np + 1, sizeof *pl->fs);
  if (pl->weight == NULL || pl->listing == NULL || pl->fs == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");

  /* ORC: the split size from the weight of every partition. */
  if (pl->orc && np > 0) {
    CHV_RETURN_IF_ERR(conn_pool_run(calc_threads, np, weigh_partition, pl, err));
    for (int i = 0; i < np; i++) p->total_weighted += pl->weight[i];
    p->max_split_bytes =
        CHV_MIN(max_size, CHV_MAX(pl->open_cost,
                                  p->total_weighted / p->min_splits));
  }

  /* The files, then (ORC) their stripes. */
  CHV_RETURN_IF_ERR(conn_pool_run(load_threads, np, list_partition, pl, err));
  int64_t nfiles = 0;
  for (int i = 0; i < np; i++) nfiles += (int64_t)pl->listing[i].count;
  pl->files = chv_calloc((size_t)nfiles + 1, sizeof *pl->files);
  if (pl->files == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < np; i++)
    for (size_t k = 0; k < pl->listing[i].count; k++) {
      const struct chv_dirent *e = &pl->listing[i].entries[k];
      if (conn_path_hidden(pl->hidden, pl->nhidden, e->path)) continue;
      pl->files[pl->nfiles++] =
          (struct plan_file){.fs = pl->fs[i], .path = e->path,
                             .size = e->st.size, .part = i};
    }
  p->files = pl->nfiles;
  if (pl->orc)
    CHV_RETURN_IF_ERR(conn_pool_run(load_threads, pl->nfiles, read_units, pl, err));

  int cap = 0;
  if (pl->orc) {
    for (int64_t i = 0; i < pl->nfiles; i++)
      CHV_RETURN_IF_ERR(
          pack_stripes(p, &cap, &pl->files[i], p->max_split_bytes, err));
    return CHV_OK;
  }
  /* Files are grouped by partition: each group's bytes size its splits. */
  for (int64_t i = 0, j; i < pl->nfiles; i = j) {
    int64_t bytes = 0;
    for (j = i; j < pl->nfiles && pl->files[j].part == pl->files[i].part; j++)
      bytes += pl->files[j].size;
    int64_t size = hadoop_split_size(bytes, p->num_splits, p->block_size);
    for (int64_t k = i; k < j; k++) {
      const struct plan_file *f = &pl->files[k];
      bool splittable = !(pl->text && compressed_name(f->path));
      CHV_RETURN_IF_ERR(cut_file(p, &cap, f, splittable, size, err));
    }
  }
  return CHV_OK;
}

/* The plan of a scan of t with ORC's n and Hadoop's numSplits given (0:
** as the options say). */
static int plan_table(chv_catalog *cat, const struct chv_table *t,
                      const struct chv_split_options *opts, int64_t orc_n,
                      int64_t hadoop_n, struct chv_split_plan **out,
                      struct chv_error *err) {
  *out = NULL;
  struct chv_split_options defaults = {0};
  if (opts == NULL) opts = &defaults;
  struct planner pl = {.orc_n = orc_n, .hadoop_n = hadoop_n};
  pl.plan = chv_calloc(1, sizeof *pl.plan);
  int rc = pl.plan ? plan(cat, t, opts, &pl, err)
                   : chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int64_t i = 0; i < pl.nfiles; i++) chv_free(pl.files[i].units);
  chv_free(pl.files);
  if (pl.listing)
    for (int i = 0; i < pl.plan->npartitions; i++)
      chv_dirlist_free(&pl.listing[i]);
  chv_free(pl.listing);
  chv_free(pl.fs);
  chv_free(pl.weight);
  chv_strv_free(pl.hidden, pl.nhidden);
  if (rc != CHV_OK) {
    chv_split_plan_free(pl.plan);
    return rc;
  }
  *out = pl.plan;
  return CHV_OK;
}

int conn_split_plan(chv_catalog *cat, const struct chv_table *t,
                    const struct chv_split_options *opts,
                    struct chv_split_plan **out, struct chv_error *err) {
  return plan_table(cat, t, opts, 0, 0, out, err);
}

int chv_split_plan_open(chv_catalog *cat, const char *db, const char *table,
                        const struct chv_split_options *opts,
                        struct chv_split_plan **out, struct chv_error *err) {
  *out = NULL;
  struct chv_table t;
  CHV_RETURN_IF_ERR(conn_get_table(cat, db, table, "plan splits of", &t, err));
  int rc = conn_split_plan(cat, &t, opts, out, err);
  chv_table_free(&t);
  return rc;
}

void chv_split_plan_free(struct chv_split_plan *p) {
  if (p == NULL) return;
  for (int i = 0; i < p->nsplits; i++) chv_free(p->splits[i].path);
  chv_free(p->splits);
  chv_partitions_free(p->partitions, p->npartitions);
  chv_free(p);
}

/* ---- pieces of splits ---------------------------------------------------- */

/* The pieces split sp is cut into. */
static int64_t pieces_of(const struct chv_split *sp, int64_t unit) {
  return sp->length > unit ? sp->length / unit : 1;
}

int conn_split_cut(struct chv_split_plan *p, int64_t unit,
                   struct chv_error *err) {
  int64_t n = 0;
  for (int i = 0; i < p->nsplits; i++) n += pieces_of(&p->splits[i], unit);
  if (n == p->nsplits) return CHV_OK;
  if (n > INT32_MAX) return chv_error_set(err, CHV_ENOMEM, "too many splits");
  struct chv_split *out = chv_calloc((size_t)n, sizeof *out);
  if (out == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int64_t k = 0;
  for (int i = 0; i < p->nsplits; i++) {
    const struct chv_split *sp = &p->splits[i];
    int64_t m = pieces_of(sp, unit);
    for (int64_t j = 0; j < m; j++, k++) {
      out[k] = *sp;
      out[k].start = sp->start + j * unit;
      out[k].length = j + 1 < m ? unit : sp->length - j * unit;
      if ((out[k].path = chv_strdup(sp->path)) == NULL) {
        for (int64_t x = 0; x < k; x++) chv_free(out[x].path);
        chv_free(out);
        return chv_error_set(err, CHV_ENOMEM, "out of memory");
      }
    }
  }
  for (int i = 0; i < p->nsplits; i++) chv_free(p->splits[i].path);
  chv_free(p->splits);
  p->splits = out;
  p->nsplits = (int)n;
  return CHV_OK;
}

/* ---- sampling -------------------------------------------------------------- */

void conn_split_sample(struct chv_split_plan *p,
                       const struct chv_scan_sample *sample) {
  if (sample->kind != CHV_SAMPLE_PERCENT && sample->kind != CHV_SAMPLE_BYTES)
    return;
  int64_t total = 0;
  for (int i = 0; i < p->nsplits; i++) total += p->splits[i].length;
  int64_t target = sample->bytes;
  if (sample->kind == CHV_SAMPLE_PERCENT) {
    double t = ceil((double)total * sample->percent / 100.0);
    target = t <= 0 ? 0 : t >= (double)total ? total : (int64_t)t;
  }
  int keep = 0;
  for (int64_t got = 0; keep < p->nsplits && got < target; keep++)
    got += p->splits[keep].length;
  for (int i = keep; i < p->nsplits; i++) chv_free(p->splits[i].path);
  p->nsplits = keep;
}

/* ---- parallelism inference ---------------------------------------------- */

/* Counting the top-level entries of the partition folders. */
struct counter {
  const struct chv_partition *parts;
  int64_t *entries; /* per partition */
};

/* A folder's top-level entries as Flink counts them (listStatus: files and
** folders, hidden ones too); a registered partition without a folder has
** none. */
static int count_entries(void *arg, int64_t i, struct chv_error *err) {
  struct counter *c = arg;
  const struct chv_fs *fs;
  const char *dir;
  CHV_RETURN_IF_ERR(chv_fs_for_path(c->parts[i].location, &fs, &dir, err));
  struct chv_dirlist l = {0};
  int rc = fs->list(fs, dir, 0, &l, err);
  if (rc == CHV_ENOENT) {
    chv_error_clear(err);
    return CHV_OK;
  }
  if (rc != CHV_OK) return rc;
  c->entries[i] = (int64_t)l.count;
  chv_dirlist_free(&l);
  return CHV_OK;
}

/* The top-level entries of the scan's pruned partition folders, counted on
** calculate-partition-size.thread-num threads. */
static int count_all(chv_catalog *cat, const struct chv_table *t,
                     const struct chv_parallelism_options *o, int64_t *out,
                     struct chv_error *err) {
  int64_t threads;
  CHV_RETURN_IF_ERR(option_num(
      t, o->cfg, "table.exec.hive.calculate-partition-size.thread-num",
      &threads, err));
  struct chv_partition *parts = NULL;
  int np = 0;
  int64_t total;
  CHV_RETURN_IF_ERR(
      conn_scan_partitions(cat, t, o->cfg, o->filter, &parts, &np, &total, err));
  struct counter c = {parts, chv_calloc((size_t)np + 1, sizeof(int64_t))};
  int rc = c.entries ? conn_pool_run(threads, np, count_entries, &c, err)
                     : chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK) {
    *out = 0;
    for (int i = 0; i < np; i++) *out += c.entries[i];
  }
  chv_free(c.entries);
  chv_partitions_free(parts, np);
  return rc;
}

/* Whether the table or a configuration layer sets key. */
static bool option_set(const struct chv_table *t, const chv_config *cfg,
                       const char *key) {
  if (chv_kv_get(t->params, t->nparams, key) != NULL) return true;
  return cfg != NULL && chv_config_is_set(cfg, key);
}

static int64_t online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

/* Steps 2 (inference) of chv_split_infer_parallelism() on r. */
static int infer(chv_catalog *cat, const struct chv_table *t,
                 const struct chv_parallelism_options *o,
                 struct chv_parallelism *r, struct chv_error *err) {
  static const char *const max_key =
      "table.exec.hive.infer-source-parallelism.max";
  int64_t on, max;
  CHV_RETURN_IF_ERR(option_num(t, o->cfg,
                               "table.exec.hive.infer-source-parallelism", &on,
                               err));
  CHV_RETURN_IF_ERR(option_num(t, o->cfg, max_key, &max, err));
  struct chv_opt_value mode;
  chv_opt_value_init(&mode);
  CHV_RETURN_IF_ERR(conn_table_option(
      t, o->cfg, "table.exec.hive.infer-source-parallelism.mode", &mode, err));
  bool none = mode.text == NULL || chv_str_ieq(mode.text, "none");
  bool dynamic = mode.text != NULL && chv_str_ieq(mode.text, "dynamic");
  chv_opt_value_free(&mode);
  if (!on || none) return CHV_OK;

  /* Dynamic mode: Flink's scheduler bounds max by its default source
  ** parallelism, which it also takes when max is not set; chive's bound is
  ** the default parallelism. */
  int64_t bound = r->parallelism;
  if (dynamic) max = CHV_MIN(option_set(t, o->cfg, max_key) ? max : bound, bound);
  max = CHV_MAX(CHV_MIN(max, INT32_MAX), 1);
  r->inferred = true;
  r->dynamic = dynamic;
  r->max = (int)max;
  CHV_RETURN_IF_ERR(count_all(cat, t, o, &r->entries, err));
  if (r->entries >= max) {
    r->parallelism = (int)max;
    return CHV_OK;
  }
  /* The splits Flink plans for inference: minNumSplits 0, which Hadoop
  ** takes as 1, and for ORC n = the bound. */
  struct chv_split_options so = {
      .filter = o->filter, .cfg = o->cfg, .block_size = o->block_size};
  struct chv_split_plan *p;
  CHV_RETURN_IF_ERR(plan_table(cat, t, &so, max, 1, &p, err));
  r->splits = p->nsplits;
  r->parallelism = (int)CHV_MIN(r->splits, max);
  chv_split_plan_free(p);
  return CHV_OK;
}

int chv_split_infer_parallelism(chv_catalog *cat, const char *db,
                                const char *table,
                                const struct chv_parallelism_options *opts,
                                struct chv_parallelism *out,
                                struct chv_error *err) {
  struct chv_parallelism_options defaults = {.limit = -1};
  const struct chv_parallelism_options *o = opts ? opts : &defaults;
  struct chv_table t;
  CHV_RETURN_IF_ERR(conn_get_table(cat, db, table, "plan splits of", &t, err));
  struct chv_parallelism r = {.entries = -1, .splits = -1};
  r.parallelism = (int)(o->default_parallelism > 0
                            ? o->default_parallelism
                            : CHV_MIN(online_cpus(), INT32_MAX));
  int rc = infer(cat, &t, o, &r, err);
  chv_table_free(&t);
  if (rc != CHV_OK) return rc;
  if (o->limit >= 0)
    r.parallelism = (int)CHV_MIN(r.parallelism, o->limit / 1000);
  r.parallelism = CHV_MAX(r.parallelism, 1);
  *out = r;
  return CHV_OK;
}
