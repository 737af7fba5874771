/*
** sql/exec/op: the executor.  A plan (sql/plan/node.h) runs as a tree of
** operators, one per node, built beside the read-only plan as
** PostgreSQL's executor keeps its state tree beside its plan tree.  Each
** operator has open, next and close: next gives the next chunk of rows of
** its node's columns, pulled from its inputs.
**
**   sql_exec_build()  -> open -> next ... next (end: chunk.b == NULL)
**                     -> sql_exec_free()
**
** Nodes the physical plan placed on the reader threads (on_readers) run in
** the stage of the scan below them (a chv_scan_hook): Filter and Project
** batch by batch, Aggregate as one partial aggregate per split folded in
** split order, Sink writing where the rows are read.  Their operators on
** the consuming thread only pass on what the stage gives.
**
** A chunk is a batch and the rows of it that count (sel, ascending; NULL:
** rows 0..n-1).  It belongs to the operator that gave it and stays valid
** until that operator's next call.
**
** Every operator checks the cancel flag (a scan within a batch of each
** reader, a sort within its comparisons) and then fails with
** CHV_ECANCELED.  Under analyze each operator counts the rows it gives and
** the time spent in it (its inputs' time included), from any thread.
**
** INTERFACE
**   struct sql_exec          what a plan's execution shares
**   sql_exec_build()/_free() the operator tree of a plan
**   sql_op_open()/_next()    run it
**   sql_op_rows()/_ns()      what EXPLAIN ANALYZE prints
*/
#ifndef CHV_SQL_EXEC_OP_H
#define CHV_SQL_EXEC_OP_H

#include "sql/exec/exec.h"
#include "sql/plan/node.h"

struct sql_chunk {
  struct chv_batch *b;         /* NULL: the end */
  const uint32_t *sel;         /* NULL: rows 0..n-1 */
  int64_t n;
};

/* A Sink's target: the session writes what the operator gives it. */
struct sql_sink_ops {
  /* Rows [0, n) of b (dense, on the sink's columns), on the consuming
  ** thread. */
  int (*write)(void *target, struct chv_batch *b, int64_t n,
               struct chv_error *err);
  /* All rows of b, from a reader thread, several at once (on_readers). */
  int (*write_shared)(void *target, const struct chv_batch *b,
                      struct chv_error *err);
};

struct sql_op;

struct sql_exec {
  const volatile int *cancel;   /* or NULL */
  size_t memory;                /* chive.exec.operator-memory, per operator */
  bool analyze;                 /* count rows and time */
  /* Only opened, to be explained (EXPLAIN): scans open at once, also
  ** those a join filters at run time (which otherwise open once the join
  ** has built: dynfilter.c). */
  bool explain;
  const chv_config *cfg;        /* scans' configuration (borrowed) */
  void (*progress)(void *ctx, const chv_scan *s);
  void *progress_ctx;
  const struct sql_sink_ops *sink;
  /* The bound of a TopN (NULL: sql_op_bound()); a test gives its own. */
  chv_scan_bound *(*find_bound)(struct sql_op *topn);
  /* the first operator that failed (its node says where), or NULL */
  struct sql_op *failed;
  /* the operators, by node id (sql_exec_build()) */
  struct sql_op **ops;
  int nops;
  /* Where spill files go (spill.h): a test's folders, or NULL: io.tmp.dirs
  ** of cfg, else TMPDIR, else /tmp. */
  const char *tmp_dirs;
  unsigned spill_turn;          /* round-robin over the folders (atomic) */
  /* The most reader threads a scan of the plan has (sql_exec_build()):
  ** the threads a join's table is made on. */
  int threads;
};

struct sql_op;
struct sql_op_vt {
  int (*open)(struct sql_op *op, struct chv_error *err);
  int (*next)(struct sql_op *op, struct sql_chunk *out,
              struct chv_error *err);
  void (*close)(struct sql_op *op);
};

struct sql_op {
  const struct sql_op_vt *vt;
  const struct sql_node *node;
  struct sql_exec *x;
  struct sql_op **in;
  int nin;
  bool opened;
  /* a node of a scan's stage that runs here instead: a staged join below
  ** it (or it) partitioned its build side (join.c) before the scan began */
  bool unstaged;
  /* EXPLAIN ANALYZE: rows given and nanoseconds spent (atomic adds) */
  int64_t rows, ns;
  /* what the operator wrote to spill files (spill.h; atomic adds) */
  int64_t spill_bytes, spill_files;
  /* a join's table made in parts on several threads (join.c): the most
  ** parts and threads it took */
  int table_parts, table_threads;
};

/* The operators of the plan root (numbered by sql_node_number()) into
** x->ops; *out is root's.  Nothing is opened.  CHV_ENOTSUP naming the
** node for what cannot run (a join). */
int sql_exec_build(struct sql_exec *x, const struct sql_node *root,
                   struct sql_op **out, struct chv_error *err);
/* Closes every operator of x and frees them. */
void sql_exec_free(struct sql_exec *x);
/* Opens op, then its inputs (the operators a scan's stage uses are ready
** before its reader threads start); once. */
int sql_op_open(struct sql_op *op, struct chv_error *err);
int sql_op_next(struct sql_op *op, struct sql_chunk *out,
                struct chv_error *err);
/* The options a Scan node opens its scan with (x NULL: without the
** execution's cancel flag, progress and configuration). */
void sql_scan_node_options(const struct sql_node *nd, const struct sql_exec *x,
                           struct chv_scan_options *so);
/* The scan a Scan operator reads (opened), or NULL. */
chv_scan *sql_op_scan(const struct sql_op *op);
/* Nanoseconds from a monotonic clock. */
int64_t sql_exec_now(void);
/* Adds to an operator's counts (any thread). */
void sql_op_count(struct sql_op *op, int64_t rows, int64_t ns);
/* CHV_ECANCELED (err set) once x's flag is set. */
int sql_exec_cancelled(const struct sql_exec *x, struct chv_error *err);

/* ---- shared by the operators (op_*.c) ---- */

/* A selection vector that grows with the batches it serves. */
struct sql_sel {
  uint32_t *sel;
  int64_t cap;
};
int sql_sel_reserve(struct sql_sel *s, int64_t n, struct chv_error *err);
/* A STRUCT of nd's columns (c0, c1, ...: names need not be unique). */
int sql_node_schema(const struct sql_node *nd, struct chv_type **out,
                    struct chv_error *err);

/* The bound a TopN tightens as it reads (the scan's chv_scan_bound), or
** NULL: the Scan operator below op through Filters whose node has a
** bound_column. */
chv_scan_bound *sql_op_bound(struct sql_op *op);

/* ---- dynamic filtering (dynfilter.c) ---- */

/* The build keys of a Join node whose probe side's Scan they filter at
** run time (its dyn_scan): as the join reads its build side, each chunk's
** keys are added; once it has ended, the keys of the node's dyn_cols, their
** range and, when there are at most SQL_DYN_SET of them, their set, go to
** the Scan, which opens with them: the partitions of partition keys not
** among them pruned (by the catalog), the row groups and stripes of data
** columns outside their range skipped; and, when there are at most
** SQL_DYN_ROWS of them (SQL_DYN_INT_ROWS of an integer or DATE key, kept
** in an array as they come and, past what it may hold, in a chv_intset),
** each key's set filters the scan's rows (on the
** reader threads, before the operators of its stage), so that an
** Aggregate between the join and the scan groups only rows the join can
** match.  NULL keys are left out (they match nothing).  A zeroed struct
** does nothing (no dyn_scan, or EXPLAIN). */
enum { SQL_DYN_SET = 1024, SQL_DYN_ROWS = 65536, SQL_DYN_INT_ROWS = 1 << 20 };
struct sql_dyn_key;
struct sql_dynfilter {
  const struct sql_node *join;
  struct sql_dyn_key *keys;  /* per key of the join; NULL: nothing to do */
  int nkeys;
  size_t cap;                /* bytes one key's integer set may take (a
                             ** quarter of the operator memory, at least
                             ** 4 MiB); past it its rows go unfiltered */
};
/* d for the join nd (zeroed when it filters nothing).  CHV_ENOMEM. */
int sql_dynfilter_init(struct sql_dynfilter *d, const struct sql_exec *x,
                       const struct sql_node *nd, struct chv_error *err);
/* A build chunk's keys: kv[k] rows [0, n) for key k.  CHV_ENOMEM. */
int sql_dynfilter_add(struct sql_dynfilter *d, struct chv_vector *const *kv,
                      int64_t n, struct chv_error *err);
/* The build side has ended: the Scan opens with the keys' filter (nothing
** when it opened already).  CHV_ENOMEM, or the scan's open errors. */
int sql_dynfilter_give(struct sql_dynfilter *d, struct sql_exec *x,
                       struct chv_error *err);
void sql_dynfilter_free(struct sql_dynfilter *d);
/* One join key's build values that filter the probe Scan's rows: row r
** passes when its value of the column is in set (an integer or DATE as its
** 8 bytes, a string as its bytes: how sql_dyn_key keeps them). */
struct sql_rowkeys {
  const char *column;         /* the Scan's column (canonical name) */
  enum chv_type_id id;
  struct chv_keyset set;
  /* one bit per hash value (bits 20 up, masked) of the set's keys, 16
  ** bits a key: most rows not in the set are told by it without a probe
  ** (the Scan builds it; NULL: none) */
  uint64_t *bloom;
  uint64_t bmask;
  /* an integer or DATE key: its keys as integers (the join's iset, set
  ** empty past SQL_DYN_SET keys), tested with a multiply and (mostly) one
  ** load; its bloom bits then come from the top bits of another multiply
  ** (bshift); */
  bool is_int;
  struct chv_intset iset;
  int64_t *ints;              /* or the keys as the join saw them,
                              ** duplicates too (chv_malloc'd; the Scan
                              ** makes its bit map or iset of them) */
  size_t nints;
  int bshift;
  /* the keys' least value and the values from it to the greatest (as the
  ** join saw them); when they are few enough, bits holds one bit per value:
  ** exact, and tested without a branch */
  uint64_t *bits;
  int64_t lo;
  uint64_t range;
};
/* Frees rk's sets and maps, and zeroes it. */
void sql_rowkeys_free(struct sql_rowkeys *rk);
/* Opens the Scan operator op deferred for its join (a no-op when it is
** open), with filter AND-ed to its node's partition filter, preds added
** to its predicates and its rows filtered by the nrk key sets rk; a and rk
** (an array of malloc(), its sets too; taken, freed with the operator) hold
** them and text, what EXPLAIN ANALYZE says of them. */
int sql_op_scan_start(struct sql_op *op, chv_arena *a,
                      struct chv_part_filter *filter,
                      const struct chv_pred *preds, int npreds,
                      struct sql_rowkeys *rk, int nrk,
                      const char *text, struct chv_error *err);
/* The text of the run-time filter Scan operator op opened with, or NULL. */
const char *sql_op_scan_dynamic(const struct sql_op *op);

/* The hash join of a Join node (join.c). */
/* A Join node staged by the physical plan probes on the reader threads of
** the scan below its probe side: once its build side is held in memory
** (not partitioned), sql_join_probe_staged() is true and the scan's stage
** gives each batch's rows sel[0, n) of b (the probe side's columns)
** joined, as a batch of the join's columns the caller owns; *state is the
** reader thread's (NULL at first, freed by sql_join_probe_free()). */
bool sql_join_probe_staged(const struct sql_op *op);
int sql_join_probe_batch(struct sql_op *op, void **state,
                         const struct chv_batch *b, const uint32_t *sel,
                         int64_t n, struct chv_batch **out,
                         struct chv_error *err);
void sql_join_probe_free(void *state);
/* The staged joins below staged node op's operator on its probe side build
** their tables (not yet built), so that each knows, and has marked the
** nodes above it unstaged where it does not probe on the reader threads,
** before the scan begins: a staged operator calls it before it first
** passes its input on. */
int sql_stage_prepare(struct sql_op *op, struct chv_error *err);
int sql_op_join_new(struct sql_exec *x, const struct sql_node *nd,
                    struct sql_op **out, struct chv_error *err);

/* Sort and TopN (sort.c). */
int sql_op_sort_new(struct sql_exec *x, const struct sql_node *nd,
                    struct sql_op **out, struct chv_error *err);
/* The order of row i of keys ka and row j of kb (one vector per key): < 0
** when i comes first, 0 when they tie (Hive's NULL order). */
int sql_sort_cmp(struct chv_vector *const *ka, int64_t i,
                 struct chv_vector *const *kb, int64_t j,
                 const struct sql_sort_key *keys, int nkeys);
/* perm[0, n) := the rows 0..n-1 of keys (one vector per key) in the
** keys' order, stably (sql_sort_cmp()'s order; nkeys 0: as they are).
** CHV_ECANCELED once x's flag is set (perm then in no order), CHV_ENOMEM. */
int sql_sort_perm(const struct sql_exec *x, struct chv_vector *const *keys,
                  const struct sql_sort_key *k, int nkeys, int64_t n,
                  uint32_t *perm, struct chv_error *err);

/* The Window operator (window.c). */
int sql_op_window_new(struct sql_exec *x, const struct sql_node *nd,
                      struct sql_op **out, struct chv_error *err);

#endif
