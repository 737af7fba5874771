/*
** sql/plan/node: the plan of a query, a tree of relational nodes.
**
** The session builds the logical plan from the parsed query as it binds
** names (build.c of sql/session: tables, views and WITH queries resolved,
** expressions bound with the binder of plan.h), the rewrite passes
** (rewrite.c) change it in place, and the physical pass (physical.c)
** places stages on the reader threads.  The tree is then read-only: the
** executor (sql/exec/op.h) keeps the state of each node in a parallel
** tree of operators, and EXPLAIN prints the tree.
**
** Every expression of a node is bound over the output columns of its
** input (in[0]): a COLUMN expression's `column` is a place in the input's
** cols.  Filter, Sort, TopN and Limit give their input's columns; Scan,
** Values, Project, Aggregate, Union and Derived give their own; Window
** its input's, then one per window call.
**
**   Sink -> Project -> TopN -> Filter -> Scan
**
** Nodes, their column lists and expressions live in the plan's arena;
** what a node borrows (a catalog, a table) outlives the plan.
**
** INTERFACE
**   sql_node_new()               a node of a kind over inputs
**   sql_node_cols()              its output columns, allocated
**   sql_node_input_cols()        the columns its expressions read
**   sql_expr_remap()             an expression with its columns renumbered
**   sql_expr_columns()           the columns an expression reads
*/
#ifndef CHV_SQL_PLAN_NODE_H
#define CHV_SQL_PLAN_NODE_H

#include "chive/catalog.h"
#include "chive/connector.h"
#include "chive/sql.h"
#include "sql/plan/expr.h"

enum sql_node_kind {
  SQL_NODE_SCAN,      /* a catalog table's rows, read by chv_scan */
  SQL_NODE_VALUES,    /* rows of constants (VALUES, a query without FROM) */
  SQL_NODE_FILTER,    /* the rows where pred is TRUE */
  SQL_NODE_PROJECT,   /* one expression per output column */
  SQL_NODE_AGGREGATE, /* hash aggregation: keys, then the aggregates */
  SQL_NODE_SORT,      /* every row, in the keys' order */
  SQL_NODE_TOPN,      /* the first limit rows in the keys' order */
  SQL_NODE_LIMIT,     /* the first n rows */
  SQL_NODE_UNION,     /* UNION ALL: each input's rows in turn */
  SQL_NODE_DERIVED,   /* a sub-query's, WITH query's or view's rows, named */
  SQL_NODE_JOIN,      /* two inputs joined by a hash join (exec/join.c) */
  SQL_NODE_SINK,      /* the rows written to a target (an INSERT's) */
  SQL_NODE_MULTI,     /* a multi-insert: its Sinks (in[0..nin-1)) fed from
                      ** its source (in[nin-1]), read once */
  SQL_NODE_TEE,       /* a Multi's source rows, in a branch: the chunk the
                      ** Multi reads now */
  SQL_NODE_REPEAT,    /* each input row as many times as its last column
                      ** (BIGINT) says: INTERSECT ALL, EXCEPT ALL */
  SQL_NODE_EXPAND,    /* each input row once per grouping set, under the
                      ** Aggregate of GROUPING SETS, ROLLUP and CUBE: its
                      ** columns, the keys (NULL where the set leaves one
                      ** out) and the set's ids */
  SQL_NODE_WINDOW     /* its input's columns, then one per window function
                      ** over the rows sorted by its keys */
};

/* A window function of a Window node (OVER). */
enum sql_win_fn {
  SQL_WIN_ROW_NUMBER,
  SQL_WIN_RANK,
  SQL_WIN_DENSE_RANK,
  SQL_WIN_PERCENT_RANK,
  SQL_WIN_CUME_DIST,
  SQL_WIN_NTILE,
  SQL_WIN_LAG,
  SQL_WIN_LEAD,
  SQL_WIN_FIRST_VALUE,
  SQL_WIN_LAST_VALUE,
  SQL_WIN_AGG           /* an aggregate (agg) over the frame */
};

/* One window function of a Window node.  Its PARTITION BY keys are the
** node's first npart keys, its ORDER BY keys the norder after them, so
** that calls whose keys are a prefix of one sort share it. */
struct sql_win_call {
  enum sql_win_fn fn;
  enum chv_agg_fn agg;          /* SQL_WIN_AGG */
  struct chv_expr *arg;         /* the value argument; NULL: none, COUNT(*) */
  struct chv_expr *dflt;        /* LAG/LEAD's default (of arg's type) or NULL */
  int64_t n;                    /* NTILE's buckets, LAG/LEAD's offset */
  bool skip_nulls;              /* FIRST_VALUE/LAST_VALUE(x, true) */
  int npart, norder;
  /* the frame (functions over one): ROWS or RANGE, its bounds
  ** (enum chv_sql_frame_bound) and their offsets */
  bool range;
  int start, end;
  int64_t start_n, end_n;
  /* RANGE with n PRECEDING or FOLLOWING (its one ORDER BY key, the
  ** call's order key): each offset in the terms of the key's type */
  struct sql_win_offset {
    chv_i128 n;      /* integers; decimals: unscaled at the key's scale */
    double d;        /* FLOAT, DOUBLE */
    int32_t months;  /* DATE, TIMESTAMP: an INTERVAL's months, */
    chv_i128 nanos;  /* and its weeks, days, ... in nanoseconds */
  } off[2];          /* the start's, the end's */
  const char *text;             /* EXPLAIN: "rank() OVER (...)" */
};

/* One output column of a node. */
struct sql_col {
  const char *name;            /* as the query names it */
  const struct chv_type *type;
  struct chv_sql_pos pos;      /* the select item that gives it, if any */
};

/* One condition (a conjunct of ON or WHERE): as parsed (text, pushdown
** into scans) and bound over the columns of the node it is on. */
struct sql_conj {
  const struct chv_sql_expr *ast;
  struct chv_expr *bound;
};

struct sql_sort_key {
  struct chv_expr *expr;       /* over the input's columns */
  bool desc;
  int nulls;                   /* 0: Hive's (FIRST for ASC), 1 FIRST, 2 LAST */
};

/* Nodes at most in a scan's stage (physical.c). */
enum { SQL_STAGE_MAX = 16 };

/* The estimated rows past which a build side that is its whole table
** filters no probe rows by its keys' set (joins.c, dynamic filtering). */
enum { SQL_DYN_WHOLE = 65536 };

struct sql_node {
  enum sql_node_kind kind;
  struct sql_node **in;        /* inputs */
  int nin;
  struct sql_col *cols;        /* output columns */
  int ncols;
  int id;                      /* 0.. in the plan (sql_node_number()) */
  /* EXPLAIN's line without the kind ("(a > 1)", "[a, b AS c]"); NULL:
  ** the kind's name alone */
  const char *text;
  /* Where a failure at run time points (the ORDER BY, the GROUP BY). */
  struct chv_sql_pos pos;
  /* physical: run on the reader threads, in the stage of the scan below
  ** (physical.c) */
  bool on_readers;
  union {
    struct {
      chv_catalog *cat;              /* borrowed */
      const struct chv_table *t;     /* borrowed */
      /* the table columns read (ncols of them), canonical names */
      const char **columns;
      struct chv_part_filter *filter; /* partition pruning, or NULL */
      const char *filter_text;        /* as EXPLAIN prints it */
      struct chv_pred *preds;         /* pushed into the readers */
      int npreds;
      int64_t limit;                  /* pushed; -1: none */
      /* TABLESAMPLE (kind CHV_SAMPLE_NONE: none) and EXPLAIN's text of it
      ** ("10 ROWS"); a sample by rows takes no reader predicates, top-N
      ** bound or dynamic filter (they would change a split's first rows),
      ** a sample by size no dynamic filter (pruning changes the bytes) */
      struct chv_scan_sample sample;
      const char *sample_text;
      const struct chv_kv *options;   /* OPTIONS hint */
      int noptions;
      /* the top-N bound (rewrite.c): the column, CHV_PRED_GE or _LE */
      const char *bound_column;
      int bound_op;
      bool one_reader;                /* the bound reads best on one */
      bool pos_any;                   /* pos is where any failure points
                                      ** (else only a literal's) */
      int threads;                    /* physical: reader threads; 0 */
      double est_rows;                /* its table's rows, as the
                                      ** statistics say; 0: unknown */
      /* per column read: its distinct values as the column statistics
      ** say (ANALYZE ... FOR COLUMNS), 0 where unknown; NULL: none; and
      ** the least and greatest value of a numeric or DATE column (NAN:
      ** unknown) */
      double *est_ndv, *est_lo, *est_hi;
      /* the join whose build keys filter it at run time (joins.c,
      ** dynamic filtering), or NULL: the scan opens once that join has
      ** built, with the keys' partitions and range (sql/exec/dynfilter.c) */
      const struct sql_node *dyn_join;
      /* physical: the nodes above run in its stage, lowest first */
      struct sql_node *stage[SQL_STAGE_MAX];
      int nstage;
    } scan;
    struct {
      int64_t nrows;
      /* row r's column c: exprs[r * ncols + c] (constants, of the
      ** column's type); NULL: nrows rows of NULLs (of no columns) */
      struct chv_expr **exprs;
      /* or these rows, of the node's columns (a WITH query's rows held
      ** for the statement; borrowed, exprs NULL) */
      const struct chv_batch *rows;
    } values;
    struct {
      const struct sql_node *multi;   /* whose source it gives */
    } tee;
    struct {
      struct chv_expr *pred;
      /* WHERE as parsed and its conjuncts, each with its bound form, for
      ** the pushdown of rewrite.c (where NULL: not a WHERE, or pushed) */
      const struct chv_sql_expr *where;
      const struct chv_sql_expr **conj;
      struct chv_expr **bound;
      size_t nconj;
    } filter;
    struct {
      struct chv_expr **exprs;        /* ncols of them */
    } project;
    struct {
      int nkeys, naggs;
      struct chv_expr **keys;         /* over the input */
      const enum chv_agg_fn *fns;
      struct chv_expr **args;         /* NULL for COUNT(*) */
      bool distinct;                  /* SELECT DISTINCT (EXPLAIN) */
      const char *keys_text, *aggs_text;
      /* groups there also for no input (an empty grouping set's grand
      ** total): seed s's key k is seeds[s * nkeys + k], a constant */
      struct chv_expr **seeds;
      int nseeds;
    } agg;
    struct {
      struct sql_sort_key *keys;
      int nkeys;
      int64_t limit;                  /* TOPN */
      const char *keys_text;
    } sort;
    struct {
      int64_t n;                      /* rows given; -1: all */
      int64_t offset;                 /* rows skipped first */
    } limit;
    struct {
      const char *what;               /* "sub-query s", "view db.v" */
      int *map;                       /* output column -> input column */
    } derived;
    struct {
      /* INNER, LEFT, RIGHT, FULL, CROSS, SEMI or ANTI (SEMI and ANTI give
      ** the left input's columns only; the others left's, then right's) */
      enum chv_sql_join_kind kind;
      /* The conditions of ON (and, after the pushdown pass, of a WHERE
      ** above), over the left's then the right's columns, with their text;
      ** the pushdown pass moves them into keys, cond or an input. */
      struct sql_conj *conj;
      int nconj;
      /* equi-keys: lkeys[i] over in[0] = rkeys[i] over in[1], of one type;
      ** null_safe[i]: <=>, whose NULLs match */
      struct chv_expr **lkeys, **rkeys;
      bool *null_safe;
      int nkeys;
      /* the rest of the condition, over the left's then the right's
      ** columns, or NULL; pairs of rows whose cond is not TRUE do not
      ** match */
      struct chv_expr *cond;
      const char *keys_text, *cond_text;
      bool build_left;                /* in[0] is the hash table's side */
      double est[2];                  /* the inputs' rows as estimated */
      bool ordered;                   /* made by the order pass */
      /* physical: the probe runs in the stage of the scan below its probe
      ** side, on the reader threads (the build held in memory) */
      bool staged;
      /* dynamic filtering: the probe side's table Scan its build keys
      ** filter at run time, or NULL; per key, the Scan's column (a
      ** canonical name) the key is, or NULL: not used; dyn_part[i]: that
      ** column is a partition key whose partitions are pruned */
      struct sql_node *dyn_scan;
      const char **dyn_cols;
      bool *dyn_part;
      /* the build side is a whole table of many rows (no filter, more
      ** than SQL_DYN_WHOLE = 65,536 estimated): its keys filter row
      ** groups by their range, not rows by their set */
      bool dyn_no_rows;
      /* the share of the scan's rows its keys may keep, as estimated */
      double dyn_share;
    } join;
    struct {
      int nsets;
      /* grouping set s's column c: exprs[s * ncols + c], over the input:
      ** the input's columns, then the keys (a key or a NULL), then the
      ** ids (constants) */
      struct chv_expr **exprs;
    } expand;
    struct {
      struct sql_sort_key *keys;      /* partition keys, then order keys */
      int nkeys;
      struct sql_win_call *calls;     /* one per column after the input's */
      int ncalls;
      /* rows kept per partition (ROW_NUMBER's top-N, rewrite.c): the rows
      ** of a partition after the first limit by calls[limit_call] (a
      ** ROW_NUMBER, RANK or DENSE_RANK) go; -1: all */
      int64_t limit;
      int limit_call;
      const char *keys_text;          /* EXPLAIN */
    } window;
    struct {
      const char *what;               /* EXPLAIN: "default.t2: ..." */
      void *target;                   /* the session's; borrowed */
      const struct chv_type *schema;  /* the target's columns; borrowed */
      void *at;                       /* EXPLAIN: the node its input's plan
                                      ** goes under (the target's), or NULL */
    } sink;
  } u;
};

/* A node of kind over inputs (copied; n of them), with no columns; *out in
** the arena.  CHV_ENOMEM. */
int sql_node_new(chv_arena *a, enum sql_node_kind kind,
                 struct sql_node *const *in, int n, struct sql_node **out,
                 struct chv_error *err);
/* n output columns for nd, zeroed. */
int sql_node_cols(chv_arena *a, struct sql_node *nd, int n,
                  struct chv_error *err);
/* Gives nd the columns of its input (Filter, Sort, TopN, Limit, Sink). */
int sql_node_pass_cols(chv_arena *a, struct sql_node *nd,
                       struct chv_error *err);
/* Numbers the nodes of the tree (preorder from 0); returns how many. */
int sql_node_number(struct sql_node *root);
/* The kind's name as EXPLAIN prints it ("Filter", "TopN"). */
const char *sql_node_kind_name(enum sql_node_kind k);

/* Calls fn on each expression slot of nd (the expressions over its input),
** stopping at the first error. */
int sql_node_exprs(struct sql_node *nd,
                   int (*fn)(void *ctx, struct chv_expr **slot), void *ctx);
/* e with each COLUMN c replaced by COLUMN map[c] (a copy of what changes,
** in the arena; shared subtrees are copied, never changed in place). */
int sql_expr_remap(chv_arena *a, const struct chv_expr *e, const int *map,
                   struct chv_expr **out, struct chv_error *err);
/* Sets used[c] for each column e reads. */
void sql_expr_columns(const struct chv_expr *e, bool *used);
/* True when e reads no column (a constant, as far as the registry's
** functions are pure). */
bool sql_expr_constant(const struct chv_expr *e);
/* The rows a node gives, as estimated from the tables' statistics
** (numRows) and rough selectivities; >= 1. */
double sql_node_estimate(const struct sql_node *nd);

#endif
