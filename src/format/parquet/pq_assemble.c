/*
** Levels to nested vectors: the offsets and validity of every ARRAY, MAP
** and STRUCT of a column, built from the definition and repetition levels
** its leaves kept for the batch (the leaves' own vectors were filled as
** their pages were read).
**
** A value node takes its levels from one leaf below it (rep_leaf): every
** leaf under a value has an entry for each of the value's slots, so any of
** them tells where the value's instances start and which are NULL (see
** pq_read.h for the rules).  A STRUCT member the file lacks gets a NULL
** for each of its struct's slots, an element the file lacks one for each
** element.
**
** The leaves of one column must agree: a file whose leaves describe
** different structures (a list with 3 elements in one leaf, 2 in another)
** would give child vectors of the wrong length.  check_shape() compares
** every child vector with its parent after assembly, so such a file is
** CHV_ECORRUPT, never an inconsistent vector.  Map keys must not be NULL.
**
** INTERFACE: pq_assemble() (pq_read.h).
*/
#include "format/parquet/pq_read.h"

#include <inttypes.h>
#include <stdio.h>

static int asm_node(struct chv_pq_reader *r, const struct pq_rnode *nd,
                    struct chv_vector *v, struct chv_error *err);

static int disagree(struct chv_pq_reader *r, const struct pq_rnode *nd,
                    const char *what, struct chv_error *err) {
  if (r->batch_rg_end > r->batch_rg)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: column %s, row groups %d to %d: %s", r->path,
                         nd->name, r->batch_rg, r->batch_rg_end, what);
  return chv_error_set(err, CHV_ECORRUPT, "%s: column %s, row group %d: %s",
                       r->path, nd->name, r->batch_rg, what);
}

static int asm_struct(struct chv_pq_reader *r, const struct pq_rnode *nd,
                      struct chv_vector *v, struct chv_error *err) {
  const struct pq_leaf *lf = r->leaves[nd->rep_leaf];
  const uint8_t *d = lf->ldef, *rp = lf->lrep;
  int64_t n = lf->lcount, k = 0, nulls = 0;
  int rep = nd->rep, sd = nd->slot_def, def = nd->def;
  for (int64_t i = 0; i < n; i++) {
    if (rp[i] <= rep && d[i] >= sd) {
      k++;
      nulls += d[i] < def;
    }
  }
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + k, err));
  if (nulls) {
    CHV_RETURN_IF_ERR(pq_ensure_validity(v, err));
    int64_t s = pos;
    for (int64_t i = 0; i < n; i++) {
      if (rp[i] <= rep && d[i] >= sd) {
        if (d[i] < def) chv_bit_set(v->validity, s, false);
        s++;
      }
    }
    v->null_count += nulls;
  }
  v->length = pos + k;
  for (int c = 0; c < nd->nchildren; c++) {
    const struct pq_rnode *ch = &nd->children[c];
    if (ch->pf)
      CHV_RETURN_IF_ERR(asm_node(r, ch, v->children[c], err));
    else
      CHV_RETURN_IF_ERR(pq_append_nulls(v->children[c], k, err));
  }
  return CHV_OK;
}

static int asm_list(struct chv_pq_reader *r, const struct pq_rnode *nd,
                    struct chv_vector *v, struct chv_error *err) {
  const struct pq_leaf *lf = r->leaves[nd->rep_leaf];
  const uint8_t *d = lf->ldef, *rp = lf->lrep;
  int64_t n = lf->lcount, k = 0, nulls = 0;
  int rep = nd->rep, sd = nd->slot_def, def = nd->def;
  int edef = nd->edef, erep = nd->erep;
  for (int64_t i = 0; i < n; i++) {
    if (rp[i] <= rep && d[i] >= sd) {
      k++;
      nulls += d[i] < def;
    }
  }
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + k, err));
  if (nulls) CHV_RETURN_IF_ERR(pq_ensure_validity(v, err));
  int32_t *o = v->offsets;
  int64_t e0 = o[pos], e = e0, s = pos;
  for (int64_t i = 0; i < n; i++) {
    if (rp[i] <= rep && d[i] >= sd) {
      if (d[i] < def) chv_bit_set(v->validity, s, false);
      s++;
      o[s] = (int32_t)e;
    }
    if (d[i] >= edef && rp[i] <= erep) {
      if (s == pos) return disagree(r, nd, "an element outside any list", err);
      if (++e > INT32_MAX)
        return chv_error_set(err, CHV_ERANGE,
                             "%s: column %s: more than 2^31 elements in "
                             "one batch",
                             r->path, nd->name);
      o[s] = (int32_t)e;
    }
  }
  v->null_count += nulls;
  v->length = pos + k;
  for (int c = 0; c < nd->nchildren; c++) {
    const struct pq_rnode *ch = &nd->children[c];
    if (ch->pf)
      CHV_RETURN_IF_ERR(asm_node(r, ch, v->children[c], err));
    else
      CHV_RETURN_IF_ERR(pq_append_nulls(v->children[c], e - e0, err));
  }
  return CHV_OK;
}

static int asm_node(struct chv_pq_reader *r, const struct pq_rnode *nd,
                    struct chv_vector *v, struct chv_error *err) {
  switch (nd->type->id) {
  case CHV_TYPE_STRUCT:
    return asm_struct(r, nd, v, err);
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    return asm_list(r, nd, v, err);
  default: /* a leaf: its values are in place */
    return CHV_OK;
  }
}

/* Every child vector as long as its parent says. */
static int check_shape(struct chv_pq_reader *r, const struct pq_rnode *nd,
                       const struct chv_vector *v, struct chv_error *err) {
  int64_t want;
  switch (v->type->id) {
  case CHV_TYPE_STRUCT:
    want = v->length;
    break;
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    want = v->offsets[v->length];
    break;
  default:
    return CHV_OK;
  }
  for (int c = 0; c < v->nchildren; c++) {
    if (v->children[c]->length != want) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "its leaf columns disagree on the structure (%" PRId64
               " values where %" PRId64 " are expected)",
               v->children[c]->length, want);
      return disagree(r, &nd->children[c], msg, err);
    }
    CHV_RETURN_IF_ERR(check_shape(r, &nd->children[c], v->children[c], err));
  }
  if (v->type->id == CHV_TYPE_MAP && v->children[0]->null_count > 0)
    return disagree(r, &nd->children[0], "a map key is NULL", err);
  return CHV_OK;
}

int pq_assemble(struct chv_pq_reader *r, const struct pq_rnode *nd,
                struct chv_vector *v, struct chv_error *err) {
  CHV_RETURN_IF_ERR(asm_node(r, nd, v, err));
  return check_shape(r, nd, v, err);
}
