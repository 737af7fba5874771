/*
** sql/exec/join: the hash join operator of a Join node (node.h).
**
** The build side (in[1], or in[0] when the node says build_left) is read
** whole first: its rows are kept in one batch, and each row whose keys
** hold no NULL (but for <=> keys) joins the chain of its key, a byte
** string (chv_keyrows_encode()) numbered by a chv_keyset, or, for one key
** of an integer type or DATE, its value numbered by a chv_intset (no bytes
** encoded), or for two such keys their values packed into one integer
** while they take 32 bits each (key_ints(); past that, the table is made
** again of bytes: unpack()); a join without keys (CROSS, or only a
** residual condition) has one chain of every row.
** The build side is held whole before its table is made: each row's key
** waits in the list of one part (one thread) or of one of TB_PARTS parts a
** thread (sql_exec's threads > 1) by its hash (tpart_of()), and once the
** input has ended the parts are made at once on a pool of as many threads
** (make_table()), each its own key set, sized once for its rows, whose ids
** index head, tail and clen from its base; a probe looks a key up in its
** key's part.  A partitioned join's pairs, and a join without keys, make
** theirs as the rows come (add_rows()).  Each part takes
** its rows in row order, so chains are in row order either way.
** Then each chunk of the probe side looks its rows' keys up:
**
**   fetch --> pairs --> pairs ... --> tail --> fetch ... --> rest --> end
**
** pairs    up to PAIRS (probe row, build row) pairs of equal keys, in probe
**          then build order, gathered into one batch of the left's then
**          the right's columns; the residual condition picks those that
**          match, and the probe and build rows of a match are marked
** tail     the probe rows the kind keeps by their mark: the matched ones
**          of a SEMI join, the unmatched ones of an ANTI join, the
**          unmatched ones of an outer join's preserved side (with NULLs
**          for the build side's columns)
** rest     after the last probe chunk, the build rows the kind keeps by
**          their mark (the build side of an outer join preserved, or a SEMI
**          or ANTI join that builds its left side)
**
** NULL keys never match.  The build side's bytes are bounded by the
** operator memory (chive.exec.operator-memory).  Past it a join with keys
** turns into a partitioned (Grace) hash join: the rows of the build side,
** held and still to come, then all the probe side's, go to JOIN_PARTS
** pairs of spill files by the hash of their keys (rows with a NULL key,
** which match nothing, dealt round); then each pair is joined alone,
** its build file read into the table and its probe file probed, by the
** same steps as above.  A build file still past the bound is partitioned
** again (both files, by a hash of the next level), up to JOIN_MAX_LEVEL
** levels; then the join fails naming the setting (one key's rows alone
** pass it).  A join without keys past the bound becomes a nested loop over
** blocks: both sides go to a file each, and each block of build rows that
** fits the bound is probed with the whole probe file; the probe rows'
** marks (one byte a row, in memory) gather over the blocks, and the probe
** rows given by their mark (unmatched, semi, anti) are given with the
** last block, the build rows by theirs with each block.
*/
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAIRS = 4096 };
/* A staged probe joins a batch's rows whole: only while no key has more
** build rows than this, so that a batch's pairs stay a bounded multiple
** of its rows (past it the consuming thread probes, PAIRS at a time). */
enum { STAGE_MAXCHAIN = 64 };
#define JOIN_MAX_LEVEL_N 5      /* levels of partitions at most */
#define CHV_STR2_(x) #x
#define CHV_STR_(x) CHV_STR2_(x)
enum { JOIN_PARTS = 16, JOIN_MAX_LEVEL = JOIN_MAX_LEVEL_N - 1 };
/* A table made on several threads has TB_PARTS parts a thread (at most
** JOIN_TPARTS), so that uneven parts still keep the threads busy; one of
** fewer than TB_MIN rows is made on the consuming thread alone. */
enum { JOIN_TPARTS = 64, TB_PARTS = 4, TB_MIN = 32768 };

/* A pair of partition files waiting to be joined. */
struct join_part {
  struct sql_spill *bf, *pf;    /* build rows, probe rows (or NULL: none) */
  int level;
};

enum jstate { J_FETCH, J_PAIRS, J_TAIL, J_REST, J_END };

/* A build row waiting for a deferred table, in its part's list: its key
** (an integer key itself, else its hash and bytes, which the chunk's key
** rows hold) and its row. */
struct join_dent {
  int64_t k;                  /* the key (ikey), or its hash */
  const char *key;
  uint32_t len, row;
};

/* A part of the build side's table: the keys whose hash falls in its range
** (one part holds them all, but in a table made on several threads), as
** bytes or as integers; its keys' entries of head, tail and clen start at
** base. */
struct join_tpart {
  struct chv_keyset ks;
  struct chv_intset is;
  int64_t base;
  struct join_dent *ent;      /* deferred: its rows in row order */
  int64_t nent, capent;
};

struct join_op {
  struct sql_op op;
  int bside, pside;          /* the inputs that build and probe */
  int ncol[2];               /* columns of in[0], in[1] */
  int nout;                  /* columns given */
  int nkeys;
  struct chv_expr *const *bkeys, *const *pkeys;
  enum chv_sql_join_kind kind;
  bool keep_probe, keep_build; /* unmatched rows of that side are given */
  bool semi, anti;
  bool not_in;               /* NOT IN: NULLs of either side count */
  bool build_null;           /* a build row's key is NULL */
  bool built;
  /* the build side */
  struct chv_type *bschema;
  struct chv_batch *bb;
  bool ikey;                  /* one integer key: numbered by is, not ks */
  bool pack;                  /* two, packed into one integer (key_ints()) */
  struct join_tpart tp[JOIN_TPARTS]; /* the table's parts [0, ntp), by
                              ** the keys' hash */
  int ntp;
  bool deferred;              /* the table is made once all rows are in,
                              ** its parts on the pool's threads */
  struct chv_keyrows *dkr;    /* deferred: the chunks' keys as bytes */
  int64_t ndkr, capdkr;
  size_t dbytes;              /* the bytes they and the parts' rows take */
  int64_t *head, *tail;       /* per key entry (a part's base + its key's
                              ** id): its chain's first, last row */
  int64_t nheads, capheads, captail;
  int64_t *clen, capclen;     /* per key id: its chain's rows */
  int64_t maxchain;           /* the longest chain's rows */
  int64_t *nextrow;           /* per build row: the next of its chain */
  int64_t capnext;
  uint8_t *bmatched;          /* per build row (keep_build, semi or anti) */
  /* scratch */
  struct chv_vector **kv;
  struct chv_keyrows kr;        /* keys of the rows in kv, as bytes */
  int64_t *ik, capik;           /* or as integers (ikey) */
  /* the probe chunk */
  struct sql_chunk pc;
  int64_t pi;                 /* its row at work */
  int64_t chain;              /* that row's next build row, or -1 */
  int64_t *first;             /* per probe row: its chain's first row */
  uint8_t *pmatched;
  int64_t capprobe;
  /* pairs: probe rows (of pc.b) and build rows */
  uint32_t *pp, *bp;
  int64_t npairs;
  struct chv_type *cschema;   /* in[0]'s columns, then in[1]'s */
  struct chv_batch *cb, view;
  struct sql_sel sel;
  enum jstate state;
  int64_t rest;               /* J_REST: the next build row */
  struct sql_dynfilter dyn;   /* the build keys for the probe's scan */
  /* staged: the probe runs on the scan's reader threads (the build held
  ** in memory), each batch joined as a batch of oschema */
  bool staged_on;
  bool prepared;              /* the staged joins below have built */
  struct chv_type *oschema;
  /* the partitioned join: the pairs waiting (parts[at, nparts), a stack), the one
  ** being joined, and its frames as they are read */
  bool grace;
  struct join_part *parts, cur;
  int nparts, partcap, at;
  struct chv_type *pschema;
  struct chv_batch *fb, *pb;  /* a build frame, a probe frame */
  uint64_t nullturn;          /* the partition of the next NULL key */
  bool parting_build;         /* the rows partitioned are the build side's */
  int64_t build_rows;         /* rows of the whole build side (once spilled) */
  /* a join without keys past the bound: a nested loop over blocks of the
  ** build file (cur.bf), each probed with the whole probe file (cur.pf) */
  bool nl, nl_last, nl_pending;  /* the block is the last; fb holds the
                                 ** next block's first frame */
  uint8_t *gmatch;            /* per probe row: matched in some block */
  int64_t pbase, pnext;       /* the probe chunk's first row, the next's */
};

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* The part of a table of ntp parts a key of hash h falls in: its high 32
** bits mapped onto [0, ntp) (always 0 for one part). */
static inline int tpart_of(int ntp, uint64_t h) {
  return (int)(((h >> 32) * (uint64_t)ntp) >> 32);
}

/* The hash an integer key's part is chosen by: another multiplier than the
** one chv_intset takes its slots from, so that the keys of one part still
** spread over all its slots. */
static inline uint64_t ikey_hash(int64_t k) {
  return (uint64_t)k * 0xD6E8FEB86659FD93ull;
}

static void free_deferred(struct join_op *j) {
  for (int64_t c = 0; c < j->ndkr; c++) chv_keyrows_free(&j->dkr[c]);
  free(j->dkr);
  j->dkr = NULL;
  j->ndkr = j->capdkr = 0;
  for (int p = 0; p < j->ntp; p++) {
    free(j->tp[p].ent);
    j->tp[p].ent = NULL;
    j->tp[p].nent = j->tp[p].capent = 0;
  }
  j->dbytes = 0;
}

/* Frees the table's key sets and the keys of a deferred one (it is one
** part again). */
static void free_table(struct join_op *j) {
  free_deferred(j);
  for (int p = 0; p < j->ntp; p++) {
    chv_keyset_free(&j->tp[p].ks);
    chv_intset_free(&j->tp[p].is);
    j->tp[p] = (struct join_tpart){0};
  }
  j->ntp = 1;
  j->deferred = false;
}

/* A STRUCT of in[0]'s columns, then in[1]'s. */
static int pair_schema(const struct sql_node *nd, struct chv_type **out,
                       struct chv_error *err) {
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) return oom(err);
  int c = 0;
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < nd->in[i]->ncols; k++, c++) {
      struct chv_type *ct;
      char name[32];
      snprintf(name, sizeof name, "c%d", c);
      if (chv_type_clone(nd->in[i]->cols[k].type, &ct) != CHV_OK ||
          chv_type_struct_add(st, name, ct) != CHV_OK) {
        chv_type_free(st);
        return oom(err);
      }
    }
  *out = st;
  return CHV_OK;
}

static int join_open(struct sql_op *op, struct chv_error *err) {
  struct join_op *j = (struct join_op *)op;
  const struct sql_node *nd = op->node;
  j->kind = nd->u.join.kind;
  j->bside = nd->u.join.build_left ? 0 : 1;
  j->pside = 1 - j->bside;
  j->ncol[0] = nd->in[0]->ncols;
  j->ncol[1] = nd->in[1]->ncols;
  j->nout = nd->ncols;
  j->nkeys = nd->u.join.nkeys;
  j->bkeys = j->bside ? nd->u.join.rkeys : nd->u.join.lkeys;
  j->pkeys = j->bside ? nd->u.join.lkeys : nd->u.join.rkeys;
  j->semi = j->kind == CHV_SQL_JOIN_SEMI;
  j->not_in = j->kind == CHV_SQL_JOIN_NOT_IN;
  j->anti = j->kind == CHV_SQL_JOIN_ANTI || j->not_in;
  bool left = j->kind == CHV_SQL_JOIN_LEFT, right = j->kind == CHV_SQL_JOIN_RIGHT,
       full = j->kind == CHV_SQL_JOIN_FULL;
  j->keep_probe = full || (left && j->pside == 0) || (right && j->pside == 1);
  j->keep_build = full || (left && j->bside == 0) || (right && j->bside == 1);
  j->chain = -1;
  j->ntp = 1;
  if (j->nkeys == 1 && !(nd->u.join.null_safe && nd->u.join.null_safe[0])) {
    enum chv_type_id l = nd->u.join.lkeys[0]->type->id,
                     r = nd->u.join.rkeys[0]->type->id;
    j->ikey = l == r && (chv_type_is_integer(l) || l == CHV_TYPE_DATE);
  }
  if (j->nkeys == 2 && !(nd->u.join.null_safe && (nd->u.join.null_safe[0] ||
                                                   nd->u.join.null_safe[1]))) {
    j->pack = true;
    for (int k = 0; k < 2; k++) {
      enum chv_type_id l = nd->u.join.lkeys[k]->type->id,
                       r = nd->u.join.rkeys[k]->type->id;
      j->pack &= l == r && (chv_type_is_integer(l) || l == CHV_TYPE_DATE);
    }
  }
  CHV_RETURN_IF_ERR(sql_node_schema(nd->in[j->bside], &j->bschema, err));
  CHV_RETURN_IF_ERR(chv_batch_open(j->bschema, 0, &j->bb, err));
  CHV_RETURN_IF_ERR(pair_schema(nd, &j->cschema, err));
  CHV_RETURN_IF_ERR(chv_batch_open(j->cschema, PAIRS, &j->cb, err));
  j->view = *j->cb;
  j->view.ncols = j->nout;
  j->kv = calloc((size_t)j->nkeys + 1, sizeof *j->kv);
  j->pp = malloc(sizeof *j->pp * PAIRS);
  j->bp = malloc(sizeof *j->bp * PAIRS);
  if (!j->kv || !j->pp || !j->bp) return oom(err);
  for (int k = 0; k < j->nkeys; k++)
    CHV_RETURN_IF_ERR(chv_vector_open(nd->u.join.lkeys[k]->type, 0, &j->kv[k],
                                      err));
  return sql_dynfilter_init(&j->dyn, op->x, nd, err);
}

static size_t build_bytes(const struct join_op *j) {
  size_t m = j->dbytes;
  for (int p = 0; p < j->ntp; p++)
    m += chv_keyset_memory(&j->tp[p].ks) + chv_intset_memory(&j->tp[p].is);
  for (int c = 0; c < j->bb->ncols; c++) m += chv_vector_bytes(j->bb->cols[c]);
  m += (size_t)(j->capheads * 2 + j->capclen + j->capnext) * sizeof(int64_t);
  return m;
}

/* The keys of rows sel[0, n) of b, evaluated into j->kv. */
static int eval_keys(struct join_op *j, struct chv_expr *const *keys,
                     const struct chv_batch *b, const uint32_t *sel, int64_t n,
                     struct chv_error *err) {
  for (int k = 0; k < j->nkeys; k++)
    CHV_RETURN_IF_ERR(chv_expr_eval(keys[k], b, sel, n, j->kv[k], err));
  return CHV_OK;
}

/* Rows [0, n) of j->kv as key bytes and hashes in j->kr. */
static int encode_keys(struct join_op *j, int64_t n, struct chv_error *err) {
  if (chv_keyrows_encode(&j->kr, (const struct chv_vector *const *)j->kv,
                         j->nkeys, NULL, n) != CHV_OK)
    return oom(err);
  return CHV_OK;
}

/* Whether row i of j->kv has a NULL in a key that is not null-safe (it
** matches nothing). */
static bool null_key_of(const struct join_op *j, struct chv_vector *const *kv,
                        int64_t i) {
  const bool *ns = j->op.node->u.join.null_safe;
  for (int k = 0; k < j->nkeys; k++)
    if (chv_vector_is_null(kv[k], i) && !(ns && ns[k])) return true;
  return false;
}

static bool null_key(const struct join_op *j, int64_t i) {
  return null_key_of(j, j->kv, i);
}

/* The first build row of the chain of key i of kr, or -1: none. */
static int64_t chain_of(const struct join_op *j, const struct chv_keyrows *kr,
                        int64_t i) {
  size_t slot, len;
  const struct join_tpart *t = &j->tp[tpart_of(j->ntp, kr->hashes[i])];
  if (!t->ks.nslots) return -1; /* a part without keys */
  const char *key = chv_keyrows_key(kr, i, &len);
  uint32_t id = chv_keyset_find(&t->ks, key, len, kr->hashes[i], &slot);
  return id != UINT32_MAX ? j->head[t->base + id] : -1;
}

static int grow64(int64_t **v, int64_t *cap, int64_t need,
                  struct chv_error *err) {
  if (need <= *cap) return CHV_OK;
  int64_t nc = *cap ? *cap : 1024;
  while (nc < need) nc *= 2;
  int64_t *nv = realloc(*v, sizeof *nv * (size_t)nc);
  if (!nv) return oom(err);
  *v = nv;
  *cap = nc;
  return CHV_OK;
}

/* Rows [0, n) of an integer key vector (dense) as int64 into o. */
static void widen_ints(const struct chv_vector *v, int64_t n,
                       int64_t *restrict o) {
  switch (chv_type_fixed_width(v->type->id)) {
#define WIDEN_(T)                                                              \
  do {                                                                         \
    const T *d_ = v->data;                                                     \
    for (int64_t i = 0; i < n; i++) o[i] = d_[i];                              \
  } while (0)
  case 1: WIDEN_(int8_t); break;
  case 2: WIDEN_(int16_t); break;
  case 4: WIDEN_(int32_t); break;
  default: WIDEN_(int64_t); break;
#undef WIDEN_
  }
}

/* The keys of rows [0, n) of the key vectors kv as integers into *buf
** (grown to hold them): one key's values (ikey), or two keys' packed into
** one, the first's low 32 bits above the second's (pack), then, from
** (*buf)[n], whether each row's two values take more than 32 bits (its
** key is not packed: it matches no packed key); *wide: a row with both
** values not NULL does. */
static int key_ints(const struct join_op *j, struct chv_vector *const *kv,
                    int64_t n, int64_t **buf, int64_t *cap, bool *wide,
                    struct chv_error *err) {
  *wide = false;
  CHV_RETURN_IF_ERR(grow64(buf, cap, (j->pack ? 2 * n : n) + 1, err));
  widen_ints(kv[0], n, *buf);
  if (!j->pack) return CHV_OK;
  int64_t *restrict a = *buf, *restrict b = *buf + n;
  widen_ints(kv[1], n, b);
  int64_t any = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t x = a[i], y = b[i];
    int64_t w = (x != (int32_t)x) | (y != (int32_t)y);
    a[i] = (int64_t)((uint64_t)x << 32 | (uint32_t)y);
    b[i] = w;
    any |= w;
  }
  for (int64_t i = 0; any && i < n && !*wide; i++)
    *wide = b[i] && !null_key_of(j, kv, i);
  return CHV_OK;
}

/* Each of rows [0, n) of the key vectors kv: the first build row of its
** key's chain, or -1 (a NULL key, or one no build row has), into first;
** kr or *ik (ikey) take the keys as bytes or integers. */
static int look_up(const struct join_op *j, struct chv_vector *const *kv,
                   struct chv_keyrows *kr, int64_t **ik, int64_t *ikcap,
                   int64_t n, int64_t *first, struct chv_error *err) {
  if (!j->nheads) {
    for (int64_t i = 0; i < n; i++) first[i] = -1;
    return CHV_OK;
  }
  if (j->ikey || j->pack) {
    bool wide;
    CHV_RETURN_IF_ERR(key_ints(j, kv, n, ik, ikcap, &wide, err));
    const int64_t *k = *ik, *w = j->pack ? *ik + n : NULL;
    const struct join_tpart *tp = j->tp;
    int ntp = j->ntp;
    for (int64_t i = 0; i < n; i++) {
      if (i + 16 < n)
        chv_intset_prefetch(&tp[tpart_of(ntp, ikey_hash(k[i + 16]))].is,
                            k[i + 16]);
      const struct join_tpart *t = &tp[tpart_of(ntp, ikey_hash(k[i]))];
      bool none = w ? w[i] || null_key_of(j, kv, i)
                    : chv_vector_is_null(kv[0], i);
      uint32_t id = none ? UINT32_MAX : chv_intset_find(&t->is, k[i]);
      first[i] = id == UINT32_MAX ? -1 : j->head[t->base + id];
    }
    return CHV_OK;
  }
  if (chv_keyrows_encode(kr, (const struct chv_vector *const *)kv, j->nkeys,
                         NULL, n) != CHV_OK)
    return oom(err);
  for (int64_t i = 0; i < n; i++) {
    if (i + 16 < n)
      chv_keyset_prefetch(&j->tp[tpart_of(j->ntp, kr->hashes[i + 16])].ks,
                          kr->hashes[i + 16]);
    first[i] = null_key_of(j, kv, i) ? -1 : chain_of(j, kr, i);
  }
  return CHV_OK;
}

/* ---- the partitioned join ------------------------------------------------ */

/* The partition of each of rows [0, n) of j->kv at level into part. */
static int key_parts(struct join_op *j, int64_t n, int level, uint8_t *part,
                     struct chv_error *err) {
  CHV_RETURN_IF_ERR(encode_keys(j, n, err));
  for (int64_t i = 0; i < n; i++) {
    if (null_key(j, i)) {
      /* a NULL key matches nothing: any partition gives it as unmatched,
      ** so they are dealt round, to split as other rows do */
      if (j->parting_build) j->build_null = true; /* NOT IN sees it */
      part[i] = (uint8_t)(j->nullturn++ % JOIN_PARTS);
      continue;
    }
    uint64_t x = j->kr.hashes[i];
    x ^= (uint64_t)(level + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 29;
    part[i] = (uint8_t)((x >> 40) % JOIN_PARTS);
  }
  return CHV_OK;
}

/* Rows sel[0, n) of b (a side's columns), whose keys are in j->kv, to
** the files f[] (opened as needed) by their partition at level. */
static int spill_side(struct join_op *j, struct sql_spill **f,
                      const struct chv_batch *b, const uint32_t *sel,
                      int64_t n, int level, struct chv_error *err) {
  if (n == 0) return CHV_OK;
  uint8_t *part = malloc((size_t)n);
  uint32_t *rows = malloc(sizeof *rows * (size_t)n);
  int rc = part && rows ? key_parts(j, n, level, part, err) : oom(err);
  for (int p = 0; p < JOIN_PARTS && rc == CHV_OK; p++) {
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
      if (part[i] == p) rows[m++] = sel ? sel[i] : (uint32_t)i;
    if (m == 0) continue;
    if (!f[p]) rc = sql_spill_open(&j->op, &f[p], err);
    if (rc == CHV_OK) rc = sql_spill_write(f[p], b->cols, b->ncols, rows, m, err);
  }
  free(part);
  free(rows);
  return rc;
}

/* The next chunk of one side: the input operator's, or, partitioned, the
** next frame of the pair's file (f NULL: none). */
static int side_next(struct join_op *j, struct sql_op *in,
                     struct sql_spill *f, struct chv_batch *fb,
                     struct sql_chunk *ch, struct chv_error *err) {
  if (!j->grace) return sql_op_next(in, ch, err);
  *ch = (struct sql_chunk){0};
  if (!f) return CHV_OK;
  if (j->nl && f == j->cur.bf) {
    if (j->nl_pending) { /* read when the block before was full */
      j->nl_pending = false;
      *ch = (struct sql_chunk){fb, NULL, fb->nrows};
      return CHV_OK;
    }
    if (j->nl_last) return CHV_OK; /* the block ended the file */
  }
  CHV_RETURN_IF_ERR(sql_exec_cancelled(j->op.x, err));
  int64_t n;
  CHV_RETURN_IF_ERR(sql_spill_read(f, fb->cols, fb->ncols, &n, err));
  if (n == 0) return CHV_OK;
  fb->nrows = n;
  *ch = (struct sql_chunk){fb, NULL, n};
  return CHV_OK;
}

static int push_part(struct join_op *j, struct sql_spill *bf,
                     struct sql_spill *pf, int level, struct chv_error *err) {
  if (j->nparts == j->partcap) {
    int cap = j->partcap ? 2 * j->partcap : 32;
    struct join_part *np = realloc(j->parts, sizeof *np * (size_t)cap);
    if (!np) {
      sql_spill_close(bf);
      sql_spill_close(pf);
      return oom(err);
    }
    j->parts = np;
    j->partcap = cap;
  }
  j->parts[j->nparts++] = (struct join_part){bf, pf, level};
  return CHV_OK;
}

/* Empties the table of the build side, freeing what it took (the next
** pair's is counted from nothing). */
static void reset_build(struct join_op *j) {
  const struct chv_type *st = j->bb->schema;
  chv_batch_close(j->bb);
  j->bb = NULL;
  chv_batch_open(st, 0, &j->bb, NULL); /* NULL: checked by the caller */
  free_table(j);
  free(j->head);
  free(j->tail);
  free(j->nextrow);
  j->head = j->tail = j->nextrow = NULL;
  free(j->clen);
  j->clen = NULL;
  j->nheads = j->capheads = j->captail = j->capnext = j->capclen = 0;
  j->maxchain = 0;
  free(j->bmatched);
  j->bmatched = NULL;
}

/* The build side passed the bound at level (the input's: -1; a pair's:
** its level): what the table holds, the rest of the build side and all
** of the probe side go to the partitions of the next level, pushed to
** wait; the table is emptied. */
static int partition_sides(struct join_op *j, int level,
                           struct chv_error *err) {
  struct sql_spill *bf[JOIN_PARTS] = {0}, *pf[JOIN_PARTS] = {0};
  int next = level + 1, rc = CHV_OK;
  struct sql_op *bin = j->op.in[j->bside], *pin = j->op.in[j->pside];
  /* the rows held */
  rc = eval_keys(j, j->bkeys, j->bb, NULL, j->bb->nrows, err);
  j->parting_build = true;
  if (!j->grace) j->build_rows = j->bb->nrows;
  if (rc == CHV_OK)
    rc = spill_side(j, bf, j->bb, NULL, j->bb->nrows, next, err);
  reset_build(j);
  if (rc == CHV_OK && !j->bb) rc = oom(err);
  /* the rest of the build side, then the probe side */
  for (int side = 0; side < 2 && rc == CHV_OK; side++) {
    j->parting_build = side == 0;
    /* the whole build side's keys filter the probe side's scan, which
    ** opens now (dynamic filtering) */
    if (side == 1 && !j->grace) rc = sql_dynfilter_give(&j->dyn, j->op.x, err);
    for (;;) {
      struct sql_chunk ch;
      if (rc != CHV_OK) break;
      rc = side ? side_next(j, pin, j->cur.pf, j->pb, &ch, err)
                : side_next(j, bin, j->cur.bf, j->fb, &ch, err);
      if (rc != CHV_OK || !ch.b) break;
      if (!ch.n) continue;
      rc = sql_exec_cancelled(j->op.x, err);
      if (rc == CHV_OK)
        rc = eval_keys(j, side ? j->pkeys : j->bkeys, ch.b, ch.sel, ch.n, err);
      if (rc == CHV_OK && side == 0 && !j->grace) {
        j->build_rows += ch.n;
        rc = sql_dynfilter_add(&j->dyn, j->kv, ch.n, err);
      }
      if (rc == CHV_OK)
        rc = spill_side(j, side ? pf : bf, ch.b, ch.sel, ch.n, next, err);
      if (rc != CHV_OK) break;
    }
  }
  j->parting_build = false;
  for (int p = 0; p < JOIN_PARTS; p++) {
    if (rc == CHV_OK && bf[p]) rc = sql_spill_rewind(bf[p], err);
    if (rc == CHV_OK && pf[p]) rc = sql_spill_rewind(pf[p], err);
    if (rc == CHV_OK && (bf[p] || pf[p])) {
      rc = push_part(j, bf[p], pf[p], next, err);
    } else {
      sql_spill_close(bf[p]);
      sql_spill_close(pf[p]);
    }
  }
  return rc;
}

static int next_part(struct join_op *j, struct chv_error *err);
static int build(struct join_op *j, struct chv_error *err);

/* A join without keys passed the bound: the rows held and the rest of the
** build side go to one file, the probe side to another (its rows counted
** for their marks); the first block is built. */
static int nested_start(struct join_op *j, struct chv_error *err) {
  CHV_RETURN_IF_ERR(sql_node_schema(j->op.node->in[j->pside], &j->pschema, err));
  CHV_RETURN_IF_ERR(chv_batch_open(j->bschema, 0, &j->fb, err));
  CHV_RETURN_IF_ERR(chv_batch_open(j->pschema, 0, &j->pb, err));
  CHV_RETURN_IF_ERR(sql_spill_open(&j->op, &j->cur.bf, err));
  CHV_RETURN_IF_ERR(sql_spill_open(&j->op, &j->cur.pf, err));
  CHV_RETURN_IF_ERR(sql_spill_write(j->cur.bf, j->bb->cols, j->bb->ncols,
                                    NULL, j->bb->nrows, err));
  reset_build(j);
  if (!j->bb) return oom(err);
  int64_t nprobe = 0;
  for (int side = 0; side < 2; side++) {
    struct sql_op *in = j->op.in[side ? j->pside : j->bside];
    struct sql_spill *f = side ? j->cur.pf : j->cur.bf;
    /* the probe side's scan opens now (dynamic filtering: no keys here) */
    if (side == 1) CHV_RETURN_IF_ERR(sql_dynfilter_give(&j->dyn, j->op.x, err));
    for (;;) {
      struct sql_chunk ch;
      CHV_RETURN_IF_ERR(sql_op_next(in, &ch, err));
      if (!ch.b) break;
      CHV_RETURN_IF_ERR(sql_exec_cancelled(j->op.x, err));
      CHV_RETURN_IF_ERR(
          sql_spill_write(f, ch.b->cols, ch.b->ncols, ch.sel, ch.n, err));
      if (side) nprobe += ch.n;
    }
  }
  CHV_RETURN_IF_ERR(sql_spill_rewind(j->cur.bf, err));
  CHV_RETURN_IF_ERR(sql_spill_rewind(j->cur.pf, err));
  j->gmatch = calloc((size_t)nprobe + 1, 1);
  if (!j->gmatch) return oom(err);
  j->grace = j->nl = true;
  return build(j, err);
}

/* The nested loop's block is done with: the next one is built and the
** probe file read again from its start. */
static int nested_next(struct join_op *j, struct chv_error *err) {
  reset_build(j);
  if (!j->bb) return oom(err);
  j->rest = 0;
  j->chain = -1;
  j->pc = (struct sql_chunk){0};
  j->pbase = j->pnext = 0;
  j->state = J_FETCH;
  CHV_RETURN_IF_ERR(sql_spill_rewind(j->cur.pf, err));
  return build(j, err);
}

/* Reads the build side whole into the hash table (the input's, or the
** pair's file once partitioned). */
static const struct sql_op_vt join_vt;

/* The operator below op on its probe side, through the staged nodes. */
static struct sql_op *probe_input(struct sql_op *op) {
  const struct sql_node *nd = op->node;
  if (nd->kind == SQL_NODE_JOIN) return op->in[nd->u.join.build_left ? 1 : 0];
  return op->nin ? op->in[0] : NULL;
}

/* A staged join that does not probe on the reader threads (its build side
** partitioned, or a key of too many rows): it and the nodes above it in its
** scan's stage run on the consuming thread (their operators unstaged), the
** stage ending below it. */
static void unstage(struct join_op *j) {
  struct sql_op *s = &j->op;
  while (s && s->node->kind != SQL_NODE_SCAN) s = probe_input(s);
  if (!s) return;
  const struct sql_node *sn = s->node;
  bool above = false;
  for (int i = 0; i < sn->u.scan.nstage; i++) {
    above |= sn->u.scan.stage[i] == j->op.node;
    if (above) j->op.x->ops[sn->u.scan.stage[i]->id]->unstaged = true;
  }
}

int sql_stage_prepare(struct sql_op *op, struct chv_error *err) {
  for (struct sql_op *in = probe_input(op); in && in->node->on_readers;
       in = probe_input(in))
    if (in->vt == &join_vt && !((struct join_op *)in)->built)
      CHV_RETURN_IF_ERR(build((struct join_op *)in, err));
  return CHV_OK;
}

static int add_rows(struct join_op *j, int64_t base, int64_t n,
                    struct chv_error *err);
static int unpack(struct join_op *j, struct chv_error *err);

/* ---- a table made in parts on several threads --------------------------- */

/* The keys of build rows [base, base + n), in j->kv, kept for the table
** to come in their parts' lists. */
static int defer_keys(struct join_op *j, int64_t base, int64_t n,
                      struct chv_error *err) {
  const struct chv_keyrows *kr = NULL;
  bool ints = j->ikey || j->pack;
  if (ints) {
    bool wide;
    CHV_RETURN_IF_ERR(key_ints(j, j->kv, n, &j->ik, &j->capik, &wide, err));
    if (wide) return unpack(j, err);
  } else {
    if (j->ndkr == j->capdkr) {
      int64_t nc = j->capdkr ? 2 * j->capdkr : 64;
      struct chv_keyrows *nk = realloc(j->dkr, sizeof *nk * (size_t)nc);
      if (!nk) return oom(err);
      j->dkr = nk;
      j->capdkr = nc;
    }
    struct chv_keyrows *c = &j->dkr[j->ndkr++];
    *c = (struct chv_keyrows){0};
    if (chv_keyrows_encode(c, (const struct chv_vector *const *)j->kv,
                           j->nkeys, NULL, n) != CHV_OK)
      return oom(err);
    j->dbytes += c->cap + (size_t)n * (sizeof(uint32_t) + sizeof(uint64_t));
    kr = c;
  }
  for (int p = 0; p < j->ntp; p++) { /* room for all n in any part */
    struct join_tpart *t = &j->tp[p];
    if (t->nent + n <= t->capent) continue;
    int64_t nc = CHV_MAX(2 * t->capent, t->nent + n);
    struct join_dent *ne = realloc(t->ent, sizeof *ne * (size_t)nc);
    if (!ne) return oom(err);
    j->dbytes += sizeof *ne * (size_t)(nc - t->capent);
    t->ent = ne;
    t->capent = nc;
  }
  for (int64_t i = 0; i < n; i++) {
    if (null_key(j, i)) {
      j->build_null = true;
      continue; /* in no chain */
    }
    struct join_dent e = {.row = (uint32_t)(base + i)};
    if (ints) {
      e.k = j->ik[i];
    } else {
      size_t len;
      e.k = (int64_t)kr->hashes[i];
      e.key = chv_keyrows_key(kr, i, &len);
      e.len = (uint32_t)len;
    }
    struct join_tpart *t =
        &j->tp[tpart_of(j->ntp, ints ? ikey_hash(e.k) : (uint64_t)e.k)];
    t->ent[t->nent++] = e;
  }
  memset(j->nextrow + base, 0xff, sizeof *j->nextrow * (size_t)n); /* -1 */
  return CHV_OK;
}

/* Build row r joins the chain of key entry e, a new one when first; the
** chain's length. */
static inline int64_t chain_add(struct join_op *j, int64_t e, int64_t r,
                                bool first) {
  if (first) {
    j->head[e] = r;
    j->clen[e] = 0;
  } else {
    j->nextrow[j->tail[e]] = r;
  }
  j->tail[e] = r;
  return ++j->clen[e];
}

/* What the parts of a deferred table find: keys and longest chain. */
struct tb_part {
  struct join_op *j;
  int64_t nkeys[JOIN_TPARTS], maxchain[JOIN_TPARTS];
};

/* Part p of the deferred table: its keys' chains, in row order. */
static int tb_make(void *arg, int64_t p, struct chv_error *err) {
  struct tb_part *tb = arg;
  struct join_op *j = tb->j;
  struct join_tpart *t = &j->tp[p];
  const struct join_dent *ent = t->ent;
  int64_t nk = 0, maxc = 0, n = t->nent;
  bool ints = j->ikey || j->pack;
  /* room for a key a row at once: no slots grown, zeroed and rehashed on
  ** the way (what build() counts against the operator's memory) */
  if (ints && chv_intset_reserve(&t->is, (size_t)n) != CHV_OK) return oom(err);
  for (int64_t i = 0; i < n; i++) {
    if (i + 16 < n) {
      if (ints)
        chv_intset_prefetch(&t->is, ent[i + 16].k);
      else
        chv_keyset_prefetch(&t->ks, (uint64_t)ent[i + 16].k);
    }
    uint32_t id;
    if (ints) {
      id = chv_intset_put(&t->is, ent[i].k);
    } else {
      size_t slot = 0;
      uint64_t hv = (uint64_t)ent[i].k;
      if (chv_keyset_reserve(&t->ks, ent[i].len) != CHV_OK) return oom(err);
      id = chv_keyset_find(&t->ks, ent[i].key, ent[i].len, hv, &slot);
      if (id == UINT32_MAX)
        id = chv_keyset_insert(&t->ks, ent[i].key, ent[i].len, hv, slot);
    }
    bool first = id == nk; /* a new key */
    nk += first;
    int64_t len = chain_add(j, t->base + id, ent[i].row, first);
    if (len > maxc) maxc = len;
  }
  tb->nkeys[p] = nk;
  tb->maxchain[p] = maxc;
  return CHV_OK;
}

/* The deferred table: each part's keys get entries from its base (a part
** has at most as many keys as rows), and the parts are made at once on
** the pool's threads (a table of few rows on this one). */
static int make_table(struct join_op *j, struct chv_error *err) {
  int64_t n = j->bb->nrows, base = 0;
  CHV_RETURN_IF_ERR(grow64(&j->head, &j->capheads, n + 1, err));
  CHV_RETURN_IF_ERR(grow64(&j->tail, &j->captail, n + 1, err));
  CHV_RETURN_IF_ERR(grow64(&j->clen, &j->capclen, n + 1, err));
  for (int p = 0; p < j->ntp; p++) {
    j->tp[p].base = base;
    base += j->tp[p].nent;
  }
  struct tb_part tb = {.j = j};
  int rc = CHV_OK;
  int threads = 1;
  if (n >= TB_MIN) {
    chv_pool *pool;
    threads = j->op.x->threads;
    rc = chv_pool_open(threads, &pool, err);
    if (rc == CHV_OK) {
      rc = chv_pool_for(pool, j->ntp, tb_make, &tb, err);
      chv_pool_close(pool);
    }
  } else {
    for (int p = 0; p < j->ntp && rc == CHV_OK; p++) rc = tb_make(&tb, p, err);
  }
  j->op.table_parts = CHV_MAX(j->op.table_parts, j->ntp);
  j->op.table_threads = CHV_MAX(j->op.table_threads, threads);
  free_deferred(j);
  j->deferred = false;
  CHV_RETURN_IF_ERR(rc);
  j->nheads = 0;
  for (int p = 0; p < j->ntp; p++) {
    j->nheads += tb.nkeys[p];
    j->maxchain = CHV_MAX(j->maxchain, tb.maxchain[p]);
  }
  return CHV_OK;
}

/* Build rows [base, base + n), their keys in j->kv, into the table of one
** part as they come. */
static int add_rows(struct join_op *j, int64_t base, int64_t n,
                    struct chv_error *err) {
  struct join_tpart *t0 = &j->tp[0];
  bool ints = j->ikey || j->pack;
  if (ints) {
    bool wide;
    CHV_RETURN_IF_ERR(key_ints(j, j->kv, n, &j->ik, &j->capik, &wide, err));
    if (wide) return unpack(j, err);
    if (chv_intset_reserve(&t0->is, (size_t)n) != CHV_OK) return oom(err);
  } else if (j->nkeys) {
    CHV_RETURN_IF_ERR(encode_keys(j, n, err));
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t r = base + i;
    if (ints && i + 16 < n)
      chv_intset_prefetch(&t0->is, j->ik[i + 16]);
    else if (j->nkeys && i + 16 < n)
      chv_keyset_prefetch(&t0->ks, j->kr.hashes[i + 16]);
    j->nextrow[r] = -1;
    uint32_t id = 0;
    if (j->nkeys) {
      if (null_key(j, i)) {
        j->build_null = true;
        continue; /* a NULL key: in no chain */
      }
    }
    if (ints) {
      id = chv_intset_put(&t0->is, j->ik[i]);
    } else if (j->nkeys) {
      size_t len, slot = 0;
      const char *key = chv_keyrows_key(&j->kr, i, &len);
      uint64_t hv = j->kr.hashes[i];
      if (chv_keyset_reserve(&t0->ks, len) != CHV_OK) return oom(err);
      id = chv_keyset_find(&t0->ks, key, len, hv, &slot);
      if (id == UINT32_MAX) id = chv_keyset_insert(&t0->ks, key, len, hv, slot);
    }
    bool first = (int64_t)id >= j->nheads; /* ids come in order: a new key */
    if (first) {
      CHV_RETURN_IF_ERR(grow64(&j->head, &j->capheads, id + 1, err));
      CHV_RETURN_IF_ERR(grow64(&j->tail, &j->captail, id + 1, err));
      CHV_RETURN_IF_ERR(grow64(&j->clen, &j->capclen, id + 1, err));
      j->nheads = id + 1;
    }
    int64_t len = chain_add(j, id, r, first);
    if (len > j->maxchain) j->maxchain = len;
  }
  return CHV_OK;
}

/* A build row's two keys take more than 32 bits each: no longer packed,
** the table is made again of the keys' bytes from the rows held (its
** parts emptied, the chains redone). */
static int unpack(struct join_op *j, struct chv_error *err) {
  j->pack = false;
  free_deferred(j);
  for (int p = 0; p < j->ntp; p++) {
    chv_intset_free(&j->tp[p].is);
    j->tp[p].is = (struct chv_intset){0};
  }
  j->nheads = 0;
  j->maxchain = 0;
  int64_t n = j->bb->nrows;
  CHV_RETURN_IF_ERR(eval_keys(j, j->bkeys, j->bb, NULL, n, err));
  return j->deferred ? defer_keys(j, 0, n, err) : add_rows(j, 0, n, err);
}

static int build(struct join_op *j, struct chv_error *err) {
  struct sql_op *in = j->op.in[j->bside];
  struct sql_exec *x = j->op.x;
  /* the input's table, with keys: made once all its rows are in, its key
  ** sets sized for them, in parts on as many threads as read it (a pair's,
  ** one part as the rows come) */
  if (j->nkeys && !j->grace) {
    j->deferred = true;
    j->ntp = x->threads > 1 ? CHV_MIN(TB_PARTS * x->threads, JOIN_TPARTS) : 1;
  }
  for (;;) {
    struct sql_chunk ch;
    CHV_RETURN_IF_ERR(side_next(j, in, j->cur.bf, j->fb, &ch, err));
    if (!ch.b) break;
    if (!ch.n) continue;
    CHV_RETURN_IF_ERR(sql_exec_cancelled(x, err));
    int64_t base = j->bb->nrows;
    for (int c = 0; c < j->bb->ncols; c++)
      CHV_RETURN_IF_ERR(chv_vector_append_rows(j->bb->cols[c], ch.b->cols[c],
                                               ch.sel, 0, ch.n, err));
    j->bb->nrows += ch.n;
    CHV_RETURN_IF_ERR(grow64(&j->nextrow, &j->capnext, j->bb->nrows, err));
    CHV_RETURN_IF_ERR(eval_keys(j, j->bkeys, ch.b, ch.sel, ch.n, err));
    if (!j->grace) /* a pair's rows were added as they were partitioned */
      CHV_RETURN_IF_ERR(sql_dynfilter_add(&j->dyn, j->kv, ch.n, err));
    CHV_RETURN_IF_ERR(j->deferred ? defer_keys(j, base, ch.n, err)
                                  : add_rows(j, base, ch.n, err));
    size_t m = build_bytes(j);
    /* a deferred table: what its parts will take, at most (a key entry a
    ** row, half-full slots, and its bytes again) */
    if (j->deferred)
      m += (size_t)j->bb->nrows * (3 * sizeof(int64_t) + 32) +
           (j->ikey || j->pack ? 0 : j->dbytes);
    if (j->nl && x->memory && m > x->memory) break; /* the block is full */
    if (!j->nkeys && !j->grace && x->memory && m > x->memory)
      return nested_start(j, err);
    int level = j->grace ? j->cur.level : -1;
    if (x->memory && m > x->memory && j->nkeys && level < JOIN_MAX_LEVEL) {
      /* partitioned from here on: the pairs wait, the first is built */
      if (!j->grace) {
        CHV_RETURN_IF_ERR(sql_node_schema(j->op.node->in[j->pside],
                                          &j->pschema, err));
        CHV_RETURN_IF_ERR(chv_batch_open(j->bschema, 0, &j->fb, err));
        CHV_RETURN_IF_ERR(chv_batch_open(j->pschema, 0, &j->pb, err));
      }
      CHV_RETURN_IF_ERR(partition_sides(j, level, err));
      j->grace = true;
      return next_part(j, err);
    }
    if (x->memory && m > x->memory)
      return chv_error_set(err, CHV_ENOMEM,
                           "hash join: more than its memory limit of %zu "
                           "bytes (%zu bytes for the %lld rows of its build "
                           "side%s; see chive.exec.operator-memory)",
                           x->memory, m, (long long)j->bb->nrows,
                           j->nkeys ? " in one partition, after "
                                      CHV_STR_(JOIN_MAX_LEVEL_N) " levels of "
                                      "partitions: too many rows of one key"
                                    : "");
  }
  if (j->deferred) CHV_RETURN_IF_ERR(make_table(j, err));
  if (j->nl) { /* is there a block after this one? */
    int64_t n = 0;
    if (!j->nl_last)
      CHV_RETURN_IF_ERR(
          sql_spill_read(j->cur.bf, j->fb->cols, j->fb->ncols, &n, err));
    j->fb->nrows = n;
    j->nl_pending = n > 0;
    j->nl_last = n == 0;
  }
  if (j->keep_build || ((j->semi || j->anti) && j->bside == 0)) {
    j->bmatched = calloc((size_t)j->bb->nrows + 1, 1);
    if (!j->bmatched) return oom(err);
  }
  j->built = true;
  /* staged: the reader threads probe from here on (before the scan opens);
  ** partitioned, or with a key of more than STAGE_MAXCHAIN rows, this join
  ** and the stage's nodes above it run here */
  if (j->op.node->u.join.staged && !j->grace && !j->nl &&
      j->maxchain <= STAGE_MAXCHAIN) {
    CHV_RETURN_IF_ERR(sql_node_schema(j->op.node, &j->oschema, err));
    j->staged_on = true;
  } else if (j->op.node->u.join.staged) {
    unstage(j);
  }
  /* dynamic filtering: the probe side's scan opens with the build keys
  ** (partitioned: it opened before the probe side was partitioned) */
  if (!j->grace) CHV_RETURN_IF_ERR(sql_dynfilter_give(&j->dyn, x, err));
  /* nothing to match: a probe side whose unmatched rows go is not read */
  if (!j->bb->nrows && !j->keep_probe && !(j->anti && j->pside == 0))
    j->state = J_REST;
  return CHV_OK;
}

/* Partitioned: the pair joined last is done with; the next one waiting is
** built (and may be partitioned again), or the join ends. */
static int next_part(struct join_op *j, struct chv_error *err) {
  sql_spill_close(j->cur.bf);
  sql_spill_close(j->cur.pf);
  j->cur = (struct join_part){0};
  reset_build(j);
  if (!j->bb) return oom(err);
  j->rest = 0;
  j->chain = -1;
  j->pc = (struct sql_chunk){0};
  if (j->at == j->nparts) {
    j->state = J_END;
    j->built = true;
    return CHV_OK;
  }
  /* the last pushed first (depth first): the files open at once stay
  ** within 2 * JOIN_PARTS a level */
  j->cur = j->parts[--j->nparts];
  j->parts[j->nparts] = (struct join_part){0};
  j->state = J_FETCH;
  return build(j, err);
}

/* Room for n probe rows' chains (*first) and marks (*pm). */
static int marks_room(int64_t **first, uint8_t **pm, int64_t *cap, int64_t n,
                      struct chv_error *err) {
  if (n <= *cap) return CHV_OK;
  int64_t *f = realloc(*first, sizeof *f * (size_t)n);
  if (!f) return oom(err);
  *first = f;
  uint8_t *m = realloc(*pm, (size_t)n);
  if (!m) return oom(err);
  *pm = m;
  *cap = n;
  return CHV_OK;
}

/* The next probe chunk, its rows' chains looked up; false at the end. */
static int fetch(struct join_op *j, bool *got, struct chv_error *err) {
  *got = false;
  for (;;) {
    CHV_RETURN_IF_ERR(
        side_next(j, j->op.in[j->pside], j->cur.pf, j->pb, &j->pc, err));
    if (!j->pc.b) return CHV_OK;
    if (j->pc.n) break;
  }
  CHV_RETURN_IF_ERR(sql_exec_cancelled(j->op.x, err));
  int64_t n = j->pc.n;
  CHV_RETURN_IF_ERR(marks_room(&j->first, &j->pmatched, &j->capprobe, n, err));
  memset(j->pmatched, 0, (size_t)n);
  if (j->nl) { /* the marks of the blocks before */
    j->pbase = j->pnext;
    j->pnext += n;
    memcpy(j->pmatched, j->gmatch + j->pbase, (size_t)n);
  }
  if (!j->nkeys || !j->nheads) { /* one chain, or none */
    int64_t h = j->nheads ? j->head[0] : -1;
    for (int64_t i = 0; i < n; i++) j->first[i] = h;
  } else {
    CHV_RETURN_IF_ERR(eval_keys(j, j->pkeys, j->pc.b, j->pc.sel, n, err));
    CHV_RETURN_IF_ERR(
        look_up(j, j->kv, &j->kr, &j->ik, &j->capik, n, j->first, err));
    /* x NOT IN (rows): NULL, not TRUE, for a NULL x */
    if (j->not_in && (j->bb->nrows || j->build_rows))
      for (int64_t i = 0; i < n; i++)
        if (null_key(j, i)) j->pmatched[i] = 1;
  }
  j->pi = 0;
  j->chain = n ? j->first[0] : -1;
  *got = true;
  return CHV_OK;
}

/* Columns [c0, c0 + nc) of d: rows[0, n) of b, or n NULLs (b NULL). */
static int put_side(struct chv_batch *d, int c0, int nc, const struct chv_batch *b,
                    const uint32_t *rows, int64_t n, struct chv_error *err) {
  for (int c = 0; c < nc; c++) {
    if (b) {
      CHV_RETURN_IF_ERR(chv_vector_append_rows(d->cols[c0 + c], b->cols[c],
                                               rows, 0, n, err));
      continue;
    }
    for (int64_t i = 0; i < n; i++)
      CHV_RETURN_IF_ERR(chv_vector_append_null(d->cols[c0 + c], err));
  }
  return CHV_OK;
}

/* Gathers rows of one side into the pair batch's columns (put_side()). */
static int gather(struct join_op *j, int c0, int nc, const struct chv_batch *b,
                  const uint32_t *rows, int64_t n, struct chv_error *err) {
  return put_side(j->cb, c0, nc, b, rows, n, err);
}

/* The probe chunk's row i as a row of its batch. */
static inline uint32_t probe_row(const struct join_op *j, int64_t i) {
  return j->pc.sel ? j->pc.sel[i] : (uint32_t)i;
}

/* Up to PAIRS pairs of the probe chunk from (pi, chain) into the pair
** batch; with a residual, the ones that match are selected.  *nrows: the
** rows of the pair batch that match (j->sel, or all). */
static int pairs(struct join_op *j, int64_t *nrows, const uint32_t **sel,
                 struct chv_error *err) {
  const struct sql_node *nd = j->op.node;
  const struct chv_expr *cond = nd->u.join.cond;
  /* a SEMI or ANTI join probing its left side needs one match a row */
  bool one = (j->semi || j->anti) && j->pside == 0;
  j->npairs = 0;
  while (j->pi < j->pc.n && j->npairs < PAIRS) {
    if (j->chain < 0 || (one && j->pmatched[j->pi])) {
      if (++j->pi < j->pc.n) j->chain = j->first[j->pi];
      continue;
    }
    if (one && !cond) { /* a key match is a match */
      j->pmatched[j->pi] = 1;
      j->chain = -1;
      continue;
    }
    j->pp[j->npairs] = (uint32_t)j->pi;
    j->bp[j->npairs++] = (uint32_t)j->chain;
    j->chain = j->nextrow[j->chain];
  }
  chv_batch_reset(j->cb);
  *nrows = 0;
  *sel = NULL;
  if (!j->npairs) return CHV_OK;
  uint32_t *prow = j->pp; /* as rows of the chunk's batch */
  CHV_RETURN_IF_ERR(sql_sel_reserve(&j->sel, j->npairs, err));
  uint32_t *pb = j->sel.sel;
  for (int64_t i = 0; i < j->npairs; i++) pb[i] = probe_row(j, prow[i]);
  int lc = j->ncol[0], rc = j->ncol[1];
  if (j->pside == 0) {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, j->pc.b, pb, j->npairs, err));
    CHV_RETURN_IF_ERR(gather(j, lc, rc, j->bb, j->bp, j->npairs, err));
  } else {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, j->bb, j->bp, j->npairs, err));
    CHV_RETURN_IF_ERR(gather(j, lc, rc, j->pc.b, pb, j->npairs, err));
  }
  j->cb->nrows = j->npairs;
  int64_t n = j->npairs;
  if (cond) {
    CHV_RETURN_IF_ERR(
        chv_expr_filter(cond, j->cb, NULL, j->npairs, j->sel.sel, &n, err));
    *sel = j->sel.sel;
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t k = *sel ? (*sel)[i] : i;
    j->pmatched[j->pp[k]] = 1;
    if (j->bmatched) j->bmatched[j->bp[k]] = 1;
  }
  *nrows = n;
  return CHV_OK;
}

/* The probe chunk's rows the kind keeps by their mark, into the pair
** batch: matched (want) rows, with NULLs for the build side (nulls). */
static int tail(struct join_op *j, bool want, bool nulls, int64_t *nrows,
                struct chv_error *err) {
  chv_batch_reset(j->cb);
  CHV_RETURN_IF_ERR(sql_sel_reserve(&j->sel, j->pc.n, err));
  int64_t n = 0;
  for (int64_t i = 0; i < j->pc.n; i++)
    if ((bool)j->pmatched[i] == want) j->sel.sel[n++] = probe_row(j, i);
  *nrows = n;
  if (!n) return CHV_OK;
  int lc = j->ncol[0], rc = j->ncol[1];
  if (j->pside == 0) {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, j->pc.b, j->sel.sel, n, err));
    if (nulls) CHV_RETURN_IF_ERR(gather(j, lc, rc, NULL, NULL, n, err));
  } else {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, NULL, NULL, n, err));
    CHV_RETURN_IF_ERR(gather(j, lc, rc, j->pc.b, j->sel.sel, n, err));
  }
  j->cb->nrows = n;
  return CHV_OK;
}

/* After the probe side: up to PAIRS build rows the kind keeps by their
** mark (matched: want), with NULLs for the probe side (nulls). */
static int rest(struct join_op *j, bool want, bool nulls, int64_t *nrows,
                struct chv_error *err) {
  chv_batch_reset(j->cb);
  CHV_RETURN_IF_ERR(sql_sel_reserve(&j->sel, PAIRS, err));
  int64_t n = 0;
  while (j->rest < j->bb->nrows && n < PAIRS) {
    if ((bool)j->bmatched[j->rest] == want)
      j->sel.sel[n++] = (uint32_t)j->rest;
    j->rest++;
  }
  *nrows = n;
  if (!n) return CHV_OK;
  int lc = j->ncol[0], rc = j->ncol[1];
  if (j->bside == 0) {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, j->bb, j->sel.sel, n, err));
    if (nulls) CHV_RETURN_IF_ERR(gather(j, lc, rc, NULL, NULL, n, err));
  } else {
    CHV_RETURN_IF_ERR(gather(j, 0, lc, NULL, NULL, n, err));
    CHV_RETURN_IF_ERR(gather(j, lc, rc, j->bb, j->sel.sel, n, err));
  }
  j->cb->nrows = n;
  return CHV_OK;
}

static int join_step(struct join_op *j, struct sql_chunk *out,
                     struct chv_error *err) {
  bool semi_any = j->semi || j->anti;
  for (;;) {
    int64_t n = 0;
    const uint32_t *sel = NULL;
    switch (j->state) {
    case J_FETCH: {
      bool got;
      CHV_RETURN_IF_ERR(fetch(j, &got, err));
      j->state = got ? J_PAIRS : J_REST;
      continue;
    }
    case J_PAIRS:
      if (j->pi >= j->pc.n) {
        j->state = J_TAIL;
        continue;
      }
      CHV_RETURN_IF_ERR(pairs(j, &n, &sel, err));
      if (semi_any) continue; /* the marks only */
      break;
    case J_TAIL:
      j->state = J_FETCH;
      if (j->nl) { /* the probe rows' marks wait for the last block */
        memcpy(j->gmatch + j->pbase, j->pmatched, (size_t)j->pc.n);
        if (!j->nl_last) continue;
      }
      if (j->not_in && j->build_null)
        n = 0; /* x NOT IN (..., NULL) is never TRUE */
      else if (semi_any && j->pside == 0)
        CHV_RETURN_IF_ERR(tail(j, j->semi, false, &n, err));
      else if (j->keep_probe)
        CHV_RETURN_IF_ERR(tail(j, false, true, &n, err));
      break;
    case J_REST:
      if (!j->bmatched || j->rest >= j->bb->nrows) {
        j->state = J_END;
        continue;
      }
      if (semi_any)
        CHV_RETURN_IF_ERR(rest(j, j->semi, false, &n, err));
      else
        CHV_RETURN_IF_ERR(rest(j, false, true, &n, err));
      break;
    case J_END:
      if (j->nl && !j->nl_last) {
        CHV_RETURN_IF_ERR(nested_next(j, err));
        continue;
      }
      if (j->nl) {
        out->b = NULL;
        return CHV_OK;
      }
      if (j->grace && (j->at < j->nparts || j->cur.bf || j->cur.pf)) {
        CHV_RETURN_IF_ERR(next_part(j, err));
        continue;
      }
      out->b = NULL;
      return CHV_OK;
    }
    if (!n) continue;
    *out = (struct sql_chunk){&j->view, sel, n};
    return CHV_OK;
  }
}

static int join_next(struct sql_op *op, struct sql_chunk *out,
                     struct chv_error *err) {
  struct join_op *j = (struct join_op *)op;
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  if (!j->built) CHV_RETURN_IF_ERR(build(j, err));
  if (j->staged_on && !j->prepared) {
    j->prepared = true;
    CHV_RETURN_IF_ERR(sql_stage_prepare(op, err));
  }
  if (j->staged_on && !op->unstaged) { /* the stage joined the batches */
    if (j->state == J_REST) { /* nothing to match */
      out->b = NULL;
      return CHV_OK;
    }
    return sql_op_next(op->in[j->pside], out, err);
  }
  CHV_RETURN_IF_ERR(join_step(j, out, err));
  j->view.nrows = j->cb->nrows;
  if (op->x->analyze && out->b) sql_op_count(op, out->n, sql_exec_now() - t0);
  return CHV_OK;
}

static void join_close(struct sql_op *op) {
  struct join_op *j = (struct join_op *)op;
  sql_spill_close(j->cur.bf);
  sql_spill_close(j->cur.pf);
  for (int i = j->at; i < j->nparts; i++) {
    sql_spill_close(j->parts[i].bf);
    sql_spill_close(j->parts[i].pf);
  }
  free(j->parts);
  free(j->gmatch);
  chv_batch_close(j->fb);
  chv_batch_close(j->pb);
  chv_type_free(j->pschema);
  chv_batch_close(j->bb);
  chv_batch_close(j->cb);
  chv_type_free(j->oschema);
  chv_type_free(j->bschema);
  chv_type_free(j->cschema);
  free_table(j);
  free(j->ik);
  if (j->kv)
    for (int k = 0; k < j->nkeys; k++) chv_vector_close(j->kv[k]);
  free(j->kv);
  chv_keyrows_free(&j->kr);
  free(j->head);
  free(j->tail);
  free(j->clen);
  free(j->nextrow);
  free(j->bmatched);
  free(j->first);
  free(j->pmatched);
  free(j->pp);
  free(j->bp);
  free(j->sel.sel);
  sql_dynfilter_free(&j->dyn);
}

static const struct sql_op_vt join_vt = {join_open, join_next, join_close};

/* ---- the probe on the reader threads ----------------------------------------- */

/* A reader thread's probe: its batch's keys, their chains, the pairs. */
struct join_probe {
  struct chv_vector **kv;
  int nkeys;
  struct chv_keyrows kr;
  int64_t *ik, capik;
  int64_t *first;
  uint8_t *pmatched;
  int64_t cap;
  uint32_t *pi, *pr, *bp;     /* pairs: probe index, its row of b, build row */
  int64_t pcap;
  uint32_t *rows;             /* a selection */
  int64_t scap;
  struct chv_batch *cb;       /* pairs, both sides' columns (a residual) */
};

void sql_join_probe_free(void *state) {
  struct join_probe *p = state;
  if (!p) return;
  for (int k = 0; p->kv && k < p->nkeys; k++) chv_vector_close(p->kv[k]);
  free(p->kv);
  chv_keyrows_free(&p->kr);
  free(p->ik);
  free(p->first);
  free(p->pmatched);
  free(p->pi);
  free(p->pr);
  free(p->bp);
  free(p->rows);
  chv_batch_close(p->cb);
  free(p);
}

bool sql_join_probe_staged(const struct sql_op *op) {
  return op->vt == &join_vt && ((const struct join_op *)op)->staged_on &&
         !op->unstaged;
}

static int grow32(uint32_t **v, int64_t cap, int64_t nc, struct chv_error *err) {
  if (nc <= cap) return CHV_OK;
  uint32_t *nv = realloc(*v, sizeof *nv * (size_t)nc);
  if (!nv) return oom(err);
  *v = nv;
  return CHV_OK;
}

/* Room for need pairs. */
static int pairs_room(struct join_probe *p, int64_t need, struct chv_error *err) {
  if (need <= p->pcap) return CHV_OK;
  int64_t nc = p->pcap ? p->pcap : 1024;
  while (nc < need) nc *= 2;
  CHV_RETURN_IF_ERR(grow32(&p->pi, p->pcap, nc, err));
  CHV_RETURN_IF_ERR(grow32(&p->pr, p->pcap, nc, err));
  CHV_RETURN_IF_ERR(grow32(&p->bp, p->pcap, nc, err));
  p->pcap = nc;
  return CHV_OK;
}


/* Rows prow[0, n) of b (the probe side's) beside build rows brow[0, n), or
** beside NULLs (brow NULL), into d's columns: the left side's, then the
** right's. */
static int put_rows(const struct join_op *j, struct chv_batch *d,
                    const struct chv_batch *b, const uint32_t *prow,
                    const uint32_t *brow, int64_t n, struct chv_error *err) {
  const struct chv_batch *bs = brow ? j->bb : NULL;
  int lc = j->ncol[0], rc = j->ncol[1];
  if (j->pside == 0) {
    CHV_RETURN_IF_ERR(put_side(d, 0, lc, b, prow, n, err));
    return put_side(d, lc, rc, bs, brow, n, err);
  }
  CHV_RETURN_IF_ERR(put_side(d, 0, lc, bs, brow, n, err));
  return put_side(d, lc, rc, b, prow, n, err);
}

int sql_join_probe_batch(struct sql_op *op, void **state,
                         const struct chv_batch *b, const uint32_t *sel,
                         int64_t n, struct chv_batch **out,
                         struct chv_error *err) {
  struct join_op *j = (struct join_op *)op;
  const struct sql_node *nd = op->node;
  const struct chv_expr *cond = nd->u.join.cond;
  struct join_probe *p = *state;
  *out = NULL;
  if (!p) {
    if (!(p = calloc(1, sizeof *p))) return oom(err);
    *state = p;
    p->kv = calloc((size_t)j->nkeys + 1, sizeof *p->kv);
    if (!p->kv) return oom(err);
    p->nkeys = j->nkeys;
    for (int k = 0; k < j->nkeys; k++)
      CHV_RETURN_IF_ERR(chv_vector_open(nd->u.join.lkeys[k]->type, 0, &p->kv[k], err));
    if (cond) CHV_RETURN_IF_ERR(chv_batch_open(j->cschema, 0, &p->cb, err));
  }
  if (n == 0) return chv_batch_open(j->oschema, 0, out, err);
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  /* each row's chain */
  for (int k = 0; k < j->nkeys; k++)
    CHV_RETURN_IF_ERR(chv_expr_eval(j->pkeys[k], b, sel, n, p->kv[k], err));
  CHV_RETURN_IF_ERR(marks_room(&p->first, &p->pmatched, &p->cap, n, err));
  if (n > p->scap) {
    CHV_RETURN_IF_ERR(grow32(&p->rows, p->scap, n, err));
    p->scap = n;
  }
  memset(p->pmatched, 0, (size_t)n);
  CHV_RETURN_IF_ERR(
      look_up(j, p->kv, &p->kr, &p->ik, &p->capik, n, p->first, err));
  /* the pairs, in probe then build order (a semi or anti row's first match
  ** alone when there is no residual: it is the row's mark) */
  bool one = j->semi || j->anti;
  int64_t np = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t c = p->first[i]; c >= 0; c = j->nextrow[c]) {
      p->pmatched[i] = 1;
      if (one && !cond) break;
      CHV_RETURN_IF_ERR(pairs_room(p, np + 1, err));
      p->pi[np] = (uint32_t)i;
      p->pr[np] = sel ? sel[i] : (uint32_t)i;
      p->bp[np++] = (uint32_t)c;
    }
  struct chv_batch *r;
  CHV_RETURN_IF_ERR(chv_batch_open(j->oschema, n, &r, err));
  int rc = CHV_OK;
  int64_t nr = 0;
  if (cond && np) { /* the pairs that match, and the rows that have one */
    memset(p->pmatched, 0, (size_t)n);
    chv_batch_reset(p->cb);
    rc = put_rows(j, p->cb, b, p->pr, p->bp, np, err);
    p->cb->nrows = np;
    int64_t m = 0;
    uint32_t *ms = p->bp; /* the build rows are in cb now */
    if (rc == CHV_OK) rc = chv_expr_filter(cond, p->cb, NULL, np, ms, &m, err);
    for (int64_t i = 0; rc == CHV_OK && i < m; i++) p->pmatched[p->pi[ms[i]]] = 1;
    for (int c = 0; rc == CHV_OK && !one && c < r->ncols; c++)
      rc = chv_vector_append_rows(r->cols[c], p->cb->cols[c], ms, 0, m, err);
    if (!one) nr = m;
  } else if (!one && np) {
    rc = put_rows(j, r, b, p->pr, p->bp, np, err);
    nr = np;
  }
  /* the probe rows the kind keeps by their mark: a semi join's matched,
  ** an anti join's and a preserved side's unmatched (beside NULLs) */
  if (rc == CHV_OK && (one || j->keep_probe)) {
    bool want = one && j->semi;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
      if ((bool)p->pmatched[i] == want) p->rows[m++] = sel ? sel[i] : (uint32_t)i;
    if (m && one)
      rc = put_side(r, 0, j->ncol[0], b, p->rows, m, err);
    else if (m)
      rc = put_rows(j, r, b, p->rows, NULL, m, err);
    nr += m;
  }
  if (rc != CHV_OK) {
    chv_batch_close(r);
    return rc;
  }
  r->nrows = nr;
  if (op->x->analyze) sql_op_count(op, nr, sql_exec_now() - t0);
  *out = r;
  return CHV_OK;
}

int sql_op_join_new(struct sql_exec *x, const struct sql_node *nd,
                    struct sql_op **out, struct chv_error *err) {
  struct join_op *j = calloc(1, sizeof *j);
  if (!j) return oom(err);
  j->op.vt = &join_vt;
  j->op.node = nd;
  j->op.x = x;
  *out = &j->op;
  return CHV_OK;
}
