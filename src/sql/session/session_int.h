/*
** sql/session: the statements of a SQL session, private to the module.
** stmt.c runs one parsed statement against the session's catalogs;
** build.c builds a query's plan (sql/plan) and query.c runs it (sql/exec);
** dml.c holds INSERT and LOAD DATA (stats.c the scan's statistics and
** threads); dir.c INSERT OVERWRITE DIRECTORY, multi.c the
** multi-insert (FROM src INSERT ... INSERT ...); plan.c EXPLAIN's tree and
** what EXPLAIN ANALYZE counts; hints.c OPTIONS hints; rel.c holds derived
** relations; views.c views (their definition, and their expansion where a
** query names them); result.c the results.  The binder is sql/plan's.
**
** INTERFACE
**   struct sql_session       the catalog, the session configuration, the
**                            current database, the output format
**   sql_exec_stmt()          run one statement, printing its result
**   struct sql_result        rows of text cells; sql_result_*() build it and
**                            print it in the session's format
**
** Errors go into a struct chv_error whose message names the object; *pos
** (when the failure is tied to a place in the statement) is where it points.
*/
#ifndef CHV_SQL_SESSION_INT_H
#define CHV_SQL_SESSION_INT_H

#include "chive/catalog.h"
#include "chive/config.h"
#include "chive/connector.h"
#include "chive/jsonl.h"
#include "chive/orc.h"
#include "chive/session.h"
#include "chive/sql.h"
#include "chive/types.h"
#include "sql/exec/exec.h"
#include "sql/exec/op.h"
#include "sql/plan/plan.h"

#include <stdio.h>

/* A catalog of the session: the embedded default one ("hive", on the
** --warehouse folder) and those CREATE CATALOG opened. */
struct sql_catalog {
  char name[128];
  chv_catalog *cat;  /* owned */
  char default_db[256];
  char version[32];  /* 'hive-version', or "" */
};
#define SQL_MAX_CATALOGS 32

struct sql_session {
  chv_catalog *cat;          /* the current catalog: cats[cur].cat */
  struct sql_catalog cats[SQL_MAX_CATALOGS];
  int ncats, cur;
  chv_config *cfg;           /* owned: file and session layers */
  char db[256];              /* current database, lower-case */
  enum chv_sql_dialect dialect; /* for the next statement */
  char **set_keys;           /* keys SET in the session layer, owned */
  int nset_keys;
  /* while a statement runs: the WITH queries in scope, innermost first
  ** (sql_dml.c) */
  struct sql_scope *scope;
  /* the views being expanded, innermost first (views.c); whether an error
  ** raised inside them names its view already */
  struct sql_view_frame *views;
  bool view_err_named;
  /* what the session reports beside results (writes recovered), or NULL */
  void (*notice)(void *ctx, const char *msg);
  void *notice_ctx;
  void (*progress)(void *ctx, const struct chv_progress *p);
  void *progress_ctx;
  /* set by chv_session_cancel() (any thread); read with __atomic loads */
  volatile int cancel;
  /* the consumer of the running statement's output (session.c), or NULL:
  ** what the statement gives is dropped */
  struct chv_result *res;
  /* While EXPLAIN runs: its plan (plan.c), and the node under which a
  ** query's top node goes (NULL: the top) */
  struct sql_plan *plan;
  struct sql_plan_node *plan_at;
  /* EXPLAIN ANALYZE: the statement's own rows and summary are dropped */
  bool discard;
  /* The OPTIONS hints of the table the next scan reads (hints.c), or
  ** NULL */
  const struct chv_kv *read_options;
  int nread_options;
};

/* ---- the running statement's output (session.c) ---- */

/* Rows per batch handed to the consumer (a larger batch of the caller's
** goes on whole). */
#define SQL_OUT_BATCH 2048
/* Declares the statement's columns (a STRUCT, taken over on failure too);
** batches follow.  Once per statement. */
int sql_out_begin(struct sql_session *s, struct chv_type *schema,
                  enum chv_result_kind kind, struct chv_error *err);
/* The begun schema, which outlives the statement (the batches handed on
** are on it); NULL when nothing consumes the output. */
const struct chv_type *sql_out_schema(struct sql_session *s);
/* Hands b (on the begun schema; taken over, on failure too) to the
** consumer, waiting while it is two batches behind; CHV_ECANCELED when the
** statement is cancelled or the consumer closed the result. */
int sql_out_push(struct sql_session *s, struct chv_batch *b,
                 struct chv_error *err);
/* The statement's summary in words ("OK", "Inserted 3 rows"). */
void sql_out_message(struct sql_session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A summary of one row: BIGINT column `column` = n, and the message. */
int sql_out_summary(struct sql_session *s, const char *column, int64_t n,
                    const char *msg, struct chv_error *err);
/* CHV_ECANCELED (err set) once the statement is cancelled. */
int sql_cancelled(struct sql_session *s, struct chv_error *err);
/* Progress of the running statement, given to s->progress at most four
** times a second (counted from the statement's start).  A field of p that
** is -1 keeps what an earlier report of the statement gave; once a report
** gives bytes_written (a write), rows are those a write reports. */
void sql_out_progress(struct sql_session *s, const struct chv_progress *p);
/* A scan's progress callback (chv_scan_options.progress, with the session
** as its ctx): its splits done and planned and the rows it read. */
void sql_scan_progress(void *ctx, const chv_scan *sc);

/* A result (result.c): either typed, its rows appended from vectors and
** handed on in batches as they fill (sql_result_typed(), _rows()), or ncols
** named columns of text cells (NULL cell = SQL NULL; strings owned by the
** result) given whole as STRING columns by sql_result_emit(). */
struct sql_result {
  int ncols;
  char **names;
  char ***rows;
  int64_t nrows, cap;
  enum chv_result_kind kind; /* of a text result: ROWS (0 = ROWS) or PLAN */
  /* typed */
  struct sql_session *s;
  bool typed, begun;
  const struct chv_type *schema; /* sql_out_schema(), or NULL: dropped */
  struct chv_batch *pend;
};

void sql_result_init(struct sql_result *r);
void sql_result_free(struct sql_result *r);
int sql_result_columns(struct sql_result *r, int n, const char *const *names);
/* Appends a row of ncols cells (copied; NULL = SQL NULL). */
int sql_result_add(struct sql_result *r, const char *const *cells);
/* A typed result of n columns of these names and types: declares them to
** the consumer at once (sql_out_begin()). */
int sql_result_typed(struct sql_session *s, struct sql_result *r, int n,
                     const char *const *names,
                     const struct chv_type *const *types,
                     struct chv_error *err);
/* Appends rows sel[0, n) (sel NULL: rows 0..n-1) of vecs, one vector per
** column of the typed result r. */
int sql_result_rows(struct sql_result *r, const struct chv_vector *const *vecs,
                    const uint32_t *sel, int64_t n, struct chv_error *err);
/* The end of r: a text result goes to the consumer whole, a typed one its
** last rows. */
int sql_result_emit(struct sql_session *s, struct sql_result *r,
                    struct chv_error *err);

/* Runs stmt.  *pos is set to the place an error is about (the statement
** by default). */
int sql_exec_stmt(struct sql_session *s, const struct chv_sql_stmt *stmt,
                  struct chv_sql_pos *pos, struct chv_error *err);

/* SHOW CREATE TABLE (sql_show.c). */
int sql_show_create_table(struct sql_session *s, const struct chv_sql_stmt *st,
                          struct chv_sql_pos *pos, struct chv_error *err);
/* The names and types of q's output columns (a STRUCT), found without
** reading the table: CREATE TABLE ... AS SELECT. */
int sql_query_schema(struct sql_session *s, const struct chv_sql_query *q,
                     struct chv_type **out, struct chv_sql_pos *pos,
                     struct chv_error *err);
int sql_exec_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct chv_sql_pos *pos, struct chv_error *err);
int sql_exec_query(struct sql_session *s, const struct chv_sql_stmt *st,
                   bool explain, struct chv_sql_pos *pos,
                   struct chv_error *err);
int sql_exec_load(struct sql_session *s, const struct chv_sql_stmt *st,
                  struct chv_sql_pos *pos, struct chv_error *err);
/* INSERT OVERWRITE [LOCAL] DIRECTORY (dir.c). */
int sql_exec_insert_directory(struct sql_session *s,
                              const struct chv_sql_stmt *st,
                              struct chv_sql_pos *pos, struct chv_error *err);
/* ANALYZE TABLE ... COMPUTE STATISTICS (analyze.c). */
int sql_exec_analyze(struct sql_session *s, const struct chv_sql_stmt *st,
                     chv_arena *a, struct chv_sql_pos *pos,
                     struct chv_error *err);
/* DESCRIBE [FORMATTED] t [PARTITION (...)] col: a column's statistics as
** Hive prints them (analyze.c). */
int sql_describe_column(struct sql_session *s, const struct chv_sql_stmt *st,
                        chv_arena *a, struct chv_sql_pos *pos,
                        struct chv_error *err);
/* FROM src INSERT ... INSERT ... (multi.c). */
int sql_exec_multi_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                          struct chv_sql_pos *pos, struct chv_error *err);

/* An INSERT's target table opened for the write (dml.c): resolved, its
** PARTITION spec checked, its OPTIONS hint validated, the sink opened
** (only the schema when explained), its Insert plan node made. */
struct sql_insert {
  chv_catalog *cat;
  struct chv_table t;
  chv_arena *a;
  chv_sink *sink;             /* NULL when only explained */
  struct chv_type *schema;    /* data columns, then the dynamic keys */
  char **statics;             /* static partition values (in a) */
  int nstatic;
  struct chv_kv *options;     /* of its OPTIONS hint (in a) */
  int noptions;
  struct sql_plan_node *node; /* its plan node, or NULL */
  int64_t written;            /* rows written so far */
};
/* ins is always left for sql_insert_close(), on failure too. */
int sql_insert_open(struct sql_session *s, const struct chv_sql_stmt *st,
                    bool explain, struct sql_insert *ins,
                    struct chv_sql_pos *pos, struct chv_error *err);
void sql_insert_close(struct sql_insert *ins);
/* The target a query's Sink writes ins's rows to (ins->written is the
** caller's to take back from out->written). */
struct sql_target;
void sql_insert_target(struct sql_session *s, struct sql_insert *ins,
                       struct sql_target *out);

/* INSERT ... DIRECTORY (dir.c): the files being written, and the rows of
** a query run into them (dml.c), whose columns are schema; *written gets
** the rows. */
struct sql_dir;
int sql_dir_write(struct sql_dir *d, const struct chv_batch *b, int64_t n,
                  struct chv_error *err);
int sql_query_into_dir(struct sql_session *s, const struct chv_sql_query *q,
                       struct chv_sql_pos stpos, bool explain,
                       struct sql_dir *d, const struct chv_type *schema,
                       struct sql_plan_node *node, int64_t *written,
                       struct chv_sql_pos *pos, struct chv_error *err);

/* A partition value must convert to its key's type, as Hive checks it
** (hive.typecheck.on.insert); the error names the key. */
int sql_check_part_value(const struct chv_column *key,
                         const struct chv_sql_expr *e, chv_arena *a,
                         struct chv_sql_pos *pos, struct chv_error *err);

/* Shared helpers (sql_exec.c). */
/* Catalog, db and table of a name (current catalog and database when not
** qualified); a catalog part must name one of the session's catalogs. */
int sql_resolve(struct sql_session *s, const struct chv_sql_name *n,
                chv_catalog **cat, const char **db, const char **table,
                struct chv_error *err);
/* The table a name names, with its catalog: sql_resolve() then
** chv_catalog_get_table().  t: free with chv_table_free(). */
int sql_get_table(struct sql_session *s, const struct chv_sql_name *n,
                  chv_catalog **cat, struct chv_table *t,
                  struct chv_error *err);
/* The session catalog called name (case-insensitively), or -1. */
int sql_catalog_find(const struct sql_session *s, const char *name);
/* CREATE CATALOG name WITH (props) (sql_catalog.c). */
int sql_catalog_create(struct sql_session *s, const struct chv_sql_stmt *st,
                       struct chv_sql_pos *pos, struct chv_error *err);
/* Finishes or undoes the writes killed in cat's warehouse
** (chv_warehouse_recover()), telling s->notice when there were any. */
int sql_recover(struct sql_session *s, chv_catalog *cat,
                struct chv_error *err);
/* Makes catalog i current, its default database the current one. */
void sql_catalog_use(struct sql_session *s, int i);
/* A filter of the partitions a (perhaps partial) spec names (NULL for an
** empty spec): each key once, a table key, its value checked against its
** type; dynamic: a key without a value takes every value (else an
** error). */
int sql_part_spec_filter(const struct chv_table *t,
                         const struct chv_sql_part_spec *spec, bool dynamic,
                         chv_arena *a, struct chv_part_filter **out,
                         struct chv_sql_pos *pos, struct chv_error *err);
/* The values of a PARTITION (...) spec in key order for t (all static). */
int sql_part_values(const struct chv_table *t,
                    const struct chv_sql_part_spec *spec, chv_arena *a,
                    char ***values, struct chv_sql_pos *pos,
                    struct chv_error *err);

#define SQL_CATALOG_NAME "hive"

/* sql_stats.c: the reader threads of a query's scan of t (so: its filter
** and pushed limit): the parallelism Flink's Hive source would infer
** (chv_split_infer_parallelism()), at most the CPUs online; 1 without a
** table or when the inference fails (the scan then reports the error). */
int sql_scan_threads(struct sql_session *s, chv_catalog *cat,
                     const struct chv_table *t,
                     const struct chv_scan_options *so);
/* EXPLAIN's line under the scan, appended to out: "Statistics: rows=...
** parallelism=...", the row count the source reports
** (chv_source_report_statistics()) and the inferred parallelism. */
/* The rows a scan of t gives as the source reports them (the metastore's
** numRows, else the files' footers), or 0: unknown (stats.c). */
double sql_scan_rows(struct sql_session *s, chv_catalog *cat,
                     const struct chv_table *t,
                     const struct chv_scan_options *so);
void sql_explain_stats(struct sql_session *s, chv_catalog *cat,
                       const struct chv_table *t,
                       const struct chv_scan_options *so,
                       struct chv_buf *out);

/* The type as SQL writes it ("decimal(10,2)") into buf. */
void sql_type_name(const struct chv_type *t, char *buf, size_t n);
/* A whole decimal number, spaces around allowed. */
bool sql_parse_int(const char *s, int64_t *out);

/* Sets err (code and a printf message) and returns code. */
int sql_err(struct chv_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));


/* ---- queries (build.c, query.c) ---- */

/* The window calls of one SELECT while it is bound (winbuild.c). */
struct sql_win_item;
struct sql_wins {
  const struct chv_sql_query *q;
  struct sql_bind *b;           /* the binder whose hook takes them */
  chv_arena *a;
  struct chv_sql_pos *pos;
  struct chv_error *err;
  /* the hook that was there before (the aggregation's), and its context */
  int (*prev)(struct sql_bind *b, const struct chv_sql_expr *e,
              struct chv_expr **out, bool *done);
  void *prev_ctx;
  bool inside;                  /* binding a call's arguments or keys */
  struct sql_win_item *items;
  int n, cap;
};
/* From now on the window calls b binds (of q: its WINDOW clause) are
** taken by w (zeroed on the first call for b): each a COLUMN numbered by
** sql_wins_nodes(). */
void sql_wins_on(struct sql_wins *w, const struct chv_sql_query *q,
                 struct sql_bind *b, chv_arena *a, struct chv_sql_pos *pos,
                 struct chv_error *err);
/* b binds window calls as other calls again (an error: not allowed
** there). */
void sql_wins_off(struct sql_wins *w);
/* The Window nodes of w's calls over *at (once everything is bound; none
** without calls), *at the top one; the calls' COLUMNs numbered. */
int sql_wins_nodes(struct sql_wins *w, struct sql_node **at);

/* The WITH queries in scope while a query is built: a query's own, then
** those of the queries around it.  A WITH query sees the ones before it. */
/* A WITH query named more than once in its statement: its rows, once run,
** held for every reference (build.c). */
struct sql_cte_held {
  int refs;              /* the references its query's text makes */
  bool tried;            /* run once: b holds the rows, or NULL: too many */
  struct chv_batch *b;
};

struct sql_scope {
  const struct chv_sql_cte *ctes;
  size_t visible;        /* ctes[0, visible) can be named */
  struct sql_scope *up;
  struct sql_cte_held *held; /* per WITH query of ctes, or NULL */
};

/* Where a query's rows go: an INSERT's table (through its sink) or a
** directory. */
struct sql_target {
  const struct chv_table *t; /* the target table */
  chv_sink *sink;
  struct sql_dir *dir;       /* INSERT ... DIRECTORY: t and sink NULL */
  const struct chv_type *schema; /* data columns, then the dynamic keys */
  int nstatic;                   /* static partition values */
  char **statics;
  /* rows given to the sink or relation; added to atomically by the
  ** reader threads that write an INSERT's rows (target_write_shared) */
  int64_t written;
  /* the session told of the write's progress, or NULL */
  struct sql_session *progress;
  /* EXPLAIN ANALYZE: the node counting the rows written and the time the
  ** writes took, or NULL */
  struct sql_plan_node *node;
};

/* A query's plan and what it holds: the tables it read from catalogs, the
** descriptions of its derived relations (the tables their columns are
** bound as), its nodes and expressions in a. */
struct sql_qplan {
  chv_arena *a;
  struct sql_node *root;
  struct chv_table **tables;
  int ntables, captables;
  struct sql_rel **rels;
  int nrels, caprels;
  struct chv_type **types;   /* the binders' table column types */
  int ntypes, captypes;
  chv_arena **texts;         /* the parsed texts of the views it expands */
  int ntexts, captexts;
  struct chv_batch **held;   /* WITH queries' rows its Values nodes read */
  int nheld, capheld;
};
int sql_qplan_open(struct sql_qplan **out, struct chv_error *err);
void sql_qplan_close(struct sql_qplan *qp);
/* The logical plan of q into qp->root (build.c): its FROM resolved (tables,
** views, WITH queries, sub-queries), its expressions bound; ins: the items
** cast to the target's columns. */
int sql_query_build(struct sql_session *s, const struct chv_sql_query *q,
                    struct chv_sql_pos stpos, struct sql_target *ins,
                    struct sql_qplan *qp, struct chv_sql_pos *pos,
                    struct chv_error *err);
/* The columns nd gives as a STRUCT, named in lower case as Hive keeps
** them (build.c); CHV_EINVAL when two share a name. */
int sql_node_columns(const struct sql_node *nd, struct chv_type **out,
                     struct chv_error *err);
/* Plans and runs q (query.c): its rows to the statement's consumer, or
** with ins into the target; explain: the plan only. */
int sql_query_run(struct sql_session *s, const struct chv_sql_query *q,
                  struct chv_sql_pos stpos, bool explain,
                  struct sql_target *ins, struct chv_sql_pos *pos,
                  struct chv_error *err);
/* Rewrites, makes physical and runs the plan of qp (built by the caller:
** the multi-insert's). */
int sql_qplan_run(struct sql_session *s, struct sql_qplan *qp,
                  struct chv_sql_pos stpos, bool explain,
                  struct chv_sql_pos *pos, struct chv_error *err);
/* The plan of a multi-insert into qp->root (build.c): a Multi over its
** source (read once: a table's Scan, a sub-query's Derived rows) and each
** branch, Sink <- [Limit] <- Project <- [Filter] <- Tee, writing to
** tgs[i], explained under at[i]. */
int sql_multi_build(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct sql_target *tgs, struct sql_plan_node *const *at,
                    struct sql_qplan *qp, struct chv_sql_pos *pos,
                    struct chv_error *err);
/* Checks the column count of the nout expressions ex (named heads, each
** from the select item at ipos[c]; qpos the query) and casts them to
** ins's columns (an error naming the column when CAST does not allow it). */
int sql_target_casts(struct sql_target *ins, struct chv_sql_pos qpos,
                     chv_arena *a, struct chv_expr **ex,
                     const char *const *heads, const struct chv_sql_pos *ipos,
                     int nout, struct chv_sql_pos *pos, struct chv_error *err);
/* Writes rows [0, n) of ob (on ins->schema) to the target, counted on its
** plan node under EXPLAIN ANALYZE; _shared: every row of ob, from a
** reader thread of the scan, several at once (a table's sink only). */
int sql_target_write(struct sql_target *ins, struct chv_batch *ob, int64_t n,
                     struct chv_error *err);
int sql_target_write_shared(struct sql_target *ins, const struct chv_batch *ob,
                            struct chv_error *err);
/* chive.exec.operator-memory: the bytes each operator may hold. */
int sql_operator_memory(struct sql_session *s, size_t *out,
                        struct chv_error *err);

/* True when e holds an aggregate call. */
bool sql_has_aggregate(const struct chv_sql_expr *e);
/* The sum of fn(q, ctx) over the sub-queries q (IN, EXISTS or scalar) e
** holds, not those inside them (subquery.c). */
int sql_expr_subqueries(const struct chv_sql_expr *e,
                        int (*fn)(const struct chv_sql_query *q, void *ctx),
                        void *ctx);
/* True when e holds a sub-query. */
bool sql_expr_has_subquery(const struct chv_sql_expr *e);

/* ---- sub-queries made joins (subquery.c) ---- */

struct sql_decor {
  chv_arena *a;
  /* The column names of the relation a FROM item (not a join) names. */
  int (*columns)(void *ctx, const struct chv_sql_from *leaf,
                 const char ***cols, int *ncols);
  void *ctx;
  int next;                  /* the next fresh alias $sqN */
  struct chv_sql_pos *pos;
  struct chv_error *err;
};
/* q with the sub-queries of its WHERE's conditions made joins of its FROM
** (a copy in d->a; q itself when there are none). */
int sql_decorrelate(struct sql_decor *d, const struct chv_sql_query *q,
                    const struct chv_sql_query **out);
/* The one value of the scalar sub-query q, run now, as a literal in a
** (query.c); NULL when it gives no row, CHV_EINVAL past one. */
int sql_query_scalar(struct sql_session *s, const struct chv_sql_query *q,
                     chv_arena *a, struct chv_expr **out,
                     struct chv_sql_pos *pos, struct chv_error *err);

/* Runs the sub-query q now (query.c): exists: only whether it gives a
** row (*any); else its one column's values into *vals (out: close with
** chv_vector_close(); its type in a), bounded by chive.exec.operator-memory. */
/* The rows of q (a WITH query read more than once), run now, into *out:
** a batch of like's columns (the plan of a reference to it), its schema
** the caller's to free with it; *out NULL, not an error, when they take
** more than chive.exec.operator-memory or q's plan gives other columns
** than like (the reference then runs q again). */
int sql_query_hold(struct sql_session *s, const struct chv_sql_query *q,
                   const struct sql_node *like, struct chv_batch **out,
                   struct chv_sql_pos *pos, struct chv_error *err);
int sql_query_rows(struct sql_session *s, const struct chv_sql_query *q,
                   chv_arena *a, bool exists, struct chv_vector **vals,
                   bool *any,
                   struct chv_sql_pos *pos, struct chv_error *err);

/* ---- EXPLAIN's plan (plan.c) ---- */

struct sql_plan;
struct sql_plan_node;
int sql_plan_open(bool analyze, struct sql_plan **out, struct chv_error *err);
void sql_plan_close(struct sql_plan *p);
/* True while EXPLAIN ANALYZE runs its statement. */
bool sql_plan_analyze(const struct sql_session *s);
/* A node under parent (NULL: s->plan_at, else the top) saying fmt; NULL
** when no plan is being built (or out of memory: the plan is cut short).
** Every other plan function accepts a NULL node and then does nothing. */
struct sql_plan_node *sql_plan_node(struct sql_session *s,
                                    struct sql_plan_node *parent,
                                    const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends to n's line, or adds a detail line under it. */
void sql_plan_text(struct sql_plan_node *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sql_plan_detail(struct sql_plan_node *n, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds rows produced and nanoseconds spent to n (any thread). */
void sql_plan_count(struct sql_plan_node *n, int64_t rows, int64_t ns);
/* Adds what n's operator wrote to spill files (EXPLAIN ANALYZE prints
** "spilled=1.5 MB in 3 files" on its line). */
void sql_plan_spill(struct sql_plan_node *n, int64_t bytes, int64_t files);
int64_t sql_plan_now(void);
/* The plan's lines as the statement's result (CHV_RESULT_PLAN). */
int sql_plan_emit(struct sql_session *s, struct sql_plan *p,
                  struct chv_error *err);

/* ---- OPTIONS hints (hints.c) ---- */

/* Refuses what the statement cannot take: a hint where none is parsed or
** one that is not OPTIONS (the message of hints not supported), and any
** OPTIONS hint while table.dynamic-table-options.enabled is false. */
int sql_hints_check(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct chv_sql_pos *pos, struct chv_error *err);
/* The OPTIONS of a hint on `what` (a table's name, for errors) validated as
** table options: a registered key of the table or format scope whose value
** parses; read: the hint is on a table read (a streaming read is refused).
** *out (in a) and *n; none: NULL and 0. */
int sql_hint_options(struct sql_session *s, const struct chv_sql_props *props,
                     const char *what, bool read, chv_arena *a,
                     struct chv_kv **out, int *n, struct chv_sql_pos *pos,
                     struct chv_error *err);
/* "options=('k'='v', ...)" for EXPLAIN, appended to b. */
void sql_hint_text(const struct chv_kv *kv, int n, struct chv_buf *b);

/* ---- derived relations (rel.c) ---- */

/* The columns of a sub-query, WITH query, view or UNION as a table of no
** partitions (db ""), named by the alias: what the outer query binds
** over (its rows stream, build.c). */
struct sql_rel {
  struct chv_table t;        /* first: sql_table_what() relies on it */
  struct chv_type *schema;   /* STRUCT of the columns, owned */
  char what[160];            /* "sub-query s" in errors */
};
/* A relation named name of schema (taken over, on failure too). */
int sql_rel_open(const char *name, const char *what, struct chv_type *schema,
                 struct sql_rel **out, struct chv_error *err);
void sql_rel_close(struct sql_rel *r);
/* Renames column c of r (a view's rows take the view's column names). */
int sql_rel_rename(struct sql_rel *r, int c, const char *name,
                   struct chv_error *err);
/* How errors name t: "db.table", or a relation's what. */
const char *sql_table_what(const struct chv_table *t, char *buf, size_t n);

/* ---- views (views.c) ---- */

/* A view on the session's stack of views being expanded or defined. */
struct sql_view_frame {
  chv_catalog *cat;  /* the view's catalog */
  char name[520];    /* "db.view" */
  struct sql_view_frame *up;
};
/* CREATE [OR REPLACE] VIEW and ALTER VIEW ... AS: the view's columns found
** from its query (the view on the stack, so that it cannot read itself),
** its expanded text, and the catalog row written; prints nothing. */
int sql_exec_create_view(struct sql_session *s, const struct chv_sql_stmt *st,
                         struct chv_sql_pos *pos, struct chv_error *err);
/* A statement naming a table or a view against what it names: DROP VIEW or
** ALTER VIEW or SHOW CREATE VIEW of a table, DROP TABLE or ALTER TABLE of
** a view, INSERT, LOAD DATA, TRUNCATE, MSCK REPAIR or partitions of a view
** are errors naming the object.  *done: nothing is left to do (DROP VIEW
** IF EXISTS of a table, DROP TABLE IF EXISTS of a view, as in Hive). */
int sql_view_check_stmt(struct sql_session *s, const struct chv_sql_stmt *st,
                        bool *done, struct chv_sql_pos *pos,
                        struct chv_error *err);
/* The view t of cat, named in FROM, for dml.c to run as a derived
** relation: its expanded text parsed, the view pushed on the stack (a view
** already there is a recursive view, CHV_EINVAL naming the cycle), the
** session switched to the view's catalog and database with no WITH query
** in scope.  out: sql_view_close(). */
struct sql_view;
int sql_view_open(struct sql_session *s, chv_catalog *cat,
                  const struct chv_table *t, struct sql_view **out,
                  struct chv_error *err);
/* The query the view runs (borrowed from v). */
const struct chv_sql_query *sql_view_query(const struct sql_view *v);
/* The arena of the view's parsed text, which the caller now closes (a
** plan bound over the text keeps it). */
chv_arena *sql_view_take_text(struct sql_view *v);
/* The view's rows as the view names its columns (positionally, as Hive
** does); CHV_ECORRUPT naming the view when its text gives another number
** of columns than it has. */
int sql_view_columns(const struct chv_table *t, struct sql_rel *rel,
                     struct chv_error *err);
/* Undoes sql_view_open() and returns rc; *pos = at (where the view is
** named); an error rc is wrapped with the innermost view's name. */
int sql_view_close(struct sql_session *s, struct sql_view *v, int rc,
                   struct chv_sql_pos at, struct chv_sql_pos *pos,
                   struct chv_error *err);

/* ---- grouping.c: GROUPING SETS, ROLLUP, CUBE ---- */

/* The keys and grouping sets of a GROUP BY with grouping sets. */
struct sql_grouping {
  int nkeys;                          /* the distinct GROUP BY expressions */
  const struct chv_sql_expr **keys;   /* each as first written */
  const char **key_text;
  /* the same qualified as written: what tells keys apart (a.s, b.s) */
  const char **key_qtext;
  int nsets;
  int64_t *id;    /* set s's GROUPING__ID: bit nkeys-1-k set when it leaves
                  ** key k out */
  int *dup;       /* set s: how many sets before it are the same */
  bool dups;      /* some set is repeated (the Aggregate keys $set too) */
  const char *text; /* EXPLAIN: "(a, b), (a), ()" */
};
/* The grouping sets of q (q->ngroup_elems > 0) into *g (the arena).  Errors
** point at *pos: a Hive grouping set naming an expression not in its GROUP
** BY, more than 4096 sets, more than 63 keys. */
int sql_grouping_sets(chv_arena *a, const struct chv_sql_query *q,
                      struct sql_grouping *g, struct chv_sql_pos *pos,
                      struct chv_error *err);
/* The Expand node over in for g (keys: g's keys bound over in): in's
** columns, the keys, GROUPING__ID and, when g->dups, $set; *seeds the
** constant Aggregate keys of each empty set (*nseeds of them). */
int sql_grouping_expand(chv_arena *a, const struct sql_grouping *g,
                        struct sql_node *in, struct chv_expr *const *keys,
                        struct sql_node **out, struct chv_expr ***seeds,
                        int *nseeds, struct chv_error *err);
/* Binds e when it is GROUPING(...) or GROUPING__ID (*done): over the
** Aggregate's columns, the keys key_text[0, nkeys) and the id at id_col;
** g NULL: a plain GROUP BY (GROUPING() is 0, GROUPING__ID an error). */
int sql_grouping_bind(chv_arena *a, const struct sql_grouping *g,
                      const char *const *key_text, int nkeys, int id_col,
                      const struct chv_sql_expr *e, struct chv_expr **out,
                      bool *done, struct chv_sql_pos *pos,
                      struct chv_error *err);

#endif
