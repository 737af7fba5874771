/*
** sql/plan/physical: the physical plan.  Each table Scan gets its reader
** threads (the parallelism Flink's Hive source infers, through the
** session's callback), and the nodes right above it that work batch by
** batch run in its stage, on those threads:
**
**   Scan -> [Filter] -> [Project | [Expand] Aggregate] -> [Sink] (not
**           each batch   each batch | a partial per      after an
**                                     split, of each     Aggregate): an
**                                     grouping set       INSERT's rows
**                                                        written where read
**
** or, with several threads, Scan -> [Filter] -> [Project] -> Join ->
** [Project] -> Join ... -> [Aggregate]: the probes of a chain of joins,
** each of whose probe side is what the stage gives below it
** (probe_stages()), each batch joined to each build side's table, and
** their rows' partial aggregates; once a join's build side is past the
** memory bound, the stage ends below it and the nodes from it up run on
** the consuming thread (sql/exec: the ops "unstaged").
**
** The stage hands its batches back in split order, so what a query gives
** does not depend on the threads: an Aggregate's partials fold in split
** order, a Sink writes on the readers only when nothing above it counts
** rows (no Limit) and the scan has several threads.
*/
#include "sql/plan/plan.h"

/* Whether join nd's probe of input `below` can run on the reader threads:
** a join with keys whose probe side is below and which keeps nothing of
** its build side (INNER, a LEFT or RIGHT join preserving the probe side,
** a SEMI or ANTI join probing its left side); not NOT IN, whose NULLs
** the whole build side tells. */
static bool probe_stages(const struct sql_node *nd, const struct sql_node *below) {
  if (nd->kind != SQL_NODE_JOIN || !nd->u.join.nkeys) return false;
  int pside = nd->u.join.build_left ? 1 : 0;
  if (nd->in[pside] != below) return false;
  switch (nd->u.join.kind) {
  case CHV_SQL_JOIN_INNER: return true;
  case CHV_SQL_JOIN_LEFT:
  case CHV_SQL_JOIN_SEMI:
  case CHV_SQL_JOIN_ANTI: return pside == 0;
  case CHV_SQL_JOIN_RIGHT: return pside == 1;
  default: return false;
  }
}

static void stage(struct sql_rewrite *rw, struct sql_node *scan,
                  struct sql_node **above, int nabove) {
  if (rw->threads)
    scan->u.scan.threads =
        scan->u.scan.one_reader ? 1 : rw->threads(rw->threads_ctx, scan);
  if (!rw->threads) return; /* only explained: nothing runs */
  int i = nabove - 1;
  struct sql_node **st = scan->u.scan.stage;
  int n = 0;
  if (i >= 0 && above[i]->kind == SQL_NODE_FILTER) st[n++] = above[i--];
  bool agg = false;
  /* an Expand joins the stage of the Aggregate right above it */
  if (i >= 1 && above[i]->kind == SQL_NODE_EXPAND &&
      above[i - 1]->kind == SQL_NODE_AGGREGATE)
    st[n++] = above[i--];
  if (i >= 0 && (above[i]->kind == SQL_NODE_PROJECT ||
                 above[i]->kind == SQL_NODE_AGGREGATE)) {
    agg = above[i]->kind == SQL_NODE_AGGREGATE;
    st[n++] = above[i--];
  }
  /* a join probing these rows with its build held in memory, when the scan
  ** reads on several threads: the probe runs there too */
  /* then the joins of a chain probing the rows each gives, a Project of
  ** their columns between or after them */
  bool join = false;
  while (!agg && i >= 0 && scan->u.scan.threads > 1 && n + 2 <= SQL_STAGE_MAX &&
         probe_stages(above[i], n ? st[n - 1] : scan)) {
    join = true;
    above[i]->u.join.staged = true;
    st[n++] = above[i--];
    if (i >= 0 && above[i]->kind == SQL_NODE_PROJECT) st[n++] = above[i--];
  }
  /* and the Aggregate of their rows, a partial per split */
  if (join && i >= 0 && above[i]->kind == SQL_NODE_AGGREGATE) st[n++] = above[i--];
  if (!agg && !join && i >= 0 && above[i]->kind == SQL_NODE_SINK &&
      scan->u.scan.threads > 1 && rw->shared_sink &&
      rw->shared_sink(rw->threads_ctx, above[i]))
    st[n++] = above[i--];
  for (int k = 0; k < n; k++) st[k]->on_readers = true;
  scan->u.scan.nstage = n;
}

static void walk(struct sql_rewrite *rw, struct sql_node *nd,
                 struct sql_node **above, int nabove) {
  if (nd->kind == SQL_NODE_SCAN) {
    stage(rw, nd, above, nabove);
    return;
  }
  struct sql_node *stack[64];
  int m = nabove < 63 ? nabove : 63;
  for (int i = 0; i < m; i++) stack[i] = above[nabove - m + i];
  stack[m] = nd;
  for (int i = 0; i < nd->nin; i++) walk(rw, nd->in[i], stack, m + 1);
}

int sql_physical(struct sql_rewrite *rw, struct sql_node *root) {
  walk(rw, root, NULL, 0);
  return CHV_OK;
}
