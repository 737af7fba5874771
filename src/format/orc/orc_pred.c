/*
** Pushed predicates (chive/pred.h) against ORC statistics: a stripe is
** skipped when the Metadata section's statistics of a predicate's column in
** that stripe prove no row can match, a row group when its row index entry's
** statistics do, or, for an equality, when the column's bloom filter for
** the group proves the literal absent.  Every predicate works on a
** top-level column of a primitive type; the literal is converted to the
** file column's domain exactly (a literal that does not convert makes the
** predicate unusable, never an error).
**
** What is trusted, following ORC's own reader (RecordReaderImpl):
**   - integers (tinyint..bigint), dates, decimals: min and max; decimals
**     not for precision <= 18 in ORC Java's files of writer version 6 (ORC
**     1.5.0 to 1.5.5 wrote broken decimal64 bounds, ORC-517; other writers'
**     version 6, chive's among them, is not that one);
**   - float and double: min and max only when the sum is known and not NaN
**     (a NaN makes the sum NaN), the literal rounded to a float for a FLOAT
**     column as the column's values are;
**   - strings and varchars: byte-wise min and max (or the lower and upper
**     bounds of ORC-203 when the values were too long), from writer version
**     1 (HIVE-8732) on, and only when the produced type cannot change the
**     values (STRING, or a VARCHAR at least as long as the file's); never
**     for CHAR (stored padded);
**   - booleans: the count of true values;
**   - timestamps: none (their statistics depend on the writer's zone and
**     version); binary: none;
**   - NULLs: hasNull for IS NULL, numberOfValues = 0 (all NULL) for the
**     rest.
** Bloom filters, for = only: integers and dates (Thomas Wang's hash),
** floating point, strings (BLOOM_FILTER_UTF8, or BLOOM_FILTER from writer
** version 3, HIVE-12055, on); never those of ORC C++ 1.6.0 to 1.7.0
** writers (ORC-1024: their numeric hashes differ) nor filters
** chv_orc_bloom_filter_usable() rejects.
**
** INTERFACE: or_preds_prepare(), or_preds_usable(), or_preds_columns(),
** or_preds_rule_out_stripe(), or_preds_rule_out_group() (orc_read.h).
*/
#include "format/orc/orc_read.h"
#include "types/types.h"

#include <math.h>
#include <stdlib.h>

enum or_sk { SK_NONE, SK_BOOL, SK_INT, SK_REAL, SK_BYTES, SK_DEC };

struct or_sval {
  chv_i128 num;     /* SK_BOOL, SK_INT (dates: days), SK_DEC (unscaled) */
  double real;      /* SK_REAL */
  const uint8_t *p; /* SK_BYTES */
  size_t len;
};

struct or_pred {
  const struct chv_pred *p;
  int64_t col;       /* file column, or -1: no statistics */
  enum or_sk kind;
  int32_t fkind;     /* its ORC kind */
  bool is_date;      /* SK_INT from date statistics */
  int scale;         /* SK_DEC: the file's scale */
  bool lit_ok;       /* the literal converted exactly */
  struct or_sval lit;
  bool bloom;        /* an = whose literal a bloom filter can test */
  bool bloom_string; /* ... hashed as bytes */
  uint64_t hash;
};

/* What statistics say of a set of rows. */
struct or_bounds {
  bool has_null_known, has_null;
  bool all_null;           /* no value at all */
  bool have_min, have_max; /* bounds of the values */
  struct or_sval mn, mx;
  bool exact;              /* the bounds are values of the set */
};

static bool lit_convert(struct or_pred *pp, const struct chv_type *target) {
  const char *s = pp->p->value;
  if (s == NULL) return false;
  struct or_sval *v = &pp->lit;
  switch (pp->kind) {
  case SK_BOOL:
    if (chv_str_ieq(s, "true"))
      v->num = 1;
    else if (chv_str_ieq(s, "false"))
      v->num = 0;
    else
      return false;
    return true;
  case SK_INT:
    if (pp->is_date) {
      int32_t d;
      if (chv_date_parse(s, strlen(s), &d) != CHV_OK) return false;
      v->num = d;
      return true;
    }
    return chv_decimal_parse_exact(s, 0, &v->num);
  case SK_DEC:
    return chv_decimal_parse_exact(s, pp->scale, &v->num);
  case SK_REAL: {
    char *end;
    double d = strtod(s, &end);
    while (*end == ' ') end++;
    if (end == s || *end != '\0' || isnan(d)) return false;
    v->real = target->id == CHV_TYPE_FLOAT ? (double)(float)d : d;
    return true;
  }
  case SK_BYTES:
    v->p = (const uint8_t *)s;
    v->len = strlen(s);
    return true;
  default:
    return false;
  }
}

static void prepare(struct chv_orc_reader *r, const struct chv_pred *p,
                    struct or_pred *pp) {
  memset(pp, 0, sizeof *pp);
  pp->p = p;
  pp->col = -1;
  const struct chv_type *target;
  int64_t col = p->column ? or_reader_file_column(r, p->column, &target) : -1;
  if (col < 0 || !chv_type_is_primitive(target->id)) return;
  const struct chv_orc_type *ot = &r->tail->footer.types[col];
  const struct chv_type *ft = r->ftypes[col];
  if (ft == NULL &&
      chv_orc_hive_type(r->tail, (uint32_t)col, &r->ftypes[col], NULL) != CHV_OK)
    return;
  ft = r->ftypes[col];
  if (!chv_type_is_primitive(ft->id) || !chv_type_widens(ft, target)) return;
  pp->col = col;
  pp->fkind = ot->kind;
  uint32_t wv = r->tail->ps.writer_version;
  switch (ot->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    pp->kind = SK_BOOL;
    break;
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
    pp->kind = SK_INT;
    break;
  case CHV_ORC_KIND_DATE:
    pp->kind = SK_INT;
    pp->is_date = true;
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    pp->kind = SK_REAL;
    break;
  case CHV_ORC_KIND_DECIMAL:
    /* ORC-517 was ORC Java's: other writers' version 6 is not it */
    if (!(wv == 6 && ft->precision <= 18 &&
          (!r->tail->footer.has_writer || r->tail->footer.writer == 0)))
      pp->kind = SK_DEC;
    pp->scale = ft->scale;
    break;
  case CHV_ORC_KIND_STRING:
  case CHV_ORC_KIND_VARCHAR:
    if (wv >= 1 &&
        (target->id == CHV_TYPE_STRING ||
         (target->id == CHV_TYPE_VARCHAR && ft->id == CHV_TYPE_VARCHAR &&
          target->length >= ft->length)))
      pp->kind = SK_BYTES;
    break;
  default:
    break;
  }
  pp->lit_ok = pp->kind != SK_NONE && lit_convert(pp, target);
  if (p->op != CHV_PRED_EQ || !pp->lit_ok || r->bad_blooms) return;
  switch (pp->kind) {
  case SK_INT:
    if (pp->lit.num >= INT64_MIN && pp->lit.num <= INT64_MAX) {
      pp->bloom = true;
      pp->hash = or_bloom_hash_long((int64_t)pp->lit.num);
    }
    break;
  case SK_REAL:
    pp->bloom = true;
    pp->hash = or_bloom_hash_double(pp->lit.real);
    break;
  case SK_BYTES:
    pp->bloom = true;
    pp->bloom_string = true;
    pp->hash = or_bloom_hash_bytes(pp->lit.p, pp->lit.len);
    break;
  default:
    break;
  }
}

int or_preds_prepare(struct chv_orc_reader *r, struct chv_error *err) {
  if (r->o.npreds <= 0 || r->o.preds == NULL) {
    r->o.npreds = 0;
    return CHV_OK;
  }
  r->preds = chv_calloc((size_t)r->o.npreds, sizeof *r->preds);
  if (r->preds == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < r->o.npreds; i++) prepare(r, &r->o.preds[i], &r->preds[i]);
  return CHV_OK;
}

bool or_preds_usable(const struct chv_orc_reader *r) {
  for (int i = 0; i < r->o.npreds; i++)
    if (r->preds[i].col >= 0) return true;
  return false;
}

void or_preds_columns(const struct chv_orc_reader *r, bool *cols) {
  for (int i = 0; i < r->o.npreds; i++)
    if (r->preds[i].col >= 0) cols[r->preds[i].col] = true;
}

/* ---- statistics to bounds ---------------------------------------------- */

static int cmp(enum or_sk k, const struct or_sval *a, const struct or_sval *b) {
  switch (k) {
  case SK_REAL:
    return (a->real > b->real) - (a->real < b->real);
  case SK_BYTES: {
    int c = memcmp(a->p, b->p, CHV_MIN(a->len, b->len));
    if (c) return c < 0 ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
  }
  default:
    return (a->num > b->num) - (a->num < b->num);
  }
}

static bool dec_bound(const char *s, int scale, chv_i128 *out) {
  return s != NULL && chv_decimal_parse_exact(s, scale, out);
}

static void bounds_of(const struct or_pred *pp,
                      const struct chv_orc_column_stats *cs,
                      struct or_bounds *b) {
  memset(b, 0, sizeof *b);
  b->has_null_known = cs->has_has_null;
  b->has_null = cs->has_null;
  b->all_null = cs->has_number_of_values && cs->number_of_values == 0;
  b->exact = true;
  switch (pp->kind) {
  case SK_BOOL:
    if (cs->has_bucket && cs->bucket_stats.ncount >= 1 &&
        cs->has_number_of_values && cs->number_of_values > 0) {
      uint64_t t = cs->bucket_stats.count[0], n = cs->number_of_values;
      b->have_min = b->have_max = true;
      b->mn.num = t >= n ? 1 : 0;
      b->mx.num = t > 0 ? 1 : 0;
    }
    break;
  case SK_INT:
    if (pp->is_date) {
      if (!cs->has_date) break;
      b->have_min = cs->date_stats.has_min;
      b->have_max = cs->date_stats.has_max;
      b->mn.num = cs->date_stats.min;
      b->mx.num = cs->date_stats.max;
    } else {
      if (!cs->has_int) break;
      b->have_min = cs->int_stats.has_min;
      b->have_max = cs->int_stats.has_max;
      b->mn.num = cs->int_stats.min;
      b->mx.num = cs->int_stats.max;
    }
    break;
  case SK_REAL: {
    const struct chv_orc_double_stats *d = &cs->double_stats;
    if (!cs->has_double || !d->has_sum || isnan(d->sum)) break;
    b->have_min = d->has_min && !isnan(d->min);
    b->have_max = d->has_max && !isnan(d->max);
    b->mn.real = d->min;
    b->mx.real = d->max;
    break;
  }
  case SK_DEC:
    if (!cs->has_decimal) break;
    b->have_min = dec_bound(cs->decimal_stats.min, pp->scale, &b->mn.num);
    b->have_max = dec_bound(cs->decimal_stats.max, pp->scale, &b->mx.num);
    break;
  case SK_BYTES: {
    const struct chv_orc_string_stats *s = &cs->string_stats;
    if (!cs->has_string) break;
    if (s->has_min) {
      b->have_min = true;
      b->mn.p = s->min.data;
      b->mn.len = s->min.len;
    } else if (s->has_lower_bound) {
      b->have_min = true;
      b->exact = false;
      b->mn.p = s->lower_bound.data;
      b->mn.len = s->lower_bound.len;
    }
    if (s->has_max) {
      b->have_max = true;
      b->mx.p = s->max.data;
      b->mx.len = s->max.len;
    } else if (s->has_upper_bound) {
      b->have_max = true;
      b->exact = false;
      b->mx.p = s->upper_bound.data;
      b->mx.len = s->upper_bound.len;
    }
    break;
  }
  default:
    break;
  }
}

/* True when pp provably matches none of the rows b describes. */
static bool rules_out(const struct or_pred *pp, const struct or_bounds *b) {
  enum chv_pred_op op = pp->p->op;
  if (op == CHV_PRED_IS_NULL) return b->has_null_known && !b->has_null;
  if (op == CHV_PRED_IS_NOT_NULL) return b->all_null;
  if (op != CHV_PRED_EQ && op != CHV_PRED_NE && op != CHV_PRED_LT &&
      op != CHV_PRED_LE && op != CHV_PRED_GT && op != CHV_PRED_GE)
    return false;
  if (b->all_null) return true; /* a comparison with NULL is never true */
  if (!pp->lit_ok) return false;
  enum or_sk k = pp->kind;
  const struct or_sval *lit = &pp->lit;
  switch (op) {
  case CHV_PRED_EQ:
    return (b->have_min && cmp(k, lit, &b->mn) < 0) ||
           (b->have_max && cmp(k, lit, &b->mx) > 0);
  case CHV_PRED_NE:
    return b->have_min && b->have_max && b->exact &&
           cmp(k, &b->mn, lit) == 0 && cmp(k, &b->mx, lit) == 0;
  case CHV_PRED_LT:
    return b->have_min && cmp(k, &b->mn, lit) >= 0;
  case CHV_PRED_LE:
    return b->have_min && cmp(k, &b->mn, lit) > 0;
  case CHV_PRED_GT:
    return b->have_max && cmp(k, &b->mx, lit) <= 0;
  default: /* GE */
    return b->have_max && cmp(k, &b->mx, lit) < 0;
  }
}

bool or_preds_rule_out_stripe(struct chv_orc_reader *r, uint32_t stripe) {
  const struct chv_orc_metadata *m = r->meta;
  if (m == NULL || stripe >= m->nstripes) return false;
  const struct chv_orc_stripe_stats *ss = &m->stripes[stripe];
  for (int i = 0; i < r->o.npreds; i++) {
    const struct or_pred *pp = &r->preds[i];
    if (pp->col < 0 || (uint64_t)pp->col >= ss->ncolumns) continue;
    struct or_bounds b;
    bounds_of(pp, &ss->columns[pp->col], &b);
    if (rules_out(pp, &b)) return true;
  }
  return false;
}

/* The group's bloom filter says pp's literal is absent. */
static bool bloom_rules_out(struct chv_orc_reader *r, const struct or_pred *pp,
                            uint32_t g) {
  if (!pp->bloom) return false;
  const struct chv_orc_bloom_index *bi = &r->bi[pp->col];
  if (bi->filters == NULL || g >= bi->nfilters) return false;
  int32_t kind = r->bi_kind[pp->col];
  const struct chv_orc_encoding *e = &r->sf.columns[pp->col];
  if (kind == CHV_ORC_STREAM_BLOOM_FILTER_UTF8) {
    if (e->has_bloom_encoding && e->bloom_encoding > 1) return false;
  } else if (pp->bloom_string && r->tail->ps.writer_version < 3) {
    return false; /* strings in the JVM's charset */
  }
  const struct chv_orc_bloom_filter *f = &bi->filters[g];
  if (!chv_orc_bloom_filter_usable(f)) return false;
  return !or_bloom_test(f, pp->hash);
}

bool or_preds_rule_out_group(struct chv_orc_reader *r, uint32_t g) {
  for (int i = 0; i < r->o.npreds; i++) {
    const struct or_pred *pp = &r->preds[i];
    if (pp->col < 0) continue;
    const struct chv_orc_row_index *ri = &r->ri[pp->col];
    if (ri->entries && g < ri->nentries && ri->entries[g].statistics) {
      struct or_bounds b;
      bounds_of(pp, ri->entries[g].statistics, &b);
      if (rules_out(pp, &b)) return true;
    }
    if (bloom_rules_out(r, pp, g)) return true;
  }
  return false;
}
