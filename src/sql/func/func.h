/*
** sql/func: the function registry.  One entry per function name (sorted,
** looked up case-insensitively), each with its overloads: the type classes
** its arguments accept and the types they are cast to, how the result type
** is derived (Hive's rules), and a vectorized kernel (scalar functions) or
** an aggregate implementation (state, update, merge, finalize).  The
** binder finds functions here by name; sql/exec's constructors resolve an
** overload here and insert the casts it asks for, and its evaluator calls
** the overload's kernel on a whole batch.  docs/func.md describes the
** invariants, the type rules and how to add a function.
**
** The module also holds what kernels, aggregates and the evaluator share:
** values of Hive's primitive types (struct chv_value) with accessors,
** decimal arithmetic, Java's Double.toString, and a hash set of byte keys
** (COUNT(DISTINCT), the hash aggregation's groups).
**
** INTERFACE
**   chv_func_lookup()/_count()/_at()/_signature()   the registry
**   chv_func_resolve()    an overload for argument types -> result, casts
**   chv_func_arg_*()      what a kernel reads of its arguments
**   chv_agg_*()           aggregate states: open/update/merge/finalize
**   chv_keyset_*()        hash set of byte keys
**   chv_func_*()          values, decimals, Java's double text
**
** Thread safety: the registry is a constant table; every function here may
** be called from any thread.  A state or key set belongs to one thread at a
** time.
*/
#ifndef CHV_SQL_FUNC_H
#define CHV_SQL_FUNC_H

#include "common/common.h"
#include "chive/types.h"
#include "types/types.h" /* chv_decimal_pow10() */

/* ---- values ------------------------------------------------------------ */

/* A value of a primitive type; which member is used follows the type id
** (ints of every width and DATE in i64, FLOAT/DOUBLE in f64, strings as
** bytes). */
struct chv_value {
  bool is_null;
  bool b;
  int64_t i64;          /* TINYINT..BIGINT, DATE (days) */
  double f64;           /* FLOAT, DOUBLE */
  chv_i128 dec;         /* DECIMAL: unscaled at the type's scale */
  struct chv_timestamp ts;
  const char *str;      /* string types: bytes (borrowed), not terminated */
  int64_t len;
};

/* Arena-allocated primitive type (id, decimal precision/scale, or length
** for CHAR/VARCHAR); NULL on out-of-memory. */
const struct chv_type *chv_func_type(chv_arena *a, enum chv_type_id id,
                                     int precision_or_length, int scale);

bool chv_func_is_integral(enum chv_type_id id); /* TINYINT..BIGINT */
bool chv_func_is_numeric(enum chv_type_id id);  /* TINYINT..DECIMAL */
bool chv_func_is_string(enum chv_type_id id);   /* STRING, VARCHAR, CHAR */

/* Row i of v as a value (strings point into v). */
void chv_func_get_value(const struct chv_vector *v, int64_t i,
                        struct chv_value *out);
/* Append a value (NULL or not) of the vector's type (narrowing integers,
** the CHAR/VARCHAR length rule for strings). */
int chv_func_append_value(struct chv_vector *out, const struct chv_value *v,
                          struct chv_error *err);
/* Three-way comparison of two non-NULL values of type t (Java's primitive
** order for doubles: NaN compares as unordered -> 2). */
int chv_func_compare_values(const struct chv_type *t,
                            const struct chv_value *a,
                            const struct chv_value *b);

/* v (unscaled at scale `from`) at scale `to`, rounding half away from zero;
** false when it overflows 128 bits. */
bool chv_func_dec_rescale(chv_i128 v, int from, int to, chv_i128 *out);
/* |v| < 10^precision */
static inline bool chv_func_dec_fits(chv_i128 v, int precision) {
  chv_i128 lim = chv_decimal_pow10(precision);
  return v < lim && v > -lim;
}
/* n / d rounded half away from zero (d != 0). */
chv_i128 chv_func_div_round(chv_i128 n, chv_i128 d);

/* Java's Double.toString / Float.toString; buf >= 32; returns length. */
int chv_func_format_double(double d, char *buf);
int chv_func_format_float(float f, char *buf);
/* Hive's round(double, d): BigDecimal.valueOf(x) (the digits of
** Double.toString) rounded half up to d places. */
double chv_func_round_double(double x, int d);

/* ---- kernels ------------------------------------------------------------ */

/* One argument of a kernel call of n rows: row j of the argument is row
** sel[j] of v (sel NULL: row j), or, when v is NULL, the constant k for
** every row.  The evaluator hands a column it reads under a selection as
** the column and that selection (no copy), and every other argument as a
** dense vector it evaluated. */
struct chv_func_arg {
  const struct chv_type *type; /* the parameter's type (casts applied) */
  const struct chv_vector *v;  /* NULL: a constant */
  const uint32_t *sel;         /* rows of v; NULL: 0..n-1 */
  const struct chv_value *k;   /* the constant (v NULL); may be NULL-valued */
};

/* A scalar kernel: fills out (a vector of the call's result type, which
** the kernel resets) with n rows, row j computed from row j of each
** argument; a row is NULL where Hive's function gives NULL (bad data gives
** NULL, never an error).  It fails only with CHV_ENOMEM, or CHV_ERANGE for
** string results past 2 GiB (out then holds no meaningful rows). */
typedef int (*chv_func_kernel)(const struct chv_func_arg *args, int nargs,
                               int64_t n, struct chv_vector *out,
                               struct chv_error *err);

static inline int64_t chv_func_arg_row(const struct chv_func_arg *a,
                                       int64_t j) {
  return a->sel ? (int64_t)a->sel[j] : j;
}
static inline bool chv_func_arg_null(const struct chv_func_arg *a, int64_t j) {
  return a->v ? chv_vector_is_null(a->v, chv_func_arg_row(a, j))
              : a->k->is_null;
}
/* Bytes of non-NULL row j of a string argument. */
static inline void chv_func_arg_str(const struct chv_func_arg *a, int64_t j,
                                    const char **p, int64_t *n) {
  if (a->v == NULL) {
    *p = a->k->str;
    *n = a->k->len;
    return;
  }
  int64_t r = chv_func_arg_row(a, j);
  *p = a->v->bytes + a->v->offsets[r];
  *n = a->v->offsets[r + 1] - a->v->offsets[r];
}
/* Row j of an argument as a value. */
static inline void chv_func_arg_value(const struct chv_func_arg *a, int64_t j,
                                      struct chv_value *out) {
  if (a->v == NULL)
    *out = *a->k;
  else
    chv_func_get_value(a->v, chv_func_arg_row(a, j), out);
}

/* ---- aggregates --------------------------------------------------------- */

/* The built-in aggregate forms (the hash aggregation's spec names them). */
enum chv_agg_fn {
  CHV_AGG_COUNT_STAR,
  CHV_AGG_COUNT,
  CHV_AGG_COUNT_DISTINCT,
  CHV_AGG_SUM,
  CHV_AGG_MIN,
  CHV_AGG_MAX,
  CHV_AGG_AVG
};

/* How an aggregate is called: f(x), f(*), f(DISTINCT x). */
enum chv_agg_form { CHV_AGG_PLAIN, CHV_AGG_STAR, CHV_AGG_DISTINCT };

/* One group-by column's accumulators for every group (func_int.h). */
typedef struct chv_agg_state chv_agg_state;

/* An aggregate's implementation.  A state holds all groups of one
** aggregate column: the arrays every built-in shares (count, i64, f64, and
** dec/ovf, ts or str by the argument's kind) plus group_bytes of its own
** per group (chv_agg_state.ext).  A new group's state is all zero unless
** init sets it.  update and merge are only called once the groups they
** name exist. */
struct chv_agg_impl {
  const char *name;  /* in messages: "sum", "count(distinct)" */
  size_t group_bytes; /* per-group bytes beyond the shared arrays */
  /* Initial state of the new groups [from, to); NULL: all zero. */
  void (*init)(chv_agg_state *s, int64_t from, int64_t to);
  /* Add rows sel[0..n) (NULL: 0..n-1) of col (NULL for COUNT(*)); row i
  ** to group groups[i] (NULL: every row to group 0). */
  int (*update)(chv_agg_state *s, const struct chv_vector *col,
                const uint32_t *sel, int64_t n, const uint32_t *groups,
                struct chv_error *err);
  /* Fold other's group g into group map[g] (NULL: g). */
  int (*merge)(chv_agg_state *s, const chv_agg_state *other,
               const uint32_t *map, struct chv_error *err);
  /* out (reset here) gets one row per group. */
  int (*finalize)(const chv_agg_state *s, struct chv_vector *out,
                  struct chv_error *err);
};

/* The implementation of a built-in form. */
const struct chv_agg_impl *chv_agg_impl_of(enum chv_agg_fn fn);

/* Hive's result type of fn over arg (arg may be NULL for COUNT(*)), in
** the arena, through the registry's overloads.  CHV_ETYPE for an argument
** type fn does not take. */
int chv_agg_result_type(chv_arena *a, enum chv_agg_fn fn,
                        const struct chv_type *arg,
                        const struct chv_type **out, struct chv_error *err);
/* out: close with chv_agg_state_close().  `arg` and `result` are borrowed
** (result from chv_agg_result_type()) and must outlive the state. */
int chv_agg_state_open(enum chv_agg_fn fn, const struct chv_type *arg,
                       const struct chv_type *result, chv_agg_state **out,
                       struct chv_error *err);
/* The same for any implementation (impl borrowed, must outlive it). */
int chv_agg_state_open_impl(const struct chv_agg_impl *impl,
                            const struct chv_type *arg,
                            const struct chv_type *result,
                            chv_agg_state **out, struct chv_error *err);
void chv_agg_state_close(chv_agg_state *s);
/* Add rows sel[0..n) (NULL: 0..n-1) of col (NULL for COUNT(*)); row i
** belongs to group groups[i] (NULL: every row to group 0). */
int chv_agg_update(chv_agg_state *s, const struct chv_vector *col,
                   const uint32_t *sel, int64_t n, const uint32_t *groups,
                   struct chv_error *err);
/* chv_agg_update() when every group of groups[] exists already
** (chv_agg_ensure_groups()): no pass over the group ids. */
int chv_agg_update_rows(chv_agg_state *s, const struct chv_vector *col,
                        const uint32_t *sel, int64_t n,
                        const uint32_t *groups, struct chv_error *err);
/* Fold other (same implementation and types) into s: other's group g into
** group map[g] (NULL: g).  other is left unchanged. */
int chv_agg_merge(chv_agg_state *s, const chv_agg_state *other,
                  const uint32_t *map, struct chv_error *err);
/* Groups known to the state (the highest group id seen + 1). */
int64_t chv_agg_ngroups(const chv_agg_state *s);
/* Make sure groups 0..n-1 exist (a group with no rows: COUNT 0, else
** NULL). */
int chv_agg_ensure_groups(chv_agg_state *s, int64_t n, struct chv_error *err);
/* Reset out (a vector of the result type) to one row per group. */
int chv_agg_finalize(const chv_agg_state *s, struct chv_vector *out,
                     struct chv_error *err);
/* Approximate bytes the state holds (for memory bounds). */
size_t chv_agg_memory(const chv_agg_state *s);
/* The state's implementation and result type. */
const struct chv_agg_impl *chv_agg_state_impl(const chv_agg_state *s);
const struct chv_type *chv_agg_state_result(const chv_agg_state *s);

/* ---- the registry --------------------------------------------------------- */

enum chv_func_kind { CHV_FUNC_SCALAR, CHV_FUNC_AGGREGATE };

/* The types an argument accepts (docs/func.md). */
#define CHV_FUNC_CLASS_MAP(X)                                                 \
  X(ANY, "any")          /* any primitive type */                             \
  X(VALUE, "value")      /* any primitive but BINARY */                       \
  X(TEXT, "string")      /* any primitive but BINARY and BOOLEAN */           \
  X(STRING, "string")    /* STRING, VARCHAR, CHAR */                          \
  X(NUMERIC, "numeric")  /* TINYINT..DECIMAL */                               \
  X(INTEGRAL, "integral") /* TINYINT..BIGINT */                               \
  X(TO_INT, "int")       /* any primitive but BINARY, cast to INT as Hive's  \
                            converters read it ('x' is NULL) */              \
  X(FLOATING, "floating") /* FLOAT, DOUBLE */                                 \
  X(DECIMAL, "decimal")                                                       \
  X(BINARY, "binary")                                                         \
  X(DATE, "date")        /* DATE, TIMESTAMP, STRING, VARCHAR, CHAR */         \
  X(CONST_INT, "integer constant") /* a non-NULL integral literal */

enum chv_func_class {
#define CHV_X_(id, name) CHV_FC_##id,
  CHV_FUNC_CLASS_MAP(CHV_X_)
#undef CHV_X_
  CHV_FC_COUNT
};

/* Parameter cast target meaning "the argument keeps its type", and result
** type meaning "the type of the first argument (after its cast)". */
#define CHV_FUNC_KEEP CHV_TYPE_COUNT
#define CHV_FUNC_SAME CHV_TYPE_COUNT

#define CHV_FUNC_MAX_PARAMS 4
#define CHV_FUNC_MAX_ARGS (1 << 20)

struct chv_func_param {
  enum chv_func_class cls;
  enum chv_type_id cast; /* the argument is cast to this; CHV_FUNC_KEEP */
  const char *what;      /* CONST_INT: what it is, for the error message */
};

/* An argument as resolution sees it. */
struct chv_func_argdesc {
  const struct chv_type *type;
  const struct chv_value *constant; /* a literal's value; NULL otherwise */
};

/* Result type of an overload computed from its (cast) arguments, in the
** arena; CHV_ENOMEM only. */
typedef int (*chv_func_derive)(chv_arena *a,
                               const struct chv_func_argdesc *args,
                               int nargs, const struct chv_type **out,
                               struct chv_error *err);

struct chv_func_overload {
  int min_args, max_args; /* max_args > nparams: the last parameter repeats */
  int nparams;
  struct chv_func_param params[CHV_FUNC_MAX_PARAMS];
  enum chv_type_id result;   /* CHV_FUNC_SAME: the first argument's type */
  chv_func_derive derive;    /* when set, the result type instead */
  chv_func_kernel kernel;    /* scalar functions */
  const struct chv_agg_impl *agg; /* aggregates */
  enum chv_agg_form form;    /* aggregates: how it is called */
};

/* A registered function.  An alias (ucase for upper) is a row of its own
** naming the function it is: lookup returns that function, whose name
** messages use. */
struct chv_func {
  const char *name;       /* lower case; the name looked up */
  enum chv_func_kind kind;
  const struct chv_func_overload *over; /* NULL for an alias */
  int nover;
  const char *alias_of;   /* an alias: the function it is; else NULL */
  const char *doc;        /* one sentence: what it returns */
};

/* The function named name (case-insensitive; an alias gives the function
** it names), or NULL. */
const struct chv_func *chv_func_lookup(const char *name);
/* The rows of the registry, aliases included, sorted by name:
** chv_func_at(0 .. chv_func_count() - 1). */
int chv_func_count(void);
const struct chv_func *chv_func_at(int i);
const char *chv_func_kind_name(enum chv_func_kind k); /* "scalar", ... */
/* Its overloads as text under its own name, "; " between them:
** "substr(string, integral[, integral]) -> string". */
int chv_func_signature(const struct chv_func *f, struct chv_buf *out);

/* What resolution chose. */
struct chv_func_bound {
  const struct chv_func_overload *ov;
  const struct chv_type *result;
  /* nargs types, arena: the type argument i is cast to, NULL when it
  ** keeps its own */
  const struct chv_type **casts;
};

/* Choose the overload of f called in `form` (CHV_AGG_PLAIN for scalars)
** that accepts the argument types: the first whose every parameter
** accepts its argument.  Errors, in this order: CHV_EINVAL for a count of
** arguments no overload takes ("'substr' takes 2 or more arguments, not
** 1"); CHV_ETYPE for a constant parameter given something else, then for
** a type no overload takes ("cannot apply 'upper' to boolean"; aggregates:
** "sum needs a primitive argument").  *out written on success only. */
int chv_func_resolve(chv_arena *a, const struct chv_func *f,
                     enum chv_agg_form form,
                     const struct chv_func_argdesc *args, int nargs,
                     struct chv_func_bound *out, struct chv_error *err);

/* ---- hash set of byte keys ------------------------------------------------ */

/* Keys (byte strings) numbered 0, 1, ... in order of insertion.  A slot
** holds an entry's id + 1 in its low 32 bits (0: empty) and the high 32
** bits of its hash above, so a probe passing other keys reads only the
** slots; while every key has one length (klen), an entry's bytes are at
** id * klen and the offsets are not read. */
struct chv_keyset {
  uint64_t *slots;   /* hash >> 32 << 32 | (entry id + 1); 0 = empty */
  uint64_t *hashes;  /* per entry (read when the slots grow) */
  uint32_t *offs;    /* per entry + 1: key offsets into keys */
  size_t nslots;     /* power of two */
  size_t n;          /* entries */
  size_t ecap;       /* entries allocated */
  size_t klen;       /* every key's length, or SIZE_MAX: not all one */
  struct chv_buf keys;
};

/* A zeroed struct is an empty set. */
void chv_keyset_free(struct chv_keyset *h);
uint64_t chv_keyset_hash(const void *p, size_t n);
size_t chv_keyset_memory(const struct chv_keyset *h);
/* Room for one more entry of len key bytes (after which find and insert
** cannot fail); CHV_ENOMEM. */
int chv_keyset_reserve(struct chv_keyset *h, size_t len);
/* Whether len bytes at a and b are equal: keys of up to 16 bytes (an
** integer's 8 or 9) by two overlapping word loads, not a call; no bytes
** are equal, whatever a and b are (an empty string may have none). */
static inline bool chv_key_eq(const char *a, const char *b, size_t len) {
  if (len >= 8 && len <= 16) {
    uint64_t a0, b0, a1, b1;
    memcpy(&a0, a, 8);
    memcpy(&b0, b, 8);
    memcpy(&a1, a + len - 8, 8);
    memcpy(&b1, b + len - 8, 8);
    return a0 == b0 && a1 == b1;
  }
  if (len >= 4 && len < 8) {
    uint32_t a0, b0, a1, b1;
    memcpy(&a0, a, 4);
    memcpy(&b0, b, 4);
    memcpy(&a1, a + len - 4, 4);
    memcpy(&b1, b + len - 4, 4);
    return a0 == b0 && a1 == b1;
  }
  return len == 0 || memcmp(a, b, len) == 0;
}

/* Id of key, or UINT32_MAX with *slot where it would go. */
static inline uint32_t chv_keyset_find(const struct chv_keyset *h,
                                       const void *key, size_t len,
                                       uint64_t hv, size_t *slot) {
  size_t mask = h->nslots - 1, j = hv & mask;
  uint64_t tag = hv >> 32 << 32, x;
  bool fixed = h->klen == len;
  while ((x = h->slots[j]) != 0) {
    if ((x & 0xffffffff00000000ull) == tag) {
      uint32_t e = (uint32_t)x - 1;
      const char *k;
      if (fixed) {
        k = h->keys.data + (size_t)e * len;
      } else {
        k = h->keys.data + h->offs[e];
        if (h->offs[e + 1] - h->offs[e] != len) k = NULL;
      }
      if (k && chv_key_eq(k, key, len)) return e;
    }
    j = (j + 1) & mask;
  }
  *slot = j;
  return UINT32_MAX;
}
/* Start loading the slot a key of hash hv is looked up at (find() on a
** batch of hashes runs faster with this a few rows ahead). */
static inline void chv_keyset_prefetch(const struct chv_keyset *h, uint64_t hv) {
  if (h->nslots) __builtin_prefetch(&h->slots[hv & (h->nslots - 1)]);
}
/* Add key at slot (from find, after reserve); returns its id. */
uint32_t chv_keyset_insert(struct chv_keyset *h, const void *key, size_t len,
                           uint64_t hv, size_t slot);
/* Id of key, adding it if new (*added); CHV_ENOMEM. */
int chv_keyset_put(struct chv_keyset *h, const void *key, size_t len,
                   uint32_t *id, bool *added);
static inline const char *chv_keyset_key(const struct chv_keyset *h,
                                         uint32_t id, size_t *len) {
  *len = h->offs[id + 1] - h->offs[id];
  return h->keys.data + h->offs[id];
}
/* Append row i of v as key bytes: a NULL flag, then the value (doubles
** with -0.0 as 0.0 and one NaN, so equal keys are equal bytes). */
int chv_keyset_encode(struct chv_buf *b, const struct chv_vector *v,
                      int64_t i);
/* The same bytes for the value x of type id (x->is_null: NULL). */
int chv_keyset_encode_value(struct chv_buf *b, enum chv_type_id id,
                            const struct chv_value *x);

/* ---- hash set of integer keys ---------------------------------------------- */

/* 64-bit integer keys numbered 0, 1, ... in order of insertion (or by ids
** the caller gives), for a hash join on one integer key and the group
** cache of the hash aggregation: a slot holds the key itself and its id + 1
** (0: empty), so a lookup is one multiply and, mostly, one cache line,
** with no key bytes encoded.  Open addressing with linear probing over a
** power-of-two slot array kept at most half full; the slot of k is the
** high bits of k times the golden ratio's 64-bit fraction (Fibonacci
** hashing), which spreads consecutive keys over the slots. */
struct chv_intset_slot {
  int64_t key;
  uint64_t id1; /* id + 1; 0 = empty */
};
struct chv_intset {
  struct chv_intset_slot *slots;
  int shift;         /* 64 - log2(nslots) */
  size_t nslots;     /* power of two, or 0 */
  size_t n;          /* entries */
};

/* A zeroed struct is an empty set. */
void chv_intset_free(struct chv_intset *s);
/* Room for `more` keys beyond those held (growing before a batch's
** inserts); CHV_ENOMEM. */
int chv_intset_reserve(struct chv_intset *s, size_t more);
size_t chv_intset_memory(const struct chv_intset *s);
static inline size_t chv_intset_slot_of(const struct chv_intset *s,
                                        int64_t k) {
  return (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> s->shift);
}
/* Start loading the slot k is looked up at (a few rows ahead). */
static inline void chv_intset_prefetch(const struct chv_intset *s, int64_t k) {
  if (s->nslots) __builtin_prefetch(&s->slots[chv_intset_slot_of(s, k)]);
}
/* Id of k, or UINT32_MAX: not held. */
static inline uint32_t chv_intset_find(const struct chv_intset *s, int64_t k) {
  if (s->nslots == 0) return UINT32_MAX;
  size_t mask = s->nslots - 1, j = chv_intset_slot_of(s, k);
  for (;;) {
    const struct chv_intset_slot *x = &s->slots[j];
    if (x->id1 == 0) return UINT32_MAX;
    if (x->key == k) return (uint32_t)(x->id1 - 1);
    j = (j + 1) & mask;
  }
}
/* Add k, not held, with the id the caller numbers it by (after reserve;
** a set filled so maps keys to ids of the caller's, not to 0, 1, ...). */
static inline void chv_intset_add(struct chv_intset *s, int64_t k,
                                  uint32_t id) {
  size_t mask = s->nslots - 1, j = chv_intset_slot_of(s, k);
  while (s->slots[j].id1) j = (j + 1) & mask;
  s->slots[j].key = k;
  s->slots[j].id1 = (uint64_t)id + 1;
  s->n++;
}
/* Id of k, adding it if new (after reserve). */
static inline uint32_t chv_intset_put(struct chv_intset *s, int64_t k) {
  size_t mask = s->nslots - 1, j = chv_intset_slot_of(s, k);
  for (;;) {
    struct chv_intset_slot *x = &s->slots[j];
    if (x->id1 == 0) {
      x->key = k;
      x->id1 = ++s->n;
      return (uint32_t)(x->id1 - 1);
    }
    if (x->key == k) return (uint32_t)(x->id1 - 1);
    j = (j + 1) & mask;
  }
}
/* Puts xs[0, n) (duplicates too), growing as they come; CHV_ENOMEM, with
** the set holding some of them. */
int chv_intset_put_all(struct chv_intset *s, const int64_t *xs, size_t n);

/* The keys of a batch's rows, each the bytes chv_keyset_encode() gives for
** the row's values of the key vectors, back to back, with their hashes
** (chv_keyset_hash()).  Encoded a vector at a time: a loop per key column
** and type instead of calls per row and value. */
struct chv_keyrows {
  char *data;        /* row i: data[offs[i], offs[i + 1]) */
  uint32_t *offs;    /* n + 1 */
  uint64_t *hashes;  /* n */
  size_t cap;        /* bytes of data */
  int64_t rcap;      /* rows of offs and hashes */
};
/* A zeroed struct is empty. */
void chv_keyrows_free(struct chv_keyrows *k);
/* The keys of rows sel[0, n) (NULL: 0..n-1) of the nv vectors v into k
** (row i of k is row sel[i]); CHV_ENOMEM. */
int chv_keyrows_encode(struct chv_keyrows *k, const struct chv_vector *const *v,
                       int nv, const uint32_t *sel, int64_t n);
static inline const char *chv_keyrows_key(const struct chv_keyrows *k,
                                          int64_t i, size_t *len) {
  *len = k->offs[i + 1] - k->offs[i];
  return k->data + k->offs[i];
}

#endif /* CHV_SQL_FUNC_H */
